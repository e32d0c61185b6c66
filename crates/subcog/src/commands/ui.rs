//! `subcog ui`

use std::sync::Arc;

use clap::Args;
use tokio_util::sync::CancellationToken;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// Open the memory viewer: a local web page to search (with explanations), browse, edit
/// and delete memories, and see the memory graph, consolidation runs and tiers over time.
///
/// Serves http://127.0.0.1:PORT/ only, with a random token in the URL; requests without it
/// get 401. The first line printed is the URL (with --json, {"url": …, "port": …}). The page
/// is embedded in subcog and makes no request anywhere else. Ctrl-C or SIGTERM stops it.
#[derive(Debug, Args)]
pub struct UiArgs {
    /// Listen on this port (default: a free one)
    #[arg(long, value_name = "PORT")]
    pub port: Option<u16>,
    /// Do not open the page in a browser
    #[arg(long)]
    pub no_open: bool,
}

/// Runs `ui`.
pub fn run(app: &App, args: UiArgs) -> CommandResult {
    let subcog = Arc::new(app.build_subcog()?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("subcog-ui")
        .build()
        .map_err(|e| CommandError::internal(anyhow::anyhow!("cannot start the async runtime: {e}")))?;
    let outcome = runtime.block_on(async {
        let bound = crate::ui::bind(args.port.unwrap_or(0)).await?;
        let url = bound.url();
        // The first line is the address a user, script or test reads.
        if app.json() {
            output::print(&format!("{}\n", serde_json::json!({"url": url, "port": bound.port})))?;
        } else {
            output::print(&format!("{url}\n"))?;
        }
        output::note(&format!(
            "memory viewer for {}; Ctrl-C stops it",
            subcog.location().project_root.display()
        ));
        if !args.no_open {
            open_browser(&url);
        }
        let stop = CancellationToken::new();
        tokio::spawn(crate::mcp::stop_on_signal(stop.clone()));
        crate::ui::serve(bound, subcog.clone(), stop).await
    });
    // Blocking work was awaited by the graceful shutdown; a warm-up still loading the model
    // is not worth waiting for.
    runtime.shutdown_background();
    outcome
}

/// Hands the URL to the desktop's browser; a failure is a note, the URL is printed anyway.
fn open_browser(url: &str) {
    #[cfg(target_os = "macos")]
    let mut command = std::process::Command::new("open");
    #[cfg(target_os = "windows")]
    let mut command = {
        let mut c = std::process::Command::new("rundll32");
        c.arg("url.dll,FileProtocolHandler");
        c
    };
    #[cfg(not(any(target_os = "macos", target_os = "windows")))]
    let mut command = std::process::Command::new("xdg-open");
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    match command.spawn() {
        Ok(mut child) => {
            // Reaped on a thread of its own: the opener may wait for the browser to exit.
            std::thread::spawn(move || match child.wait() {
                Ok(status) if !status.success() => {
                    output::note(&format!("could not open a browser ({status}); open the URL above"));
                }
                _ => {}
            });
        }
        Err(e) => output::note(&format!("could not open a browser ({e}); open the URL above")),
    }
}
