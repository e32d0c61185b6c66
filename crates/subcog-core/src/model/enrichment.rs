//! What consolidation produces: summaries, edges, supersessions, tier transitions and the
//! record of a run (seeds 002/003: `MemorySummary`, `MemoryEdge`, `ConsolidationResult`).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{FromStr, Tier, ValidationError, fmt};

string_enum! {
    /// How two nodes of the memory graph are related.
    EdgeType {
        /// The source replaces the target.
        #[default]
        Supersedes => "supersedes",
        /// A summary abstracts the target memory.
        Consolidates => "consolidates",
        /// The source names the target explicitly (an id, a promotion copy).
        References => "references",
        /// Similar subject matter.
        RelatesTo => "relates_to",
        /// The source needs the target (blocked by, requires).
        DependsOn => "depends_on",
        /// The two disagree and neither replaces the other.
        Contradicts => "contradicts",
        /// The source carries out the target decision.
        Implements => "implements",
    }
}

string_enum! {
    /// Whether a newer memory replaces all or part of an older one.
    SupersessionKind {
        /// Completely replaced.
        #[default]
        Full => "full",
        /// Partly updated.
        Partial => "partial",
    }
}

/// A decision kept by a summary, with why it was made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryDecision {
    /// The decision.
    pub decision: String,
    /// Why, when the memory says.
    #[serde(default)]
    pub rationale: String,
    /// The memory it comes from.
    pub source_id: String,
}

/// A fact a summary knows to be outdated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SupersededFact {
    /// What used to hold.
    pub original_fact: String,
    /// What replaced it.
    pub superseded_by: String,
    /// The outdated memory.
    pub source_memory_id: String,
}

/// A consolidated summary of one cluster of memories.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemorySummary {
    /// `sum_<cluster id>`: stable while the cluster keeps its members.
    pub id: String,
    /// The cluster it summarizes.
    pub cluster_id: String,
    /// The members' dominant namespace.
    pub namespace: String,
    /// A short title.
    pub title: String,
    /// Two or three sentences.
    pub summary: String,
    /// Facts still valid.
    pub key_facts: Vec<String>,
    /// Decisions with rationale.
    pub decisions: Vec<SummaryDecision>,
    /// Facts known to be outdated.
    pub superseded_facts: Vec<SupersededFact>,
    /// The members, oldest first.
    pub source_ids: Vec<String>,
    /// Oldest member's creation time.
    pub start: DateTime<Utc>,
    /// Newest member's creation time.
    pub end: DateTime<Utc>,
    /// How far the summary can be trusted, in `[0, 1]`.
    pub confidence: f32,
    /// `extractive` (no LLM) or the model that wrote it.
    pub method: String,
    /// Always WARM for summaries (seed 003).
    pub tier: Tier,
    /// The run that wrote it.
    pub run_id: String,
    /// When it was first written.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

/// A directed, typed edge of the memory graph.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemoryEdge {
    /// Memory or summary id.
    pub source_id: String,
    /// Memory or summary id.
    pub target_id: String,
    /// The relation.
    pub edge_type: EdgeType,
    /// Strength in `[0, 1]`.
    pub weight: f32,
    /// Why it was drawn.
    pub reason: String,
    /// The run that drew it.
    pub run_id: String,
}

/// A newer memory replacing an older one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Supersession {
    /// The newer memory.
    pub superseder_id: String,
    /// The older memory.
    pub superseded_id: String,
    /// Full or partial.
    pub kind: SupersessionKind,
    /// Confidence in `[0, 1]`.
    pub confidence: f32,
    /// The evidence.
    pub reason: String,
    /// `heuristic` or the model that judged it.
    pub method: String,
}

/// A memory changing tier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TierTransition {
    /// The memory.
    pub memory_id: String,
    /// Tier before.
    pub from_tier: Tier,
    /// Tier after.
    pub to_tier: Tier,
    /// Why (score, supersession, stale, pinned, merged).
    pub reason: String,
    /// The retention score behind it.
    pub retention_score: f32,
}

string_enum! {
    /// Where a consolidation run got to.
    Phase {
        /// Loading memories and scoring them.
        #[default]
        Scan => "scan",
        /// Grouping by meaning.
        Cluster => "cluster",
        /// Writing cluster summaries.
        Summarize => "summarize",
        /// Finding replaced memories.
        Supersession => "supersession",
        /// Assigning tiers.
        Tier => "tier",
        /// Drawing the graph.
        Edges => "edges",
        /// The plan is computed and saved; applying it.
        Persist => "persist",
        /// Done.
        Completed => "completed",
    }
}

/// One action of a run, for `subcog runs`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunAction {
    /// `merge`, `archive`, `summarize_verbose`, `promote`, `supersede`, `summary`.
    pub action: String,
    /// Memories it touched.
    pub memory_ids: Vec<String>,
    /// Why.
    pub reason: String,
}

/// What the LLM did in a run, for the run log.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LlmRun {
    /// Providers in the chain, in order (`name/model`).
    pub providers: Vec<String>,
    /// Prompt versions used.
    pub prompt_versions: Vec<String>,
    /// Tokens, cost, refusals.
    pub usage: UsageReport,
    /// Pairs judged by the LLM.
    pub pairs_judged: usize,
    /// Summaries written by the LLM.
    pub summaries_written: usize,
    /// Edges the LLM named (before resolving their targets).
    #[serde(default)]
    pub edges_extracted: usize,
    /// Of those, edges whose target was found among the memories.
    #[serde(default)]
    pub edges_resolved: usize,
    /// Memories the LLM screened for quarantine this run (`[quarantine] llm`).
    #[serde(default)]
    pub screened: usize,
    /// Of them, the ids it held back.
    #[serde(default)]
    pub screen_held: Vec<String>,
    /// Items that fell back to the offline path, with why.
    pub fallbacks: Vec<String>,
    /// Set when a cap stopped LLM calls: the rest of the run went offline.
    pub stopped: Option<String>,
}

/// The outcome of a consolidation run (seed 003 `ConsolidationResult`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConsolidationResult {
    /// Run id (`run_<ulid>`).
    pub run_id: String,
    /// What started it: `manual`, `threshold`, `schedule`, `session_end`.
    pub trigger: String,
    /// The scope, as the user gave it.
    pub scope: String,
    /// Started.
    pub started_at: DateTime<Utc>,
    /// Finished, when it did.
    pub completed_at: Option<DateTime<Utc>>,
    /// The last phase reached.
    pub phase: Phase,
    /// Whether nothing was written.
    pub dry_run: bool,
    /// Whether every cluster was recomputed.
    pub full: bool,
    /// Memories scanned.
    pub memories_processed: usize,
    /// Clusters found.
    pub clusters_found: usize,
    /// Summaries written or changed.
    pub summaries_created: usize,
    /// Supersessions found.
    pub supersessions_detected: usize,
    /// Edges in the graph after the run.
    pub edges: usize,
    /// Tier changes.
    pub tier_transitions: Vec<TierTransition>,
    /// Rule actions (merge, archive, promote, summarize).
    pub actions: Vec<RunAction>,
    /// Memories whose enrichment changed.
    pub memories_changed: usize,
    /// Problems that did not stop the run.
    pub errors: Vec<String>,
    /// How long each stage took, in milliseconds.
    pub stage_ms: Vec<(String, u64)>,
    /// What the LLM did, when one was used.
    #[serde(default)]
    pub llm: Option<LlmRun>,
}

/// `--llm off|auto|required`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LlmMode {
    /// Offline only.
    #[default]
    Off,
    /// Use the configured providers when any is available.
    Auto,
    /// Fail when no provider is available.
    Required,
}

/// Totals of a run, for the run log.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct UsageReport {
    /// Completed calls.
    pub calls: u64,
    /// Input tokens.
    pub input_tokens: u64,
    /// Output tokens.
    pub output_tokens: u64,
    /// Estimated USD.
    pub cost_usd: f64,
    /// Calls refused by a cap.
    pub refused: u64,
    /// Why calls were refused, when they were.
    pub cap_reached: Option<String>,
    /// Tokens by model.
    pub by_model: std::collections::BTreeMap<String, u64>,
}
