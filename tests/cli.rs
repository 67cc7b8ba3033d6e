//! The `urnreg` command line: output contracts and exit codes.

use serde_json::{Value, json};

use crate::util::{code, stderr, stdout, urnreg};

fn jsonl(out: &std::process::Output) -> Vec<Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

#[test]
fn check_jsonl_has_exactly_the_contract_keys() {
    let out = urnreg(
        &["check", "--syntax-only", "--format", "jsonl", "-"],
        b"urn:example:a?+r?=q#\n",
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let rows = jsonl(&out);
    assert_eq!(rows.len(), 1);
    let row = rows[0].as_object().unwrap();
    let keys: Vec<_> = row.keys().map(String::as_str).collect();
    let mut expected = vec![
        "line", "input", "valid", "nid", "nss", "r", "q", "f", "key", "errors", "warnings",
    ];
    expected.sort_unstable();
    let mut got = keys.clone();
    got.sort_unstable();
    assert_eq!(got, expected);
    assert_eq!(rows[0]["line"], 1, "streamed results carry their line number");
    assert_eq!(rows[0]["input"], "urn:example:a?+r?=q#");
    assert_eq!(rows[0]["valid"], true);
    assert_eq!(rows[0]["r"], "r");
    assert_eq!(rows[0]["q"], "q");
    assert_eq!(rows[0]["f"], "");
    assert_eq!(rows[0]["key"], "urn:example:a");
    assert_eq!(rows[0]["errors"], json!([]));
    assert_eq!(rows[0]["warnings"][0]["kind"], "r-component");
    assert_eq!(rows[0]["warnings"][0]["offset"], 13);
}

#[test]
fn check_streams_one_result_per_line_in_order() {
    let input =
        b"urn:example:a\r\nnot a urn\n\nurn:example:b%2c\nurn:ex:\xff\xfe\nurn:ex:a\x00b\nurn:ex:last\r";
    let out = urnreg(&["check", "--syntax-only", "--format", "jsonl", "-"], input);
    assert_eq!(code(&out), 1);
    let rows = jsonl(&out);
    let inputs: Vec<_> = rows
        .iter()
        .map(|r| r["input"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        inputs,
        [
            "urn:example:a",
            "not a urn",
            "",
            "urn:example:b%2c",
            "urn:ex:\u{fffd}\u{fffd}",
            "urn:ex:a\0b",
            "urn:ex:last\r"
        ]
    );
    let valid: Vec<_> = rows.iter().map(|r| r["valid"].as_bool().unwrap()).collect();
    assert_eq!(valid, [true, false, false, true, false, false, false]);
    // Invalid lines: nulls, one error with kind and offset.
    assert_eq!(rows[1]["nid"], Value::Null);
    assert_eq!(rows[1]["key"], Value::Null);
    assert_eq!(rows[1]["errors"][0]["kind"], "missing-scheme");
    assert_eq!(rows[1]["errors"][0]["offset"], 0);
    assert_eq!(rows[3]["key"], "urn:example:b%2C");
    assert_eq!(rows[4]["errors"][0]["kind"], "non-ascii");
    assert_eq!(rows[4]["errors"][0]["offset"], 7);
    assert_eq!(rows[5]["errors"][0]["kind"], "invalid-char");
    assert_eq!(rows[5]["errors"][0]["offset"], 8);
    // A lone "\r" without "\n" is part of the line.
    assert_eq!(rows[6]["errors"][0]["offset"], 11);
}

#[test]
fn check_reports_a_huge_line_and_goes_on() {
    let mut input = b"urn:example:".to_vec();
    input.extend(std::iter::repeat_n(b'a', 3 << 20));
    input.extend_from_slice(b"\nurn:example:after\n");
    let out = urnreg(&["check", "--format", "jsonl", "-"], &input);
    assert_eq!(code(&out), 1);
    let rows = jsonl(&out);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["errors"][0]["kind"], "line-too-long");
    assert_eq!(rows[1]["valid"], true);
}

#[test]
fn check_exit_codes() {
    assert_eq!(code(&urnreg(&["check", "urn:example:a"], b"")), 0);
    assert_eq!(code(&urnreg(&["check", "urn:example:a", "urn:x:a"], b"")), 1);
    assert_eq!(
        code(&urnreg(&["check", "--format", "nope", "urn:example:a"], b"")),
        2
    );
    assert_eq!(
        code(&urnreg(&["check", "-"], b"")),
        0,
        "no input, nothing invalid"
    );
    // No URN and stdin not a terminal (a pipe here): reads stdin.
    let out = urnreg(&["check", "--format", "jsonl"], b"urn:example:x\n");
    assert_eq!(jsonl(&out).len(), 1);
}

#[test]
fn check_text_draws_a_caret_under_the_byte() {
    let out = urnreg(&["check", "urn:example:a b"], b"");
    assert_eq!(code(&out), 1);
    assert_eq!(
        stdout(&out),
        "invalid urn:example:a b\n  urn:example:a b\n               ^ error: unexpected ' ' (space) in NSS at byte 13: expected pchar, '/', '%HH', '?+', '?=' or '#'\n"
    );
}

#[test]
fn check_json_is_one_array() {
    let out = urnreg(&["check", "--format", "json", "urn:example:a", "urn:x"], b"");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2);
    assert_eq!(v[1]["errors"][0]["message"], "expected ':' after NID at byte 5");
    let empty = urnreg(&["check", "--format", "json", "-"], b"");
    let v: Value = serde_json::from_slice(&empty.stdout).unwrap();
    assert_eq!(v, json!([]));
}

#[test]
fn check_rfc2141_mode() {
    let out = urnreg(&["check", "--rfc2141", "--format", "jsonl", "urn:a:b/c"], b"");
    assert_eq!(code(&out), 1);
    assert_eq!(jsonl(&out)[0]["errors"][0]["kind"], "reserved-char");
}

#[test]
fn eq_answers_and_exits() {
    let out = urnreg(&["eq", "urn:example:a123,z456", "URN:EXAMPLE:a123,z456#789"], b"");
    assert_eq!((code(&out), stdout(&out).as_str()), (0, "equivalent\n"));
    let out = urnreg(&["eq", "urn:example:a123,z456", "urn:example:A123,z456"], b"");
    assert_eq!((code(&out), stdout(&out).as_str()), (1, "not equivalent\n"));
    let out = urnreg(&["eq", "urn:example:a", "urn:example:a?b"], b"");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("URN 2 is invalid"), "{}", stderr(&out));
    assert!(stderr(&out).contains("at byte 13"), "{}", stderr(&out));
}

#[test]
fn normalize_prints_keys() {
    let out = urnreg(&["normalize", "URN:EXAMPLE:a%2c?+x", "urn:example:b"], b"");
    assert_eq!(
        (code(&out), stdout(&out).as_str()),
        (0, "urn:example:a%2C\nurn:example:b\n")
    );
    // One output line per input line: an invalid one gets an empty line,
    // and its error on stderr names the line.
    let out = urnreg(&["normalize", "-"], b"urn:Example:c\nbad\nurn:example:%7e\n");
    assert_eq!(
        (code(&out), stdout(&out).as_str()),
        (1, "urn:example:c\n\nurn:example:%7E\n")
    );
    assert!(stderr(&out).contains("line 2 is invalid"), "{}", stderr(&out));
    assert!(stderr(&out).contains("expected the scheme 'urn:' at byte 0"));
    // Without --generic the NID must be registered.
    let out = urnreg(&["normalize", "urn:Ab:c"], b"");
    assert_eq!((code(&out), stdout(&out).as_str()), (1, "\n"));
    assert!(stderr(&out).contains("not registered"), "{}", stderr(&out));
    let out = urnreg(&["normalize", "--generic", "urn:Ab:c"], b"");
    assert_eq!((code(&out), stdout(&out).as_str()), (0, "urn:ab:c\n"));
}

#[test]
fn parse_json_shows_parts_key_and_display_form() {
    let out = urnreg(&["parse", "--format", "json", "URN:Example:caf%c3%a9?=q"], b"");
    assert_eq!(code(&out), 0);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["nid"], "Example");
    assert_eq!(v["nss"], "caf%c3%a9");
    assert_eq!(v["q"], "q");
    assert_eq!(v["r"], Value::Null);
    assert_eq!(v["key"], "urn:example:caf%C3%A9");
    assert_eq!(v["display"]["text"], "URN:Example:café?=q");
    assert_eq!(v["display"]["canonical"], false);
    let out = urnreg(&["parse", "urn:example:a%zz"], b"");
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("expected two hex digits after '%' at byte 13"));
}

#[test]
fn broken_pipe_is_quiet() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_urnreg"))
        .args(["check", "--format", "jsonl", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close stdout right away, then feed plenty of input.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    let line = b"urn:example:a\n".repeat(10_000);
    let _ = stdin.write_all(&line);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn check_against_the_registry_adds_the_namespace() {
    let out = urnreg(
        &["check", "--format", "jsonl", "-"],
        b"urn:isbn:951-0-18435-7\nurn:isbn:951-0-18435-8\nurn:ibsn:1\nurn:csa:matter:x\n",
    );
    assert_eq!(code(&out), 1);
    let rows = jsonl(&out);
    assert_eq!(
        rows[0]["namespace"],
        json!({"nid": "isbn", "kind": "formal", "status": "registered", "syntax": "builtin"})
    );
    assert_eq!(
        rows[0]["key"], "urn:isbn:9789510184356",
        "the namespace-refined key"
    );
    assert_eq!(rows[1]["errors"][0]["kind"], "nss-check");
    assert_eq!(rows[1]["errors"][0]["offset"], 21);
    assert_eq!(rows[2]["namespace"], Value::Null);
    assert_eq!(rows[2]["errors"][0]["kind"], "unregistered-nid");
    assert!(
        rows[2]["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("did you mean 'isbn'"),
        "a swap of two letters is one edit"
    );
    assert_eq!(rows[3]["namespace"]["syntax"], "generic");
    assert_eq!(rows[3]["warnings"][0]["kind"], "generic-rules");
    // --syntax-only keeps the generic contract: no registry, no namespace key.
    let out = urnreg(
        &["check", "--syntax-only", "--format", "jsonl", "urn:ibsn:1"],
        b"",
    );
    assert_eq!(code(&out), 0);
    assert!(jsonl(&out)[0].get("namespace").is_none());
}

#[test]
fn check_jobs_keep_input_order_and_summary_counts() {
    let mut input = Vec::new();
    for i in 0..20_000 {
        match i % 4 {
            0 => input.extend_from_slice(format!("urn:example:line-{i}\n").as_bytes()),
            1 => input.extend_from_slice(b"urn:isbn:951-0-18435-7\n"),
            2 => input.extend_from_slice(format!("bad line {i}\n").as_bytes()),
            _ => input.extend_from_slice(b"urn:issn:0317-8472\n"),
        }
    }
    let one = urnreg(&["check", "--format", "jsonl", "-"], &input);
    let many = urnreg(
        &["check", "--format", "jsonl", "--jobs", "4", "--summary", "-"],
        &input,
    );
    assert_eq!(code(&one), 1);
    assert_eq!(code(&many), 1);
    assert_eq!(one.stdout, many.stdout, "--jobs changes nothing but speed");
    assert_eq!(stdout(&one).lines().count(), 20_000);
    let summary = stderr(&many);
    assert!(
        summary.contains("20000 checked, 10000 valid, 10000 invalid"),
        "{summary}"
    );
    assert!(summary.contains("5000  missing-scheme"), "{summary}");
    assert!(summary.contains("5000  nss-check"), "{summary}");
    let json_many = urnreg(&["check", "--format", "json", "--jobs", "3", "-"], &input);
    let v: Value = serde_json::from_slice(&json_many.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 20_000);
}

#[test]
fn check_reads_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("urns.txt");
    std::fs::write(
        &path,
        "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6\nurn:uuid:nope\n",
    )
    .unwrap();
    let out = urnreg(
        &["check", "--format", "jsonl", "--file", path.to_str().unwrap()],
        b"",
    );
    assert_eq!(code(&out), 1);
    let rows = jsonl(&out);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1]["errors"][0]["kind"], "nss-syntax");
    assert_eq!(rows[1]["errors"][0]["offset"], 9);
    let missing = urnreg(&["check", "--file", "/no/such/file"], b"");
    assert_eq!(code(&missing), 2);
}

#[test]
fn eq_and_normalize_use_namespace_rules_unless_generic() {
    let out = urnreg(
        &["eq", "urn:isbn:951-0-18435-7", "URN:ISBN:978-951-0-18435-6"],
        b"",
    );
    assert_eq!(stdout(&out), "equivalent\n");
    let out = urnreg(
        &[
            "eq",
            "--generic",
            "urn:isbn:951-0-18435-7",
            "URN:ISBN:978-951-0-18435-6",
        ],
        b"",
    );
    assert_eq!(stdout(&out), "not equivalent\n");
    let out = urnreg(
        &["normalize", "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"],
        b"",
    );
    assert_eq!(stdout(&out), "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6\n");
    let out = urnreg(
        &[
            "normalize",
            "--generic",
            "URN:UUID:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6",
        ],
        b"",
    );
    assert_eq!(stdout(&out), "urn:uuid:F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6\n");
}

/// A stream whose reader closes stdout early (`check - | head -1`) ends at
/// once and quietly, whatever `--jobs` is.
#[test]
fn check_stops_at_once_when_stdout_closes() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let line = b"urn:isbn:0451450523\n";
    for jobs in ["1", "2", "4"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_urnreg"))
            .args(["check", "--jobs", jobs, "-"])
            .env(
                "URNREG_DB",
                std::env::temp_dir().join("urnreg-tests-no-such-dir/none.db"),
            )
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        // Far more input than the pipes and the chunk pool hold.
        let writer = std::thread::spawn(move || {
            for _ in 0..2_000_000 {
                if stdin.write_all(line).is_err() {
                    break;
                }
            }
        });
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert_eq!(first, "1:valid   urn:isbn:0451450523\n");
        // Dropping the reader closes stdout.
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > Duration::from_secs(20) {
                child.kill().unwrap();
                panic!("--jobs {jobs}: still running 20 s after stdout closed");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        writer.join().unwrap();
        assert_eq!(
            status.code(),
            Some(0),
            "--jobs {jobs}: a closed pipe is not an error"
        );
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert_eq!(err, "", "--jobs {jobs}: quietly");
    }
}

#[test]
fn check_quiet_and_only_invalid() {
    let input = b"urn:isbn:0451450523\nurn:isbn:0451450524\nnot a urn\nurn:issn:0378-5955\n";
    for jobs in ["1", "2"] {
        let out = urnreg(&["check", "-q", "--jobs", jobs, "-"], input);
        assert_eq!(
            (code(&out), stdout(&out).as_str(), stderr(&out).as_str()),
            (1, "", "")
        );
        let out = urnreg(&["check", "-q", "--summary", "--jobs", jobs, "-"], input);
        assert_eq!((code(&out), stdout(&out).as_str()), (1, ""));
        assert!(
            stderr(&out).starts_with("4 checked, 2 valid, 2 invalid\n"),
            "{}",
            stderr(&out)
        );
        assert!(stderr(&out).contains("2  isbn"), "{}", stderr(&out));
        let out = urnreg(
            &[
                "check",
                "--only-invalid",
                "--format",
                "jsonl",
                "--jobs",
                jobs,
                "-",
            ],
            input,
        );
        let rows = jsonl(&out);
        let lines: Vec<_> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
        assert_eq!(lines, [2, 3], "only the invalid lines, with their numbers");
    }
    let out = urnreg(&["check", "-q", "urn:isbn:0451450523"], b"");
    assert_eq!((code(&out), stdout(&out).as_str()), (0, ""));
}

#[test]
fn check_text_stream_numbers_its_lines_as_grep_n_does() {
    let out = urnreg(&["check", "-"], b"urn:isbn:0451450523\nurn:isbn:0451450524\n");
    let text = stdout(&out);
    let status_lines: Vec<_> = text.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(
        status_lines,
        ["1:valid   urn:isbn:0451450523", "2:invalid urn:isbn:0451450524"]
    );
    // Arguments are not numbered.
    let out = urnreg(&["check", "urn:isbn:0451450523"], b"");
    assert_eq!(stdout(&out), "valid   urn:isbn:0451450523\n");
}

/// A URN that fails its namespace's rules is equivalent to nothing, and
/// has no key (the ISBN-10 check digit of 0451450524 is wrong).
#[test]
fn eq_and_normalize_refuse_a_bad_check_digit() {
    let out = urnreg(&["eq", "urn:isbn:0451450523", "urn:isbn:0451450524"], b"");
    assert_eq!((code(&out), stdout(&out).as_str()), (2, ""));
    assert!(stderr(&out).contains("URN 2 is invalid"), "{}", stderr(&out));
    assert!(stderr(&out).contains("check character"), "{}", stderr(&out));
    let out = urnreg(&["eq", "urn:isbn:0451450523", "URN:ISBN:978-0-451-45052-4"], b"");
    assert_eq!((code(&out), stdout(&out).as_str()), (0, "equivalent\n"));
    let out = urnreg(&["normalize", "urn:isbn:0451450524"], b"");
    assert_eq!((code(&out), stdout(&out).as_str()), (1, "\n"));
    assert!(stderr(&out).contains("URN 1 is invalid"), "{}", stderr(&out));
    let out = urnreg(&["check", "--format", "jsonl", "-"], b"urn:isbn:0451450524\n");
    assert_eq!(jsonl(&out)[0]["key"], Value::Null, "an invalid URN has no key");
    let out = urnreg(&["parse", "urn:isbn:0451450524"], b"");
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains("verdict:     invalid (against the registry)"),
        "{}",
        stdout(&out)
    );
    let out = urnreg(&["parse", "--syntax-only", "urn:isbn:0451450524"], b"");
    assert_eq!(code(&out), 0);
    assert!(
        stdout(&out).contains("generic syntax only, the registry was not consulted"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn check_refuses_absurd_job_counts() {
    for jobs in ["18446744073709551615", "257", "x"] {
        let out = urnreg(&["check", "--jobs", jobs, "-"], b"urn:isbn:0451450523\n");
        assert_eq!(code(&out), 2, "--jobs {jobs}");
        assert!(stderr(&out).contains("--jobs"), "{}", stderr(&out));
    }
    let out = urnreg(&["check", "--jobs", "0", "-"], b"urn:isbn:0451450523\n");
    assert_eq!(code(&out), 0, "0 means one per core");
}

/// The 1 MiB line limit counts the line without its terminator: a line of
/// exactly 1 MiB is read whole with "\n" and with "\r\n" alike.
#[test]
fn check_line_limit_is_the_same_for_lf_and_crlf() {
    let limit = 1 << 20;
    let mut line = b"urn:example:".to_vec();
    line.resize(limit, b'a');
    for end in [&b"\n"[..], b"\r\n"] {
        let mut input = line.clone();
        input.extend_from_slice(end);
        let out = urnreg(&["check", "--syntax-only", "--format", "jsonl", "-"], &input);
        let rows = jsonl(&out);
        assert_ne!(rows[0]["errors"][0]["kind"], "line-too-long", "{end:?}");
        let mut longer = line.clone();
        longer.push(b'a');
        longer.extend_from_slice(end);
        let out = urnreg(&["check", "--syntax-only", "--format", "jsonl", "-"], &longer);
        assert_eq!(jsonl(&out)[0]["errors"][0]["kind"], "line-too-long", "{end:?}");
    }
}

/// With input that comes slowly (a pipe kept open), a closed stdout still
/// ends every `--jobs` setting at once: idle workers do not wait for input
/// that may never come.
#[test]
fn check_stops_when_stdout_closes_while_input_waits() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    for jobs in ["1", "4"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_urnreg"))
            .args(["check", "--jobs", jobs, "-"])
            .env(
                "URNREG_DB",
                std::env::temp_dir().join("urnreg-tests-no-such-dir/none.db"),
            )
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // stdout closed before anything is written
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"urn:isbn:0451450523\n").unwrap();
        stdin.flush().unwrap();
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > Duration::from_secs(10) {
                child.kill().unwrap();
                panic!("--jobs {jobs}: still running 10 s after stdout closed, input still open");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        drop(stdin);
        assert_eq!(status.code(), Some(0), "--jobs {jobs}");
    }
}
