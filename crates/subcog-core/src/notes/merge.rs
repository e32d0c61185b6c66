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

/// Picks between two versions of one record.
fn choose(r: NotesRef, anchor: Oid, local: (Oid, &[u8]), remote: (Oid, &[u8]), stats: &mut MergeStats) -> Choice {
    let by_blob = |stats: &mut MergeStats| {
        if remote.0 > local.0 {
            Choice::Remote
        } else {
            stats.kept_local += 1;
            Choice::Local
        }
    };
    match r {
        NotesRef::Meta => match (MetaRecord::parse(local.1, anchor), MetaRecord::parse(remote.1, anchor)) {
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
        },
        _ => match (format::updated_at_of(local.1), format::updated_at_of(remote.1)) {
            (Some(a), Some(b)) if a != b => {
                if b > a {
                    Choice::Remote
                } else {
                    stats.kept_local += 1;
                    Choice::Local
                }
            }
            (Some(_), None) => {
                stats
                    .issues
                    .push(issue(r, anchor, "remote version has no readable updated_at".into()));
                stats.kept_local += 1;
                Choice::Local
            }
            (None, Some(_)) => Choice::Remote,
            _ => by_blob(stats),
        },
    }
}

/// A remote note with any secrets redacted; `None` when it is clean or unparsable.
fn redacted(r: NotesRef, anchor: Oid, bytes: &[u8], max_content: usize) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(bytes).ok()?;
    if secrets::redact(text, false).redactions.is_empty() {
        return None;
    }
    match r {
        NotesRef::Memories => format::parse_memory_note(bytes, anchor, max_content)
            .ok()
            .map(|m| format::memory_note(&m).into_bytes()),
        // Other records are structured data without free text from users; redact whole.
        _ => Some(secrets::redact(text, false).text.into_bytes()),
    }
}

impl NotesRepo {
    /// Merges `refs/notes/remotes/<remote>/<ref>` into the local ref. Concurrent local
    /// writes are not lost: the merge is recomputed if the local ref moves meanwhile.
    pub fn merge_tracking(
        &self,
        r: NotesRef,
        remote: &str,
        limit: usize,
        max_content: usize,
    ) -> Result<MergeStats, NotesError> {
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
            plan_merge(repo, r, local_tip, remote_tip, limit, max_content, &mut stats)
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
    limit: usize,
    max_content: usize,
    stats: &mut MergeStats,
) -> Result<Plan, git2::Error> {
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
                stats.issues.push(issue(
                    r,
                    anchor,
                    format!("remote note is {size} bytes, over the limit of {limit}"),
                ));
                continue;
            }
        };
        let remote_bytes = match redacted(r, anchor, &remote_bytes, max_content) {
            Some(clean) => {
                stats.redacted += 1;
                clean
            }
            None => remote_bytes,
        };
        let remote_blob = repo.blob(&remote_bytes)?;
        if r == NotesRef::Memories
            && let Err(e) = format::parse_memory_note(&remote_bytes, anchor, max_content)
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
