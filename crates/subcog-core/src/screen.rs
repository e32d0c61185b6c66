//! The LLM's screening for quarantine, service side (`[quarantine] llm`): what the rules
//! and the learned judgement let through is read by an LLM when a provider is configured.
//!
//! Owns when it is asked — each capture through the CLI or MCP (`capture` mode), and in
//! batches for the active memories of a scope it has not read yet (consolidation, `review
//! --screen`) — and writing its holds like any other hold: note and index together. The
//! verdicts and their log live in [`crate::quarantine::screen`]. A provider that fails
//! leaves a memory as the rules left it, unscreened, to be asked about on the next run.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::config::ScreenMode;
use crate::error::Result;
use crate::llm::chain::Chain;
use crate::llm::prompts::{self, PromptMemory, SCREEN_VERSION};
use crate::llm::{LlmClient, LlmError};
use crate::model::{Memory, Status};
use crate::quarantine::Verdict;
use crate::quarantine::screen::{self as verdicts, ScreenLog, Screened};
use crate::service::{ScopeKind, Subcog};
use crate::store::{ListOrder, MemoryFilter};

/// What one screening pass over a scope did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ScreenReport {
    /// The scope.
    pub scope: String,
    /// Memories the LLM gave a verdict on.
    pub screened: usize,
    /// Of them, the ids it held back.
    pub held: Vec<String>,
    /// Active memories still unscreened after the pass (the per-run cap, failures).
    pub left: usize,
    /// Requests that failed, with why.
    pub failures: Vec<String>,
}

impl Subcog {
    /// The LLM chain for screening, when `[quarantine] llm` allows one and a provider is
    /// available. A configuration error is logged and read as "no provider".
    pub(crate) fn screen_chain(&self) -> Option<Chain> {
        self.screen_chain_with(&self.config)
    }

    fn screen_chain_with(&self, config: &crate::config::Config) -> Option<Chain> {
        if self.config.quarantine.llm == ScreenMode::Off {
            return None;
        }
        match self.llm_chain_with("auto", config) {
            Ok(chain) => chain,
            Err(e) => {
                tracing::warn!(error = %e, "no LLM for quarantine screening");
                None
            }
        }
    }

    fn screen_log(&self, scope: ScopeKind) -> ScreenLog {
        let dir = self
            .scope_path(scope)
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default();
        ScreenLog::open(&dir)
    }

    /// The LLM's reason for holding a memory, when it held this text.
    pub fn screen_verdict(&self, memory: &Memory) -> Option<Verdict> {
        let scope = ScopeKind::for_domain(memory.domain);
        self.screen_log(scope).get(&verdicts::key(memory))?.verdict()
    }

    /// Records a release by the owner, so the LLM's verdict on its text does not hold
    /// it again (on this machine; see [`crate::quarantine::screen`]).
    pub(crate) fn screen_release(&self, scope: ScopeKind, memory: &Memory) {
        if let Err(e) = self.screen_log(scope).release(memory) {
            tracing::warn!(error = %e, memory_id = %memory.id, "the release was not recorded in the screening log");
        }
    }

    /// Screens a capture before it is stored (`capture` mode; the rules passed it). Holds
    /// it when the LLM reads it as an attack; a text already read is held on its logged
    /// verdict. A failing provider leaves it unscreened. Returns the verdict, and the new
    /// record when the LLM was asked now and held it (a stored duplicate never read by the
    /// LLM is held on it too).
    pub(crate) fn screen_capture(&self, scope: ScopeKind, memory: &mut Memory) -> (Option<Verdict>, Option<Screened>) {
        if self.config.quarantine.llm != ScreenMode::Capture || memory.status != Status::Active {
            return (None, None);
        }
        let mut log = self.screen_log(scope);
        if let Some(known) = log.get(&verdicts::key(memory)) {
            return (verdicts::hold(memory, known), None);
        }
        // Someone waits on a capture: one attempt per provider, within its own deadline.
        let mut quick = self.config.clone();
        quick.llm.timeout_ms = quick
            .llm
            .timeout_ms
            .min(self.config.quarantine.llm_capture_timeout_ms.max(1));
        quick.llm.max_retries = 0;
        let Some(chain) = self.screen_chain_with(&quick) else {
            return (None, None);
        };
        let _span = tracing::info_span!("quarantine.screen", scope = scope.as_str(), memories = 1).entered();
        match ask(&chain, &[&*memory], self.clock.now()) {
            Ok(records) => {
                if let Err(e) = log.append(&records) {
                    tracing::warn!(error = %e, "the screening log was not written; the text will be asked about again");
                }
                let Some(record) = records.into_iter().next() else {
                    return (None, None);
                };
                let verdict = verdicts::hold(memory, &record);
                let fresh = verdict.is_some().then_some(record);
                (verdict, fresh)
            }
            Err(e) => {
                tracing::warn!(error = %e, "the LLM did not screen this capture; consolidation will ask again");
                (None, None)
            }
        }
    }

    /// Screens every scope's unscreened active memories (`review --screen`). `None` when
    /// no provider is available or `[quarantine] llm` is off.
    pub fn screen_all(&self) -> Result<Option<Vec<ScreenReport>>> {
        let Some(chain) = self.screen_chain() else {
            return Ok(None);
        };
        let mut out = Vec::new();
        for scope in [ScopeKind::Project, ScopeKind::User] {
            if self.store_for_read(scope)?.is_some() {
                out.push(self.screen_scope(scope, &chain)?);
            }
        }
        Ok(Some(out))
    }

    /// Screens the active memories of `scope` the LLM has not read, newest first (those
    /// are the next to be injected), up to `[quarantine] llm_max_per_run`, in batches of
    /// `llm_batch`. Each hold is written (note and index) before its verdict is logged, so
    /// a kill between them asks again instead of losing the hold.
    pub(crate) fn screen_scope(&self, scope: ScopeKind, chain: &Chain) -> Result<ScreenReport> {
        let span = tracing::info_span!(
            "quarantine.screen",
            scope = scope.as_str(),
            memories = tracing::field::Empty
        );
        let _guard = span.enter();
        let cfg = &self.config.quarantine;
        let mut report = ScreenReport {
            scope: scope.as_str().into(),
            ..Default::default()
        };
        let Some(store) = self.store_for_read(scope)? else {
            return Ok(report);
        };
        let mut log = self.screen_log(scope);
        let filter = MemoryFilter {
            statuses: vec![Status::Active],
            ..Default::default()
        };
        let active: Vec<Memory> = store
            .list(&filter, ListOrder::NewestFirst, None)?
            .into_iter()
            .filter(|m| m.current_status() == Status::Active)
            .collect();
        // Copies of a text the LLM already held (another namespace, a later import) are
        // held on its verdict without asking; what it never read is asked about.
        let mut todo: Vec<Memory> = Vec::new();
        for m in active {
            match log.get(&verdicts::key(&m)).cloned() {
                None => todo.push(m),
                Some(record) => {
                    let mut current = m;
                    if verdicts::hold(&mut current, &record).is_some() {
                        self.persist_update(scope, &current, None)?;
                        report.held.push(current.id.to_string());
                    }
                }
            }
        }
        span.record("memories", todo.len());
        let asked = todo.len().min(cfg.llm_max_per_run);
        for batch in todo[..asked].chunks(cfg.llm_batch.max(1)) {
            let refs: Vec<&Memory> = batch.iter().collect();
            let records = match ask(chain, &refs, self.clock.now()) {
                Ok(r) => r,
                Err(e) => {
                    report.failures.push(format!("{} memories: {e}", batch.len()));
                    if matches!(e, LlmError::Budget(_) | LlmError::Unavailable(_)) {
                        break;
                    }
                    continue;
                }
            };
            for record in &records {
                if !record.attack {
                    continue;
                }
                let Some(m) = batch.iter().find(|m| m.id.to_string() == record.id) else {
                    continue;
                };
                // The version stored now: it may have been edited or released meanwhile.
                let Some(mut current) = store.get(&m.id)? else {
                    continue;
                };
                if current.status == Status::Active
                    && verdicts::key(&current) == record.hash
                    && verdicts::hold(&mut current, record).is_some()
                {
                    self.persist_update(scope, &current, None)?;
                    report.held.push(current.id.to_string());
                }
            }
            report.screened += records.len();
            if let Err(e) = log.append(&records) {
                report.failures.push(format!("the screening log was not written: {e}"));
            }
        }
        report.left = todo.len().saturating_sub(report.screened);
        if !report.held.is_empty() {
            tracing::warn!(held = report.held.len(), "the LLM held memories in quarantine");
        }
        Ok(report)
    }
}

/// One request for `memories`; a record for each the answer gives a verdict on. A summary
/// given apart from the text is shown with it: it is injected too.
fn ask(chain: &Chain, memories: &[&Memory], at: DateTime<Utc>) -> std::result::Result<Vec<Screened>, LlmError> {
    let texts: Vec<String> = memories
        .iter()
        .map(|m| match verdicts::summary_apart(m) {
            Some(summary) => format!("{}\nSummary: {summary}", m.content),
            None => m.content.clone(),
        })
        .collect();
    let shown: Vec<PromptMemory<'_>> = memories
        .iter()
        .zip(&texts)
        .map(|(m, text)| PromptMemory {
            id: m.id.to_string(),
            namespace: m.namespace.as_str(),
            created_at: m.created_at,
            content: text,
        })
        .collect();
    let keys: Vec<String> = memories.iter().map(|m| verdicts::key(m)).collect();
    ask_shown(chain, &shown, &keys, at)
}

/// One request for texts as the prompt shows them (`hashes` in the same order).
fn ask_shown(
    chain: &Chain,
    shown: &[PromptMemory<'_>],
    hashes: &[String],
    at: DateTime<Utc>,
) -> std::result::Result<Vec<Screened>, LlmError> {
    let ids: Vec<String> = shown.iter().map(|p| p.id.clone()).collect();
    let resp = chain.complete(&prompts::screen(shown))?;
    let model = format!("{}/{}", resp.provider, resp.model);
    let found = verdicts::parse(&resp.text, &ids).map_err(|message| LlmError::Protocol {
        provider: resp.provider.clone(),
        message,
    })?;
    Ok(found
        .into_iter()
        .filter_map(|v| {
            let i = ids.iter().position(|id| *id == v.id)?;
            Some(Screened {
                hash: hashes.get(i)?.clone(),
                id: v.id.clone(),
                released: Vec::new(),
                attack: v.attack,
                reason: crate::secrets::redact(&v.reason, false).text,
                model: model.clone(),
                prompt: SCREEN_VERSION.into(),
                at,
            })
        })
        .collect())
}

/// Screens loose texts (`subcog eval quarantine --llm`): the LLM's verdict on each, in
/// batches of `batch`; `None` where it gave none (a failed request, an id it skipped).
/// `progress` gets `(done, total)` after each batch.
pub fn screen_texts(
    chain: &Chain,
    texts: &[&str],
    batch: usize,
    progress: &mut dyn FnMut(usize, usize),
) -> Vec<Option<Screened>> {
    let mut out: Vec<Option<Screened>> = vec![None; texts.len()];
    let at = Utc::now();
    let mut done = 0;
    for (b, chunk) in texts.chunks(batch.max(1)).enumerate() {
        let base = b * batch.max(1);
        let shown: Vec<PromptMemory<'_>> = chunk
            .iter()
            .enumerate()
            .map(|(i, t)| PromptMemory {
                id: format!("n{}", base + i + 1),
                namespace: "learnings",
                created_at: at,
                content: t,
            })
            .collect();
        let keys: Vec<String> = (0..chunk.len()).map(|i| (base + i).to_string()).collect();
        match ask_shown(chain, &shown, &keys, at) {
            Ok(records) => {
                for r in records {
                    if let Some(slot) = r.hash.parse::<usize>().ok().and_then(|i| out.get_mut(i)) {
                        *slot = Some(r);
                    }
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, texts = chunk.len(), "screening request failed");
                if matches!(e, LlmError::Budget(_)) {
                    break;
                }
            }
        }
        done += chunk.len();
        progress(done, texts.len());
    }
    out
}
