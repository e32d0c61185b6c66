//! Recall: find the memories that answer a query, across the project and user scopes.
//!
//! Keyword recall for now: FTS5 BM25 over content, summary and tags, with filters applied
//! inside the query so a filtered search still returns `limit` results when they exist.

use crate::error::{Result, ValidationError};
use crate::model::{Domain, ScoredMemory};
use crate::search::query_terms;
use crate::service::{ScopeKind, Subcog};
use crate::store::MemoryFilter;

/// A recall request.
#[derive(Debug, Clone, Default)]
pub struct RecallQuery {
    /// The question or keywords.
    pub query: String,
    /// Filters applied before ranking.
    pub filter: MemoryFilter,
    /// How many results; the config's default when `None`.
    pub limit: Option<usize>,
}

/// Recall results, best first.
#[derive(Debug, Clone)]
pub struct RecallResult {
    /// The terms the query was reduced to.
    pub terms: Vec<String>,
    /// Matches with scores, best first.
    pub results: Vec<ScoredMemory>,
    /// Whether semantic (embedding) search took part; false until a model is installed.
    pub semantic: bool,
}

impl Subcog {
    /// Searches every scope the filter allows and merges the results by score.
    pub fn recall(&self, query: &RecallQuery) -> Result<RecallResult> {
        let limit = query.limit.unwrap_or(self.config.recall.default_limit);
        let span = tracing::info_span!(
            "recall.search",
            query_length = query.query.len(),
            limit,
            result_count = tracing::field::Empty
        );
        let _guard = span.enter();
        let terms = query_terms(&query.query);
        if terms.is_empty() {
            return Err(ValidationError::EmptyQuery.into());
        }
        let wanted = |kind: ScopeKind| {
            query.filter.domains.is_empty()
                || query
                    .filter
                    .domains
                    .iter()
                    .any(|d| ScopeKind::for_domain(*d) == kind)
        };
        let mut results: Vec<ScoredMemory> = Vec::new();
        for (kind, store) in self.existing_stores()? {
            if wanted(kind) {
                results.extend(store.search_text(&terms, &query.filter, limit)?);
            }
        }
        results.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| b.memory.created_at.cmp(&a.memory.created_at))
        });
        results.truncate(limit);
        span.record("result_count", results.len());
        Ok(RecallResult {
            terms,
            results,
            semantic: false,
        })
    }
}

/// The domains a scope can hold (for callers that present scopes).
pub fn domains_of(kind: ScopeKind) -> &'static [Domain] {
    match kind {
        ScopeKind::Project => &[Domain::Project],
        ScopeKind::User => &[Domain::User, Domain::Org],
    }
}
