//! LongMemEval (Wu et al., 2024), pooled: one user's many chats in one store.
//!
//! The oracle split gives each question only its evidence sessions, so per question
//! retrieval would be trivial. Instead every distinct session of the file goes into one
//! fresh store — each turn a plain memory (its text only: no context, no tags), dated by
//! its session's date plus a second per turn — and every question is answered against the
//! whole pool with recall at the question's own date. Reported:
//!
//! - **turn-level evidence recall@k**: the share of a question's `has_answer` turns in the
//!   top k, per question type and overall;
//! - **session-level recall-any@k**: whether one of the question's answer sessions is among
//!   the first k distinct sessions of the ranked turns;
//! - **knowledge updates**: whether the newest session's evidence ranks above every older
//!   evidence turn (the current value first);
//! - **temporal reasoning**: whether offline reasoned recall (`recall --reason`) grounds its
//!   answer in an evidence turn. The gold answers are durations and orderings ("14 days",
//!   "the arrival of the new prime lens"), which the offline answer does not state, so this
//!   measures the memory it reasons from, not the wording.
//!
//! Abstention questions (ids ending in `_abs`) have no evidence and are counted apart.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use chrono::{DateTime, Duration, NaiveDateTime, TimeZone, Utc};
use serde::{Deserialize, Serialize};

use super::percentile;
use crate::clock::Clock;
use crate::config::Config;
use crate::embed::Embedder;
use crate::error::{Error, Result};
use crate::model::{Memory, MemoryId, Namespace};

/// How to run the evaluation.
#[derive(Debug, Clone)]
pub struct LongMemEvalOptions {
    /// Cut-offs to report.
    pub ks: Vec<usize>,
    /// Keep every question's outcome in the report.
    pub details: bool,
}

impl Default for LongMemEvalOptions {
    fn default() -> Self {
        LongMemEvalOptions {
            ks: vec![1, 5, 10],
            details: false,
        }
    }
}

/// Recall for a group of questions.
#[derive(Debug, Clone, Default, Serialize)]
pub struct GroupScore {
    /// Questions scored.
    pub questions: usize,
    /// Mean turn-level evidence recall at each k.
    pub recall_at: BTreeMap<usize, f64>,
    /// Share of questions with an answer session among the first k sessions.
    pub session_any_at: BTreeMap<usize, f64>,
}

/// The evaluation's result.
#[derive(Debug, Clone, Default, Serialize)]
pub struct LongMemEvalReport {
    /// Distinct sessions ingested.
    pub sessions: usize,
    /// Turns ingested.
    pub turns: usize,
    /// Questions scored (with evidence).
    pub questions: usize,
    /// Abstention questions (no evidence), not scored.
    pub abstention: usize,
    /// Per question type.
    pub types: BTreeMap<String, GroupScore>,
    /// All scored questions.
    pub overall: GroupScore,
    /// Knowledge-update questions whose evidence spans sessions.
    pub knowledge_updates: usize,
    /// Those whose newest evidence ranks above all older evidence (within the top max k).
    pub newest_first: usize,
    /// Temporal-reasoning questions scored.
    pub temporal: usize,
    /// Those whose offline reasoned answer rests on an evidence turn.
    pub temporal_grounded: usize,
    /// Whether the vector channel was used.
    pub semantic: bool,
    /// Search latency per question (ms, excluding the query embedding), p50.
    pub search_p50_ms: f64,
    /// Search latency p95.
    pub search_p95_ms: f64,
    /// Ingest throughput (turns per second, embedding included).
    pub ingest_turns_per_sec: f64,
    /// Wall time, seconds.
    pub seconds: f64,
    /// Per question, with `details`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<QuestionDetail>,
}

/// One question's outcome.
#[derive(Debug, Clone, Serialize)]
pub struct QuestionDetail {
    /// Its id.
    pub question_id: String,
    /// Its type.
    pub question_type: String,
    /// The question.
    pub question: String,
    /// Evidence turn ids (`<session>:<turn>`).
    pub evidence: Vec<String>,
    /// Retrieved turn ids, best first (identical turns share a slot).
    pub retrieved: Vec<Vec<String>>,
    /// Temporal-reasoning questions: the offline answer (`recall --reason`) and whether
    /// it rests on an evidence turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<(String, bool)>,
}

#[derive(Deserialize)]
struct RawTurn {
    role: String,
    content: String,
    #[serde(default)]
    has_answer: bool,
}

#[derive(Deserialize)]
struct RawQuestion {
    question_id: String,
    question_type: String,
    question: String,
    question_date: String,
    haystack_session_ids: Vec<String>,
    haystack_dates: Vec<String>,
    haystack_sessions: Vec<Vec<RawTurn>>,
}

/// "Now" for recall, set to each question's date.
struct QuestionClock(Mutex<DateTime<Utc>>);

impl Clock for QuestionClock {
    fn now(&self) -> DateTime<Utc> {
        self.0.lock().map(|t| *t).unwrap_or_else(|e| *e.into_inner())
    }
}

/// Parses LongMemEval's "2023/05/28 (Sun) 12:58" (taken as UTC).
pub fn parse_date(text: &str) -> Option<DateTime<Utc>> {
    let mut parts = text.split_whitespace();
    let day = parts.next()?;
    let _weekday = parts.next()?;
    let time = parts.next()?;
    let naive = NaiveDateTime::parse_from_str(&format!("{day} {time}"), "%Y/%m/%d %H:%M").ok()?;
    Utc.from_local_datetime(&naive).single()
}

/// Runs the evaluation over the dataset text; the store is created under `workdir`.
pub fn run(
    data: &str,
    config: &Config,
    embedder: Option<Arc<dyn Embedder>>,
    workdir: &Path,
    opts: &LongMemEvalOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<LongMemEvalReport> {
    let started = Instant::now();
    let questions: Vec<RawQuestion> = serde_json::from_str(data).map_err(|e| Error::Import {
        line: e.line(),
        message: format!("not a LongMemEval JSON list: {e}"),
    })?;
    let max_k = opts.ks.iter().copied().max().unwrap_or(10);
    let mut report = LongMemEvalReport {
        semantic: embedder.is_some(),
        ..Default::default()
    };

    // The pool: each session once, in date order.
    let mut sessions: BTreeMap<String, (DateTime<Utc>, &Vec<RawTurn>)> = BTreeMap::new();
    for q in &questions {
        for ((id, date), turns) in q
            .haystack_session_ids
            .iter()
            .zip(&q.haystack_dates)
            .zip(&q.haystack_sessions)
        {
            let Some(at) = parse_date(date) else {
                return Err(Error::Import {
                    line: 0,
                    message: format!("session {id}: unreadable date {date:?}"),
                });
            };
            sessions.entry(id.clone()).or_insert((at, turns));
        }
    }
    let mut memories = Vec::new();
    let mut turn_ids = Vec::new();
    let mut session_of: HashMap<String, (String, DateTime<Utc>)> = HashMap::new();
    let ns = Namespace::parse("context")?;
    for (sid, (at, turns)) in &sessions {
        for (i, t) in turns.iter().enumerate() {
            if t.content.trim().is_empty() || (t.role != "user" && t.role != "assistant") {
                continue;
            }
            let id = format!("{sid}:{i}");
            let mut m = Memory::new(t.content.clone(), ns.clone(), *at + Duration::seconds(i as i64));
            m.source = Some(id.clone());
            m.created_by = "longmemeval".into();
            memories.push(m);
            session_of.insert(id.clone(), (sid.clone(), *at));
            turn_ids.push(id);
        }
    }
    // Captured one by one, each short turn takes the turns just before it as context.
    crate::conversation::fill_preceding(&mut memories, &config.capture, |_| true);
    report.sessions = sessions.len();
    report.turns = memories.len();

    let clock = Arc::new(QuestionClock(Mutex::new(Utc::now())));
    let subcog = super::scratch_subcog_at(config, embedder.clone(), workdir, clock.clone())?;
    progress(&format!(
        "ingesting {} turns of {} sessions",
        memories.len(),
        sessions.len()
    ));
    let t0 = Instant::now();
    let total = memories.len();
    let mut next = 500;
    let owners = super::insert_keyed(&subcog, &memories, &turn_ids, &mut |done, _| {
        if done >= next {
            progress(&format!("embedded {done}/{total}"));
            next = done + 500;
        }
    })?;
    let ingest_secs = t0.elapsed().as_secs_f64();

    progress(&format!("answering {} questions", questions.len()));
    let texts: Vec<&str> = questions.iter().map(|q| q.question.as_str()).collect();
    let query_vectors = match &embedder {
        Some(e) if !texts.is_empty() => Some(e.embed(&texts)?),
        _ => None,
    };
    let mut search_ms = Vec::new();
    for (qi, q) in questions.iter().enumerate() {
        let evidence: Vec<String> = q
            .haystack_session_ids
            .iter()
            .zip(&q.haystack_sessions)
            .flat_map(|(sid, turns)| {
                turns
                    .iter()
                    .enumerate()
                    .filter(|(_, t)| t.has_answer)
                    .map(move |(i, _)| format!("{sid}:{i}"))
            })
            .filter(|id| session_of.contains_key(id))
            .collect();
        if evidence.is_empty() {
            report.abstention += 1;
            continue;
        }
        if let Some(now) = parse_date(&q.question_date)
            && let Ok(mut t) = clock.0.lock()
        {
            *t = now;
        }
        let vector = query_vectors.as_ref().and_then(|v| v.get(qi)).map(Vec::as_slice);
        let t0 = Instant::now();
        let result = super::recall_question(&subcog, &q.question, max_k, vector)?;
        search_ms.push(t0.elapsed().as_secs_f64() * 1000.0);
        let ranked: Vec<&Vec<String>> = result.results.iter().filter_map(|h| owners.get(&h.memory.id)).collect();
        let answer_sessions: HashSet<&str> = evidence
            .iter()
            .filter_map(|id| session_of.get(id).map(|(s, _)| s.as_str()))
            .collect();
        let mut ranked_sessions: Vec<&str> = Vec::new();
        for ids in &ranked {
            for id in ids.iter() {
                if let Some((s, _)) = session_of.get(id)
                    && !ranked_sessions.contains(&s.as_str())
                {
                    ranked_sessions.push(s.as_str());
                }
            }
        }
        let group = report.types.entry(q.question_type.clone()).or_default();
        for target in [&mut report.overall, group] {
            target.questions += 1;
            for &k in &opts.ks {
                let found = evidence
                    .iter()
                    .filter(|ev| ranked.iter().take(k).any(|ids| ids.contains(ev)))
                    .count();
                *target.recall_at.entry(k).or_default() += found as f64 / evidence.len() as f64;
                let any = ranked_sessions.iter().take(k).any(|s| answer_sessions.contains(s));
                *target.session_any_at.entry(k).or_default() += f64::from(u8::from(any));
            }
        }
        report.questions += 1;
        if q.question_type == "knowledge-update" && answer_sessions.len() > 1 {
            report.knowledge_updates += 1;
            if newest_first(&evidence, &ranked, &session_of) {
                report.newest_first += 1;
            }
        }
        let mut reasoned = None;
        if q.question_type == "temporal-reasoning" {
            report.temporal += 1;
            let candidates = subcog.config().temporal.reason_candidates.max(1);
            let hits: Vec<(&Memory, f64)> = result
                .results
                .iter()
                .take(candidates)
                .map(|h| (&h.memory, h.score))
                .collect();
            let answer = crate::temporal::answer::offline(&q.question, &hits, clock.now());
            let grounded = answer.source_memories.first().is_some_and(|s| {
                s.id.parse::<MemoryId>()
                    .ok()
                    .and_then(|id| owners.get(&id))
                    .is_some_and(|ids| ids.iter().any(|i| evidence.contains(i)))
            });
            if grounded {
                report.temporal_grounded += 1;
            }
            reasoned = Some((answer.answer.clone(), grounded));
        }
        if opts.details {
            report.details.push(QuestionDetail {
                question_id: q.question_id.clone(),
                question_type: q.question_type.clone(),
                question: q.question.clone(),
                evidence: evidence.clone(),
                retrieved: ranked.iter().map(|ids| (*ids).clone()).collect(),
                answer: reasoned,
            });
        }
    }
    for score in report.types.values_mut().chain(std::iter::once(&mut report.overall)) {
        let n = score.questions.max(1) as f64;
        for v in score.recall_at.values_mut().chain(score.session_any_at.values_mut()) {
            *v /= n;
        }
    }
    report.search_p50_ms = percentile(&search_ms, 50.0);
    report.search_p95_ms = percentile(&search_ms, 95.0);
    report.ingest_turns_per_sec = report.turns as f64 / ingest_secs.max(1e-9);
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Whether the newest session's evidence comes before every older evidence turn in the
/// ranking (and is in it at all).
fn newest_first(
    evidence: &[String],
    ranked: &[&Vec<String>],
    session_of: &HashMap<String, (String, DateTime<Utc>)>,
) -> bool {
    let Some(newest) = evidence
        .iter()
        .filter_map(|id| session_of.get(id))
        .map(|(_, at)| *at)
        .max()
    else {
        return false;
    };
    for ids in ranked {
        let dates: Vec<DateTime<Utc>> = ids
            .iter()
            .filter(|id| evidence.contains(id))
            .filter_map(|id| session_of.get(id).map(|(_, at)| *at))
            .collect();
        if dates.contains(&newest) {
            return true;
        }
        if !dates.is_empty() {
            return false;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_parse() {
        let d = parse_date("2023/05/28 (Sun) 12:58").expect("parses");
        assert_eq!(d.to_rfc3339(), "2023-05-28T12:58:00+00:00");
        assert!(parse_date("May 28").is_none());
    }

    #[test]
    fn keyword_only_run_on_a_tiny_pool() {
        let data = r#"[
          {"question_id":"q1","question_type":"knowledge-update","question":"How often do I see my therapist?",
           "answer":"every week","question_date":"2023/11/10 (Fri) 10:00",
           "haystack_session_ids":["s1","s2"],
           "haystack_dates":["2023/04/03 (Mon) 02:03","2023/11/03 (Fri) 08:08"],
           "haystack_sessions":[
             [{"role":"user","content":"I see my therapist every two weeks","has_answer":true},
              {"role":"assistant","content":"Good to hear."}],
             [{"role":"user","content":"Now I see my therapist every week","has_answer":true},
              {"role":"assistant","content":"Weekly sessions can help."}]]},
          {"question_id":"q2","question_type":"single-session-user","question":"What is my dog called?",
           "answer":"Rex","question_date":"2023/11/10 (Fri) 10:00",
           "haystack_session_ids":["s3"],"haystack_dates":["2023/06/01 (Thu) 09:00"],
           "haystack_sessions":[[{"role":"user","content":"My dog Rex loves the beach","has_answer":true}]]},
          {"question_id":"q3_abs","question_type":"single-session-user","question":"What is my cat called?",
           "answer":"unknown","question_date":"2023/11/10 (Fri) 10:00",
           "haystack_session_ids":["s3"],"haystack_dates":["2023/06/01 (Thu) 09:00"],
           "haystack_sessions":[[{"role":"user","content":"My dog Rex loves the beach"}]]}
        ]"#;
        let dir = tempfile::tempdir().expect("tempdir");
        let report = run(
            data,
            &Config::default(),
            None,
            dir.path(),
            &LongMemEvalOptions::default(),
            &mut |_| {},
        )
        .expect("runs");
        // s3 appears twice, ingested once.
        assert_eq!(report.sessions, 3);
        assert_eq!(report.turns, 5);
        assert_eq!(report.questions, 2);
        assert_eq!(report.abstention, 1);
        assert_eq!(report.types.get("single-session-user").map(|g| g.questions), Some(1));
        assert_eq!(report.overall.session_any_at.get(&5).copied(), Some(1.0));
        assert_eq!(report.knowledge_updates, 1);
        assert!(report.overall.recall_at.get(&10).is_some_and(|r| *r > 0.99));
    }
}
