//! Reasoned recall: retrieve, then answer the question instead of listing memories
//! (`recall --reason`, automatic for questions about time). The answering itself lives in
//! [`crate::temporal::answer`]; this owns the service side: retrieval, the choice between
//! the LLM and the offline answer, and the fallback when the LLM fails.

use crate::consolidate::LlmMode;
use crate::error::{Error, Result};
use crate::llm::LlmClient;
use crate::model::Memory;
use crate::recall::{RecallQuery, RecallResult};
use crate::service::Subcog;
use crate::temporal::answer::{self, ReasonedAnswer};

/// A reasoned answer with the retrieval it rests on.
#[derive(Debug, Clone)]
pub struct Reasoned {
    /// The answer.
    pub answer: ReasonedAnswer,
    /// The memories retrieved, best first.
    pub recall: RecallResult,
}

impl Subcog {
    /// Retrieves memories for `query` and answers it; `llm` says whether an LLM may (auto)
    /// or must (required) answer. An LLM that fails or answers unreadably gives way to the
    /// offline answer, which says why in its reasoning.
    pub fn recall_reasoned(&self, query: &RecallQuery, llm: LlmMode) -> Result<Reasoned> {
        let mut q = query.clone();
        q.limit = Some(query.limit.unwrap_or(self.config.temporal.reason_candidates).max(1));
        let recall = self.recall(&q)?;
        let answer = self.answer_from(&query.query, &recall, llm)?;
        Ok(Reasoned { answer, recall })
    }

    /// Answers `question` from an existing retrieval.
    pub fn answer_from(&self, question: &str, recall: &RecallResult, llm: LlmMode) -> Result<ReasonedAnswer> {
        let span = tracing::info_span!(
            "reasoning.recall",
            query_length = question.len(),
            temporal_patterns_found = tracing::field::Empty,
            confidence = tracing::field::Empty,
            method = tracing::field::Empty,
        );
        let _guard = span.enter();
        let memories: Vec<(&Memory, f64)> = recall.results.iter().map(|h| (&h.memory, h.score)).collect();
        span.record(
            "temporal_patterns_found",
            memories.iter().map(|(m, _)| m.time_refs.len()).sum::<usize>(),
        );
        let now = self.clock.now();
        let offline = || {
            let _s = tracing::debug_span!("reasoning.resolve_temporal").entered();
            answer::offline(question, &memories, now)
        };
        let chain = self.llm_chain_for(llm)?;
        let result = match (chain, memories.is_empty()) {
            (Some(chain), false) => {
                let _s = tracing::info_span!("reasoning.synthesize", provider = chain.name()).entered();
                let req = answer::llm_request(question, &memories);
                match chain.complete(&req) {
                    Ok(resp) => {
                        let model = format!("{}/{}", resp.provider, resp.model);
                        match answer::parse_llm(&resp.text, &memories, &model) {
                            Ok(a) => a,
                            Err(why) => fallback(offline(), &format!("the LLM's answer was unusable ({why})"), llm)?,
                        }
                    }
                    Err(e) => fallback(offline(), &format!("the LLM failed ({e})"), llm)?,
                }
            }
            _ => offline(),
        };
        span.record("confidence", f64::from(result.confidence));
        span.record("method", result.method.as_str());
        Ok(result)
    }
}

/// The offline answer, noting why the LLM's was not used; with `required`, an error.
fn fallback(mut a: ReasonedAnswer, why: &str, llm: LlmMode) -> Result<ReasonedAnswer> {
    if llm == LlmMode::Required {
        return Err(Error::Llm(why.to_string()));
    }
    tracing::warn!(reason = why, "reasoned recall fell back to the offline answer");
    a.reasoning = format!("{} (Offline answer: {why}.)", a.reasoning);
    Ok(a)
}
