//! Quarantine: text stored as a memory that reads as an instruction to the agent who will
//! later recall it — "ignore previous instructions", a fake `System:` turn, a forged tool
//! call, a closing tag of subcog's own blocks, a request for credentials or to send data
//! out — is stored (nothing a user captured is lost) but held back: status `quarantined`,
//! never injected by hooks, never recalled unless asked for, listed by `subcog review
//! --quarantined`, released by the user (`subcog update ID --status active`).
//!
//! Owns the judgement ([`assess`]) and marking a memory ([`hold`]). The rules look at the
//! text after [`normalize`] has undone obfuscation. They ask for the shape of an
//! instruction addressed to an agent, not for trigger words: "ignore case", "the system
//! prompt template", "human review" and a parser test that mentions `</memory>` stay.
//! What no phrase rule holds is weighed by [`directives`]: signals of harm given as an
//! order, sentence by sentence. What no rule holds at all is scored by [`meaning`], a
//! learned judgement on the memory's vector ([`hold_by_meaning`], once the vector exists).
//! Measured by `subcog eval quarantine` (docs/RELIABILITY.md).

mod directives;
mod foreign;
pub mod meaning;
mod normalize;
mod rules;
pub mod screen;
mod signals;
mod typosquat;
mod weights;

use serde::Serialize;

use crate::embed::EmbeddingModel;
use crate::model::{Memory, Status};

/// Why a text was held back: each family of rule that matched, with the words it saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// What it matched, e.g. `override: "ignore all previous instructions"`.
    pub reasons: Vec<String>,
}

impl Verdict {
    /// The reasons on one line.
    pub fn summary(&self) -> String {
        self.reasons.join("; ")
    }
}

/// Whether `text` reads as an instruction to the agent, and why.
pub fn assess(text: &str) -> Option<Verdict> {
    let readings = normalize::read(text);
    let mut reasons = rules::matches(text, &readings);
    if reasons.is_empty() {
        let lines: String = text.lines().map(normalize::fold).collect::<Vec<_>>().join("\n");
        // Harm hidden in an encoding or written backwards is weighed as read.
        reasons = directives::weigh(&lines)
            .or_else(|| {
                readings
                    .decoded
                    .iter()
                    .chain(&readings.scrambled)
                    .find_map(|r| directives::weigh(r))
            })
            .or_else(|| foreign::find(text).map(|r| vec![r]))
            .unwrap_or_default();
    }
    (!reasons.is_empty()).then_some(Verdict { reasons })
}

/// How close `text` comes to reading as a harmful order to the agent, as a share of the
/// bar at which [`assess`] holds it (0 when it names no harm; 1 or more is held): its
/// plain reading or, if heavier, what is decoded from it.
pub fn directive_weight(text: &str) -> f32 {
    let readings = normalize::read(text);
    let lines: String = text.lines().map(normalize::fold).collect::<Vec<_>>().join("\n");
    std::iter::once(&lines)
        .chain(&readings.decoded)
        .chain(&readings.scrambled)
        .map(|r| directives::weight(r))
        .fold(0.0, f32::max)
}

/// Holds an active memory back when its content reads as an instruction to the agent.
/// Returns the verdict when it did; other statuses are left as they are.
pub fn hold(memory: &mut Memory) -> Option<Verdict> {
    if memory.status != Status::Active {
        return None;
    }
    // The summary is injected too (`<summary>`): a summary given apart from the text, one
    // the text does not contain, is read as well.
    let verdict =
        assess(&memory.content).or_else(|| screen::summary_apart(memory).and_then(|_| assess(&memory.summary)))?;
    tracing::info!(id = %memory.id, reasons = %verdict.summary(), "memory quarantined");
    mark(memory);
    Some(verdict)
}

/// Holds an active memory back when the learned judgement on its vector reaches
/// [`meaning::BAR`]. The vector must be of the memory's current content.
pub fn hold_by_meaning(memory: &mut Memory, model: &EmbeddingModel, vector: &[f32]) -> Option<Verdict> {
    if memory.status != Status::Active {
        return None;
    }
    let verdict = assess_meaning(model, vector)?;
    tracing::info!(id = %memory.id, reasons = %verdict.summary(), "memory quarantined");
    mark(memory);
    Some(verdict)
}

/// Whether the learned judgement on a text's vector reaches [`meaning::BAR`], and its score.
pub fn assess_meaning(model: &EmbeddingModel, vector: &[f32]) -> Option<Verdict> {
    let score = meaning::score(model, vector).filter(|s| *s >= meaning::BAR)?;
    Some(Verdict {
        reasons: vec![format!("meaning: reads as an attack ({score:.2}, learned judgement)")],
    })
}

fn mark(memory: &mut Memory) {
    memory.status = Status::Quarantined;
    // The held version is a newer version than the one read: it wins every "newer wins"
    // choice (a sync's merge, completing a killed write) against the active one.
    memory.updated_at += chrono::Duration::milliseconds(1);
}

#[cfg(test)]
mod tests;
