use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("edgar-extract") && args.len() == 6 {
        let (from, out) = (PathBuf::from(&args[3]), PathBuf::from(&args[5]));
        return match gtms::companies::extract::run(&from, &out, true) {
            Ok(report) => {
                println!("{report:?}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("gtms: {e}");
                ExitCode::FAILURE
            }
        };
    }
    eprintln!("usage: gtms edgar-extract --from DIR --out DIR");
    ExitCode::FAILURE
}
