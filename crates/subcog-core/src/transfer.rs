//! Import and export as JSON Lines: one memory per line, every field, lossless.
//!
//! Export writes [`Memory`] records as they are stored. Import reads those and also
//! minimal records from other tools (`content` required, everything else optional), checks
//! the whole input before writing anything, redacts secrets, skips duplicates (same id, or
//! same content in the same namespace and domain) and commits in batches, so an
//! interrupted import keeps what it committed and a second run finishes it.

use chrono::{DateTime, Utc};
use serde::Deserialize;

use crate::capture::{assemble, clean_text, validate_content};
use crate::content;
use crate::error::{Error, Result};
use crate::model::{
    Domain, Memory, MemoryId, Priority, RetentionScore, Status, Tier, normalize_tags, validate_importance,
};
use crate::service::{ScopeKind, Subcog};
use crate::store::sqlite::SqliteStore;
use crate::store::{InsertOutcome, ListOrder, MemoryFilter, Store, Vectors};
use crate::timestamp;

/// Namespace given to imported records that name none.
pub const DEFAULT_IMPORT_NAMESPACE: &str = "context";

/// One input line: a full exported memory or a minimal record.
#[derive(Debug, Clone, Deserialize)]
pub struct ImportRecord {
    /// Existing id (kept), or generated from `created_at`.
    pub id: Option<String>,
    /// The memory text (required).
    pub content: Option<String>,
    /// Summary; derived when absent.
    pub summary: Option<String>,
    /// Namespace; `context` when absent.
    pub namespace: Option<String>,
    /// Domain; `project` when absent.
    pub domain: Option<String>,
    /// Tags.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Source.
    pub source: Option<String>,
    /// Importance in `[0, 1]`.
    pub importance: Option<f32>,
    /// Priority.
    pub priority: Option<String>,
    /// Creator; `import` when absent.
    pub created_by: Option<String>,
    /// Timestamp (RFC 3339, `YYYY-MM-DD HH:MM[:SS]` or `YYYY-MM-DD`); also read from
    /// `timestamp` or `date`.
    #[serde(alias = "timestamp", alias = "date")]
    pub created_at: Option<String>,
    /// Last update; `created_at` when absent.
    pub updated_at: Option<String>,
    /// Status.
    pub status: Option<String>,
    /// Tier.
    pub tier: Option<String>,
    /// Retention score and factors.
    pub retention: Option<RetentionScore>,
    /// Activation count.
    pub activation_count: Option<u64>,
    /// Last access.
    pub last_accessed: Option<String>,
    /// Superseding memory id.
    pub superseded_by: Option<String>,
    /// Cluster id.
    pub cluster_id: Option<String>,
    /// Surrounding text searched at low weight.
    pub context: Option<String>,
    /// The conversation a turn belongs to: records that share one are its turns, in file
    /// order, and each turn without a `context` gets its neighbouring turns as context.
    #[serde(alias = "conversation_id", alias = "session", alias = "session_id")]
    pub conversation: Option<String>,
    /// Who said the turn: stored as `speaker: text`, as a transcript reads.
    #[serde(alias = "role", alias = "author")]
    pub speaker: Option<String>,
}

/// Fills in conversation turns: `speaker: text` as the content, and the neighbouring turns
/// of the same conversation as the context of each turn that brings none.
pub fn link_turns(records: &mut [(usize, ImportRecord)]) {
    let mut conversations: std::collections::HashMap<String, Vec<usize>> = std::collections::HashMap::new();
    for (k, (_, r)) in records.iter_mut().enumerate() {
        let Some(conv) = r.conversation.as_deref().map(str::trim).filter(|c| !c.is_empty()) else {
            continue;
        };
        conversations.entry(conv.to_string()).or_default().push(k);
        if let Some(content) = &r.content {
            r.content = Some(crate::conversation::line(r.speaker.as_deref(), content));
        }
    }
    for turns in conversations.values() {
        let lines: Vec<String> = turns
            .iter()
            .map(|&k| records[k].1.content.clone().unwrap_or_default())
            .collect();
        for (i, &k) in turns.iter().enumerate() {
            let r = &mut records[k].1;
            if r.context.as_deref().is_none_or(|c| c.trim().is_empty()) {
                r.context = crate::conversation::neighbours(&lines, i);
            }
        }
    }
}

/// Parses JSON Lines; blank lines are skipped, the first bad line is an error naming it.
pub fn parse_jsonl(text: &str) -> Result<Vec<(usize, ImportRecord)>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let record: ImportRecord = serde_json::from_str(line).map_err(|e| Error::Import {
            line: i + 1,
            message: format!("not a JSON object: {e}"),
        })?;
        out.push((i + 1, record));
    }
    Ok(out)
}

/// One memory as an export line (no trailing newline).
pub fn to_jsonl_line(memory: &Memory) -> String {
    // Serializing plain data with string keys cannot fail.
    serde_json::to_string(memory).unwrap_or_default()
}

/// What an import did (or would do, for a dry run).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ImportReport {
    /// Records read.
    pub records: usize,
    /// Records stored.
    pub imported: usize,
    /// Skipped: the id already exists.
    pub duplicate_ids: usize,
    /// Skipped: the same content is already live in the namespace and domain.
    pub duplicate_content: usize,
    /// Records in which secrets were redacted.
    pub redacted: usize,
    /// Records held in quarantine: their text reads as an instruction to the agent.
    pub quarantined: usize,
    /// Nothing was written.
    pub dry_run: bool,
    /// Batches committed (each its rows and notes together).
    pub batches: usize,
}

fn count(report: &mut ImportReport, outcomes: Vec<InsertOutcome>) {
    for o in outcomes {
        match o {
            InsertOutcome::Inserted(_) => report.imported += 1,
            InsertOutcome::DuplicateId(_) => report.duplicate_ids += 1,
            InsertOutcome::DuplicateContent(_) => report.duplicate_content += 1,
        }
    }
}

/// How an import runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportOptions {
    /// Report what would be imported without writing.
    pub dry_run: bool,
    /// Accept namespaces that are not built in, configured or in use.
    pub allow_new_namespace: bool,
    /// Records committed together (one index transaction and one notes commit each).
    pub batch_size: usize,
}

/// Records per committed batch unless told otherwise.
pub const DEFAULT_IMPORT_BATCH: usize = 500;

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            dry_run: false,
            allow_new_namespace: false,
            batch_size: DEFAULT_IMPORT_BATCH,
        }
    }
}

impl Subcog {
    /// Imports JSON Lines text. Validates every record first; writes nothing on a bad one.
    pub fn import(&self, text: &str, dry_run: bool, allow_new_namespace: bool) -> Result<ImportReport> {
        let options = ImportOptions {
            dry_run,
            allow_new_namespace,
            ..ImportOptions::default()
        };
        self.import_with_progress(text, &options, &mut |_, _| {})
    }

    /// Imports JSON Lines text in committed batches, reporting `(records done, total)`.
    ///
    /// Every record is checked before the first write, so a bad line writes nothing. Then
    /// each batch is committed on its own (its rows and its notes together), so an import
    /// that is killed or fails keeps the batches before it, and running it again skips
    /// what is stored (same id, or same content) without embedding it again.
    pub fn import_with_progress(
        &self,
        text: &str,
        options: &ImportOptions,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<ImportReport> {
        let _span = tracing::info_span!("transfer.import", dry_run = options.dry_run).entered();
        let mut records = parse_jsonl(text)?;
        link_turns(&mut records);
        let mut report = ImportReport {
            records: records.len(),
            dry_run: options.dry_run,
            ..Default::default()
        };
        let mut by_scope: Vec<(ScopeKind, Vec<Memory>)> =
            vec![(ScopeKind::Project, Vec::new()), (ScopeKind::User, Vec::new())];
        // Memories of a subcog export (records with an id) come back as they were.
        let mut exported: std::collections::HashSet<MemoryId> = std::collections::HashSet::new();
        for (line, record) in records {
            let has_id = record.id.is_some();
            let (memory, redacted) = self
                .memory_from_record(record, options.allow_new_namespace)
                .map_err(|e| Error::Import {
                    line,
                    message: e.to_string(),
                })?;
            report.redacted += usize::from(redacted);
            report.quarantined += usize::from(memory.status == Status::Quarantined);
            if has_id {
                exported.insert(memory.id);
            }
            let scope = ScopeKind::for_domain(memory.domain);
            if let Some((_, list)) = by_scope.iter_mut().find(|(k, _)| *k == scope) {
                list.push(memory);
            }
        }
        let mut by_scope: Vec<(ScopeKind, Vec<Memory>)> = by_scope.into_iter().filter(|(_, m)| !m.is_empty()).collect();
        for (_, memories) in &mut by_scope {
            crate::conversation::fill_preceding(memories, &self.config.capture, |m| !exported.contains(&m.id));
        }
        let mut outcomes: Vec<InsertOutcome> = Vec::new();
        if options.dry_run {
            for (scope, memories) in &by_scope {
                outcomes.extend(match self.store_for_read(*scope)? {
                    Some(store) => store.insert_many(memories, None, true)?,
                    None => SqliteStore::open_in_memory()?.insert_many(memories, None, true)?,
                });
            }
            count(&mut report, outcomes);
            return Ok(report);
        }
        // Open every store first, so the likely failures (a read-only or too-new store)
        // happen while nothing is written yet.
        for (scope, _) in &by_scope {
            self.store_for_write(*scope)?;
            self.notes_repo(*scope, true)?;
        }
        let total: usize = by_scope.iter().map(|(_, m)| m.len()).sum();
        let batch_size = options.batch_size.max(1);
        let mut done = 0;
        let mut without_vectors = false;
        progress(done, total);
        for (scope, memories) in &by_scope {
            let store = self.store_for_write(*scope)?;
            for batch in memories.chunks(batch_size) {
                // What an earlier (interrupted) run stored is skipped before it is embedded.
                let check = store.insert_many(batch, None, true)?;
                let mut fresh: Vec<Memory> = batch
                    .iter()
                    .zip(&check)
                    .filter(|(_, o)| matches!(o, InsertOutcome::Inserted(_)))
                    .map(|(m, _)| m.clone())
                    .collect();
                outcomes.extend(check.into_iter().filter(|o| !matches!(o, InsertOutcome::Inserted(_))));
                if !fresh.is_empty() {
                    let texts: Vec<&str> = fresh.iter().map(|m| m.content.as_str()).collect();
                    let vectors = if without_vectors {
                        None
                    } else {
                        match self.embed_texts(&texts, &mut |_, _| {}) {
                            Ok(v) => v,
                            Err(e) => {
                                tracing::warn!(error = %e, "importing without vectors; run `subcog reindex --embeddings`");
                                without_vectors = true;
                                None
                            }
                        }
                    };
                    if let Some((model, v)) = &vectors {
                        // What the rules passed meets the learned judgement, on the vectors
                        // the index stores anyway.
                        for (m, vector) in fresh.iter_mut().zip(v) {
                            report.quarantined +=
                                usize::from(crate::quarantine::hold_by_meaning(m, model, vector).is_some());
                        }
                    }
                    let with = vectors.as_ref().map(|(model, v)| Vectors { model, vectors: v });
                    outcomes.extend(self.persist_insert(*scope, &fresh, with, false)?);
                    report.batches += 1;
                }
                done += batch.len();
                progress(done, total);
            }
        }
        count(&mut report, outcomes);
        Ok(report)
    }

    /// Every memory matching the filter (all statuses unless the filter says otherwise),
    /// oldest first, for export.
    pub fn export(&self, filter: &MemoryFilter) -> Result<Vec<Memory>> {
        let mut filter = filter.clone();
        if filter.statuses.is_empty() {
            filter.statuses = Status::ALL.to_vec();
        }
        self.list(&filter, ListOrder::OldestFirst, None)
    }

    fn memory_from_record(&self, r: ImportRecord, allow_new_namespace: bool) -> Result<(Memory, bool)> {
        let content_text = r.content.unwrap_or_default();
        validate_content(&content_text, self.config.capture.max_content_bytes)?;
        let domain: Domain = parse_or(r.domain.as_deref(), Domain::Project)?;
        let namespace = self.resolve_namespace(
            r.namespace.as_deref().unwrap_or(DEFAULT_IMPORT_NAMESPACE),
            ScopeKind::for_domain(domain),
            // A record with an id comes from a subcog export, where its namespace was valid.
            allow_new_namespace || r.id.is_some(),
        )?;
        let text = clean_text(
            &content_text,
            r.summary.as_deref(),
            r.source.as_deref(),
            self.config.capture.on_secret,
            self.config.capture.redact_emails,
        )?;
        let redacted = !text.redactions.is_empty();
        let now = timestamp::canonical(self.clock.now());
        let created_at = parse_ts(r.created_at.as_deref())?.unwrap_or(now);
        let mut m = assemble(namespace, text, created_at);
        if let Some(id) = &r.id {
            m.id = id.parse::<MemoryId>()?;
        }
        m.domain = domain;
        m.tags = normalize_tags(&r.tags)?;
        m.importance = r.importance.map(validate_importance).transpose()?;
        m.priority = parse_or(r.priority.as_deref(), Priority::Normal)?;
        m.created_by = r
            .created_by
            .filter(|c| !c.trim().is_empty())
            .unwrap_or_else(|| "import".into());
        m.updated_at = parse_ts(r.updated_at.as_deref())?.unwrap_or(created_at);
        m.status = parse_or(r.status.as_deref(), Status::Active)?;
        m.tier = parse_or(r.tier.as_deref(), Tier::default())?;
        if let Some(ret) = r.retention {
            let parts = [
                ret.overall,
                ret.recency,
                ret.activation,
                ret.importance,
                ret.supersession_penalty,
            ];
            if parts.iter().any(|v| !v.is_finite() || !(0.0..=1.0).contains(v)) {
                return Err(crate::error::ValidationError::OutOfRange {
                    what: "retention",
                    value: format!("{parts:?}"),
                    range: "0.0..=1.0",
                }
                .into());
            }
            m.retention = ret;
        }
        m.activation_count = r.activation_count.unwrap_or(0);
        if m.activation_count > i64::MAX as u64 {
            return Err(crate::error::ValidationError::OutOfRange {
                what: "activation_count",
                value: m.activation_count.to_string(),
                range: "0..=9223372036854775807",
            }
            .into());
        }
        m.last_accessed = parse_ts(r.last_accessed.as_deref())?;
        m.superseded_by = r.superseded_by.as_deref().map(str::parse::<MemoryId>).transpose()?;
        m.cluster_id = r.cluster_id.filter(|c| !c.is_empty());
        if let Some(ctx) = r.context.filter(|c| !c.trim().is_empty()) {
            let clean = clean_text(
                &ctx,
                None,
                None,
                self.config.capture.on_secret,
                self.config.capture.redact_emails,
            )?;
            m.context = Some(clean.content);
        }
        m.content_hash = content::content_hash(&m.content);
        crate::temporal::annotate(&mut m, &self.temporal_options());
        // Imported text is outside text like any capture: an active record that reads as an
        // instruction to the agent is held back (a record already quarantined stays so).
        crate::quarantine::hold(&mut m);
        Ok((m, redacted))
    }
}

fn parse_or<T: std::str::FromStr<Err = crate::error::ValidationError>>(text: Option<&str>, default: T) -> Result<T> {
    match text {
        Some(t) if !t.trim().is_empty() => Ok(t.parse()?),
        _ => Ok(default),
    }
}

fn parse_ts(text: Option<&str>) -> Result<Option<DateTime<Utc>>> {
    match text {
        Some(t) if !t.trim().is_empty() => Ok(Some(timestamp::parse_instant(t)?)),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonl_parsing_names_the_bad_line() {
        let ok =
            parse_jsonl("{\"content\":\"a\"}\n\n{\"content\":\"b\",\"tags\":[\"x\"],\"extra\":1}\n").expect("parses");
        assert_eq!(ok.len(), 2);
        assert_eq!(ok[1].0, 3);
        let err = parse_jsonl("{\"content\":\"a\"}\n{broken\n").expect_err("bad line");
        assert!(err.to_string().starts_with("line 2:"), "{err}");
    }
}
