//! Where data lives: the project a directory belongs to, and the database of each scope.
//!
//! Layout under the data directory:
//! - `projects/<name>-<hash>/subcog.db`: one per project, keyed by the canonical path of
//!   the git root of the working directory (or the directory itself outside git);
//! - `user/subcog.db`: user- and org-domain memories, recalled in every project;
//! - `user/notes.git`: a bare git repository with the user scope's notes.

use directories::{BaseDirs, ProjectDirs};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// File name of every scope's database.
pub const DB_FILE: &str = "subcog.db";

/// Directory (under `user/`) of the bare repository with the user scope's notes.
pub const USER_NOTES_DIR: &str = "notes.git";

/// The resolved locations for one invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataLocation {
    /// The data directory.
    pub data_dir: PathBuf,
    /// The project root the working directory belongs to.
    pub project_root: PathBuf,
    /// The project's database.
    pub project_db: PathBuf,
    /// The user scope's database.
    pub user_db: PathBuf,
    /// The bare git repository holding the user scope's notes.
    pub user_notes: PathBuf,
}

impl DataLocation {
    /// Resolves the locations for a working directory under a data directory.
    pub fn resolve(data_dir: &Path, cwd: &Path) -> Self {
        let project_root = project_root(cwd);
        DataLocation {
            data_dir: data_dir.to_path_buf(),
            project_db: project_db_path(data_dir, &project_root),
            user_db: data_dir.join("user").join(DB_FILE),
            user_notes: data_dir.join("user").join(USER_NOTES_DIR),
            project_root,
        }
    }
}

/// The git root containing `dir` (a directory holding `.git`, as a directory or a file for
/// worktrees and submodules), or `dir` itself outside git. Symlinks are resolved so two
/// spellings of one path share a store.
pub fn project_root(dir: &Path) -> PathBuf {
    let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    dir.ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
        .unwrap_or(dir)
}

/// The database of a project: readable directory name plus a hash of the full path.
pub fn project_db_path(data_dir: &Path, root: &Path) -> PathBuf {
    let digest = Sha256::digest(root.to_string_lossy().as_bytes());
    let hash: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    let name: String = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "root".into())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    data_dir.join("projects").join(format!("{name}-{hash}")).join(DB_FILE)
}

/// The platform's data directory for subcog (`~/.local/share/subcog` on Linux).
pub fn default_data_dir() -> Option<PathBuf> {
    ProjectDirs::from("", "", "subcog").map(|d| d.data_dir().to_path_buf())
}

/// `$XDG_CONFIG_HOME/subcog/config.toml`, else `~/.config/subcog/config.toml` (on every
/// platform: command-line tools keep their config there by convention).
pub fn default_config_file(xdg_config_home: Option<&Path>) -> Option<PathBuf> {
    let base = match xdg_config_home {
        Some(dir) if dir.is_absolute() => dir.to_path_buf(),
        _ => BaseDirs::new()?.home_dir().join(".config"),
    };
    Some(base.join("subcog").join("config.toml"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_root_is_the_git_root() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().canonicalize().expect("canon");
        std::fs::create_dir_all(root.join(".git")).expect("git dir");
        std::fs::create_dir_all(root.join("src/deep")).expect("subdir");
        assert_eq!(project_root(&root.join("src/deep")), root);
        let outside = tempfile::tempdir().expect("tempdir");
        let outside_root = outside.path().canonicalize().expect("canon");
        assert_eq!(project_root(&outside_root), outside_root);
    }

    #[test]
    fn project_databases_differ_by_path() {
        let data = Path::new("/data");
        let a = project_db_path(data, Path::new("/src/app"));
        let b = project_db_path(data, Path::new("/other/app"));
        assert_ne!(a, b);
        assert!(a.starts_with("/data/projects"));
        assert!(a.to_string_lossy().contains("/app-"));
        let odd = project_db_path(data, Path::new("/src/my app!"));
        assert!(odd.to_string_lossy().contains("my_app_-"));
    }

    #[test]
    fn config_file_honours_xdg() {
        assert_eq!(
            default_config_file(Some(Path::new("/xdg"))),
            Some(PathBuf::from("/xdg/subcog/config.toml"))
        );
    }
}
