//! The `Memory` record and its identifier.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use ulid::Ulid;

use super::{Domain, Namespace, Priority, Status, Tier};
use crate::model::ValidationError;

/// Characters of a memory's short handle ([`MemoryId::handle`]).
pub const HANDLE_LEN: usize = 8;

/// A memory's identifier: a ULID, sortable by creation time and unique across machines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct MemoryId(Ulid);

impl MemoryId {
    /// A new id whose time part is `at`, so ids of imported memories sort by their date.
    pub fn at(at: DateTime<Utc>) -> Self {
        let ms = u64::try_from(at.timestamp_millis()).unwrap_or(0);
        MemoryId(Ulid::from_parts(ms, Ulid::generate().random()))
    }

    /// A deterministic id: time part `at`, random part from a hash of `seed`. Used for
    /// records derived from another (a promoted copy), so re-running makes the same id.
    pub fn derived(at: DateTime<Utc>, seed: &str) -> Self {
        use sha2::{Digest, Sha256};
        let ms = u64::try_from(at.timestamp_millis()).unwrap_or(0);
        let digest = Sha256::digest(seed.as_bytes());
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(&digest[..16]);
        let random = u128::from_be_bytes(bytes) & ((1u128 << 80) - 1);
        MemoryId(Ulid::from_parts(ms, random))
    }

    /// The underlying ULID.
    pub fn ulid(&self) -> Ulid {
        self.0
    }

    /// The short handle shown in session context: the last [`HANDLE_LEN`] characters,
    /// from the ULID's random part (40 bits: unique in any realistic store, and checked
    /// when resolved).
    pub fn handle(&self) -> String {
        let s = self.0.to_string();
        s[s.len() - HANDLE_LEN..].to_string()
    }
}

impl fmt::Display for MemoryId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl FromStr for MemoryId {
    type Err = ValidationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ulid::from_string(s.trim())
            .map(MemoryId)
            .map_err(|_| ValidationError::InvalidId { id: s.to_string() })
    }
}

impl TryFrom<String> for MemoryId {
    type Error = ValidationError;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        value.parse()
    }
}

impl From<MemoryId> for String {
    fn from(value: MemoryId) -> Self {
        value.0.to_string()
    }
}

/// Retention score with the factors it was computed from (seed 003's `RetentionScore`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RetentionScore {
    /// Combined score in `[0, 1]`; decides the tier.
    pub overall: f32,
    /// Time-decay factor.
    pub recency: f32,
    /// Retrieval-frequency factor.
    pub activation: f32,
    /// Explicit importance and namespace weight.
    pub importance: f32,
    /// Penalty applied when superseded.
    pub supersession_penalty: f32,
}

impl Default for RetentionScore {
    fn default() -> Self {
        // A fresh memory is fully retained until the first consolidation scores it.
        RetentionScore {
            overall: 1.0,
            recency: 1.0,
            activation: 0.0,
            importance: 0.0,
            supersession_penalty: 0.0,
        }
    }
}

/// One memory: what was learned, where it belongs, and what consolidation knows about it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Memory {
    /// Unique, time-sortable id.
    pub id: MemoryId,
    /// The memory text, already redacted.
    pub content: String,
    /// One-line summary (derived from the content when not given).
    pub summary: String,
    /// Kind of memory (decisions, learnings, ...).
    pub namespace: Namespace,
    /// Project, user or org.
    pub domain: Domain,
    /// Normalized tags.
    pub tags: Vec<String>,
    /// Where it came from (file, URL, session, dataset id...).
    pub source: Option<String>,
    /// Explicit importance in `[0, 1]`, when given.
    pub importance: Option<f32>,
    /// Normal or critical.
    pub priority: Priority,
    /// Who captured it (`user`, `claude-code`, `mcp`, `import`...).
    pub created_by: String,
    /// When it was captured (or the imported timestamp), UTC, microsecond precision.
    pub created_at: DateTime<Utc>,
    /// Last change to any user-visible field.
    pub updated_at: DateTime<Utc>,
    /// Lifecycle state.
    pub status: Status,
    /// SHA-256 of the normalized content; duplicates share it.
    pub content_hash: String,
    /// Retrieval tier (enrichment).
    pub tier: Tier,
    /// Retention score and factors (enrichment).
    pub retention: RetentionScore,
    /// How many times recall returned it (enrichment).
    pub activation_count: u64,
    /// When recall last returned it (enrichment).
    pub last_accessed: Option<DateTime<Utc>>,
    /// The memory that replaced this one (enrichment).
    pub superseded_by: Option<MemoryId>,
    /// The cluster consolidation put it in (enrichment).
    pub cluster_id: Option<String>,
    /// Surrounding text (e.g. the turns before and after in a conversation), searched at
    /// low weight so the memory is found by what was said around it; never shown as content.
    #[serde(default)]
    pub context: Option<String>,
    /// Time references in the content, resolved against the capture day (event time).
    #[serde(default)]
    pub time_refs: Vec<crate::temporal::resolve::TemporalRef>,
    /// Memories a user said do not replace this one (an undone supersession), so
    /// consolidation never marks it superseded by them again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_superseded_by: Vec<MemoryId>,
}

impl Memory {
    /// A new active memory with default metadata, captured at `now` by `created_by`.
    pub fn new(content: impl Into<String>, namespace: Namespace, now: DateTime<Utc>) -> Self {
        let content = content.into();
        let now = crate::timestamp::canonical(now);
        let mut m = Memory {
            id: MemoryId::at(now),
            summary: crate::content::derive_summary(&content),
            content_hash: crate::content::content_hash(&content),
            content,
            namespace,
            domain: Domain::default(),
            tags: Vec::new(),
            source: None,
            importance: None,
            priority: Priority::default(),
            created_by: "user".into(),
            created_at: now,
            updated_at: now,
            status: Status::default(),
            tier: Tier::default(),
            retention: RetentionScore::default(),
            activation_count: 0,
            last_accessed: None,
            superseded_by: None,
            cluster_id: None,
            context: None,
            time_refs: Vec::new(),
            not_superseded_by: Vec::new(),
        };
        // Default reading (UTC, month first); capture re-reads with the configured options.
        crate::temporal::annotate(&mut m, &crate::temporal::TemporalOptions::default());
        m
    }

    /// The status as a user reads it: an active memory that a newer one replaces is
    /// superseded (consolidation records the replacement, not a new status).
    pub fn current_status(&self) -> Status {
        if self.status == Status::Active && self.superseded_by.is_some() {
            Status::Superseded
        } else {
            self.status
        }
    }

    /// Whether recall should consider this memory at all.
    pub fn is_live(&self) -> bool {
        self.status != Status::Deleted
    }
}

/// A search channel's match: which memory, how well it matched (higher is better) and the
/// few fields ranking needs. Content is loaded only for the results a recall returns.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    /// The memory.
    pub id: MemoryId,
    /// Relevance in the channel's own unit (BM25, cosine, time closeness).
    pub score: f64,
    /// When the memory was captured (breaks ties between equal scores).
    pub created_at: DateTime<Utc>,
    /// Its tags (a tag named in the query boosts it).
    pub tags: Vec<String>,
    /// Its text, for the entities it names ([`crate::entities::names`]: one the query
    /// names too boosts it like a tag).
    pub content: String,
    /// The memory that replaced it, if any (placed right above it).
    pub superseded_by: Option<MemoryId>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn ids_parse_and_sort_by_time() {
        let early = MemoryId::at(Utc.with_ymd_and_hms(2023, 5, 8, 0, 0, 0).single().expect("date"));
        let late = MemoryId::at(Utc.with_ymd_and_hms(2024, 1, 1, 0, 0, 0).single().expect("date"));
        assert!(early < late);
        let text = early.to_string();
        assert_eq!(text.len(), 26);
        assert_eq!(text.parse::<MemoryId>().ok(), Some(early));
        assert_eq!(text.to_lowercase().parse::<MemoryId>().ok(), Some(early));
        assert!("not-an-id".parse::<MemoryId>().is_err());
    }

    #[test]
    fn ids_at_the_same_instant_differ() {
        let t = Utc::now();
        assert_ne!(MemoryId::at(t), MemoryId::at(t));
    }
}
