//! The server side of the warm path: one listener per data directory (the lock file
//! decides who serves), a thread per connection, and a cache of wired services per
//! project and configuration so the embedding model, the stores and their vector indexes
//! stay loaded between requests.

use std::collections::HashMap;
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use clap::Parser;
use subcog_core::Subcog;
use subcog_core::embed::Embedder;
use subcog_core::location::DataLocation;

use super::peer::{my_uid, peer_uid};
use super::{Ack, LOCK, Reply, Request, build_id, exe_fingerprint, socket_path};
use crate::app::{App, Env};
use crate::cli::{Cli, Command};
use crate::command_error::CommandError;

/// Largest request read (a hook payload is at most 16 MB, plus the environment).
const MAX_REQUEST: u64 = 20 * 1024 * 1024;
/// Most sets of services kept (one per project and configuration in use).
const MAX_SERVICES: usize = 8;
/// How often the watchdog looks at the socket, the executable and the idle time.
const WATCH_EVERY: Duration = Duration::from_millis(500);

/// Who runs the listener.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// `subcog daemon`: exits when idle, replaced or stopped.
    Daemon,
    /// `subcog mcp`: serves as long as the server runs.
    Mcp,
}

/// A bound socket, not yet serving.
pub struct Listening {
    listener: UnixListener,
    path: PathBuf,
    /// The socket file's inode: removed on exit only if it is still ours.
    ino: u64,
    /// Held while serving: the next process to take it knows the socket is stale.
    _lock: File,
    state: Arc<State>,
}

/// What every connection shares.
struct State {
    data_dir: PathBuf,
    owner: Owner,
    started: Instant,
    last: Mutex<Instant>,
    in_flight: AtomicUsize,
    stop: AtomicBool,
    embedders: Mutex<HashMap<PathBuf, Loaded>>,
    services: Mutex<Vec<Entry>>,
    /// The service of the process that serves (`subcog mcp`): its model is lent to
    /// requests that use the same model directory, so the process holds one copy.
    lender: OnceLock<Arc<Subcog>>,
}

/// A model loaded once, with the fingerprint of the weights it was loaded from.
type Loaded = (String, Arc<dyn Embedder>);

/// One cached set of services.
struct Entry {
    key: u64,
    subcog: Arc<Subcog>,
    /// The databases' (device, inode) once they exist: a file replaced under us means the
    /// cached connections read a deleted file.
    files: [Option<(u64, u64)>; 2],
    used: Instant,
}

/// Binds the data directory's socket; `Ok(None)` when another process serves it.
pub fn bind(data_dir: &Path, owner: Owner) -> Result<Option<Listening>, CommandError> {
    let path = socket_path(data_dir).ok_or_else(|| {
        CommandError::user(format!(
            "the data directory's path is too long for a socket: {}",
            data_dir.display()
        ))
    })?;
    subcog_core::private::create_dir_within(data_dir, data_dir)?;
    let lock = subcog_core::private::file_options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(data_dir.join(LOCK))?;
    match lock.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => return Ok(None),
        Err(std::fs::TryLockError::Error(e)) => return Err(e.into()),
    }
    // We hold the lock, so a socket file left here belongs to a process that is gone.
    if std::fs::symlink_metadata(&path).is_ok() {
        std::fs::remove_file(&path)?;
    }
    let listener = UnixListener::bind(&path)?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
    let ino = std::fs::symlink_metadata(&path)?.ino();
    let now = Instant::now();
    Ok(Some(Listening {
        listener,
        path,
        ino,
        _lock: lock,
        state: Arc::new(State {
            data_dir: data_dir.to_path_buf(),
            owner,
            started: now,
            last: Mutex::new(now),
            in_flight: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            embedders: Mutex::new(HashMap::new()),
            services: Mutex::new(Vec::new()),
            lender: OnceLock::new(),
        }),
    }))
}

impl Listening {
    /// Serves until idle for `idle` (never when `None`), stopped, replaced or the
    /// executable changes; then removes the socket and returns (the daemon).
    pub fn serve(self, idle: Option<Duration>) {
        self.prewarm();
        let state = self.state.clone();
        let listener = match self.listener.try_clone() {
            Ok(l) => l,
            Err(e) => {
                tracing::error!(error = %e, "cannot serve the socket");
                return;
            }
        };
        std::thread::spawn(move || accept(listener, state));
        let exe = std::env::current_exe().ok();
        let fingerprint = exe.as_deref().map(exe_fingerprint);
        loop {
            std::thread::sleep(WATCH_EVERY);
            let busy = self.state.in_flight.load(Ordering::SeqCst) > 0;
            let idle_for = self.state.last.lock().map(|l| l.elapsed()).unwrap_or_default();
            let why = if self.state.stop.load(Ordering::SeqCst) {
                Some("stopped")
            } else if idle.is_some_and(|limit| idle_for >= limit) {
                Some("idle")
            } else if std::fs::symlink_metadata(&self.path).map(|m| m.ino()).ok() != Some(self.ino) {
                Some("the socket was removed or replaced")
            } else if exe.as_deref().map(exe_fingerprint) != fingerprint {
                Some("the executable changed")
            } else {
                None
            };
            if let Some(why) = why
                && !busy
            {
                tracing::info!(
                    reason = why,
                    uptime_s = self.state.started.elapsed().as_secs(),
                    "warm process exits"
                );
                remove_if_ours(&self.path, self.ino);
                return;
            }
        }
    }

    /// Serves on a thread of its own for as long as the process runs (`subcog mcp`),
    /// sharing `service`'s embedding model; the returned guard removes the socket when
    /// dropped.
    pub fn serve_in_background(self, service: Arc<Subcog>) -> SocketGuard {
        let _ = self.state.lender.set(service);
        self.prewarm();
        let guard = SocketGuard {
            path: self.path.clone(),
            ino: self.ino,
            _lock: self._lock,
        };
        let state = self.state.clone();
        let listener = self.listener;
        std::thread::spawn(move || accept(listener, state));
        guard
    }

    /// Loads the model (the serving process's, else the default) and the token counter
    /// before the first request asks.
    fn prewarm(&self) {
        let state = self.state.clone();
        std::thread::spawn(move || {
            subcog_core::context::tokens::warm_up();
            let dir = match state.lender.get() {
                Some(service) => service.model_dir(),
                None => subcog_core::embed::install::default_model_dir(&state.data_dir),
            };
            let _ = state.embedder(&dir);
        });
    }
}

/// Removes the socket of a background listener when dropped.
pub struct SocketGuard {
    path: PathBuf,
    ino: u64,
    _lock: File,
}

impl Drop for SocketGuard {
    fn drop(&mut self) {
        remove_if_ours(&self.path, self.ino);
    }
}

fn remove_if_ours(path: &Path, ino: u64) {
    if std::fs::symlink_metadata(path).map(|m| m.ino()).ok() == Some(ino) {
        let _ = std::fs::remove_file(path);
    }
}

fn accept(listener: UnixListener, state: Arc<State>) {
    for stream in listener.incoming() {
        match stream {
            Ok(stream) => {
                let state = state.clone();
                // A panic ends this connection only; the client then does the work itself.
                std::thread::spawn(move || handle(&state, stream));
            }
            Err(e) => tracing::debug!(error = %e, "accept failed"),
        }
    }
}

/// Reads one request, checks it, acknowledges it, runs it and answers.
fn handle(state: &State, stream: UnixStream) {
    if peer_uid(&stream) != Some(my_uid()) {
        tracing::warn!("refused a connection from another user");
        return;
    }
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let mut line = String::new();
    if BufReader::new((&stream).take(MAX_REQUEST))
        .read_line(&mut line)
        .is_err()
    {
        return;
    }
    let refuse = |reason: String| {
        let ack = Ack {
            accepted: false,
            reason,
        };
        let _ = writeln!(&stream, "{}", serde_json::to_string(&ack).unwrap_or_default());
    };
    let request: Request = match serde_json::from_str(&line) {
        Ok(r) => r,
        Err(e) => return refuse(format!("unreadable request: {e}")),
    };
    if request.build != build_id() {
        return refuse(format!("another build ({}; this is {})", request.build, build_id()));
    }
    if !same_dir(&request.data_dir, &state.data_dir) {
        return refuse(format!("this process serves {}", state.data_dir.display()));
    }
    let _span = tracing::info_span!(
        "warm.request",
        command = request.argv.get(1).map(String::as_str).unwrap_or("")
    )
    .entered();
    let cli = match tracing::debug_span!("warm.parse").in_scope(|| Cli::try_parse_from(&request.argv)) {
        Ok(cli) => cli,
        Err(e) => return refuse(format!("bad command line: {e}")),
    };
    state.in_flight.fetch_add(1, Ordering::SeqCst);
    let accepted = Ack {
        accepted: true,
        reason: String::new(),
    };
    if writeln!(&stream, "{}", serde_json::to_string(&accepted).unwrap_or_default()).is_ok() {
        let reply = run(state, cli, request);
        let _ = writeln!(&stream, "{}", serde_json::to_string(&reply).unwrap_or_default());
    }
    if let Ok(mut last) = state.last.lock() {
        *last = Instant::now();
    }
    state.in_flight.fetch_sub(1, Ordering::SeqCst);
}

fn same_dir(a: &Path, b: &Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// Runs a request's command with its environment; what it prints comes back in the reply.
fn run(state: &State, cli: Cli, request: Request) -> Reply {
    let mut global = cli.global;
    // The directory the client resolved, whatever this process's environment says.
    global.data_dir = Some(request.data_dir);
    let env = request.env;
    match cli.command {
        Command::Hook(args) => {
            let stdout =
                crate::commands::hook::serve_warm(global, &args, env, &request.stdin, &|app| state.attach(app));
            Reply {
                stdout: format!("{stdout}\n"),
                ..Reply::default()
            }
        }
        Command::Daemon(args) if args.stop => {
            if state.owner == Owner::Daemon {
                state.stop.store(true, Ordering::SeqCst);
                Reply {
                    stdout: "stopping the warm process\n".into(),
                    ..Reply::default()
                }
            } else {
                Reply {
                    stderr: "error: the warm path is served by `subcog mcp`; stop that server instead\n".into(),
                    code: 2,
                    ..Reply::default()
                }
            }
        }
        command @ (Command::Recall(_)
        | Command::Get(_)
        | Command::List(_)
        | Command::Context(_)
        | Command::Capture(_)) => {
            let quiet = global.quiet;
            let stdin = matches!(command, Command::Capture(_)).then_some(request.stdin);
            let (result, captured) = crate::output::capture(quiet, stdin, || {
                let app = App::load(global, env, &[])?;
                state.attach(&app);
                crate::commands::run(&app, command)
            });
            let mut reply = Reply {
                stdout: captured.stdout,
                stderr: captured.stderr,
                code: 0,
            };
            if let Err(e) = result {
                reply.code = e.code();
                if !e.message().is_empty() {
                    reply.stderr.push_str(&format!("error: {}\n", e.message()));
                }
            }
            reply
        }
        _ => Reply {
            stderr: "error: this command is not served by the warm process\n".into(),
            code: 2,
            ..Reply::default()
        },
    }
}

impl State {
    /// Gives the command the cached services of its project and configuration (wiring and
    /// caching them on first use).
    fn attach(&self, app: &App) {
        let _span = tracing::debug_span!("warm.attach").entered();
        let Ok(data_dir) = app.data_dir() else { return };
        let location = DataLocation::resolve(&data_dir, &app.env.cwd);
        let config = &app.loaded.config;
        let model_dir = if config.embedding.model_dir.is_empty() {
            subcog_core::embed::install::default_model_dir(&data_dir)
        } else {
            PathBuf::from(&config.embedding.model_dir)
        };
        let model = model_fingerprint(&model_dir);
        let key = cache_key(app, &location, &model);
        let files = [file_id(&location.project_db), file_id(&location.user_db)];
        let cached = self.services.lock().ok().and_then(|mut services| {
            // A database file replaced under a cached connection: wire afresh.
            services.retain(|e| e.files.iter().zip(&files).all(|(was, now)| was.is_none() || was == now));
            let entry = services.iter_mut().find(|e| e.key == key)?;
            for (was, now) in entry.files.iter_mut().zip(&files) {
                if was.is_none() {
                    *was = *now;
                }
            }
            entry.used = Instant::now();
            Some(entry.subcog.clone())
        });
        if let Some(subcog) = cached {
            // Cached across requests: a write another process left half done since the
            // scope was opened is finished now (an empty directory read), outside the
            // cache's lock so other requests do not wait on it.
            subcog.finish_interrupted_writes();
            app.set_subcog(subcog);
            return;
        }
        let Ok(mut subcog) = app.build_subcog() else { return };
        if config.embedding.enabled
            && model.is_some()
            && let Some(embedder) = self.embedder(&model_dir)
        {
            subcog = subcog.with_embedder(Some(embedder));
        }
        let subcog = Arc::new(subcog);
        app.set_subcog(subcog.clone());
        // This process stays: keep the stores' keyword indexes in memory (built beside
        // the request, on connections of their own).
        let resident = subcog.clone();
        std::thread::spawn(move || resident.prepare_keywords());
        if let Ok(mut services) = self.services.lock() {
            if services.len() >= MAX_SERVICES
                && let Some(oldest) = services.iter().enumerate().min_by_key(|(_, e)| e.used).map(|(i, _)| i)
            {
                services.swap_remove(oldest);
            }
            services.push(Entry {
                key,
                subcog,
                files,
                used: Instant::now(),
            });
        }
    }

    /// The model of a directory, loaded once (again when its weights change); the serving
    /// process's own when it uses the same directory.
    fn embedder(&self, dir: &Path) -> Option<Arc<dyn Embedder>> {
        if let Some(service) = self.lender.get()
            && service.model_dir() == dir
            && let Some(e) = service.embedder()
        {
            tracing::debug!(dir = %dir.display(), "warm path: the serving process's model");
            return Some(e);
        }
        let fingerprint = model_fingerprint(dir)?;
        let mut embedders = self.embedders.lock().ok()?;
        if let Some((f, e)) = embedders.get(dir)
            && *f == fingerprint
        {
            return Some(e.clone());
        }
        match subcog_core::embed::load_default(dir) {
            Ok(e) => {
                let e: Arc<dyn Embedder> = Arc::from(e);
                embedders.insert(dir.to_path_buf(), (fingerprint, e.clone()));
                Some(e)
            }
            Err(e) => {
                tracing::info!(error = %e, "warm process: no embedding model");
                None
            }
        }
    }
}

/// The model's weights file, by size and modification time; `None` when absent.
fn model_fingerprint(dir: &Path) -> Option<String> {
    let file = dir.join("model.safetensors");
    file.is_file().then(|| exe_fingerprint(&file))
}

fn file_id(path: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// What decides whether two commands may share services: the configuration, where the
/// data lives, the pinned clock, the model, and the variables that hold credentials.
fn cache_key(app: &App, location: &DataLocation, model: &Option<String>) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    serde_json::to_string(&app.loaded.config)
        .unwrap_or_default()
        .hash(&mut h);
    location.project_db.hash(&mut h);
    location.user_db.hash(&mut h);
    location.project_root.hash(&mut h);
    model.hash(&mut h);
    credentials(&app.env).hash(&mut h);
    h.finish()
}

/// The clock pin and every variable that may hold a credential or a provider address.
fn credentials(env: &Env) -> Vec<(&String, &String)> {
    env.vars
        .iter()
        .filter(|(k, _)| {
            let k = k.to_ascii_uppercase();
            k == "SUBCOG_NOW"
                || ["KEY", "TOKEN", "SECRET", "PASSWORD", "BASE_URL", "HOST"]
                    .iter()
                    .any(|w| k.contains(w))
        })
        .collect()
}
