//! What hooks leave out of what they inject: a live memory whose learned score
//! ([`crate::quarantine::meaning`]) reaches `[quarantine] context_bar` — or half of it,
//! when the rules read harm in its text without the order that would quarantine it — is
//! not put into the session context or a prompt's recalled memories, though `recall`
//! still finds it.
//!
//! Quarantine holds a memory at 0.9, a bar chosen so that almost no ordinary note is held
//! from recall. Injection is where an attack acts, and leaving an ordinary note out of one
//! session's context costs little (the agent can still recall it), so injection has its own,
//! stricter bar (docs/RELIABILITY.md gives both rates). The score is read from the vector
//! the index already stores, so a session start embeds nothing.
//!
//! Owns the bar's check ([`Subcog::withheld`]) and the owner's vouches ([`Vouches`]): a
//! memory its owner vouched for (`subcog update ID --status active`) is injected whatever
//! its score. A vouch is kept on this machine only, beside the index, by id and content
//! hash: whoever writes a note could write a vouch into it, so a note never carries one,
//! and new text needs a new vouch.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::embed::EmbeddingModel;
use crate::embed::install::MINILM_ID;
use crate::model::{Memory, MemoryId};
use crate::service::{ScopeKind, Subcog};

/// The vouches' file name, in the scope's directory beside its index.
pub const VOUCH_FILE: &str = "vouched.jsonl";

/// One vouch: this memory, with this text, may be injected.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct Vouch {
    id: String,
    hash: String,
}

/// The owner's vouches of one scope.
#[derive(Debug, Clone)]
pub struct Vouches {
    path: PathBuf,
    set: HashSet<Vouch>,
}

impl Vouches {
    /// Reads the vouches in `dir` (none when there is no file; lines that do not parse,
    /// a write cut short, are skipped).
    pub fn open(dir: &Path) -> Self {
        let path = dir.join(VOUCH_FILE);
        let set = std::fs::read_to_string(&path)
            .map(|text| text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect())
            .unwrap_or_default();
        Vouches { path, set }
    }

    /// Whether the owner vouched for this memory with its current text.
    pub fn contains(&self, memory: &Memory) -> bool {
        self.set.contains(&Vouch {
            id: memory.id.to_string(),
            hash: memory.content_hash.clone(),
        })
    }

    /// Records a vouch, readable by the owner only; one line in one write.
    pub fn add(&mut self, memory: &Memory) -> std::io::Result<()> {
        let vouch = Vouch {
            id: memory.id.to_string(),
            hash: memory.content_hash.clone(),
        };
        if self.set.contains(&vouch) {
            return Ok(());
        }
        if let Some(dir) = self.path.parent() {
            // The scope's directory, owner only (with PostgreSQL nothing else made it).
            crate::private::create_dir_within(dir, dir)?;
        }
        let mut line = serde_json::to_string(&vouch).map_err(std::io::Error::other)?;
        line.push('\n');
        // A line cut short by a kill is ended first, or this one would join it.
        let torn = std::fs::read(&self.path).is_ok_and(|b| b.last().is_some_and(|c| *c != b'\n'));
        if torn {
            line.insert(0, '\n');
        }
        let mut file = crate::private::file_options()
            .create(true)
            .append(true)
            .open(&self.path)?;
        file.write_all(line.as_bytes())?;
        file.sync_data()?;
        self.set.insert(vouch);
        Ok(())
    }
}

/// The share of `context_bar` that a memory whose text names harm the way an order
/// would (a harm signal of the rules, below their bar) must reach to be left out: two
/// weak readings of one text agree. Chosen by the rule that chose the bar
/// (docs/RELIABILITY.md).
pub const HARM_SHARE: f32 = 0.5;

/// What the rules' harm signals must weigh, as a share of their bar: one harm named.
const HARM_NAMED: f32 = 0.66;

/// Whether the rules read harm in `text` (a credential sent out, a check turned off, …)
/// without the order that would hold it in quarantine.
pub fn names_harm(text: &str) -> bool {
    crate::quarantine::directive_weight(text) >= HARM_NAMED
}

/// The model whose vectors the learned judgement reads.
fn judged_model() -> EmbeddingModel {
    EmbeddingModel {
        id: MINILM_ID.into(),
        dim: crate::quarantine::meaning::DIM,
    }
}

impl Subcog {
    fn vouches(&self, scope: ScopeKind) -> Vouches {
        let dir = self
            .scope_path(scope)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        Vouches::open(&dir)
    }

    /// Of `memories`, those hooks leave out, with their scores: a stored vector whose
    /// learned score reaches `[quarantine] context_bar` (or [`HARM_SHARE`] of it, for a
    /// text that [`names_harm`]), and no vouch from the owner.
    /// Memories without a vector (no model at capture) are not scored: the rules screened
    /// them. A store that cannot be read withholds nothing and says so in the log (its
    /// memories were screened at capture).
    pub fn withheld(&self, memories: &[&Memory]) -> HashMap<MemoryId, f32> {
        let bar = self.config.quarantine.context_bar;
        let mut out = HashMap::new();
        if memories.is_empty() || bar >= 1.0 {
            return out;
        }
        let _span = tracing::debug_span!("context.withhold", memories = memories.len()).entered();
        let model = judged_model();
        let stores = match self.existing_stores() {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!(error = %e, "withholding skipped: the stores cannot be opened");
                return out;
            }
        };
        for (kind, store) in stores {
            let of_scope: Vec<&Memory> = memories
                .iter()
                .copied()
                .filter(|m| ScopeKind::for_domain(m.domain) == kind)
                .collect();
            if of_scope.is_empty() {
                continue;
            }
            let ids: Vec<MemoryId> = of_scope.iter().map(|m| m.id).collect();
            let vectors = match store.vectors_of(&model, &ids) {
                Ok(v) => v,
                Err(e) => {
                    tracing::warn!(error = %e, scope = kind.as_str(), "withholding skipped: vectors unreadable");
                    continue;
                }
            };
            let mut vouches = None;
            for (id, v) in vectors {
                let Some(score) = crate::quarantine::meaning::score(&model, &v).filter(|s| *s >= bar * HARM_SHARE)
                else {
                    continue;
                };
                let Some(m) = of_scope.iter().find(|m| m.id == id) else {
                    continue;
                };
                if score < bar && !names_harm(&m.content) {
                    continue;
                }
                if vouches.get_or_insert_with(|| self.vouches(kind)).contains(m) {
                    continue;
                }
                out.insert(id, score);
            }
        }
        out
    }

    /// Whether a summary was made from a memory hooks leave out: one whose learned score
    /// reaches the bar, or one held in quarantine since. Its text may repeat theirs word
    /// for word (extractive summaries do). Members that cannot be read count as clean.
    pub fn made_from_withheld(&self, summary: &crate::model::MemorySummary) -> bool {
        let ids: Vec<MemoryId> = summary.source_ids.iter().filter_map(|i| i.parse().ok()).collect();
        if ids.is_empty() {
            return false;
        }
        let mut members = Vec::new();
        for (_, store) in self.existing_stores().unwrap_or_default() {
            match store.get_many(&ids) {
                Ok(found) => members.extend(found),
                Err(e) => tracing::warn!(error = %e, summary = %summary.id, "summary members unreadable"),
            }
        }
        members.iter().any(|m| m.status == crate::model::Status::Quarantined)
            || !self.withheld(&members.iter().collect::<Vec<_>>()).is_empty()
    }

    /// Records that the owner vouches for a memory's current text: hooks inject it
    /// whatever its learned score (on this machine). The update it comes with stands
    /// either way: a vouch that cannot be written is logged, like a release the
    /// screening log cannot record.
    pub(crate) fn vouch(&self, memory: &Memory) {
        let scope = ScopeKind::for_domain(memory.domain);
        let mut vouches = self.vouches(scope);
        if let Err(e) = vouches.add(memory) {
            tracing::warn!(error = %e, memory_id = %memory.id, path = %vouches.path.display(), "the vouch was not recorded: hooks may still leave this memory out");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Namespace;

    #[test]
    fn a_vouch_is_kept_for_its_id_and_text_and_a_torn_line_is_skipped() {
        let dir = tempfile::tempdir().expect("tempdir");
        let now = chrono::Utc::now();
        let m = Memory::new(
            "Use the repository pattern for DB access.",
            Namespace::parse("patterns").expect("ns"),
            now,
        );
        let mut other = m.clone();
        other.id = MemoryId::at(now + chrono::Duration::seconds(1));
        let mut v = Vouches::open(dir.path());
        assert!(!v.contains(&m));
        v.add(&m).expect("add");
        v.add(&m).expect("a second add is a no-op");
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(dir.path().join(VOUCH_FILE))
            .expect("open");
        file.write_all(b"{\"id\": \"torn").expect("write");
        let mut v = Vouches::open(dir.path());
        assert!(v.contains(&m));
        assert!(
            !v.contains(&other),
            "another memory with the same text needs its own vouch"
        );
        v.add(&other).expect("add after a torn line");
        let v = Vouches::open(dir.path());
        assert!(v.contains(&m) && v.contains(&other), "a vouch after a torn line stands");
        let mut edited = m.clone();
        edited.content_hash = crate::content::content_hash("Use raw SQL.");
        assert!(!v.contains(&edited), "new text needs a new vouch");
        let lines = std::fs::read_to_string(dir.path().join(VOUCH_FILE)).expect("read");
        assert_eq!(lines.lines().count(), 3, "two vouches and the torn line");
    }
}
