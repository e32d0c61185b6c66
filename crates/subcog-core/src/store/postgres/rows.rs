//! Rows of `subcog_memories`: writing a [`Memory`] (its JSON document and the columns
//! queries use), reading it back, and filters as SQL with numbered parameters.

use postgres::GenericClient;
use postgres::types::ToSql;

use crate::model::{Memory, MemoryId, SearchHit};
use crate::store::{MemoryFilter, StoreError};

/// References read with less confidence than this do not place a memory in time (as on SQLite).
pub(super) const MIN_EVENT_CONFIDENCE: f64 = 0.5;

/// A parameter of a dynamically built statement.
pub(super) type Param = Box<dyn ToSql + Sync + Send>;

/// SQL text with its numbered parameters; `$1` is always the scope.
pub(super) struct Sql {
    /// The parameters, in `$n` order.
    pub params: Vec<Param>,
}

impl Sql {
    /// A statement over `scope` (bound as `$1`).
    pub fn new(scope: &str) -> Self {
        Sql {
            params: vec![Box::new(scope.to_string())],
        }
    }

    /// Binds a value and returns its placeholder.
    pub fn bind(&mut self, value: impl ToSql + Sync + Send + 'static) -> String {
        self.params.push(Box::new(value));
        format!("${}", self.params.len())
    }

    /// The parameters as the driver takes them.
    pub fn refs(&self) -> Vec<&(dyn ToSql + Sync)> {
        self.params.iter().map(|p| p.as_ref() as &(dyn ToSql + Sync)).collect()
    }
}

/// The columns [`hit_from_row`] reads, over alias `m`.
pub(super) const HIT_COLUMNS: &str = "m.id, m.created_at, m.tags, m.superseded_by, m.doc->>'content'";

/// A search hit from a row whose first columns are [`HIT_COLUMNS`].
pub(super) fn hit_from_row(label: &str, row: &postgres::Row, score: f64) -> Result<SearchHit, StoreError> {
    let id: String = row.try_get(0).map_err(|e| bad(label, "?", &e.to_string()))?;
    let read = || -> Result<SearchHit, String> {
        let superseded_by: Option<String> = row.try_get(3).map_err(|e| e.to_string())?;
        Ok(SearchHit {
            id: id.parse::<MemoryId>().map_err(|e| e.to_string())?,
            score,
            created_at: row.try_get(1).map_err(|e| e.to_string())?,
            tags: row.try_get(2).map_err(|e| e.to_string())?,
            superseded_by: superseded_by
                .map(|s| s.parse::<MemoryId>().map_err(|e| e.to_string()))
                .transpose()?,
            content: row
                .try_get::<_, Option<String>>(4)
                .map_err(|e| e.to_string())?
                .unwrap_or_default(),
        })
    };
    read().map_err(|message| bad(label, &id, &message))
}

fn bad(label: &str, id: &str, message: &str) -> StoreError {
    StoreError::BadRow {
        path: label.to_string(),
        id: id.to_string(),
        message: message.to_string(),
    }
}

/// The memory in a `doc` column.
pub(super) fn memory_from_doc(label: &str, doc: serde_json::Value) -> Result<Memory, StoreError> {
    let id = doc.get("id").and_then(|v| v.as_str()).unwrap_or("?").to_string();
    serde_json::from_value(doc).map_err(|e| bad(label, &id, &format!("bad document: {e}")))
}

/// Reads memories with a statement whose only column is `doc`.
pub(super) fn query_memories(
    client: &mut impl GenericClient,
    label: &str,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Vec<Memory>, StoreError> {
    let rows = client.query(sql, params).map_err(|e| super::map_err(label, &e))?;
    rows.into_iter()
        .map(|r| {
            let doc: serde_json::Value = r.try_get(0).map_err(|e| super::map_err(label, &e))?;
            memory_from_doc(label, doc)
        })
        .collect()
}

/// How a row is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Write {
    /// Insert unless the id or the live content is taken (then nothing happens).
    Insert,
    /// Replace the stored row with the same id.
    Replace,
}

/// Writes `m` as a row of `scope` and its dated references; returns whether a row was written.
pub(super) fn write_memory(
    client: &mut impl GenericClient,
    label: &str,
    scope: &str,
    m: &Memory,
    how: Write,
) -> Result<bool, StoreError> {
    let doc = serde_json::to_value(m).map_err(|e| bad(label, &m.id.to_string(), &e.to_string()))?;
    let tags_text = m.tags.join(" ");
    let context = m.context.clone().unwrap_or_default();
    let params: [&(dyn ToSql + Sync); 17] = [
        &scope,
        &m.id.to_string(),
        &doc,
        &m.namespace.as_str(),
        &m.domain.as_str(),
        &m.status.as_str(),
        &m.tier.as_str(),
        &m.created_at,
        &m.updated_at,
        &m.content_hash,
        &f64::from(m.retention.overall),
        &m.superseded_by.map(|s| s.to_string()),
        &m.tags,
        &m.content,
        &m.summary,
        &tags_text,
        &context,
    ];
    let values = "$1::text, $2::text, $3::jsonb, $4::text, $5::text, $6::text, $7::text, $8::timestamptz,
        $9::timestamptz, $10::text, $11::float8, $12::text, $13::text[], v.tsv,
        (SELECT coalesce(sum(coalesce(array_length(positions, 1), 1)), 0) FROM unnest(v.tsv))::int";
    let tsv =
        "SELECT setweight(to_tsvector('subcog', $14::text), 'A') || setweight(to_tsvector('subcog', $15::text), 'B')
        || setweight(to_tsvector('subcog', $16::text), 'C') || setweight(to_tsvector('subcog', $17::text), 'D') AS tsv";
    let sql = match how {
        Write::Insert => format!(
            "INSERT INTO subcog_memories (scope, id, doc, namespace, domain, status, tier, created_at, updated_at,
                 content_hash, retention_score, superseded_by, tags, tsv, doclen)
             SELECT {values} FROM ({tsv}) v ON CONFLICT DO NOTHING"
        ),
        Write::Replace => format!(
            "UPDATE subcog_memories SET (doc, namespace, domain, status, tier, created_at, updated_at,
                 content_hash, retention_score, superseded_by, tags, tsv, doclen) =
                 (SELECT $3::jsonb, $4::text, $5::text, $6::text, $7::text, $8::timestamptz, $9::timestamptz,
                  $10::text, $11::float8, $12::text, $13::text[], v.tsv,
                  (SELECT coalesce(sum(coalesce(array_length(positions, 1), 1)), 0) FROM unnest(v.tsv))::int
                  FROM ({tsv}) v)
             WHERE scope = $1::text AND id = $2::text"
        ),
    };
    let written = client.execute(&sql, &params).map_err(|e| super::map_err(label, &e))? > 0;
    if written {
        write_times(client, label, scope, m)?;
    }
    Ok(written)
}

/// Keeps `subcog_memory_times` in step with the memory's references.
fn write_times(client: &mut impl GenericClient, label: &str, scope: &str, m: &Memory) -> Result<(), StoreError> {
    let id = m.id.to_string();
    client
        .execute(
            "DELETE FROM subcog_memory_times WHERE scope = $1 AND memory_id = $2",
            &[&scope, &id],
        )
        .map_err(|e| super::map_err(label, &e))?;
    let (mut starts, mut ends, mut confidence) = (Vec::new(), Vec::new(), Vec::new());
    for r in &m.time_refs {
        if let (Some(s), Some(e)) = (r.start, r.end) {
            starts.push(s);
            ends.push(e);
            confidence.push(f64::from(r.confidence));
        }
    }
    if starts.is_empty() {
        return Ok(());
    }
    client
        .execute(
            "INSERT INTO subcog_memory_times (scope, memory_id, start_date, end_date, confidence)
             SELECT $1, $2, s, e, c FROM unnest($3::date[], $4::date[], $5::float8[]) AS t(s, e, c)",
            &[&scope, &id, &starts, &ends, &confidence],
        )
        .map_err(|e| super::map_err(label, &e))?;
    Ok(())
}

/// Appends the filter's conditions over alias `m` (the scope included) to `sql`'s parameters
/// and returns the WHERE fragment.
pub(super) fn filter_sql(f: &MemoryFilter, sql: &mut Sql) -> String {
    let mut clauses = vec!["m.scope = $1".to_string()];
    let mut any_of = |column: &str, values: Vec<String>, sql: &mut Sql| {
        if !values.is_empty() {
            let p = sql.bind(values);
            clauses.push(format!("m.{column} = ANY({p})"));
        }
    };
    any_of(
        "namespace",
        f.namespaces.iter().map(|n| n.as_str().to_string()).collect(),
        sql,
    );
    any_of(
        "domain",
        f.domains.iter().map(|d| d.as_str().to_string()).collect(),
        sql,
    );
    any_of("tier", f.tiers.iter().map(|t| t.as_str().to_string()).collect(), sql);
    if f.statuses.is_empty() {
        clauses.push("m.status NOT IN ('deleted', 'quarantined')".into());
    } else {
        clauses.push(crate::store::statuses_condition(&f.statuses));
    }
    if let Some(since) = f.since {
        clauses.push(format!("m.created_at >= {}", sql.bind(since)));
    }
    if let Some(until) = f.until {
        clauses.push(format!("m.created_at < {}", sql.bind(until)));
    }
    if let Some((start, end)) = f.happened {
        let (first, last) = day_span(start, end);
        let (last, first, start, end) = (sql.bind(last), sql.bind(first), sql.bind(start), sql.bind(end));
        clauses.push(format!(
            "(EXISTS (SELECT 1 FROM subcog_memory_times t WHERE t.scope = m.scope AND t.memory_id = m.id
                AND t.start_date <= {last} AND t.end_date >= {first} AND t.confidence >= {MIN_EVENT_CONFIDENCE})
              OR (NOT EXISTS (SELECT 1 FROM subcog_memory_times t WHERE t.scope = m.scope AND t.memory_id = m.id)
                AND m.created_at >= {start} AND m.created_at < {end}))"
        ));
    }
    if !f.tags.is_empty() {
        clauses.push(format!("m.tags @> {}", sql.bind(f.tags.clone())));
    }
    clauses.join(" AND ")
}

/// The first and last calendar day of the instant range `[start, end)`.
pub(super) fn day_span(
    start: chrono::DateTime<chrono::Utc>,
    end: chrono::DateTime<chrono::Utc>,
) -> (chrono::NaiveDate, chrono::NaiveDate) {
    let last = if end > start {
        end - chrono::Duration::microseconds(1)
    } else {
        start
    };
    (start.date_naive(), last.date_naive())
}
