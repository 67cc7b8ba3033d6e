//! The `urnreg` command line. Everything it does lives in the library; this
//! binary parses arguments, calls it, prints, and turns the outcome into an
//! exit status (0 yes, 1 no, 2 error).

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
