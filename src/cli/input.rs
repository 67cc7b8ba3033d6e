//! Where URNs come from: arguments, or stdin (read in chunks of lines by
//! [`super::chunks`]).

use std::ffi::OsString;
use std::io::{self, IsTerminal};

/// Lines longer than this are reported as too long instead of being held in
/// memory (a URN is rarely longer than a few hundred bytes).
pub const MAX_LINE: usize = 1 << 20;

/// True if the command should read stdin: `-` given, or nothing given and
/// stdin is not a terminal.
pub fn wants_stdin(args: &[OsString]) -> bool {
    match args {
        [] => !io::stdin().is_terminal(),
        [one] => one == "-",
        _ => false,
    }
}
