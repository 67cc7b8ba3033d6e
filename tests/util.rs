use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the built `urnreg` with `args` and `stdin`.
pub fn urnreg(args: &[&str], stdin: &[u8]) -> Output {
    urnreg_with_env(args, stdin, &[])
}

/// The built `urnreg` with no database: read-only commands use the
/// embedded registry.
pub fn urnreg_command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_urnreg"));
    command.env(
        "URNREG_DB",
        std::env::temp_dir().join("urnreg-tests-no-such-dir/none.db"),
    );
    command
}

/// Runs the built `urnreg` with `args`, `stdin` and these environment
/// variables set.
pub fn urnreg_with_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let mut child = urnreg_command()
        .args(args)
        .envs(env.iter().copied())
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

/// Stdout as JSON Lines: one value a line.
pub fn jsonl(out: &Output) -> Vec<serde_json::Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// Stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The exit code (panics on a signal).
pub fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally")
}

/// An external program a test needs (`chromium`, `xmllint`): `$override_var`
/// if set, else the first `names` on `PATH`. When it is missing the test
/// says so loudly on the terminal (past the test harness's capture) and
/// is skipped, unless `URNREG_REQUIRE_TOOLS=1` (set by `.ci/run`, which
/// installs them): then a missing program fails the test.
pub fn external_tool(names: &[&str], override_var: &str, test: &str) -> Option<std::path::PathBuf> {
    if let Some(path) = std::env::var_os(override_var) {
        return Some(path.into());
    }
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        let message = format!(
            "\n*** SKIPPED {test}: none of {names:?} is on PATH (or set {override_var}).\n\
             *** Install it (Debian: see .ci/run) to run this test.\n"
        );
        assert!(
            std::env::var("URNREG_REQUIRE_TOOLS").as_deref() != Ok("1"),
            "{message}URNREG_REQUIRE_TOOLS=1: the test may not be skipped"
        );
        let _ = std::io::stderr().write_all(message.as_bytes());
    }
    found
}
