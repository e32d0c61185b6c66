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
    /// LLM providers for consolidation.
    pub llm: LlmConfig,
    /// Reading time expressions in memories and questions.
    pub temporal: TemporalConfig,
    /// Holding back memories that read as instructions to the agent.
    pub quarantine: QuarantineConfig,
    /// Claude Code hooks.
    pub hooks: HooksConfig,
    /// The MCP server (`subcog mcp`).
    pub mcp: McpConfig,
    /// The warm process that serves hooks and reads (`subcog daemon`).
    pub daemon: DaemonConfig,
    /// Logs, metrics and trace export.
    pub telemetry: TelemetryConfig,
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
    /// Where memories are indexed: `auto` (PostgreSQL when `url` is set, else SQLite),
    /// `sqlite`, or `postgres`.
    pub backend: StorageBackend,
    /// PostgreSQL connection URL (`postgres://user:pass@host:5432/db?sslmode=require`);
    /// also `SUBCOG_DATABASE_URL`.
    pub url: String,
    /// The project key on a shared database; empty means the normalized `origin` remote
    /// URL (or the project path when there is no remote).
    pub project_key: String,
    /// The user scope's key on a shared database (user and org memories).
    pub user_key: String,
    /// Longest a PostgreSQL statement may run, in milliseconds.
    pub statement_timeout_ms: u64,
}

/// `[storage] backend`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StorageBackend {
    /// PostgreSQL when a URL is configured, SQLite otherwise.
    #[default]
    Auto,
    /// One SQLite file per scope in the data directory.
    Sqlite,
    /// A shared PostgreSQL database with pgvector.
    Postgres,
}

/// A connection URL with its password (in the user part or a `password=` parameter)
/// replaced by `***`, for `config show` and messages.
pub fn url_without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let authority = match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _)) => format!("{user}:***@{host}"),
            None => authority.to_string(),
        },
        None => authority.to_string(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let params: Vec<String> = query
                .split('&')
                .map(|p| match p.split_once('=') {
                    Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
                    _ => p.to_string(),
                })
                .collect();
            format!("{path}?{}", params.join("&"))
        }
        None => tail.to_string(),
    };
    format!("{scheme}://{authority}{tail}")
}

impl StorageConfig {
    /// The PostgreSQL URL when the configuration selects PostgreSQL.
    pub fn postgres_url(&self) -> Option<&str> {
        match self.backend {
            StorageBackend::Sqlite => None,
            StorageBackend::Auto if self.url.trim().is_empty() => None,
            _ => Some(self.url.trim()),
        }
    }
}

impl Default for StorageConfig {
    fn default() -> Self {
        StorageConfig {
            data_dir: String::new(),
            busy_timeout_ms: 10_000,
            git_notes: true,
            backend: StorageBackend::Auto,
            url: String::new(),
            project_key: String::new(),
            user_key: "user".into(),
            statement_timeout_ms: 30_000,
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
    /// A short memory captured within this many minutes after others of its namespace
    /// takes them (up to two) as its search context, as a turn of a conversation does; 0
    /// turns it off (`conversation::preceding`).
    pub preceding_context_minutes: u32,
    /// The namespaces whose short memories take the ones before them as context: where
    /// turns of a conversation go. A decision or a learning states its own subject.
    pub preceding_context_namespaces: Vec<String>,
}

impl Default for CaptureConfig {
    fn default() -> Self {
        CaptureConfig {
            on_secret: SecretPolicy::Redact,
            redact_emails: false,
            max_content_bytes: 1_048_576,
            created_by: "user".into(),
            preceding_context_minutes: 30,
            preceding_context_namespaces: vec!["context".into()],
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
    /// The tag boost also for entities a memory's text names (a speaker, a person, a
    /// service) that the query names as an entity: captures need no tags for it.
    pub entity_boost: bool,
    /// Fused-score boost for memories in which their writer speaks of themselves ("I",
    /// "my") when the question asks about the asker ("my photography setup").
    pub self_boost: f64,
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
            entity_boost: true,
            self_boost: 1.0,
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
    /// Most tokens an LLM summary answer may use.
    pub summary_token_budget: usize,
    /// Smallest group of memories that counts as a cluster (and gets a summary).
    pub min_cluster_size: usize,
    /// Cosine similarity below which two memories are never compared for supersession.
    pub supersession_similarity: f32,
    /// Least evidence (in `[0, 1]`: same subject, a different value, the newer's words)
    /// for a newer memory to supersede an older one without an LLM.
    pub supersession_min_evidence: f32,
    /// Cosine similarity at or above which memories get a `relates_to` edge.
    pub relates_to_similarity: f32,
    /// `--if-due` runs when this many hours have passed since the last run.
    pub min_interval_hours: u64,
    /// Let the rules below change memories captured by a user (`created_by = "user"`);
    /// off by default (seed 004: never without consent).
    pub user_consent: bool,
    /// Rules never touch memories younger than this.
    pub rules_min_age_days: u64,
    /// Merge near-duplicates: keep the newer, union tags, archive the older.
    pub merge_duplicates: bool,
    /// Smallest tag overlap (Jaccard) for a merge.
    pub merge_tag_overlap: f32,
    /// Smallest content similarity (cosine) for a merge.
    pub merge_similarity: f32,
    /// Shorten long, old episodic memories (progress, context, observations, retrospective).
    pub summarize_verbose: bool,
    /// Content length (characters) above which an episodic memory is verbose.
    pub verbose_min_chars: usize,
    /// Age in days after which a verbose memory is shortened.
    pub verbose_min_age_days: u64,
    /// Copy frequently recalled project patterns to the user scope.
    pub promote_patterns: bool,
    /// Recalls after which a pattern is promoted.
    pub promote_min_activation: u64,
    /// Archive memories never recalled (or not recalled for `stale_days`).
    pub archive_stale: bool,
    /// Days without a recall after which a memory is stale.
    pub stale_days: u64,
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
            min_cluster_size: 2,
            supersession_similarity: 0.25,
            supersession_min_evidence: 0.9,
            relates_to_similarity: 0.75,
            min_interval_hours: 24,
            user_consent: false,
            rules_min_age_days: 7,
            merge_duplicates: true,
            merge_tag_overlap: 0.8,
            merge_similarity: 0.8,
            summarize_verbose: true,
            verbose_min_chars: 5000,
            verbose_min_age_days: 30,
            promote_patterns: true,
            promote_min_activation: 5,
            archive_stale: true,
            stale_days: 90,
        }
    }
}

/// `[retention]`: the retention score and tier thresholds (see `crate::retention`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RetentionConfig {
    /// Named parameter set the numbers below default to: `conservative` (seed 003, the
    /// default) or `responsive` (seed 000). Keys set explicitly override the preset.
    pub preset: String,
    /// Weight of recency.
    pub recency_weight: f32,
    /// Weight of activation (recall count).
    pub activation_weight: f32,
    /// Weight of importance (namespace weight and explicit importance).
    pub importance_weight: f32,
    /// Subtracted, times the supersession penalty.
    pub supersession_weight: f32,
    /// Multiplier applied to a fully superseded memory's score.
    pub superseded_multiplier: f32,
    /// Penalty of a partial supersession, relative to a full one.
    pub partial_penalty: f32,
    /// Days for recency to halve (counted from the later of capture and last recall).
    pub recency_half_life_days: f32,
    /// Recall count at which activation reaches 1 (log scale).
    pub activation_saturation: f32,
    /// Score at or above which a memory is HOT.
    pub hot_threshold: f32,
    /// Score at or above which a memory is WARM.
    pub warm_threshold: f32,
    /// Score below which a memory is ARCHIVED (between this and `warm_threshold`: COLD).
    pub archive_threshold: f32,
    /// Importance of each namespace, as `name=weight`.
    pub namespace_weights: Vec<String>,
    /// Importance of namespaces not listed.
    pub default_namespace_weight: f32,
}

impl RetentionConfig {
    /// Sets one numeric key by name (used to apply presets); unknown keys are ignored.
    pub fn set(&mut self, key: &str, value: f32) {
        let slot = match key {
            "recency_weight" => &mut self.recency_weight,
            "activation_weight" => &mut self.activation_weight,
            "importance_weight" => &mut self.importance_weight,
            "supersession_weight" => &mut self.supersession_weight,
            "superseded_multiplier" => &mut self.superseded_multiplier,
            "partial_penalty" => &mut self.partial_penalty,
            "recency_half_life_days" => &mut self.recency_half_life_days,
            "activation_saturation" => &mut self.activation_saturation,
            "hot_threshold" => &mut self.hot_threshold,
            "warm_threshold" => &mut self.warm_threshold,
            "archive_threshold" => &mut self.archive_threshold,
            "default_namespace_weight" => &mut self.default_namespace_weight,
            _ => return,
        };
        *slot = value;
    }
}

impl Default for RetentionConfig {
    fn default() -> Self {
        RetentionConfig {
            preset: "conservative".into(),
            recency_weight: 0.4,
            activation_weight: 0.2,
            importance_weight: 0.4,
            supersession_weight: 0.0,
            superseded_multiplier: 0.2,
            partial_penalty: 0.5,
            recency_half_life_days: 30.0,
            activation_saturation: 20.0,
            hot_threshold: 0.6,
            warm_threshold: 0.3,
            archive_threshold: 0.1,
            namespace_weights: [
                "decisions=1.0",
                "learnings=0.9",
                "patterns=0.85",
                "retrospective=0.8",
                "inception=0.7",
                "blockers=0.7",
                "research=0.6",
                "elicitation=0.6",
                "progress=0.5",
                "reviews=0.5",
                "context=0.5",
                "observations=0.4",
            ]
            .map(String::from)
            .to_vec(),
            default_namespace_weight: 0.5,
        }
    }
}

/// `[llm]`: providers, resilience and budgets for the LLM-powered consolidation stages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LlmConfig {
    /// `auto` (every provider of `chain` that is set up), `none`, or one of openai,
    /// lmstudio, ollama, anthropic. Cloud providers are used only when named here or in
    /// `chain`, never because a key happens to be in the environment.
    pub provider: String,
    /// Order in which providers are tried.
    pub chain: Vec<String>,
    /// Model for the chosen provider instead of its default ("" keeps the defaults).
    pub model: String,
    /// Base URL for the chosen provider instead of its default ("" keeps the defaults).
    pub base_url: String,
    /// OpenAI models, in order of preference (the next is tried when the account lacks one).
    pub openai_models: Vec<String>,
    /// OpenAI API base URL.
    pub openai_base_url: String,
    /// Environment variable holding the OpenAI API key.
    pub openai_api_key_env: String,
    /// LM Studio's OpenAI-compatible base URL.
    pub lmstudio_base_url: String,
    /// Model name LM Studio should use.
    pub lmstudio_model: String,
    /// Ollama base URL.
    pub ollama_base_url: String,
    /// Ollama model.
    pub ollama_model: String,
    /// Anthropic API base URL.
    pub anthropic_base_url: String,
    /// Anthropic model.
    pub anthropic_model: String,
    /// Environment variable holding the Anthropic API key.
    pub anthropic_api_key_env: String,
    /// Per-request timeout, in milliseconds.
    pub timeout_ms: u64,
    /// Retries of a request that failed with 429, 5xx or a timeout.
    pub max_retries: u32,
    /// First retry wait in milliseconds (doubles, with jitter; `Retry-After` wins).
    pub retry_base_ms: u64,
    /// Consecutive failures that open a provider's circuit breaker.
    pub breaker_failures: u32,
    /// How long an open breaker waits before a probe, in milliseconds.
    pub breaker_cooldown_ms: u64,
    /// Requests per minute per provider.
    pub requests_per_minute: u32,
    /// Parallel LLM calls during a run.
    pub concurrency: usize,
    /// Token cap per run (0: none).
    pub run_token_cap: u64,
    /// Cost cap per run in USD (0: none).
    pub run_cost_cap_usd: f64,
    /// Token cap per UTC day, across processes (0: none).
    pub day_token_cap: u64,
    /// Cost cap per UTC day in USD (0: none).
    pub day_cost_cap_usd: f64,
    /// Prices, `model=input/output` in USD per million tokens (unlisted models are free).
    pub prices: Vec<String>,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            provider: "auto".into(),
            chain: ["lmstudio", "ollama"].map(String::from).to_vec(),
            model: String::new(),
            base_url: String::new(),
            openai_models: ["gpt-5-nano", "gpt-5-mini", "gpt-4o-mini"].map(String::from).to_vec(),
            openai_base_url: "https://api.openai.com/v1".into(),
            openai_api_key_env: "OPENAI_API_KEY".into(),
            lmstudio_base_url: "http://localhost:1234/v1".into(),
            lmstudio_model: "local-model".into(),
            ollama_base_url: "http://localhost:11434".into(),
            ollama_model: "llama3.2".into(),
            anthropic_base_url: "https://api.anthropic.com".into(),
            anthropic_model: "claude-haiku-4-5".into(),
            anthropic_api_key_env: "ANTHROPIC_API_KEY".into(),
            timeout_ms: 30_000,
            max_retries: 3,
            retry_base_ms: 500,
            breaker_failures: 5,
            breaker_cooldown_ms: 30_000,
            requests_per_minute: 600,
            concurrency: 4,
            run_token_cap: 500_000,
            run_cost_cap_usd: 0.5,
            day_token_cap: 2_000_000,
            day_cost_cap_usd: 2.0,
            prices: [
                "gpt-5-nano=0.05/0.40",
                "gpt-5-mini=0.25/2.00",
                "gpt-4o-mini=0.15/0.60",
                "claude-haiku-4-5=1.00/5.00",
            ]
            .map(String::from)
            .to_vec(),
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
    /// Token budget of the consolidated-summaries block (apart from the memories').
    pub summary_token_budget: usize,
    /// Most summaries in the block.
    pub max_summaries: usize,
    /// Summaries less confident than this are left out.
    pub summary_min_confidence: f32,
}

impl Default for ContextConfig {
    fn default() -> Self {
        ContextConfig {
            base_token_budget: 1000,
            min_tier: Tier::Warm,
            max_per_namespace: 10,
            include_summaries: true,
            include_edges: true,
            summary_token_budget: 1000,
            max_summaries: 10,
            summary_min_confidence: 0.5,
        }
    }
}

/// `[temporal]`: how time expressions are resolved and reasoned answers are built.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TemporalConfig {
    /// How `5/8/2023` reads: `mdy` (May 8) or `dmy` (5 August).
    pub date_order: crate::temporal::resolve::DateOrder,
    /// Whose calendar day "yesterday" counts from: `local`, `utc`, or an offset like `+02:00`.
    pub timezone: String,
    /// Answer questions with when / what date / how long ago … by reasoning, without `--reason`.
    pub auto_reason: bool,
    /// Memories retrieved to reason over.
    pub reason_candidates: usize,
    /// LLM for reasoned answers: `off` (the offline answer), `auto` (when a provider is set
    /// up, offline otherwise) or `required`.
    pub reason_llm: crate::model::LlmMode,
}

impl TemporalConfig {
    /// The options this section names (an invalid zone, already refused at load, reads as UTC).
    pub fn options(&self) -> crate::temporal::TemporalOptions {
        crate::temporal::TemporalOptions {
            order: self.date_order,
            zone: crate::temporal::Zone::parse(&self.timezone).unwrap_or(crate::temporal::Zone::Utc),
        }
    }
}

impl Default for TemporalConfig {
    fn default() -> Self {
        TemporalConfig {
            date_order: crate::temporal::resolve::DateOrder::Mdy,
            timezone: "local".into(),
            auto_reason: true,
            reason_candidates: 10,
            reason_llm: crate::model::LlmMode::Off,
        }
    }
}

/// `[quarantine]`: what screens memories besides the rules and the learned judgement,
/// which always run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct QuarantineConfig {
    /// The LLM's reading, when a provider is configured (`[llm]`): `off`, `background`
    /// (consolidation screens memories not screened yet) or `capture` (also each capture
    /// through the CLI or MCP, before it is stored).
    pub llm: ScreenMode,
    /// Memories per request.
    pub llm_batch: usize,
    /// Most memories one consolidation run (or `review --screen`) asks about.
    pub llm_max_per_run: usize,
    /// How long a capture waits for the LLM's verdict, in milliseconds (one attempt;
    /// past it the capture is stored unscreened and consolidation asks again).
    pub llm_capture_timeout_ms: u64,
    /// The learned judgement's score from which a live memory is left out of what hooks
    /// inject (session context, prompt recall), though recall still finds it: a stricter
    /// bar than quarantine's, since injection is where an attack acts. 1 turns it off.
    pub context_bar: f32,
}

impl Default for QuarantineConfig {
    fn default() -> Self {
        QuarantineConfig {
            llm: ScreenMode::Capture,
            llm_batch: 8,
            llm_max_per_run: 200,
            llm_capture_timeout_ms: 8000,
            context_bar: crate::quarantine::meaning::CONTEXT_BAR,
        }
    }
}

/// `[quarantine] llm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ScreenMode {
    /// No LLM screening.
    Off,
    /// Consolidation screens what was not screened yet.
    Background,
    /// Captures through the CLI or MCP too, before they are stored.
    #[default]
    Capture,
}

/// `[mcp]`: the MCP server (`subcog mcp`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct McpConfig {
    /// Bearer token HTTP clients must send (`SUBCOG_MCP_TOKEN`); empty means none, which
    /// is only allowed on a loopback address.
    pub token: String,
    /// Largest request accepted, in bytes: an HTTP body or one stdio message.
    pub max_request_bytes: usize,
    /// Host names accepted in the HTTP `Host` header besides loopback and the bound address.
    pub allowed_hosts: Vec<String>,
    /// Run consolidation on `consolidation.schedule` while the server runs.
    pub scheduled_consolidation: bool,
    /// Most results a recall may ask for.
    pub max_recall_limit: usize,
}

impl Default for McpConfig {
    fn default() -> Self {
        McpConfig {
            token: String::new(),
            max_request_bytes: 4 * 1024 * 1024,
            allowed_hosts: Vec::new(),
            scheduled_consolidation: true,
            max_recall_limit: 100,
        }
    }
}

/// `[daemon]`: the warm process hooks and CLI reads hand their work to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DaemonConfig {
    /// Hooks and reads go through a warm process (started on demand) when one answers.
    pub enabled: bool,
    /// A daemon with no request for this long exits, in seconds.
    pub idle_timeout_secs: u64,
}

impl Default for DaemonConfig {
    fn default() -> Self {
        DaemonConfig {
            enabled: true,
            idle_timeout_secs: 900,
        }
    }
}

/// `[telemetry]`: where logs go and in what form, and where traces are exported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TelemetryConfig {
    /// `text` or `json` (one object per line).
    pub log_format: String,
    /// Hooks, the MCP server and the daemon log to `<data dir>/logs/subcog.log` instead of
    /// stderr (Claude Code shows a hook's stderr only in its debug log).
    pub log_file: bool,
    /// The log file is rotated past this size, in bytes.
    pub log_max_bytes: u64,
    /// Rotated log files kept.
    pub log_keep: u32,
    /// OTLP endpoint for traces (`http://127.0.0.1:4318`); empty: `OTEL_EXPORTER_OTLP_ENDPOINT`,
    /// else no export. Needs a build with the `otlp` feature.
    pub otlp_endpoint: String,
    /// `http/protobuf` (the default) or `http/json`; `OTEL_EXPORTER_OTLP_PROTOCOL` wins.
    pub otlp_protocol: String,
}

impl Default for TelemetryConfig {
    fn default() -> Self {
        TelemetryConfig {
            log_format: "text".into(),
            log_file: true,
            log_max_bytes: 5 * 1024 * 1024,
            log_keep: 3,
            otlp_endpoint: String::new(),
            otlp_protocol: "http/protobuf".into(),
        }
    }
}

/// `[hooks]`: what each Claude Code hook does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HooksConfig {
    /// Every hook on or off (a project opts out with a `.nosubcog` file at its root).
    pub enabled: bool,
    /// SessionStart: inject the session context.
    pub session_start: bool,
    /// UserPromptSubmit: recall for the prompt, capture its markers.
    pub user_prompt_submit: bool,
    /// PostToolUse: surface memories about the file or command.
    pub post_tool_use: bool,
    /// PreCompact: capture the transcript's markers.
    pub pre_compact: bool,
    /// Stop and SessionEnd: capture the transcript's markers, then consolidate when due.
    pub stop: bool,
    /// Start `consolidate --if-due` in the background after Stop / SessionEnd.
    pub consolidate_on_stop: bool,
    /// Most memories added for one prompt.
    pub prompt_max_memories: usize,
    /// Least evidence score (in `[0, 1]`: similarity, how far it stands out, shared
    /// rare words) for a memory to be added to a prompt.
    pub prompt_min_evidence: f32,
    /// A memory this similar to the prompt is added whatever the rest of the evidence.
    pub prompt_min_similarity: f32,
    /// Token budget of what a prompt or a tool gets.
    pub prompt_token_budget: usize,
    /// Most memories surfaced for one file or command.
    pub tool_max_memories: usize,
    /// Append a JSON line per hook (ids, scores, counts; never content) to this file.
    pub debug_log: String,
}

impl Default for HooksConfig {
    fn default() -> Self {
        HooksConfig {
            enabled: true,
            session_start: true,
            user_prompt_submit: true,
            post_tool_use: true,
            pre_compact: true,
            stop: true,
            consolidate_on_stop: true,
            prompt_max_memories: 2,
            prompt_min_evidence: 0.5,
            prompt_min_similarity: 0.6,
            prompt_token_budget: 600,
            tool_max_memories: 2,
            debug_log: String::new(),
        }
    }
}
