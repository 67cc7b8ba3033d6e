//! Where URNs come from: arguments, or stdin (read in chunks of lines by
//! the batch engine, [`urnreg::batch`]); and how a stream ends when no one
//! reads its output any more.

use std::ffi::{OsStr, OsString};
use std::io::{self, IsTerminal};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// True if the command should read stdin: `-` given, or nothing given and
/// stdin is not a terminal.
pub fn wants_stdin(args: &[OsString]) -> bool {
    match args {
        [] => !io::stdin().is_terminal(),
        [one] => one == "-",
        _ => false,
    }
}

/// What to say of an argument that is no URN but names a file (`urnreg
/// check urns.txt`, a first user's guess): how to read the URNs in it.
/// `None` for an argument that starts as a URN does, or names no file.
pub fn file_argument_note(arg: &OsStr, read_it: &str) -> Option<String> {
    let bytes = arg.as_encoded_bytes();
    let urn_like = bytes.len() >= 4 && bytes[..4].eq_ignore_ascii_case(b"urn:");
    if urn_like || !Path::new(arg).is_file() {
        return None;
    }
    let shown = super::output::printable_line(&arg.to_string_lossy()).into_owned();
    // As a shell reads it back: quoted unless plain.
    let plain = shown
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'/' | b'+' | b','));
    let word = if plain {
        shown.clone()
    } else {
        format!("'{}'", shown.replace('\'', r"'\''"))
    };
    Some(format!(
        "note: '{shown}' is a file: {} checks the URNs in it, one per line; `urnreg scan` finds them in any text",
        read_it.replace("{}", &word)
    ))
}

/// While it lives, a stream whose standard output is a pipe or a socket
/// ends as soon as the reader of that output goes away (`check - | head
/// -1`), ending the process quietly with status 0 as a closed pipe does
/// ([`super::main`]), even while the input is open and silent: a write
/// would find out only at the next result, which may be long in coming.
/// Dropped, it stands down (the stream ended on its own: its status
/// holds).
pub struct StdoutWatch {
    armed: Arc<Mutex<bool>>,
}

impl Drop for StdoutWatch {
    fn drop(&mut self) {
        *self.armed.lock().unwrap_or_else(|e| e.into_inner()) = false;
    }
}

/// Watches standard output (see [`StdoutWatch`]) from a thread that sleeps
/// in the kernel until the reader goes; nothing when standard output is a
/// file or a terminal, which no reader leaves.
pub fn watch_stdout() -> StdoutWatch {
    let armed = Arc::new(Mutex::new(true));
    #[cfg(unix)]
    if stdout_is_pipe_or_socket() {
        let armed = Arc::clone(&armed);
        // No thread, no watch: the stream still ends at its next write.
        let _ = std::thread::Builder::new()
            .name("stdout-watch".into())
            .spawn(move || {
                if wait_for_reader_to_leave() {
                    // Held to the end: a stream ending meanwhile waits.
                    let armed = armed.lock().unwrap_or_else(|e| e.into_inner());
                    if *armed {
                        std::process::exit(0);
                    }
                }
            });
    }
    StdoutWatch { armed }
}

/// Whether standard output is a FIFO or a socket.
#[cfg(unix)]
fn stdout_is_pipe_or_socket() -> bool {
    use std::os::fd::AsFd as _;
    use std::os::unix::fs::FileTypeExt as _;
    let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() else {
        return false;
    };
    std::fs::File::from(fd)
        .metadata()
        .is_ok_and(|m| m.file_type().is_fifo() || m.file_type().is_socket())
}

/// Sleeps until standard output has no reader: poll(2) asked for no event
/// still reports an error (`POLLERR`: a pipe's last reader closed it) or a
/// hang-up (`POLLHUP`: a socket's peer closed it), on Linux at once.
/// Returns false if poll fails or says anything else (never spinning).
#[cfg(unix)]
fn wait_for_reader_to_leave() -> bool {
    use rustix::event::{PollFd, PollFlags, poll};
    let stdout = io::stdout();
    let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
    loop {
        match poll(&mut fds, None) {
            Ok(_) => return fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP),
            Err(rustix::io::Errno::INTR) => {}
            Err(_) => return false,
        }
    }
}
