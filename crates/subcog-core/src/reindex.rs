//! Rebuilding derived data: the index from git notes, and embeddings when the model
//! changes or vectors are missing. Vectors of any other model are removed, so two models'
//! vectors are never compared.

use std::collections::{BTreeMap, BTreeSet};

use git2::Oid;
use serde::Serialize;

use crate::error::Result;
use crate::model::{Memory, MemoryId};
use crate::notes::format::{MetaRecord, parse_memory_note};
use crate::notes::{NoteIssue, NotesRef, NotesRepo};
use crate::service::{ScopeKind, Subcog};
use crate::store::PutOutcome;

/// Memories read from a scope's notes, with their enrichment applied.
#[derive(Debug, Default)]
pub(crate) struct NotesSnapshot {
    /// Parsed memories.
    pub memories: Vec<Memory>,
    /// Memories whose meta note was found and applied.
    pub with_meta: BTreeSet<MemoryId>,
    /// Notes that could not be used.
    pub issues: Vec<NoteIssue>,
}

/// What rebuilding one scope's index from notes did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ScopeReindex {
    /// The scope.
    pub scope: String,
    /// The repository read.
    pub repository: String,
    /// Memory notes read.
    pub notes: usize,
    /// Memories added to the index.
    pub inserted: usize,
    /// Memories whose index row was replaced by the note's version.
    pub replaced: usize,
    /// Memories already identical in the index.
    pub unchanged: usize,
    /// Notes whose content another live memory already holds: `(note id, index id)`.
    pub duplicates: Vec<(String, String)>,
    /// Notes skipped, each with the reason.
    pub skipped: Vec<NoteIssue>,
    /// Consolidation records restored: summaries, nodes with edges, runs.
    pub restored: (usize, usize, usize),
    /// Notes new to the index that read as instructions to the agent, held in quarantine.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<String>,
}

/// What `subcog reindex` did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct NotesReindex {
    /// Each scope backed by notes.
    pub scopes: Vec<ScopeReindex>,
}

/// Memories written to the index per transaction while rebuilding.
const PUT_BATCH: usize = 500;

/// What `reindex --embeddings` did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct EmbeddingReindex {
    /// The model now used.
    pub model_id: String,
    /// Memories embedded.
    pub embedded: usize,
    /// Vectors of other models removed.
    pub removed_other_models: usize,
}

/// How many memories are embedded per store transaction.
const BATCH: usize = 256;

impl Subcog {
    /// Rebuilds the index of every scope backed by git notes from its notes, reporting
    /// `(done, total)`. Index rows without a note are kept (see `verify`); embeddings are
    /// not computed here (see [`Subcog::reindex_embeddings`]).
    pub fn reindex_from_notes(&self, progress: &mut dyn FnMut(usize, usize)) -> Result<NotesReindex> {
        let _span = tracing::info_span!("reindex.notes").entered();
        let mut report = NotesReindex::default();
        for scope in [ScopeKind::Project, ScopeKind::User] {
            self.check_integrity(scope)?;
            if let Some(r) = self.reindex_scope(scope, true, progress)? {
                report.scopes.push(r);
            }
        }
        Ok(report)
    }

    /// Rebuilds one scope's index from its notes; `None` when the scope has no notes. Notes
    /// new to the index are screened for quarantine by the rules, and by the learned
    /// judgement too when `screen_meaning` (it embeds them).
    pub(crate) fn reindex_scope(
        &self,
        scope: ScopeKind,
        screen_meaning: bool,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Option<ScopeReindex>> {
        {
            let Some(repo) = self.notes_repo(scope, false)? else {
                return Ok(None);
            };
            let snapshot = self.read_notes(&repo, scope, None)?;
            let mut r = ScopeReindex {
                scope: scope.as_str().into(),
                repository: repo.path().display().to_string(),
                notes: snapshot.memories.len() + snapshot.issues.len(),
                skipped: snapshot.issues,
                ..Default::default()
            };
            for issue in &r.skipped {
                tracing::warn!(anchor = %issue.anchor, reason = %issue.reason, "skipping note");
            }
            // Notes whose text the index does not have yet (a plain `git fetch`, a fresh
            // clone, a rebuilt index) are screened as arrivals; text the index has keeps
            // its status, so a release stands.
            let existing = self.store_for_read(scope)?;
            let mut memories: Vec<(Memory, bool)> = Vec::with_capacity(snapshot.memories.len());
            for m in snapshot.memories {
                // Only active memories can be held; the others need no look-up.
                let known = match &existing {
                    _ if m.status != crate::model::Status::Active => true,
                    Some(store) => store.get(&m.id)?.is_some_and(|row| row.content == m.content),
                    None => false,
                };
                memories.push((m, known));
            }
            let held = self.screen_new_texts(&mut memories, screen_meaning);
            let memories: Vec<Memory> = memories.into_iter().map(|(m, _)| m).collect();
            self.index_memories(scope, memories, &snapshot.with_meta, &mut r, progress)?;
            if !held.is_empty() {
                // Only the held versions need checking against the rows written.
                let wrote: Vec<Memory> = held.iter().map(|(_, m)| m.clone()).collect();
                let took = self.write_back_holds(scope, &repo, &wrote, held)?;
                r.held = took.iter().map(MemoryId::to_string).collect();
                tracing::warn!(
                    count = r.held.len(),
                    scope = scope.as_str(),
                    "notes read as instructions to the agent held in quarantine"
                );
            }
            r.restored = self.restore_consolidation(scope, &repo, &mut r.skipped)?;
            Ok(Some(r))
        }
    }

    /// Rebuilds the consolidation tables (summaries, edges, supersessions, runs) from the
    /// `mem-summaries`, `mem-edges` and `mem-runs` notes. Bad notes become issues.
    fn restore_consolidation(
        &self,
        scope: ScopeKind,
        repo: &NotesRepo,
        issues: &mut Vec<NoteIssue>,
    ) -> Result<(usize, usize, usize)> {
        use crate::consolidate::{EDGES_FORMAT, EdgesRecord, RUN_FORMAT, SUMMARY_FORMAT};
        use crate::model::{ConsolidationResult, MemorySummary, Supersession, SupersessionKind};
        use crate::notes::format::parse_record;
        let limit = self.note_limit();
        let family = |f: &str| f.split('/').next().unwrap_or_default().to_string();
        let read = |r: NotesRef, issues: &mut Vec<NoteIssue>| -> Result<Vec<(Oid, Vec<u8>)>> {
            let (notes, bad) = repo.read_all(&r.refname(), limit)?;
            issues.extend(bad);
            Ok(notes)
        };
        let mut runs: Vec<ConsolidationResult> = Vec::new();
        for (anchor, bytes) in read(NotesRef::Runs, issues)? {
            match parse_record::<ConsolidationResult>(&bytes, &family(RUN_FORMAT)) {
                Ok(run) => runs.push(run),
                Err(e) => issues.push(NoteIssue {
                    refname: NotesRef::Runs.refname(),
                    anchor: anchor.to_string(),
                    reason: e.0,
                }),
            }
        }
        runs.sort_by_key(|r| r.started_at);
        let Some(latest) = runs.last().cloned() else {
            return Ok((0, 0, 0));
        };
        let mut write = crate::store::ConsolidationWrite::default();
        for (anchor, bytes) in read(NotesRef::Summaries, issues)? {
            match parse_record::<MemorySummary>(&bytes, &family(SUMMARY_FORMAT)) {
                Ok(s) => write.summaries.push(s),
                Err(e) => issues.push(NoteIssue {
                    refname: NotesRef::Summaries.refname(),
                    anchor: anchor.to_string(),
                    reason: e.0,
                }),
            }
        }
        for (anchor, bytes) in read(NotesRef::Edges, issues)? {
            match parse_record::<EdgesRecord>(&bytes, &family(EDGES_FORMAT)) {
                Ok(rec) => {
                    write.edge_sources.push(rec.source_id.clone());
                    write
                        .edges
                        .extend(rec.edges.into_iter().filter(|e| e.source_id == rec.source_id));
                }
                Err(e) => issues.push(NoteIssue {
                    refname: NotesRef::Edges.refname(),
                    anchor: anchor.to_string(),
                    reason: e.0,
                }),
            }
        }
        // Supersessions are the `supersedes` edges ("full supersession: …").
        for e in write
            .edges
            .iter()
            .filter(|e| e.edge_type == crate::model::EdgeType::Supersedes)
        {
            let (kind, reason) = match e.reason.split_once(" supersession: ") {
                Some(("partial", r)) => (SupersessionKind::Partial, r.to_string()),
                Some((_, r)) => (SupersessionKind::Full, r.to_string()),
                None => (SupersessionKind::Full, e.reason.clone()),
            };
            write.supersession_scope.push(e.target_id.clone());
            write.supersessions.push(Supersession {
                superseder_id: e.source_id.clone(),
                superseded_id: e.target_id.clone(),
                kind,
                confidence: e.weight,
                method: if reason.starts_with("near-duplicate") {
                    "merge".into()
                } else {
                    "heuristic".into()
                },
                reason,
            });
        }
        let store = self.store_for_write(scope)?;
        for run in &runs {
            store.save_run(run, None)?;
        }
        let counts = (write.summaries.len(), write.edge_sources.len(), runs.len());
        store.apply_consolidation(&write, &latest, &mut || Ok(()))?;
        Ok(counts)
    }

    /// Reads a repository's memory notes (all, or those attached to `only`) with their
    /// meta notes applied. A bad note, or one whose domain belongs to the other scope,
    /// becomes an issue; the rest load.
    pub(crate) fn read_notes(
        &self,
        repo: &NotesRepo,
        scope: ScopeKind,
        only: Option<&BTreeSet<Oid>>,
    ) -> Result<NotesSnapshot> {
        let _span = tracing::debug_span!("notes.read").entered();
        let limit = self.note_limit();
        let max_content = self.config.capture.max_content_bytes;
        let mut snapshot = NotesSnapshot::default();
        let mut meta: BTreeMap<Oid, MetaRecord> = BTreeMap::new();
        for (r, is_meta) in [(NotesRef::Meta, true), (NotesRef::Memories, false)] {
            let refname = r.refname();
            for (anchor, blob) in repo.entries(&refname)? {
                if only.is_some_and(|set| !set.contains(&anchor)) {
                    continue;
                }
                let issue = |reason: String| NoteIssue {
                    refname: refname.clone(),
                    anchor: anchor.to_string(),
                    reason,
                };
                let bytes = match repo.read_blob(blob, limit)? {
                    Ok(b) => b,
                    Err(size) => {
                        snapshot
                            .issues
                            .push(issue(format!("note is {size} bytes, over the limit of {limit}")));
                        continue;
                    }
                };
                if is_meta {
                    match MetaRecord::parse(&bytes, anchor) {
                        Ok(m) => {
                            meta.insert(anchor, m);
                        }
                        Err(e) => snapshot.issues.push(issue(e.0)),
                    }
                    continue;
                }
                match parse_memory_note(&bytes, anchor, max_content) {
                    Ok(m) if ScopeKind::for_domain(m.domain) != scope => snapshot.issues.push(issue(format!(
                        "memory {} has domain {}, which does not belong in the {} notes",
                        m.id,
                        m.domain,
                        scope.as_str()
                    ))),
                    Ok(mut m) => {
                        if let Some(rec) = meta.get(&anchor) {
                            rec.apply(&mut m);
                            snapshot.with_meta.insert(m.id);
                        }
                        snapshot.memories.push(m);
                    }
                    Err(e) => snapshot.issues.push(issue(e.0)),
                }
            }
        }
        Ok(snapshot)
    }

    /// Writes memories read from notes into a scope's index. Enrichment the index knows
    /// better is kept: recall counts and last access are the larger of both, and scores
    /// stay as indexed when the notes carry none.
    pub(crate) fn index_memories(
        &self,
        scope: ScopeKind,
        memories: Vec<Memory>,
        with_meta: &BTreeSet<MemoryId>,
        report: &mut ScopeReindex,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<()> {
        let store = self.store_for_write(scope)?;
        let other = match scope {
            ScopeKind::Project => self.store_for_read(ScopeKind::User)?,
            ScopeKind::User => self.store_for_read(ScopeKind::Project)?,
        };
        let total = memories.len();
        progress(0, total);
        let mut done = 0;
        let mut batch: Vec<Memory> = Vec::with_capacity(PUT_BATCH);
        let mut chunks = memories.into_iter().peekable();
        while chunks.peek().is_some() {
            batch.clear();
            for mut m in chunks.by_ref().take(PUT_BATCH) {
                // An id already used in the other scope would shadow that memory.
                if let Some(other) = &other
                    && other.get(&m.id)?.is_some()
                {
                    report.skipped.push(NoteIssue {
                        refname: NotesRef::Memories.refname(),
                        anchor: crate::notes::Anchor::memory(&m.id.to_string()).oid.to_string(),
                        reason: format!("memory {} already exists in the other scope", m.id),
                    });
                    done += 1;
                    continue;
                }
                if let Some(old) = store.get(&m.id)? {
                    let has_meta = with_meta.contains(&m.id);
                    merge_enrichment(&mut m, &old, has_meta);
                }
                batch.push(m);
            }
            let outcomes = store.put_records(&batch)?;
            for (m, o) in batch.iter().zip(outcomes) {
                match o {
                    PutOutcome::Inserted => report.inserted += 1,
                    PutOutcome::Replaced => report.replaced += 1,
                    PutOutcome::Unchanged => report.unchanged += 1,
                    PutOutcome::DuplicateContent(other) => {
                        report.duplicates.push((m.id.to_string(), other.to_string()))
                    }
                }
            }
            done += batch.len();
            progress(done, total);
        }
        Ok(())
    }

    /// Embeds every live memory that lacks a vector of the current model (all of them with
    /// `force`), reporting `(done, total)`. Fails when no model is available.
    pub fn reindex_embeddings(&self, force: bool, progress: &mut dyn FnMut(usize, usize)) -> Result<EmbeddingReindex> {
        let _span = tracing::info_span!("reindex.embeddings", force).entered();
        let embedder = match self.embedder_state() {
            crate::service::EmbedderState::Ready(e) => e.clone(),
            crate::service::EmbedderState::Unavailable(why) => {
                return Err(crate::embed::EmbedError::Install { message: why.clone() }.into());
            }
        };
        let model = embedder.model().clone();
        let mut report = EmbeddingReindex {
            model_id: model.id.clone(),
            ..Default::default()
        };
        let stores = self.existing_stores()?;
        let mut total = 0;
        for (_, store) in &stores {
            report.removed_other_models += store.drop_other_embeddings(&model)?;
            if force {
                // Replace every vector: drop this model's too, then embed all.
                let counts = store.embedding_counts()?;
                if counts.iter().any(|c| c.model_id == model.id) {
                    let none = crate::embed::EmbeddingModel {
                        id: String::new(),
                        dim: model.dim,
                    };
                    store.drop_other_embeddings(&none)?;
                }
            }
            total += store.missing_embeddings(&model, usize::MAX)?.len();
        }
        let mut done = 0;
        progress(0, total);
        for (_, store) in &stores {
            loop {
                let batch = store.missing_embeddings(&model, BATCH)?;
                if batch.is_empty() {
                    break;
                }
                let texts: Vec<&str> = batch.iter().map(|m| m.content.as_str()).collect();
                // Text screened by the learned judgement in this process was embedded then.
                let vectors = self.embed_or_take(embedder.as_ref(), &texts)?;
                let items: Vec<_> = batch.iter().map(|m| m.id).zip(vectors).collect();
                store.put_embeddings(&model, &items)?;
                done += items.len();
                report.embedded += items.len();
                progress(done, total);
            }
        }
        Ok(report)
    }
}

/// Keeps the index's recall counts when they are ahead of the notes (they are flushed in
/// batches), and its scores when the notes carry no meta record.
fn merge_enrichment(m: &mut Memory, indexed: &Memory, has_meta: bool) {
    m.activation_count = m.activation_count.max(indexed.activation_count);
    m.last_accessed = m.last_accessed.max(indexed.last_accessed);
    if !has_meta {
        m.tier = indexed.tier;
        m.retention = indexed.retention;
        m.superseded_by = m.superseded_by.or(indexed.superseded_by);
        if m.cluster_id.is_none() {
            m.cluster_id.clone_from(&indexed.cluster_id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::CaptureRequest;
    use crate::clock::SystemClock;
    use crate::config::Config;
    use crate::embed::{EmbedError, Embedder, EmbeddingModel};
    use crate::location::DataLocation;
    use crate::recall::RecallQuery;
    use std::sync::Arc;

    /// A deterministic test embedder: letter counts, so different from any real model.
    struct Letters(EmbeddingModel);

    impl Embedder for Letters {
        fn model(&self) -> &EmbeddingModel {
            &self.0
        }
        fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
            Ok(texts
                .iter()
                .map(|t| {
                    let mut v = vec![0.0f32; self.0.dim];
                    for c in t.to_lowercase().chars().filter(char::is_ascii_lowercase) {
                        v[(c as usize - 'a' as usize) % self.0.dim] += 1.0;
                    }
                    let n = crate::embed::dot(&v, &v).sqrt().max(1e-6);
                    v.iter().map(|x| x / n).collect()
                })
                .collect())
        }
    }

    fn service(dir: &std::path::Path, model: &str, dim: usize) -> Subcog {
        let project = dir.join("project");
        std::fs::create_dir_all(&project).expect("dir");
        let e: Arc<dyn Embedder> = Arc::new(Letters(EmbeddingModel { id: model.into(), dim }));
        Subcog::new(
            Config::default(),
            DataLocation::resolve(dir, &project),
            Arc::new(SystemClock),
        )
        .with_embedder(Some(e))
    }

    /// A text embedded to be screened by the learned judgement is not embedded again for
    /// the index: its vector is taken, once.
    #[test]
    fn a_screened_texts_vector_is_taken_not_computed_again() {
        struct Counting(Letters, std::sync::atomic::AtomicUsize);
        impl Embedder for Counting {
            fn model(&self) -> &EmbeddingModel {
                self.0.model()
            }
            fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
                self.1.fetch_add(texts.len(), std::sync::atomic::Ordering::SeqCst);
                self.0.embed(texts)
            }
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let project = dir.path().join("project");
        std::fs::create_dir_all(&project).expect("dir");
        let counting = Arc::new(Counting(
            Letters(EmbeddingModel {
                id: "test/letters-8".into(),
                dim: 8,
            }),
            std::sync::atomic::AtomicUsize::new(0),
        ));
        let calls = || counting.1.load(std::sync::atomic::Ordering::SeqCst);
        let e: Arc<dyn Embedder> = counting.clone();
        let s = Subcog::new(
            Config::default(),
            DataLocation::resolve(dir.path(), &project),
            Arc::new(SystemClock),
        )
        .with_embedder(Some(e));
        let ns = crate::model::Namespace::parse("learnings").expect("namespace");
        let mut m = Memory::new("an arriving note", ns, chrono::Utc::now());
        s.hold_by_meaning(&mut [&mut m]);
        assert_eq!(calls(), 1);
        let expected = counting.0.embed(&["an arriving note"]).expect("embed");
        let taken = s
            .embed_or_take(counting.as_ref(), &["an arriving note", "another text"])
            .expect("vectors");
        assert_eq!(calls(), 2, "only the text that was not screened is embedded");
        assert_eq!(taken.first(), expected.first());
        s.embed_or_take(counting.as_ref(), &["an arriving note"])
            .expect("vectors");
        assert_eq!(calls(), 3, "a kept vector is taken once");
    }

    #[test]
    fn vectors_of_another_model_are_never_mixed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let old = service(dir.path(), "test/letters-8", 8);
        for text in ["alpha beta", "gamma delta", "epsilon zeta"] {
            old.capture(CaptureRequest {
                content: text.into(),
                namespace: "context".into(),
                ..Default::default()
            })
            .expect("capture");
        }
        // A different model (other id and dimension) over the same store.
        let new = service(dir.path(), "test/letters-26", 26);
        let q = RecallQuery {
            query: "alpha".into(),
            no_touch: true,
            ..Default::default()
        };
        let before = new.recall(&q).expect("recall");
        assert!(
            before.results.iter().all(|h| h.explain.vector.is_none()),
            "old vectors must not be compared"
        );
        assert_eq!(new.status().expect("status").missing_embeddings, 3);

        let report = new.reindex_embeddings(false, &mut |_, _| {}).expect("reindex");
        assert_eq!(report.embedded, 3);
        assert_eq!(report.removed_other_models, 3);
        let after = new.recall(&q).expect("recall");
        assert!(after.results.iter().any(|h| h.explain.vector.is_some()));
        let store = new.store_for_write(crate::service::ScopeKind::Project).expect("store");
        let counts = store.embedding_counts().expect("counts");
        assert_eq!(counts.len(), 1);
        assert_eq!(counts[0].model_id, "test/letters-26");
        assert_eq!(counts[0].dim, 26);
    }
}
