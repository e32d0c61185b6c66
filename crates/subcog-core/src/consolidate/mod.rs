//! Consolidation: scan → cluster → summarize → supersede → tier → edges → persist, with
//! no LLM and no network (seeds 000–004).
//!
//! A run computes a plan (pure: memories, vectors and the clock in, writes out), saves it
//! as a checkpoint, then applies it: notes first (idempotent), then one SQLite
//! transaction that also marks the run complete. A run killed at any point is finished
//! from its saved plan by the next run, so the end state is the one an uninterrupted run
//! would have reached. A lock file keeps two runs of one scope apart.
//!
//! Incremental by nature: every stage is deterministic, and only what differs from the
//! stored state is written (summaries of unchanged clusters, unchanged scores and edges
//! are left alone); `full` additionally rewrites every summary.

mod apply;
mod cluster;
mod edges;
mod llm_stages;
mod plan;
mod rules;
mod summarize;
pub mod supersede;
pub(crate) mod terms;

use std::fs::File;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::events::Event;
use crate::model::{ConsolidationResult, Domain, Namespace, Phase};
use crate::service::{ScopeKind, Subcog};
use crate::store::ListOrder;

pub use apply::{EDGES_FORMAT, EdgesRecord, RUN_FORMAT, SUMMARY_FORMAT};
pub use plan::ScopePlan;

/// What to consolidate and how.
#[derive(Debug, Clone, Default)]
pub struct ConsolidateOptions {
    /// Recompute every summary, not only those of changed clusters.
    pub full: bool,
    /// Compute and report; write nothing.
    pub dry_run: bool,
    /// Only these namespaces (empty: all).
    pub namespaces: Vec<Namespace>,
    /// Only this domain's scope (project, or user/org).
    pub domain: Option<Domain>,
    /// Only memories created at or after.
    pub since: Option<DateTime<Utc>>,
    /// Only memories created before.
    pub until: Option<DateTime<Utc>>,
    /// What started the run (`manual`, `threshold`, `schedule`, `session_end`).
    pub trigger: String,
    /// Run only when due (enough new memories, the interval elapsed, or the schedule fired).
    pub if_due: bool,
    /// Whether to use an LLM for summaries and supersession.
    pub llm: LlmMode,
}

pub use crate::model::LlmMode;

impl ConsolidateOptions {
    fn scoped(&self) -> bool {
        !self.namespaces.is_empty() || self.since.is_some() || self.until.is_some()
    }

    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.namespaces.is_empty() {
            let ns: Vec<&str> = self.namespaces.iter().map(Namespace::as_str).collect();
            parts.push(format!("namespace {}", ns.join(",")));
        }
        if let Some(d) = self.domain {
            parts.push(format!("domain {d}"));
        }
        if let Some(s) = self.since {
            parts.push(format!("since {}", s.format("%Y-%m-%d")));
        }
        if let Some(u) = self.until {
            parts.push(format!("until {}", u.format("%Y-%m-%d")));
        }
        if parts.is_empty() {
            "all".into()
        } else {
            parts.join(", ")
        }
    }
}

/// What a call to [`Subcog::consolidate`] did, per scope.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum ScopeOutcome {
    /// The run finished (or, for a dry run, was computed).
    Completed {
        /// Its result.
        result: Box<ConsolidationResult>,
        /// A crashed earlier run that was finished first, if any.
        resumed: Option<String>,
    },
    /// Another run holds this scope's lock; nothing was done.
    Busy {
        /// The scope.
        scope: String,
    },
    /// `if_due` and not due.
    NotDue {
        /// The scope.
        scope: String,
        /// Why not.
        reason: String,
    },
}

/// Reports progress: the stage, and `(done, total)` within it.
pub type StageProgress<'a> = &'a mut dyn FnMut(Phase, usize, usize);

impl Subcog {
    /// Consolidates each scope the options select (project, then user).
    pub fn consolidate(&self, opts: &ConsolidateOptions, progress: StageProgress<'_>) -> Result<Vec<ScopeOutcome>> {
        if !self.config.consolidation.enabled && !opts.dry_run {
            if !opts.if_due {
                return Err(Error::Disabled {
                    what: "consolidation",
                    key: "consolidation.enabled",
                });
            }
            return Ok(vec![ScopeOutcome::NotDue {
                scope: "all".into(),
                reason: "consolidation.enabled is false".into(),
            }]);
        }
        let scopes: Vec<ScopeKind> = match opts.domain {
            Some(d) => vec![ScopeKind::for_domain(d)],
            None => vec![ScopeKind::Project, ScopeKind::User],
        };
        let mut out = Vec::new();
        for scope in scopes {
            if self.store_for_read(scope)?.is_none() {
                continue;
            }
            out.push(self.consolidate_scope(scope, opts, progress)?);
        }
        Ok(out)
    }

    fn consolidate_scope(
        &self,
        scope: ScopeKind,
        opts: &ConsolidateOptions,
        progress: StageProgress<'_>,
    ) -> Result<ScopeOutcome> {
        let span = tracing::info_span!("consolidation.run", scope = scope.as_str(), dry_run = opts.dry_run);
        let _guard = span.enter();
        let store = self.store_for_write(scope)?;
        let now = crate::timestamp::canonical(self.clock.now());
        if opts.dry_run {
            let plan = self.plan_scope(scope, opts, now, progress, None)?;
            return Ok(ScopeOutcome::Completed {
                result: Box::new(plan.result),
                resumed: None,
            });
        }
        let Some(_lock) = self.lock_scope(scope)? else {
            return Ok(ScopeOutcome::Busy {
                scope: scope.as_str().into(),
            });
        };
        // On a shared database another machine may run too: its advisory lock decides.
        let Some(_shared_lock) = store.lock_runs()? else {
            return Ok(ScopeOutcome::Busy {
                scope: scope.as_str().into(),
            });
        };
        let resumed = match store.unfinished_run()? {
            Some((result, plan)) => {
                tracing::warn!(run_id = %result.run_id, "finishing a run that was interrupted");
                let applied = serde_json::from_str::<ScopePlan>(&plan)
                    .map_err(|e| e.to_string())
                    .and_then(|plan| self.apply_plan(scope, plan, progress).map_err(|e| e.to_string()));
                match applied {
                    Ok(_) => Some(result.run_id),
                    Err(why) => {
                        // Planning is deterministic: a fresh plan below does the same work.
                        tracing::warn!(run_id = %result.run_id, error = %why, "abandoning the interrupted run");
                        let mut abandoned = result.clone();
                        abandoned.errors.push(format!("abandoned after a crash: {why}"));
                        store.save_run(&abandoned, None)?;
                        None
                    }
                }
            }
            None => None,
        };
        if opts.if_due
            && let Some(reason) = self.not_due(scope, now)?
        {
            return Ok(ScopeOutcome::NotDue {
                scope: scope.as_str().into(),
                reason,
            });
        }
        // One chain for the run, so its caps count every call of it. Before the plan:
        // what the LLM holds in quarantine is no longer active and takes no part in it.
        let chain = self.llm_chain_for(opts.llm)?;
        let screened = match &chain {
            Some(chain) if self.config.quarantine.llm != crate::config::ScreenMode::Off => {
                Some(self.screen_scope(scope, chain)?)
            }
            _ => None,
        };
        let mut plan = self.plan_scope(scope, opts, now, progress, chain.as_ref())?;
        if let (Some(report), Some(run)) = (screened, plan.result.llm.as_mut()) {
            run.screened = report.screened;
            run.screen_held = report.held;
            run.fallbacks
                .extend(report.failures.into_iter().map(|f| format!("screening: {f}")));
            if report.screened > 0 {
                run.prompt_versions.push(crate::llm::prompts::SCREEN_VERSION.into());
            }
        }
        let json = serde_json::to_string(&plan).map_err(|e| Error::Io {
            context: "saving the consolidation plan".into(),
            source: std::io::Error::other(e),
        })?;
        store.save_run(&plan.result, Some(&json))?;
        let result = self.apply_plan(scope, plan, progress)?;
        self.events().publish(Event::ConsolidationCompleted {
            run_id: result.run_id.clone(),
            scope: scope.as_str().into(),
            memories_processed: result.memories_processed,
            clusters_formed: result.clusters_found,
            supersessions_detected: result.supersessions_detected,
            edges_extracted: result.edges,
            tier_transitions: result.tier_transitions.len(),
        });
        Ok(ScopeOutcome::Completed {
            result: Box::new(result),
            resumed,
        })
    }

    /// Takes the scope's run lock; `None` when another process holds it.
    fn lock_scope(&self, scope: ScopeKind) -> Result<Option<File>> {
        let dir = self
            .scope_path(scope)
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default();
        let path = dir.join("consolidate.lock");
        // With a shared database the scope has no file of its own, so the directory may not exist yet.
        std::fs::create_dir_all(&dir).map_err(|e| Error::Io {
            context: format!("cannot create {}", dir.display()),
            source: e,
        })?;
        let file = crate::private::file_options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| Error::Io {
                context: format!("cannot open {}", path.display()),
                source: e,
            })?;
        match file.try_lock() {
            Ok(()) => Ok(Some(file)),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(Error::Io {
                context: format!("cannot lock {}", path.display()),
                source: e,
            }),
        }
    }

    /// Why a scope is not due for a run, or `None` when it is.
    pub fn not_due(&self, scope: ScopeKind, now: DateTime<Utc>) -> Result<Option<String>> {
        let Some(store) = self.store_for_read(scope)? else {
            return Ok(Some("no memories yet".into()));
        };
        let last = store
            .runs(50)?
            .into_iter()
            .find(|r| r.completed_at.is_some() && !r.dry_run);
        let Some(last) = last else {
            return Ok(None);
        };
        let cfg = &self.config.consolidation;
        if !cfg.auto_trigger {
            return Ok(Some(
                "automatic runs are off (consolidation.auto_trigger = false)".into(),
            ));
        }
        // Memories added since, by count rather than by date: imports are often backdated.
        let live = store
            .list(&crate::store::MemoryFilter::default(), ListOrder::NewestFirst, None)?
            .len();
        let new = live.saturating_sub(last.memories_processed);
        if new >= cfg.auto_trigger_threshold.max(1) {
            return Ok(None);
        }
        let hours = (now - last.started_at).num_hours();
        if hours >= i64::try_from(cfg.min_interval_hours).unwrap_or(i64::MAX) {
            return Ok(None);
        }
        if !cfg.schedule.trim().is_empty()
            && let Ok(s) = crate::schedule::Schedule::parse(&cfg.schedule)
            && s.last_at_or_before(now).is_some_and(|fired| fired > last.started_at)
        {
            return Ok(None);
        }
        Ok(Some(format!(
            "{new} new memories since the last run {hours} h ago (runs at {} new or after {} h)",
            cfg.auto_trigger_threshold, cfg.min_interval_hours
        )))
    }

    /// Recent runs of a scope, newest first.
    pub fn runs(&self, scope: ScopeKind, limit: usize) -> Result<Vec<ConsolidationResult>> {
        match self.store_for_read(scope)? {
            Some(store) => Ok(store.runs(limit)?),
            None => Ok(Vec::new()),
        }
    }
}

#[cfg(test)]
mod tests;
