//! Explicit capture markers in what the user or the agent wrote: `[decision] …`,
//! `[learned] …`, `[blocker] …`, `[pattern] …`, `[remember] …` at the start of a line,
//! `@memory(namespace) …`, and the agent's own capture blocks (a fenced block opened with
//! ```` ```memory:namespace ````). Text subcog injected itself (its context and recall
//! blocks) is removed first, so injected memories are never captured again.

use std::sync::LazyLock;

use regex::Regex;

/// One thing to capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marked {
    /// Target namespace.
    pub namespace: String,
    /// The text.
    pub content: String,
}

#[allow(clippy::expect_used)]
static LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?mi)^[ \t>*-]*\[(decision|decided|learned|learning|til|blocker|blocked|pattern|remember)\][ \t]*(\S.*)$",
    )
    .expect("constant regex")
});
#[allow(clippy::expect_used)]
static AT_MEMORY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?mi)@memory\(([a-z][a-z0-9_-]{0,39})\)[ \t]*(\S.*)$").expect("constant regex"));
#[allow(clippy::expect_used)]
static BLOCK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?s)```memory(?::([a-z][a-z0-9_-]{0,39}))?[ \t]*\n(.*?)\n?```").expect("constant regex")
});
#[allow(clippy::expect_used)]
static INJECTED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?s)<(subcog-context|subcog-recall|subcog-related|memory_consolidated_summaries)\b[^>]*>.*?</(subcog-context|subcog-recall|subcog-related|memory_consolidated_summaries)>")
        .expect("constant regex")
});

fn namespace_of(marker: &str) -> &'static str {
    match marker.to_ascii_lowercase().as_str() {
        "decision" | "decided" => "decisions",
        "learned" | "learning" | "til" => "learnings",
        "blocker" | "blocked" => "blockers",
        "pattern" => "patterns",
        _ => "context",
    }
}

/// Removes the blocks subcog injects into a session.
pub fn strip_injected(text: &str) -> String {
    INJECTED.replace_all(text, "").into_owned()
}

/// The text around the markers: `text` without injected blocks, capture blocks, marker
/// lines and `@memory(…)` notes (what a marker's context keeps of its own message).
pub fn strip(text: &str) -> String {
    let clean = strip_injected(text);
    let clean = BLOCK.replace_all(&clean, "");
    let clean = LINE.replace_all(&clean, "");
    AT_MEMORY.replace_all(&clean, "").trim().to_string()
}

/// Every marked capture in `text`, in order, duplicates removed.
pub fn find(text: &str) -> Vec<Marked> {
    let clean = strip_injected(text);
    let mut found: Vec<(usize, Marked)> = Vec::new();
    for c in BLOCK.captures_iter(&clean) {
        let (Some(whole), Some(body)) = (c.get(0), c.get(2)) else {
            continue;
        };
        let namespace = c
            .get(1)
            .map(|m| m.as_str().to_lowercase())
            .unwrap_or_else(|| "context".into());
        found.push((
            whole.start(),
            Marked {
                namespace,
                content: body.as_str().trim().to_string(),
            },
        ));
    }
    // Markers inside a capture block belong to it.
    let blocks: Vec<(usize, usize)> = BLOCK.find_iter(&clean).map(|m| (m.start(), m.end())).collect();
    let outside = |at: usize| !blocks.iter().any(|(s, e)| *s <= at && at < *e);
    // `[kind] text` names the namespace by kind; `@memory(ns) text` names it outright.
    let inline = LINE
        .captures_iter(&clean)
        .map(|c| (c, true))
        .chain(AT_MEMORY.captures_iter(&clean).map(|c| (c, false)));
    for (c, by_kind) in inline {
        let (Some(whole), Some(name), Some(body)) = (c.get(0), c.get(1), c.get(2)) else {
            continue;
        };
        if outside(whole.start()) {
            let namespace = if by_kind {
                namespace_of(name.as_str()).to_string()
            } else {
                name.as_str().to_lowercase()
            };
            found.push((
                whole.start(),
                Marked {
                    namespace,
                    content: body.as_str().trim().to_string(),
                },
            ));
        }
    }
    found.sort_by_key(|(at, _)| *at);
    let mut out: Vec<Marked> = Vec::new();
    for (_, m) in found {
        if !m.content.is_empty() && !out.contains(&m) {
            out.push(m);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(ns: &str, c: &str) -> Marked {
        Marked {
            namespace: ns.into(),
            content: c.into(),
        }
    }

    #[test]
    fn strip_keeps_what_surrounds_the_markers() {
        let text = "We compared both.\n[decision] Use PostgreSQL\nIt has JSONB. @memory(security) rotate keys\n```memory\nx\n```\nDone.";
        assert_eq!(strip(text), "We compared both.\n\nIt has JSONB. \n\nDone.");
    }

    #[test]
    fn markers_of_every_kind() {
        let text = "Let's go.\n[decision] Use PostgreSQL for the main store\n  - [learned] cargo caches need the lockfile hash\n\
                    [blocker] CI runners are out of disk\n[pattern] wrap every handler in a timeout\n\
                    [remember] the staging DB is reset on Mondays\nplease @memory(security) rotate keys quarterly\n\
                    ```memory:decisions\nPick axum over actix for the API.\n```\n[decision] Use PostgreSQL for the main store\n";
        assert_eq!(
            find(text),
            vec![
                m("decisions", "Use PostgreSQL for the main store"),
                m("learnings", "cargo caches need the lockfile hash"),
                m("blockers", "CI runners are out of disk"),
                m("patterns", "wrap every handler in a timeout"),
                m("context", "the staging DB is reset on Mondays"),
                m("security", "rotate keys quarterly"),
                m("decisions", "Pick axum over actix for the API."),
            ]
        );
    }

    #[test]
    fn injected_context_is_never_captured() {
        let text = "<subcog-context>\n<memory id=\"x\"><content>[decision] old injected decision</content></memory>\n</subcog-context>\n\
                    <memory_consolidated_summaries version=\"1\">\n[learned] summary text\n</memory_consolidated_summaries>\n\
                    [decision] a new one";
        assert_eq!(find(text), vec![m("decisions", "a new one")]);
    }

    #[test]
    fn mentions_are_not_markers() {
        assert!(find("we could add a [decision] marker later? maybe").is_empty());
        assert!(find("[decision]").is_empty());
        assert!(find("email me at a@memory.com").is_empty());
    }
}
