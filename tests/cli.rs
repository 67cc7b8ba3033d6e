//! The `urnreg` command line: output contracts and exit codes.

use serde_json::{Value, json};

use crate::util::{code, jsonl, stderr, stdout, urnreg, urnreg_command, urnreg_with_env};

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
        b"urn:example:a\r\nnot a urn\n\nurn:example:b%2c\nurn:ex:\xff\xfe\nurn:ex:a\x00b\nurn:ex:cr\rx\nurn:ex:last\r";
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
            "urn:ex:cr\rx",
            // A '\r' ending the input is its line break's half.
            "urn:ex:last"
        ]
    );
    let valid: Vec<_> = rows.iter().map(|r| r["valid"].as_bool().unwrap()).collect();
    assert_eq!(valid, [true, false, false, true, false, false, false, true]);
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
    assert_eq!(rows[6]["errors"][0]["offset"], 9);
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

/// The character above the caret of each caret line of `text` (a caret
/// line is the one under `  <input>`, starting `  ` and ending with `^
/// error: ...`), and the lengths of the lines.
fn carets(text: &str) -> Vec<(char, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    for pair in lines.windows(2) {
        let (shown, under) = (pair[0], pair[1]);
        if let Some(at) = under
            .find("^ error:")
            .filter(|_| under.trim_start().starts_with('^'))
        {
            let column = under[..at].chars().count();
            let above = shown.chars().nth(column).unwrap_or('$');
            found.push((above, shown.len().max(under.len())));
        }
    }
    found
}

/// A line of up to 1 MiB (and one longer, cut there) is not shown whole:
/// at most `SHOWN_BYTES` (512) bytes of it around each finding, saying how
/// many were left out, with the caret under the offending byte; `check`'s
/// text and `normalize`'s errors alike (docs/validating.md).
#[test]
fn long_lines_are_shown_as_a_window_around_the_finding() {
    // A bad %-escape deep in a line of 600 KB (RFC 8141 section 2).
    let mut bad = b"urn:example:".to_vec();
    bad.extend(std::iter::repeat_n(b'a', 300_000));
    bad.extend_from_slice(b"%zz");
    bad.extend(std::iter::repeat_n(b'b', 300_000));
    bad.push(b'\n');
    // A line of 2 MB: too long, cut at 1 MiB, the caret at the cut.
    let mut huge = b"urn:example:".to_vec();
    huge.extend(std::iter::repeat_n(b'c', 2_000_000));
    huge.push(b'\n');
    for (input, above, left_out) in [
        (&bad, '%', "[299884 bytes left out]"),
        (&huge, '$', "[1048064 bytes left out]"),
    ] {
        for args in [&["check", "-"][..], &["normalize", "-"]] {
            let out = urnreg(args, input);
            assert_eq!(code(&out), 1, "{args:?}");
            let text = if args[0] == "check" {
                stdout(&out)
            } else {
                stderr(&out)
            };
            assert!(text.len() < 2048, "{args:?}: {} bytes written", text.len());
            assert!(text.contains(left_out), "{args:?}: {text}");
            let found = carets(&text);
            assert_eq!(found.len(), 1, "{args:?}: {text}");
            // Past the end of the shown text for the cut line: its byte
            // is the first not read.
            assert_eq!(found[0].0, above, "{args:?}: {text}");
            assert!(found[0].1 < 700, "{args:?}: {text}");
        }
    }
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
        "invalid urn:example:a b\n  urn:example:a b\n               ^ error: unexpected ' ' (space) in NSS at byte 13: expected pchar, '/', '%HH', '?+', '?=' or '#' (RFC 8141 section 2)\n"
    );
}

/// Each message says what is wrong, not a symptom of it (a black-box
/// tester's findings): the kind stays, the words change.
#[test]
fn check_messages_say_what_the_rule_wants() {
    let input = b"urn:isbn:0-8044-2957-x\nurn:gsma:imei:35209900-176148-1\nurn:ark:/13030/tf5p30086k\n  urn:isbn:0451450523\nurn:fdc:example.com:20060231:x\n";
    let out = urnreg(&["check", "--format", "jsonl", "-"], input);
    assert_eq!(code(&out), 1);
    let rows = jsonl(&out);
    let error = |i: usize| {
        (
            rows[i]["errors"][0]["kind"].clone(),
            rows[i]["errors"][0]["message"].clone(),
        )
    };
    let said = |i: usize, kind: &str, words: &str| {
        let (k, m) = error(i);
        assert_eq!(k, kind, "line {}: {m}", i + 1);
        assert!(m.as_str().unwrap().contains(words), "line {}: {m}", i + 1);
    };
    // ISBN registration 2017: "upper-case "X" instead of 10".
    said(0, "nss-check", "must be an upper-case X, not 'x'");
    // RFC 7254 section 4.2.3: the Spare digit is always zero.
    said(1, "nss-check", "Spare digit of an IMEI is always 0");
    // RFC 8141 section 2: NSS = pchar *(pchar / "/").
    said(2, "invalid-char", "an NSS starts with pchar or '%HH', not '/'");
    said(
        3,
        "missing-scheme",
        "leading white space; a URN starts with 'urn:'",
    );
    // RFC 4198 section 2: DateId "MUST correspond to a specific day".
    said(4, "nss-check", "20060231 is not a day: February 2006 has 28 days");
}

#[test]
fn check_json_is_one_array() {
    let out = urnreg(&["check", "--format", "json", "urn:example:a", "urn:x"], b"");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2);
    assert_eq!(
        v[1]["errors"][0]["message"],
        "expected ':' after NID at byte 5 (RFC 8141 section 2)"
    );
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
    // One name for one idea: --syntax-only, as on check and parse.
    let out = urnreg(&["normalize", "--syntax-only", "urn:Ab:c"], b"");
    assert_eq!((code(&out), stdout(&out).as_str()), (0, "urn:ab:c\n"));
    let out = urnreg(&["eq", "--syntax-only", "urn:Ab:c", "URN:AB:c"], b"");
    assert_eq!((code(&out), stdout(&out).as_str()), (0, "equivalent\n"));
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
    use std::process::Stdio;
    // No database (one in the user's data directory would add a note).
    let mut child = urnreg_command()
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
    // csa's registration gives the NSS of RFC 8141 as its syntax: the
    // generic rules are its rules, with no `generic-rules` warning.
    assert_eq!(rows[3]["namespace"]["syntax"], "generic");
    assert_eq!(rows[3]["warnings"], json!([]));
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

/// `--generic` is the old name of `--syntax-only` (docs/validating.md),
/// on every command that has it: old scripts keep working.
#[test]
fn generic_is_the_old_name_of_syntax_only() {
    // An unregistered NID: refused against the registry, valid by RFC 8141.
    for args in [
        &["check", "--generic", "urn:ab:c"][..],
        &["parse", "--generic", "urn:ab:c"],
        &["normalize", "--generic", "urn:ab:c"],
        &["eq", "--generic", "urn:ab:c", "URN:AB:c"],
    ] {
        let out = urnreg(args, b"");
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    }
    let out = urnreg(&["scan", "--generic", "-"], b"see urn:ab:c here\n");
    assert_eq!(code(&out), 0, "scan: {}", stderr(&out));
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
    use std::process::Stdio;

    let line = b"urn:isbn:0451450523\n";
    for jobs in ["1", "2", "4"] {
        let mut child = urnreg_command()
            .args(["check", "--jobs", jobs, "-"])
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
        let status = exit_within(
            &mut child,
            20,
            &format!("--jobs {jobs}: still running 20 s after stdout closed"),
        );
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

/// What a stream holds of its output stays bounded however much each line
/// writes: with its output not read, `check --jobs 8` of lines whose
/// objects carry the EPC rules' source (some 1.9 KB each) fills its pool
/// and waits in a few MB. (Each chunk held its whole output, 15 MB: the
/// 16 chunks of 8 workers took some 250 MB, and `--jobs 64` aborted.)
#[cfg(target_os = "linux")]
#[test]
fn a_stream_holds_bounded_output_whatever_each_line_writes() {
    use std::io::Write;
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let status = |pid: u32, field: &str| -> u64 {
        let text = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        text.lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap_or(0)
            * 1024
    };
    for format in [&["--format", "jsonl"][..], &["-v"]] {
        let mut child = urnreg_command()
            .args(["check", "--jobs", "8"])
            .args(format)
            .arg("-")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let pid = child.id();
        let mut stdin = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            let lines = b"urn:epc:x\n".repeat(10_000);
            for _ in 0..30 {
                if stdin.write_all(&lines).is_err() {
                    break;
                }
            }
        });
        // Until it waits for its output to be read: its memory still.
        let started = Instant::now();
        let (mut last, mut still) = (0, 0);
        while still < 5 && started.elapsed() < Duration::from_secs(15) {
            std::thread::sleep(Duration::from_millis(100));
            let now = status(pid, "VmRSS:");
            still = if now == last { still + 1 } else { 0 };
            last = now;
        }
        let peak = status(pid, "VmHWM:");
        child.kill().unwrap();
        let _ = child.wait();
        drop(child.stdout.take());
        writer.join().unwrap();
        assert!(peak > 0, "{format:?}: no peak read");
        assert!(peak < 64 << 20, "{format:?}: it held {} MB", peak >> 20);
    }
}

/// The summary counts unregistered NIDs lower-cased, one by one up to its
/// cap, and the rest on one line, whatever the number of workers.
#[test]
fn check_summary_caps_unregistered_nids() {
    let mut input = String::new();
    for i in 0..12_000 {
        input.push_str(&format!("urn:N{i}x:a\n"));
    }
    input.push_str("urn:n5x:b\n");
    for jobs in ["1", "2", "3"] {
        let out = urnreg(
            &["check", "-q", "--summary", "--jobs", jobs, "-"],
            input.as_bytes(),
        );
        let summary = stderr(&out);
        assert!(
            summary.starts_with("12001 checked, 0 valid, 12001 invalid\n"),
            "{summary}"
        );
        let nid_lines: Vec<&str> = summary
            .lines()
            .skip_while(|l| *l != "by NID:")
            .skip(1)
            .take_while(|l| l.starts_with(' '))
            .collect();
        assert_eq!(nid_lines.len(), 10_001, "--jobs {jobs}");
        let counted: u64 = nid_lines
            .iter()
            .map(|l| l.split_whitespace().next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(counted, 12_001, "--jobs {jobs}");
        assert_eq!(
            nid_lines
                .iter()
                .filter(|l| l.contains("(other unregistered NIDs)"))
                .count(),
            1
        );
        assert!(!summary.contains("N5x"), "lower-cased: {summary}");
    }
}

/// A read error ends the stream with exit status 2 and says so, for every
/// number of workers (a directory opens, but does not read).
#[test]
fn check_says_when_the_input_cannot_be_read() {
    let dir = std::env::temp_dir();
    for jobs in ["1", "2"] {
        let out = urnreg(&["check", "--jobs", jobs, "--file", dir.to_str().unwrap()], b"");
        assert_eq!(code(&out), 2, "--jobs {jobs}");
        assert!(stderr(&out).contains("reading the input"), "{}", stderr(&out));
    }
}

/// Errors of one kind are counted together, whatever byte they found.
#[test]
fn check_summary_counts_each_error_kind_once() {
    let input = b"urn:a\"b:c\nurn:a b:c\nurn:a~b:c\nurn:ex:a b\nurn:ex:a\"b\n";
    for jobs in ["1", "2"] {
        let out = urnreg(&["check", "-q", "--summary", "--jobs", jobs, "-"], input);
        let summary = stderr(&out);
        assert!(
            summary.ends_with("by error kind:\n           3  nid-char\n           2  invalid-char\n"),
            "{summary}"
        );
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
    let out = urnreg(&["check", "urn:isbn:9780451450524"], b"");
    assert_eq!(stdout(&out), "valid   urn:isbn:9780451450524\n");
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
/// Runs `urnreg args` with one line on stdin, which stays open; reads
/// `read` lines of its output, then closes it, and returns its exit status
/// once it ends: it fails the test if it is still running 10 s later.
fn status_after_stdout_closes(args: &[&str], line: &str, read: usize) -> std::process::ExitStatus {
    use std::io::{BufRead, Write};
    use std::process::Stdio;

    let mut child = urnreg_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut reader = std::io::BufReader::new(stdout);
    for _ in 0..read {
        let mut first = String::new();
        reader.read_line(&mut first).unwrap();
        assert!(first.ends_with('\n'), "{args:?}: {first:?}");
    }
    drop(reader); // the reader goes; the input stays open and silent
    let status = exit_within(
        &mut child,
        10,
        &format!("{args:?}: still running 10 s after stdout closed, input still open"),
    );
    drop(stdin);
    status
}

#[test]
fn check_stops_when_stdout_closes_while_input_waits() {
    for jobs in ["1", "4"] {
        // stdout closed before anything is written
        let status = status_after_stdout_closes(&["check", "--jobs", jobs, "-"], "urn:isbn:0451450523", 0);
        assert_eq!(status.code(), Some(0), "--jobs {jobs}");
    }
}

/// `check -q` writes nothing to stdout: a reader of it leaving does not
/// end the run, whose status still says an invalid line was read.
#[test]
fn quiet_check_keeps_its_status_when_stdout_closes() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = urnreg_command()
        .args(["check", "-q", "--jobs", "1", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    // Time for a watcher of stdout to act before the input comes.
    std::thread::sleep(std::time::Duration::from_millis(300));
    let _ = stdin.write_all(b"urn:ietf:rfc:8141\nnot a urn\n");
    drop(stdin);
    assert_eq!(child.wait().unwrap().code(), Some(1));
}

/// Every stream that reads stdin ends quietly (0, as a closed pipe does)
/// when the reader of its output goes, even after that reader has read
/// what was written so far (`check - | head -1`), so that no write is left
/// to find out: standard output is watched (docs/validating.md).
#[test]
#[cfg(target_os = "linux")]
fn streams_stop_when_the_reader_leaves_after_reading() {
    let urn = "urn:ietf:rfc:8141";
    for args in [
        &["check", "--jobs", "1", "-"][..],
        &["check", "--jobs", "4", "-"],
        &["check", "--jobs", "1", "--format", "jsonl", "-"],
        &["check"],
        &["normalize", "-"],
        &["normalize", "--jobs", "4", "-"],
        &["resolve", "-"],
        &["resolve", "--format", "jsonl"],
    ] {
        let status = status_after_stdout_closes(args, urn, 1);
        assert_eq!(status.code(), Some(0), "{args:?}");
    }
    // `scan` writes what it found in stdin once stdin ends: its reader
    // leaves before.
    let status = status_after_stdout_closes(&["scan", "-"], "see urn:ietf:rfc:80x", 0);
    assert_eq!(status.code(), Some(0), "scan -");
}

/// `scan PATH | head -1` on a clean tree: the scan stops when its reader
/// goes and exits 0; the URN the reading was cut off in is no finding, so
/// the summary counts no invalid URN that the files do not hold.
#[test]
#[cfg(target_os = "linux")]
fn scan_of_a_path_stops_quietly_when_the_reader_leaves() {
    use std::io::BufRead;
    use std::process::Stdio;

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.txt");
    std::fs::write(&file, "urn:isbn:0451450523\n".repeat(200_000)).unwrap();
    for format in ["text", "jsonl"] {
        let mut child = urnreg_command()
            .args(["scan", "--all", "--summary", "--format", format])
            .arg(&file)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        reader.read_line(&mut first).unwrap();
        assert!(first.contains("urn:isbn:0451450523"), "{first}");
        drop(reader);
        let out = child.wait_with_output().unwrap();
        let summary = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{format}: {summary}");
        assert!(summary.contains(" 0 invalid"), "{format}: {summary}");
    }
}

/// A refused filing changes nothing: with no database yet, `request` and
/// `revise` of a file lint refuses make none (docs/operating.md).
#[test]
fn a_refused_filing_creates_no_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("reg.db");
    let db = db.to_str().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "kind = \"formal\"\nnid = \"acme-parts\"\nversion = 1\n").unwrap();
    let bad = bad.to_str().unwrap();
    for args in [
        &["request", bad, "--db", db][..],
        &["revise", "isbn", bad, "--db", db],
    ] {
        let out = urnreg(args, b"");
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(!std::path::Path::new(db).exists(), "{args:?} made {db}");
    }
}

// --- Command-line conventions (issue 13) ---

/// Runs `urnreg` with extra environment variables.
fn urnreg_env(args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    crate::util::urnreg_with_env(args, b"", env)
}

const ESC: &str = "\u{1b}[";

#[test]
fn colour_follows_color_and_no_color_and_never_reaches_a_pipe() {
    let args = ["check", "urn:isbn:0451450524", "urn:isbn:0451450523"];
    // In a pipe (as here) auto colours nothing.
    let plain = urnreg(&args, b"");
    assert!(!stdout(&plain).contains(ESC), "{}", stdout(&plain));
    let mut always = args.to_vec();
    always.extend(["--color", "always"]);
    let out = urnreg(&always, b"");
    let text = stdout(&out);
    assert!(
        text.contains("\u{1b}[1m\u{1b}[31minvalid\u{1b}[0m urn:isbn:0451450524"),
        "{text}"
    );
    assert!(
        text.contains("\u{1b}[1m\u{1b}[32mvalid  \u{1b}[0m urn:isbn:0451450523"),
        "{text}"
    );
    assert!(
        text.contains("\u{1b}[1m\u{1b}[31merror\u{1b}[0m: wrong ISBN-10"),
        "{text}"
    );
    // Stripped of its colours, it is the plain output.
    let stripped = text
        .replace("\u{1b}[1m", "")
        .replace("\u{1b}[31m", "")
        .replace("\u{1b}[32m", "")
        .replace("\u{1b}[33m", "")
        .replace("\u{1b}[0m", "");
    assert_eq!(stripped, stdout(&plain));
    // --color never, and NO_COLOR with auto, colour nothing even where
    // colour is forced otherwise; --color always beats NO_COLOR.
    let mut never = args.to_vec();
    never.extend(["--color", "never"]);
    let out = urnreg_env(&never, &[("CLICOLOR_FORCE", "1")]);
    assert!(!stdout(&out).contains(ESC));
    let out = urnreg_env(&args, &[("CLICOLOR_FORCE", "1")]);
    assert!(stdout(&out).contains(ESC), "CLICOLOR_FORCE forces auto on");
    let out = urnreg_env(&args, &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    assert!(!stdout(&out).contains(ESC), "NO_COLOR wins over auto");
    let out = urnreg_env(&always, &[("NO_COLOR", "1")]);
    assert!(stdout(&out).contains(ESC), "--color always is explicit");
    // Errors on stderr, verdicts of the other commands.
    let out = urnreg(&["ns", "show", "nope", "--color", "always"], b"");
    assert!(
        stderr(&out).starts_with("\u{1b}[1m\u{1b}[31merror\u{1b}[0m: "),
        "{}",
        stderr(&out)
    );
    let out = urnreg(
        &[
            "eq",
            "urn:isbn:0451450523",
            "urn:isbn:0451450523",
            "--color=always",
        ],
        b"",
    );
    assert_eq!(stdout(&out), "\u{1b}[1m\u{1b}[32mequivalent\u{1b}[0m\n");
    let out = urnreg(&["parse", "urn:isbn:0451450524", "--color", "always"], b"");
    assert!(
        stdout(&out).contains("verdict:     \u{1b}[1m\u{1b}[31minvalid\u{1b}[0m"),
        "{}",
        stdout(&out)
    );
    // clap's own errors follow --color too.
    let out = urnreg(&["check", "--bogus", "--color", "always"], b"");
    assert!(stderr(&out).contains(ESC), "{}", stderr(&out));
    let out = urnreg(&["check", "--bogus", "--color", "never"], b"");
    assert!(!stderr(&out).contains(ESC), "{}", stderr(&out));
}

/// On a terminal `auto` colours, and NO_COLOR turns it off: run under
/// `script`, which gives the command a pseudo-terminal.
#[test]
fn colour_on_a_terminal_unless_no_color() {
    let Some(script) = crate::util::external_tool(
        &["script"],
        "URNREG_SCRIPT",
        "colour_on_a_terminal_unless_no_color",
    ) else {
        return;
    };
    let run = |no_color: Option<&str>| {
        let command = format!("{} check urn:isbn:0451450524", env!("CARGO_BIN_EXE_urnreg"));
        let mut cmd = std::process::Command::new(&script);
        cmd.args(["-qec", &command, "/dev/null"])
            .env("TERM", "xterm")
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("CLICOLOR");
        if let Some(v) = no_color {
            cmd.env("NO_COLOR", v);
        }
        let out = cmd.output().expect("run script");
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let tty = run(None);
    assert!(tty.contains("\u{1b}[1m\u{1b}[31minvalid"), "{tty:?}");
    let tty = run(Some("1"));
    assert!(tty.contains("invalid urn:isbn:0451450524"), "{tty:?}");
    assert!(!tty.contains(ESC), "{tty:?}");
    // An empty NO_COLOR does not count (no-color.org).
    assert!(run(Some("")).contains(ESC));
}

#[test]
fn completions_are_generated_for_every_shell_and_command() {
    let commands = crate::cli_help::command_paths();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = urnreg(&["completions", shell], b"");
        assert_eq!(code(&out), 0, "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        for path in &commands {
            let name = path.last().unwrap();
            assert!(script.contains(name.as_str()), "{shell}: no '{name}'");
        }
        // Per-command formats: check's jsonl is offered, html is not.
        assert!(script.contains("jsonl"), "{shell}");
    }
    let out = urnreg(&["completions", "tcsh"], b"");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("[possible values: bash, elvish, fish, powershell, zsh]"));
}

#[test]
fn man_pages_are_roff_and_list_every_command() {
    let out = urnreg(&["man"], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let page = stdout(&out);
    assert!(page.contains(".TH urnreg 1"), "{page}");
    for section in [
        "NAME",
        "SYNOPSIS",
        "OPTIONS",
        "SUBCOMMANDS",
        "ENVIRONMENT",
        "EXIT STATUS",
    ] {
        assert!(page.contains(&format!(".SH {section}")), "{section}");
    }
    assert!(page.contains("NO_COLOR") && page.contains("URNREG_DB"));
    for path in crate::cli_help::command_paths() {
        let top = format!("urnreg\\-{}(1)", path[0]);
        assert!(page.contains(&top), "urnreg(1) does not list {top}");
        let out = urnreg(
            &std::iter::once("man")
                .chain(path.iter().map(String::as_str))
                .collect::<Vec<_>>(),
            b"",
        );
        assert_eq!(code(&out), 0, "{path:?}");
        let title = format!(".TH urnreg-{} 1", path.join("-"));
        assert!(stdout(&out).contains(&title), "{path:?}: {}", stdout(&out));
    }
    let out = urnreg(&["man", "ns", "bogus"], b"");
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("'urnreg ns' has no command 'bogus' (it has: list, show, history, diff)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn nid_lookups_suggest_a_near_nid_counting_a_swap_as_one_edit() {
    for args in [
        &["ns", "show", "ISNB"][..],
        &["ns", "history", "isnb"],
        &["template", "render", "isnb"],
    ] {
        let out = urnreg(args, b"");
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(
            stderr(&out).contains("; did you mean 'isbn'?"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // A skeleton for a new NID near a registered one says so on stderr.
    let out = urnreg(&["template", "new", "--nid", "isnb"], b"");
    assert_eq!(code(&out), 0);
    assert_eq!(
        stderr(&out),
        "note: 'isnb' is not registered: this is a first request (did you mean 'isbn'?)\n"
    );
    assert!(stdout(&out).contains("nid = \"isnb\""), "{}", stdout(&out));
    // Nothing near: no suggestion.
    let out = urnreg(&["ns", "show", "zzzzzz"], b"");
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).starts_with("error: 'zzzzzz' ") && !stderr(&out).contains("did you mean"),
        "{}",
        stderr(&out)
    );
    // A version that does not exist is not a NID typo.
    let out = urnreg(&["ns", "show", "isbn", "--version", "99"], b"");
    assert!(!stderr(&out).contains("did you mean"), "{}", stderr(&out));
    // Writing commands too.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let revision = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/registrations/revision.toml"
    );
    let out = urnreg(&["revise", "isnb", revision, "--db", db.to_str().unwrap()], b"");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("did you mean 'isbn'?"), "{}", stderr(&out));
    // lint's near-NID warning: a swap is one edit too.
    let base = include_str!("data/registrations/formal.toml");
    let path = dir.path().join("isnb.toml");
    std::fs::write(&path, base.replace("acme-parts", "isnb")).unwrap();
    let out = urnreg(&["lint", path.to_str().unwrap()], b"");
    assert!(
        stdout(&out)
            .contains("warning[nid-similar]: nid: 'isnb' is one edit away from the registered NID 'isbn'"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn ns_list_has_a_header_and_refuses_an_unknown_status() {
    let out = urnreg(&["ns", "list"], b"");
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("NID                      KIND     STATUS     DATE       REFERENCES")
    );
    assert!(lines.next().is_some_and(|l| l.starts_with("3gpp ")));
    let out = urnreg(&["ns", "list", "--status", "bogus"], b"");
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("invalid value 'bogus' for '--status <STATUS>'")
            && stderr(&out).contains("[possible values: registered, withdrawn, pending]"),
        "{}",
        stderr(&out)
    );
    let all = urnreg(&["ns", "list", "--format", "json"], b"");
    let all: Vec<Value> = serde_json::from_slice(&all.stdout).unwrap();
    for status in ["registered", "withdrawn"] {
        let out = urnreg(&["ns", "list", "--status", status, "--format", "json"], b"");
        assert_eq!(code(&out), 0);
        let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
        assert!(rows.iter().all(|r| r["status"] == status), "{rows:?}");
        let expected = all.iter().filter(|r| r["status"] == status).count();
        assert_eq!(rows.len(), expected, "{status}");
    }
}

#[test]
fn a_database_in_a_missing_directory_is_refused_except_by_init() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/dir");
    let db = missing.join("x.db");
    let db = db.to_str().unwrap();
    let formal = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/registrations/formal.toml"
    );
    let out = urnreg(&["request", formal, "--db", db], b"");
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains(&format!("the directory {} does not exist", missing.display())),
        "{}",
        stderr(&out)
    );
    assert!(!dir.path().join("no").exists(), "no directory was created");
    // So does $URNREG_DB.
    let out = urnreg_env(&["request", formal], &[("URNREG_DB", db)]);
    assert_eq!(code(&out), 2);
    assert!(!dir.path().join("no").exists());
    // So does the service, before it listens (it writes the database too).
    let out = urnreg(&["serve", "--db", db, "--bind", "127.0.0.1:0", "--quiet"], b"");
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
    assert!(!dir.path().join("no").exists());
    // init creates it.
    let out = urnreg(&["init", "--db", db], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with(&format!("created {db} (schema ")),
        "{}",
        stdout(&out)
    );
    let out = urnreg(&["request", formal, "--db", db], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn import_dry_run_creates_no_database_and_names_what_changed() {
    use urnreg::registry::Store;
    use urnreg::snapshot::{ExportFormat, export};
    let dir = tempfile::tempdir().unwrap();
    // A snapshot where 3gpp2's IANA record has another date and one
    // reference less.
    let mut snap = Store::open_embedded().unwrap().snapshot().unwrap();
    let record = snap.records.iter_mut().find(|r| r.nid == "3gpp2").unwrap();
    let before = record.date.clone().unwrap();
    record.date = Some("2030-01-02".into());
    record.references.pop();
    let snap_dir = dir.path().join("snap");
    export(&snap, ExportFormat::Toml, &snap_dir, false, None).unwrap();
    let db = dir.path().join("never.db");
    let args = [
        "import",
        snap_dir.to_str().unwrap(),
        "--dry-run",
        "--db",
        db.to_str().unwrap(),
    ];
    let out = urnreg(&args, b"");
    assert_eq!(code(&out), 1, "a change needs --replace: {}", stderr(&out));
    assert!(!db.exists(), "a dry run created the database");
    assert!(
        stdout(&out).contains(&format!(
            "~ 3gpp2: date \"{before}\" -> \"2030-01-02\"; references\n"
        )),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("would import: 0 added, 1 changed, 0 removed"));
}

/// `ns history` of a shipped namespace says where its record and text
/// came from (the IANA registry, as urnreg ships it: RFC 8141 section
/// 6.4's registration), never an empty "filed" or an empty heading.
#[test]
fn ns_history_of_a_shipped_namespace_says_where_it_came_from() {
    // (Request ids are given in the order the registry is loaded.)
    let without_id = |text: String| {
        text.lines()
            .map(|l| match (l.find(" (request "), l.find("): ")) {
                (Some(a), Some(b)) if a < b => format!("{}{}", &l[..a], &l[b + 1..]),
                _ => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let out = urnreg(&["ns", "history", "isbn"], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        without_id(stdout(&out)),
        "isbn (registered)\n\
         shipped with urnreg from the IANA registry (references: International ISBN Agency)\n\
         versions:\n  \
         version 2: approved, dated 2017-06-12, shipped with urnreg, \
         the text from https://www.iana.org/assignments/urn-formal/isbn"
    );
    // No text held: no versions heading either.
    let out = urnreg(&["ns", "history", "3gpp"], b"");
    assert_eq!(
        stdout(&out),
        "3gpp (registered)\n\
         shipped with urnreg from the IANA registry (references: RFC 5279); \
         no registration text is held\n"
    );
    // The IANA record's dates where it has them; a text taken from an RFC.
    let out = without_id(stdout(&urnreg(&["ns", "history", "uuid"], b"")));
    assert!(
        out.contains(
            "(updated 2023-11-17; references: RFC 9562)\nversions:\n  version 1: \
             approved, dated 2003-10-01, shipped with urnreg, the text from RFC 4122 Section 3"
        ),
        "{out}"
    );
}

/// The text plan of `import --dry-run` says everything the JSON plan
/// says (docs/operating.md): each namespace, and each keyword and service
/// of the resolution sub-registries (URN draft 2012 section 9.2) added,
/// changed or removed.
#[test]
fn the_text_plan_of_an_import_says_what_the_json_plan_says() {
    use urnreg::registry::Store;
    use urnreg::snapshot::{ExportFormat, export};
    let dir = tempfile::tempdir().unwrap();
    let mut snap = Store::open_embedded().unwrap().snapshot().unwrap();
    snap.records.retain(|r| r.nid != "3gpp2");
    let query = snap.query.as_mut().expect("the shipped sub-registries");
    let keyword = query.keywords.remove(0).keyword;
    let service = query.services.remove(0).name;
    let snap_dir = dir.path().join("snap");
    export(&snap, ExportFormat::Toml, &snap_dir, false, None).unwrap();
    let db = dir.path().join("never.db");
    let args = |format: &'static str| {
        let (snap, db) = (snap_dir.to_str().unwrap(), db.to_str().unwrap());
        urnreg(
            &["import", snap, "--dry-run", "--format", format, "--db", db],
            b"",
        )
    };
    let (text, json) = (args("text"), args("json"));
    assert_eq!((code(&text), code(&json)), (1, 1), "{}", stderr(&text));
    let plan: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    let text = stdout(&text);
    let query: Vec<&str> = plan["query"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q.as_str().unwrap())
        .collect();
    assert_eq!(
        query,
        [
            format!("keyword '{keyword}' removed"),
            format!("service '{service}' removed")
        ]
    );
    for line in query {
        assert!(text.contains(&format!("- {line}\n")), "{line}: {text}");
    }
    assert_eq!(plan["removed"], serde_json::json!(["3gpp2"]));
    assert!(text.contains("- 3gpp2\n"), "{text}");
    assert!(
        text.contains(
            "would import: 0 added, 0 changed, 1 removed, 2 keyword(s) or service(s) added, \
             changed or removed (changes what the database holds: needs --replace)"
        ),
        "{text}"
    );
}

/// Every command that writes to standard output says so when it cannot
/// (a full disk: /dev/full), and exits 2.
#[test]
fn a_full_disk_is_reported_as_writing_to_standard_output() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("*** SKIPPED a_full_disk_is_reported_as_writing_to_standard_output: no /dev/full");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let formal = format!("{data}/registrations/formal.toml");
    let db = dir.path().join("r.db");
    let db = db.to_str().unwrap();
    let snap = dir.path().join("snap");
    let snap = snap.to_str().unwrap();
    assert_eq!(
        code(&urnreg(&["export", "--format", "toml", "--out", snap], b"")),
        0
    );
    let commands: Vec<Vec<&str>> = vec![
        vec!["check", "urn:isbn:0451450523"],
        vec!["check", "--format", "json", "urn:isbn:0451450523"],
        vec!["parse", "urn:isbn:0451450523"],
        vec!["parse", "--format", "json", "urn:isbn:0451450523"],
        vec!["normalize", "urn:isbn:0451450523"],
        vec!["eq", "urn:isbn:0451450523", "urn:isbn:0451450523"],
        vec!["ns", "list"],
        vec!["ns", "list", "--format", "json"],
        vec!["ns", "show", "isbn"],
        vec!["ns", "show", "isbn", "--format", "toml"],
        vec!["ns", "history", "isbn"],
        vec!["lint", &formal],
        vec!["lint", &formal, "--format", "json"],
        vec!["template", "new"],
        vec!["template", "render", "isbn"],
        vec!["template", "import", "-"],
        vec!["queue"],
        vec!["completions", "bash"],
        vec!["man"],
        vec!["import", snap, "--dry-run"],
        vec!["init", "--db", db],
        vec!["request", &formal, "--db", db],
    ];
    for args in commands {
        let stdin: &[u8] = if args.starts_with(&["template", "import"]) {
            b"Namespace Identifier: acme\nVersion: 1\nDate: 2026-01-01\n"
        } else {
            b""
        };
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_urnreg"))
            .args(&args)
            .env("URNREG_DB", dir.path().join("none.db"))
            .stdin(std::process::Stdio::piped())
            .stdout(full.try_clone().unwrap())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let _ = child.stdin.take().unwrap().write_all(stdin);
        }
        let out = child.wait_with_output().unwrap();
        let err = stderr(&out);
        assert_eq!(code(&out), 2, "{args:?}: {err}");
        assert!(
            err.contains("writing to standard output") && err.contains("No space left on device"),
            "{args:?}: {err}"
        );
    }
}

/// Control characters in a registration never reach the terminal raw:
/// `template render FILE` reads at most a registration file's 1 MiB, as
/// `lint`, `request` and `--server ... request` do (it read any file whole: 300 MB took 2.4 GB),
/// from a path or from stdin (`-`).
#[test]
fn template_render_refuses_a_file_over_the_registration_limit() {
    let dir = tempfile::tempdir().unwrap();
    let formal = include_str!("data/registrations/formal.toml");
    let limit = urnreg::registry::MAX_REGISTRATION_BYTES;
    let big = format!("{formal}\n{}", "#".repeat(limit));
    let path = dir.path().join("big.toml");
    std::fs::write(&path, &big).unwrap();
    let p = path.to_str().unwrap();
    let db = dir.path().join("r.db");
    let db = db.to_str().unwrap();
    let said = format!("a registration file is at most {limit} bytes");
    for args in [
        vec!["template", "render", p],
        vec!["template", "render", p, "--form", "html"],
        vec!["request", p, "--db", db],
        // The client refuses it before it asks the server (it read any
        // file whole).
        vec!["--server", "http://127.0.0.1:9", "request", p],
    ] {
        let out = urnreg(&args, b"");
        assert_eq!(code(&out), 2, "{args:?}");
        assert!(stderr(&out).contains(&said), "{args:?}: {}", stderr(&out));
    }
    let out = urnreg(&["lint", p], b"");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains(&said), "{}", stderr(&out));
    let out = urnreg(&["template", "render", "-"], big.as_bytes());
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains(&format!("stdin: {said}")),
        "{}",
        stderr(&out)
    );
    // Within the limit, from stdin as from a file.
    let out = urnreg(&["template", "render", "-"], formal.as_bytes());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("Namespace Identifier:"));
}

/// ESC, NUL and the other C0 and C1 controls are written as `\x1b`, and
/// bidirectional overrides as `\u{202e}`.
#[test]
fn control_characters_in_registrations_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let db = db.to_str().unwrap();
    let base = include_str!("data/registrations/formal.toml");
    let hostile = base.replace(
        "purpose = \"Names the parts",
        "purpose = \"Red \\u001B[31mtext\\u001B[0m, NUL \\u0000, reversed \\u202Eabc. Names the parts",
    );
    let path = dir.path().join("hostile.toml");
    std::fs::write(&path, &hostile).unwrap();
    let p = path.to_str().unwrap();
    let forbidden = |text: &[u8]| text.iter().any(|b| *b == 0x1b || *b == 0);
    let out = urnreg(&["template", "render", p], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!forbidden(&out.stdout));
    assert!(
        stdout(&out).contains("Red \\x1b[31mtext\\x1b[0m, NUL \\x00, reversed \\u{202e}abc."),
        "{}",
        stdout(&out)
    );
    for form in ["rfc3406", "html", "markdown"] {
        let out = urnreg(&["template", "render", p, "--form", form], b"");
        assert!(!forbidden(&out.stdout), "{form}");
    }
    assert_eq!(code(&urnreg(&["request", p, "--db", db], b"")), 0);
    assert_eq!(
        code(&urnreg(
            &[
                "review",
                "acme-parts",
                "--approve",
                "--note",
                "ok\u{1b}]0;title\u{7}\n  2026-01-01T00:00:00Z root review:reject: forged",
                "--db",
                db
            ],
            b""
        )),
        0
    );
    // A line break in a note cannot write a line that reads as an event.
    let history = stdout(&urnreg(&["ns", "history", "acme-parts", "--db", db], b""));
    assert!(
        !history.lines().any(|l| l.starts_with("  2026-01-01")),
        "{history}"
    );
    assert!(history.contains("\\n  2026-01-01T00:00:00Z root"), "{history}");
    for args in [
        &["ns", "show", "acme-parts", "--db", db][..],
        &["ns", "history", "acme-parts", "--db", db],
        &["template", "render", "acme-parts", "--db", db],
    ] {
        let out = urnreg(args, b"");
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        assert!(!forbidden(&out.stdout), "{args:?}: {}", stdout(&out));
        assert!(
            !stdout(&out).contains('\u{7}') && !stdout(&out).contains('\u{202e}'),
            "{args:?}"
        );
    }
    // Machine formats keep the text exact (escaped by their own rules).
    let out = urnreg(&["ns", "show", "acme-parts", "--format", "json", "--db", db], b"");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v.to_string().contains("Red \\u001b[31mtext"), "{v}");
    // An error naming what the user typed is escaped too.
    let out = urnreg(&["ns", "show", "a\u{1b}[2Jb"], b"");
    assert!(!forbidden(&out.stderr), "{}", stderr(&out));
    assert!(stderr(&out).contains("a\\x1b[2Jb"), "{}", stderr(&out));
}

/// `status` and `queue` print review notes and the names of those who
/// wrote them with their control characters escaped, like `ns history`.
#[cfg(feature = "serve")]
#[test]
fn status_and_queue_escape_control_characters_in_review_notes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let db = db.to_str().unwrap();
    let path = dir.path().join("formal.toml");
    std::fs::write(&path, include_str!("data/registrations/formal.toml")).unwrap();
    let out = urnreg(
        &["request", path.to_str().unwrap(), "--format", "json", "--db", db],
        b"",
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let id = serde_json::from_slice::<Value>(&out.stdout).unwrap()["id"].to_string();
    let hostile = "evil\u{1b}]0;TITLE\u{7}\u{1b}[2J\rOVER\u{202e}";
    let out = urnreg(
        &[
            "review",
            &id,
            "--ask-changes",
            "--note",
            &format!("{hostile}\nsecond line"),
            "--actor",
            &format!("ex{hostile}pert"),
            "--db",
            db,
        ],
        b"",
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let raw = |text: &str| text.contains(['\u{0}', '\u{1b}', '\u{202e}', '\u{7}', '\r']);
    let escaped = "evil\\x1b]0;TITLE\\x07\\x1b[2J\\x0dOVER\\u{202e}";
    let status = urnreg(&["status", &id, "--db", db], b"");
    assert_eq!(code(&status), 0, "{}", stderr(&status));
    let text = stdout(&status);
    assert!(!raw(&text), "{text:?}");
    assert!(
        text.contains(&format!(" ex{escaped}pert: ask-changes\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!("\n    {escaped}\n    second line\n")),
        "{text}"
    );
    let queue = urnreg(&["queue", "--db", db], b"");
    assert!(!raw(&stdout(&queue)), "{}", stdout(&queue));
    assert!(stdout(&queue).contains(escaped), "{}", stdout(&queue));
    // JSON keeps the text exact.
    let json = urnreg(&["status", &id, "--format", "json", "--db", db], b"");
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["reviews"][0]["note"], format!("{hostile}\nsecond line"));
}

#[derive(serde::Deserialize)]
struct LocationCases {
    case: Vec<LocationCase>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct LocationCase {
    name: String,
    file: String,
    expect: Vec<String>,
}

/// `lint` points each finding at its line and column of the file
/// (`tests/data/lint/locations.toml`), in text and in JSON alike.
#[test]
fn lint_findings_carry_the_line_and_column_of_the_file() {
    let cases: LocationCases =
        toml::from_str(include_str!("data/lint/locations.toml")).expect("tests/data/lint/locations.toml");
    let dir = tempfile::tempdir().unwrap();
    for case in cases.case {
        let path = dir.path().join(format!("{}.toml", case.name));
        std::fs::write(&path, &case.file).unwrap();
        let p = path.to_str().unwrap();
        let out = urnreg(&["lint", p], b"");
        assert_eq!(code(&out), 1, "{}: {}", case.name, stderr(&out));
        let text = stdout(&out);
        for expect in &case.expect {
            assert!(
                text.lines().any(|l| l.starts_with(&format!("{p}:{expect}"))),
                "{}: no line starting '{p}:{expect}' in\n{text}",
                case.name
            );
        }
        let out = urnreg(&["lint", p, "--format", "json"], b"");
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        for f in report["findings"].as_array().unwrap() {
            let at = format!(
                "{}:{}: {}[{}]: {}:",
                f["line"],
                f["column"],
                f["severity"].as_str().unwrap(),
                f["rule"].as_str().unwrap(),
                f["field"].as_str().unwrap()
            );
            assert!(
                text.contains(&format!("{p}:{at}")),
                "{}: JSON and text disagree on {at}",
                case.name
            );
        }
    }
    // A file that is not TOML is reported at the parser's place; exit 2.
    let path = dir.path().join("broken.toml");
    std::fs::write(&path, "kind = \"formal\"\nnid = \n").unwrap();
    let p = path.to_str().unwrap();
    let out = urnreg(&["lint", p], b"");
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).starts_with(&format!("{p}:2:7: error[toml]: ")),
        "{}",
        stderr(&out)
    );
    let out = urnreg(&["lint", p, "--format", "json"], b"");
    assert_eq!(code(&out), 2);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["error"]["line"].as_u64(), v["error"]["column"].as_u64()),
        (Some(2), Some(7))
    );
}

/// Memory stays bounded by the chunk pool even when every line is near the
/// 1 MiB limit (it used to grow with the input: 300 such lines took 2 GB).
/// The peak is read from /proc while the command runs (Linux only).
#[test]
fn check_memory_stays_bounded_with_huge_lines() {
    use std::io::Write;
    use std::process::Stdio;
    use std::time::Duration;

    if !std::path::Path::new("/proc/self/status").exists() {
        return;
    }
    let mut line = b"urn:example:".to_vec();
    line.resize(1_000_000, b'a');
    line.push(b'\n');
    let mut child = urnreg_command()
        .args(["check", "--jobs", "2", "--format", "jsonl", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for _ in 0..150 {
            if stdin.write_all(&line).is_err() {
                break;
            }
        }
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()).unwrap());
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0u64;
    while child.try_wait().unwrap().is_none() {
        if let Ok(status) = std::fs::read_to_string(&status_file) {
            let hwm = status
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok());
            peak_kb = peak_kb.max(hwm.unwrap_or(0));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    writer.join().unwrap();
    let written = reader.join().unwrap();
    assert!(written > 150_000_000, "every line was answered ({written} bytes)");
    assert!(peak_kb > 0, "the peak was read");
    assert!(
        peak_kb < 96 * 1024,
        "peak memory {peak_kb} kB for 150 lines of 1 MB: the pool should bound it"
    );
}

/// A UTF-8 byte-order mark at the very start of a stream (Windows
/// Notepad writes one) is skipped by `check`, `normalize` and `resolve`:
/// line 1 was invalid, "expected the scheme 'urn:' at byte 0", with the
/// mark printed raw and invisible. Anywhere else it is the line's.
#[test]
fn a_byte_order_mark_starting_a_stream_is_skipped() {
    let input = b"\xEF\xBB\xBFurn:isbn:0451450523\r\nURN:ISBN:0-451-45052-3\r\n";
    let out = urnreg(&["check", "-"], input);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let out = urnreg(&["check", "--format", "jsonl", "-"], input);
    assert_eq!(jsonl(&out)[0]["input"], "urn:isbn:0451450523");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("urns.txt");
    std::fs::write(&file, input).unwrap();
    let out = urnreg(&["check", "--file", file.to_str().unwrap()], b"");
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let out = urnreg(&["normalize", "-"], input);
    assert_eq!(
        (code(&out), stdout(&out).as_str()),
        (0, "urn:isbn:9780451450524\nurn:isbn:9780451450524\n")
    );
    let out = urnreg(&["resolve", "-"], b"\xEF\xBB\xBFurn:ietf:rfc:1\n");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // Not at the start: the line's own bytes, and invalid.
    let out = urnreg(
        &["check", "-"],
        b"urn:isbn:0451450523\n\xEF\xBB\xBFurn:isbn:0451450523\n",
    );
    assert_eq!(code(&out), 1);
}

/// `resolve -` reports a line over the 1 MiB limit as `check` does
/// (`line-too-long`, naming its number and the limit) and goes on with
/// the next lines (it stopped there: every later line was lost); exit 2.
#[test]
fn resolve_reports_a_line_too_long_and_goes_on() {
    let limit = urnreg::batch::MAX_LINE;
    for ending in ["\n", "\r\n"] {
        let input = format!(
            "urn:ietf:rfc:1{ending}{}{ending}urn:ietf:rfc:2{ending}{}{ending}{}{ending}urn:ietf:rfc:3",
            "x".repeat(limit + 1),
            "y".repeat(3 * limit),
            // Exactly at the limit: read whole, an invalid URN.
            "z".repeat(limit),
        );
        for format in ["text", "jsonl"] {
            let out = urnreg(&["resolve", "--format", format, "-"], input.as_bytes());
            assert_eq!(code(&out), 2, "{format}");
            let text = stdout(&out);
            for rfc in ["rfc1", "rfc2", "rfc3"] {
                assert!(
                    text.contains(&format!("https://www.rfc-editor.org/rfc/{rfc}")),
                    "{format}: {text}"
                );
            }
            let err = stderr(&out);
            for n in [2, 4] {
                assert!(
                    err.contains(&format!("line {n}: longer than {limit} bytes (line-too-long)")),
                    "{format}: {err}"
                );
            }
            assert!(!err.contains("line 5: longer"), "{err}");
            assert!(err.contains("invalid URN"), "line 5 is resolved: {err}");
            if format == "jsonl" {
                // One object a line, each with its line: those not read
                // as URNs too.
                let rows = jsonl(&out);
                let lines: Vec<u64> = rows.iter().map(|r| r["line"].as_u64().unwrap()).collect();
                assert_eq!(lines, [1, 2, 3, 4, 5, 6], "{text}");
                assert_eq!(rows[1]["error"]["kind"], "line-too-long");
                assert_eq!(rows[1]["urn"], serde_json::Value::Null);
            }
        }
    }
}

/// No URN and a pipe on stdin: `resolve` reads it as `-`, as `check`
/// and `normalize` do (`echo URN | urnreg resolve`).
#[test]
fn resolve_reads_a_pipe_when_given_no_urn() {
    let input = b"urn:ietf:rfc:8141\nurn:ietf:rfc:80x\n";
    let piped = urnreg(&["resolve"], input);
    let dash = urnreg(&["resolve", "-"], input);
    assert_eq!(code(&piped), 2, "{}", stderr(&piped));
    assert_eq!(
        stdout(&piped),
        "urn:ietf:rfc:8141\thttps://www.rfc-editor.org/rfc/rfc8141\n"
    );
    assert_eq!((stdout(&piped), stderr(&piped)), (stdout(&dash), stderr(&dash)));
    let out = urnreg(&["resolve", "--format", "jsonl"], b"urn:ietf:rfc:8141\n");
    assert_eq!(jsonl(&out)[0]["line"], 1);
}

/// An argument that is not UTF-8 is checked as the bytes it is: the
/// error names the byte given (RFC 8141 section 2: ASCII only) and shows
/// it as `\xff`, as `check` does, not a replacement character's bytes.
#[test]
#[cfg(unix)]
fn resolve_names_the_byte_an_argument_holds() {
    use std::os::unix::ffi::OsStrExt;
    let urn = std::ffi::OsStr::from_bytes(b"urn:ietf:rfc:\xff");
    for format in ["text", "jsonl"] {
        let out = crate::util::urnreg_command()
            .args(["resolve", "--format", format])
            .arg(urn)
            .output()
            .unwrap();
        assert_eq!(code(&out), 2, "{format}");
        let err = stderr(&out);
        assert!(
            err.contains("error: urn:ietf:rfc:\\xff: invalid URN: non-ascii: unexpected non-ASCII byte 0xff in NSS at byte 13"),
            "{format}: {err}"
        );
        assert!(
            !err.contains('\u{fffd}') && !err.contains("0xef"),
            "{format}: {err}"
        );
        if format == "jsonl" {
            let rows = jsonl(&out);
            let message = rows[0]["error"]["message"].as_str().unwrap();
            assert!(message.contains("byte 0xff"), "{message}");
        }
    }
}

/// Issue 22: `urnreg resolve`: the URLs, one per line for one URN; `URN
/// URL` when streamed; exit 1 for a valid URN without a resolver, 2 for
/// bad input; JSON lines with the service and how it was chosen.
#[test]
fn resolve_prints_urls_and_exits_by_what_failed() {
    let out = urnreg(&["resolve", "URN:IETF:RFC:8141"], b"");
    assert_eq!(
        (code(&out), stdout(&out).as_str()),
        (0, "https://www.rfc-editor.org/rfc/rfc8141\n")
    );
    let out = urnreg(
        &["resolve", "-"],
        b"urn:ietf:bcp:14\nurn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66\n\nurn:ietf:rfc:8141?+s=N2Ls\n",
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "urn:ietf:bcp:14\thttps://www.rfc-editor.org/info/bcp14\n\
         urn:ietf:rfc:8141?+s=N2Ls\thttps://www.rfc-editor.org/rfc/rfc8141\n\
         urn:ietf:rfc:8141?+s=N2Ls\thttps://datatracker.ietf.org/doc/rfc8141\n"
    );
    assert!(
        stderr(&out).contains(
            "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66: the 'uuid' namespace records no resolver"
        ),
        "{}",
        stderr(&out)
    );
    let out = urnreg(&["resolve", "urn:ietf:rfc:80x", "urn:ietf:rfc:1"], b"");
    assert_eq!(code(&out), 2);
    let out = urnreg(&["resolve", "--service", "I2C", "urn:ietf:rfc:1"], b"");
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("offers no I2C service (it offers I2L, I2Ls)"),
        "{}",
        stderr(&out)
    );
    let out = urnreg(
        &["resolve", "--format", "jsonl", "urn:isni:0000000121241960?+s=I2C"],
        b"",
    );
    let rows = jsonl(&out);
    assert_eq!(rows[0]["service"], "I2L");
    assert_eq!(rows[0]["chosen_by"], "default");
    assert!(rows[0]["note"].as_str().unwrap().contains("section 2.3"));
}

/// `resolve -` holds its messages and writes them a block at a time: a
/// stream whose messages fill several blocks still gets every one, in
/// input order, and every URL.
#[test]
fn resolve_writes_every_message_of_a_long_stream_in_order() {
    let mut input = String::new();
    for i in 0..3000 {
        input.push_str(&format!(
            "urn:uuid:6e8bc430-9c3a-11d9-9669-{i:012}\nurn:ietf:rfc:{i}\n"
        ));
    }
    let out = urnreg(&["resolve", "-"], input.as_bytes());
    assert_eq!(code(&out), 1);
    let messages: Vec<String> = stderr(&out).lines().map(str::to_owned).collect();
    assert_eq!(messages.len(), 3000, "{}", &stderr(&out)[..500]);
    for (i, message) in messages.iter().enumerate() {
        assert!(
            message.starts_with(&format!("error: urn:uuid:6e8bc430-9c3a-11d9-9669-{i:012}: ")),
            "{i}: {message}"
        );
    }
    assert_eq!(stdout(&out).lines().count(), 3000);
}

/// The exit status of `child` once it ends within `seconds`; else it is
/// killed and the test fails saying `stuck`.
fn exit_within(child: &mut std::process::Child, seconds: u64, stuck: &str) -> std::process::ExitStatus {
    use std::time::{Duration, Instant};
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if started.elapsed() > Duration::from_secs(seconds) {
            child.kill().unwrap();
            panic!("{stuck}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A database path that is a FIFO, a directory or a device is refused at
/// once with a clear error (SQLite would wait forever on a FIFO's other
/// end), by readers and writers alike.
#[test]
fn a_database_path_that_is_no_regular_file_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("db.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let run = |db: &str, args: &[&str]| {
        let mut child = urnreg_command()
            .args(args)
            .args(["--db", db])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > std::time::Duration::from_secs(30) {
                let _ = child.kill();
                panic!("urnreg {args:?} --db {db}: still waiting after 30 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        child.wait_with_output().unwrap()
    };
    let fifo = fifo.to_str().unwrap();
    let folder = dir.path().to_str().unwrap();
    for (db, what) in [(fifo, "a FIFO, socket or device"), (folder, "a directory")] {
        for args in [&["ns", "list"][..], &["check", "urn:isbn:0451450523"], &["init"]] {
            let out = run(db, args);
            assert_eq!(code(&out), 2, "{args:?} --db {db}: {}", stderr(&out));
            assert!(
                stderr(&out).contains(&format!("is not a regular file ({what})")),
                "{args:?}: {}",
                stderr(&out)
            );
        }
    }
}

/// `serve`'s filing limits are at least 1, as its other limits are: 0
/// would let a first filing through, then promise a retry that never
/// comes (found in hostile testing).
#[cfg(feature = "serve")]
#[test]
fn serve_refuses_filing_limits_of_zero() {
    for option in ["--filing-burst", "--filings-per-hour"] {
        let out = urnreg(&["serve", "--bind", "127.0.0.1:0", option, "0"], b"");
        assert_eq!(code(&out), 2, "{option}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("0 is not in 1..=1000000"),
            "{}",
            stderr(&out)
        );
    }
}

/// The argument parser's own refusals quote the argument escaped, as every
/// message of ours does: ESC, BEL and bidi overrides from argv never reach
/// the terminal raw (found in hostile testing).
#[test]
fn argument_errors_quote_control_characters_escaped() {
    for args in [
        &["check", "--format", "X\x1b[31mRED\x07", "urn:a:b"][..],
        &["chec\x1b[31mk", "urn:a:b"][..],
        &["check", "--colour\u{202e}", "urn:a:b"][..],
    ] {
        let out = urnreg(args, b"");
        assert_eq!(code(&out), 2, "{args:?}");
        let err = stderr(&out);
        assert!(!err.contains(['\x1b', '\x07', '\u{202e}']), "{err:?}");
        assert!(err.contains("\\x1b") || err.contains("\\u{202e}"), "{err:?}");
    }
}

/// `urnreg check urns.txt`: the argument is taken as a URN, as the usage
/// says, and is invalid; a note then says how to read the URNs in the file
/// (after the results, so a JSON document stays whole). An argument that
/// starts as a URN, or names no file, gets no note.
#[test]
fn a_file_given_as_a_urn_gets_a_note_on_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("my urns.txt");
    std::fs::write(&file, "urn:isbn:0451450523\n").unwrap();
    let path = file.to_str().unwrap();
    let out = urnreg(&["check", "--format", "json", path, "urn:example:a"], b"");
    assert_eq!(code(&out), 1);
    let document: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(document.as_array().unwrap().len(), 2);
    let note = stderr(&out);
    assert!(
        note.contains(&format!(
            "is a file: `urnreg check --file '{path}'` checks the URNs in it"
        )),
        "{note}"
    );
    let out = urnreg(&["normalize", path], b"");
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains(&format!("`urnreg normalize - < '{path}'`")),
        "{}",
        stderr(&out)
    );
    // No note: quiet, a URN-like argument, a name that is no file.
    for args in [
        &["check", "-q", path][..],
        &["check", "urn:nosuch:file"],
        &["check", "nosuch.txt"],
    ] {
        let out = urnreg(args, b"");
        assert_eq!(code(&out), 1);
        assert!(!stderr(&out).contains("note:"), "{args:?}: {}", stderr(&out));
    }
}

/// A `--server` URL is checked before anything is sent: a port over 65535
/// was taken for none, and the token went to port 80; a query or fragment
/// swallowed the API path; a user name and password were dropped without a
/// word. Each is refused (exit 2), naming why.
#[test]
fn a_server_url_that_would_not_reach_the_api_is_refused_before_connecting() {
    for (server, said) in [
        ("http://127.0.0.1:65616", "names port 65616, above 65535"),
        (
            "http://127.0.0.1:99999999999999999999",
            "names port 99999999999999999999, above 65535",
        ),
        ("http://127.0.0.1:0", "names port 0"),
        ("http://127.0.0.1:", "has no port after its ':'"),
        ("http://[::1]x", "has 'x' as its port"),
        ("http://127.0.0.1:9?x#y", "has a query or fragment"),
        ("http://127.0.0.1:9/#y", "has a query or fragment"),
        ("http://user:pass@127.0.0.1:9", "holds a user name or password"),
        ("http://a b", "is not a valid URL"),
        ("ftp://127.0.0.1", "is not an http:// or https:// URL"),
    ] {
        let out = urnreg_with_env(&["--server", server, "queue"], b"", &[("URNREG_TOKEN", "t")]);
        assert_eq!(code(&out), 2, "{server}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!("--server '{server}' {said}")),
            "{server}: {err}"
        );
    }
}

/// A `--db` path that cannot be looked at (a loop of symbolic links) is
/// an error, not "no database": the built-in registry answering would
/// hide the user's own namespaces.
#[cfg(unix)]
#[test]
fn a_database_path_in_a_symlink_loop_is_an_error_not_no_database() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.db"), dir.path().join("b.db"));
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    for args in [
        &["ns", "list", "--db"][..],
        &["check", "urn:isbn:0451450523", "--db"][..],
    ] {
        let mut args = args.to_vec();
        args.push(a.to_str().unwrap());
        let out = urnreg(&args, b"");
        assert_ne!(code(&out), 0, "{args:?}: {}", stdout(&out));
        assert!(stderr(&out).contains("a.db"), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("built-in registry"), "{}", stderr(&out));
    }
}

/// A token that is set but not UTF-8 is said to be so, not to be missing.
#[cfg(unix)]
#[test]
fn a_token_that_is_not_utf8_is_named_so() {
    use std::os::unix::ffi::OsStrExt;
    let out = urnreg_command()
        .args(["--server", "http://127.0.0.1:9", "queue"])
        .env("URNREG_TOKEN", std::ffi::OsStr::from_bytes(b"\xff\xfe"))
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(
        err.contains("URNREG_TOKEN is set but is not valid UTF-8"),
        "{err}"
    );
}

/// A line feed in an argument that a refusal quotes (a NID, a request, a
/// path, a flag's value) is written `\x0a`, as `check` and `scan` write
/// it: printed raw, it started a line of its own and could forge an
/// `error:` line (docs/security.md, "Escaping").
#[test]
fn a_line_feed_in_a_quoted_argument_is_escaped_in_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("r.db");
    let db = db.to_str().unwrap();
    let evil = "x\nerror: forged line";
    let nid_flag = format!("--nid={evil}");
    let commands: [&[&str]; 13] = [
        // Refused by the argument parser itself.
        &["check", "--jobs", evil, "-"],
        &["status", evil],
        &["ns", "show", evil, "--db", db],
        &["ns", "history", evil, "--db", db],
        &["ns", "diff", evil, "--db", db],
        &["withdraw", evil, "--db", db],
        &["expert", "remove", evil, "--db", db],
        &["review", evil, "--approve", "--note", "n", "--db", db],
        &["lint", evil],
        &["template", "import", evil],
        &["request", evil, "--db", db],
        &["scan", "--nid", evil, "."],
        &["scan", &nid_flag, "."],
    ];
    for args in commands {
        let out = urnreg(args, b"");
        let err = stderr(&out);
        assert_ne!(code(&out), 0, "{args:?}");
        assert!(err.contains("x\\x0aerror: forged line"), "{args:?}: {err}");
        assert!(
            !err.lines().any(|l| l.starts_with("error: forged")),
            "{args:?}: {err}"
        );
    }
}
