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

/// A project's key on a shared database: the `origin` remote's URL without scheme, user,
/// port and `.git`, lowercased host (`github.com/org/repo`), so every clone of a repository
/// shares one memory; `path:<root>` when the project has no such remote.
pub fn project_key(root: &Path) -> String {
    let remote = git2::Repository::open(root).ok().and_then(|repo| {
        repo.find_remote("origin")
            .ok()
            .and_then(|r| r.url().ok().map(str::to_string))
    });
    match remote.as_deref().and_then(normalize_remote) {
        Some(key) => key,
        None => format!("path:{}", root.display()),
    }
}

/// `git@github.com:Org/Repo.git`, `https://user@github.com/Org/Repo` and
/// `ssh://git@github.com:22/Org/Repo.git` all give `github.com/Org/Repo`; a repository on
/// this machine (`/srv/git/repo.git`, `file:///srv/git/repo.git`) gives `file:/srv/git/repo`.
pub fn normalize_remote(url: &str) -> Option<String> {
    let url = url.trim();
    let local = url.strip_prefix("file://").unwrap_or(url);
    if local.starts_with('/') {
        let path = local.trim_end_matches('/');
        return Some(format!("file:{}", path.strip_suffix(".git").unwrap_or(path)));
    }
    let (host, path) = match url.split_once("://") {
        Some((_, rest)) => {
            let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
            let (host, path) = rest.split_once('/')?;
            (host.split(':').next().unwrap_or(host), path)
        }
        // scp-like: user@host:path
        None => {
            let rest = url.rsplit_once('@').map_or(url, |(_, r)| r);
            let (host, path) = rest.split_once(':')?;
            (host, path)
        }
    };
    let path = path.trim_matches('/');
    let path = path.strip_suffix(".git").unwrap_or(path);
    if host.is_empty() || path.is_empty() {
        return None;
    }
    Some(format!("{}/{}", host.to_ascii_lowercase(), path))
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

/// `$XDG_CONFIG_HOME/subcog/config.toml`, else `$HOME/.config/subcog/config.toml` (on
/// every platform: command-line tools keep their config there by convention). Both come
/// from the caller, whose environment may not be this process's (a forwarded command);
/// without a home, the platform's.
pub fn default_config_file(xdg_config_home: Option<&Path>, home: Option<&Path>) -> Option<PathBuf> {
    let base = match (xdg_config_home, home) {
        (Some(dir), _) if dir.is_absolute() => dir.to_path_buf(),
        (_, Some(home)) => home.join(".config"),
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
    fn remotes_normalize_to_one_key() {
        for url in [
            "git@github.com:Org/Repo.git",
            "https://user:token@GitHub.com/Org/Repo",
            "ssh://git@github.com:22/Org/Repo.git",
            "https://github.com/Org/Repo.git/",
        ] {
            assert_eq!(normalize_remote(url).as_deref(), Some("github.com/Org/Repo"), "{url}");
        }
        assert_eq!(normalize_remote("not a url"), None);
        assert_eq!(
            normalize_remote("/srv/git/repo.git").as_deref(),
            Some("file:/srv/git/repo")
        );
        assert_eq!(
            normalize_remote("file:///srv/git/repo.git/").as_deref(),
            Some("file:/srv/git/repo")
        );
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
            default_config_file(Some(Path::new("/xdg")), Some(Path::new("/home/u"))),
            Some(PathBuf::from("/xdg/subcog/config.toml"))
        );
        assert_eq!(
            default_config_file(Some(Path::new("relative")), Some(Path::new("/home/u"))),
            Some(PathBuf::from("/home/u/.config/subcog/config.toml"))
        );
    }
}
