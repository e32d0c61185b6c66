//! The warm path through the real binary: hooks and reads answered by the warm process
//! are the answers the command gives on its own; the daemon starts on demand and goes
//! away when stopped, idle or unplugged; a socket that is not this user's alone, a stale
//! socket, or a process of another build is never used.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{TestEnv, bin, run_with_stdin, to_run};

fn socket(env: &TestEnv) -> PathBuf {
    env.data.join("subcog.sock")
}

/// Waits up to `secs` for `cond`.
fn wait_for(secs: u64, mut cond: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < end {
        if cond() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    cond()
}

/// Pids of exited, unreaped children of `parent` (state Z in /proc).
fn zombies_of(parent: u64) -> Vec<u64> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // "pid (comm) state ppid …": the command may hold spaces, so read after the ')'.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r.trim().to_string()) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.first() == Some(&"Z") && fields.get(1).and_then(|p| p.parse::<u64>().ok()) == Some(parent) {
            out.extend(entry.file_name().to_str().and_then(|p| p.parse::<u64>().ok()));
        }
    }
    out
}

/// A warm process answers on the socket (not just a file lying there).
fn serving(env: &TestEnv) -> bool {
    std::os::unix::net::UnixStream::connect(socket(env)).is_ok()
}

/// An environment with a hooks debug log (it names the process that answered each hook).
fn logged(env: TestEnv) -> (TestEnv, PathBuf) {
    let log = env.root.path().join("hooks.jsonl");
    env.write_config(&format!("[hooks]\ndebug_log = {:?}\n", log.display().to_string()));
    (env, log)
}

/// The pid of the process that answered the last hook.
fn last_pid(log: &Path) -> u64 {
    let text = std::fs::read_to_string(log).expect("debug log");
    let last = text.lines().last().expect("a line");
    serde_json::from_str::<Value>(last).expect("json")["pid"]
        .as_u64()
        .expect("pid")
}

/// A UserPromptSubmit payload for this project.
fn prompt(env: &TestEnv, session: &str, text: &str) -> String {
    serde_json::json!({
        "session_id": session,
        "transcript_path": env.root.path().join("none.jsonl"),
        "cwd": env.project,
        "hook_event_name": "UserPromptSubmit",
        "prompt": text,
    })
    .to_string()
}

/// A hook: pid of the hook process and its answer (which must be valid JSON, exit 0).
fn hook(env: &TestEnv, event: &str, payload: &str, warm: bool) -> (u32, Value) {
    let mut cmd = env.command(&["hook", event]);
    if !warm {
        cmd.env("SUBCOG_DAEMON_ENABLED", "false");
    }
    let (pid, run) = run_with_stdin(cmd, payload);
    assert_eq!(run.code, 0, "hooks exit 0\n{}", run.stderr);
    (pid, run.json())
}

/// Stops the daemon of an environment when the test ends, whatever happens.
struct Stop<'a>(&'a TestEnv);

impl Drop for Stop<'_> {
    fn drop(&mut self) {
        let _ = self.0.run(&["daemon", "--stop"]);
    }
}

fn context(answer: &Value) -> String {
    answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// JSON output without what each recall itself changes (activation and retention), so two
/// reads in a row compare; text output as it is.
fn without_activation(stdout: &str) -> String {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                for key in ["retention", "activation_count", "last_accessed", "tier"] {
                    map.remove(key);
                }
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    match serde_json::from_str::<Value>(stdout) {
        Ok(mut v) => {
            strip(&mut v);
            v.to_string()
        }
        Err(_) => stdout.to_string(),
    }
}

#[test]
fn hooks_and_reads_answer_alike_warm_and_cold() {
    let (env, log) = logged(TestEnv::new().with_model().with_warm_path());
    let _stop = Stop(&env);
    let id = env.capture("decisions", "Use PostgreSQL for primary storage because of JSONB");
    env.capture("learnings", "The flaky upload test was a race in the upload queue");
    env.capture("patterns", "Every service exposes /healthz for the load balancer");

    let (cold_pid, cold) = hook(
        &env,
        "user-prompt-submit",
        &prompt(&env, "cold", "which database do we use?"),
        false,
    );
    assert_eq!(last_pid(&log), u64::from(cold_pid));
    assert!(context(&cold).contains("PostgreSQL"), "{cold}");
    assert!(!socket(&env).exists(), "a disabled warm path starts nothing");

    // The first hook finds nothing listening: it answers itself and starts the daemon.
    let (first_pid, first) = hook(
        &env,
        "user-prompt-submit",
        &prompt(&env, "first", "which database do we use?"),
        true,
    );
    assert_eq!(last_pid(&log), u64::from(first_pid), "the first hook answers itself");
    assert_eq!(context(&first), context(&cold));
    assert!(wait_for(10, || serving(&env)), "the first hook starts the warm process");
    let mode = std::fs::metadata(socket(&env)).expect("socket").permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "the socket is the user's alone");

    let (warm_pid, warm) = hook(
        &env,
        "user-prompt-submit",
        &prompt(&env, "warm", "which database do we use?"),
        true,
    );
    let daemon = last_pid(&log);
    assert_ne!(daemon, u64::from(warm_pid), "the warm process answered");
    assert_eq!(warm, cold, "the same answer warm and cold");

    // Every event answers through it with Claude Code's shape.
    for (event, name) in [
        ("session-start", "SessionStart"),
        ("post-tool-use", "PostToolUse"),
        ("pre-compact", "PreCompact"),
        ("stop", "Stop"),
        ("session-end", "SessionEnd"),
    ] {
        let payload = serde_json::json!({
            "session_id": format!("each-{event}"),
            "transcript_path": env.root.path().join("none.jsonl"),
            "cwd": env.project,
            "hook_event_name": name,
            "source": "startup",
            "tool_name": "Read",
            "tool_input": {"file_path": env.project.join("src/main.rs")},
            "tool_response": {},
            "trigger": "manual",
            "reason": "exit",
        })
        .to_string();
        let (_, warm) = hook(&env, event, &payload, true);
        assert!(warm.is_object(), "{event}: {warm}");
        assert_eq!(last_pid(&log), daemon, "{event} answered warm");
        let (_, cold) = hook(
            &env,
            event,
            &payload.replace(&format!("each-{event}"), &format!("cold-{event}")),
            false,
        );
        assert_eq!(warm, cold, "{event}: the same answer warm and cold");
    }

    // The Stop hooks above started background consolidations from the warm process: each
    // is reaped when it ends, none is left a zombie.
    assert!(
        wait_for(20, || zombies_of(daemon).is_empty()),
        "zombie children of the warm process: {:?}",
        zombies_of(daemon)
    );

    // Reads: the same output and exit code either way.
    for args in [
        vec!["recall", "which database", "--json"],
        vec!["recall", "flaky upload"],
        vec!["list", "--json"],
        vec!["get", id.as_str(), "--json"],
        vec!["get", "01ARZ3NDEKTSV4RRFFQ69G5FAV"],
        vec!["context", "--json"],
    ] {
        let warm = env.run(&args);
        let mut cold = env.command(&args);
        cold.env("SUBCOG_DAEMON_ENABLED", "false");
        let cold = to_run(cold.output().expect("spawn"));
        assert_eq!(warm.code, cold.code, "{args:?}: {}", warm.stderr);
        assert_eq!(
            without_activation(&warm.stdout),
            without_activation(&cold.stdout),
            "{args:?}"
        );
        assert_eq!(warm.stderr, cold.stderr, "{args:?}");
    }
    assert!(serving(&env), "still serving after the reads");

    // Captures: through the warm process (content from stdin too), and the same content
    // again in a process of its own finds the same memory.
    let mut cmd = env.command(&["capture", "-n", "learnings", "--json"]);
    cmd.env("SUBCOG_LOG", "debug");
    let (_, warm) = run_with_stdin(cmd, "Warm captures keep the text piped to them");
    assert_eq!(warm.code, 0, "{}", warm.stderr);
    assert!(warm.stderr.contains("answered by the warm process"), "{}", warm.stderr);
    let mut cold = env.command(&["capture", "-n", "learnings", "--json"]);
    cold.env("SUBCOG_DAEMON_ENABLED", "false");
    let (_, cold) = run_with_stdin(cold, "Warm captures keep the text piped to them");
    assert_eq!(cold.code, 0, "{}", cold.stderr);
    assert_eq!(warm.json()["id"], cold.json()["id"], "one memory, captured once");
    let mut recall = env.command(&["recall", "text piped", "--json"]);
    recall.env("SUBCOG_LOG", "debug");
    let recall = to_run(recall.output().expect("spawn"));
    assert!(
        recall.stderr.contains("answered by the warm process"),
        "{}",
        recall.stderr
    );
    assert!(
        recall.stdout.contains("Warm captures keep the text piped to them"),
        "{}",
        recall.stdout
    );

    // Eight sessions at once.
    let answers: Vec<Value> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let env = &env;
                s.spawn(move || {
                    hook(
                        env,
                        "user-prompt-submit",
                        &prompt(env, &format!("par{i}"), &format!("flaky upload test {i}")),
                        true,
                    )
                    .1
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("thread")).collect()
    });
    for a in answers {
        assert!(context(&a).contains("race in the upload queue"), "{a}");
    }

    let stop = env.run(&["daemon", "--stop"]).ok();
    assert!(stop.stdout.contains("stopping"), "{}", stop.stdout);
    assert!(
        wait_for(5, || !socket(&env).exists()),
        "a stopped daemon removes its socket"
    );
}

#[test]
fn an_untrusted_or_stale_socket_is_never_used() {
    let (env, log) = logged(TestEnv::new().with_model().with_warm_path());
    let _stop = Stop(&env);
    env.capture("decisions", "Use PostgreSQL as the primary database because of JSONB");
    let path = socket(&env);

    // A plain file where the socket should be: ignored, left alone.
    std::fs::write(&path, "not a socket").expect("write");
    let (pid, answer) = hook(
        &env,
        "user-prompt-submit",
        &prompt(&env, "file", "which database do we use?"),
        true,
    );
    assert_eq!(last_pid(&log), u64::from(pid));
    assert!(context(&answer).contains("PostgreSQL"), "{answer}");
    assert_eq!(std::fs::read_to_string(&path).expect("read"), "not a socket");
    std::fs::remove_file(&path).expect("rm");

    // A socket others may write to: never connected to.
    let listener = UnixListener::bind(&path).expect("bind");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).expect("chmod");
    listener.set_nonblocking(true).expect("nonblocking");
    let (pid, answer) = hook(
        &env,
        "user-prompt-submit",
        &prompt(&env, "open", "which database do we use?"),
        true,
    );
    assert_eq!(last_pid(&log), u64::from(pid));
    assert!(context(&answer).contains("PostgreSQL"), "{answer}");
    assert!(
        matches!(listener.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
        "the hook connected to a socket that is not the user's alone"
    );
    drop(listener);

    // The socket of a process that is gone: the hook answers itself and a daemon takes
    // the path over.
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    assert!(!serving(&env), "nobody listens on the stale socket");
    let (pid, answer) = hook(
        &env,
        "user-prompt-submit",
        &prompt(&env, "stale", "which database do we use?"),
        true,
    );
    assert_eq!(last_pid(&log), u64::from(pid));
    assert!(context(&answer).contains("PostgreSQL"), "{answer}");
    assert!(wait_for(10, || serving(&env)), "a daemon replaces the stale socket");

    // A binary of another build (here: another file) is refused and answers itself.
    let other = env.root.path().join("other-subcog");
    std::fs::copy(bin(), &other).expect("copy binary");
    let mut cmd = env.command(&["hook", "user-prompt-submit"]);
    cmd.env("SUBCOG_LOG", "debug");
    let program = cmd.get_program().to_owned();
    assert_eq!(program, std::ffi::OsStr::new(bin()));
    let mut other_cmd = Command::new(&other);
    other_cmd.args(cmd.get_args()).current_dir(&env.project).env_clear();
    for (k, v) in cmd.get_envs() {
        if let Some(v) = v {
            other_cmd.env(k, v);
        }
    }
    let (pid, run) = run_with_stdin(other_cmd, &prompt(&env, "other", "which database do we use?"));
    assert_eq!(run.code, 0);
    assert_eq!(last_pid(&log), u64::from(pid), "another build answers itself");
    assert!(context(&run.json()).contains("PostgreSQL"));
    // A hook's debug lines go to the data directory's log file, not to Claude Code.
    let file = std::fs::read_to_string(env.data.join("logs/subcog.log")).unwrap_or_default();
    assert!(file.contains("another build"), "{file}");
}

/// `subcog daemon` in the background, as the hooks start it.
fn daemon(env: &TestEnv, args: &[&str]) -> Child {
    let mut all = vec!["daemon"];
    all.extend_from_slice(args);
    env.command(&all)
        .env_remove("SUBCOG_DAEMON_ENABLED")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn daemon")
}

fn exits(child: &mut Child, secs: u64) -> bool {
    wait_for(secs, || matches!(child.try_wait(), Ok(Some(_))))
}

#[test]
fn the_daemon_goes_away_when_idle_stopped_or_unplugged() {
    let env = TestEnv::new().with_warm_path();
    env.capture("decisions", "Use PostgreSQL for primary storage");

    let mut idle = daemon(&env, &["--idle-timeout", "1"]);
    assert!(wait_for(10, || serving(&env)), "serving");
    // A second daemon for the same data directory leaves at once.
    let mut second = daemon(&env, &[]);
    assert!(exits(&mut second, 10), "the second daemon leaves");
    assert!(exits(&mut idle, 10), "an idle daemon exits");
    assert!(!socket(&env).exists(), "and removes its socket");

    let mut stopped = daemon(&env, &[]);
    assert!(wait_for(10, || serving(&env)), "serving");
    let out = env.run(&["daemon", "--stop"]).ok();
    assert!(out.stdout.contains("stopping"), "{}", out.stdout);
    assert!(exits(&mut stopped, 10), "a stopped daemon exits");
    let none = env.run(&["daemon", "--stop"]).ok();
    assert!(none.stdout.contains("no warm process"), "{}", none.stdout);

    let mut unplugged = daemon(&env, &[]);
    assert!(wait_for(10, || serving(&env)), "serving");
    std::fs::remove_file(socket(&env)).expect("rm socket");
    assert!(exits(&mut unplugged, 10), "a daemon whose socket is gone exits");
}

#[test]
fn a_running_mcp_server_answers_hooks_with_its_own_model() {
    let (env, log) = logged(TestEnv::new().with_model().with_warm_path());
    env.capture("decisions", "Use PostgreSQL for primary storage because of JSONB");
    let stderr = env.root.path().join("mcp.log");
    let mut mcp = KillOnDrop(
        env.command(&["mcp", "--no-schedule"])
            .env_remove("SUBCOG_DAEMON_ENABLED")
            .env("SUBCOG_LOG", "debug")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&stderr).expect("log file"))
            .spawn()
            .expect("spawn mcp"),
    );
    // The stdio server runs until its input closes.
    let input = mcp.0.stdin.take();
    assert!(wait_for(20, || serving(&env)), "subcog mcp serves the warm path");

    // No word in common with the memory: only the model finds it.
    let (pid, answer) = hook(
        &env,
        "user-prompt-submit",
        &prompt(&env, "mcp", "which database do we use?"),
        true,
    );
    let answered_by = last_pid(&log);
    assert_ne!(answered_by, u64::from(pid), "not answered in the hook's own process");
    assert_eq!(answered_by, u64::from(mcp.0.id()), "answered by subcog mcp");
    assert!(context(&answer).contains("PostgreSQL"), "{answer}");
    // The MCP server logs to the data directory's file (its stderr gets warnings only).
    let text = std::fs::read_to_string(env.data.join("logs/subcog.log")).unwrap_or_default();
    assert!(
        text.contains("the serving process's model"),
        "the warm path used the MCP service's model, not a second copy:\n{text}"
    );

    drop(input);
    assert!(exits(&mut mcp.0, 20), "subcog mcp exits when its input closes");
    assert!(!socket(&env).exists(), "and removes its socket");
}

/// A child process that a failing test does not leave running.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
