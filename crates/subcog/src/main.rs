//! The `subcog` executable: parses arguments, sets up logging, runs one command, and turns
//! its outcome into an exit code. The only crate that prints, reads stdin or exits.

mod app;
mod cli;
mod command_error;
mod commands;
mod mcp;
#[cfg(feature = "otlp")]
mod otlp;
mod output;
mod progress;
mod telemetry;
mod ui;
#[cfg(unix)]
mod warm;

use clap::Parser;
use std::process::ExitCode;

use crate::cli::{Cli, ColorWhen};

fn main() -> ExitCode {
    pin_embedding_threads();
    let cli = Cli::parse();
    match cli.global.color {
        ColorWhen::Always => anstream::ColorChoice::Always.write_global(),
        ColorWhen::Never => anstream::ColorChoice::Never.write_global(),
        ColorWhen::Auto => {}
    }
    output::set_quiet(cli.global.quiet);
    let app = app::App::new(cli.global.clone());
    let process = match &cli.command {
        cli::Command::Hook(_) | cli::Command::Mcp(_) | cli::Command::Daemon(_) => telemetry::Process::Background,
        cli::Command::Ui(_) => telemetry::Process::Server,
        _ => telemetry::Process::Command,
    };
    let _telemetry = telemetry::init(
        &telemetry_settings(app.as_ref().ok()),
        process,
        cli.global.verbose,
        cli.global.quiet,
    );
    if let cli::Command::Hook(args) = cli.command {
        // The hook builds its own App: it must answer even when this one failed.
        return commands::hook::run(cli.global, args);
    }
    let result = app.and_then(|app| {
        #[cfg(unix)]
        let command = match warm_forward(&app, cli.command) {
            Forwarded::Done(0) => return Ok(()),
            Forwarded::Done(code) => return Err(command_error::CommandError::silent_code(code)),
            Forwarded::Here(command) => *command,
        };
        #[cfg(not(unix))]
        let command = cli.command;
        commands::run(&app, command)
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.message().is_empty() => e.exit_code(),
        Err(e) => {
            tracing::debug!(error = ?e.error, "command failed");
            let mut err = anstream::stderr().lock();
            let _ = std::io::Write::write_fmt(
                &mut err,
                format_args!(
                    "{}error:{} {}\n",
                    output::WARN.render(),
                    output::WARN.render_reset(),
                    e.message()
                ),
            );
            e.exit_code()
        }
    }
}

/// What came of offering a command to the warm process.
#[cfg(unix)]
enum Forwarded {
    /// It ran there, with this exit code.
    Done(u8),
    /// Run it here.
    Here(Box<cli::Command>),
}

/// Hands reads and captures to the warm process when one runs: its exit code, or the
/// command back to run here. A capture's stdin is read here first (and kept in the
/// command for the fallback).
#[cfg(unix)]
fn warm_forward(app: &app::App, mut command: cli::Command) -> Forwarded {
    use cli::Command;
    use std::io::{IsTerminal, Read};
    let enabled = app.loaded.config.daemon.enabled;
    let stdin = match &mut command {
        Command::Daemon(args) if args.stop => String::new(),
        Command::Recall(_) | Command::Get(_) | Command::List(_) | Command::Context(_) if enabled => String::new(),
        Command::Capture(args) if enabled && args.content.as_deref().is_none_or(|c| c == "-") => {
            if std::io::stdin().is_terminal() {
                return Forwarded::Here(Box::new(command));
            }
            let mut text = String::new();
            if std::io::stdin().lock().read_to_string(&mut text).is_err() {
                return Forwarded::Here(Box::new(command));
            }
            args.content = Some(text.clone());
            text
        }
        Command::Capture(_) if enabled => String::new(),
        _ => return Forwarded::Here(Box::new(command)),
    };
    match warm::client::command(app, &stdin) {
        Some(code) => Forwarded::Done(code),
        None => Forwarded::Here(Box::new(command)),
    }
}

/// Fixes the embedding model's thread count for the whole process, once. candle asks for it
/// before every matrix product and, unless `RAYON_NUM_THREADS` is set, counts physical cores
/// by reading /proc/cpuinfo each time: ~3.5 ms of a 14 ms query embedding here. The value is
/// candle's own default (physical cores), capped by the CPUs this process may use; a value
/// the user set is kept.
fn pin_embedding_threads() {
    if std::env::var_os("RAYON_NUM_THREADS").is_some() {
        return;
    }
    let usable = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let threads = num_cpus::get_physical().clamp(1, usable);
    // SAFETY: this is the first statement of main: no other thread exists yet that could
    // read the environment while it changes.
    #[allow(unsafe_code)]
    unsafe {
        std::env::set_var("RAYON_NUM_THREADS", threads.to_string());
    }
}

/// What the telemetry needs from the config and the environment; defaults when the
/// config could not be loaded (the command reports that error itself).
fn telemetry_settings(app: Option<&app::App>) -> telemetry::Settings {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    telemetry::Settings {
        config: app.map(|a| a.loaded.config.telemetry.clone()).unwrap_or_default(),
        data_dir: app.and_then(|a| a.data_dir().ok()),
        filter: var("SUBCOG_LOG"),
        otlp_endpoint: var("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").or_else(|| var("OTEL_EXPORTER_OTLP_ENDPOINT")),
        otlp_protocol: var("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL").or_else(|| var("OTEL_EXPORTER_OTLP_PROTOCOL")),
        service_name: var("OTEL_SERVICE_NAME"),
    }
}
