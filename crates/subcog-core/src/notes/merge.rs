//! Merging a remote's notes into ours, record by record.
//!
//! Different records (different anchors) are unioned. For the same record, memory notes
//! keep the newer `updated_at`; meta notes are combined field by field
//! ([`MetaRecord::merge`]); other records keep the newer `updated_at` of their front
//! matter. Ties and unreadable notes fall back to the larger blob id, so every machine
//! makes the same choice and repeated syncs converge. The merge commit has both tips as
//! parents, so the losing version stays in the ref's history.
//!
//! Remote notes are untrusted: a note carrying a secret is rewritten redacted; a note
//! this build cannot parse (damaged, or from a newer subcog) is kept as it is, reported,
//! and never indexed.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use git2::{Oid, Repository};

use super::format::{self, MetaRecord};
use super::{NoteIssue, NotesError, NotesRef, NotesRepo, Plan, entries_at, read_limited, tree};
use crate::secrets;

/// What merging one ref did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct MergeStats {
    /// Records only the remote had.
    pub added: usize,
    /// Records where the remote's version won.
    pub updated: usize,
    /// Records where both sides were combined into a new version.
    pub combined: usize,
    /// Records where our version won.
    pub kept_local: usize,
    /// Remote notes rewritten because they carried secrets.
    pub redacted: usize,
    /// Whether the ref moved.
    pub changed: bool,
    /// Anchors whose note changed locally (to index).
    #[serde(skip)]
    pub changed_anchors: Vec<Oid>,
    /// Remote notes that could not be used.
    pub issues: Vec<NoteIssue>,
}

enum Choice {
    Local,
    Remote,
    New(Vec<u8>),
}

fn issue(r: NotesRef, anchor: Oid, reason: String) -> NoteIssue {
    NoteIssue {
        refname: r.refname(),
        anchor: anchor.to_string(),
        reason,
    }
}

/// What a merge needs to judge notes.
#[derive(Debug, Clone, Copy)]
pub struct MergeLimits {
    /// Largest note read, in bytes.
    pub note_bytes: usize,
    /// Largest memory content accepted, in bytes.
    pub max_content: usize,
    /// Timestamps later than this are not believed (clock skew allowance past now).
    pub horizon: DateTime<Utc>,
}

/// The `updated_at` a note claims, when it parses and is not in the future.
fn stamp(r: NotesRef, anchor: Oid, bytes: &[u8], limits: &MergeLimits) -> Result<DateTime<Utc>, String> {
    let at = if r == NotesRef::Memories {
        format::parse_memory_note(bytes, anchor, limits.max_content)
            .map(|m| m.updated_at)
            .map_err(|e| e.0)?
    } else {
        format::updated_at_of(bytes).ok_or("no readable updated_at")?
    };
    if at > limits.horizon {
        return Err(format!("updated_at {at} is in the future"));
    }
    Ok(at)
}

/// Picks between two versions of one record. A version that parses beats one that does
/// not; then the newer `updated_at` wins; ties go to the larger blob id.
fn choose(
    r: NotesRef,
    anchor: Oid,
    local: (Oid, &[u8]),
    remote: (Oid, &[u8]),
    limits: &MergeLimits,
    stats: &mut MergeStats,
) -> Choice {
    let by_blob = |stats: &mut MergeStats| {
        if remote.0 > local.0 {
            Choice::Remote
        } else {
            stats.kept_local += 1;
            Choice::Local
        }
    };
    if r == NotesRef::Meta {
        return match (MetaRecord::parse(local.1, anchor), MetaRecord::parse(remote.1, anchor)) {
            (Ok(a), Ok(b)) => {
                let merged = MetaRecord::merge(&a, &b).render().into_bytes();
                if merged == local.1 {
                    stats.kept_local += 1;
                    Choice::Local
                } else if merged == remote.1 {
                    Choice::Remote
                } else {
                    stats.combined += 1;
                    Choice::New(merged)
                }
            }
            (Ok(_), Err(e)) => {
                stats.issues.push(issue(r, anchor, format!("remote version: {e}")));
                stats.kept_local += 1;
                Choice::Local
            }
            (Err(_), Ok(_)) => Choice::Remote,
            (Err(_), Err(_)) => by_blob(stats),
        };
    }
    match (stamp(r, anchor, local.1, limits), stamp(r, anchor, remote.1, limits)) {
        (Ok(a), Ok(b)) if a != b => {
            if b > a {
                Choice::Remote
            } else {
                stats.kept_local += 1;
                Choice::Local
            }
        }
        (Ok(_), Err(e)) => {
            stats.issues.push(issue(r, anchor, format!("remote version: {e}")));
            stats.kept_local += 1;
            Choice::Local
        }
        (Err(_), Ok(_)) => Choice::Remote,
        _ => by_blob(stats),
    }
}

/// A remote note with any secrets redacted; `None` when it is clean.
fn redacted(r: NotesRef, anchor: Oid, bytes: &[u8], max_content: usize) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(bytes).ok()?;
    let whole = secrets::redact(text, false);
    if whole.redactions.is_empty() {
        return None;
    }
    if r == NotesRef::Memories
        && let Ok(m) = format::parse_memory_note(bytes, anchor, max_content)
    {
        // Re-rendering keeps the note well formed; every text field was redacted on parse.
        let clean = format::memory_note(&m);
        if secrets::redact(&clean, false).redactions.is_empty() {
            return Some(clean.into_bytes());
        }
    }
    // Anything else (other records, notes this build cannot parse) is redacted as text.
    Some(whole.text.into_bytes())
}

impl NotesRepo {
    /// Merges `refs/notes/remotes/<remote>/<ref>` into the local ref. Concurrent local
    /// writes are not lost: the merge is recomputed if the local ref moves meanwhile.
    pub fn merge_tracking(&self, r: NotesRef, remote: &str, limits: &MergeLimits) -> Result<MergeStats, NotesError> {
        let _span = tracing::info_span!("notes.merge", refname = r.short(), remote).entered();
        let repo = self.lock()?;
        let tracking = r.tracking_refname(remote);
        let Some(remote_tip) = super::tip_of(&repo, &tracking).map_err(|e| self.err(e))? else {
            return Ok(MergeStats::default());
        };
        let mut stats = MergeStats::default();
        let message = format!("subcog: merge {} from {remote}", r.short());
        let before = entries_at(&repo, &r.refname()).map_err(|e| self.err(e))?;
        let mut plan = |repo: &Repository, local_tip: Option<Oid>| -> Result<Plan, git2::Error> {
            stats = MergeStats::default();
            if let Some(local) = local_tip
                && (local == remote_tip || repo.graph_descendant_of(local, remote_tip)?)
            {
                return Ok(Plan::Unchanged);
            }
            plan_merge(repo, r, local_tip, remote_tip, limits, &mut stats)
        };
        let old_tip = super::tip_of(&repo, &r.refname()).map_err(|e| self.err(e))?;
        let new_tip = self.update_ref(&repo, &r.refname(), &message, &mut plan)?;
        stats.changed = new_tip != old_tip;
        if stats.changed {
            let after = entries_at(&repo, &r.refname()).map_err(|e| self.err(e))?;
            stats.changed_anchors = after
                .iter()
                .filter(|(a, b)| before.get(a) != Some(b))
                .map(|(a, _)| *a)
                .collect();
        }
        Ok(stats)
    }
}

fn plan_merge(
    repo: &Repository,
    r: NotesRef,
    local_tip: Option<Oid>,
    remote_tip: Oid,
    limits: &MergeLimits,
    stats: &mut MergeStats,
) -> Result<Plan, git2::Error> {
    let limit = limits.note_bytes;
    let remote_tree = repo.find_commit(remote_tip)?.tree()?;
    let remote_notes = tree::list_notes(repo, &remote_tree)?;
    let local_tree = local_tip
        .map(|t| repo.find_commit(t).and_then(|c| c.tree()))
        .transpose()?;
    let local_notes = match &local_tree {
        Some(t) => tree::list_notes(repo, t)?,
        None => BTreeMap::new(),
    };
    let read = |blob: Oid| read_limited(repo, blob, limit);
    let mut notes: BTreeMap<String, Option<Oid>> = BTreeMap::new();
    let mut anchors: BTreeMap<String, Option<Oid>> = BTreeMap::new();
    let mut take = |anchor: Oid, blob: Oid, notes: &mut BTreeMap<String, Option<Oid>>| {
        notes.insert(anchor.to_string(), Some(blob));
        // The remote's anchors tree holds the anchor blob, fetched with it.
        if repo.find_blob(anchor).is_ok() {
            anchors.insert(anchor.to_string(), Some(anchor));
        }
    };
    let keys: BTreeSet<Oid> = remote_notes.keys().copied().collect();
    for anchor in keys {
        let Some(&remote_blob) = remote_notes.get(&anchor) else {
            continue;
        };
        let remote_bytes = match read(remote_blob)? {
            Ok(b) => b,
            Err(size) => {
                // Too large to read here, but another machine may accept it: keep it as it
                // is (never indexed here) rather than drop it from the shared history.
                stats.issues.push(issue(
                    r,
                    anchor,
                    format!("remote note is {size} bytes, over the limit of {limit}"),
                ));
                if !local_notes.contains_key(&anchor) {
                    stats.added += 1;
                    take(anchor, remote_blob, &mut notes);
                }
                continue;
            }
        };
        let remote_bytes = match redacted(r, anchor, &remote_bytes, limits.max_content) {
            Some(clean) => {
                stats.redacted += 1;
                clean
            }
            None => remote_bytes,
        };
        let remote_blob = repo.blob(&remote_bytes)?;
        if r == NotesRef::Memories
            && let Err(e) = format::parse_memory_note(&remote_bytes, anchor, limits.max_content)
        {
            stats.issues.push(issue(r, anchor, e.0));
        }
        match local_notes.get(&anchor) {
            None => {
                stats.added += 1;
                take(anchor, remote_blob, &mut notes);
            }
            Some(&local_blob) if local_blob == remote_blob => {}
            Some(&local_blob) => {
                let local_bytes = read(local_blob)?.unwrap_or_default();
                match choose(
                    r,
                    anchor,
                    (local_blob, &local_bytes),
                    (remote_blob, &remote_bytes),
                    limits,
                    stats,
                ) {
                    Choice::Local => {}
                    Choice::Remote => {
                        stats.updated += 1;
                        take(anchor, remote_blob, &mut notes);
                    }
                    Choice::New(bytes) => {
                        let blob = repo.blob(&bytes)?;
                        take(anchor, blob, &mut notes);
                    }
                }
            }
        }
    }
    let tree = tree::apply(repo, local_tree.as_ref(), &notes, &anchors)?;
    let behind = match local_tip {
        None => true,
        Some(local) => repo.graph_descendant_of(remote_tip, local)?,
    };
    if behind && tree == remote_tree.id() {
        // Nothing of ours the remote lacks and nothing rewritten: adopt its history as is.
        return Ok(Plan::FastForward(remote_tip));
    }
    let mut parents: Vec<Oid> = local_tip.into_iter().collect();
    parents.push(remote_tip);
    Ok(Plan::Commit { tree, parents })
}
