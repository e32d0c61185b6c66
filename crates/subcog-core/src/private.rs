//! Files only their owner can read: the data directory and the directories subcog makes in
//! it are 0700, databases and logs 0600, whatever the umask. On a shared machine every
//! other user could otherwise read every memory (the usual umask makes them 0755/0644).
//!
//! Owns creating those directories, narrowing a file's mode, and finding what is still
//! readable by others (for `subcog status`). Does nothing on systems without Unix modes.

use std::io;
use std::path::{Path, PathBuf};

/// Mode of directories subcog owns.
pub const DIR_MODE: u32 = 0o700;
/// Mode of files subcog owns.
pub const FILE_MODE: u32 = 0o600;

/// Creates `dir` (and its parents) and makes `dir` and every directory between `root` and
/// it private. Directories outside `root` (the user's home, a temp dir) are left alone.
pub fn create_dir_within(root: &Path, dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for d in dir.ancestors().take_while(|d| d.starts_with(root)) {
        set_mode(d, DIR_MODE)?;
    }
    Ok(())
}

/// Narrows an existing file to [`FILE_MODE`]; a missing file is not an error.
pub fn restrict_file(path: &Path) -> io::Result<()> {
    match set_mode(path, FILE_MODE) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// Options that create a file readable by its owner only (append or write as set by the
/// caller).
pub fn file_options() -> std::fs::OpenOptions {
    #[allow(unused_mut)]
    let mut options = std::fs::OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(FILE_MODE);
    }
    options
}

/// A path under the data directory that others can read or enter.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Exposed {
    /// The path.
    pub path: PathBuf,
    /// Its permission bits, e.g. `0o755`.
    pub mode: u32,
}

/// The data directory itself and the directories, databases and logs in it (two levels
/// down) that group or others may read; empty when everything is private or on systems
/// without Unix modes.
pub fn exposed(data_dir: &Path) -> Vec<Exposed> {
    let mut found = Vec::new();
    let mut visit = |path: &Path| {
        if let Some(mode) = mode_of(path).filter(|m| m & 0o077 != 0) {
            found.push(Exposed {
                path: path.to_path_buf(),
                mode,
            });
        }
    };
    visit(data_dir);
    let children = |dir: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .map(|rd| rd.flatten().map(|e| e.path()).collect())
            .unwrap_or_default()
    };
    for child in children(data_dir) {
        visit(&child);
        if child.is_dir() && !child.is_symlink() {
            for grandchild in children(&child) {
                if grandchild.is_dir() || is_private_kind(&grandchild) {
                    visit(&grandchild);
                }
                for file in children(&grandchild).iter().filter(|f| is_private_kind(f)) {
                    visit(file);
                }
            }
        }
    }
    found
}

/// Databases, their journals and logs: what holds memory text.
fn is_private_kind(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    name.ends_with(".db") || name.ends_with(".db-wal") || name.ends_with(".db-shm") || name.ends_with(".log")
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let current = std::fs::metadata(path)?.permissions().mode() & 0o777;
    if current == mode {
        return Ok(());
    }
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_mode(_path: &Path, _mode: u32) -> io::Result<()> {
    Ok(())
}

#[cfg(unix)]
fn mode_of(path: &Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::symlink_metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o777)
}

#[cfg(not(unix))]
fn mode_of(_path: &Path) -> Option<u32> {
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).expect("meta").permissions().mode() & 0o777
    }

    #[test]
    fn directories_within_the_root_become_private_and_outside_stay() {
        let tmp = tempfile::tempdir().expect("tmp");
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let root = tmp.path().join("data");
        let deep = root.join("projects/p-1");
        create_dir_within(&root, &deep).expect("create");
        assert_eq!(mode(&root), 0o700);
        assert_eq!(mode(&root.join("projects")), 0o700);
        assert_eq!(mode(&deep), 0o700);
        assert_eq!(mode(tmp.path()), 0o755, "outside the root");
        let db = deep.join("subcog.db");
        std::fs::write(&db, b"x").expect("write");
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        assert_eq!(
            exposed(&root),
            vec![Exposed {
                path: db.clone(),
                mode: 0o644
            }]
        );
        restrict_file(&db).expect("restrict");
        assert_eq!(mode(&db), 0o600);
        assert!(exposed(&root).is_empty());
        restrict_file(&deep.join("missing.db")).expect("missing is fine");
    }
}
