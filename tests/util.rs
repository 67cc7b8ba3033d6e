use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the built `urnreg` with `args` and `stdin`.
pub fn urnreg(args: &[&str], stdin: &[u8]) -> Output {
    // No database: read-only commands use the embedded registry.
    let mut child = Command::new(env!("CARGO_BIN_EXE_urnreg"))
        .args(args)
        .env(
            "URNREG_DB",
            std::env::temp_dir().join("urnreg-tests-no-such-dir/none.db"),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run urnreg");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for urnreg");
    writer.join().expect("stdin writer");
    out
}

/// Stdout as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

/// Stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The exit code (panics on a signal).
pub fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally")
}
