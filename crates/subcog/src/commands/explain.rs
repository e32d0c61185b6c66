//! `subcog explain`

use clap::Args;
use subcog_core::config::RetrievalMode;
use subcog_core::explain::{MemoryExplanation, QueryExplanation};
use subcog_core::recall::{ChannelScore, RecallQuery};

use super::filters::FilterArgs;
use crate::app::App;
use crate::command_error::CommandResult;
use crate::output;

/// Why a memory is where it is, or why a query did or did not return it.
///
/// Without --query: its retention factors (as stored and as they stand now) and the tier
/// they earn, its tier history, what replaced it or what it replaced and why, its edges,
/// its cluster's summary, and the last sessions it was injected into and recalls that
/// returned it (this machine, 90 days).
///
/// With --query: the memory's rank in each channel (keywords, meaning, time) with filters
/// aside, each filter the recall applies, the limit and candidate cut-offs, and a verdict.
/// Nothing is touched: an explanation is not an access.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The memory's id (or the short id session context shows)
    pub id: String,
    /// Explain this query's result for the memory
    #[arg(long, value_name = "QUERY")]
    pub query: Option<String>,
    /// The recall's limit (default: recall.default_limit)
    #[arg(short = 'l', long, requires = "query")]
    pub limit: Option<usize>,
    /// The recall's mode (default: recall.default_mode)
    #[arg(long, requires = "query")]
    pub mode: Option<RetrievalMode>,
    /// The recall's filters.
    #[command(flatten)]
    pub filters: FilterArgs,
}

/// Runs `explain`.
pub fn run(app: &App, args: ExplainArgs) -> CommandResult {
    let subcog = app.subcog()?;
    let id = subcog.resolve_id(&args.id)?;
    if let Some(query) = &args.query {
        let q = RecallQuery {
            query: query.clone(),
            filter: args.filters.to_filter(subcog.clock().now())?,
            limit: args.limit,
            mode: args.mode,
            no_touch: true,
        };
        let e = subcog.explain_query(&id, &q)?;
        if app.json() {
            return output::print_json(&serde_json::to_value(&e).unwrap_or_default());
        }
        return output::print(&render_query(&e));
    }
    let e = subcog.explain(&id)?;
    if app.json() {
        return output::print_json(&serde_json::to_value(&e).unwrap_or_default());
    }
    output::print(&render(&e))
}

fn channel(c: Option<ChannelScore>) -> String {
    match c {
        // BM25 scores of a small store are tiny: keep their significant digits.
        Some(c) if c.score != 0.0 && c.score.abs() < 0.001 => format!("rank {} (score {:.2e})", c.rank, c.score),
        Some(c) => format!("rank {} (score {:.3})", c.rank, c.score),
        None => "no match".into(),
    }
}

fn render_query(e: &QueryExplanation) -> String {
    let mut rows = vec![
        vec!["memory".into(), e.id.clone()],
        vec!["query".into(), format!("{} (terms: {})", e.query, e.terms.join(" "))],
        vec!["verdict".into(), e.verdict.clone()],
        vec!["keywords".into(), channel(e.bm25)],
        vec![
            "meaning".into(),
            match &e.semantic_unavailable {
                Some(why) if e.vector.is_none() => format!("unavailable: {why}"),
                _ => channel(e.vector),
            },
        ],
        vec!["time".into(), channel(e.time)],
        vec![
            "cut-offs".into(),
            format!("{} results; {} candidates per channel", e.limit, e.candidates),
        ],
    ];
    for f in &e.filters {
        rows.push(vec![
            format!("filter {}", f.filter),
            format!("{}  {}", if f.passes { "passes" } else { "FAILS" }, f.detail),
        ]);
    }
    output::table(&rows, &[output::HEADING])
}

fn render(e: &MemoryExplanation) -> String {
    let m = &e.memory;
    let r = &e.retention;
    let mut out = String::new();
    let rows = vec![
        vec!["memory".into(), format!("{} ({} scope)", m.id, e.scope)],
        vec!["summary".into(), m.summary.clone()],
        vec!["status".into(), format!("{}, tier {}", m.status, m.tier)],
        vec![
            "retention".into(),
            format!(
                "{:.3} stored, {:.3} now -> {}{}",
                r.stored.overall,
                r.now.overall,
                r.tier_now,
                if r.pinned { " (pinned: never below WARM)" } else { "" }
            ),
        ],
        vec![
            "  recency".into(),
            format!(
                "{:.3} x weight {:.2}  ({:.1} days since created or recalled; half-life {} days)",
                r.now.recency, r.weights[0], r.age_days, r.half_life_days
            ),
        ],
        vec![
            "  activation".into(),
            format!(
                "{:.3} x weight {:.2}  ({} recalls)",
                r.now.activation, r.weights[1], m.activation_count
            ),
        ],
        vec![
            "  importance".into(),
            format!(
                "{:.3} x weight {:.2}  (namespace {})",
                r.now.importance, r.weights[2], m.namespace
            ),
        ],
        vec![
            "  supersession".into(),
            format!(
                "{:.3} x weight {:.2}, subtracted",
                r.now.supersession_penalty, r.weights[3]
            ),
        ],
        vec![
            "  thresholds".into(),
            format!(
                "HOT >= {}, WARM >= {}, archived below {}",
                r.thresholds[0], r.thresholds[1], r.thresholds[2]
            ),
        ],
    ];
    out.push_str(&output::table(&rows, &[output::HEADING]));
    let section = |out: &mut String, title: &str, lines: Vec<String>| {
        out.push('\n');
        out.push_str(&output::paint(output::HEADING, title));
        out.push('\n');
        if lines.is_empty() {
            out.push_str("  (none)\n");
        }
        for l in lines {
            out.push_str(&format!("  {l}\n"));
        }
    };
    section(
        &mut out,
        "tier history",
        e.tier_history
            .iter()
            .map(|t| {
                format!(
                    "{}  {} -> {}  {} (run {})",
                    t.at.format("%Y-%m-%d %H:%M"),
                    t.transition.from_tier,
                    t.transition.to_tier,
                    t.transition.reason,
                    t.run_id
                )
            })
            .collect(),
    );
    let mut sup = Vec::new();
    if let Some(s) = &e.superseded_by {
        sup.push(format!(
            "replaced by {} ({}, confidence {:.2}, {}): {}",
            s.superseder_id, s.kind, s.confidence, s.method, s.reason
        ));
    }
    for s in &e.supersedes {
        sup.push(format!(
            "replaces {} ({}, confidence {:.2}, {}): {}",
            s.superseded_id, s.kind, s.confidence, s.method, s.reason
        ));
    }
    section(&mut out, "supersession", sup);
    section(
        &mut out,
        "edges",
        e.edges
            .iter()
            .map(|edge| {
                format!(
                    "{} -{}-> {} ({:.2}): {}",
                    edge.source_id, edge.edge_type, edge.target_id, edge.weight, edge.reason
                )
            })
            .collect(),
    );
    section(
        &mut out,
        "cluster",
        match (&m.cluster_id, &e.summary) {
            (Some(c), Some(s)) => vec![format!("{c}: {} ({})", s.title, s.id), s.summary.clone()],
            (Some(c), None) => vec![format!("{c} (no summary written)")],
            _ => Vec::new(),
        },
    );
    let activity = |records: &[subcog_core::activity::ActivityRecord]| -> Vec<String> {
        records
            .iter()
            .map(|a| {
                let mut line = format!(
                    "{}  {} #{} ({:.3})",
                    a.at.format("%Y-%m-%d %H:%M"),
                    a.via,
                    a.rank,
                    a.score
                );
                if let Some(s) = &a.session {
                    line.push_str(&format!("  session {s}"));
                }
                if let Some(q) = &a.query {
                    line.push_str(&format!("  {q:?}"));
                }
                line
            })
            .collect()
    };
    section(
        &mut out,
        &format!("injected into sessions ({} kept)", e.injected_count),
        activity(&e.injections),
    );
    section(
        &mut out,
        &format!("returned by recalls ({} kept)", e.recalled_count),
        activity(&e.recalls),
    );
    if let Some(why) = &e.activity_unavailable {
        out.push_str(&format!(
            "\n{} {why}\n",
            output::paint(output::WARN, "activity unreadable:")
        ));
    }
    out
}
