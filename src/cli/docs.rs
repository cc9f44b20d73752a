//! `gtms completions SHELL` and `gtms man`: shell completions and a roff man page, generated
//! from the same clap definition that parses the arguments, so they never drift.

use std::io::Write;

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::CliError;

#[derive(Debug, Args)]
pub(super) struct CompletionsArgs {
    /// bash, zsh, fish, elvish or powershell.
    #[arg(value_name = "SHELL")]
    shell: Shell,
}

/// Writes the completion script for `args.shell` to standard output.
pub(super) fn completions(args: CompletionsArgs) -> Result<(), CliError> {
    let mut command = super::Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut command, "gtms", &mut out);
    out.flush().map_err(CliError::runtime)
}

#[derive(Debug, Args)]
pub(super) struct ManArgs {
    /// Write gtms.1 and one page per subcommand (gtms-serve.1, ...) into this directory
    /// instead of printing gtms(1).
    #[arg(long, value_name = "DIR")]
    dir: Option<std::path::PathBuf>,
}

/// Prints gtms(1) (with its SUBCOMMANDS section), or writes every page into `--dir`.
pub(super) fn man(args: ManArgs) -> Result<(), CliError> {
    let command = super::Cli::command();
    match args.dir {
        Some(dir) => {
            std::fs::create_dir_all(&dir).map_err(|e| CliError::Runtime(format!("{}: {e}", dir.display())))?;
            clap_mangen::generate_to(command, &dir)
                .map_err(|e| CliError::Runtime(format!("{}: {e}", dir.display())))?;
            super::say(format_args!("man pages written to {}", dir.display()))
        }
        None => {
            let mut out = std::io::stdout().lock();
            clap_mangen::Man::new(command).render(&mut out).map_err(CliError::runtime)?;
            out.flush().map_err(CliError::runtime)
        }
    }
}
