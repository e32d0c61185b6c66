//! Per-invocation context: reads the environment and the config file (the only place that
//! does), then wires the library's services. The environment is a value ([`Env`]): this
//! process's own, or the one a hook or a read sent to the warm process (`warm`).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use anyhow::Context as _;
use subcog_core::Subcog;
use subcog_core::clock::{Clock, FixedClock, SystemClock};
use subcog_core::config::{self, LoadedConfig};
use subcog_core::location::{self, DataLocation};

use crate::cli::GlobalArgs;
use crate::command_error::{CommandError, ErrorKind};

/// The environment variables and working directory an invocation runs with.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Env {
    /// Variables (UTF-8 ones; others are not forwarded).
    pub vars: std::collections::BTreeMap<String, String>,
    /// The working directory.
    pub cwd: PathBuf,
}

impl Env {
    /// This process's environment.
    pub fn process() -> Result<Self, CommandError> {
        let cwd = std::env::current_dir()
            .context("cannot read the current directory")
            .map_err(CommandError::internal)?;
        Ok(Env {
            vars: std::env::vars_os()
                .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
                .collect(),
            cwd,
        })
    }

    /// A variable, when set and not empty.
    pub fn var(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(String::as_str).filter(|v| !v.is_empty())
    }
}

/// What every command gets.
pub struct App {
    /// Global options.
    pub global: GlobalArgs,
    /// The effective configuration and where each value came from.
    pub loaded: LoadedConfig,
    /// The config file that applies (whether or not it exists).
    pub config_path: Option<PathBuf>,
    /// The environment this invocation runs with.
    pub env: Env,
    subcog: OnceLock<Arc<Subcog>>,
}

impl App {
    /// Loads configuration from the file, `SUBCOG_*` variables and flags.
    pub fn new(global: GlobalArgs) -> Result<Self, CommandError> {
        Self::load(global, Env::process()?, &[])
    }

    /// Like [`App::new`] for a given environment, with settings a command imposes over
    /// every layer (`key`, value).
    pub fn load(global: GlobalArgs, env: Env, overrides: &[(&'static str, toml::Value)]) -> Result<Self, CommandError> {
        let vars: Vec<(String, String)> = env
            .vars
            .iter()
            .filter(|(k, _)| {
                k.starts_with("SUBCOG_")
                    || k.starts_with("MEMORY_CONSOLIDATION_LLM_")
                    || *k == "ANTHROPIC_BASE_URL"
                    || *k == "OPENAI_BASE_URL"
            })
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let explicit = global
            .config
            .clone()
            .or_else(|| env.var("SUBCOG_CONFIG").map(PathBuf::from));
        let config_path = explicit.clone().or_else(|| {
            location::default_config_file(
                env.var("XDG_CONFIG_HOME").map(Path::new),
                env.var("HOME").map(Path::new),
            )
        });
        let text = match &config_path {
            Some(path) => read_config(path, explicit.is_some())?,
            None => None,
        };
        let cwd = env.cwd.clone();
        let mut flags = Vec::new();
        if let Some(dir) = &global.data_dir {
            flags.push((
                "storage.data_dir",
                toml::Value::String(absolute(&cwd, dir).display().to_string()),
                "--data-dir",
            ));
        }
        flags.extend(overrides.iter().map(|(k, v)| (*k, v.clone(), "the command")));
        let loaded = config::load(
            text.as_ref().zip(config_path.as_deref()).map(|(t, p)| (p, t.as_str())),
            &vars,
            &flags,
        )?;
        Ok(App {
            global,
            loaded,
            config_path,
            env,
            subcog: OnceLock::new(),
        })
    }

    /// The data directory in effect.
    pub fn data_dir(&self) -> Result<PathBuf, CommandError> {
        let configured = &self.loaded.config.storage.data_dir;
        if !configured.is_empty() {
            // A relative path in the config file means relative to that file, not to
            // wherever subcog happens to run.
            let base = match self.loaded.entries.get("storage.data_dir") {
                Some((_, subcog_core::config::Source::File(file))) => file
                    .parent()
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| self.env.cwd.clone()),
                _ => self.env.cwd.clone(),
            };
            return Ok(absolute(&base, Path::new(configured)));
        }
        location::default_data_dir().ok_or_else(|| CommandError {
            kind: ErrorKind::Config,
            error: anyhow::anyhow!(
                "cannot determine a data directory (no home directory); pass --data-dir or set SUBCOG_DATA_DIR"
            ),
        })
    }

    /// The library's services, wired on first use.
    pub fn subcog(&self) -> Result<&Subcog, CommandError> {
        if let Some(s) = self.subcog.get() {
            return Ok(s);
        }
        let subcog = Arc::new(self.build_subcog()?);
        Ok(self.subcog.get_or_init(|| subcog))
    }

    /// The library's services if this command already wired them.
    pub fn built_subcog(&self) -> Option<&Subcog> {
        self.subcog.get().map(|s| &**s)
    }

    /// A fresh, owned set of the library's services (for a long-running server that shares
    /// them between tasks).
    pub fn build_subcog(&self) -> Result<Subcog, CommandError> {
        let location = DataLocation::resolve(&self.data_dir()?, &self.env.cwd);
        // SUBCOG_NOW pins the clock (reproducible consolidation runs, tests, "what would
        // decay look like in June").
        let clock: Arc<dyn Clock> = match self.env.var("SUBCOG_NOW") {
            Some(v) if !v.trim().is_empty() => {
                let at = subcog_core::timestamp::parse_instant(v)
                    .map_err(|e| CommandError::user(format!("SUBCOG_NOW: {e}")))?;
                Arc::new(FixedClock(at))
            }
            _ => Arc::new(SystemClock),
        };
        // API keys are read from the environment only when a provider asks for one.
        let vars = self.env.vars.clone();
        Ok(Subcog::new(self.loaded.config.clone(), location, clock)
            .with_keys(Arc::new(move |name: &str| vars.get(name).cloned())))
    }

    /// Uses these services instead of wiring new ones (the warm process reuses a cached set).
    pub fn set_subcog(&self, subcog: Arc<Subcog>) {
        let _ = self.subcog.set(subcog);
    }

    /// Whether `--json` was given.
    pub fn json(&self) -> bool {
        self.global.json
    }

    /// Claude Code's user directory: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub fn claude_dir(&self) -> Option<PathBuf> {
        self.env
            .var("CLAUDE_CONFIG_DIR")
            .map(PathBuf::from)
            .or_else(|| self.env.var("HOME").map(|h| PathBuf::from(h).join(".claude")))
    }

    /// Every place that registers subcog's hooks for this project, and a warning when
    /// more than one does.
    pub fn hook_registrations(
        &self,
    ) -> Result<(Vec<subcog_core::hooks::registration::HookRegistration>, Option<String>), CommandError> {
        use subcog_core::hooks::registration;
        let project = self.subcog()?.location().project_root.clone();
        let found = match self.claude_dir() {
            Some(dir) => registration::find(&project, &dir),
            None => Vec::new(),
        };
        let warning = registration::double_registration(&found);
        Ok((found, warning))
    }
}

fn read_config(path: &Path, explicit: bool) -> Result<Option<String>, CommandError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !explicit => Ok(None),
        Err(e) => Err(subcog_core::config::ConfigError::Read {
            path: path.to_path_buf(),
            source: e,
        }
        .into()),
    }
}

fn absolute(cwd: &Path, p: &Path) -> PathBuf {
    if p.is_absolute() { p.to_path_buf() } else { cwd.join(p) }
}
