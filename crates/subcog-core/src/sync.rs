//! Team sync: exchanging notes with a git remote and indexing what arrives.
//!
//! `sync` flushes recall counts to `mem-meta`, fetches the remote's notes into
//! `refs/notes/remotes/<remote>/…` (never straight into local refs), merges each ref
//! record by record ([`crate::notes::merge`]), pushes, and indexes every record that
//! changed. A push rejected because someone else pushed meanwhile starts the round again.
//! Captures running during a sync lose nothing: every local ref update is a
//! compare-and-swap that recomputes the merge when the ref moved.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::model::Memory;
use crate::notes::merge::MergeStats;
use crate::notes::{self, NotesRef, NotesRepo};
use crate::reindex::ScopeReindex;
use crate::service::{EmbedderState, ScopeKind, Subcog};

/// How often fetch → merge → push is tried before giving up on a busy remote.
const ROUNDS: usize = 3;

/// One ref's part of a sync.
#[derive(Debug, Clone, Serialize)]
pub struct RefSync {
    /// The ref.
    pub refname: String,
    /// What merging it did.
    #[serde(flatten)]
    pub merge: MergeStats,
}

/// What `subcog sync` did.
#[derive(Debug, Clone, Serialize)]
pub struct SyncReport {
    /// The scope synced.
    pub scope: String,
    /// The remote.
    pub remote: String,
    /// The repository.
    pub repository: String,
    /// Meta notes flushed before fetching.
    pub flushed_meta: usize,
    /// Per ref, in sync order.
    pub refs: Vec<RefSync>,
    /// Fetch-merge-push rounds it took.
    pub rounds: usize,
    /// Refs pushed.
    pub pushed: Vec<String>,
    /// What indexing the arrivals did.
    pub indexed: ScopeReindex,
    /// Memories embedded after indexing.
    pub embedded: usize,
    /// Memories that arrived reading as instructions to the agent: held in quarantine here
    /// and in their notes (pushed, so the team's copies are held back too).
    pub quarantined: Vec<String>,
}

/// What `subcog init --sync` configured.
#[derive(Debug, Clone, Serialize)]
pub struct SyncSetup {
    /// The repository configured.
    pub repository: String,
    /// The remote.
    pub remote: String,
    /// Its URL.
    pub url: String,
    /// The fetch refspec, and whether it was newly added.
    pub refspec: String,
    /// False when it was already configured.
    pub added: bool,
}

/// Remote names become ref path components: keep them to what git allows everywhere.
fn check_remote_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && !name.starts_with(['-', '.'])
        && !name.contains("..")
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if ok {
        Ok(())
    } else {
        Err(crate::error::ValidationError::UnknownValue {
            what: "remote name",
            value: name.to_string(),
            expected: "a configured remote name (letters, digits, '-', '_', '.')".into(),
        }
        .into())
    }
}

impl Subcog {
    fn sync_repo(&self, scope: ScopeKind, create: bool) -> Result<std::sync::Arc<NotesRepo>> {
        self.notes_repo(scope, create)?.ok_or_else(|| match scope {
            ScopeKind::Project => Error::NoRepository {
                what: "sync",
                hint: format!(
                    "{} is not a git repository (or storage.git_notes is off); run `git init` first",
                    self.location.project_root.display()
                ),
            },
            ScopeKind::User => Error::NoRepository {
                what: "sync --user",
                hint: "set up the user notes repository with `subcog init --sync --user --url URL`".into(),
            },
        })
    }

    fn require_remote(&self, repo: &NotesRepo, scope: ScopeKind, remote: &str) -> Result<String> {
        check_remote_name(remote)?;
        repo.remote_url(remote)?.ok_or_else(|| Error::NoRemote {
            name: remote.to_string(),
            repo: repo.path().display().to_string(),
            hint: match scope {
                ScopeKind::Project => format!("add it with `git remote add {remote} URL`"),
                ScopeKind::User => format!("add it with `subcog init --sync --user --remote {remote} --url URL`"),
            },
        })
    }

    /// What a merge of remote notes accepts.
    pub(crate) fn merge_limits(&self) -> crate::notes::merge::MergeLimits {
        crate::notes::merge::MergeLimits {
            note_bytes: self.note_limit(),
            max_content: self.config.capture.max_content_bytes,
            horizon: self.clock.now() + chrono::Duration::days(1),
        }
    }

    /// Configures a remote for notes sync: records `url` as the remote (when given) and
    /// adds the fetch refspec so plain `git fetch` also brings the notes into tracking refs.
    pub fn setup_sync(&self, scope: ScopeKind, remote: &str, url: Option<&str>) -> Result<SyncSetup> {
        check_remote_name(remote)?;
        let repo = self.sync_repo(scope, true)?;
        if let Some(url) = url {
            match repo.remote_url(remote)? {
                None => repo.set_remote(remote, url)?,
                Some(existing) if existing == url => {}
                Some(existing) => {
                    return Err(crate::error::ValidationError::UnknownValue {
                        what: "remote URL",
                        value: url.to_string(),
                        expected: format!(
                            "the URL {remote} already has ({existing}); change it with `git -C {} remote set-url {remote} URL`",
                            repo.path().display()
                        ),
                    }
                    .into());
                }
            }
        }
        let url = self.require_remote(&repo, scope, remote)?;
        let refspec = format!("+refs/notes/mem*:refs/notes/remotes/{remote}/mem*");
        let added = repo.add_fetch_refspec(remote, &refspec)?;
        Ok(SyncSetup {
            repository: repo.path().display().to_string(),
            remote: remote.to_string(),
            url,
            refspec,
            added,
        })
    }

    /// Exchanges a scope's notes with `remote` and indexes what arrived.
    pub fn sync(&self, scope: ScopeKind, remote: &str) -> Result<SyncReport> {
        let _span = tracing::info_span!("sync", scope = scope.as_str(), remote).entered();
        let repo = self.sync_repo(scope, false)?;
        self.require_remote(&repo, scope, remote)?;
        let flushed_meta = self.flush_meta(scope)?;
        let limits = self.merge_limits();
        let mut refs: Vec<RefSync> = Vec::new();
        let mut changed = BTreeSet::new();
        let mut rounds = 0;
        let mut quarantined: Vec<String> = Vec::new();
        let mut indexed = ScopeReindex {
            scope: scope.as_str().into(),
            repository: repo.path().display().to_string(),
            ..Default::default()
        };
        let pushed = loop {
            rounds += 1;
            notes::fetch(repo.path(), remote)?;
            // A kill between the merge and the indexing below would leave notes the index
            // never sees; the journal has the next command compare the scope instead.
            let entry = match self.journal(scope).begin_merge(&self.location().data_dir) {
                Ok(entry) => Some(entry),
                Err(e) => {
                    tracing::warn!(error = %e, "cannot write the journal");
                    None
                }
            };
            for r in NotesRef::ALL {
                let stats = repo.merge_tracking(r, remote, &limits)?;
                if matches!(r, NotesRef::Memories | NotesRef::Meta) {
                    changed.extend(stats.changed_anchors.iter().copied());
                }
                match refs.iter_mut().find(|x| x.refname == r.refname()) {
                    Some(existing) => accumulate(&mut existing.merge, stats),
                    None => refs.push(RefSync {
                        refname: r.refname(),
                        merge: stats,
                    }),
                }
            }
            // Index what arrived before pushing: a push that fails must not leave merged
            // notes the index never sees (the next merge would find nothing new).
            let arrived: BTreeSet<_> = std::mem::take(&mut changed);
            if !arrived.is_empty() {
                let mut snapshot = self.read_notes(&repo, scope, Some(&arrived))?;
                indexed.notes += snapshot.memories.len();
                indexed.skipped.extend(snapshot.issues.iter().cloned());
                let read: std::collections::BTreeMap<_, String> = snapshot
                    .memories
                    .iter()
                    .map(|m| (m.id, notes::format::memory_note(m)))
                    .collect();
                let held = self.screen_arrivals(scope, &mut snapshot.memories)?;
                self.index_memories(
                    scope,
                    snapshot.memories,
                    &snapshot.with_meta,
                    &mut indexed,
                    &mut |_, _| {},
                )?;
                if !held.is_empty() {
                    // The held version replaces a note only where it is still the one read:
                    // screening takes time (inference), and a local edit meanwhile wins.
                    let anchors: BTreeSet<git2::Oid> = held
                        .iter()
                        .map(|m| notes::Anchor::memory(&m.id.to_string()).oid)
                        .collect();
                    let tip = self.read_notes(&repo, scope, Some(&anchors))?;
                    let edits: Vec<_> = held
                        .iter()
                        .filter(|h| {
                            tip.memories
                                .iter()
                                .any(|t| t.id == h.id && read.get(&h.id) == Some(&notes::format::memory_note(t)))
                        })
                        .map(crate::persist::note_edit)
                        .collect();
                    if !edits.is_empty() {
                        repo.write(
                            &NotesRef::Memories.refname(),
                            &edits,
                            &format!("subcog: sync held {} arriving notes in quarantine", edits.len()),
                        )?;
                    }
                    quarantined.extend(held.iter().map(|m| m.id.to_string()));
                }
            }
            if let Some(entry) = entry {
                entry.done();
            }
            // Push only what we have and the remote lacks.
            let mut to_push = Vec::new();
            for r in NotesRef::ALL {
                let Some(local) = repo.tip(&r.refname())? else { continue };
                let up_to_date = match repo.tip(&r.tracking_refname(remote))? {
                    Some(theirs) => theirs == local,
                    None => false,
                };
                if !up_to_date {
                    to_push.push(r);
                }
            }
            match notes::push(repo.path(), remote, &to_push) {
                Ok(()) => {
                    // The remote now has our tips: record that, so the next sync knows.
                    for r in &to_push {
                        if let Some(local) = repo.tip(&r.refname())? {
                            repo.set_ref(&r.tracking_refname(remote), local, "subcog: pushed")?;
                        }
                    }
                    break to_push.iter().map(|r| r.refname()).collect::<Vec<_>>();
                }
                Err(e) if rounds < ROUNDS => {
                    tracing::info!(error = %e, round = rounds, "push rejected; fetching and merging again");
                }
                Err(e) => return Err(e.into()),
            }
        };
        notes::maintain(repo.path());
        let embedded =
            if indexed.inserted + indexed.replaced > 0 && matches!(self.embedder_state(), EmbedderState::Ready(_)) {
                self.reindex_embeddings(false, &mut |_, _| {})?.embedded
            } else {
                0
            };
        Ok(SyncReport {
            scope: scope.as_str().into(),
            remote: remote.to_string(),
            repository: repo.path().display().to_string(),
            flushed_meta,
            refs,
            rounds,
            pushed,
            indexed,
            embedded,
            quarantined,
        })
    }

    /// Holds back arriving memories whose text is new here and reads as an instruction to
    /// the agent. A memory whose content the index already has keeps the status its note
    /// carries, so a release made on another machine is not undone.
    fn screen_arrivals(&self, scope: ScopeKind, arrivals: &mut [Memory]) -> Result<Vec<Memory>> {
        let store = self.store_for_write(scope)?;
        let mut held = Vec::new();
        let mut unheld: Vec<&mut Memory> = Vec::new();
        for m in arrivals.iter_mut() {
            let known = store.get(&m.id)?.is_some_and(|old| old.content == m.content);
            if known {
                continue;
            }
            if crate::quarantine::hold(m).is_some() {
                held.push(m.clone());
            } else {
                unheld.push(m);
            }
        }
        let by_meaning = self.hold_by_meaning(&mut unheld);
        held.extend(
            unheld
                .iter()
                .zip(by_meaning)
                .filter(|(_, h)| *h)
                .map(|(m, _)| (**m).clone()),
        );
        Ok(held)
    }
}

fn accumulate(into: &mut MergeStats, more: MergeStats) {
    into.added += more.added;
    into.updated += more.updated;
    into.combined += more.combined;
    into.kept_local += more.kept_local;
    into.redacted += more.redacted;
    into.changed |= more.changed;
    into.changed_anchors.extend(more.changed_anchors);
    into.issues.extend(more.issues);
}
