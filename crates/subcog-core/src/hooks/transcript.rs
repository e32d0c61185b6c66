//! Claude Code session transcripts (JSONL at `transcript_path`): the text the user typed
//! and the text the agent wrote, without tool output, meta messages or hook context.
//! Unreadable lines are skipped; a transcript is never trusted to be well formed.

use std::io::{BufRead, BufReader};
use std::path::Path;

use serde_json::Value;

/// Transcripts larger than this are read from their last part only.
const MAX_BYTES: u64 = 32 * 1024 * 1024;

/// The user's and the agent's text, message by message.
pub fn texts(path: &Path) -> std::io::Result<Vec<String>> {
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    if len > MAX_BYTES {
        use std::io::{Seek, SeekFrom};
        file.seek(SeekFrom::Start(len - MAX_BYTES))?;
    }
    let mut out = Vec::new();
    let mut reader = BufReader::new(file);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        // Bytes, not lines: a read that fails ends the loop instead of repeating, and
        // invalid UTF-8 (a cut at the start) is replaced, not fatal.
        if reader.read_until(b'\n', &mut buf)? == 0 {
            break;
        }
        let line = String::from_utf8_lossy(&buf);
        let Ok(v) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        // Meta messages and compaction summaries retell the session: not what anyone said.
        let flag = |k: &str| v.get(k).and_then(Value::as_bool) == Some(true);
        if flag("isMeta") || flag("isCompactSummary") {
            continue;
        }
        let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
        if kind != "user" && kind != "assistant" {
            continue;
        }
        let Some(content) = v.get("message").and_then(|m| m.get("content")) else {
            continue;
        };
        match content {
            Value::String(s) => out.push(s.clone()),
            Value::Array(parts) => {
                for p in parts {
                    // Only text blocks: tool calls and tool results are not what anyone said.
                    if p.get("type").and_then(Value::as_str) == Some("text")
                        && let Some(t) = p.get("text").and_then(Value::as_str)
                    {
                        out.push(t.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_of_user_and_assistant_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("t.jsonl");
        let lines = [
            r#"{"type":"summary","summary":"x"}"#,
            r#"{"type":"user","message":{"role":"user","content":"[decision] use axum"}}"#,
            r#"not json at all"#,
            r#"{"type":"user","isMeta":true,"message":{"role":"user","content":"[decision] meta"}}"#,
            r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"[learned] a"},{"type":"tool_use","name":"Bash","input":{"command":"echo [decision] no"}}]}}"#,
            r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"[decision] tool output"}]}}"#,
        ];
        std::fs::write(&path, lines.join("\n")).expect("write");
        assert_eq!(texts(&path).expect("read"), vec!["[decision] use axum", "[learned] a"]);
        assert!(texts(&dir.path().join("missing.jsonl")).is_err());
    }
}
