//! Everyday management of memories: get, list, update, soft and hard delete, status.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::capture::{SUMMARY_LIMIT, clean_text, validate_content};
use crate::content;
use crate::error::{Error, Result, ValidationError};
use crate::model::{Memory, MemoryId, Priority, Status, normalize_tags, validate_importance};
use crate::service::{ScopeKind, Subcog};
use crate::store::sqlite::latest_version;
use crate::store::{ListOrder, MemoryFilter, StoreStats};
use crate::timestamp;

/// Changes to apply to a memory; `None` leaves a field as it is.
#[derive(Debug, Clone, Default)]
pub struct UpdateRequest {
    /// New content.
    pub content: Option<String>,
    /// New summary.
    pub summary: Option<String>,
    /// New namespace.
    pub namespace: Option<String>,
    /// Replace all tags.
    pub tags: Option<Vec<String>>,
    /// Tags to add.
    pub add_tags: Vec<String>,
    /// Tags to remove.
    pub remove_tags: Vec<String>,
    /// New source.
    pub source: Option<String>,
    /// New importance.
    pub importance: Option<f32>,
    /// New priority.
    pub priority: Option<Priority>,
    /// New status.
    pub status: Option<Status>,
    /// Accept a namespace that is not yet known.
    pub allow_new_namespace: bool,
    /// Undo the memory's supersession: it is current again, and consolidation never marks
    /// it superseded by that memory again.
    pub not_superseded: bool,
}

impl UpdateRequest {
    /// Whether it changes nothing (every field left as it is).
    pub fn is_empty(&self) -> bool {
        self.content.is_none()
            && self.summary.is_none()
            && self.namespace.is_none()
            && self.tags.is_none()
            && self.add_tags.is_empty()
            && self.remove_tags.is_empty()
            && self.source.is_none()
            && self.importance.is_none()
            && self.priority.is_none()
            && self.status.is_none()
            && !self.not_superseded
    }
}

/// One scope's part of [`StatusReport`].
#[derive(Debug, Clone)]
pub struct ScopeStatus {
    /// Which scope.
    pub scope: ScopeKind,
    /// Its database file (SQLite; unused on a shared database).
    pub path: PathBuf,
    /// Where its memories are: the file, or the database URL (without credentials) and scope key.
    pub store: Option<String>,
    /// Counts, when the database exists.
    pub stats: Option<StoreStats>,
    /// The git repository holding this scope's notes and how many memory notes it has.
    pub notes: Option<(PathBuf, usize)>,
}

/// What `subcog status` reports.
#[derive(Debug, Clone)]
pub struct StatusReport {
    /// The data directory.
    pub data_dir: PathBuf,
    /// The project root.
    pub project_root: PathBuf,
    /// Schema version this build writes.
    pub schema_version: u32,
    /// Each scope.
    pub scopes: Vec<ScopeStatus>,
    /// Live memories across scopes, by namespace.
    pub by_namespace: BTreeMap<String, u64>,
    /// Live memories across scopes, by tier.
    pub by_tier: BTreeMap<String, u64>,
    /// Live memories across scopes, by domain.
    pub by_domain: BTreeMap<String, u64>,
    /// All memories across scopes, by status.
    pub by_status: BTreeMap<String, u64>,
    /// Whether semantic recall is available.
    pub semantic: bool,
    /// Why not, when it is not.
    pub semantic_unavailable: Option<String>,
    /// The model directory.
    pub model_dir: PathBuf,
    /// Vectors stored, by model, across scopes.
    pub embeddings: BTreeMap<String, u64>,
    /// Live memories without a vector of the current model.
    pub missing_embeddings: u64,
}

impl Subcog {
    /// Fetches one memory by id.
    pub fn get(&self, id: &MemoryId) -> Result<Memory> {
        Ok(self.find_required(id)?.1)
    }

    /// A memory id from what a user or agent typed: a full ULID, or a short id (the end
    /// of one, at least 6 characters, as session context shows them) that names exactly
    /// one memory. A short id that names none is [`Error::NotFound`].
    pub fn resolve_id(&self, text: &str) -> Result<MemoryId> {
        let text = text.trim();
        if let Ok(id) = text.parse::<MemoryId>() {
            return Ok(id);
        }
        let crockford = |c: char| c.is_ascii_alphanumeric() && !matches!(c.to_ascii_uppercase(), 'I' | 'L' | 'O' | 'U');
        if !(6..26).contains(&text.len()) || !text.chars().all(crockford) {
            return Err(ValidationError::InvalidId { id: text.to_string() }.into());
        }
        let mut found: Vec<MemoryId> = Vec::new();
        for (_, store) in self.existing_stores()? {
            found.extend(store.ids_with_suffix(text, 3)?);
        }
        found.sort();
        found.dedup();
        match found.as_slice() {
            [one] => Ok(*one),
            [] => Err(Error::NotFound { id: text.to_string() }),
            many => Err(ValidationError::AmbiguousId {
                id: text.to_string(),
                matches: many.iter().map(ToString::to_string).collect(),
            }
            .into()),
        }
    }

    /// Lists memories across scopes, newest first unless `order` says otherwise.
    pub fn list(&self, filter: &MemoryFilter, order: ListOrder, limit: Option<usize>) -> Result<Vec<Memory>> {
        let mut all = Vec::new();
        for (_, store) in self.existing_stores()? {
            all.extend(store.list(filter, order, limit)?);
        }
        all.sort_by(|a, b| match order {
            ListOrder::NewestFirst => b.created_at.cmp(&a.created_at).then(b.id.cmp(&a.id)),
            ListOrder::OldestFirst => a.created_at.cmp(&b.created_at).then(a.id.cmp(&b.id)),
            ListOrder::Retention => a
                .tier
                .rank()
                .cmp(&b.tier.rank())
                .then(b.retention.overall.total_cmp(&a.retention.overall))
                .then(b.created_at.cmp(&a.created_at))
                .then(b.id.cmp(&a.id)),
        });
        if let Some(limit) = limit {
            all.truncate(limit);
        }
        Ok(all)
    }

    /// Applies changes to a memory and returns it as stored.
    pub fn update(&self, id: &MemoryId, req: UpdateRequest) -> Result<Memory> {
        let _span = tracing::info_span!("manage.update", memory_id = %id).entered();
        let (scope, mut m) = self.find_required(id)?;
        let before = m.clone();
        if let Some(ns) = &req.namespace {
            m.namespace = self.resolve_namespace(ns, scope, req.allow_new_namespace)?;
        }
        let policy = self.config.capture.on_secret;
        let emails = self.config.capture.redact_emails;
        if let Some(new_content) = &req.content {
            validate_content(new_content, self.config.capture.max_content_bytes)?;
            let summary_was_derived = m.summary == content::derive_summary(&m.content);
            let text = clean_text(new_content, None, None, policy, emails)?;
            m.content = text.content.trim().to_string();
            m.content_hash = content::content_hash(&m.content);
            crate::temporal::annotate(&mut m, &self.temporal_options());
            if summary_was_derived {
                m.summary = content::derive_summary(&m.content);
            }
        }
        if let Some(summary) = &req.summary {
            let text = clean_text("-", Some(summary), None, policy, emails)?;
            let s = text.summary.unwrap_or_default();
            m.summary = if s.trim().is_empty() {
                content::derive_summary(&m.content)
            } else {
                content::one_line(&s, SUMMARY_LIMIT)
            };
        }
        if let Some(source) = &req.source {
            let text = clean_text("-", None, Some(source), policy, emails)?;
            m.source = text.source.filter(|s| !s.trim().is_empty());
        }
        if let Some(tags) = &req.tags {
            m.tags = normalize_tags(tags)?;
        }
        let add = normalize_tags(&req.add_tags)?;
        let remove = normalize_tags(&req.remove_tags)?;
        for t in add {
            if !m.tags.contains(&t) {
                m.tags.push(t);
            }
        }
        m.tags.retain(|t| !remove.contains(t));
        if let Some(i) = req.importance {
            m.importance = Some(validate_importance(i)?);
        }
        if let Some(p) = req.priority {
            m.priority = p;
        }
        match req.status {
            // A status the user sets is theirs: `--status active` releases a quarantined one.
            Some(s) => {
                if before.status == Status::Quarantined && s == Status::Active {
                    self.screen_release(scope, &before);
                }
                m.status = s;
            }
            // New text of an active memory is screened like a capture; a new summary is
            // read by the rules (it is injected too, and has no vector of its own).
            None if m.content_hash != before.content_hash => {
                let by_rules = crate::quarantine::hold(&mut m).is_some();
                if !by_rules {
                    self.hold_by_meaning(&mut [&mut m]);
                }
            }
            None if m.summary != before.summary => {
                crate::quarantine::hold(&mut m);
            }
            None => {}
        }
        if req.not_superseded {
            let Some(newer) = m.superseded_by.take() else {
                return Err(ValidationError::UnknownValue {
                    what: "--not-superseded",
                    value: id.to_string(),
                    expected: "a memory that is superseded (subcog review lists them)".into(),
                }
                .into());
            };
            if !m.not_superseded_by.contains(&newer) {
                m.not_superseded_by.push(newer);
            }
            if m.status == Status::Superseded {
                m.status = Status::Active;
            }
        }
        // Setting a memory active vouches for its text, once the update stands: hooks inject
        // it whatever its learned score (`[quarantine] context_bar`), on this machine.
        let vouches = req.status == Some(Status::Active);
        if m == before {
            if vouches {
                self.vouch(&m);
            }
            return Ok(m);
        }
        // Strictly later than the version it replaces, so the edit wins every merge.
        m.updated_at = timestamp::canonical(self.clock.now()).max(m.updated_at + chrono::Duration::microseconds(1));
        // New content gets a new vector; without a model the old one is dropped and
        // `reindex --embeddings` fills the gap.
        let vector = match self.embedder() {
            // The judgement's vector, when it screened this text, is taken here.
            Some(e) if m.content_hash != before.content_hash => {
                match self.embed_or_take(e.as_ref(), &[m.content.as_str()]) {
                    Ok(mut vs) => vs.pop().map(|v| (e.model().clone(), v)),
                    Err(e) => {
                        tracing::warn!(error = %e, "updating without a vector");
                        None
                    }
                }
            }
            _ => None,
        };
        if !self.persist_update(scope, &m, vector.as_ref().map(|(model, v)| (model, v.as_slice())))? {
            // Hard-deleted by another process between our read and write.
            return Err(Error::NotFound { id: id.to_string() });
        }
        if vouches {
            self.vouch(&m);
        }
        Ok(m)
    }

    /// Soft-deletes a memory (status `deleted`); it stays in exports and can be restored
    /// with `update --status active`.
    pub fn delete_soft(&self, id: &MemoryId) -> Result<Memory> {
        self.update(
            id,
            UpdateRequest {
                status: Some(Status::Deleted),
                ..Default::default()
            },
        )
    }

    /// Removes a memory and its enrichment rows for good.
    pub fn delete_hard(&self, id: &MemoryId) -> Result<Memory> {
        let _span = tracing::info_span!("manage.delete_hard", memory_id = %id).entered();
        let (scope, m) = self.find_required(id)?;
        self.persist_delete_hard(scope, id)?;
        Ok(m)
    }

    /// Counts across scopes.
    pub fn status(&self) -> Result<StatusReport> {
        let mut report = StatusReport {
            data_dir: self.location.data_dir.clone(),
            project_root: self.location.project_root.clone(),
            schema_version: latest_version(),
            scopes: Vec::new(),
            by_namespace: BTreeMap::new(),
            by_tier: BTreeMap::new(),
            by_domain: BTreeMap::new(),
            by_status: BTreeMap::new(),
            semantic: false,
            semantic_unavailable: None,
            model_dir: self.model_dir(),
            embeddings: BTreeMap::new(),
            missing_embeddings: 0,
        };
        let model = match self.embedder_state() {
            crate::service::EmbedderState::Ready(e) => {
                report.semantic = true;
                Some(e.model().clone())
            }
            crate::service::EmbedderState::Unavailable(why) => {
                report.semantic_unavailable = Some(why.clone());
                None
            }
        };
        for kind in [ScopeKind::Project, ScopeKind::User] {
            let opened = self.store_for_read(kind)?;
            let stats = match &opened {
                Some(store) => Some(store.stats()?),
                None => None,
            };
            if let Some(store) = &opened {
                for c in store.embedding_counts()? {
                    *report
                        .embeddings
                        .entry(format!("{} ({}d)", c.model_id, c.dim))
                        .or_default() += c.count;
                }
                if let Some(model) = &model {
                    report.missing_embeddings += store.missing_embeddings(model, usize::MAX)?.len() as u64;
                }
            }
            if let Some(s) = &stats {
                merge(&mut report.by_namespace, &s.by_namespace);
                merge(&mut report.by_tier, &s.by_tier);
                merge(&mut report.by_domain, &s.by_domain);
                merge(&mut report.by_status, &s.by_status);
            }
            let notes = match self.notes_repo(kind, false)? {
                Some(repo) => Some((
                    repo.path().to_path_buf(),
                    repo.entries(&crate::notes::NotesRef::Memories.refname())?.len(),
                )),
                None => None,
            };
            report.scopes.push(ScopeStatus {
                scope: kind,
                path: self.scope_path(kind).to_path_buf(),
                store: opened.map(|s| s.location()),
                stats,
                notes,
            });
        }
        Ok(report)
    }
}

fn merge(into: &mut BTreeMap<String, u64>, from: &BTreeMap<String, u64>) {
    for (k, v) in from {
        *into.entry(k.clone()).or_default() += v;
    }
}
