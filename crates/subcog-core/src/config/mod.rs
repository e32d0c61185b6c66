//! Configuration: the typed settings, their defaults, and layered loading with provenance.
//!
//! Layers, lowest first: built-in defaults → the TOML file → `SUBCOG_*` environment
//! variables → command-line flags. The library never reads the environment or the file
//! system for configuration itself; the caller passes the file text and the variables in
//! (see [`load`]), so tests and embedders control every input.

mod layers;

pub use layers::{ConfigError, LoadedConfig, Source, load};

use serde::{Deserialize, Serialize};

use crate::model::Tier;
use crate::secrets::SecretPolicy;

/// The documented example configuration; equals the defaults (checked by a test).
pub const EXAMPLE_CONFIG: &str = include_str!("example.toml");

/// All of subcog's settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Where data lives and how the store behaves.
    pub storage: StorageConfig,
    /// Capture-time policies.
    pub capture: CaptureConfig,
    /// Custom namespaces.
    pub namespaces: NamespacesConfig,
    /// Recall defaults and fusion weights.
    pub recall: RecallConfig,
    /// The embedding model.
    pub embedding: EmbeddingConfig,
    /// Consolidation (seed 000).
    pub consolidation: ConsolidationConfig,
    /// Retention score weights (seed 000).
    pub retention: RetentionConfig,
    /// SessionStart context building (seed 000).
    pub context: ContextConfig,
}

/// `[storage]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StorageConfig {
    /// Data directory; empty means the platform default (`~/.local/share/subcog` on Linux).
    pub data_dir: String,
    /// How long a writer waits for another process's lock before failing, in milliseconds.
    pub busy_timeout_ms: u64,
    /// Keep memories as git notes when the project is a git repository (and in the user's
    /// notes repository); off means the index alone is the store.
    pub git_notes: bool,
}

impl Default for StorageConfig {
    fn default() -> Self {
        StorageConfig {
            data_dir: String::new(),
            busy_timeout_ms: 10_000,
            git_notes: true,
        }
    }
}

/// `[capture]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CaptureConfig {
    /// `redact` replaces secrets with `[REDACTED:kind]`; `block` refuses the capture.
    pub on_secret: SecretPolicy,
    /// Also redact email addresses.
    pub redact_emails: bool,
    /// Largest accepted memory, in bytes.
    pub max_content_bytes: usize,
    /// Recorded as `created_by` for captures from the command line.
    pub created_by: String,
}

impl Default for CaptureConfig {
    fn default() -> Self {
        CaptureConfig {
            on_secret: SecretPolicy::Redact,
            redact_emails: false,
            max_content_bytes: 1_048_576,
            created_by: "user".into(),
        }
    }
}

/// `[namespaces]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct NamespacesConfig {
    /// Custom namespaces accepted without `--allow-new-namespace`.
    pub custom: Vec<String>,
}

/// `[recall]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RecallConfig {
    /// Results returned when `--limit` is not given.
    pub default_limit: usize,
    /// Retrieval mode when `--mode` is not given: reflexive, standard, deep, exhaustive.
    pub default_mode: RetrievalMode,
    /// Weight of the keyword (BM25) channel in rank fusion.
    pub bm25_weight: f64,
    /// Weight of the vector (embedding) channel in rank fusion.
    pub vector_weight: f64,
    /// Weight of the time channel (queries that name a date or period).
    pub time_weight: f64,
    /// The k of reciprocal-rank fusion: 1 / (k + rank).
    pub rrf_k: f64,
    /// Candidates each channel contributes before fusion.
    pub candidates: usize,
    /// Fused-score boost for memories tagged with a word of the query (entity awareness:
    /// a query naming "caroline" favours memories tagged `caroline`).
    pub tag_boost: f64,
}

impl Default for RecallConfig {
    fn default() -> Self {
        RecallConfig {
            default_limit: 10,
            default_mode: RetrievalMode::Standard,
            bm25_weight: 1.0,
            vector_weight: 0.5,
            time_weight: 0.5,
            rrf_k: 10.0,
            candidates: 50,
            tag_boost: 0.5,
        }
    }
}

/// Which tiers recall searches (seed 003).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RetrievalMode {
    /// HOT only (automatic injection).
    Reflexive,
    /// HOT and WARM (the default).
    #[default]
    Standard,
    /// HOT, WARM and COLD.
    Deep,
    /// Every tier, ARCHIVED included.
    Exhaustive,
}

impl RetrievalMode {
    /// The tiers this mode searches.
    pub fn tiers(self) -> &'static [Tier] {
        match self {
            RetrievalMode::Reflexive => &[Tier::Hot],
            RetrievalMode::Standard => &[Tier::Hot, Tier::Warm],
            RetrievalMode::Deep => &[Tier::Hot, Tier::Warm, Tier::Cold],
            RetrievalMode::Exhaustive => &[Tier::Hot, Tier::Warm, Tier::Cold, Tier::Archived],
        }
    }
}

impl std::str::FromStr for RetrievalMode {
    type Err = crate::error::ValidationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "reflexive" => Ok(RetrievalMode::Reflexive),
            "standard" => Ok(RetrievalMode::Standard),
            "deep" => Ok(RetrievalMode::Deep),
            "exhaustive" => Ok(RetrievalMode::Exhaustive),
            _ => Err(crate::error::ValidationError::UnknownValue {
                what: "retrieval mode",
                value: s.to_string(),
                expected: "reflexive, standard, deep, exhaustive".into(),
            }),
        }
    }
}

/// `[embedding]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EmbeddingConfig {
    /// Use the embedding model when it is installed.
    pub enabled: bool,
    /// Model directory; empty means `<data dir>/models/all-MiniLM-L6-v2`.
    pub model_dir: String,
}

impl Default for EmbeddingConfig {
    fn default() -> Self {
        EmbeddingConfig {
            enabled: true,
            model_dir: String::new(),
        }
    }
}

/// `[consolidation]` (seed 000); read by the consolidation pipeline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ConsolidationConfig {
    /// Whether consolidation runs at all.
    pub enabled: bool,
    /// LLM provider for the LLM-powered stages (`auto`, `none`, `openai`, ...).
    pub llm_provider: String,
    /// Cosine similarity at or above which memories cluster.
    pub cluster_threshold: f32,
    /// Largest cluster before it is split.
    pub max_cluster_size: usize,
    /// Whether consolidation triggers itself.
    pub auto_trigger: bool,
    /// New memories since the last run that trigger a run.
    pub auto_trigger_threshold: usize,
    /// Cron-style schedule for long-running processes.
    pub schedule: String,
    /// Detect supersession.
    pub enable_supersession: bool,
    /// Extract graph edges.
    pub enable_edge_extraction: bool,
    /// Token budget for one summary.
    pub summary_token_budget: usize,
}

impl Default for ConsolidationConfig {
    fn default() -> Self {
        ConsolidationConfig {
            enabled: true,
            llm_provider: "auto".into(),
            cluster_threshold: 0.85,
            max_cluster_size: 20,
            auto_trigger: true,
            auto_trigger_threshold: 100,
            schedule: "0 0 * * *".into(),
            enable_supersession: true,
            enable_edge_extraction: true,
            summary_token_budget: 500,
        }
    }
}

/// `[retention]` (seed 000 weights); read by consolidation's scoring.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RetentionConfig {
    /// Weight of recency.
    pub recency_weight: f32,
    /// Weight of activation.
    pub activation_weight: f32,
    /// Weight of importance.
    pub importance_weight: f32,
    /// Weight of the supersession penalty.
    pub supersession_weight: f32,
    /// Days for recency to halve.
    pub recency_half_life_days: f32,
}

impl Default for RetentionConfig {
    fn default() -> Self {
        RetentionConfig {
            recency_weight: 0.3,
            activation_weight: 0.3,
            importance_weight: 0.3,
            supersession_weight: 0.1,
            recency_half_life_days: 14.0,
        }
    }
}

/// `[context]` (seed 000); read by the SessionStart hook.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ContextConfig {
    /// Base token budget for the session context.
    pub base_token_budget: usize,
    /// Lowest tier included.
    pub min_tier: Tier,
    /// Most memories per namespace.
    pub max_per_namespace: usize,
    /// Include cluster summaries.
    pub include_summaries: bool,
    /// Include edge hints.
    pub include_edges: bool,
}

impl Default for ContextConfig {
    fn default() -> Self {
        ContextConfig {
            base_token_budget: 4000,
            min_tier: Tier::Warm,
            max_per_namespace: 10,
            include_summaries: true,
            include_edges: true,
        }
    }
}
