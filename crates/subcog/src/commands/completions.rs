//! `subcog completions`

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use crate::cli::Cli;
use crate::command_error::CommandResult;
use crate::output;

/// Print shell completions, e.g. `subcog completions bash > ~/.local/share/bash-completion/completions/subcog`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// bash, zsh, fish, elvish or powershell
    pub shell: Shell,
}

/// Runs `completions`.
pub fn run(args: CompletionsArgs) -> CommandResult {
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "subcog", &mut buf);
    output::print(&String::from_utf8_lossy(&buf))
}
