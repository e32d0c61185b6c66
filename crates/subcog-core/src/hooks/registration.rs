//! Where Claude Code is told to run subcog's hooks: the project's settings, its local
//! settings, the user's settings, and enabled plugins. Two places at once make Claude Code
//! run every hook twice; subcog answers only the first run (see [`super::state::claim`]),
//! and `subcog init` and `subcog status` say which registration to remove.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::HookEvent;
use super::settings::is_ours;

/// One place that registers subcog's hooks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HookRegistration {
    /// What it is: `project settings`, `local settings`, `user settings`, `plugin <name>`.
    pub place: String,
    /// The file that says so.
    pub path: PathBuf,
    /// The events it registers, by Claude Code's names.
    pub events: Vec<String>,
}

/// Every registration of subcog's hooks for a project, in Claude Code's order of
/// precedence (local, project, user settings, then plugins). `claude_dir` is the user's
/// Claude Code directory (`$CLAUDE_CONFIG_DIR` or `~/.claude`).
pub fn find(project: &Path, claude_dir: &Path) -> Vec<HookRegistration> {
    let settings = [
        ("local settings", project.join(".claude/settings.local.json")),
        ("project settings", project.join(".claude/settings.json")),
        ("user settings", claude_dir.join("settings.json")),
    ];
    let parsed: Vec<(&str, PathBuf, Option<Value>)> = settings
        .into_iter()
        .map(|(place, path)| {
            let v = read_json(&path);
            (place, path, v)
        })
        .collect();
    let mut out = Vec::new();
    for (place, path, value) in &parsed {
        if let Some(events) = value
            .as_ref()
            .map(|v| subcog_events(v.get("hooks")))
            .filter(|e| !e.is_empty())
        {
            out.push(HookRegistration {
                place: (*place).to_string(),
                path: path.clone(),
                events,
            });
        }
    }
    // Plugins: installed ones whose hooks call subcog, enabled by the most specific
    // settings file that names them.
    let installed = read_json(&claude_dir.join("plugins/installed_plugins.json"));
    let plugins = installed
        .as_ref()
        .and_then(|v| v.get("plugins"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for (name, installs) in plugins {
        let enabled = parsed
            .iter()
            .find_map(|(_, _, v)| v.as_ref()?.get("enabledPlugins")?.get(&name)?.as_bool())
            .unwrap_or(false);
        if !enabled {
            continue;
        }
        let paths: Vec<PathBuf> = installs
            .as_array()
            .map(|list| {
                list.iter()
                    .filter_map(|i| i.get("installPath").and_then(Value::as_str))
                    .map(PathBuf::from)
                    .collect()
            })
            .unwrap_or_default();
        for dir in paths {
            let hooks_file = dir.join("hooks/hooks.json");
            let events = read_json(&hooks_file)
                .map(|v| subcog_events(v.get("hooks")))
                .unwrap_or_default();
            if !events.is_empty() {
                out.push(HookRegistration {
                    place: format!("plugin {name}"),
                    path: hooks_file,
                    events,
                });
                break;
            }
        }
    }
    out
}

/// The events whose hooks run subcog, in `hooks` (Claude Code's `"hooks"` object).
fn subcog_events(hooks: Option<&Value>) -> Vec<String> {
    let Some(hooks) = hooks.and_then(Value::as_object) else {
        return Vec::new();
    };
    HookEvent::ALL
        .iter()
        .filter(|event| {
            hooks
                .get(event.name())
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|group| group.get("hooks").and_then(Value::as_array))
                .flatten()
                .filter_map(|h| h.get("command").and_then(Value::as_str))
                .any(|c| is_ours(c, **event))
        })
        .map(|e| e.name().to_string())
        .collect()
}

fn read_json(path: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str(&text).ok()
}

/// A warning when more than one place registers the same events (every hook would run
/// twice), naming them.
pub fn double_registration(found: &[HookRegistration]) -> Option<String> {
    let mut overlapping: Vec<&HookRegistration> = Vec::new();
    for (i, a) in found.iter().enumerate() {
        let shares = found
            .iter()
            .enumerate()
            .any(|(j, b)| i != j && a.events.iter().any(|e| b.events.contains(e)));
        if shares {
            overlapping.push(a);
        }
    }
    if overlapping.len() < 2 {
        return None;
    }
    let places: Vec<String> = overlapping
        .iter()
        .map(|r| format!("{} ({})", r.place, r.path.display()))
        .collect();
    Some(format!(
        "subcog's hooks are registered {} times: {}. Claude Code runs each of them, so every hook runs twice (subcog answers only the first). Keep one: `claude plugin disable <name>` for a plugin, or remove subcog's entries from a settings file.",
        overlapping.len(),
        places.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(path, text).expect("write");
    }

    #[test]
    fn settings_and_an_enabled_plugin_are_both_found_and_reported() {
        let dir = tempfile::tempdir().expect("tempdir");
        let project = dir.path().join("project");
        let claude = dir.path().join("home/.claude");
        write(
            &project.join(".claude/settings.json"),
            r#"{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"/usr/bin/subcog hook session-start"}]}],
               "Stop":[{"hooks":[{"type":"command","command":"other-tool stop"}]}]}}"#,
        );
        assert_eq!(find(&project, &claude).len(), 1);
        assert!(double_registration(&find(&project, &claude)).is_none());

        let install = claude.join("plugins/cache/subcog/memory/0.1.0");
        write(
            &install.join("hooks/hooks.json"),
            r#"{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"subcog hook session-start --via plugin"}]}]}}"#,
        );
        write(
            &claude.join("plugins/installed_plugins.json"),
            &format!(
                r#"{{"version":2,"plugins":{{"memory@subcog":[{{"scope":"user","installPath":{}}}]}}}}"#,
                serde_json::json!(install)
            ),
        );
        // Installed but not enabled: no hooks run.
        assert_eq!(find(&project, &claude).len(), 1);
        write(
            &claude.join("settings.json"),
            r#"{"enabledPlugins":{"memory@subcog":true}}"#,
        );
        let found = find(&project, &claude);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[1].place, "plugin memory@subcog");
        assert_eq!(found[1].events, vec!["SessionStart"]);
        let warning = double_registration(&found).expect("warned");
        assert!(
            warning.contains("project settings") && warning.contains("plugin memory@subcog"),
            "{warning}"
        );
        // The project disables it again: the most specific file decides.
        write(
            &project.join(".claude/settings.local.json"),
            r#"{"enabledPlugins":{"memory@subcog":false}}"#,
        );
        assert_eq!(find(&project, &claude).len(), 1);
    }
}
