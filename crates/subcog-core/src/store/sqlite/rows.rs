//! Mapping between `memories` rows and [`Memory`] values, and filter → SQL translation.

use rusqlite::Row;
use rusqlite::types::Value;

use crate::model::{Memory, MemoryId, Namespace, RetentionScore, SearchHit};
use crate::store::{MemoryFilter, StoreError};
use crate::timestamp;

/// The memory columns, in the order [`from_row`] reads them.
pub(crate) const COLUMNS: &[&str] = &[
    "id",
    "content",
    "summary",
    "namespace",
    "domain",
    "tags",
    "source",
    "importance",
    "priority",
    "created_by",
    "created_at",
    "updated_at",
    "status",
    "content_hash",
    "tier",
    "retention_score",
    "retention_recency",
    "retention_activation",
    "retention_importance",
    "retention_penalty",
    "activation_count",
    "last_accessed",
    "superseded_by",
    "cluster_id",
    "context",
    "time_refs",
    "not_superseded_by",
];

/// The columns `Store::update` writes: what users edit. Activation and enrichment are
/// written by recall and consolidation through their own methods.
pub(crate) const EDITABLE: &[&str] = &[
    "content",
    "summary",
    "namespace",
    "tags",
    "source",
    "importance",
    "priority",
    "updated_at",
    "status",
    "content_hash",
    "context",
    "time_refs",
    "not_superseded_by",
    "superseded_by",
];

/// `m.id, m.content, ...` for a SELECT.
pub(crate) fn select_list(alias: &str) -> String {
    COLUMNS
        .iter()
        .map(|c| format!("{alias}.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Values for every column of [`COLUMNS`], in order.
pub(crate) fn to_values(m: &Memory) -> Vec<Value> {
    let text = |s: &str| Value::Text(s.to_string());
    let opt_text = |s: Option<String>| s.map(Value::Text).unwrap_or(Value::Null);
    vec![
        text(&m.id.to_string()),
        text(&m.content),
        text(&m.summary),
        text(m.namespace.as_str()),
        text(m.domain.as_str()),
        Value::Text(serde_json::to_string(&m.tags).unwrap_or_else(|_| "[]".into())),
        opt_text(m.source.clone()),
        m.importance.map(|v| Value::Real(f64::from(v))).unwrap_or(Value::Null),
        text(m.priority.as_str()),
        text(&m.created_by),
        text(&timestamp::to_storage(m.created_at)),
        text(&timestamp::to_storage(m.updated_at)),
        text(m.status.as_str()),
        text(&m.content_hash),
        text(m.tier.as_str()),
        Value::Real(f64::from(m.retention.overall)),
        Value::Real(f64::from(m.retention.recency)),
        Value::Real(f64::from(m.retention.activation)),
        Value::Real(f64::from(m.retention.importance)),
        Value::Real(f64::from(m.retention.supersession_penalty)),
        Value::Integer(i64::try_from(m.activation_count).unwrap_or(i64::MAX)),
        opt_text(m.last_accessed.map(timestamp::to_storage)),
        opt_text(m.superseded_by.map(|id| id.to_string())),
        opt_text(m.cluster_id.clone()),
        opt_text(m.context.clone()),
        Value::Text(serde_json::to_string(&m.time_refs).unwrap_or_else(|_| "[]".into())),
        if m.not_superseded_by.is_empty() {
            Value::Null
        } else {
            Value::Text(serde_json::to_string(&m.not_superseded_by).unwrap_or_else(|_| "[]".into()))
        },
    ]
}

/// The columns [`hit_from_row`] reads, over alias `m`: what ranking needs (the content
/// only for the entities it names).
pub(crate) const HIT_COLUMNS: &str = "m.id, m.created_at, m.tags, m.superseded_by, m.content";
/// How many columns [`HIT_COLUMNS`] names (a query's extra value comes next).
pub(crate) const HIT_COLUMN_COUNT: usize = 5;

/// Reads a search hit from a row whose first columns are [`HIT_COLUMNS`], with `score`.
pub(crate) fn hit_from_row(path: &str, row: &Row<'_>, score: f64) -> Result<SearchHit, StoreError> {
    let id_text: String = get(path, "?", row, 0)?;
    let bad = |message: String| StoreError::BadRow {
        path: path.to_string(),
        id: id_text.clone(),
        message,
    };
    let created: String = get_named(path, &id_text, row, 1, "created_at")?;
    let tags: String = get_named(path, &id_text, row, 2, "tags")?;
    let superseded_by: Option<String> = get_named(path, &id_text, row, 3, "superseded_by")?;
    let content: String = get_named(path, &id_text, row, 4, "content")?;
    Ok(SearchHit {
        content,
        id: id_text.parse::<MemoryId>().map_err(|e| bad(e.to_string()))?,
        score,
        created_at: timestamp::from_storage(&created).ok_or_else(|| bad(format!("bad timestamp {created:?}")))?,
        tags: serde_json::from_str(&tags).map_err(|e| bad(format!("bad tags: {e}")))?,
        superseded_by: superseded_by
            .map(|s| s.parse::<MemoryId>().map_err(|e| bad(e.to_string())))
            .transpose()?,
    })
}

fn get_named<T: rusqlite::types::FromSql>(
    path: &str,
    id: &str,
    row: &Row<'_>,
    i: usize,
    column: &str,
) -> Result<T, StoreError> {
    row.get(i).map_err(|e| StoreError::BadRow {
        path: path.to_string(),
        id: id.to_string(),
        message: format!("column {column}: {e}"),
    })
}

/// Reads a memory from a row whose first columns are [`COLUMNS`].
pub(crate) fn from_row(path: &str, row: &Row<'_>) -> Result<Memory, StoreError> {
    let id_text: String = get(path, "?", row, 0)?;
    let bad = |message: String| StoreError::BadRow {
        path: path.to_string(),
        id: id_text.clone(),
        message,
    };
    let parse_ts = |text: String| timestamp::from_storage(&text).ok_or_else(|| bad(format!("bad timestamp {text:?}")));
    let tags_json: String = get(path, &id_text, row, 5)?;
    let importance: Option<f64> = get(path, &id_text, row, 7)?;
    let last_accessed: Option<String> = get(path, &id_text, row, 21)?;
    let superseded_by: Option<String> = get(path, &id_text, row, 22)?;
    let activation: i64 = get(path, &id_text, row, 20)?;
    let time_refs: Option<String> = get(path, &id_text, row, 25)?;
    let not_superseded_by: Option<String> = get(path, &id_text, row, 26)?;
    let real = |i: usize| -> Result<f32, StoreError> { get::<f64>(path, &id_text, row, i).map(|v| v as f32) };
    let mut memory = Memory {
        id: id_text.parse::<MemoryId>().map_err(|e| bad(e.to_string()))?,
        content: get(path, &id_text, row, 1)?,
        summary: get(path, &id_text, row, 2)?,
        namespace: Namespace::parse(&get::<String>(path, &id_text, row, 3)?).map_err(|e| bad(e.to_string()))?,
        domain: get::<String>(path, &id_text, row, 4)?
            .parse()
            .map_err(|e: crate::model::ValidationError| bad(e.to_string()))?,
        tags: serde_json::from_str(&tags_json).map_err(|e| bad(format!("bad tags: {e}")))?,
        source: get(path, &id_text, row, 6)?,
        importance: importance.map(|v| v as f32),
        priority: get::<String>(path, &id_text, row, 8)?
            .parse()
            .map_err(|e: crate::model::ValidationError| bad(e.to_string()))?,
        created_by: get(path, &id_text, row, 9)?,
        created_at: parse_ts(get(path, &id_text, row, 10)?)?,
        updated_at: parse_ts(get(path, &id_text, row, 11)?)?,
        status: get::<String>(path, &id_text, row, 12)?
            .parse()
            .map_err(|e: crate::model::ValidationError| bad(e.to_string()))?,
        content_hash: get(path, &id_text, row, 13)?,
        tier: get::<String>(path, &id_text, row, 14)?
            .parse()
            .map_err(|e: crate::model::ValidationError| bad(e.to_string()))?,
        retention: RetentionScore {
            overall: real(15)?,
            recency: real(16)?,
            activation: real(17)?,
            importance: real(18)?,
            supersession_penalty: real(19)?,
        },
        activation_count: u64::try_from(activation).unwrap_or(0),
        last_accessed: last_accessed.map(parse_ts).transpose()?,
        superseded_by: superseded_by
            .map(|s| s.parse::<MemoryId>().map_err(|e| bad(e.to_string())))
            .transpose()?,
        cluster_id: get(path, &id_text, row, 23)?,
        context: get(path, &id_text, row, 24)?,
        time_refs: match &time_refs {
            Some(json) => serde_json::from_str(json).map_err(|e| bad(format!("bad time_refs: {e}")))?,
            None => Vec::new(),
        },
        not_superseded_by: match &not_superseded_by {
            Some(json) => serde_json::from_str(json).map_err(|e| bad(format!("bad not_superseded_by: {e}")))?,
            None => Vec::new(),
        },
    };
    if time_refs.is_none() {
        // A row from before event times were stored (the store resolves these on open).
        crate::temporal::annotate(&mut memory, &crate::temporal::TemporalOptions::default());
    }
    Ok(memory)
}

fn get<T: rusqlite::types::FromSql>(path: &str, id: &str, row: &Row<'_>, i: usize) -> Result<T, StoreError> {
    row.get(i).map_err(|e| StoreError::BadRow {
        path: path.to_string(),
        id: id.to_string(),
        message: format!("column {}: {e}", COLUMNS.get(i).unwrap_or(&"?")),
    })
}

/// Translates a filter into a WHERE fragment over alias `m` and its parameters.
pub(crate) fn filter_sql(f: &MemoryFilter) -> (String, Vec<Value>) {
    let mut clauses: Vec<String> = Vec::new();
    let mut params: Vec<Value> = Vec::new();
    let any_of = |column: &str, values: Vec<String>, clauses: &mut Vec<String>, params: &mut Vec<Value>| {
        if values.is_empty() {
            return;
        }
        clauses.push(format!("m.{column} IN ({})", placeholders(values.len())));
        params.extend(values.into_iter().map(Value::Text));
    };
    any_of(
        "namespace",
        f.namespaces.iter().map(|n| n.as_str().to_string()).collect(),
        &mut clauses,
        &mut params,
    );
    any_of(
        "domain",
        f.domains.iter().map(|d| d.as_str().to_string()).collect(),
        &mut clauses,
        &mut params,
    );
    any_of(
        "tier",
        f.tiers.iter().map(|t| t.as_str().to_string()).collect(),
        &mut clauses,
        &mut params,
    );
    if f.statuses.is_empty() {
        clauses.push("m.status NOT IN ('deleted', 'quarantined')".into());
    } else {
        clauses.push(crate::store::statuses_condition(&f.statuses));
    }
    if let Some(since) = f.since {
        clauses.push("m.created_at >= ?".into());
        params.push(Value::Text(timestamp::to_storage(since)));
    }
    if let Some(until) = f.until {
        clauses.push("m.created_at < ?".into());
        params.push(Value::Text(timestamp::to_storage(until)));
    }
    if let Some((start, end)) = f.happened {
        let (first, last) = day_span(start, end);
        clauses.push(format!(
            "(m.id IN (SELECT memory_id FROM memory_times WHERE start_date <= ? AND end_date >= ? AND confidence >= {MIN_EVENT_CONFIDENCE})
              OR (NOT EXISTS (SELECT 1 FROM memory_times t WHERE t.memory_id = m.id) AND m.created_at >= ? AND m.created_at < ?))"
        ));
        params.push(Value::Text(last));
        params.push(Value::Text(first));
        params.push(Value::Text(timestamp::to_storage(start)));
        params.push(Value::Text(timestamp::to_storage(end)));
    }
    if !f.tags.is_empty() {
        clauses.push(format!(
            "m.id IN (SELECT memory_id FROM memory_tags WHERE tag IN ({}) GROUP BY memory_id HAVING COUNT(*) = {})",
            placeholders(f.tags.len()),
            f.tags.len()
        ));
        params.extend(f.tags.iter().map(|t| Value::Text(t.clone())));
    }
    (clauses.join(" AND "), params)
}

/// References read with less confidence than this do not place a memory in time.
pub(crate) const MIN_EVENT_CONFIDENCE: f64 = 0.5;

/// The first and last calendar day (`YYYY-MM-DD`) of the instant range `[start, end)`.
pub(crate) fn day_span(start: chrono::DateTime<chrono::Utc>, end: chrono::DateTime<chrono::Utc>) -> (String, String) {
    let last = if end > start {
        end - chrono::Duration::microseconds(1)
    } else {
        start
    };
    (
        start.date_naive().format("%Y-%m-%d").to_string(),
        last.date_naive().format("%Y-%m-%d").to_string(),
    )
}

fn placeholders(n: usize) -> String {
    vec!["?"; n].join(", ")
}

/// Builds an FTS5 MATCH expression: every term as a quoted prefix, any term may match.
pub(crate) fn match_expression(terms: &[String]) -> String {
    terms
        .iter()
        .map(|t| format!("\"{}\"*", t.replace('"', "\"\"")))
        .collect::<Vec<_>>()
        .join(" OR ")
}
