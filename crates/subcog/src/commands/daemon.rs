//! `subcog daemon`

use std::time::Duration;

use clap::Args;

use crate::app::App;
use crate::command_error::CommandResult;
use crate::output;
use crate::warm::server::{Owner, bind};

/// Serve hooks and reads from a warm process (the first hook of a session starts one).
///
/// Listens on a socket in the data directory (mode 0600) and runs the hooks, reads
/// (recall, get, list, context) and captures that this user's other subcog processes hand
/// it, with the embedding model and the stores already loaded. It exits after
/// daemon.idle_timeout_secs without a request, when its socket is removed, or when the
/// subcog executable is replaced. You do not need to start it; `--stop` stops it.
#[derive(Debug, Args)]
pub struct DaemonArgs {
    /// Exit after this many seconds without a request (default daemon.idle_timeout_secs;
    /// 0: never)
    #[arg(long, value_name = "SECS")]
    pub idle_timeout: Option<u64>,
    /// Stop the running daemon of this data directory
    #[arg(long)]
    pub stop: bool,
}

/// Runs `daemon`.
pub fn run(app: &App, args: DaemonArgs) -> CommandResult {
    let data_dir = app.data_dir()?;
    if args.stop {
        // Reached only when no daemon took the request (main.rs forwards `--stop`).
        if app.json() {
            return output::print_json(&serde_json::json!({"stopped": false, "running": false}));
        }
        return output::print("no warm process runs for this data directory\n");
    }
    let Some(listening) = bind(&data_dir, Owner::Daemon)? else {
        output::note("another process already serves this data directory");
        return Ok(());
    };
    let idle = args.idle_timeout.unwrap_or(app.loaded.config.daemon.idle_timeout_secs);
    tracing::info!(dir = %data_dir.display(), pid = std::process::id(), "warm process serving");
    listening.serve((idle > 0).then(|| Duration::from_secs(idle)));
    Ok(())
}
