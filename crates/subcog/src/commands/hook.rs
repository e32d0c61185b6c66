//! `subcog hook <event>`: Claude Code's hooks. Reads the hook payload on stdin, writes
//! Claude Code's JSON on stdout, and always exits 0: on any failure (bad stdin, no store,
//! a locked database, a bad config) the answer is empty but valid and the reason goes to
//! the log (stderr, and `hooks.debug_log` when set).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde_json::{Value, json};
use subcog_core::hooks::{HookEvent, HookInput, HookReport, answer, state};

use crate::app::{App, Env};
use crate::cli::GlobalArgs;

/// How long a hook waits for a busy database.
const HOOK_BUSY_TIMEOUT_MS: i64 = 2_000;

/// Stdin larger than this is not a hook payload.
const MAX_STDIN: u64 = 16 * 1024 * 1024;

/// Run a Claude Code hook (reads its JSON on stdin; see `subcog init`)
///
/// `SUBCOG_HOOKS=off` in the environment makes every hook answer nothing (one session
/// without memory: `SUBCOG_HOOKS=off claude`).
#[derive(Debug, Args)]
pub struct HookArgs {
    /// session-start, user-prompt-submit, post-tool-use, pre-compact, stop, session-end
    pub event: String,
    /// How this hook was registered (`plugin`, `settings`): named when the same hook runs
    /// twice
    #[arg(long, default_value = "settings", hide = true)]
    pub via: String,
}

/// Whether `SUBCOG_HOOKS` turns the hooks off for this session.
fn hooks_off(env: &Env) -> bool {
    env.var("SUBCOG_HOOKS")
        .map(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "off" | "0" | "false" | "no"))
        .unwrap_or(false)
}

/// Runs the hook; never fails.
pub fn run(global: GlobalArgs, args: HookArgs) -> ExitCode {
    let started = std::time::Instant::now();
    let event = HookEvent::parse(&args.event);
    if event.is_some_and(HookEvent::takes_context) {
        // Loading the tokenizer (~17 ms of work, on its own thread) overlaps reading stdin,
        // the config and the store; wasted only when the warm process answers.
        subcog_core::context::tokens::warm_up();
    }
    // Read the payload first, whatever happens next: the caller should never see its
    // write fail.
    let mut raw = String::new();
    let read = std::io::stdin().take(MAX_STDIN).read_to_string(&mut raw);
    let env = Env::process().unwrap_or_default();
    let out = match (event, read) {
        (None, _) => {
            tracing::warn!(event = %args.event, "unknown hook event; answering with nothing");
            json!({"suppressOutput": true})
        }
        (Some(event), _) if hooks_off(&env) => {
            tracing::debug!(event = event.name(), "SUBCOG_HOOKS=off: answering with nothing");
            answer(event, "", None)
        }
        (Some(event), Err(e)) => {
            tracing::warn!(event = event.name(), error = %e, "cannot read stdin; answering with empty context");
            answer(event, "", None)
        }
        (Some(event), Ok(_)) => {
            // A bug must not cost the session either: a panic becomes an empty answer.
            let handled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let (input, app) = prepare(global, env, &raw, true)?;
                #[cfg(unix)]
                if app.loaded.config.daemon.enabled
                    && let Some(text) = crate::warm::client::hook(&app, &raw, event)
                {
                    return Ok(Handled::Warm(text));
                }
                Ok(Handled::Here(respond(&app, event, &args.via, &input, &raw)))
            }))
            .unwrap_or_else(|_| Err(("internal error (panic); see the message above".into(), None)));
            match handled {
                Ok(Handled::Warm(text)) => {
                    let _ = writeln!(std::io::stdout().lock(), "{text}");
                    return ExitCode::SUCCESS;
                }
                Ok(Handled::Here(result)) => finish(event, result, started),
                Err(failure) => finish(event, Err(failure), started),
            }
        }
    };
    // A closed stdout (the agent gave up waiting) is not worth a panic.
    let text = serde_json::to_string(&out).unwrap_or_else(|_| "{}".into());
    let _ = writeln!(std::io::stdout().lock(), "{text}");
    ExitCode::SUCCESS
}

/// Where a hook's answer was made.
enum Handled {
    /// By the warm process: its answer, ready to print.
    Warm(String),
    /// In this process.
    Here(Result<(HookReport, Option<PathBuf>), Failure>),
}

/// The hook's answer for the warm process: `argv`'s hook with the client's environment
/// and payload, the JSON line the client prints. Never fails.
pub fn serve_warm(global: GlobalArgs, args: &HookArgs, env: Env, raw: &str, services: &dyn Fn(&App)) -> String {
    let started = std::time::Instant::now();
    let out = match HookEvent::parse(&args.event) {
        None => json!({"suppressOutput": true}),
        Some(event) if hooks_off(&env) => answer(event, "", None),
        Some(event) => {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let (input, app) = prepare(global, env, raw, false)?;
                services(&app);
                respond(&app, event, &args.via, &input, raw)
            }))
            .unwrap_or_else(|_| Err(("internal error (panic) in the warm process".into(), None)));
            finish(event, result, started)
        }
    };
    serde_json::to_string(&out).unwrap_or_else(|_| "{}".into())
}

/// Claude Code's answer for a hook's outcome; failures are logged and answered empty.
fn finish(
    event: HookEvent,
    result: Result<(HookReport, Option<PathBuf>), Failure>,
    started: std::time::Instant,
) -> Value {
    let (out, log) = match result {
        Ok((report, debug_log)) => {
            let mut lines: Vec<String> = report.notices.iter().map(|n| format!("subcog: {n}")).collect();
            match report.captured.len() {
                0 => {}
                1 => lines.push("subcog: captured 1 memory".to_string()),
                n => lines.push(format!("subcog: captured {n} memories")),
            }
            let message = (!lines.is_empty()).then(|| lines.join("\n"));
            let out = answer(event, &report.context, message.as_deref());
            (out, debug_log.map(|path| (path, Some(report))))
        }
        Err((why, debug_log)) => {
            tracing::warn!(event = event.name(), error = %why, "hook failed; answering with empty context");
            // Once per session, not on every prompt: the user should know memory is off.
            let message = (event == HookEvent::SessionStart).then(|| {
                format!(
                    "subcog: no memories this session: {}",
                    subcog_core::content::one_line(&why, 300)
                )
            });
            (
                answer(event, "", message.as_deref()),
                debug_log.map(|path| (path, None)),
            )
        }
    };
    if let Some((path, report)) = log {
        write_debug_log(&path, event, report.as_ref(), started.elapsed().as_secs_f64() * 1000.0);
    }
    out
}

type Failure = (String, Option<PathBuf>);

/// Parses the payload and loads the configuration for the session's project (the
/// payload's `cwd`, wherever Claude Code started the hook). `chdir` moves this process
/// there too (in the warm process, only the request's environment moves).
fn prepare(global: GlobalArgs, mut env: Env, raw: &str, chdir: bool) -> Result<(HookInput, App), Failure> {
    let input = HookInput::from_json(raw).map_err(|e| (format!("stdin is not a hook payload: {e}"), None))?;
    if let Some(cwd) = input.cwd.as_ref().filter(|p| p.is_dir()) {
        if chdir {
            let _ = std::env::set_current_dir(cwd);
        }
        env.cwd = cwd.clone();
    }
    // Claude Code kills hooks after 5–10 s: waiting the usual 10 s for a lock would lose
    // the answer, so hooks wait 2 s.
    let app = tracing::debug_span!("hooks.load_config")
        .in_scope(|| {
            App::load(
                global,
                env,
                &[("storage.busy_timeout_ms", toml::Value::Integer(HOOK_BUSY_TIMEOUT_MS))],
            )
        })
        .map_err(|e| (e.message(), None))?;
    Ok((input, app))
}

/// Runs the hook in this process.
fn respond(
    app: &App,
    event: HookEvent,
    via: &str,
    input: &HookInput,
    raw: &str,
) -> Result<(HookReport, Option<PathBuf>), Failure> {
    let cfg = &app.loaded.config.hooks;
    let debug_log = (!cfg.debug_log.is_empty()).then(|| PathBuf::from(&cfg.debug_log));
    let fail = |why: String| (why, debug_log.clone());
    let on = cfg.enabled
        && match event {
            HookEvent::SessionStart => cfg.session_start,
            HookEvent::UserPromptSubmit => cfg.user_prompt_submit,
            HookEvent::PostToolUse => cfg.post_tool_use,
            HookEvent::PreCompact => cfg.pre_compact,
            HookEvent::Stop | HookEvent::SessionEnd => cfg.stop,
        };
    let mut report = HookReport::default();
    if !on {
        report.notes.push("turned off in [hooks]".into());
        return Ok((report, debug_log));
    }
    if opted_out(&app.env.cwd) {
        report.notes.push("project opted out (.nosubcog)".into());
        return Ok((report, debug_log));
    }
    let state_dir = app.data_dir().map_err(|e| fail(e.message()))?.join("hooks");
    // The plugin and the settings both registering subcog run every hook twice with the
    // same payload: the second run answers nothing, and `subcog status` says so.
    let claim = tracing::debug_span!("hooks.claim").in_scope(|| state::claim(&state_dir, event.name(), raw, via));
    if let state::Claim::Duplicate { via: first } = claim {
        state::record_duplicate(
            &state_dir,
            &state::DuplicateRun {
                at: chrono::Utc::now().to_rfc3339(),
                event: event.name().to_string(),
                first: first.clone(),
                second: via.to_string(),
            },
        );
        report.notes.push(format!(
            "the same {} ran twice (first through {first}, now through {via}): answered once; see `subcog status`",
            event.name()
        ));
        return Ok((report, debug_log));
    }
    let subcog = app.subcog().map_err(|e| fail(e.message()))?;
    let result = subcog.hook(event, input, &state_dir);
    let notices = subcog.take_notices();
    report = result.map_err(|e| fail(e.to_string()))?;
    report.notices.extend(notices);
    if matches!(event, HookEvent::Stop | HookEvent::SessionEnd) && cfg.consolidate_on_stop {
        report.consolidation_requested = consolidate_in_background(app);
    }
    Ok((report, debug_log))
}

/// A `.nosubcog` file in the directory or any parent up to the repository root.
fn opted_out(dir: &Path) -> bool {
    for d in dir.ancestors() {
        if d.join(".nosubcog").exists() {
            return true;
        }
        if d.join(".git").exists() {
            break;
        }
    }
    false
}

/// Starts `subcog consolidate --if-due` detached, so the hook returns at once.
fn consolidate_in_background(app: &App) -> bool {
    let Ok(exe) = std::env::current_exe() else {
        return false;
    };
    let mut cmd = std::process::Command::new(exe);
    // The session's environment and project, also when the warm process starts it.
    cmd.current_dir(&app.env.cwd).env_clear().envs(&app.env.vars);
    if let Some(dir) = &app.global.data_dir {
        cmd.arg("--data-dir").arg(dir);
    }
    if let Some(config) = &app.global.config {
        cmd.arg("--config").arg(config);
    }
    cmd.args(["consolidate", "--if-due", "--trigger", "session_end", "-q"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    match cmd.spawn() {
        Ok(mut child) => {
            // A hook process exits at once (the child is then reaped by init); the warm
            // process lives on and must reap it itself, or each run leaves a zombie.
            std::thread::spawn(move || child.wait());
            true
        }
        Err(e) => {
            tracing::warn!(error = %e, "could not start background consolidation");
            false
        }
    }
}

/// Appends one JSON line: event, time taken, what was injected and captured (ids and
/// scores only, never memory text).
fn write_debug_log(path: &Path, event: HookEvent, report: Option<&HookReport>, ms: f64) {
    let line = json!({
        "at": chrono::Utc::now().to_rfc3339(),
        "event": event.name(),
        "ms": (ms * 10.0).round() / 10.0,
        // Which process answered: the hook itself, or the warm process.
        "pid": std::process::id(),
        "ok": report.is_some(),
        "report": report.map(|r| serde_json::to_value(r).unwrap_or(Value::Null)),
    });
    let write = || -> std::io::Result<()> {
        use std::io::Write;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut f = subcog_core::private::file_options()
            .create(true)
            .append(true)
            .open(path)?;
        // One write per line: two hooks appending at once must not interleave.
        f.write_all(format!("{line}\n").as_bytes())
    };
    if let Err(e) = write() {
        tracing::warn!(error = %e, path = %path.display(), "could not write the hook debug log");
    }
}
