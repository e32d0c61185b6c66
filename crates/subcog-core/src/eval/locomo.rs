//! LoCoMo (Maharana et al., 2024): turn-level evidence recall@k.
//!
//! For each conversation: a fresh store; every dialog turn captured as a memory dated by
//! its session's date_time (speaker and image caption in the content, dia_id as source);
//! every question answered with recall; recall@k is the share of a question's evidence
//! turns found in the top k, averaged per category (1 multi-hop, 2 temporal, 3
//! open-domain, 4 single-hop; 5 adversarial reported apart) and over categories 1–4.
//! Temporal questions are also answered by offline reasoned recall and the answer's date
//! compared with the gold answer ([`super::temporal`]).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use regex::Regex;
use serde::Serialize;
use serde_json::Value;

use super::percentile;
use super::temporal::{TemporalDetail, TemporalReport, judge, parse_gold};
use crate::config::Config;
use crate::embed::Embedder;
use crate::error::{Error, Result};
use crate::model::{Memory, MemoryId, Namespace};
use crate::service::Subcog;

/// How to run the evaluation.
#[derive(Debug, Clone)]
pub struct LocomoOptions {
    /// Cut-offs to report.
    pub ks: Vec<usize>,
    /// Previous turns of the session indexed with each turn as context (0: the turn alone).
    pub context_turns: usize,
    /// Following turns indexed with each turn as context.
    pub context_after: usize,
    /// Use the vector channel (when an embedder is given).
    pub vectors: bool,
    /// Use the keyword channel.
    pub bm25: bool,
    /// Keep every question's retrieved ids in the report.
    pub details: bool,
    /// Capture turns as plain memories, as real captures are: no speaker tag, and (with
    /// `context_turns` and `context_after` 0) only the context capture gives a short turn
    /// from the turns just before it (`conversation::fill_preceding`).
    pub plain: bool,
}

impl Default for LocomoOptions {
    fn default() -> Self {
        LocomoOptions {
            ks: vec![1, 5, 10, 20],
            context_turns: 0,
            context_after: 0,
            vectors: true,
            bm25: true,
            details: false,
            plain: false,
        }
    }
}

/// Recall for one category.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CategoryScore {
    /// Questions scored.
    pub questions: usize,
    /// Mean evidence recall at each k.
    pub recall_at: BTreeMap<usize, f64>,
}

/// The evaluation's result.
#[derive(Debug, Clone, Default, Serialize)]
pub struct LocomoReport {
    /// Conversations evaluated.
    pub conversations: usize,
    /// Turns ingested.
    pub turns: usize,
    /// Questions scored in categories 1–4.
    pub questions: usize,
    /// Questions skipped because none of their evidence ids exist.
    pub skipped_questions: usize,
    /// Per category, keyed "1".."5".
    pub categories: BTreeMap<String, CategoryScore>,
    /// Categories 1–4 together.
    pub overall: CategoryScore,
    /// Whether the vector channel was used.
    pub semantic: bool,
    /// Search latency per question (ms, excluding the query embedding), p50.
    pub search_p50_ms: f64,
    /// Search latency p95.
    pub search_p95_ms: f64,
    /// Query embedding latency per question (ms, batched), mean.
    pub query_embed_ms: f64,
    /// Ingest throughput (turns per second, embedding included).
    pub ingest_turns_per_sec: f64,
    /// Wall time of the whole run, seconds.
    pub seconds: f64,
    /// Options used.
    pub context_turns: usize,
    /// Turns captured as plain memories (no speaker tag).
    pub plain: bool,
    /// Fusion weights used (bm25, vector, time) and rrf_k.
    pub fusion: [f64; 4],
    /// Per question, with `details`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<QuestionDetail>,
    /// Category 2 answered by offline reasoned recall.
    pub temporal: TemporalReport,
}

/// One question's outcome.
#[derive(Debug, Clone, Serialize)]
pub struct QuestionDetail {
    /// Conversation.
    pub sample_id: String,
    /// Category.
    pub category: u64,
    /// The question.
    pub question: String,
    /// Evidence dia_ids.
    pub evidence: Vec<String>,
    /// Retrieved dia_ids, best first (identical turns share a slot).
    pub retrieved: Vec<Vec<String>>,
}

struct Turn {
    dia_id: String,
    speaker: String,
    content: String,
    context: String,
    at: DateTime<Utc>,
}

struct Question {
    text: String,
    category: u64,
    evidence: Vec<String>,
    /// The gold answer, as text.
    answer: String,
}

/// Runs the evaluation over the dataset text. Stores are created under `workdir`.
pub fn run(
    data: &str,
    config: &Config,
    embedder: Option<Arc<dyn Embedder>>,
    workdir: &Path,
    opts: &LocomoOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<LocomoReport> {
    let started = Instant::now();
    let samples: Vec<Value> = serde_json::from_str(data).map_err(|e| Error::Import {
        line: e.line(),
        message: format!("not a LoCoMo JSON list: {e}"),
    })?;
    let embedder = embedder.filter(|_| opts.vectors);
    let mut config = config.clone();
    if !opts.bm25 {
        config.recall.bm25_weight = 0.0;
    }
    let max_k = opts.ks.iter().copied().max().unwrap_or(10);
    let mut report = LocomoReport {
        semantic: embedder.is_some(),
        context_turns: opts.context_turns,
        plain: opts.plain,
        fusion: [
            config.recall.bm25_weight,
            config.recall.vector_weight,
            config.recall.time_weight,
            config.recall.rrf_k,
        ],
        ..Default::default()
    };
    let mut per_question: Vec<(u64, Vec<f64>)> = Vec::new();
    let (mut search_ms, mut embed_ms, mut ingest_secs) = (Vec::new(), Vec::new(), 0.0);
    for (i, sample) in samples.iter().enumerate() {
        let id = sample
            .get("sample_id")
            .and_then(Value::as_str)
            .unwrap_or("conversation")
            .to_string();
        progress(&format!("{id}: ingesting ({}/{})", i + 1, samples.len()));
        let turns = turns_of(sample, opts.context_turns, opts.context_after);
        let dir = workdir.join(&id);
        let subcog = super::scratch_subcog(&config, embedder.clone(), &dir)?;
        let t0 = Instant::now();
        let owners = ingest(&subcog, &turns, opts.plain)?;
        ingest_secs += t0.elapsed().as_secs_f64();
        report.turns += turns.len();

        let questions = questions_of(sample, &turns);
        progress(&format!("{id}: answering {} questions", questions.len()));
        let texts: Vec<&str> = questions.iter().map(|q| q.text.as_str()).collect();
        let t0 = Instant::now();
        let vectors = match &embedder {
            Some(e) if !texts.is_empty() => Some(e.embed(&texts)?),
            _ => None,
        };
        if !texts.is_empty() {
            embed_ms.push(t0.elapsed().as_secs_f64() * 1000.0 / texts.len() as f64);
        }
        for (qi, q) in questions.iter().enumerate() {
            if q.evidence.is_empty() {
                report.skipped_questions += 1;
                continue;
            }
            let vector = vectors.as_ref().and_then(|v| v.get(qi)).map(Vec::as_slice);
            let t0 = Instant::now();
            let result = match super::recall_question(&subcog, &q.text, max_k, vector) {
                Ok(r) => r,
                Err(Error::Validation(_)) => {
                    report.skipped_questions += 1;
                    continue;
                }
                Err(e) => return Err(e),
            };
            search_ms.push(t0.elapsed().as_secs_f64() * 1000.0);
            let ranked: Vec<&Vec<String>> = result.results.iter().filter_map(|h| owners.get(&h.memory.id)).collect();
            let recalls = opts
                .ks
                .iter()
                .map(|&k| {
                    let found = q
                        .evidence
                        .iter()
                        .filter(|ev| ranked.iter().take(k).any(|ids| ids.contains(ev)))
                        .count();
                    found as f64 / q.evidence.len() as f64
                })
                .collect();
            per_question.push((q.category, recalls));
            if q.category == 2 {
                let last_day = turns.last().map(|t| t.at.date_naive()).unwrap_or_default();
                let candidates = config.temporal.reason_candidates.max(1);
                temporal_question(
                    &mut report.temporal,
                    q,
                    &result,
                    &owners,
                    candidates,
                    last_day,
                    opts.details,
                );
            }
            if opts.details {
                report.details.push(QuestionDetail {
                    sample_id: id.clone(),
                    category: q.category,
                    question: q.text.clone(),
                    evidence: q.evidence.clone(),
                    retrieved: ranked.iter().map(|ids| (*ids).clone()).collect(),
                });
            }
        }
        report.conversations += 1;
        // The stores are throwaway; remove them as we go so large runs do not pile up.
        let _ = std::fs::remove_dir_all(&dir);
    }
    for (cat, recalls) in &per_question {
        let entry = report.categories.entry(cat.to_string()).or_default();
        add(entry, &opts.ks, recalls);
        if (1..=4).contains(cat) {
            add(&mut report.overall, &opts.ks, recalls);
            report.questions += 1;
        }
    }
    for score in report
        .categories
        .values_mut()
        .chain(std::iter::once(&mut report.overall))
    {
        let n = score.questions.max(1) as f64;
        for v in score.recall_at.values_mut() {
            *v /= n;
        }
    }
    let t = &mut report.temporal;
    t.accuracy = t.correct as f64 / t.parseable.max(1) as f64;
    report.search_p50_ms = percentile(&search_ms, 50.0);
    report.search_p95_ms = percentile(&search_ms, 95.0);
    report.query_embed_ms = embed_ms.iter().sum::<f64>() / embed_ms.len().max(1) as f64;
    report.ingest_turns_per_sec = report.turns as f64 / ingest_secs.max(1e-9);
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Answers one temporal question offline from its retrieval and scores it.
fn temporal_question(
    t: &mut TemporalReport,
    q: &Question,
    result: &crate::recall::RecallResult,
    owners: &HashMap<MemoryId, Vec<String>>,
    candidates: usize,
    last_day: NaiveDate,
    details: bool,
) {
    t.questions += 1;
    let Some(gold) = parse_gold(&q.answer, last_day) else {
        t.not_dates += 1;
        return;
    };
    t.parseable += 1;
    let hits: Vec<(&Memory, f64)> = result
        .results
        .iter()
        .take(candidates)
        .map(|h| (&h.memory, h.score))
        .collect();
    let now = Utc::now();
    let answer = crate::temporal::answer::offline(&q.text, &hits, now);
    let is_evidence = |id: &str| {
        id.parse::<MemoryId>()
            .ok()
            .and_then(|id| owners.get(&id))
            .is_some_and(|dia| dia.iter().any(|d| q.evidence.contains(d)))
    };
    let chosen = answer.source_memories.first().is_some_and(|s| is_evidence(&s.id));
    let retrieved = hits.iter().any(|(m, _)| is_evidence(&m.id.to_string()));
    let failure = judge(gold, &answer, chosen, retrieved);
    match failure {
        None => t.correct += 1,
        Some(f) => {
            let key = serde_json::to_value(f)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            *t.failures.entry(key).or_default() += 1;
        }
    }
    if details {
        t.details.push(TemporalDetail {
            question: q.text.clone(),
            gold: q.answer.clone(),
            answer: answer.answer,
            failure,
        });
    }
}

fn add(score: &mut CategoryScore, ks: &[usize], recalls: &[f64]) {
    score.questions += 1;
    for (k, r) in ks.iter().zip(recalls) {
        *score.recall_at.entry(*k).or_default() += r;
    }
}

/// Captures every turn (with vectors when an embedder is set); returns, for each stored
/// memory, the dia_ids whose text it holds (identical turns share one memory).
fn ingest(subcog: &Subcog, turns: &[Turn], plain: bool) -> Result<HashMap<MemoryId, Vec<String>>> {
    let ns = Namespace::parse("context")?;
    let mut memories: Vec<Memory> = turns
        .iter()
        .map(|t| {
            let mut m = Memory::new(t.content.clone(), ns.clone(), t.at);
            m.source = Some(t.dia_id.clone());
            // The speaker as a tag: recall's tag boost favours turns by a person the
            // question names over turns that merely address them.
            if !plain {
                m.tags = crate::model::normalize_tags(&[t.speaker.as_str()]).unwrap_or_default();
            }
            if !t.context.is_empty() {
                m.context = Some(t.context.clone());
            }
            m.created_by = "locomo".into();
            m
        })
        .collect();
    if plain {
        // Captured one by one, each short turn takes the turns just before it as context.
        crate::conversation::fill_preceding(&mut memories, &subcog.config().capture, |_| true);
    }
    let keys: Vec<String> = turns.iter().map(|t| t.dia_id.clone()).collect();
    super::insert_keyed(subcog, &memories, &keys, &mut |_, _| {})
}

/// The turns of a sample in order, each dated by its session (plus a second per turn so
/// order survives) and carrying `context` previous turns in its text.
fn turns_of(sample: &Value, context: usize, context_after: usize) -> Vec<Turn> {
    let Some(conv) = sample.get("conversation").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut sessions: Vec<(u32, DateTime<Utc>, &Vec<Value>)> = conv
        .iter()
        .filter_map(|(key, value)| {
            let n: u32 = key.strip_prefix("session_")?.parse().ok()?;
            let turns = value.as_array()?;
            let date = conv
                .get(&format!("session_{n}_date_time"))
                .and_then(Value::as_str)
                .and_then(parse_session_date)?;
            Some((n, date, turns))
        })
        .collect();
    sessions.sort_by_key(|s| s.0);
    let mut out: Vec<Turn> = Vec::new();
    for (_, date, turns) in sessions {
        let lines: Vec<Option<(String, String, String)>> = turns
            .iter()
            .map(|t| {
                let speaker = t.get("speaker").and_then(Value::as_str)?;
                let dia_id = t.get("dia_id").and_then(Value::as_str)?;
                let text = t.get("text").and_then(Value::as_str).unwrap_or("");
                let mut line = format!("{speaker}: {text}");
                if let Some(caption) = t.get("blip_caption").and_then(Value::as_str) {
                    line.push_str(&format!(" [shared an image: {caption}]"));
                }
                Some((speaker.to_lowercase(), dia_id.to_string(), line))
            })
            .collect();
        for (i, entry) in lines.iter().enumerate() {
            let Some((speaker, dia_id, line)) = entry else {
                continue;
            };
            // Neighbouring turns of the same session: `context` before, `context_after` after.
            let before = i.saturating_sub(context)..i;
            let after = (i + 1)..(i + 1 + context_after).min(lines.len());
            let context_text: Vec<&str> = before
                .chain(after)
                .filter_map(|j| lines.get(j).and_then(|l| l.as_ref()).map(|l| l.2.as_str()))
                .collect();
            out.push(Turn {
                dia_id: dia_id.clone(),
                speaker: speaker.clone(),
                content: line.clone(),
                context: context_text.join(" "),
                at: date + Duration::seconds(i as i64),
            });
        }
    }
    out
}

fn questions_of(sample: &Value, turns: &[Turn]) -> Vec<Question> {
    let known: std::collections::HashSet<&str> = turns.iter().map(|t| t.dia_id.as_str()).collect();
    sample
        .get("qa")
        .and_then(Value::as_array)
        .map(|qa| {
            qa.iter()
                .filter_map(|q| {
                    let text = q.get("question").and_then(Value::as_str)?.to_string();
                    let category = q.get("category").and_then(Value::as_u64).unwrap_or(0);
                    let evidence = q
                        .get("evidence")
                        .and_then(Value::as_array)
                        .map(|ev| {
                            ev.iter()
                                .filter_map(Value::as_str)
                                .flat_map(|s| s.split(|c: char| c == ';' || c == ',' || c.is_whitespace()))
                                .filter(|id| known.contains(id))
                                .map(str::to_string)
                                .collect()
                        })
                        .unwrap_or_default();
                    let answer = match q.get("answer") {
                        Some(Value::String(s)) => s.clone(),
                        Some(Value::Number(n)) => n.to_string(),
                        _ => String::new(),
                    };
                    Some(Question {
                        text,
                        category,
                        evidence,
                        answer,
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

#[allow(clippy::expect_used)]
static SESSION_DATE: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
    Regex::new(r"(?i)(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})").expect("constant regex")
});

/// Parses LoCoMo's "1:56 pm on 8 May, 2023" (taken as UTC).
pub fn parse_session_date(text: &str) -> Option<DateTime<Utc>> {
    let c = SESSION_DATE.captures(text)?;
    let mut hour: u32 = c[1].parse().ok()?;
    let minute: u32 = c[2].parse().ok()?;
    let pm = c[3].eq_ignore_ascii_case("pm");
    if hour == 12 {
        hour = 0;
    }
    if pm {
        hour += 12;
    }
    let day: u32 = c[4].parse().ok()?;
    let month = crate::temporal::month_number(&c[5])?;
    let year: i32 = c[6].parse().ok()?;
    let date = NaiveDate::from_ymd_opt(year, month, day)?;
    Utc.from_local_datetime(&date.and_hms_opt(hour, minute, 0)?).single()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_dates_parse() {
        let d = parse_session_date("1:56 pm on 8 May, 2023").expect("parses");
        assert_eq!(d.to_rfc3339(), "2023-05-08T13:56:00+00:00");
        let d = parse_session_date("12:09 am on 13 September, 2023").expect("parses");
        assert_eq!(d.to_rfc3339(), "2023-09-13T00:09:00+00:00");
        assert!(parse_session_date("sometime").is_none());
    }

    #[test]
    fn keyword_only_run_on_a_tiny_conversation() {
        let data = r#"[{"sample_id":"t1","conversation":{"speaker_a":"A","speaker_b":"B",
            "session_1_date_time":"1:56 pm on 8 May, 2023",
            "session_1":[{"speaker":"A","dia_id":"D1:1","text":"I adopted a dog named Rex"},
                         {"speaker":"B","dia_id":"D1:2","text":"Nice! I started pottery classes"},
                         {"speaker":"A","dia_id":"D1:3","text":"Thanks!"},
                         {"speaker":"A","dia_id":"D1:4","text":"Thanks!"}]},
            "qa":[{"question":"What is the name of A's dog?","answer":"Rex","evidence":["D1:1"],"category":4},
                  {"question":"What class did B start?","answer":"pottery","evidence":["D1:2; D9:9"],"category":1},
                  {"question":"Unanswerable?","evidence":["D7:7"],"category":5}]}]"#;
        let dir = tempfile::tempdir().expect("tempdir");
        let opts = LocomoOptions {
            ks: vec![1, 2],
            ..Default::default()
        };
        let report = run(data, &Config::default(), None, dir.path(), &opts, &mut |_| {}).expect("runs");
        assert_eq!(report.turns, 4);
        assert_eq!(report.questions, 2);
        assert_eq!(report.skipped_questions, 1);
        assert!(!report.semantic);
        assert_eq!(report.overall.recall_at.get(&1).copied(), Some(1.0));
        assert_eq!(report.categories.get("4").map(|c| c.questions), Some(1));
    }
}
