//! Capture: validate → redact secrets → dedupe → write, as one step.
//!
//! A capture either stores a complete memory or returns an error; it never leaves a
//! partial record. Duplicate content (same normalized text, namespace and domain) returns
//! the existing memory instead of storing a second copy.

use chrono::{DateTime, Utc};

use crate::content;
use crate::error::{Error, Result, ValidationError};
use crate::model::{Domain, Memory, Namespace, Priority, Status, normalize_tags, validate_importance};
use crate::secrets::{self, Redaction, SecretPolicy};
use crate::service::{ScopeKind, Subcog};
use crate::store::{InsertOutcome, ListOrder, MemoryFilter, Vectors};
use crate::timestamp;

/// Longest accepted explicit summary, in characters.
pub const SUMMARY_LIMIT: usize = 200;

/// What to capture.
#[derive(Debug, Clone, Default)]
pub struct CaptureRequest {
    /// The memory text (required, non-empty).
    pub content: String,
    /// Namespace name.
    pub namespace: String,
    /// Explicit summary; derived from the content when absent.
    pub summary: Option<String>,
    /// Project (default), user or org.
    pub domain: Domain,
    /// Tags (normalized on capture).
    pub tags: Vec<String>,
    /// Where it came from.
    pub source: Option<String>,
    /// Importance in `[0, 1]`.
    pub importance: Option<f32>,
    /// Normal or critical.
    pub priority: Priority,
    /// Who captures; defaults to `capture.created_by` from the config.
    pub created_by: Option<String>,
    /// Timestamp to record instead of now (imports of dated material).
    pub at: Option<DateTime<Utc>>,
    /// Accept a namespace that is not yet known.
    pub allow_new_namespace: bool,
    /// Overrides `capture.on_secret`.
    pub on_secret: Option<SecretPolicy>,
    /// Surrounding text searched at low weight (see [`Memory::context`]).
    pub context: Option<String>,
    /// The memory this one follows (an id or a short id): its text joins the context, as
    /// the previous turn of a conversation does.
    pub follows: Option<String>,
    /// Let an LLM screen it for quarantine before it is stored (`[quarantine] llm =
    /// "capture"`, a provider configured). Hooks leave this off: they must answer at once,
    /// and consolidation screens what they captured.
    pub screen: bool,
}

/// The result of a capture.
#[derive(Debug, Clone)]
pub struct CaptureOutcome {
    /// The stored memory (or the existing one, for a duplicate).
    pub memory: Memory,
    /// True when the content was already stored and nothing new was written.
    pub duplicate: bool,
    /// Secrets that were replaced before storing.
    pub redactions: Vec<Redaction>,
    /// Why the memory was held back in quarantine (its text reads as an instruction to the
    /// agent); `None` when it was stored active.
    pub quarantine: Option<crate::quarantine::Verdict>,
}

/// Text fields of a memory after redaction.
pub(crate) struct CleanText {
    pub content: String,
    pub summary: Option<String>,
    pub source: Option<String>,
    pub redactions: Vec<Redaction>,
}

/// Redacts content, summary and source together and applies the secret policy.
pub(crate) fn clean_text(
    content: &str,
    summary: Option<&str>,
    source: Option<&str>,
    policy: SecretPolicy,
    redact_emails: bool,
) -> Result<CleanText> {
    let c = secrets::redact(content, redact_emails);
    let s = summary.map(|s| secrets::redact(s, redact_emails));
    let src = source.map(|s| secrets::redact(s, redact_emails));
    let mut redactions = c.redactions.clone();
    for r in s.iter().chain(src.iter()).flat_map(|r| r.redactions.iter()) {
        match redactions.iter_mut().find(|x| x.kind == r.kind) {
            Some(x) => x.count += r.count,
            None => redactions.push(*r),
        }
    }
    if policy == SecretPolicy::Block && !redactions.is_empty() {
        return Err(Error::SecretBlocked {
            kinds: redactions.iter().map(|r| r.kind).collect(),
        });
    }
    Ok(CleanText {
        content: c.text,
        summary: s.map(|r| r.text),
        source: src.map(|r| r.text),
        redactions,
    })
}

/// Checks content is present and within the size limit.
pub(crate) fn validate_content(content: &str, limit: usize) -> Result<(), ValidationError> {
    if content.trim().is_empty() {
        return Err(ValidationError::EmptyContent);
    }
    if content.len() > limit {
        return Err(ValidationError::ContentTooLarge {
            size: content.len(),
            limit,
        });
    }
    Ok(())
}

/// Builds a memory from already-clean parts.
pub(crate) fn assemble(namespace: Namespace, text: CleanText, at: DateTime<Utc>) -> Memory {
    let mut memory = Memory::new(text.content.trim().to_string(), namespace, at);
    if let Some(summary) = text.summary.filter(|s| !s.trim().is_empty()) {
        memory.summary = content::one_line(&summary, SUMMARY_LIMIT);
    }
    memory.source = text.source.filter(|s| !s.trim().is_empty());
    memory
}

/// Vectors of screened text kept for the index at most (by content hash: about 6.5 MB).
const SCREENED_KEPT: usize = 4096;

impl Subcog {
    /// The context a short memory captured at `at` takes from the memories of its
    /// namespace and domain captured within `capture.preceding_context_minutes` before it
    /// (`conversation::preceding`). A search aid only: when the store cannot be read the
    /// memory is captured without it.
    fn preceding_context(
        &self,
        namespace: &Namespace,
        domain: Domain,
        at: DateTime<Utc>,
        text: &str,
    ) -> Option<String> {
        let cfg = &self.config.capture;
        if !crate::conversation::takes_preceding(cfg, namespace, text) {
            return None;
        }
        let minutes = cfg.preceding_context_minutes;
        let filter = MemoryFilter {
            namespaces: vec![namespace.clone()],
            domains: vec![domain],
            since: Some(at - chrono::Duration::minutes(i64::from(minutes))),
            until: Some(at),
            statuses: vec![Status::Active, Status::Superseded],
            ..Default::default()
        };
        let mut earlier = match self.list(&filter, ListOrder::NewestFirst, Some(crate::conversation::BEFORE)) {
            Ok(found) => found,
            Err(e) => {
                tracing::warn!(error = %e, "capturing without the preceding memories as context");
                return None;
            }
        };
        earlier.reverse();
        let texts: Vec<&str> = earlier.iter().map(|m| m.content.as_str()).collect();
        crate::conversation::preceding(text, &texts)
    }

    /// Captures one memory.
    pub fn capture(&self, req: CaptureRequest) -> Result<CaptureOutcome> {
        let span = tracing::info_span!("capture.capture", namespace = %req.namespace, domain = %req.domain);
        let _guard = span.enter();
        validate_content(&req.content, self.config.capture.max_content_bytes)?;
        let scope = ScopeKind::for_domain(req.domain);
        let namespace = self.resolve_namespace(&req.namespace, scope, req.allow_new_namespace)?;
        let tags = normalize_tags(&req.tags)?;
        let importance = req.importance.map(validate_importance).transpose()?;
        let policy = req.on_secret.unwrap_or(self.config.capture.on_secret);
        let text = clean_text(
            &req.content,
            req.summary.as_deref(),
            req.source.as_deref(),
            policy,
            self.config.capture.redact_emails,
        )?;
        let mut redactions = text.redactions.clone();
        // The memory followed is stored, hence already redacted; its text goes first.
        let followed = match req.follows.as_deref().filter(|f| !f.trim().is_empty()) {
            Some(f) => Some(self.get(&self.resolve_id(f)?)?.content),
            None => None,
        };
        let given = req.context.as_deref().filter(|c| !c.trim().is_empty());
        let context = match given {
            Some(c) => {
                let r = clean_text(c, None, None, policy, self.config.capture.redact_emails)?;
                for x in r.redactions {
                    match redactions.iter_mut().find(|y| y.kind == x.kind) {
                        Some(y) => y.count += x.count,
                        None => redactions.push(x),
                    }
                }
                Some(r.content)
            }
            None => None,
        };
        let context = match (followed, context) {
            (Some(f), Some(c)) => Some(format!("{f}\n{c}")),
            (f, c) => f.or(c),
        };
        let now = timestamp::canonical(self.clock.now());
        let at = req.at.map(timestamp::canonical).unwrap_or(now);
        let context = match context {
            Some(c) => Some(c),
            None => self.preceding_context(&namespace, req.domain, at, &text.content),
        };
        if !redactions.is_empty() {
            tracing::info!(kinds = ?redactions.iter().map(|r| r.kind.as_str()).collect::<Vec<_>>(), "redacted secrets before storing");
        }
        let mut memory = assemble(namespace, text, at);
        memory.updated_at = memory.updated_at.max(now);
        memory.domain = req.domain;
        memory.tags = tags;
        memory.importance = importance;
        memory.priority = req.priority;
        memory.context = context;
        crate::temporal::annotate(&mut memory, &self.temporal_options());
        memory.created_by = req
            .created_by
            .filter(|c| !c.trim().is_empty())
            .unwrap_or_else(|| self.config.capture.created_by.clone());
        let mut quarantine = crate::quarantine::hold(&mut memory);

        // The vector is a derived index: if inference fails the memory is still stored, and
        // `subcog reindex --embeddings` fills the gap later.
        let vectors = match self.embed_texts(&[memory.content.as_str()], &mut |_, _| {}) {
            Ok(v) => v,
            Err(e) => {
                tracing::warn!(error = %e, "storing without a vector");
                None
            }
        };
        if quarantine.is_none()
            && let Some((model, v)) = &vectors
            && let Some(vector) = v.first()
        {
            quarantine = crate::quarantine::hold_by_meaning(&mut memory, model, vector);
        }
        let mut screened_now = None;
        if quarantine.is_none() && req.screen {
            (quarantine, screened_now) = self.screen_capture(scope, &mut memory);
        }
        let with = vectors.as_ref().map(|(model, v)| Vectors { model, vectors: v });
        let outcome = self.persist_insert(scope, std::slice::from_ref(&memory), with, false)?;
        let outcome = outcome.first().copied().ok_or(Error::NotFound {
            id: memory.id.to_string(),
        })?;
        match outcome {
            InsertOutcome::Inserted(id) => {
                tracing::info!(memory_id = %id, "captured");
                Ok(CaptureOutcome {
                    memory,
                    duplicate: false,
                    redactions,
                    quarantine,
                })
            }
            InsertOutcome::DuplicateContent(id) | InsertOutcome::DuplicateId(id) => {
                tracing::info!(memory_id = %id, "duplicate content; returning the existing memory");
                let store = self.store_for_write(scope)?;
                let mut existing = store.get(&id)?.ok_or(Error::NotFound { id: id.to_string() })?;
                // The LLM read this text for the first time now and held it: the stored
                // one (a hook's capture, never read) is held too.
                if let Some(record) = &screened_now
                    && crate::quarantine::screen::key(&existing) == record.hash
                    && crate::quarantine::screen::hold(&mut existing, record).is_some()
                {
                    self.persist_update(scope, &existing, None)?;
                }
                // Why the stored one is held: the rules, else the judgement on this text's
                // vector (the same text, when the content is the duplicate).
                let by_meaning = || {
                    let (model, v) = vectors.as_ref()?;
                    (existing.content == memory.content)
                        .then(|| crate::quarantine::assess_meaning(model, v.first()?))
                        .flatten()
                };
                let quarantine = (existing.status == crate::model::Status::Quarantined)
                    .then(|| {
                        crate::quarantine::assess(&existing.content)
                            .or_else(by_meaning)
                            .or_else(|| self.screen_verdict(&existing))
                    })
                    .flatten();
                Ok(CaptureOutcome {
                    memory: existing,
                    duplicate: true,
                    redactions,
                    quarantine,
                })
            }
        }
    }

    /// Holds back, by the learned judgement on their vectors, those of `memories` that are
    /// still active (the rules passed them): their text is embedded in one batch. Without
    /// a model, or when inference fails, nothing changes. Returns which were held.
    pub(crate) fn hold_by_meaning(&self, memories: &mut [&mut Memory]) -> Vec<bool> {
        let mut held = vec![false; memories.len()];
        let open: Vec<usize> = (0..memories.len())
            .filter(|&i| memories[i].status == crate::model::Status::Active)
            .collect();
        if open.is_empty() {
            return held;
        }
        let texts: Vec<&str> = open.iter().map(|&i| memories[i].content.as_str()).collect();
        let (model, vectors) = match self.embed_texts(&texts, &mut |_, _| {}) {
            Ok(Some(v)) => v,
            Ok(None) => return held,
            Err(e) => {
                tracing::warn!(error = %e, "no vectors for the learned quarantine judgement; the rules alone screened");
                return held;
            }
        };
        for (&i, vector) in open.iter().zip(&vectors) {
            held[i] = crate::quarantine::hold_by_meaning(memories[i], &model, vector).is_some();
        }
        if let Ok(mut kept) = self.screened.lock() {
            // Bounded: what the index never asks for (a duplicate, a failed write) goes.
            if kept.len() + open.len() > SCREENED_KEPT {
                kept.clear();
            }
            for (&i, vector) in open.iter().zip(vectors).take(SCREENED_KEPT) {
                kept.insert(content::content_hash(&memories[i].content), vector);
            }
        }
        held
    }

    /// Vectors of `texts` from `embedder`: those computed when the text was screened (see
    /// [`Self::hold_by_meaning`]) are taken, once; the rest are embedded in one batch.
    pub(crate) fn embed_or_take(
        &self,
        embedder: &dyn crate::embed::Embedder,
        texts: &[&str],
    ) -> std::result::Result<Vec<Vec<f32>>, crate::embed::EmbedError> {
        let kept: Vec<Option<Vec<f32>>> = match self.screened.lock() {
            Ok(mut k) if !k.is_empty() => texts.iter().map(|t| k.remove(&content::content_hash(t))).collect(),
            _ => vec![None; texts.len()],
        };
        let missing: Vec<&str> = texts
            .iter()
            .zip(&kept)
            .filter(|(_, k)| k.is_none())
            .map(|(t, _)| *t)
            .collect();
        let mut fresh = if missing.is_empty() {
            Vec::new()
        } else {
            embedder.embed(&missing)?
        }
        .into_iter();
        kept.into_iter()
            .map(|k| k.or_else(|| fresh.next()))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| crate::embed::EmbedError::Inference("fewer vectors than texts".into()))
    }
}
