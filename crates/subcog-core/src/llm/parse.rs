//! Tolerant parsing of JSON answers: code fences, prose before or after, single objects
//! inside arrays. An answer that holds no JSON object is an error for that item only.

use serde_json::Value;

/// The first JSON object in `text`.
pub fn json_object(text: &str) -> Option<Value> {
    let trimmed = text.trim();
    if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(trimmed) {
        return Some(v);
    }
    // Scan for a balanced `{ … }`, respecting strings, from each opening brace.
    let bytes = trimmed.as_bytes();
    for start in trimmed.match_indices('{').map(|(i, _)| i) {
        let mut depth = 0i32;
        let mut in_str = false;
        let mut escaped = false;
        for (offset, &b) in bytes[start..].iter().enumerate() {
            if in_str {
                match b {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => in_str = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_str = true,
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        let candidate = trimmed.get(start..=start + offset)?;
                        if let Ok(v @ Value::Object(_)) = serde_json::from_str::<Value>(candidate) {
                            return Some(v);
                        }
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    None
}

/// A string field, trimmed, if present and non-empty.
pub fn string(v: &Value, key: &str) -> Option<String> {
    v.get(key)?
        .as_str()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// A list of strings (non-strings skipped); empty when missing.
pub fn strings(v: &Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str())
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// The elements of an array field that `f` accepts; empty when missing.
pub fn items<T>(v: &Value, key: &str, f: impl Fn(&Value) -> Option<T>) -> Vec<T> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(&f).collect())
        .unwrap_or_default()
}

/// A boolean that may arrive as `true`, `"true"`, `"yes"`.
pub fn boolean(v: &Value, key: &str) -> Option<bool> {
    match v.get(key)? {
        Value::Bool(b) => Some(*b),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" => Some(true),
            "false" | "no" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

/// A confidence as a number in `[0, 1]`, from a number or from high/medium/low.
pub fn confidence(v: &Value, key: &str) -> Option<f32> {
    match v.get(key)? {
        Value::Number(n) => n.as_f64().map(|x| (x as f32).clamp(0.0, 1.0)),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "high" => Some(0.9),
            "medium" => Some(0.6),
            "low" => Some(0.3),
            other => other.parse::<f32>().ok().map(|x| x.clamp(0.0, 1.0)),
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_json_in_fences_and_prose() {
        for text in [
            r#"{"supersedes": true}"#,
            "```json\n{\"supersedes\": true}\n```",
            "Sure! Here is the answer:\n{\"supersedes\": true, \"reason\": \"a } in a string\"}\nHope that helps.",
            "noise { not json } then {\"supersedes\": true}",
        ] {
            let v = json_object(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(boolean(&v, "supersedes"), Some(true), "{text}");
        }
        assert!(json_object("no json here").is_none());
        assert!(json_object("{\"open\": ").is_none());
        let v = json_object(r#"{"confidence": "high", "facts": ["a", 3, " b "]}"#).expect("json");
        assert_eq!(confidence(&v, "confidence"), Some(0.9));
        assert_eq!(strings(&v, "facts"), vec!["a", "b"]);
    }
}
