//! The `urnreg` command line. Everything it does lives in the library; this
//! binary parses arguments, calls it, prints, and turns the outcome into an
//! exit status (0 yes, 1 no, 2 error).

mod cli;

fn main() -> std::process::ExitCode {
    ignore_file_size_signal();
    cli::main()
}

/// A write past the file size limit (`ulimit -f`, systemd's `LimitFSIZE=`)
/// raises SIGXFSZ, whose default action ends the process at once, with no
/// message and a database journal or temporary file left behind. Ignored,
/// the write fails with EFBIG instead: SQLite reports "disk I/O error" (or
/// "database or disk is full" when it was growing the file) and rolls
/// back, and every command reports its write error (as Rust's runtime
/// does for SIGPIPE and EPIPE).
#[cfg(unix)]
fn ignore_file_size_signal() {
    // SAFETY: at the start of `main`, before any thread exists; SIG_IGN
    // installs no handler, so no code runs in a signal context.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

#[cfg(not(unix))]
fn ignore_file_size_signal() {}
