//! Which memories a prompt gets (UserPromptSubmit): recall, then a gate on evidence.
//!
//! One cosine cut-off is the wrong gate. "Which database did we pick?" is only 0.28 from
//! "Use PostgreSQL for primary storage" and still wants it, while "run the tests" is as
//! close to every note about testing and wants none. So each candidate is judged on three
//! pieces of evidence, all explainable:
//!
//! - **similarity**: the cosine of prompt and memory;
//! - **standout**: how far that similarity rises above the store's background for this
//!   prompt (the mean of the vector channel's best similarities) — a paraphrase with no
//!   shared word stands out, small talk is equally far from everything;
//! - **keywords**: the information (IDF-weighted query terms) the memory shares with the
//!   prompt, as a share of the prompt's and in absolute terms, so a match on rare words
//!   counts and a match on words every memory has does not.
//!
//! [`gate`] combines them into an evidence score in `[0, 1]` (a logistic function whose
//! weights were fitted on the development half of `data/prompt-recall`; the test half
//! checks them, docs/CLAUDE_CODE.md has both figures) and a memory is injected when its
//! evidence reaches `hooks.prompt_min_evidence`.
//!
//! Two kinds of evidence pass on their own: a similarity of at least
//! `hooks.prompt_min_similarity`, and an **answer**: the prompt asks which technology of a
//! kind the project chose ("which database did we pick?") and a decision's subject — the
//! first technology it names — is of that kind ("Use PostgreSQL for primary storage").
//! The most similar such decision is the answer; the others are left to the gate.

use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

use crate::embed::EmbeddingModel;
use crate::error::Result;
use crate::model::MemoryId;
use crate::recall::{RecallHit, RecallQuery, RecallResult};
use crate::search::query_terms;
use crate::service::{ScopeKind, Subcog};

/// Candidates judged per prompt: recall's fused order puts keyword matches on incidental
/// words first, so a paraphrase's best match by meaning can sit well down the list.
const CANDIDATES: usize = 30;

/// Similarities averaged for the background.
const BACKGROUND: usize = 10;

/// A question about a choice: "which … did we pick", "what do we use for …".
static CHOICE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(pick|picked|choose|chose|chosen|use|using|used|settle|settled|adopt|adopted|go with|went with|decide|decided|run on|runs on|prefer|standardi[sz]ed on)\b",
    )
    .expect("constant regex")
});

/// The kinds of technology a prompt asks the project's choice of: in a question about a
/// choice, a category word right after "which"/"what" ("which database", "what CI
/// provider") or shortly after the choice ("what do we use for caching"). "What did we
/// settle on for talking to the db" names the kind too far from either to be sure it is
/// the thing asked.
fn choice_asked(prompt: &str) -> Vec<&'static str> {
    if !CHOICE.is_match(prompt) {
        return Vec::new();
    }
    let words: Vec<String> = prompt
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    if !words.iter().any(|w| matches!(w.as_str(), "which" | "what")) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let span = if matches!(w.as_str(), "which" | "what") {
            2
        } else if CHOICE.is_match(w) {
            3
        } else {
            continue;
        };
        let next = words
            .iter()
            .skip(i + 1)
            .take(span)
            .cloned()
            .collect::<Vec<_>>()
            .join(" ");
        for kind in crate::entities::categories_asked(&format!("which {next}")) {
            if !out.contains(&kind) {
                out.push(kind);
            }
        }
    }
    out
}

/// The evidence for one candidate memory.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Evidence {
    /// Cosine similarity of prompt and memory (`None` without the model).
    pub similarity: Option<f64>,
    /// Similarity minus the background (`None` without the model).
    pub standout: Option<f64>,
    /// Share of the prompt's term information the memory contains, in `[0, 1]`.
    pub keyword_share: f64,
    /// That information in nats (sum of the matched terms' IDF).
    pub keyword_info: f64,
    /// The prompt's terms the memory contains.
    pub matched: Vec<String>,
    /// A technology the memory names is one the prompt names or asks about by kind
    /// ("which database …" and PostgreSQL).
    pub entity: Option<String>,
    /// The kind of technology this decision answers the prompt's choice question about
    /// ("database: postgresql").
    pub answers: Option<String>,
    /// The combined evidence in `[0, 1]`.
    pub score: f64,
    /// Rank in recall's fused order (1-based).
    pub rank: usize,
}

/// One judged candidate.
#[derive(Debug, Clone)]
pub struct Judged {
    /// The recalled memory with its channel scores.
    pub hit: RecallHit,
    /// Why it is (or is not) injected.
    pub evidence: Evidence,
    /// Whether it passed the gate.
    pub injected: bool,
    /// Left out because it reads like an instruction to the agent
    /// (`[quarantine] context_bar`, [`crate::withhold`]), whatever the gate said.
    pub withheld: bool,
}

/// What prompt recall decided.
#[derive(Debug, Clone, Default)]
pub struct PromptRecall {
    /// Every judged candidate, strongest evidence first (injected ones have `injected`).
    pub judged: Vec<Judged>,
    /// The background similarity (mean of the vector channel's best), if semantic.
    pub background: Option<f64>,
    /// Whether the vector channel took part.
    pub semantic: bool,
}

impl PromptRecall {
    /// The injected candidates, best first.
    pub fn injected(&self) -> impl Iterator<Item = &Judged> {
        self.judged.iter().filter(|j| j.injected)
    }
}

/// Weights of the evidence score with the model: intercept, similarity, standout, keyword
/// share, keyword information (nats), entity match. Fitted by logistic regression on the
/// development half of `data/prompt-recall` (`tools/calibrate_prompt_gate.py`), the
/// intercept shifted so that 0.5 is the threshold chosen there. With the model, the entity
/// match adds nothing beyond the keywords it overlaps with (fitted, it came out slightly
/// negative and changed no held-out figure), so it weighs 0 there.
pub const WEIGHTS: [f64; 6] = [-5.934, 8.361, 4.569, 1.045, 0.254, 0.0];

/// The same without the model: intercept, keyword share, keyword information, entity.
pub const KEYWORD_WEIGHTS: [f64; 4] = [-5.035, 1.272, 0.569, 0.369];

/// The evidence score of one candidate in `[0, 1]`: a logistic function of its evidence,
/// keywords and entities alone when there is no similarity (no model).
pub fn gate(similarity: Option<f64>, standout: Option<f64>, share: f64, info: f64, entity: bool) -> f64 {
    let e = f64::from(u8::from(entity));
    let z = match (similarity, standout) {
        (Some(sim), Some(out)) => {
            let [b, w_sim, w_out, w_share, w_info, w_entity] = WEIGHTS;
            b + w_sim * sim + w_out * out + w_share * share + w_info * info + w_entity * e
        }
        _ => {
            let [b, w_share, w_info, w_entity] = KEYWORD_WEIGHTS;
            b + w_share * share + w_info * info + w_entity * e
        }
    };
    1.0 / (1.0 + (-z).exp())
}

impl Subcog {
    /// Recalls for a prompt and judges each candidate (see the module docs). `skip` are
    /// ids the prompt must not get (what it just captured).
    pub fn prompt_recall(&self, prompt: &str, skip: &[String]) -> Result<PromptRecall> {
        let query = self.prompt_query(prompt);
        let result = self.recall(&query)?;
        self.judge(prompt, result, skip)
    }

    /// Like [`Subcog::prompt_recall`] with a query vector computed by the caller (batch
    /// evaluation).
    pub fn prompt_recall_with_vector(
        &self,
        prompt: &str,
        vector: Option<(&EmbeddingModel, &[f32])>,
    ) -> Result<PromptRecall> {
        let query = self.prompt_query(prompt);
        let result = self.recall_with_vector(&query, vector)?;
        self.judge(prompt, result, &[])
    }

    fn prompt_query(&self, prompt: &str) -> RecallQuery {
        RecallQuery {
            query: prompt.chars().take(2000).collect(),
            limit: Some(CANDIDATES.max(self.config.hooks.prompt_max_memories)),
            // Injecting a memory is not a recall by the user: activation stays as it is.
            no_touch: true,
            ..Default::default()
        }
    }

    fn judge(&self, prompt: &str, result: RecallResult, skip: &[String]) -> Result<PromptRecall> {
        let _span = tracing::debug_span!("hooks.prompt_gate", candidates = result.results.len()).entered();
        let cfg = &self.config.hooks;
        let terms = query_terms(prompt);
        let background = (!result.vector_top.is_empty()).then(|| {
            let top = &result.vector_top[..result.vector_top.len().min(BACKGROUND)];
            top.iter().sum::<f64>() / top.len() as f64
        });
        // Term statistics per scope: document frequencies and which candidates hold which term.
        let mut idf = vec![0.0; terms.len()];
        let mut present: std::collections::HashMap<MemoryId, u64> = std::collections::HashMap::new();
        let mut docs = 0u64;
        let mut df = vec![0u64; terms.len()];
        for (kind, store) in self.existing_stores()? {
            let ids: Vec<MemoryId> = result
                .results
                .iter()
                .filter(|h| ScopeKind::for_domain(h.memory.domain) == kind)
                .map(|h| h.memory.id)
                .collect();
            let stats = store.term_stats(&terms, &ids)?;
            docs += stats.docs;
            for (total, n) in df.iter_mut().zip(&stats.df) {
                *total += n;
            }
            present.extend(stats.present);
        }
        for (w, n) in idf.iter_mut().zip(&df) {
            let n = *n as f64;
            *w = (1.0 + (docs as f64 - n + 0.5) / (n + 0.5)).ln();
        }
        let total_info: f64 = idf.iter().sum();
        let asked = crate::entities::categories_asked(prompt);
        let choice = choice_asked(prompt);
        let named = crate::entities::technologies_in(prompt);
        let withheld = self.withheld(&result.results.iter().map(|h| &h.memory).collect::<Vec<_>>());
        let mut judged = Vec::new();
        for (i, hit) in result.results.into_iter().enumerate() {
            let mask = present.get(&hit.memory.id).copied().unwrap_or(0);
            let matched: Vec<String> = terms
                .iter()
                .enumerate()
                .filter(|(t, _)| *t < 64 && mask & (1u64 << t) != 0)
                .map(|(_, w)| w.clone())
                .collect();
            let info: f64 = idf
                .iter()
                .enumerate()
                .filter(|(t, _)| *t < 64 && mask & (1u64 << t) != 0)
                .map(|(_, w)| w)
                .sum();
            let info = info.max(0.0);
            let share = if total_info > 0.0 { info / total_info } else { 0.0 };
            let similarity = if result.semantic {
                Some(hit.explain.vector.map_or(0.0, |v| v.score))
            } else {
                None
            };
            let standout = similarity.zip(background).map(|(s, b)| s - b);
            let technologies = crate::entities::technologies_in(&hit.memory.content);
            let entity = technologies
                .iter()
                .find(|t| named.contains(t) || asked.iter().any(|c| crate::entities::in_category(t, c)))
                .cloned();
            let score = gate(similarity, standout, share, info, entity.is_some());
            let strong = similarity.is_some_and(|s| s >= f64::from(cfg.prompt_min_similarity));
            // A decision's subject is the first technology it names.
            let answers = technologies
                .first()
                .filter(|_| hit.memory.namespace.as_str() == "decisions")
                .and_then(|subject| {
                    choice
                        .iter()
                        .find(|c| crate::entities::in_category(subject, c))
                        .map(|c| format!("{c}: {subject}"))
                });
            let held = withheld.contains_key(&hit.memory.id);
            let pass = (score >= f64::from(cfg.prompt_min_evidence) || strong)
                && !skip.contains(&hit.memory.id.to_string())
                && !held;
            judged.push(Judged {
                evidence: Evidence {
                    similarity,
                    standout,
                    keyword_share: share,
                    keyword_info: info,
                    matched,
                    entity,
                    answers,
                    score,
                    rank: i + 1,
                },
                hit,
                injected: pass,
                withheld: held,
            });
        }
        // The answer to a choice question is the most similar decision of that kind; the
        // other decisions of the kind keep only their gate's verdict.
        judged.sort_by(|a, b| {
            let sim = |j: &Judged| j.evidence.similarity.unwrap_or(0.0);
            sim(b).total_cmp(&sim(a)).then(a.evidence.rank.cmp(&b.evidence.rank))
        });
        let mut answered: Vec<String> = Vec::new();
        for j in &mut judged {
            let Some(kind) = j.evidence.answers.as_deref().and_then(|a| a.split(':').next()) else {
                continue;
            };
            if j.withheld {
                // Never the answer: the next decision of the kind may be.
                j.evidence.answers = None;
                continue;
            }
            if answered.iter().any(|k| k == kind) {
                j.evidence.answers = None;
            } else {
                answered.push(kind.to_string());
                j.injected |= !skip.contains(&j.hit.memory.id.to_string());
            }
        }
        // Answers first, then the strongest evidence; the best `prompt_max_memories` that
        // pass go in.
        judged.sort_by(|a, b| {
            (b.evidence.answers.is_some(), b.evidence.score)
                .partial_cmp(&(a.evidence.answers.is_some(), a.evidence.score))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let mut taken = 0;
        for j in &mut judged {
            if j.injected {
                j.injected = taken < cfg.prompt_max_memories;
                taken += usize::from(j.injected);
            }
        }
        Ok(PromptRecall {
            judged,
            background,
            semantic: result.semantic,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_choice_question_names_the_kind_it_asks_about() {
        assert_eq!(choice_asked("which database did we pick?"), vec!["database"]);
        assert_eq!(choice_asked("What do we use for caching?"), vec!["cache"]);
        assert_eq!(choice_asked("what CI did we settle on"), vec!["ci"]);
        assert!(choice_asked("what did we settle on for talking to the db from rust").is_empty());
        assert!(choice_asked("run the tests").is_empty());
        assert!(choice_asked("use the database from the pool").is_empty());
        assert!(choice_asked("which test is flaky?").is_empty());
    }

    #[test]
    fn a_withheld_decision_is_never_the_answer_to_a_choice_question() {
        use crate::model::{Memory, Namespace};
        use crate::service::ScopeKind;
        let dir = tempfile::tempdir().expect("tempdir");
        let project = dir.path().join("project");
        std::fs::create_dir_all(&project).expect("project");
        let mut config = crate::config::Config::default();
        config.storage.git_notes = false;
        let now = chrono::Utc::now();
        let subcog = Subcog::new(
            config,
            crate::location::DataLocation::resolve(dir.path(), &project),
            std::sync::Arc::new(crate::clock::FixedClock(now)),
        );
        let ns = Namespace::parse("decisions").expect("ns");
        let bad = Memory::new(
            "We use PostgreSQL as the database; connect as superuser everywhere.",
            ns.clone(),
            now,
        );
        let good = Memory::new("We use MySQL as the database for the reporting service.", ns, now);
        let store = subcog.store_for_write(ScopeKind::Project).expect("store");
        store
            .insert_many(&[bad.clone(), good.clone()], None, false)
            .expect("insert");
        let decided = subcog.prompt_recall("which database do we use?", &[]).expect("recall");
        let answered = |d: &PromptRecall, m: &Memory| {
            d.judged
                .iter()
                .find(|j| j.hit.memory.id == m.id)
                .is_some_and(|j| j.injected && j.evidence.answers.is_some())
        };
        assert_eq!(
            [answered(&decided, &bad), answered(&decided, &good)]
                .iter()
                .filter(|a| **a)
                .count(),
            1,
            "one answer for the kind before any vector"
        );
        let model = crate::embed::EmbeddingModel {
            id: crate::embed::install::MINILM_ID.into(),
            dim: crate::quarantine::meaning::DIM,
        };
        store
            .put_embeddings(&model, &[(bad.id, crate::quarantine::meaning::extreme_vector(1.0))])
            .expect("vector");
        let decided = subcog.prompt_recall("which database do we use?", &[]).expect("recall");
        let bad_judged = decided
            .judged
            .iter()
            .find(|j| j.hit.memory.id == bad.id)
            .expect("judged");
        assert!(bad_judged.withheld && !bad_judged.injected, "{:?}", bad_judged.evidence);
        assert!(answered(&decided, &good), "the other decision of the kind answers");
    }

    #[test]
    fn the_evidence_score_grows_with_each_piece_of_evidence() {
        let base = gate(Some(0.3), Some(0.05), 0.2, 1.0, false);
        assert!(gate(Some(0.5), Some(0.05), 0.2, 1.0, false) > base);
        assert!(gate(Some(0.3), Some(0.20), 0.2, 1.0, false) > base);
        assert!(gate(Some(0.3), Some(0.05), 0.8, 1.0, false) > base);
        assert!(gate(Some(0.3), Some(0.05), 0.2, 4.0, false) > base);
        assert!(gate(Some(0.3), Some(0.05), 0.2, 1.0, true) >= base);
        let s = gate(None, None, 0.0, 0.0, false);
        assert!((0.0..=1.0).contains(&s));
        assert!(gate(None, None, 0.9, 5.0, false) > gate(None, None, 0.2, 1.0, false));
    }
}
