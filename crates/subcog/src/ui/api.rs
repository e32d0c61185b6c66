//! The API of the viewer's everyday screens: the overview, search with explanations,
//! browsing by namespace, tier, status and time, a memory's page (`Subcog::explain`),
//! edit and delete.
//!
//! Edits and deletes call what `subcog update` and `subcog delete` call, with the same
//! checks (nothing to change is refused, a hard delete needs `yes`), so redaction,
//! validation and quarantine screening apply as they do on the command line.

use std::collections::BTreeMap;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::Uri;
use axum::routing::get;
use serde::Deserialize;
use serde_json::{Value, json};
use subcog_core::Subcog;
use subcog_core::consolidate::LlmMode;
use subcog_core::manage::UpdateRequest;
use subcog_core::model::{BUILTIN_NAMESPACES, Memory, MemoryId, Priority, Status, Tier};
use subcog_core::recall::RecallQuery;
use subcog_core::store::ListOrder;

use super::Ui;
use super::query::{ApiResult, Params, blocking};
use crate::command_error::CommandError;
use crate::output;

/// Most memories one list or search answers with.
const MAX_LIMIT: usize = 200;

/// The routes of this file.
pub fn routes() -> Router<Ui> {
    Router::new()
        .route("/api/overview", get(overview))
        .route("/api/search", get(search))
        .route("/api/memories", get(list))
        .route("/api/memories/{id}", get(memory).patch(update).delete(delete))
        .route("/api/memories/{id}/explain", get(explain))
}

/// Counts by namespace, tier, status and domain; the namespaces an edit may choose from.
async fn overview(State(ui): State<Ui>) -> ApiResult {
    blocking(&ui.subcog, |s| {
        let status = s.status()?;
        let mut namespaces: Vec<String> = BUILTIN_NAMESPACES.iter().map(|n| n.to_string()).collect();
        namespaces.extend(s.config().namespaces.custom.iter().cloned());
        namespaces.extend(status.by_namespace.keys().cloned());
        namespaces.sort();
        namespaces.dedup();
        Ok(json!({
            "version": env!("CARGO_PKG_VERSION"),
            "project_root": status.project_root,
            "by_namespace": status.by_namespace,
            "by_tier": Tier::ALL.iter().map(|t| (t.as_str(), status.by_tier.get(t.as_str()).copied().unwrap_or(0))).collect::<BTreeMap<_, _>>(),
            "by_status": status.by_status,
            "by_domain": status.by_domain,
            "semantic": status.semantic,
            "semantic_unavailable": status.semantic_unavailable,
            "namespaces": namespaces,
        }))
    })
    .await
}

/// Recall as `subcog recall --explain --no-touch` answers it: looking is not using, so the
/// viewer leaves activation counts alone. A question about time also gets the offline
/// reasoned answer, as the CLI gives it.
async fn search(State(ui): State<Ui>, uri: Uri) -> ApiResult {
    let params = Params::of(&uri);
    blocking(&ui.subcog, move |s| {
        let started = std::time::Instant::now();
        let text = params.get("q").unwrap_or_default().to_string();
        if text.is_empty() {
            return Err(CommandError::user("search needs a query (q=…)"));
        }
        let query = RecallQuery {
            query: text.clone(),
            filter: params.filter(s.clock().now())?,
            limit: Some(
                params
                    .number("limit", s.config().recall.default_limit)?
                    .clamp(1, MAX_LIMIT),
            ),
            mode: params.get("mode").map(str::parse).transpose()?,
            no_touch: true,
        };
        let result = s.recall(&query)?;
        let answer = if s.config().temporal.auto_reason && subcog_core::temporal::answer::needs_reasoning(&text) {
            Some(s.answer_from(&text, &result, LlmMode::Off)?)
        } else {
            None
        };
        Ok(json!({
            "query": text,
            "terms": result.terms,
            "mode": result.mode,
            "semantic": result.semantic,
            "semantic_unavailable": result.semantic_unavailable,
            "time_range": result.time_range.map(|(a, b)| json!({"start": a, "end": b})),
            "answer": answer,
            "results": result.results.iter().map(|hit| {
                let mut v = output::memory_json(&hit.memory, Some(hit.score));
                v["explain"] = serde_json::to_value(&hit.explain).unwrap_or_default();
                v
            }).collect::<Vec<_>>(),
            "took_ms": started.elapsed().as_secs_f64() * 1000.0,
        }))
    })
    .await
}

/// A page of memories, newest (or oldest) first, filtered as `subcog list` filters. The
/// next page starts after `after` (the id of the last memory shown).
async fn list(State(ui): State<Ui>, uri: Uri) -> ApiResult {
    let params = Params::of(&uri);
    blocking(&ui.subcog, move |s| {
        let mut filter = params.filter(s.clock().now())?;
        let limit = params.number("limit", 50)?.clamp(1, MAX_LIMIT);
        let oldest = params.get("order") == Some("oldest");
        let after = params.get("after").map(|a| s.get(&s.resolve_id(a)?)).transpose()?;
        // Rows created at the cursor's instant may hold more than the one shown: take them
        // all again and drop the ones at or before the cursor in list order.
        if let Some(last) = &after {
            let at = last.created_at;
            if oldest {
                filter.since = Some(filter.since.map_or(at, |s| s.max(at)));
            } else {
                let bound = at + chrono::Duration::microseconds(1);
                filter.until = Some(filter.until.map_or(bound, |u| u.min(bound)));
            }
        }
        let order = if oldest {
            ListOrder::OldestFirst
        } else {
            ListOrder::NewestFirst
        };
        let mut memories = s.list(&filter, order, Some(limit * 2 + 1))?;
        if let Some(last) = &after {
            let key = (last.created_at, last.id);
            memories.retain(|m| {
                if oldest {
                    (m.created_at, m.id) > key
                } else {
                    (m.created_at, m.id) < key
                }
            });
        }
        let more = memories.len() > limit;
        memories.truncate(limit);
        Ok(json!({
            "results": memories.iter().map(|m| output::memory_json(m, None)).collect::<Vec<_>>(),
            "more": more,
        }))
    })
    .await
}

/// One memory, every field (what `subcog get --json` prints).
async fn memory(State(ui): State<Ui>, Path(id): Path<String>) -> ApiResult {
    blocking(&ui.subcog, move |s| {
        let memory = s.get(&s.resolve_id(&id)?)?;
        Ok(output::memory_json(&memory, None))
    })
    .await
}

/// A memory's page: `Subcog::explain` (what `subcog explain ID --json` reads: retention
/// factors, tier history, supersession either way, edges, cluster summary, the last
/// injections and recalls), with the memories it names labelled for links.
async fn explain(State(ui): State<Ui>, Path(id): Path<String>) -> ApiResult {
    blocking(&ui.subcog, move |s| explain_page(s, &id)).await
}

fn explain_page(s: &Subcog, text: &str) -> Result<Value, CommandError> {
    let id = s.resolve_id(text)?;
    let e = s.explain(&id)?;
    let key = id.to_string();
    let mut page = serde_json::to_value(&e).map_err(CommandError::internal)?;
    page["memory"] = output::memory_json(&e.memory, None);
    page["handle"] = json!(id.handle());
    // Oldest first, as a history reads.
    let mut transitions = e.tier_history.clone();
    transitions.sort_by_key(|t| t.at);
    page["tier_history"] = serde_json::to_value(&transitions).map_err(CommandError::internal)?;
    // A replacement without its record (set by hand, or the record is gone) still shows.
    page["superseded_by"] = match (&e.superseded_by, e.memory.superseded_by) {
        (Some(r), _) => json!({"memory": node_brief(s, &r.superseder_id), "record": r}),
        (None, Some(newer)) => json!({"memory": node_brief(s, &newer.to_string()), "record": null}),
        (None, None) => Value::Null,
    };
    page["supersedes"] = e
        .supersedes
        .iter()
        .map(|r| json!({"memory": node_brief(s, &r.superseded_id), "record": r}))
        .collect();
    // `as_str`, the name the CLI prints (serde's lowercase drops the underscore).
    page["edges"] = e
        .edges
        .iter()
        .map(|edge| {
            let outgoing = edge.source_id == key;
            let other = if outgoing { &edge.target_id } else { &edge.source_id };
            json!({"edge": edge, "type": edge.edge_type.as_str(), "outgoing": outgoing, "other": node_brief(s, other)})
        })
        .collect();
    Ok(page)
}

/// A memory (with its summary as the label) or a cluster summary, for a link.
fn node_brief(s: &Subcog, node: &str) -> Value {
    match node.parse::<MemoryId>() {
        Ok(id) => match s.find(&id).ok().flatten() {
            Some((_, m)) => json!({"id": node, "kind": "memory", "label": m.summary, "namespace": m.namespace}),
            None => json!({"id": node, "kind": "memory", "label": "(not found)"}),
        },
        Err(_) => json!({"id": node, "kind": "summary", "label": node}),
    }
}

/// The fields the edit form may change; those left out stay as they are.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Edit {
    content: Option<String>,
    summary: Option<String>,
    namespace: Option<String>,
    tags: Option<Vec<String>>,
    source: Option<String>,
    importance: Option<f32>,
    priority: Option<Priority>,
    status: Option<Status>,
    #[serde(default)]
    allow_new_namespace: bool,
    #[serde(default)]
    not_superseded: bool,
}

/// `subcog update` from the edit form.
async fn update(State(ui): State<Ui>, Path(id): Path<String>, body: Bytes) -> ApiResult {
    let edit: Edit =
        serde_json::from_slice(&body).map_err(|e| CommandError::user(format!("the edit is not valid JSON: {e}")))?;
    blocking(&ui.subcog, move |s| {
        let request = UpdateRequest {
            content: edit.content,
            summary: edit.summary,
            namespace: edit.namespace,
            tags: edit.tags,
            add_tags: Vec::new(),
            remove_tags: Vec::new(),
            source: edit.source,
            importance: edit.importance,
            priority: edit.priority,
            status: edit.status,
            allow_new_namespace: edit.allow_new_namespace,
            not_superseded: edit.not_superseded,
        };
        if request.is_empty() {
            return Err(CommandError::user("nothing to update: change at least one field"));
        }
        let memory: Memory = s.update(&s.resolve_id(&id)?, request)?;
        Ok(output::memory_json(&memory, None))
    })
    .await
}

/// `subcog delete`: soft unless `hard=true`, which needs `yes=true` as `--hard` needs `--yes`.
async fn delete(State(ui): State<Ui>, Path(id): Path<String>, uri: Uri) -> ApiResult {
    let params = Params::of(&uri);
    let hard = params.flag("hard");
    if hard && !params.flag("yes") {
        return Err(CommandError::user(
            "refusing to delete for good without yes=true (or drop hard for a soft delete)",
        )
        .into());
    }
    blocking(&ui.subcog, move |s| {
        let id = s.resolve_id(&id)?;
        let m = if hard { s.delete_hard(&id)? } else { s.delete_soft(&id)? };
        Ok(json!({"hard": hard, "deleted": [m.id]}))
    })
    .await
}
