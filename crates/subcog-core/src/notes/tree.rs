//! The layout of a notes tree: reading notes at any fanout, writing them at `ab/cdef…`.
//!
//! Git stores the note of object `abcdef…` either flat (`abcdef…`) or under fanout
//! directories (`ab/cdef…`, `ab/cd/ef…`). We read every layout and always write one level
//! of fanout, so a capture rewrites one small subtree and the root instead of a tree with
//! every note in it. Entries that are not notes (such as `anchors/`) are preserved.

use std::collections::BTreeMap;
use std::path::Path;

use git2::{ObjectType, Oid, Repository, Tree};

const FILE_MODE: i32 = 0o100_644;
const TREE_MODE: i32 = 0o040_000;
/// The root entry holding the anchor blobs, so they stay reachable.
pub(crate) const ANCHORS_DIR: &str = "anchors";

fn is_hex(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Every note in a notes tree: annotated object → note blob.
pub(crate) fn list_notes(repo: &Repository, tree: &Tree<'_>) -> Result<BTreeMap<Oid, Oid>, git2::Error> {
    let mut out = BTreeMap::new();
    walk(repo, tree, String::new(), &mut out)?;
    Ok(out)
}

fn walk(repo: &Repository, tree: &Tree<'_>, prefix: String, out: &mut BTreeMap<Oid, Oid>) -> Result<(), git2::Error> {
    for entry in tree.iter() {
        let Ok(name) = entry.name() else { continue };
        if !is_hex(name) {
            continue;
        }
        let path = format!("{prefix}{name}");
        match entry.kind() {
            Some(ObjectType::Blob) if path.len() == 40 => {
                if let Ok(oid) = Oid::from_str(&path) {
                    out.insert(oid, entry.id());
                }
            }
            Some(ObjectType::Tree) if name.len() == 2 && path.len() < 40 => {
                walk(repo, &repo.find_tree(entry.id())?, path, out)?;
            }
            _ => {}
        }
    }
    Ok(())
}

/// The note blob of one object, at whatever fanout it is stored.
pub(crate) fn find_note(tree: &Tree<'_>, hex: &str) -> Result<Option<Oid>, git2::Error> {
    let mut candidates = vec![hex.to_string()];
    for depth in 1..=3 {
        let mut path = String::new();
        for i in 0..depth {
            path.push_str(hex.get(i * 2..i * 2 + 2).unwrap_or_default());
            path.push('/');
        }
        path.push_str(hex.get(depth * 2..).unwrap_or_default());
        candidates.push(path);
    }
    for path in candidates {
        match tree.get_path(Path::new(&path)) {
            Ok(entry) if entry.kind() == Some(ObjectType::Blob) => return Ok(Some(entry.id())),
            Ok(_) => {}
            Err(e) if e.code() == git2::ErrorCode::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(None)
}

/// Applies note edits (object hex → new blob, or removal) and the matching anchor edits
/// to `base`, returning the new root tree.
pub(crate) fn apply(
    repo: &Repository,
    base: Option<&Tree<'_>>,
    notes: &BTreeMap<String, Option<Oid>>,
    anchors: &BTreeMap<String, Option<Oid>>,
) -> Result<Oid, git2::Error> {
    let anchors_base = match base.and_then(|t| t.get_name(ANCHORS_DIR)) {
        Some(e) if e.kind() == Some(ObjectType::Tree) => Some(repo.find_tree(e.id())?),
        _ => None,
    };
    let anchors_tree = if anchors.is_empty() {
        anchors_base.as_ref().map(Tree::id)
    } else {
        edit(repo, anchors_base.as_ref(), &as_slice(anchors), 0)?
    };
    let extra = [(ANCHORS_DIR, anchors_tree)];
    let root = edit_with(repo, base, &as_slice(notes), 0, &extra)?;
    match root {
        Some(oid) => Ok(oid),
        None => repo.treebuilder(None)?.write(),
    }
}

fn as_slice(map: &BTreeMap<String, Option<Oid>>) -> Vec<(&str, Option<Oid>)> {
    map.iter().map(|(k, v)| (k.as_str(), *v)).collect()
}

fn edit(
    repo: &Repository,
    base: Option<&Tree<'_>>,
    edits: &[(&str, Option<Oid>)],
    depth: usize,
) -> Result<Option<Oid>, git2::Error> {
    edit_with(repo, base, edits, depth, &[])
}

/// Edits one level of a fanout tree. At the root every edit descends into its `ab/`
/// subtree (created when missing); at depth 1 the note is written; at any depth an older
/// copy of the note (flat or deeper) is removed, so each object has one note.
fn edit_with(
    repo: &Repository,
    base: Option<&Tree<'_>>,
    edits: &[(&str, Option<Oid>)],
    depth: usize,
    extra: &[(&str, Option<Oid>)],
) -> Result<Option<Oid>, git2::Error> {
    let consumed = depth * 2;
    let mut builder = repo.treebuilder(base)?;
    let mut groups: BTreeMap<&str, Vec<(&str, Option<Oid>)>> = BTreeMap::new();
    for &(hex, value) in edits {
        let Some(rest) = hex.get(consumed..) else { continue };
        if builder.get(rest)?.is_some() {
            builder.remove(rest)?;
        }
        if depth == 1
            && let Some(blob) = value
        {
            builder.insert(rest, blob, FILE_MODE)?;
        }
        let Some(sub) = rest.get(..2).filter(|_| rest.len() > 2) else {
            continue;
        };
        let sub_is_tree = builder.get(sub)?.is_some_and(|e| e.kind() == Some(ObjectType::Tree));
        if depth == 0 || sub_is_tree {
            groups.entry(sub).or_default().push((hex, value));
        }
    }
    for (sub, group) in groups {
        let existing = match builder.get(sub)? {
            Some(e) if e.kind() == Some(ObjectType::Tree) => Some(e.id()),
            _ => None,
        };
        let existing = existing.map(|id| repo.find_tree(id)).transpose()?;
        match edit(repo, existing.as_ref(), &group, depth + 1)? {
            Some(oid) => {
                builder.insert(sub, oid, TREE_MODE)?;
            }
            None => {
                if builder.get(sub)?.is_some() {
                    builder.remove(sub)?;
                }
            }
        }
    }
    for &(name, value) in extra {
        match value {
            Some(oid) => {
                builder.insert(name, oid, TREE_MODE)?;
            }
            None => {
                if builder.get(name)?.is_some() {
                    builder.remove(name)?;
                }
            }
        }
    }
    if builder.is_empty() {
        return Ok(None);
    }
    builder.write().map(Some)
}
