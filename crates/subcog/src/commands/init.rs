//! `subcog init`

use clap::Args;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;
use subcog_core::ScopeKind;

/// Set subcog up for this project.
///
/// --sync configures a git remote for sharing memories: it adds the fetch refspec
/// `+refs/notes/mem*:refs/notes/remotes/<remote>/mem*`, so a plain `git fetch` also brings
/// your team's memories into tracking refs, ready for `subcog sync`. Push refspecs are
/// left alone, so `git push` keeps pushing only what it pushed before. With --user it sets
/// up the user notes repository instead, and --url sets the remote's URL.
#[derive(Debug, Args)]
pub struct InitArgs {
    /// Configure notes sync with a git remote
    #[arg(long)]
    pub sync: bool,
    /// The remote to configure
    #[arg(long, default_value = "origin", requires = "sync")]
    pub remote: String,
    /// The user notes repository instead of the project's
    #[arg(long, requires = "sync")]
    pub user: bool,
    /// Set the remote's URL (adding the remote when missing)
    #[arg(long, requires = "sync")]
    pub url: Option<String>,
}

/// Runs `init`.
pub fn run(app: &App, args: InitArgs) -> CommandResult {
    if !args.sync {
        return Err(CommandError::user(
            "nothing to set up: pass --sync to share memories through a git remote",
        ));
    }
    let scope = if args.user { ScopeKind::User } else { ScopeKind::Project };
    let setup = app.subcog()?.setup_sync(scope, &args.remote, args.url.as_deref())?;
    if app.json() {
        return output::print_json(&serde_json::to_value(&setup).unwrap_or_default());
    }
    output::print(&format!(
        "{} remote {} ({}) in {}: fetch refspec {}\nrun `subcog sync{}{}` to exchange memories\n",
        if setup.added {
            "configured"
        } else {
            "already configured:"
        },
        setup.remote,
        setup.url,
        setup.repository,
        setup.refspec,
        if args.user { " --user" } else { "" },
        if setup.remote == "origin" {
            String::new()
        } else {
            format!(" --remote {}", setup.remote)
        },
    ))
}
