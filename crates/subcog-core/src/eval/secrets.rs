//! Secret redaction on a labelled corpus (`data/secrets`): is every fake secret gone from
//! the text that would be stored, and is every near-miss (a git SHA, a UUID, a public key,
//! a placeholder) stored unchanged?
//!
//! Protocol of the corpus's README: a secret is redacted when the redacted text no longer
//! contains it; a multi-line key is redacted when none of its body lines remains (armour
//! and header lines aside). A near-miss is mangled when the text changed at all. Recall and
//! the false-positive rate per split (`dev` is the one to tune on) and per kind.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::labelled::{Rate as Score, read_jsonl};
use crate::error::Result;
use crate::secrets::redact;

/// One labelled note.
#[derive(Debug, Clone, Deserialize)]
pub struct Note {
    /// `s001`, `n001` …
    pub id: String,
    /// The kind of secret or of near-miss.
    pub kind: String,
    /// The note as it would be captured.
    pub text: String,
    /// The substring that must not survive (secrets only).
    #[serde(default)]
    pub secret: Option<String>,
    /// `dev` or `test`.
    pub split: String,
}

/// A secret that survived or a near-miss that changed (`--details`).
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    /// The note's id.
    pub id: String,
    /// `dev` or `test`.
    pub split: String,
    /// Its kind.
    pub kind: String,
    /// `secret kept` or `near-miss changed`.
    pub what: &'static str,
    /// The note as given.
    pub text: String,
    /// The note after redaction.
    pub redacted: String,
}

/// The whole report.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Redaction recall by split (`dev`, `test`, `all`).
    pub recall: BTreeMap<String, Score>,
    /// Near-miss false-positive rate by split.
    pub false_positives: BTreeMap<String, Score>,
    /// Recall by split, then secret kind.
    pub recall_by_kind: BTreeMap<String, BTreeMap<String, Score>>,
    /// False positives by split, then near-miss kind.
    pub false_positives_by_kind: BTreeMap<String, BTreeMap<String, Score>>,
    /// Every failure, when asked for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failures: Vec<Failure>,
}

/// Reads `secrets.jsonl` and `near-misses.jsonl` in `dir` and scores redaction on them.
pub fn run(dir: &Path, details: bool) -> Result<Report> {
    let secrets = read_jsonl(&dir.join("secrets.jsonl"))?;
    let near = read_jsonl(&dir.join("near-misses.jsonl"))?;
    Ok(score(&secrets, &near, details))
}

/// Scores redaction (with the default configuration: e-mail addresses kept).
pub fn score(secrets: &[Note], near_misses: &[Note], details: bool) -> Report {
    let mut report = Report {
        recall: BTreeMap::new(),
        false_positives: BTreeMap::new(),
        recall_by_kind: BTreeMap::new(),
        false_positives_by_kind: BTreeMap::new(),
        failures: Vec::new(),
    };
    for (notes, is_secret) in [(secrets, true), (near_misses, false)] {
        for n in notes {
            let out = redact(&n.text, false).text;
            let hit = if is_secret {
                n.secret.as_deref().is_some_and(|s| gone(s, &out))
            } else {
                out != n.text
            };
            let (totals, kinds) = if is_secret {
                (&mut report.recall, &mut report.recall_by_kind)
            } else {
                (&mut report.false_positives, &mut report.false_positives_by_kind)
            };
            for split in [n.split.as_str(), "all"] {
                totals.entry(split.to_string()).or_default().add(hit);
                kinds
                    .entry(split.to_string())
                    .or_default()
                    .entry(n.kind.clone())
                    .or_default()
                    .add(hit);
            }
            let failed = if is_secret { !hit } else { hit };
            if details && failed {
                report.failures.push(Failure {
                    id: n.id.clone(),
                    split: n.split.clone(),
                    kind: n.kind.clone(),
                    what: if is_secret { "secret kept" } else { "near-miss changed" },
                    text: n.text.clone(),
                    redacted: out,
                });
            }
        }
    }
    report
}

/// Whether `secret` no longer appears in `out`. A multi-line key counts as gone when none of
/// its body lines remains (its armour lines may, since they carry nothing secret).
fn gone(secret: &str, out: &str) -> bool {
    if !secret.contains("-----BEGIN") {
        return !out.contains(secret);
    }
    secret
        .split('\n')
        .flat_map(|l| l.split("\\n"))
        .map(str::trim)
        .filter(|l| !l.is_empty() && !is_armour(l))
        .all(|l| !out.contains(l))
}

fn is_armour(line: &str) -> bool {
    line.starts_with("-----BEGIN")
        || line.starts_with("-----END")
        || line.starts_with("Proc-Type:")
        || line.starts_with("DEK-Info:")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(id: &str, text: &str, secret: Option<&str>) -> Note {
        Note {
            id: id.into(),
            kind: "k".into(),
            text: text.into(),
            secret: secret.map(str::to_string),
            split: "dev".into(),
        }
    }

    #[test]
    fn a_key_counts_as_redacted_only_when_no_body_line_is_left() {
        let key =
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAabc\nQyNTUxOQAAACDtest\n-----END RSA PRIVATE KEY-----";
        assert!(gone(key, "the key: [REDACTED:private_key]"));
        assert!(!gone(key, "the key: QyNTUxOQAAACDtest\n[REDACTED:private_key]"));
        let escaped = key.replace('\n', "\\n");
        assert!(!gone(&escaped, "\"private_key\": \"MIIEowIBAAKCAQEAabc\\n\""));
    }

    #[test]
    fn recall_and_false_positives_are_counted_per_split_and_kind() {
        let secrets = [
            note(
                "s1",
                "token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
                Some("ghp_abcdefghijklmnopqrstuvwxyz0123456789"),
            ),
            note("s2", "nothing to find here: plainword", Some("plainword")),
        ];
        let near = [note("n1", "commit 3f9c2a1", None)];
        let r = score(&secrets, &near, true);
        assert_eq!(r.recall["dev"].hits, 1);
        assert_eq!(r.recall["all"].notes, 2);
        assert_eq!(r.false_positives["dev"].hits, 0);
        assert_eq!(r.failures.len(), 1);
        assert_eq!(r.failures[0].id, "s2");
    }

    /// The corpus shipped in `data/secrets`: a regression guard at the figures reported in
    /// docs/RELIABILITY.md (the rules were written on the dev split; test was read after).
    #[test]
    fn the_shipped_corpus_is_redacted_on_both_splits() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/secrets");
        let r = run(&dir, false).expect("corpus");
        for split in ["dev", "test"] {
            assert!(r.recall[split].rate >= 0.98, "{split}: {:?}", r.recall[split]);
            // AWS's documented example key pair (a test-split near-miss) is redacted on purpose.
            assert!(
                r.false_positives[split].rate <= 0.025,
                "{split}: {:?}",
                r.false_positives[split]
            );
        }
        assert_eq!(r.recall["all"].notes, 362);
        assert_eq!(r.false_positives["all"].notes, 273);
    }
}
