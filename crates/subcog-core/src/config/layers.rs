//! Layered configuration loading with a record of where each value came from.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use thiserror::Error;
use toml::{Table, Value};

use super::Config;

/// Where an effective configuration value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The built-in default.
    Default,
    /// The configuration file at this path.
    File(PathBuf),
    /// This environment variable.
    Env(String),
    /// This command-line flag.
    Flag(String),
    /// The named preset (`retention.preset`).
    Preset(String),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Default => f.write_str("default"),
            Source::File(p) => write!(f, "file {}", p.display()),
            Source::Env(name) => write!(f, "env {name}"),
            Source::Flag(name) => write!(f, "flag {name}"),
            Source::Preset(name) => write!(f, "preset {name}"),
        }
    }
}

/// A configuration problem, with the file, variable or key at fault.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The file is not valid TOML.
    #[error("config file {path}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The parser's message.
        message: String,
    },
    /// A key subcog does not know (likely a typo).
    #[error("{origin}: unknown key `{key}`")]
    UnknownKey {
        /// Where the key was found.
        origin: String,
        /// The dotted key.
        key: String,
    },
    /// A value of the wrong type or out of its set.
    #[error("{origin}: `{key}`: {message}")]
    InvalidValue {
        /// Where the value came from.
        origin: String,
        /// The dotted key.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// The configuration file could not be read.
    #[error("cannot read config file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// Environment variable names from the seeds that do not follow `SUBCOG_<SECTION>_<KEY>`.
const ENV_ALIASES: &[(&str, &str)] = &[
    ("SUBCOG_DATA_DIR", "storage.data_dir"),
    ("SUBCOG_DATABASE_URL", "storage.url"),
    ("SUBCOG_CONTEXT_TOKEN_BUDGET", "context.base_token_budget"),
    ("SUBCOG_CONSOLIDATION_AUTO", "consolidation.auto_trigger"),
    ("SUBCOG_LLM_PROVIDER", "llm.provider"),
    ("MEMORY_CONSOLIDATION_LLM_PROVIDER", "consolidation.llm_provider"),
    ("MEMORY_CONSOLIDATION_LLM_MODEL", "llm.model"),
    ("MEMORY_CONSOLIDATION_LLM_BASE_URL", "llm.base_url"),
];

/// Other tools' variables subcog honours below its own config file: the provider's own
/// base URL (Claude Code users often point `ANTHROPIC_BASE_URL` at a gateway).
const FOREIGN_ENV: &[(&str, &str)] = &[
    ("ANTHROPIC_BASE_URL", "llm.anthropic_base_url"),
    ("OPENAI_BASE_URL", "llm.openai_base_url"),
];

/// The effective configuration with each key's value and source.
#[derive(Debug, Clone)]
pub struct LoadedConfig {
    /// The typed configuration.
    pub config: Config,
    /// Every dotted key with its effective value and where it came from, in key order.
    pub entries: BTreeMap<String, (Value, Source)>,
    /// The file that was read, if any.
    pub file: Option<PathBuf>,
}

/// Builds the effective configuration from the layers.
///
/// `file` is the path and text of the config file when one exists; `env` the process
/// environment (only `SUBCOG_*` names are considered); `flags` are dotted keys set on the
/// command line with the flag's name.
pub fn load(
    file: Option<(&Path, &str)>,
    env: &[(String, String)],
    flags: &[(&str, Value, &str)],
) -> Result<LoadedConfig, ConfigError> {
    let defaults = defaults_table();
    let mut entries: BTreeMap<String, (Value, Source)> = BTreeMap::new();
    for (section, table) in &defaults {
        if let Value::Table(table) = table {
            for (key, value) in table {
                entries.insert(format!("{section}.{key}"), (value.clone(), Source::Default));
            }
        }
    }

    for (name, dotted) in FOREIGN_ENV {
        let Some((_, raw)) = env.iter().find(|(n, v)| n == name && !v.trim().is_empty()) else {
            continue;
        };
        if let Some(slot) = entries.get_mut(*dotted) {
            *slot = (Value::String(raw.trim().to_string()), Source::Env((*name).to_string()));
        }
    }

    if let Some((path, text)) = file {
        let origin = format!("config file {}", path.display());
        let table: Table = toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: path.to_path_buf(),
            message: e.to_string().trim().replace('\n', " "),
        })?;
        for (section, value) in table {
            let Value::Table(inner) = value else {
                return Err(ConfigError::UnknownKey { origin, key: section });
            };
            for (key, value) in inner {
                let dotted = format!("{section}.{key}");
                let slot = entries.get_mut(&dotted).ok_or_else(|| ConfigError::UnknownKey {
                    origin: origin.clone(),
                    key: dotted.clone(),
                })?;
                let value = coerce(&slot.0, value).map_err(|message| ConfigError::InvalidValue {
                    origin: origin.clone(),
                    key: dotted.clone(),
                    message,
                })?;
                *slot = (value, Source::File(path.to_path_buf()));
            }
        }
    }

    // Aliases first, so the canonical SUBCOG_<SECTION>_<KEY> name wins when both are set;
    // an empty variable counts as unset.
    let mut ordered: Vec<&(String, String)> = env.iter().filter(|(_, v)| !v.trim().is_empty()).collect();
    ordered.sort_by_key(|(name, _)| !ENV_ALIASES.iter().any(|(alias, _)| alias == name));
    for (name, raw) in ordered {
        let Some(dotted) = env_key(name, &entries) else {
            continue;
        };
        let origin = format!("environment variable {name}");
        if let Some(slot) = entries.get_mut(&dotted) {
            let value = parse_env(&slot.0, raw).map_err(|message| ConfigError::InvalidValue {
                origin,
                key: dotted.clone(),
                message,
            })?;
            *slot = (value, Source::Env(name.clone()));
        }
    }

    for (dotted, value, flag) in flags {
        let slot = entries.get_mut(*dotted).ok_or_else(|| ConfigError::UnknownKey {
            origin: format!("flag {flag}"),
            key: dotted.to_string(),
        })?;
        let value = coerce(&slot.0, value.clone()).map_err(|message| ConfigError::InvalidValue {
            origin: format!("flag {flag}"),
            key: dotted.to_string(),
            message,
        })?;
        *slot = (value, Source::Flag(flag.to_string()));
    }

    apply_preset(&mut entries)?;
    let config = build(&entries)?;
    validate(&config, &entries)?;
    Ok(LoadedConfig {
        config,
        entries,
        file: file.map(|(p, _)| p.to_path_buf()),
    })
}

/// Gives `[retention]` keys still at their default the values of the chosen preset.
fn apply_preset(entries: &mut BTreeMap<String, (Value, Source)>) -> Result<(), ConfigError> {
    let Some((Value::String(name), source)) = entries.get("retention.preset").cloned() else {
        return Ok(());
    };
    let preset = crate::retention::RetentionPreset::parse(&name).ok_or_else(|| ConfigError::InvalidValue {
        origin: source.to_string(),
        key: "retention.preset".into(),
        message: format!("unknown preset {name:?}: expected conservative or responsive"),
    })?;
    for (key, value) in preset.values() {
        if let Some(slot) = entries.get_mut(&format!("retention.{key}"))
            && slot.1 == Source::Default
            && slot.0.as_float().is_none_or(|f| (f - value).abs() > 1e-6)
        {
            *slot = (Value::Float(*value), Source::Preset(name.clone()));
        }
    }
    Ok(())
}

/// Range checks the types cannot express.
fn validate(config: &Config, entries: &BTreeMap<String, (Value, Source)>) -> Result<(), ConfigError> {
    let fail = |key: &str, message: &str| ConfigError::InvalidValue {
        origin: entries
            .get(key)
            .map(|(_, s)| s.to_string())
            .unwrap_or_else(|| "config".into()),
        key: key.to_string(),
        message: message.to_string(),
    };
    let r = &config.recall;
    if !(r.rrf_k.is_finite() && r.rrf_k > 0.0) {
        return Err(fail("recall.rrf_k", "must be a positive number"));
    }
    for (key, w) in [
        ("recall.bm25_weight", r.bm25_weight),
        ("recall.vector_weight", r.vector_weight),
        ("recall.time_weight", r.time_weight),
        ("recall.tag_boost", r.tag_boost),
        ("recall.self_boost", r.self_boost),
    ] {
        if !(w.is_finite() && w >= 0.0) {
            return Err(fail(key, "must be zero or a positive number"));
        }
    }
    if r.default_limit == 0 {
        return Err(fail("recall.default_limit", "must be at least 1"));
    }
    if let Err(message) = crate::temporal::Zone::parse(&config.temporal.timezone) {
        return Err(fail("temporal.timezone", &message));
    }
    if config.mcp.max_request_bytes < 1024 {
        return Err(fail("mcp.max_request_bytes", "must be at least 1024"));
    }
    if config.mcp.max_recall_limit == 0 {
        return Err(fail("mcp.max_recall_limit", "must be at least 1"));
    }
    let t = &config.retention;
    for (key, v) in [
        ("retention.recency_weight", t.recency_weight),
        ("retention.activation_weight", t.activation_weight),
        ("retention.importance_weight", t.importance_weight),
        ("retention.supersession_weight", t.supersession_weight),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(fail(key, "must be zero or a positive number"));
        }
    }
    for (key, v) in [
        ("retention.superseded_multiplier", t.superseded_multiplier),
        ("retention.partial_penalty", t.partial_penalty),
        ("retention.hot_threshold", t.hot_threshold),
        ("retention.warm_threshold", t.warm_threshold),
        ("retention.archive_threshold", t.archive_threshold),
        ("retention.default_namespace_weight", t.default_namespace_weight),
        ("quarantine.context_bar", config.quarantine.context_bar),
    ] {
        if !(0.0..=1.0).contains(&v) {
            return Err(fail(key, "must be between 0 and 1"));
        }
    }
    if !(t.hot_threshold >= t.warm_threshold && t.warm_threshold >= t.archive_threshold) {
        return Err(fail(
            "retention.warm_threshold",
            "thresholds must satisfy hot_threshold >= warm_threshold >= archive_threshold",
        ));
    }
    for (key, v) in [
        ("retention.recency_half_life_days", t.recency_half_life_days),
        ("retention.activation_saturation", t.activation_saturation),
    ] {
        if !(v.is_finite() && v > 0.0) {
            return Err(fail(key, "must be a positive number"));
        }
    }
    for entry in &t.namespace_weights {
        let ok = entry
            .split_once('=')
            .and_then(|(_, w)| w.trim().parse::<f32>().ok())
            .is_some_and(|w| (0.0..=1.0).contains(&w));
        if !ok {
            return Err(fail(
                "retention.namespace_weights",
                &format!("{entry:?} is not name=weight with a weight between 0 and 1"),
            ));
        }
    }
    let c = &config.consolidation;
    for (key, v) in [
        ("consolidation.cluster_threshold", c.cluster_threshold),
        ("consolidation.supersession_similarity", c.supersession_similarity),
        ("consolidation.supersession_min_evidence", c.supersession_min_evidence),
        ("consolidation.relates_to_similarity", c.relates_to_similarity),
        ("consolidation.merge_tag_overlap", c.merge_tag_overlap),
        ("consolidation.merge_similarity", c.merge_similarity),
    ] {
        if !(0.0..=1.0).contains(&v) {
            return Err(fail(key, "must be between 0 and 1"));
        }
    }
    if c.min_cluster_size < 2 || c.max_cluster_size < c.min_cluster_size {
        return Err(fail(
            "consolidation.min_cluster_size",
            "clusters need 2 <= min_cluster_size <= max_cluster_size",
        ));
    }
    if !c.schedule.trim().is_empty() && crate::schedule::Schedule::parse(&c.schedule).is_err() {
        return Err(fail(
            "consolidation.schedule",
            "expected a cron expression of five fields (minute hour day month weekday), or \"\" for none",
        ));
    }
    Ok(())
}

fn defaults_table() -> Table {
    // Serializing a plain struct of scalars cannot fail; an empty table would only hide keys.
    Table::try_from(Config::default()).unwrap_or_default()
}

/// Maps an environment variable to a dotted key: an alias, or `SUBCOG_<SECTION>_<KEY>`.
fn env_key(name: &str, entries: &BTreeMap<String, (Value, Source)>) -> Option<String> {
    if let Some((_, key)) = ENV_ALIASES.iter().find(|(alias, _)| *alias == name) {
        return Some((*key).to_string());
    }
    let rest = name.strip_prefix("SUBCOG_")?;
    entries
        .keys()
        .find(|dotted| dotted.replace('.', "_").to_ascii_uppercase() == rest)
        .cloned()
}

/// Checks a value against the default's type; integers are accepted where floats are.
fn coerce(default: &Value, value: Value) -> Result<Value, String> {
    match (default, value) {
        (Value::Float(_), Value::Integer(i)) => Ok(Value::Float(i as f64)),
        (Value::Array(_), Value::Array(items)) => {
            if items.iter().all(Value::is_str) {
                Ok(Value::Array(items))
            } else {
                Err("expected a list of strings".into())
            }
        }
        (d, v) if d.same_type(&v) => Ok(v),
        (d, v) => Err(format!("expected {}, found {}", d.type_str(), v.type_str())),
    }
}

/// Parses an environment string by the type of the key's default.
fn parse_env(default: &Value, raw: &str) -> Result<Value, String> {
    let raw = raw.trim();
    match default {
        Value::Boolean(_) => match raw.to_ascii_lowercase().as_str() {
            "1" | "true" | "yes" | "on" => Ok(Value::Boolean(true)),
            "0" | "false" | "no" | "off" => Ok(Value::Boolean(false)),
            _ => Err(format!("expected true or false, found {raw:?}")),
        },
        Value::Integer(_) => raw
            .parse::<i64>()
            .map(Value::Integer)
            .map_err(|_| format!("expected an integer, found {raw:?}")),
        Value::Float(_) => raw
            .parse::<f64>()
            .map(Value::Float)
            .map_err(|_| format!("expected a number, found {raw:?}")),
        Value::Array(_) => Ok(Value::Array(
            raw.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| Value::String(s.to_string()))
                .collect(),
        )),
        _ => Ok(Value::String(raw.to_string())),
    }
}

/// Deserializes the merged values section by section, so an error names its section.
fn build(entries: &BTreeMap<String, (Value, Source)>) -> Result<Config, ConfigError> {
    let mut root = Table::new();
    for (dotted, (value, _)) in entries {
        if let Some((section, key)) = dotted.split_once('.') {
            let slot = root
                .entry(section.to_string())
                .or_insert_with(|| Value::Table(Table::new()));
            if let Value::Table(t) = slot {
                t.insert(key.to_string(), value.clone());
            }
        }
    }
    for (section, value) in &root {
        let check: Result<Config, _> = {
            let mut one = Table::new();
            one.insert(section.clone(), value.clone());
            Value::Table(one).try_into()
        };
        if let Err(e) = check {
            let key = first_bad_key(section, value, entries);
            return Err(ConfigError::InvalidValue {
                origin: entries
                    .get(&key)
                    .map(|(_, s)| s.to_string())
                    .unwrap_or_else(|| "config".into()),
                key,
                message: e.to_string().trim().to_string(),
            });
        }
    }
    Value::Table(root)
        .try_into()
        .map_err(|e: toml::de::Error| ConfigError::InvalidValue {
            origin: "config".into(),
            key: "-".into(),
            message: e.to_string(),
        })
}

/// Finds which key of a failing section is at fault by trying each non-default value.
fn first_bad_key(section: &str, value: &Value, entries: &BTreeMap<String, (Value, Source)>) -> String {
    let defaults = defaults_table();
    if let (Value::Table(t), Some(Value::Table(def))) = (value, defaults.get(section)) {
        for (key, v) in t {
            let mut trial = def.clone();
            trial.insert(key.clone(), v.clone());
            let mut one = Table::new();
            one.insert(section.to_string(), Value::Table(trial));
            let ok: Result<Config, _> = Value::Table(one).try_into();
            if ok.is_err() {
                return format!("{section}.{key}");
            }
        }
    }
    entries
        .keys()
        .find(|k| k.starts_with(section))
        .cloned()
        .unwrap_or_else(|| section.to_string())
}

#[cfg(test)]
mod tests {
    use super::super::EXAMPLE_CONFIG;
    use super::*;
    use crate::model::Tier;
    use crate::secrets::SecretPolicy;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn database_urls_lose_their_password_and_select_postgres() {
        use super::super::{StorageBackend, url_without_password};
        assert_eq!(
            url_without_password("postgres://me:s3cret@db.internal:5432/memory?sslmode=require"),
            "postgres://me:***@db.internal:5432/memory?sslmode=require"
        );
        assert_eq!(
            url_without_password("postgres://me@db/memory"),
            "postgres://me@db/memory"
        );
        assert_eq!(
            url_without_password("postgres://db/memory?sslmode=require&password=x"),
            "postgres://db/memory?sslmode=require&password=***"
        );
        let loaded = load(None, &env(&[("SUBCOG_DATABASE_URL", "postgres://me@db/memory")]), &[]).expect("load");
        assert_eq!(loaded.config.storage.postgres_url(), Some("postgres://me@db/memory"));
        let mut storage = loaded.config.storage.clone();
        storage.backend = StorageBackend::Sqlite;
        assert_eq!(
            storage.postgres_url(),
            None,
            "an explicit sqlite backend wins over the URL"
        );
        assert_eq!(super::super::Config::default().storage.postgres_url(), None);
    }

    #[test]
    fn defaults_load_with_default_sources() {
        let loaded = load(None, &[], &[]).expect("defaults load");
        assert_eq!(loaded.config, Config::default());
        assert!(loaded.entries.values().all(|(_, s)| *s == Source::Default));
        assert!(loaded.entries.contains_key("retention.recency_half_life_days"));
    }

    #[test]
    fn the_seeds_llm_variables_reach_the_llm_section() {
        let loaded = load(
            None,
            &env(&[
                ("SUBCOG_LLM_PROVIDER", "ollama"),
                ("MEMORY_CONSOLIDATION_LLM_PROVIDER", "lmstudio"),
                ("MEMORY_CONSOLIDATION_LLM_MODEL", "qwen2.5"),
                ("MEMORY_CONSOLIDATION_LLM_BASE_URL", "http://127.0.0.1:9/v1"),
            ]),
            &[],
        )
        .expect("loads");
        let c = &loaded.config;
        assert_eq!(c.llm.provider, "ollama");
        assert_eq!(c.consolidation.llm_provider, "lmstudio");
        assert_eq!(c.llm.model, "qwen2.5");
        assert_eq!(c.llm.base_url, "http://127.0.0.1:9/v1");
    }

    #[test]
    fn a_preset_fills_keys_not_set_explicitly() {
        let file = "[retention]\npreset = \"responsive\"\nhot_threshold = 0.9\n";
        let loaded = load(Some((Path::new("c.toml"), file)), &[], &[]).expect("loads");
        let r = &loaded.config.retention;
        assert_eq!(r.recency_half_life_days, 14.0);
        assert_eq!(r.warm_threshold, 0.4);
        assert_eq!(r.hot_threshold, 0.9, "explicit keys win over the preset");
        assert_eq!(
            loaded.entries["retention.warm_threshold"].1,
            Source::Preset("responsive".into())
        );
        let bad = load(
            Some((Path::new("c.toml"), "[retention]\npreset = \"eager\"\n")),
            &[],
            &[],
        );
        assert!(
            bad.expect_err("unknown preset")
                .to_string()
                .contains("conservative or responsive")
        );
        let order = "[retention]\nwarm_threshold = 0.8\n";
        assert!(load(Some((Path::new("c.toml"), order)), &[], &[]).is_err());
    }

    #[test]
    fn example_config_equals_defaults_and_names_every_key() {
        let path = Path::new("example.toml");
        let loaded = load(Some((path, EXAMPLE_CONFIG)), &[], &[]).expect("example parses");
        assert_eq!(loaded.config, Config::default());
        assert!(
            loaded.entries.values().all(|(_, s)| *s == Source::File(path.into())),
            "every key should be documented in example.toml"
        );
    }

    #[test]
    fn layers_apply_in_order_and_record_sources() {
        let file = "[recall]\ndefault_limit = 20\n[capture]\non_secret = \"block\"\n[retention]\nrecency_half_life_days = 30\n";
        let loaded = load(
            Some((Path::new("/c.toml"), file)),
            &env(&[
                ("SUBCOG_RECALL_DEFAULT_LIMIT", "25"),
                ("SUBCOG_CONTEXT_TOKEN_BUDGET", "6000"),
                ("SUBCOG_NAMESPACES_CUSTOM", "team, ops"),
                ("UNRELATED", "x"),
            ]),
            &[("storage.data_dir", Value::String("/d".into()), "--data-dir")],
        )
        .expect("loads");
        let c = &loaded.config;
        assert_eq!(c.recall.default_limit, 25);
        assert_eq!(c.capture.on_secret, SecretPolicy::Block);
        assert_eq!(c.retention.recency_half_life_days, 30.0);
        assert_eq!(c.context.base_token_budget, 6000);
        assert_eq!(c.namespaces.custom, vec!["team", "ops"]);
        assert_eq!(c.storage.data_dir, "/d");
        assert_eq!(c.context.min_tier, Tier::Warm);
        let src = |k: &str| loaded.entries.get(k).map(|(_, s)| s.to_string()).unwrap_or_default();
        assert_eq!(src("recall.default_limit"), "env SUBCOG_RECALL_DEFAULT_LIMIT");
        assert_eq!(src("capture.on_secret"), "file /c.toml");
        assert_eq!(src("context.base_token_budget"), "env SUBCOG_CONTEXT_TOKEN_BUDGET");
        assert_eq!(src("storage.data_dir"), "flag --data-dir");
        assert_eq!(src("recall.default_limit"), "env SUBCOG_RECALL_DEFAULT_LIMIT");
        assert_eq!(src("context.min_tier"), "default");
    }

    #[test]
    fn errors_name_the_key_and_origin() {
        let err = |file: &str| {
            load(Some((Path::new("/c.toml"), file)), &[], &[])
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default()
        };
        assert!(err("[recall]\ndefault_limt = 3").contains("unknown key `recall.default_limt`"));
        assert!(err("[recal]\nx = 1").contains("unknown key `recal.x`"));
        assert!(err("[recall]\ndefault_limit = \"ten\"").contains("expected integer"));
        let bad_enum = err("[capture]\non_secret = \"shout\"");
        assert!(bad_enum.contains("capture.on_secret"), "{bad_enum}");
        assert!(err("not toml [").contains("config file /c.toml"));
        let neg = load(None, &env(&[("SUBCOG_RECALL_RRF_K", "-1")]), &[])
            .err()
            .map(|e| e.to_string());
        assert!(neg.is_some_and(|e| e.contains("recall.rrf_k")));
        let empty = load(None, &env(&[("SUBCOG_RECALL_DEFAULT_LIMIT", "")]), &[]).expect("empty is unset");
        assert_eq!(empty.config.recall.default_limit, 10);
        let both = load(
            None,
            &env(&[("SUBCOG_STORAGE_DATA_DIR", "/canonical"), ("SUBCOG_DATA_DIR", "/alias")]),
            &[],
        )
        .expect("loads");
        assert_eq!(both.config.storage.data_dir, "/canonical");
        let env_err = load(None, &env(&[("SUBCOG_RECALL_DEFAULT_LIMIT", "many")]), &[])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(env_err.contains("SUBCOG_RECALL_DEFAULT_LIMIT"), "{env_err}");
    }
}
