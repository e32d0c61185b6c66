//! Everything the CLI prints goes through here: JSON for `--json`, aligned and (on a
//! terminal) colored text otherwise. Colors are stripped when stdout is not a TTY or
//! `NO_COLOR` is set; a closed pipe ends output quietly.

use anstyle::{AnsiColor, Style};
use std::io::Write;

use chrono::{DateTime, Utc};
use subcog_core::model::Memory;

use crate::command_error::CommandError;

/// Style of memory ids.
pub const ID: Style = AnsiColor::BrightBlack.on_default();
/// Style of namespaces.
pub const NAMESPACE: Style = AnsiColor::Cyan.on_default();
/// Style of scores.
pub const SCORE: Style = AnsiColor::Yellow.on_default();
/// Style of headings and keys.
pub const HEADING: Style = Style::new().bold();
/// Style of warnings on stderr.
pub const WARN: Style = AnsiColor::Yellow.on_default().bold();

/// What a command run for another process printed (see [`capture`]).
#[derive(Debug, Default)]
pub struct Captured {
    /// Stdout, styles included (the receiving process strips them as its terminal needs).
    pub stdout: String,
    /// Notes and warnings for stderr.
    pub stderr: String,
    /// `-q` for this run.
    quiet: bool,
    /// What the client read from its stdin, for a command that reads stdin.
    stdin: Option<String>,
}

thread_local! {
    /// Set while this thread runs a command for a client of the warm process.
    static CAPTURE: std::cell::RefCell<Option<Captured>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` with everything it prints kept instead of written (the warm process runs a
/// client's command and sends the output back).
pub fn capture<T>(quiet: bool, stdin: Option<String>, f: impl FnOnce() -> T) -> (T, Captured) {
    CAPTURE.with(|c| {
        *c.borrow_mut() = Some(Captured {
            quiet,
            stdin,
            ..Captured::default()
        })
    });
    let result = f();
    let captured = CAPTURE.with(|c| c.borrow_mut().take()).unwrap_or_default();
    (result, captured)
}

/// The client's stdin when this thread runs a command for it (taken once).
pub fn forwarded_stdin() -> Option<String> {
    CAPTURE.with(|c| c.borrow_mut().as_mut().and_then(|cap| cap.stdin.take()))
}

/// Appends to the capture of this thread, when there is one; `false` otherwise.
fn captured(stdout: bool, text: &str) -> bool {
    CAPTURE.with(|c| match c.borrow_mut().as_mut() {
        Some(cap) => {
            if stdout {
                cap.stdout.push_str(text);
            } else if !cap.quiet {
                cap.stderr.push_str(text);
            }
            true
        }
        None => false,
    })
}

/// Writes `text` to stdout; a closed pipe is not an error worth reporting.
pub fn print(text: &str) -> Result<(), CommandError> {
    if captured(true, text) {
        return Ok(());
    }
    let mut out = anstream::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(CommandError::internal),
    }
}

/// Prints a value as pretty JSON with a trailing newline.
pub fn print_json(value: &serde_json::Value) -> Result<(), CommandError> {
    let text = serde_json::to_string_pretty(value).map_err(CommandError::internal)?;
    print(&format!("{text}\n"))
}

static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Silences notes (`-q`: only errors on stderr).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, std::sync::atomic::Ordering::Relaxed);
}

/// A note on stderr (never on stdout, which carries data); silent with `-q`.
pub fn note(text: &str) {
    if captured(false, &format!("{WARN}note:{WARN:#} {text}\n")) || QUIET.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    let mut err = anstream::stderr().lock();
    let _ = writeln!(err, "{WARN}note:{WARN:#} {text}");
}

/// A warning on stderr; silent with `-q`.
pub fn warn(text: &str) {
    if captured(false, &format!("{WARN}warning:{WARN:#} {text}\n")) || QUIET.load(std::sync::atomic::Ordering::Relaxed)
    {
        return;
    }
    let mut err = anstream::stderr().lock();
    let _ = writeln!(err, "{WARN}warning:{WARN:#} {text}");
}

/// Paints `text` with a style (removed later when not on a terminal).
pub fn paint(style: Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}

/// Human form of a timestamp: `2023-05-08 14:30` (UTC).
pub fn human_time(ts: DateTime<Utc>) -> String {
    ts.format("%Y-%m-%d %H:%M").to_string()
}

/// A memory as JSON, optionally with a score.
pub fn memory_json(memory: &Memory, score: Option<f64>) -> serde_json::Value {
    let mut value = serde_json::to_value(memory).unwrap_or(serde_json::Value::Null);
    if let (Some(score), Some(map)) = (score, value.as_object_mut()) {
        map.insert("score".into(), serde_json::json!(score));
    }
    value
}

/// Lays out rows in aligned columns; the last column is left unpadded. Styles apply per
/// column and do not count toward width.
pub fn table(rows: &[Vec<String>], styles: &[Style]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0usize; columns];
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            let style = styles.get(i).copied().unwrap_or_default();
            line.push_str(&paint(style, cell));
            if i + 1 < row.len() {
                let pad = widths[i] - cell.chars().count() + 2;
                line.push_str(&" ".repeat(pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The one-line listing used by `recall` and `list`.
pub fn memory_rows<'a>(items: impl Iterator<Item = (&'a Memory, Option<f64>)>) -> Vec<Vec<String>> {
    items
        .map(|(m, score)| {
            let mut row = vec![m.id.to_string(), m.namespace.to_string(), human_time(m.created_at)];
            if let Some(s) = score {
                row.push(format_score(s));
            }
            let mut summary = m.summary.clone();
            if m.status != subcog_core::model::Status::Active {
                summary = format!("[{}] {summary}", m.status);
            }
            if let Some(newer) = m.superseded_by {
                summary = format!("[superseded by {newer}] {summary}");
            }
            row.push(summary);
            row
        })
        .collect()
}

/// A score for humans: fused scores are small (1 / (60 + rank) per channel), so four
/// decimals below 1.
pub fn format_score(score: f64) -> String {
    if score.abs() >= 1.0 {
        format!("{score:.2}")
    } else {
        format!("{score:.4}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_aligns_columns() {
        let rows = vec![
            vec!["a".to_string(), "namespace".to_string(), "x".to_string()],
            vec!["bbb".to_string(), "ns".to_string(), "y".to_string()],
        ];
        let out = table(&rows, &[]);
        let lines: Vec<&str> = out.lines().collect();
        // Plain styles emit no escape codes, so positions line up.
        assert_eq!(lines[0].find('x'), lines[1].find('y'));
    }
}
