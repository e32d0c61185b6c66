//! Claude Code's `settings.json`: adding subcog's hooks to it without disturbing anything
//! else. Idempotent: a hook whose command runs `… hook <event>` of a subcog binary is
//! updated in place, never added twice; other hooks, matchers and keys are kept as they are.

use serde_json::{Map, Value, json};

use super::HookEvent;

/// What each event's entry looks like: the matcher (if the event takes one) and a timeout.
fn shape(event: HookEvent) -> (Option<&'static str>, u64) {
    match event {
        HookEvent::SessionStart => (Some("startup|resume|clear|compact"), 10),
        HookEvent::UserPromptSubmit => (None, 10),
        HookEvent::PostToolUse => (Some("Read|Edit|Write|MultiEdit|NotebookEdit|Bash"), 5),
        HookEvent::PreCompact => (None, 30),
        HookEvent::Stop => (None, 30),
        HookEvent::SessionEnd => (None, 30),
    }
}

/// The CLI name of an event (`session-start`).
pub fn cli_name(event: HookEvent) -> &'static str {
    match event {
        HookEvent::SessionStart => "session-start",
        HookEvent::UserPromptSubmit => "user-prompt-submit",
        HookEvent::PostToolUse => "post-tool-use",
        HookEvent::PreCompact => "pre-compact",
        HookEvent::Stop => "stop",
        HookEvent::SessionEnd => "session-end",
    }
}

/// Whether `command` is subcog's hook for `event`: `<program> hook <event> [flags]` where
/// the program (quoted or not, any directory, any extension) is named `subcog`.
pub fn is_ours(command: &str, event: HookEvent) -> bool {
    let trimmed = command.trim();
    let Some((program, rest)) = trimmed.rsplit_once(" hook ") else {
        return false;
    };
    if rest.split_whitespace().next().and_then(HookEvent::parse) != Some(event) {
        return false;
    }
    let program = program.trim();
    let unquoted = match (program.strip_prefix('\''), program.strip_prefix('"')) {
        (Some(p), _) => p.strip_suffix('\'').unwrap_or(p).replace("'\\''", "'"),
        (_, Some(p)) => p.strip_suffix('"').unwrap_or(p).to_string(),
        _ => program.to_string(),
    };
    std::path::Path::new(&unquoted)
        .file_stem()
        .is_some_and(|stem| stem == "subcog")
}

/// `path` quoted for a POSIX shell when it needs it (single quotes, `'\''` inside).
pub fn shell_quote(path: &str) -> String {
    let plain = path.chars().all(|c| c.is_ascii_alphanumeric() || "/._+-:@".contains(c));
    if plain && !path.is_empty() {
        path.to_string()
    } else {
        format!("'{}'", path.replace('\'', "'\\''"))
    }
}

/// The settings text with subcog's hooks for every event, run as `<exe> hook <event>`.
/// Returns the new text and whether anything changed. Fails on text that is not a JSON
/// object (the file is left for the user to fix, never overwritten).
pub fn with_hooks(existing: Option<&str>, exe: &str) -> Result<(String, bool), String> {
    let mut root: Value = match existing.map(str::trim) {
        None | Some("") => json!({}),
        Some(text) => serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?,
    };
    let before = root.clone();
    let obj = root.as_object_mut().ok_or("the top level is not a JSON object")?;
    let hooks = obj.entry("hooks").or_insert_with(|| json!({}));
    let hooks = hooks.as_object_mut().ok_or("\"hooks\" is not a JSON object")?;
    for event in HookEvent::ALL {
        let (matcher, timeout) = shape(event);
        let command = format!("{exe} hook {}", cli_name(event));
        let entry = json!({"type": "command", "command": command, "timeout": timeout});
        let groups = hooks.entry(event.name()).or_insert_with(|| json!([]));
        let groups = groups
            .as_array_mut()
            .ok_or_else(|| format!("\"hooks.{}\" is not a list", event.name()))?;
        let mut found = false;
        for group in groups.iter_mut() {
            let Some(list) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
                continue;
            };
            for h in list.iter_mut() {
                let ours = h
                    .get("command")
                    .and_then(Value::as_str)
                    .is_some_and(|c| is_ours(c, event));
                if ours {
                    if found {
                        // A second copy (from an older, broken merge): neutralize it below.
                        *h = Value::Null;
                    } else {
                        *h = entry.clone();
                        found = true;
                    }
                }
            }
            list.retain(|h| !h.is_null());
        }
        groups.retain(|g| g.get("hooks").and_then(Value::as_array).is_none_or(|l| !l.is_empty()));
        if !found {
            let mut group = Map::new();
            if let Some(m) = matcher {
                group.insert("matcher".into(), json!(m));
            }
            group.insert("hooks".into(), json!([entry]));
            groups.push(Value::Object(group));
        }
    }
    let changed = root != before;
    let mut text = serde_json::to_string_pretty(&root).map_err(|e| e.to_string())?;
    text.push('\n');
    Ok((text, changed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_are_added_once_and_other_settings_kept() {
        let existing = r#"{
  "permissions": {"allow": ["Bash(cargo test:*)"]},
  "hooks": {
    "PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "cargo fmt"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "/old/bin/subcog hook stop", "timeout": 5}]}]
  }
}"#;
        let (text, changed) = with_hooks(Some(existing), "/usr/local/bin/subcog").expect("merge");
        assert!(changed);
        let v: Value = serde_json::from_str(&text).expect("json");
        assert_eq!(v["permissions"]["allow"][0], "Bash(cargo test:*)");
        assert_eq!(v["hooks"]["PostToolUse"][0]["hooks"][0]["command"], "cargo fmt");
        assert_eq!(
            v["hooks"]["PostToolUse"][1]["hooks"][0]["command"],
            "/usr/local/bin/subcog hook post-tool-use"
        );
        // The old path is updated in place, not duplicated.
        assert_eq!(v["hooks"]["Stop"].as_array().map(Vec::len), Some(1));
        assert_eq!(
            v["hooks"]["Stop"][0]["hooks"][0]["command"],
            "/usr/local/bin/subcog hook stop"
        );
        assert_eq!(v["hooks"]["SessionStart"][0]["matcher"], "startup|resume|clear|compact");
        for event in HookEvent::ALL {
            assert!(v["hooks"][event.name()].is_array(), "{}", event.name());
        }
        let (again, changed) = with_hooks(Some(&text), "/usr/local/bin/subcog").expect("again");
        assert!(!changed);
        assert_eq!(again, text);
    }

    #[test]
    fn paths_with_spaces_and_quotes_are_recognized() {
        let exe = shell_quote("/Users/Jane Doe/bin/subcog");
        assert_eq!(exe, "'/Users/Jane Doe/bin/subcog'");
        assert_eq!(shell_quote("/usr/bin/subcog"), "/usr/bin/subcog");
        assert_eq!(shell_quote("/it's/subcog"), "'/it'\\''s/subcog'");
        let (text, _) = with_hooks(None, &exe).expect("first");
        let (again, changed) = with_hooks(Some(&text), &exe).expect("again");
        assert!(!changed, "{again}");
        let v: Value = serde_json::from_str(&again).expect("json");
        assert_eq!(v["hooks"]["Stop"].as_array().map(Vec::len), Some(1));
        assert!(is_ours("\"C:/tools/subcog.exe\" hook stop", HookEvent::Stop));
        assert!(!is_ours("/usr/bin/notsubcog hook stop", HookEvent::Stop));
        assert!(!is_ours("subcog hook stop", HookEvent::SessionEnd));
    }

    #[test]
    fn broken_settings_are_refused() {
        assert!(with_hooks(Some("{not json"), "subcog").is_err());
        assert!(with_hooks(Some("[1, 2]"), "subcog").is_err());
        assert!(with_hooks(Some("{\"hooks\": 3}"), "subcog").is_err());
        let (text, changed) = with_hooks(None, "subcog").expect("fresh");
        assert!(changed && text.contains("\"subcog hook session-start\""));
    }
}
