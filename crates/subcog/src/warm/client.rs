//! The client side of the warm path: hooks and reads try the socket first and do the work
//! themselves when it cannot be trusted or does not answer.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

use super::peer::{my_uid, peer_uid};
use super::{Ack, LOG, Reply, Request, build_id, socket_path};
use crate::app::App;

/// How long the server has to take a request before the client does the work itself.
const ACK_TIMEOUT: Duration = Duration::from_millis(250);
/// How long a hook waits for the answer once the server took it (Claude Code gives a hook
/// several seconds; an answer later than this is not worth waiting for).
const HOOK_ANSWER_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a read waits for the answer before doing the work itself.
const READ_ANSWER_TIMEOUT: Duration = Duration::from_secs(10);
/// Largest reply read.
const MAX_REPLY: u64 = 64 * 1024 * 1024;

/// What came of trying the warm process.
enum Outcome {
    /// Nothing served the request: do the work here.
    NotServed,
    /// The server took the request but no answer came back (it may have done the work).
    Lost(String),
    /// The answer.
    Answered(Reply),
}

/// A hook through the warm process: the JSON line to print, or `None` to run it here. A
/// daemon is started when none listens, for the hooks that follow.
pub fn hook(app: &App, stdin: &str, event: subcog_core::hooks::HookEvent) -> Option<String> {
    match forward(app, stdin, true, HOOK_ANSWER_TIMEOUT) {
        Outcome::NotServed => None,
        Outcome::Answered(reply) => Some(reply.stdout.trim_end().to_string()),
        Outcome::Lost(why) => {
            // The server may have claimed this payload already: running it again here would
            // count as a second registration. Answer nothing, as any failed hook does.
            tracing::warn!(error = %why, "the warm process took the hook but did not answer; answering with nothing");
            serde_json::to_string(&subcog_core::hooks::answer(event, "", None)).ok()
        }
    }
}

/// A read or a capture through the warm process, when one runs: its output is printed
/// here and its exit code returned; `None` means run it here. Running a capture again
/// after a lost answer is safe: the same content in the same namespace is stored once.
pub fn command(app: &App, stdin: &str) -> Option<u8> {
    match forward(app, stdin, false, READ_ANSWER_TIMEOUT) {
        Outcome::NotServed => None,
        Outcome::Lost(why) => {
            tracing::debug!(error = %why, "the warm process did not answer; running here");
            None
        }
        Outcome::Answered(reply) => {
            tracing::debug!(code = reply.code, "answered by the warm process");
            let _ = anstream::stdout().lock().write_all(reply.stdout.as_bytes());
            let _ = anstream::stderr().lock().write_all(reply.stderr.as_bytes());
            Some(reply.code)
        }
    }
}

/// Sends this process's command line, environment and `stdin` to the socket of the data
/// directory, after checking whose it is.
fn forward(app: &App, stdin: &str, start: bool, answer_timeout: Duration) -> Outcome {
    let Ok(data_dir) = app.data_dir() else {
        return Outcome::NotServed;
    };
    let Some(path) = socket_path(&data_dir) else {
        tracing::debug!(dir = %data_dir.display(), "data directory path too long for a socket; no warm path");
        return Outcome::NotServed;
    };
    match std::fs::symlink_metadata(&path) {
        Err(_) => {
            if start {
                start_daemon(app, &data_dir);
            }
            return Outcome::NotServed;
        }
        Ok(m) if !m.file_type().is_socket() || m.uid() != my_uid() || m.mode() & 0o077 != 0 => {
            tracing::warn!(path = %path.display(), "not using a socket that is not this user's alone");
            return Outcome::NotServed;
        }
        Ok(_) => {}
    }
    let stream = match UnixStream::connect(&path) {
        Ok(s) => s,
        Err(e) => {
            // A socket nobody listens on: its server died. A new daemon replaces it.
            tracing::debug!(error = %e, "no warm process answers");
            if start && e.kind() == std::io::ErrorKind::ConnectionRefused {
                start_daemon(app, &data_dir);
            }
            return Outcome::NotServed;
        }
    };
    if peer_uid(&stream) != Some(my_uid()) {
        tracing::warn!(path = %path.display(), "the process behind the socket is another user's; not using it");
        return Outcome::NotServed;
    }
    let argv: Option<Vec<String>> = std::env::args_os().map(|a| a.into_string().ok()).collect();
    let Some(argv) = argv else {
        return Outcome::NotServed;
    };
    let request = Request {
        build: build_id().to_string(),
        data_dir,
        argv,
        env: app.env.clone(),
        stdin: stdin.to_string(),
    };
    let Ok(mut line) = serde_json::to_string(&request) else {
        return Outcome::NotServed;
    };
    line.push('\n');
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    if let Err(e) = (&stream).write_all(line.as_bytes()) {
        tracing::debug!(error = %e, "could not send to the warm process");
        return Outcome::NotServed;
    }
    let _ = stream.set_read_timeout(Some(ACK_TIMEOUT));
    let mut reader = BufReader::new((&stream).take(MAX_REPLY));
    let mut ack = String::new();
    match reader.read_line(&mut ack) {
        Ok(n) if n > 0 => {}
        Ok(_) => return Outcome::NotServed,
        Err(e) => {
            tracing::debug!(error = %e, "the warm process did not take the request in time");
            return Outcome::NotServed;
        }
    }
    match serde_json::from_str::<Ack>(&ack) {
        Ok(a) if a.accepted => {}
        Ok(a) => {
            tracing::debug!(reason = %a.reason, "the warm process refused the request");
            return Outcome::NotServed;
        }
        Err(_) => return Outcome::NotServed,
    }
    let _ = stream.set_read_timeout(Some(answer_timeout));
    let mut answer = String::new();
    match reader.read_line(&mut answer) {
        Ok(n) if n > 0 => match serde_json::from_str::<Reply>(&answer) {
            Ok(reply) => Outcome::Answered(reply),
            Err(e) => Outcome::Lost(format!("unreadable answer: {e}")),
        },
        Ok(_) => Outcome::Lost("connection closed".into()),
        Err(e) => Outcome::Lost(e.to_string()),
    }
}

/// Starts `subcog daemon` for this data directory, detached (its own process group, no
/// terminal, stderr to the daemon log); the hook does not wait for it.
fn start_daemon(app: &App, data_dir: &Path) {
    use std::os::unix::process::CommandExt;
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    if !data_dir.is_dir() {
        // Nothing stored yet: nothing to keep warm.
        return;
    }
    let log = subcog_core::private::file_options()
        .create(true)
        .append(true)
        .open(data_dir.join(LOG))
        .map(std::process::Stdio::from)
        .unwrap_or_else(|_| std::process::Stdio::null());
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("daemon")
        .arg("--data-dir")
        .arg(data_dir)
        .current_dir(data_dir)
        .env_clear()
        .envs(app.env.vars.iter().filter(|(k, _)| {
            // The daemon's own settings; each request brings the rest.
            k.starts_with("SUBCOG_") || matches!(k.as_str(), "HOME" | "PATH" | "RAYON_NUM_THREADS")
        }))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(log)
        .process_group(0);
    match cmd.spawn() {
        Ok(child) => tracing::debug!(pid = child.id(), "started the warm process"),
        Err(e) => tracing::debug!(error = %e, "could not start the warm process"),
    }
}
