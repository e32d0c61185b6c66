//! `subcog config`

use clap::{Args, Subcommand};
use subcog_core::config::EXAMPLE_CONFIG;

use crate::app::App;
use crate::command_error::CommandResult;
use crate::output;

/// Show the effective configuration, the documented example, or the paths in use.
#[derive(Debug, Args)]
pub struct ConfigArgs {
    /// What to show (default: show)
    #[command(subcommand)]
    pub action: Option<ConfigAction>,
}

/// `config` subcommands.
#[derive(Debug, Subcommand)]
pub enum ConfigAction {
    /// Every setting's effective value and where it came from
    Show,
    /// The documented example config.toml (all defaults)
    Default,
    /// The config file and data directory in use
    Path,
}

/// Runs `config`.
pub fn run(app: &App, args: ConfigArgs) -> CommandResult {
    match args.action.unwrap_or(ConfigAction::Show) {
        ConfigAction::Show => show(app),
        ConfigAction::Default => output::print(EXAMPLE_CONFIG),
        ConfigAction::Path => {
            let file = app.config_path.as_ref().map(|p| p.display().to_string());
            let exists = app.config_path.as_ref().is_some_and(|p| p.exists());
            let data_dir = app.data_dir()?;
            if app.json() {
                return output::print_json(&serde_json::json!({
                    "config_file": file, "config_file_exists": exists, "data_dir": data_dir,
                }));
            }
            let note = if exists { "" } else { "  (not present: defaults apply)" };
            output::print(&format!(
                "config file  {}{note}\ndata dir     {}\n",
                file.unwrap_or_else(|| "-".into()),
                data_dir.display()
            ))
        }
    }
}

/// Settings whose values are secrets: shown as set or not, never printed.
const SECRET_KEYS: &[&str] = &["mcp.token"];

fn show(app: &App) -> CommandResult {
    let mut entries = app.loaded.entries.clone();
    for key in SECRET_KEYS {
        if let Some((v, _)) = entries.get_mut(*key)
            && v.as_str().is_some_and(|s| !s.is_empty())
        {
            *v = toml::Value::String("(set, hidden)".into());
        }
    }
    if let Some((v, _)) = entries.get_mut("storage.url")
        && let Some(url) = v.as_str()
    {
        *v = toml::Value::String(subcog_core::config::url_without_password(url));
    }
    let entries = &entries;
    if app.json() {
        let values: serde_json::Map<String, serde_json::Value> = entries
            .iter()
            .map(|(k, (v, s))| {
                (
                    k.clone(),
                    serde_json::json!({"value": toml_to_json(v), "source": s.to_string()}),
                )
            })
            .collect();
        return output::print_json(&serde_json::json!({
            "config_file": app.loaded.file,
            "values": values,
        }));
    }
    let rows: Vec<Vec<String>> = entries
        .iter()
        .map(|(k, (v, s))| vec![k.clone(), format!("= {v}"), format!("# {s}")])
        .collect();
    output::print(&output::table(
        &rows,
        &[output::HEADING, Default::default(), output::ID],
    ))
}

fn toml_to_json(v: &toml::Value) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}
