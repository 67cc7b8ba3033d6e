//! Where URNs come from: arguments, or stdin (read in chunks of lines by
//! the batch engine, [`urnreg::batch`]).

use std::ffi::OsString;
use std::io::{self, IsTerminal};

/// True if the command should read stdin: `-` given, or nothing given and
/// stdin is not a terminal.
pub fn wants_stdin(args: &[OsString]) -> bool {
    match args {
        [] => !io::stdin().is_terminal(),
        [one] => one == "-",
        _ => false,
    }
}
