//! What the labelled corpora under `data/` share: one JSON Lines reader that names the bad
//! line, and the rate of a group of notes (how many of them a check hit).

use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Error, Result};

/// Hits and total for one group of notes.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Rate {
    /// Notes.
    pub notes: usize,
    /// Notes the check hit (a secret redacted, a near-miss changed, an attack held …).
    pub hits: usize,
    /// `hits / notes`.
    pub rate: f64,
}

impl Rate {
    /// Counts one note.
    pub fn add(&mut self, hit: bool) {
        self.notes += 1;
        self.hits += usize::from(hit);
        self.rate = self.hits as f64 / self.notes as f64;
    }
}

/// Every record of a JSON Lines file; a bad line is an error naming it.
pub fn read_jsonl<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
        context: format!("read {}", path.display()),
        source: e,
    })?;
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        records.push(serde_json::from_str(line).map_err(|e| Error::Import {
            line: i + 1,
            message: format!("{}: {e}", path.display()),
        })?);
    }
    Ok(records)
}
