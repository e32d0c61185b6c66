//! The warm path: hooks and CLI reads hand their work over a Unix socket in the data
//! directory to a subcog process that already holds the embedding model, the stores and
//! their vector indexes — `subcog mcp` when one runs, otherwise `subcog daemon`, which the
//! first hook of a session starts and which exits after `daemon.idle_timeout_secs` without
//! a request.
//!
//! This module owns the socket, its protocol and who may be trusted on either end. The
//! client never trusts what it cannot check: the socket must be the user's own (owner,
//! mode 0600, peer credentials of the process behind it), and the server must be the same
//! build (version and executable). Anything else — no socket, a stale one, another version,
//! another user, no answer in time — and the command does the work itself.
//!
//! One request per connection, JSON lines: the client sends a [`Request`]; the server
//! answers an [`Ack`] at once, then the [`Reply`] when the work is done.

pub mod client;
mod peer;
pub mod server;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::app::Env;

/// The socket's file name in the data directory.
pub const SOCKET: &str = "subcog.sock";
/// Held by the process serving the socket, for as long as it serves.
const LOCK: &str = "subcog.sock.lock";
/// The daemon's log (stderr), in the data directory.
pub const LOG: &str = "daemon.log";

/// A Unix socket path longer than this does not fit `sun_path` on every system.
const MAX_SOCKET_PATH: usize = 100;

/// A command for the warm process.
#[derive(Debug, Serialize, Deserialize)]
pub struct Request {
    /// The client's [`build_id`]; another build is refused.
    pub build: String,
    /// The data directory the client resolved (the server serves only its own).
    pub data_dir: PathBuf,
    /// The command line, program name first.
    pub argv: Vec<String>,
    /// The client's environment and working directory.
    pub env: Env,
    /// What the client read from stdin (a hook's payload).
    pub stdin: String,
}

/// The server's first answer: whether it will run the request.
#[derive(Debug, Serialize, Deserialize)]
pub struct Ack {
    /// Taken; a [`Reply`] follows.
    pub accepted: bool,
    /// Why not.
    #[serde(default)]
    pub reason: String,
}

/// What the command printed and its exit code.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Reply {
    /// Stdout.
    pub stdout: String,
    /// Stderr.
    pub stderr: String,
    /// The exit code.
    pub code: u8,
}

/// The socket of a data directory; `None` when its path is too long for a socket.
pub fn socket_path(data_dir: &Path) -> Option<PathBuf> {
    let path = data_dir.join(SOCKET);
    (path.as_os_str().len() <= MAX_SOCKET_PATH).then_some(path)
}

/// This build: the version and the executable's size and modification time, so a rebuilt
/// or upgraded binary never talks to a process running the old code.
pub fn build_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let exe = std::env::current_exe().ok();
        format!(
            "{} {}",
            env!("CARGO_PKG_VERSION"),
            exe.as_deref().map(exe_fingerprint).unwrap_or_default()
        )
    })
}

/// Size and modification time of an executable.
fn exe_fingerprint(path: &Path) -> String {
    match std::fs::metadata(path) {
        Ok(m) => {
            let modified = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_nanos())
                .unwrap_or(0);
            format!("{}:{modified}", m.len())
        }
        Err(_) => String::new(),
    }
}
