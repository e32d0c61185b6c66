//! MCP resources: `subcog://status`, `subcog://summaries` and `subcog://memory/{id}`, as
//! JSON documents (the same shapes as the CLI's `--json`).

use rmcp::ErrorData;
use rmcp::model::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult, Resource, ResourceContents, ResourceTemplate,
};

use super::Server;
use crate::command_error::{CommandError, ErrorKind};
use crate::commands;

const STATUS: &str = "subcog://status";
const SUMMARIES: &str = "subcog://summaries";
const MEMORY_PREFIX: &str = "subcog://memory/";
const JSON: &str = "application/json";

/// The fixed resources.
pub fn list() -> ListResourcesResult {
    ListResourcesResult::with_all_items(vec![
        Resource::new(STATUS, "status")
            .with_description("Memory counts by namespace, tier, domain and status; where the data lives")
            .with_mime_type(JSON),
        Resource::new(SUMMARIES, "summaries")
            .with_description("Consolidation's cluster summaries: key facts, decisions, outdated facts")
            .with_mime_type(JSON),
    ])
}

/// The memory template.
pub fn templates() -> ListResourceTemplatesResult {
    ListResourceTemplatesResult::with_all_items(vec![
        ResourceTemplate::new("subcog://memory/{id}", "memory")
            .with_description("One memory with every field")
            .with_mime_type(JSON),
    ])
}

/// Reads one resource; an unknown URI or memory is "resource not found".
pub async fn read(server: &Server, uri: String) -> Result<ReadResourceResult, ErrorData> {
    let target = uri.clone();
    let outcome = server
        .blocking(move |s| -> Result<Option<serde_json::Value>, CommandError> {
            if target == STATUS {
                return Ok(Some(commands::status::report_json(&s.status()?)));
            }
            if target == SUMMARIES {
                let all = commands::summaries::collect(s, 100)?;
                return serde_json::to_value(&all).map(Some).map_err(CommandError::internal);
            }
            let Some(id) = target.strip_prefix(MEMORY_PREFIX) else {
                return Ok(None);
            };
            let Ok(id) = id.parse() else {
                return Ok(None);
            };
            match s.get(&id) {
                Ok(m) => Ok(Some(crate::output::memory_json(&m, None))),
                Err(e) => match CommandError::from(e) {
                    e if matches!(e.kind, ErrorKind::NotFound) => Ok(None),
                    e => Err(e),
                },
            }
        })
        .await;
    match outcome {
        Ok(Some(value)) => Ok(ReadResourceResult::new(vec![
            ResourceContents::text(value.to_string(), uri).with_mime_type(JSON),
        ])),
        Ok(None) => Err(ErrorData::resource_not_found(
            format!("no resource {uri} (try subcog://status, subcog://summaries, subcog://memory/ID)"),
            None,
        )),
        Err(message) => Err(ErrorData::internal_error(message, None)),
    }
}
