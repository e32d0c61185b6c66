//! `subcog metrics`

use clap::Args;

use crate::app::App;
use crate::command_error::CommandResult;
use crate::output;

/// Operations subcog ran on this machine: counts, failures and durations, from the rolling
/// summary every process adds to (hooks, commands, the MCP server, the daemon), and LLM
/// tokens and cost. Kept 90 days in `activity.db`; a live Prometheus view is served by
/// `subcog mcp --http` at `/metrics`.
#[derive(Debug, Args)]
pub struct MetricsArgs {
    /// How far back, in hours
    #[arg(long, default_value_t = 24)]
    pub hours: u32,
}

/// Runs `metrics`.
pub fn run(app: &App, args: MetricsArgs) -> CommandResult {
    let subcog = app.subcog()?;
    let since = subcog.clock().now() - chrono::Duration::hours(i64::from(args.hours));
    let rows = subcog_core::metrics::summary(subcog.activity(), since).map_err(subcog_core::Error::from)?;
    if app.json() {
        return output::print_json(&serde_json::json!({
            "since": since,
            "operations": rows,
        }));
    }
    if rows.is_empty() {
        return output::print(&format!("nothing recorded in the last {} hours\n", args.hours));
    }
    let mut table = vec![vec![
        "operation".to_string(),
        "count".into(),
        "failures".into(),
        "mean ms".into(),
        "max ms".into(),
    ]];
    let mut llm = None;
    for r in &rows {
        if r.name == "llm.usage" {
            llm = Some(r);
            continue;
        }
        table.push(vec![
            r.name.clone(),
            r.count.to_string(),
            r.failures.to_string(),
            format!("{:.1}", r.mean_ms),
            format!("{:.1}", r.max_ms),
        ]);
    }
    let mut out = output::table(&table, &[output::HEADING]);
    if let Some(l) = llm {
        out.push_str(&format!("\nLLM: {} tokens, ${:.4} estimated\n", l.count, l.total));
    }
    output::print(&out)
}
