//! The note format: TOML front matter between `+++` lines, then a markdown body.
//!
//! A memory note (`refs/notes/mem`) carries every user-visible field in the front matter
//! and the content as the body; a meta note (`refs/notes/mem-meta`) carries the enrichment
//! that consolidation and recall change. Both name the memory's id, so a note is
//! understood without its position. Parsing treats every note as untrusted: sizes are
//! checked, unknown keys ignored (forward compatible), text redacted, and a bad note is an
//! error for that note only. See `docs/NOTES.md` for examples.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::content;
use crate::model::{Domain, Memory, MemoryId, Namespace, Priority, RetentionScore, Status, Tier};
use crate::secrets;
use crate::timestamp;

use super::Anchor;

/// Format tag of memory notes this build writes.
pub const MEMORY_FORMAT: &str = "memory/1";
/// Format tag of meta notes this build writes.
pub const META_FORMAT: &str = "meta/1";

use crate::temporal::resolve::TemporalRef;

const FENCE: &str = "+++";
const MAX_FENCE_CANDIDATES: usize = 8;

#[derive(Deserialize)]
struct FormatTag {
    subcog: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct MemoryFront {
    subcog: String,
    id: String,
    namespace: String,
    domain: Domain,
    status: Status,
    priority: Priority,
    summary: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tags: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    importance: Option<f64>,
    created_by: String,
    created_at: String,
    updated_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    context: Option<String>,
    /// Resolved time references; absent in notes written before they existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time_refs: Option<Vec<TemporalRef>>,
    /// Memories a user said do not replace this one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    not_superseded_by: Vec<String>,
}

/// Most time references a note may carry; more means the note was not written by subcog.
const MAX_TIME_REFS: usize = 256;

/// Time references from a note, if they are sane: bounded in number and length, dates in
/// order, confidence in `[0, 1]`, text redacted. `None` means "resolve from the content".
fn checked_time_refs(refs: Option<Vec<TemporalRef>>) -> Option<Vec<TemporalRef>> {
    let refs = refs?;
    if refs.len() > MAX_TIME_REFS {
        return None;
    }
    let sane = refs.iter().all(|r| {
        r.text.len() <= 200
            && (0.0..=1.0).contains(&r.confidence)
            && match (r.start, r.end) {
                (Some(a), Some(b)) => a <= b,
                (None, None) => true,
                _ => false,
            }
    });
    sane.then(|| {
        refs.into_iter()
            .map(|mut r| {
                r.text = secrets::redact(&r.text, false).text;
                r
            })
            .collect()
    })
}

/// The enrichment of one memory as kept in `refs/notes/mem-meta`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetaRecord {
    /// Format tag.
    pub subcog: String,
    /// The memory's id.
    pub id: String,
    /// Retrieval tier.
    pub tier: Tier,
    /// Recall count.
    pub activation_count: u64,
    /// Last recall.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_accessed: Option<String>,
    /// The memory that replaced this one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<String>,
    /// Consolidation cluster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cluster_id: Option<String>,
    /// When consolidation last scored it; decides which side's scores win a merge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scored_at: Option<String>,
    /// Retention score and factors.
    pub retention: RetentionFront,
}

/// Retention factors, rounded for a readable note.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RetentionFront {
    /// Combined score.
    pub overall: f64,
    /// Time decay.
    pub recency: f64,
    /// Retrieval frequency.
    pub activation: f64,
    /// Importance.
    pub importance: f64,
    /// Supersession penalty.
    pub supersession_penalty: f64,
}

/// Why a note could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn bad(msg: impl Into<String>) -> ParseError {
    ParseError(msg.into())
}

/// A float as written in a note: the shortest decimal of the `f32`, so 0.8 stays 0.8.
fn tidy(x: f32) -> f64 {
    format!("{x}").parse().unwrap_or(f64::from(x))
}

fn wrap(front: &impl Serialize, body: &str) -> String {
    let toml = toml::to_string(front).unwrap_or_default();
    format!("{FENCE}\n{toml}{FENCE}\n\n{body}\n")
}

/// Splits a note into front matter and body. A `+++` line inside a multi-line TOML string
/// cannot fool it: each candidate fence is tried until the front matter parses.
fn split<T: for<'de> Deserialize<'de>>(text: &str) -> Result<(T, &str), ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("+++\n")
        .or_else(|| text.strip_prefix("+++\r\n"))
        .ok_or_else(|| bad("missing the opening +++ line of the front matter"))?;
    let mut last_err = bad("missing the closing +++ line of the front matter");
    let mut from = 0;
    // A `+++` line inside a TOML string is rare; bounding the candidates keeps a hostile
    // note with thousands of them from costing quadratic time.
    let mut candidates = 0;
    while candidates < MAX_FENCE_CANDIDATES
        && let Some(pos) = rest.get(from..).and_then(|r| r.find("\n+++")).map(|p| p + from)
    {
        let front = rest.get(..=pos).unwrap_or_default();
        let after = rest.get(pos + 4..).unwrap_or_default();
        let after = if let Some(a) = after.strip_prefix("\r\n") {
            Some(a)
        } else if let Some(a) = after.strip_prefix('\n') {
            Some(a)
        } else if after.is_empty() {
            Some(after)
        } else {
            None
        };
        if let Some(body) = after {
            candidates += 1;
            match toml::from_str::<T>(front) {
                Ok(t) => return Ok((t, body)),
                Err(e) => last_err = bad(format!("front matter: {}", e.message())),
            }
        }
        from = pos + 1;
    }
    Err(last_err)
}

fn check_format(tag: &str, family: &str) -> Result<(), ParseError> {
    let (fam, version) = tag.split_once('/').unwrap_or((tag, ""));
    if fam != family {
        return Err(bad(format!("not a {family} note (subcog = {tag:?})")));
    }
    if version != "1" {
        return Err(bad(format!(
            "{family} note format {version:?} is newer than this subcog understands"
        )));
    }
    Ok(())
}

fn time(field: &str, text: &str) -> Result<DateTime<Utc>, ParseError> {
    timestamp::from_storage(text).ok_or_else(|| bad(format!("{field}: invalid timestamp {text:?}")))
}

/// Renders a memory's note.
pub fn memory_note(m: &Memory) -> String {
    let front = MemoryFront {
        subcog: MEMORY_FORMAT.into(),
        id: m.id.to_string(),
        namespace: m.namespace.as_str().into(),
        domain: m.domain,
        status: m.status,
        priority: m.priority,
        summary: m.summary.clone(),
        tags: m.tags.clone(),
        source: m.source.clone(),
        importance: m.importance.map(tidy),
        created_by: m.created_by.clone(),
        created_at: timestamp::to_storage(m.created_at),
        updated_at: timestamp::to_storage(m.updated_at),
        context: m.context.clone(),
        time_refs: Some(m.time_refs.clone()),
        not_superseded_by: m.not_superseded_by.iter().map(ToString::to_string).collect(),
    };
    wrap(&front, &m.content)
}

/// Parses a memory note attached to `anchor`. Text fields pass through secret redaction:
/// notes may come from another machine.
pub fn parse_memory_note(bytes: &[u8], anchor: git2::Oid, max_content: usize) -> Result<Memory, ParseError> {
    let text = std::str::from_utf8(bytes).map_err(|_| bad("not UTF-8"))?;
    if let Ok((tag, _)) = split::<FormatTag>(text) {
        check_format(&tag.subcog, "memory")?;
    }
    let (front, body): (MemoryFront, &str) = split(text)?;
    check_format(&front.subcog, "memory")?;
    let id: MemoryId = front
        .id
        .parse()
        .map_err(|_| bad(format!("invalid id {:?}", front.id)))?;
    if Anchor::memory(&id.to_string()).oid != anchor {
        return Err(bad(format!("note names memory {id} but is attached to another object")));
    }
    let namespace = Namespace::parse(&front.namespace).map_err(|e| bad(e.to_string()))?;
    let body = body.strip_prefix('\n').unwrap_or(body);
    let body = body.strip_suffix('\n').unwrap_or(body);
    if body.trim().is_empty() {
        return Err(bad("the note has no content"));
    }
    if body.len() > max_content {
        return Err(bad(format!(
            "content is {} bytes, over the limit of {max_content}",
            body.len()
        )));
    }
    let redact = |s: &str| secrets::redact(s, false).text;
    let created_at = time("created_at", &front.created_at)?;
    let updated_at = time("updated_at", &front.updated_at)?;
    let tags = crate::model::normalize_tags(&front.tags).map_err(|e| bad(e.to_string()))?;
    let importance = front
        .importance
        .map(|i| crate::model::validate_importance(i as f32))
        .transpose()
        .map_err(|e| bad(e.to_string()))?;
    let mut m = Memory::new(redact(body), namespace, created_at);
    m.id = id;
    m.summary = content::one_line(&redact(&front.summary), crate::capture::SUMMARY_LIMIT);
    if m.summary.is_empty() {
        m.summary = content::derive_summary(&m.content);
    }
    m.domain = front.domain;
    m.status = front.status;
    m.priority = front.priority;
    m.tags = tags;
    m.source = front.source.as_deref().map(redact);
    m.importance = importance;
    m.created_by = redact(&front.created_by);
    m.updated_at = updated_at.max(created_at);
    m.context = front.context.as_deref().map(redact);
    // Memory::new resolved the content with the default reading; the note's own (resolved
    // at capture with the writer's settings) wins when it is sane.
    if let Some(refs) = checked_time_refs(front.time_refs) {
        m.time_refs = refs;
    }
    // Ids only (a bad one is dropped, not fatal), bounded like everything from a note.
    m.not_superseded_by = front
        .not_superseded_by
        .iter()
        .take(64)
        .filter_map(|id| id.parse().ok())
        .collect();
    Ok(m)
}

impl MetaRecord {
    /// The enrichment of a memory; `None` when it is all defaults (nothing worth a note).
    pub fn of(m: &Memory) -> Option<MetaRecord> {
        let fresh = Memory::new("x", m.namespace.clone(), m.created_at);
        if m.tier == fresh.tier
            && m.retention == fresh.retention
            && m.activation_count == 0
            && m.last_accessed.is_none()
            && m.superseded_by.is_none()
            && m.cluster_id.is_none()
        {
            return None;
        }
        let r = m.retention;
        Some(MetaRecord {
            subcog: META_FORMAT.into(),
            id: m.id.to_string(),
            tier: m.tier,
            activation_count: m.activation_count,
            last_accessed: m.last_accessed.map(timestamp::to_storage),
            superseded_by: m.superseded_by.map(|s| s.to_string()),
            cluster_id: m.cluster_id.clone(),
            scored_at: None,
            retention: RetentionFront {
                overall: tidy(r.overall),
                recency: tidy(r.recency),
                activation: tidy(r.activation),
                importance: tidy(r.importance),
                supersession_penalty: tidy(r.supersession_penalty),
            },
        })
    }

    /// Renders the note.
    pub fn render(&self) -> String {
        wrap(self, "")
    }

    /// Parses a meta note attached to `anchor`.
    pub fn parse(bytes: &[u8], anchor: git2::Oid) -> Result<MetaRecord, ParseError> {
        let text = std::str::from_utf8(bytes).map_err(|_| bad("not UTF-8"))?;
        if let Ok((tag, _)) = split::<FormatTag>(text) {
            check_format(&tag.subcog, "meta")?;
        }
        let (front, _): (MetaRecord, &str) = split(text)?;
        check_format(&front.subcog, "meta")?;
        let id: MemoryId = front
            .id
            .parse()
            .map_err(|_| bad(format!("invalid id {:?}", front.id)))?;
        if Anchor::memory(&id.to_string()).oid != anchor {
            return Err(bad(format!(
                "meta note names memory {id} but is attached to another object"
            )));
        }
        if let Some(t) = &front.last_accessed {
            time("last_accessed", t)?;
        }
        if let Some(s) = &front.superseded_by {
            s.parse::<MemoryId>()
                .map_err(|_| bad(format!("invalid superseded_by {s:?}")))?;
        }
        let r = front.retention;
        for v in [r.overall, r.recency, r.activation, r.importance, r.supersession_penalty] {
            if !(0.0..=1.0).contains(&v) {
                return Err(bad(format!("retention value {v} outside [0, 1]")));
            }
        }
        Ok(front)
    }

    /// Copies the enrichment onto a memory.
    pub fn apply(&self, m: &mut Memory) {
        m.tier = self.tier;
        m.activation_count = self.activation_count;
        m.last_accessed = self.last_accessed.as_deref().and_then(timestamp::from_storage);
        m.superseded_by = self.superseded_by.as_deref().and_then(|s| s.parse().ok());
        m.cluster_id.clone_from(&self.cluster_id);
        let r = self.retention;
        m.retention = RetentionScore {
            overall: r.overall as f32,
            recency: r.recency as f32,
            activation: r.activation as f32,
            importance: r.importance as f32,
            supersession_penalty: r.supersession_penalty as f32,
        };
    }

    /// Combines two copies of one memory's enrichment the same way on every machine:
    /// counts and last access take the larger value; scores come from the later scoring.
    pub fn merge(a: &MetaRecord, b: &MetaRecord) -> MetaRecord {
        let (newer, older) = if (b.scored_at.as_deref(), b.render()) > (a.scored_at.as_deref(), a.render()) {
            (b, a)
        } else {
            (a, b)
        };
        let mut out = newer.clone();
        out.activation_count = a.activation_count.max(b.activation_count);
        out.last_accessed = a.last_accessed.clone().max(b.last_accessed.clone());
        if out.cluster_id.is_none() {
            out.cluster_id.clone_from(&older.cluster_id);
        }
        out
    }
}

#[derive(Serialize)]
struct RecordOut<'a, T: Serialize> {
    subcog: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    updated_at: Option<String>,
    #[serde(flatten)]
    record: &'a T,
}

#[derive(Deserialize)]
struct RecordIn<T> {
    subcog: String,
    #[serde(flatten)]
    record: T,
}

/// Renders a consolidation record (summary, edges of one node, run log) as a note whose
/// front matter carries the format tag and `updated_at` (which decides merges); pass
/// `None` when the record has an `updated_at` of its own.
pub fn record_note<T: Serialize>(format: &str, updated_at: Option<DateTime<Utc>>, record: &T) -> String {
    let out = RecordOut {
        subcog: format,
        updated_at: updated_at.map(timestamp::to_storage),
        record,
    };
    wrap(&out, "")
}

/// Parses a note written by [`record_note`] with format family `family`.
pub fn parse_record<T: for<'de> Deserialize<'de>>(bytes: &[u8], family: &str) -> Result<T, ParseError> {
    let text = std::str::from_utf8(bytes).map_err(|_| bad("not UTF-8"))?;
    if let Ok((tag, _)) = split::<FormatTag>(text) {
        check_format(&tag.subcog, family)?;
    }
    let (front, _): (RecordIn<T>, &str) = split(text)?;
    check_format(&front.subcog, family)?;
    Ok(front.record)
}

/// The `updated_at` of a memory note, for merging; `None` when it does not parse.
pub fn updated_at_of(bytes: &[u8]) -> Option<DateTime<Utc>> {
    #[derive(Deserialize)]
    struct Stamp {
        updated_at: String,
    }
    let text = std::str::from_utf8(bytes).ok()?;
    let (front, _): (Stamp, &str) = split(text).ok()?;
    timestamp::from_storage(&front.updated_at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn sample() -> Memory {
        let at = Utc.with_ymd_and_hms(2023, 5, 8, 14, 30, 0).single().expect("date");
        let mut m = Memory::new(
            "Use PostgreSQL for the main store.\n\n+++\nA line of pluses above.",
            Namespace::parse("decisions").expect("ns"),
            at,
        );
        m.tags = vec!["db".into(), "postgres".into()];
        m.source = Some("ADR-7".into());
        m.importance = Some(0.8);
        m.context = Some("before\n+++\nafter \"quoted\"".into());
        m
    }

    #[test]
    fn memory_notes_round_trip_every_field() {
        let m = sample();
        let text = memory_note(&m);
        assert!(text.starts_with("+++\nsubcog = \"memory/1\"\n"), "{text}");
        assert!(text.contains("importance = 0.8\n"), "{text}");
        let back = parse_memory_note(text.as_bytes(), Anchor::memory(&m.id.to_string()).oid, 1 << 20).expect("parse");
        assert_eq!(back, m);
    }

    #[test]
    fn time_references_travel_in_the_note() {
        use crate::temporal::resolve::Granularity;
        let mut m = sample();
        m.content = "I went to the support group yesterday.".into();
        // Resolved at capture in a zone where it was already 9 May: the note keeps that.
        crate::temporal::annotate(
            &mut m,
            &crate::temporal::TemporalOptions {
                order: crate::temporal::resolve::DateOrder::Mdy,
                zone: crate::temporal::Zone::parse("+12:00").expect("zone"),
            },
        );
        assert_eq!(
            m.time_refs[0].start.map(|d| d.to_string()).as_deref(),
            Some("2023-05-08")
        );
        let text = memory_note(&m);
        assert!(text.contains("[[time_refs]]"), "{text}");
        let anchor = Anchor::memory(&m.id.to_string()).oid;
        let back = parse_memory_note(text.as_bytes(), anchor, 1 << 20).expect("parse");
        assert_eq!(back.time_refs, m.time_refs);
        assert_eq!(back.time_refs[0].granularity, Granularity::Day);

        // A note from before time references: resolved from the content (UTC).
        let old: String = text
            .lines()
            .filter(|l| {
                !l.starts_with("[[time_refs]]")
                    && !l.starts_with("text =")
                    && !l.starts_with("start =")
                    && !l.starts_with("end =")
                    && !l.starts_with("granularity =")
                    && !l.starts_with("confidence =")
            })
            .collect::<Vec<_>>()
            .join("\n");
        let back = parse_memory_note(old.as_bytes(), anchor, 1 << 20).expect("parse old");
        assert_eq!(
            back.time_refs[0].start.map(|d| d.to_string()).as_deref(),
            Some("2023-05-07")
        );

        // Insane references from a peer are ignored in favour of the content.
        let bad = text.replace("confidence = 0.95", "confidence = 7.0");
        assert_ne!(bad, text);
        let back = parse_memory_note(bad.as_bytes(), anchor, 1 << 20).expect("parse bad");
        assert_eq!(back.time_refs[0].confidence, 0.95);
        assert_eq!(
            back.time_refs[0].start.map(|d| d.to_string()).as_deref(),
            Some("2023-05-07")
        );
    }

    #[test]
    fn a_note_on_the_wrong_anchor_is_rejected() {
        let m = sample();
        let text = memory_note(&m);
        let err = parse_memory_note(text.as_bytes(), Anchor::memory("other").oid, 1 << 20).expect_err("anchor");
        assert!(err.0.contains("attached to another object"), "{err}");
    }

    #[test]
    fn broken_notes_give_reasons() {
        let anchor = Anchor::memory("x").oid;
        for (text, reason) in [
            ("no front matter", "opening +++"),
            ("+++\nid = 1\n", "closing +++"),
            ("+++\nsubcog = \"memory/1\"\n+++\n\nbody\n", "front matter"),
            ("+++\nsubcog = \"memory/9\"\n+++\n\nbody\n", "newer than this subcog"),
        ] {
            let err = parse_memory_note(text.as_bytes(), anchor, 1000).expect_err(text);
            assert!(err.0.contains(reason), "{text}: {err}");
        }
        assert!(parse_memory_note(&[0xff, 0xfe], anchor, 1000).is_err());
    }

    #[test]
    fn secrets_in_remote_notes_are_redacted() {
        let mut m = sample();
        m.content = "deploy key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH".into();
        let text = memory_note(&m);
        let back = parse_memory_note(text.as_bytes(), Anchor::memory(&m.id.to_string()).oid, 1 << 20).expect("parse");
        assert!(back.content.contains("[REDACTED"), "{}", back.content);
    }

    #[test]
    fn records_round_trip_through_notes() {
        use crate::model::{EdgeType, MemoryEdge};
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct Edges {
            source_id: String,
            edges: Vec<MemoryEdge>,
        }
        let e = Edges {
            source_id: "a".into(),
            edges: vec![MemoryEdge {
                source_id: "a".into(),
                target_id: "b".into(),
                edge_type: EdgeType::DependsOn,
                weight: 0.5,
                reason: "\"blocked by\" names b".into(),
                run_id: "run_1".into(),
            }],
        };
        let at = Utc.with_ymd_and_hms(2024, 1, 2, 3, 4, 5).single().expect("date");
        let text = record_note("edges/1", Some(at), &e);
        assert!(text.contains("subcog = \"edges/1\""), "{text}");
        assert_eq!(updated_at_of(text.as_bytes()), Some(at));
        let back: Edges = parse_record(text.as_bytes(), "edges").expect("parse");
        assert_eq!(back, e);
        assert!(parse_record::<Edges>(text.as_bytes(), "summary").is_err());
    }

    #[test]
    fn meta_notes_round_trip_and_merge_commutatively() {
        let mut m = sample();
        assert!(MetaRecord::of(&m).is_none(), "fresh memories need no meta note");
        m.activation_count = 3;
        m.tier = Tier::Warm;
        m.last_accessed = Some(m.created_at);
        m.retention.overall = 0.55;
        let rec = MetaRecord::of(&m).expect("meta");
        let anchor = Anchor::memory(&m.id.to_string()).oid;
        let back = MetaRecord::parse(rec.render().as_bytes(), anchor).expect("parse");
        assert_eq!(back, rec);
        let mut copy = Memory::new("x", m.namespace.clone(), m.created_at);
        back.apply(&mut copy);
        assert_eq!(copy.activation_count, 3);
        assert_eq!(copy.tier, Tier::Warm);
        assert_eq!(copy.retention.overall, 0.55);

        let mut other = rec.clone();
        other.activation_count = 7;
        other.scored_at = Some("2024-01-01T00:00:00.000000Z".into());
        other.tier = Tier::Cold;
        let ab = MetaRecord::merge(&rec, &other);
        let ba = MetaRecord::merge(&other, &rec);
        assert_eq!(ab, ba);
        assert_eq!(ab.activation_count, 7);
        assert_eq!(ab.tier, Tier::Cold);
    }
}
