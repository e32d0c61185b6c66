//! `subcog mcp`

use std::net::SocketAddr;
use std::sync::Arc;

use clap::Args;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};

/// Serve the Model Context Protocol: subcog's tools, resources and prompts for any agent.
///
/// Over stdio by default (what Claude Code, Claude Desktop, Cursor and Codex launch), or
/// streamable HTTP at http://ADDR/mcp with --http (GET /health answers without a token).
/// HTTP clients send `Authorization: Bearer <token>` when SUBCOG_MCP_TOKEN (or mcp.token)
/// is set; without a token only loopback addresses are served. The embedding model and the
/// stores stay loaded between calls, consolidation runs on consolidation.schedule, and
/// stdin closing, SIGTERM or Ctrl-C stop the server after the requests in flight finish.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Serve streamable HTTP on this address (e.g. 127.0.0.1:8765; port 0 picks one)
    #[arg(long, value_name = "ADDR")]
    pub http: Option<SocketAddr>,
    /// Do not run scheduled consolidation in this process
    #[arg(long)]
    pub no_schedule: bool,
}

/// Runs `mcp`.
pub fn run(app: &App, args: McpArgs) -> CommandResult {
    let subcog = Arc::new(app.build_subcog()?);
    if let Some(addr) = args.http {
        // Refuse before loading anything.
        crate::mcp::http::check_bind(addr, &subcog.config().mcp.token)?;
    }
    // Hooks and reads of this user's other subcog processes come here too (the warm path),
    // unless a daemon already serves them.
    #[cfg(unix)]
    let _warm = match app.data_dir() {
        Ok(dir) if app.loaded.config.daemon.enabled => {
            match crate::warm::server::bind(&dir, crate::warm::server::Owner::Mcp) {
                Ok(Some(listening)) => Some(listening.serve_in_background(subcog.clone())),
                Ok(None) => None,
                Err(e) => {
                    tracing::info!(error = %e.message(), "not serving the warm path");
                    None
                }
            }
        }
        _ => None,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("subcog-mcp")
        .build()
        .map_err(|e| CommandError::internal(anyhow::anyhow!("cannot start the async runtime: {e}")))?;
    let outcome = runtime.block_on(crate::mcp::serve(
        subcog,
        crate::mcp::Options {
            http: args.http,
            schedule: !args.no_schedule,
        },
    ));
    // Blocking work was awaited in serve; nothing is left to wait for here.
    runtime.shutdown_background();
    outcome
}
