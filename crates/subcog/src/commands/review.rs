//! `subcog review`

use clap::Args;
use subcog_core::ScopeKind;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// What consolidation decided that a person may want to check: every memory it marked
/// superseded, with the memory that replaced it and the reason (subject, old and new
/// value, the rule and its evidence). Undo one with `subcog update OLD --not-superseded`;
/// the next run will not redo it. With `--quarantined`: every memory held back because its
/// text reads as an instruction to the agent, with why; release one with
/// `subcog update ID --status active`. With `--withheld`: every live memory that hooks
/// leave out of what they inject because its learned score reaches `[quarantine]
/// context_bar`; `subcog update ID --status active` vouches for one. With `--screen`: an LLM (when one is configured)
/// reads the active memories it has not read yet and holds what it reads as an attack.
#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// Only entries whose reason or memories mention this text
    #[arg(long)]
    pub grep: Option<String>,
    /// List the memories held in quarantine instead of supersessions
    #[arg(long)]
    pub quarantined: bool,
    /// List the live memories hooks leave out of what they inject (they read like
    /// instructions to the agent; recall still finds them)
    #[arg(long, conflicts_with = "quarantined")]
    pub withheld: bool,
    /// Have the configured LLM screen the active memories it has not read yet, now
    /// (consolidation does this too; `[quarantine] llm`)
    #[arg(long, conflicts_with_all = ["quarantined", "withheld", "grep"])]
    pub screen: bool,
}

/// Runs `review`.
pub fn run(app: &App, args: ReviewArgs) -> CommandResult {
    if args.screen {
        return screen(app);
    }
    if args.quarantined {
        return quarantined(app, args.grep.as_deref());
    }
    if args.withheld {
        return withheld(app, args.grep.as_deref());
    }
    let subcog = app.subcog()?;
    let mut rows = Vec::new();
    for scope in [ScopeKind::Project, ScopeKind::User] {
        let Some(store) = subcog.store_for_read(scope)? else {
            continue;
        };
        for s in store.supersessions()? {
            let get = |id: &str| -> Option<subcog_core::model::Memory> {
                id.parse().ok().and_then(|id| store.get(&id).ok().flatten())
            };
            let (Some(old), Some(new)) = (get(&s.superseded_id), get(&s.superseder_id)) else {
                continue;
            };
            if let Some(needle) = &args.grep {
                let needle = needle.to_lowercase();
                let hay = format!("{} {} {}", old.content, new.content, s.reason).to_lowercase();
                if !hay.contains(&needle) {
                    continue;
                }
            }
            rows.push((scope, s, old, new));
        }
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.3.created_at));
    if app.json() {
        let out: Vec<serde_json::Value> = rows
            .iter()
            .map(|(scope, s, old, new)| {
                serde_json::json!({
                    "scope": scope.as_str(),
                    "superseded": output::memory_json(old, None),
                    "superseded_by": output::memory_json(new, None),
                    "kind": s.kind,
                    "confidence": s.confidence,
                    "method": s.method,
                    "reason": s.reason,
                })
            })
            .collect();
        return output::print_json(&serde_json::Value::Array(out));
    }
    if rows.is_empty() {
        return output::print("no supersessions to review (consolidation has not marked any memory superseded)\n");
    }
    let mut text = String::new();
    for (_, s, old, new) in &rows {
        text.push_str(&format!(
            "{} superseded by {}  [{}, {} {:.2}]\n  old: {}\n  new: {}\n  why: {}\n\n",
            output::paint(output::ID, &old.id.to_string()),
            output::paint(output::ID, &new.id.to_string()),
            s.kind,
            s.method,
            s.confidence,
            subcog_core::content::one_line(&old.content, 100),
            subcog_core::content::one_line(&new.content, 100),
            s.reason
        ));
    }
    text.push_str(&format!(
        "{} supersessions. Undo one: subcog update <old id> --not-superseded\n",
        rows.len()
    ));
    output::print(&text).map_err(|e: CommandError| e)
}

/// `review --screen`: one screening pass over every scope, and what it held.
fn screen(app: &App) -> CommandResult {
    let subcog = app.subcog()?;
    let Some(reports) = subcog.screen_all()? else {
        return Err(CommandError::user(
            "no LLM to screen with: configure a provider under [llm] (subcog llm check says which are available), \
             and keep [quarantine] llm on \"background\" or \"capture\"",
        ));
    };
    if app.json() {
        return output::print_json(&serde_json::json!({ "scopes": reports }));
    }
    let mut text = String::new();
    for r in &reports {
        text.push_str(&format!(
            "{}: screened {}, held {}{}\n",
            r.scope,
            r.screened,
            r.held.len(),
            if r.left > 0 {
                format!(", {} still unscreened (run again)", r.left)
            } else {
                String::new()
            }
        ));
        for id in &r.held {
            text.push_str(&format!("  held {}\n", output::paint(output::ID, id)));
        }
        for f in &r.failures {
            text.push_str(&format!("  failed: {f}\n"));
        }
    }
    if reports.iter().any(|r| !r.held.is_empty()) {
        text.push_str(
            "Why each is held: subcog review --quarantined. Release one: subcog update <id> --status active\n",
        );
    }
    output::print(&text)
}

/// `review --quarantined`: each held memory with the rule families it matched.
fn quarantined(app: &App, grep: Option<&str>) -> CommandResult {
    use subcog_core::model::Status;
    use subcog_core::store::{ListOrder, MemoryFilter};
    let filter = MemoryFilter {
        statuses: vec![Status::Quarantined],
        ..Default::default()
    };
    let subcog = app.subcog()?;
    let held: Vec<_> = subcog
        .list(&filter, ListOrder::NewestFirst, None)?
        .into_iter()
        .filter(|m| grep.is_none_or(|g| m.content.to_lowercase().contains(&g.to_lowercase())))
        .collect();
    // The rules again, else the learned judgement on the text's vector (when a model is
    // there), else the memory was held by rules or weights that have changed since.
    let embedder = if held.is_empty() { None } else { subcog.embedder() };
    let why = |m: &subcog_core::model::Memory| {
        subcog_core::quarantine::assess(&m.content)
            .or_else(|| subcog.screen_verdict(m))
            .map(|v| v.reasons)
            .or_else(|| {
                let e = embedder.as_ref()?;
                let vector = e.embed_one(&m.content).ok()?;
                subcog_core::quarantine::assess_meaning(e.model(), &vector).map(|v| v.reasons)
            })
            .unwrap_or_else(|| {
                vec![if embedder.is_some() {
                    "held when it was stored; neither the rules nor the learned judgement hold it now (they have changed since)".into()
                } else {
                    "held when it was stored; no rule holds it now, and the learned judgement's score needs the embedding model (`subcog model install`)".into()
                }]
            })
    };
    if app.json() {
        let rows: Vec<_> = held
            .iter()
            .map(|m| serde_json::json!({"memory": output::memory_json(m, None), "reasons": why(m)}))
            .collect();
        return output::print_json(&serde_json::Value::Array(rows));
    }
    if held.is_empty() {
        return output::print("no memories in quarantine\n");
    }
    let mut text = String::new();
    for m in &held {
        text.push_str(&format!(
            "{} [{}] {}\n  why: {}\n\n",
            output::paint(output::ID, &m.id.to_string()),
            m.namespace,
            subcog_core::content::one_line(&m.content, 200),
            why(m).join("; ")
        ));
    }
    text.push_str(&format!(
        "{} memories held back: never injected into sessions, recalled only with --status quarantined. \
         Release one: subcog update <id> --status active\n",
        held.len()
    ));
    output::print(&text)
}

/// `review --withheld`: each live memory hooks leave out, with its learned score and why.
fn withheld(app: &App, grep: Option<&str>) -> CommandResult {
    use subcog_core::model::Status;
    use subcog_core::store::{ListOrder, MemoryFilter};
    let filter = MemoryFilter {
        statuses: vec![Status::Active],
        ..Default::default()
    };
    let subcog = app.subcog()?;
    let live: Vec<_> = subcog
        .list(&filter, ListOrder::NewestFirst, None)?
        .into_iter()
        .filter(|m| grep.is_none_or(|g| m.content.to_lowercase().contains(&g.to_lowercase())))
        .collect();
    let scores = subcog.withheld(&live.iter().collect::<Vec<_>>());
    let bar = subcog.config().quarantine.context_bar;
    let rows: Vec<_> = live.iter().filter_map(|m| Some((m, *scores.get(&m.id)?))).collect();
    if app.json() {
        let rows: Vec<_> = rows
            .iter()
            .map(|(m, s)| {
                serde_json::json!({"memory": output::memory_json(m, None), "score": s, "bar": bar, "names_harm": *s < bar})
            })
            .collect();
        return output::print_json(&serde_json::Value::Array(rows));
    }
    if rows.is_empty() {
        return output::print(&format!(
            "no live memory is withheld from sessions (learned score below {bar} for every one, and below {} for those that name harm)\n",
            bar * subcog_core::withhold::HARM_SHARE
        ));
    }
    let mut text = String::new();
    for (m, score) in &rows {
        let why = if *score < bar {
            let half = bar * subcog_core::withhold::HARM_SHARE;
            format!("learned score {score:.2}, and it names harm as an order would (the bar for such text is {half})")
        } else {
            format!("learned score {score:.2} (the bar is {bar})")
        };
        text.push_str(&format!(
            "{} [{}] {}\n  {why}\n\n",
            output::paint(output::ID, &m.id.to_string()),
            m.namespace,
            subcog_core::content::one_line(&m.content, 200),
        ));
    }
    text.push_str(&format!(
        "{} memories read like instructions to the agent: hooks leave them out of session context and prompt recall; \
         recall still finds them. Vouch for one: subcog update <id> --status active\n",
        rows.len()
    ));
    output::print(&text)
}
