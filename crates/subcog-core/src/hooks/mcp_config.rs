//! Registering subcog's MCP server with Claude Code: the `mcpServers.subcog` entry of a
//! project's `.mcp.json` or of `~/.claude.json` (user scope). Idempotent, and careful with
//! files it shares: every other key is kept in place, an entry named `subcog` that runs
//! something else is left alone, and text that is not a JSON object is refused.

use serde_json::{Map, Value, json};

/// The name the server is registered under.
pub const SERVER_NAME: &str = "subcog";

/// What registering did to the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Registration {
    /// The entry was added or its command updated; the new text is to be written.
    Changed(String),
    /// subcog is registered already, exactly so.
    Unchanged,
    /// An entry named `subcog` runs another program; it is left as it is.
    Conflict(String),
}

/// Whether an entry starts subcog's MCP server: a stdio command whose program is named
/// `subcog` (any directory, any extension) and whose first argument is `mcp`.
fn is_ours(entry: &Value) -> bool {
    let program = entry.get("command").and_then(Value::as_str).unwrap_or("");
    let stem_is_subcog = std::path::Path::new(program.trim())
        .file_stem()
        .is_some_and(|stem| stem == "subcog");
    let first_arg = entry
        .get("args")
        .and_then(Value::as_array)
        .and_then(|a| a.first())
        .and_then(Value::as_str);
    stem_is_subcog && first_arg == Some("mcp")
}

/// Whether a Claude Code config text registers subcog's MCP server (`mcpServers.subcog`
/// starting `subcog mcp`, wherever the program lives).
pub fn registered(text: &str) -> bool {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|v| v.get("mcpServers")?.get(SERVER_NAME).map(is_ours))
        .unwrap_or(false)
}

/// The config text with `mcpServers.subcog` starting `<command> mcp` over stdio. An entry
/// that is already ours keeps its extra arguments and environment; only the program path
/// is brought up to date. Fails on text that is not a JSON object, or whose `mcpServers`
/// is not one (the file is left for the user to fix, never overwritten).
pub fn with_mcp_server(existing: Option<&str>, command: &str) -> Result<Registration, String> {
    let mut root: Value = match existing.map(str::trim) {
        None | Some("") => json!({}),
        Some(text) => serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?,
    };
    let obj = root.as_object_mut().ok_or("the top level is not a JSON object")?;
    let servers = obj
        .entry("mcpServers")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .ok_or("\"mcpServers\" is not a JSON object")?;
    match servers.get_mut(SERVER_NAME) {
        Some(entry) if is_ours(entry) => {
            if entry.get("command").and_then(Value::as_str) == Some(command) {
                return Ok(Registration::Unchanged);
            }
            if let Some(map) = entry.as_object_mut() {
                map.insert("command".into(), json!(command));
            }
        }
        Some(entry) => {
            let program = entry
                .get("command")
                .and_then(Value::as_str)
                .or_else(|| entry.get("url").and_then(Value::as_str))
                .unwrap_or("something else");
            return Ok(Registration::Conflict(format!(
                "an MCP server named \"{SERVER_NAME}\" is already registered and runs {program}"
            )));
        }
        None => {
            servers.insert(
                SERVER_NAME.into(),
                json!({"type": "stdio", "command": command, "args": ["mcp"], "env": {}}),
            );
        }
    }
    let mut text = serde_json::to_string_pretty(&root).map_err(|e| e.to_string())?;
    text.push('\n');
    Ok(Registration::Changed(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_means_an_entry_that_starts_subcog_mcp() {
        assert!(registered(
            r#"{"mcpServers":{"subcog":{"command":"/opt/bin/subcog","args":["mcp"]}}}"#
        ));
        assert!(!registered(
            r#"{"mcpServers":{"subcog":{"command":"other","args":["mcp"]}}}"#
        ));
        assert!(!registered(
            r#"{"mcpServers":{"subcog":{"command":"subcog","args":["recall"]}}}"#
        ));
        assert!(!registered(r#"{"mcpServers":{}}"#));
        assert!(!registered("not json"));
    }

    fn changed(r: Registration) -> String {
        match r {
            Registration::Changed(text) => text,
            other => panic!("expected a change, got {other:?}"),
        }
    }

    #[test]
    fn the_server_is_added_once_and_other_keys_kept_in_order() {
        let existing =
            r#"{"numStartups": 12, "mcpServers": {"github": {"command": "npx", "args": ["gh"]}}, "projects": {}}"#;
        let text = changed(with_mcp_server(Some(existing), "subcog").expect("merge"));
        let v: Value = serde_json::from_str(&text).expect("json");
        assert_eq!(v["numStartups"], 12);
        assert_eq!(v["mcpServers"]["github"]["command"], "npx");
        assert_eq!(v["mcpServers"]["subcog"]["command"], "subcog");
        assert_eq!(v["mcpServers"]["subcog"]["args"], json!(["mcp"]));
        assert_eq!(v["mcpServers"]["subcog"]["type"], "stdio");
        // Keys stay where they were: the file is Claude Code's, not ours.
        let order: Vec<&String> = v.as_object().expect("object").keys().collect();
        assert_eq!(order, ["numStartups", "mcpServers", "projects"]);
        assert_eq!(with_mcp_server(Some(&text), "subcog"), Ok(Registration::Unchanged));
    }

    #[test]
    fn a_moved_binary_is_updated_and_user_additions_kept() {
        let existing = r#"{"mcpServers": {"subcog": {"command": "/old/subcog", "args": ["mcp", "--no-schedule"], "env": {"SUBCOG_LOG": "debug"}}}}"#;
        let text = changed(with_mcp_server(Some(existing), "/new/bin/subcog").expect("merge"));
        let v: Value = serde_json::from_str(&text).expect("json");
        assert_eq!(v["mcpServers"]["subcog"]["command"], "/new/bin/subcog");
        assert_eq!(v["mcpServers"]["subcog"]["args"], json!(["mcp", "--no-schedule"]));
        assert_eq!(v["mcpServers"]["subcog"]["env"]["SUBCOG_LOG"], "debug");
    }

    #[test]
    fn someone_elses_subcog_entry_is_left_alone() {
        let existing = r#"{"mcpServers": {"subcog": {"type": "http", "url": "http://10.0.0.2:7000/mcp"}}}"#;
        match with_mcp_server(Some(existing), "subcog").expect("merge") {
            Registration::Conflict(why) => assert!(why.contains("http://10.0.0.2:7000/mcp"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn broken_files_are_refused() {
        assert!(with_mcp_server(Some("{not json"), "subcog").is_err());
        assert!(with_mcp_server(Some("[]"), "subcog").is_err());
        assert!(with_mcp_server(Some(r#"{"mcpServers": []}"#), "subcog").is_err());
        let text = changed(with_mcp_server(Some("  "), "subcog").expect("blank"));
        assert!(text.contains("\"mcpServers\""));
    }
}
