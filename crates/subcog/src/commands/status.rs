//! `subcog status`

use clap::Args;
use std::collections::BTreeMap;

use crate::app::App;
use crate::command_error::CommandResult;
use crate::output;

/// Counts by namespace, tier, domain and status; where the data lives; schema version.
#[derive(Debug, Args)]
pub struct StatusArgs {}

/// Runs `status`.
pub fn run(app: &App, _args: StatusArgs) -> CommandResult {
    let report = app.subcog()?.status()?;
    let integration = integration(app)?;
    if app.json() {
        let mut v = report_json(&report);
        if let Some(map) = v.as_object_mut() {
            map.insert("claude_code".into(), integration.json.clone());
            map.insert("llm".into(), integration.llm_json.clone());
            map.insert("warnings".into(), serde_json::json!(integration.warnings));
        }
        return output::print_json(&v);
    }
    let mut out = String::new();
    let mut rows = vec![
        vec!["project".into(), report.project_root.display().to_string()],
        vec!["data dir".into(), report.data_dir.display().to_string()],
        vec!["schema".into(), format!("version {}", report.schema_version)],
        vec![
            "recall".into(),
            match &report.semantic_unavailable {
                None => format!("semantic + keyword (model {})", report.model_dir.display()),
                Some(why) => format!("keyword only: {why}"),
            },
        ],
    ];
    for s in &report.scopes {
        let what = match &s.stats {
            Some(st) => format!(
                "{} memories, {} KiB  {}",
                st.total,
                st.size_bytes.div_ceil(1024),
                s.store.clone().unwrap_or_else(|| s.path.display().to_string())
            ),
            None => format!("empty  {}", s.path.display()),
        };
        rows.push(vec![format!("{} store", s.scope.as_str()), what]);
        if let Some((repo, n)) = &s.notes {
            rows.push(vec![
                format!("{} notes", s.scope.as_str()),
                format!("{n} memory notes  {}", repo.display()),
            ]);
        }
    }
    if report.missing_embeddings > 0 {
        rows.push(vec![
            "embeddings".into(),
            format!(
                "{} memories have no vector: run `subcog reindex --embeddings`",
                report.missing_embeddings
            ),
        ]);
    }
    rows.extend(integration.rows.iter().cloned());
    out.push_str(&output::table(&rows, &[output::HEADING]));
    for w in &integration.warnings {
        out.push_str(&format!("{} {w}\n", output::paint(output::WARN, "warning:")));
    }
    for (title, counts) in [
        ("namespaces", &report.by_namespace),
        ("tiers", &report.by_tier),
        ("domains", &report.by_domain),
        ("statuses", &report.by_status),
        ("embeddings", &report.embeddings),
    ] {
        out.push('\n');
        out.push_str(&output::paint(output::HEADING, title));
        out.push('\n');
        out.push_str(&counts_table(counts));
    }
    output::print(&out)
}

/// What `status` says about Claude Code and the LLM beyond the store's counts.
struct Integration {
    rows: Vec<Vec<String>>,
    warnings: Vec<String>,
    json: serde_json::Value,
    llm_json: serde_json::Value,
}

/// Hook registrations (and double ones, seen in the files or at run time) and which LLM
/// provider consolidation would use, with why.
fn integration(app: &App) -> Result<Integration, crate::command_error::CommandError> {
    use subcog_core::hooks::state;
    let mut rows = Vec::new();
    let mut warnings = Vec::new();
    let (found, double) = app.hook_registrations()?;
    rows.push(vec![
        "claude code hooks".into(),
        if found.is_empty() {
            "not registered (run `subcog init`, or install the plugin)".to_string()
        } else {
            found
                .iter()
                .map(|r| format!("{} ({})", r.place, r.path.display()))
                .collect::<Vec<_>>()
                .join("; ")
        },
    ]);
    warnings.extend(double.clone());
    let last_double = app
        .data_dir()
        .ok()
        .and_then(|d| state::last_duplicate(&d.join("hooks")));
    if let Some(d) = &last_double {
        warnings.push(format!(
            "at {} the {} hook ran twice (through {} and {}): subcog answered once; remove one registration",
            d.at, d.event, d.first, d.second
        ));
    }
    if let Ok(dir) = app.data_dir() {
        let exposed = subcog_core::private::exposed(&dir);
        if let Some(first) = exposed.first() {
            warnings.push(format!(
                "{} path(s) in the data directory can be read by other users, e.g. {} (mode {:o}): \
                 run `chmod -R go-rwx {}`",
                exposed.len(),
                first.path.display(),
                first.mode,
                dir.display()
            ));
        }
    }
    let subcog = app.subcog()?;
    let (requested, checks) = subcog.llm_providers("auto")?;
    let used: Vec<&str> = checks.iter().filter(|c| c.used).map(|c| c.name.as_str()).collect();
    rows.push(vec![
        "consolidation llm".into(),
        if used.is_empty() {
            format!("none (offline path; provider = {requested})")
        } else {
            format!("{} (provider = {requested})", used.join(", "))
        },
    ]);
    for c in &checks {
        rows.push(vec![
            format!("  {}", c.name),
            format!("{}: {}", if c.used { "used" } else { "not used" }, c.reason),
        ]);
    }
    Ok(Integration {
        rows,
        warnings,
        json: serde_json::json!({
            "hooks": found,
            "double_registration": double,
            "last_duplicate_run": last_double,
        }),
        llm_json: serde_json::json!({
            "provider": requested,
            "used": used,
            "providers": checks,
        }),
    })
}

/// The report as JSON (the CLI's `--json` and the MCP server's `status`).
pub fn report_json(report: &subcog_core::manage::StatusReport) -> serde_json::Value {
    let scopes: Vec<serde_json::Value> = report
        .scopes
        .iter()
        .map(|s| {
            serde_json::json!({
                "scope": s.scope.as_str(),
                "path": s.path,
                "store": s.store,
                "exists": s.stats.is_some(),
                "total": s.stats.as_ref().map(|st| st.total).unwrap_or(0),
                "schema_version": s.stats.as_ref().map(|st| st.schema_version),
                "size_bytes": s.stats.as_ref().map(|st| st.size_bytes).unwrap_or(0),
                "notes_repository": s.notes.as_ref().map(|(p, _)| p),
                "notes": s.notes.as_ref().map(|(_, n)| n),
            })
        })
        .collect();
    serde_json::json!({
        "data_dir": report.data_dir,
        "project_root": report.project_root,
        "schema_version": report.schema_version,
        "semantic": report.semantic,
        "semantic_unavailable": report.semantic_unavailable,
        "model_dir": report.model_dir,
        "embeddings": report.embeddings,
        "missing_embeddings": report.missing_embeddings,
        "scopes": scopes,
        "by_namespace": report.by_namespace,
        "by_tier": report.by_tier,
        "by_domain": report.by_domain,
        "by_status": report.by_status,
    })
}

fn counts_table(counts: &BTreeMap<String, u64>) -> String {
    if counts.is_empty() {
        return "  (none)\n".into();
    }
    let rows: Vec<Vec<String>> = counts
        .iter()
        .map(|(k, v)| vec![format!("  {k}"), v.to_string()])
        .collect();
    output::table(&rows, &[])
}
