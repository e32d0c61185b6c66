//! Time expressions resolved against a memory's own date, on a labelled set of sentences
//! (`data/temporal-resolution`): is "the week before last" in a note of Sunday 11 August
//! 2024 the week of 22–28 July? Seed 001's criterion 10 asks for more than 95 %.
//!
//! Protocol of the set's README: a sentence is right when the resolver's range for the
//! labelled expression — the dated reference whose words overlap it — equals one of the
//! accepted ranges; a sentence with no accepted range (a vague phrase, or only things that
//! look like dates: "Ubuntu 22.04", "every Monday", "24/7") is right when no dated range is
//! produced at all. Accuracy per split (`dev` is the one to tune on) and per kind.

use std::collections::BTreeMap;
use std::path::Path;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::temporal::resolve::{DateOrder, TemporalRef, resolve_all};

/// One labelled sentence.
#[derive(Debug, Clone, Deserialize)]
pub struct Sentence {
    /// `t0001` …
    pub id: String,
    /// The sentence.
    pub text: String,
    /// The memory's own date.
    #[serde(rename = "ref")]
    pub reference: NaiveDate,
    /// The time expression (a substring of `text`), if any.
    pub expression: Option<String>,
    /// Every acceptable inclusive range; empty when nothing should be dated.
    pub accept: Vec<Range>,
    /// The form of the expression.
    pub kind: String,
    /// `dev` or `test`.
    pub split: String,
}

/// An inclusive range of days.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub struct Range {
    /// First day.
    pub start: NaiveDate,
    /// Last day.
    pub end: NaiveDate,
}

/// Right and total for one group.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Score {
    /// Sentences.
    pub sentences: usize,
    /// Resolved as labelled.
    pub correct: usize,
    /// `correct / sentences`.
    pub accuracy: f64,
}

impl Score {
    fn add(&mut self, ok: bool) {
        self.sentences += 1;
        self.correct += usize::from(ok);
        self.accuracy = self.correct as f64 / self.sentences as f64;
    }
}

/// One sentence's outcome (`--details`).
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// The sentence's id.
    pub id: String,
    /// Its split and kind.
    pub split: String,
    /// Its kind.
    pub kind: String,
    /// The sentence.
    pub text: String,
    /// The memory's date.
    pub reference: NaiveDate,
    /// The labelled expression.
    pub expression: Option<String>,
    /// What the resolver gave for it (or every dated range, for a sentence that should
    /// have none).
    pub resolved: Vec<Range>,
    /// The accepted ranges.
    pub accept: Vec<Range>,
    /// Whether it is right.
    pub correct: bool,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Sentences read.
    pub sentences: usize,
    /// By split (`dev`, `test`) and `all`.
    pub splits: BTreeMap<String, Score>,
    /// By split, then kind.
    pub kinds: BTreeMap<String, BTreeMap<String, Score>>,
    /// Every sentence, when asked for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<Outcome>,
}

/// Reads `sentences.jsonl` in `dir` and scores the resolver on it.
pub fn run(dir: &Path, details: bool) -> Result<Report> {
    let path = dir.join("sentences.jsonl");
    let text = std::fs::read_to_string(&path).map_err(|e| Error::Io {
        context: format!("read {}", path.display()),
        source: e,
    })?;
    let mut sentences = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let s: Sentence = serde_json::from_str(line).map_err(|e| Error::Import {
            line: i + 1,
            message: format!("{}: {e}", path.display()),
        })?;
        sentences.push(s);
    }
    Ok(score(&sentences, details))
}

/// Scores the resolver on labelled sentences.
pub fn score(sentences: &[Sentence], details: bool) -> Report {
    let mut report = Report {
        sentences: sentences.len(),
        splits: BTreeMap::new(),
        kinds: BTreeMap::new(),
        details: Vec::new(),
    };
    for s in sentences {
        let refs = resolve_all(&s.text, s.reference, DateOrder::Mdy);
        let resolved = answer(s, &refs);
        let correct = if s.accept.is_empty() {
            resolved.is_empty()
        } else {
            resolved.first().is_some_and(|r| s.accept.contains(r))
        };
        for split in [s.split.as_str(), "all"] {
            report.splits.entry(split.to_string()).or_default().add(correct);
            report
                .kinds
                .entry(split.to_string())
                .or_default()
                .entry(s.kind.clone())
                .or_default()
                .add(correct);
        }
        if details {
            report.details.push(Outcome {
                id: s.id.clone(),
                split: s.split.clone(),
                kind: s.kind.clone(),
                text: s.text.clone(),
                reference: s.reference,
                expression: s.expression.clone(),
                resolved,
                accept: s.accept.clone(),
                correct,
            });
        }
    }
    report
}

/// The resolver's answer for a sentence: the range of the dated reference that overlaps
/// the labelled expression (the first one when several do); every dated range when the
/// sentence should have none.
fn answer(s: &Sentence, refs: &[TemporalRef]) -> Vec<Range> {
    let dated = |r: &TemporalRef| match (r.start, r.end) {
        (Some(start), Some(end)) => Some(Range { start, end }),
        _ => None,
    };
    let lower = s.text.to_lowercase();
    let span = |words: &str| lower.find(&words.to_lowercase()).map(|at| (at, at + words.len()));
    match s.expression.as_deref().and_then(span) {
        Some((a, b)) if !s.accept.is_empty() => refs
            .iter()
            .filter(|r| span(&r.text).is_some_and(|(x, y)| x < b && a < y))
            .filter_map(dated)
            .take(1)
            .collect(),
        _ => refs.iter().filter_map(dated).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentence(text: &str, reference: &str, expression: Option<&str>, accept: &[(&str, &str)]) -> Sentence {
        let d = |s: &str| s.parse::<NaiveDate>().expect("date");
        Sentence {
            id: "t".into(),
            text: text.into(),
            reference: d(reference),
            expression: expression.map(String::from),
            accept: accept.iter().map(|(a, b)| Range { start: d(a), end: d(b) }).collect(),
            kind: "k".into(),
            split: "dev".into(),
        }
    }

    #[test]
    fn right_range_for_the_expression_and_nothing_for_a_distractor() {
        let report = score(
            &[
                sentence(
                    "We deployed yesterday.",
                    "2024-08-12",
                    Some("yesterday"),
                    &[("2024-08-11", "2024-08-11")],
                ),
                sentence(
                    "We deployed yesterday.",
                    "2024-08-12",
                    Some("yesterday"),
                    &[("2024-08-10", "2024-08-10")],
                ),
                sentence("Ubuntu 22.04 runs the CI.", "2024-08-12", None, &[]),
            ],
            true,
        );
        let all = &report.splits["all"];
        assert_eq!((all.correct, all.sentences), (2, 3), "{:?}", report.details);
        assert!(!report.details[1].correct);
    }
}
