//! The `gtms` binary: everything lives in the library; see `gtms::cli`.

fn main() -> std::process::ExitCode {
    gtms::cli::main()
}
