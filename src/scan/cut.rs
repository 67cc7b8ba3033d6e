//! Where a URN found at `urn:` ends, and what it says once decoded (see
//! the module above for the rules and their sources).

use super::{KEEP, MAX_URN};

/// The most bytes a run takes: a URN of [`MAX_URN`] bytes, and room for
/// what may end a sentence after it (trimmed, it leaves the URN whole; a
/// run that still passes MAX_URN is too long).
const RUN_LIMIT: usize = MAX_URN + 64;

/// The characters a URN may hold (RFC 8141 section 2: pchar, `/`, `?`,
/// `#`, with `%` of percent-encoding).
const fn urn_chars() -> [bool; 256] {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b':'
                    | b'@'
                    | b'/'
                    | b'%'
                    | b'?'
                    | b'#'
            );
        b += 1;
    }
    table
}

static URN_CHARS: [bool; 256] = urn_chars();

pub(super) fn is_urn_char(b: u8) -> bool {
    URN_CHARS[b as usize]
}

/// A byte that glues `urn` to the word before it (`xurn:`, `x-urn:`,
/// `a.urn:`): no word boundary, no URN.
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'-' | b'.')
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c')
}

/// The first byte from `i` on that is no space or line break, looking
/// at most as far as `stop`.
fn past_spaces(buf: &[u8], mut i: usize, stop: usize) -> usize {
    while i < stop && is_space(buf[i]) {
        i += 1;
    }
    i
}

/// Whether a program joins more on to the string literal whose closing
/// quote ends right before `i`, after spaces or line breaks: `+` (Java,
/// JavaScript, TypeScript, C#, Python, Go, Rust's `String + &str`), `.`
/// (PHP and Perl; Lua's `..`; a method called on the literal,
/// `.concat(kind)`, Rust's `.to_owned() +`), `||` (SQL), `<<` (Ruby, C++
/// streams), `~` (D) or ` & ` (Visual Basic).
fn joined_on(buf: &[u8], after_quote: usize) -> bool {
    let i = past_spaces(buf, after_quote, buf.len().min(after_quote + 64));
    match buf.get(i..buf.len().min(i + 2)).unwrap_or_default() {
        [b'<', b'<'] => !opens_binary_or_heredoc(buf, after_quote, i),
        [b'+' | b'.' | b'~', ..] | [b'|', b'|'] => true,
        [b'&', next] => i > after_quote && is_space(*next),
        _ => false,
    }
}

/// The string literal whose closing quote ends right before `i` is
/// joined to a value the program computes (`"urn:isbn:978" + rest`,
/// `"urn:mpeg-u:device:provider-" + name + ":1"`, gpac's mpegu-core.js):
/// `+` or `~` (D), then a name, a call or a number, or Perl's and PHP's
/// `.` then a variable (`'urn:ietf:params:xml:ns:epp:fee-'.$v`). The
/// literal is a piece of a URN made at run time, not one. (`.` before
/// anything else is left out: a method
/// called on a whole URN, `"urn:x:y".equals(s)`, leaves it whole; so are
/// `||` and `<<`, far more often a logical or and a stream's output than
/// SQL's and Ruby's joins: `s == 'urn:mpeg:dash:event:2012' || ...`.)
fn joined_to_a_value(buf: &[u8], after_quote: usize, limit: usize) -> bool {
    let stop = limit.min(after_quote + 64);
    // A shell word goes on in a parameter's expansion written on to the
    // quote (POSIX.1 XCU 2.6.2: `"urn:isbn:978"$REST`, `"..."${REST}`).
    if matches!(buf.get(after_quote..limit.min(after_quote + 2)), Some([b'$', c]) if c.is_ascii_alphabetic() || matches!(c, b'_' | b'{' | b'('))
    {
        return true;
    }
    let i = past_spaces(buf, after_quote, stop);
    let spaced = i > after_quote;
    let i = match buf.get(i..limit.min(i + 2)).unwrap_or_default() {
        [b'+', b'='] => return false,
        // Other languages' joins, before a name (a literal after them is
        // [`continued`]'s): Haskell's, Elm's and Erlang's `++`, Elixir's
        // `<>`, Lua's `..`, OCaml's `^`, Julia's `*`, Visual Basic's `&`.
        [b'+', b'+'] | [b'<', b'>'] | [b'.', b'.'] => {
            let next = past_spaces(buf, i + 2, stop);
            return spaced && next > i + 2 && starts_name(buf, next, limit);
        }
        // (`*` and `&` on the literal's line only: a `*` first on the next
        // line is a block comment's, `/* ... "urn:x:y"` then ` * or ...`.)
        [op @ (b'^' | b'*' | b'&'), _] => {
            let next = past_spaces(buf, i + 1, stop);
            let same_line = *op == b'^' || !buf[after_quote..i].iter().any(|&b| matches!(b, b'\n' | b'\r'));
            return spaced && same_line && next > i + 1 && starts_name(buf, next, limit);
        }
        [b'+' | b'~', ..] => past_spaces(buf, i + 1, stop),
        // Perl's and PHP's `.` before a variable (`'urn:...:fee-'.$v`):
        // no method's name starts with `$`.
        [b'.', ..] => {
            let next = past_spaces(buf, i + 1, stop);
            return buf.get(next..limit.min(next + 2)).is_some_and(
                |v| matches!(v, [b'$', c] if c.is_ascii_alphabetic() || *c == b'_' || *c == b'{'),
            );
        }
        _ => return false,
    };
    buf.get(i)
        .filter(|_| i < limit)
        .is_some_and(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'('))
}

/// A name starts at `i` (a letter or `_`), as a variable's or a call's.
fn starts_name(buf: &[u8], i: usize, limit: usize) -> bool {
    buf.get(i)
        .filter(|_| i < limit)
        .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_')
}

/// The string literal opening at `open_quote` and closing right before
/// `after_quote` is a piece a program builds a string of:
/// - the argument of a builder's `append` (Java's `StringBuilder` and
///   `StringBuffer`, C#'s `Append`) that more is appended to, in a chain
///   (`sb.append("urn:isbn:978").append(rest)`) or in the next statement
///   on the same builder (`d.append("urn:jxta:uuid");` then
///   `d.append('-');`, a JXTA ID factory), or that ends in a separator
///   (`sb.append("urn:publicid:IDN+")`, a loop appending the rest);
/// - the first of the strings a call joins, another argument after it:
///   Clojure's `(str "urn:lex:br;...:2026;" (random-uuid))`, Scheme's
///   `(string-append "urn:isbn:978" rest)`, R's `paste0("urn:isbn:978", x)`;
/// - a string made of it and joined to a value (`std::string("urn:isbn:978") + rest`);
/// - SQL's `||` before a column (`SELECT 'urn:isbn:978' || rest`), when
///   no comparison is made of the literal before it (JavaScript's
///   `s === 'urn:x:y' || ...` is a logical or).
fn built_piece(buf: &[u8], open_quote: usize, after_quote: usize, limit: usize, last: u8) -> bool {
    let before = &buf[open_quote.saturating_sub(64)..open_quote];
    let stop = limit.min(after_quote + 256);
    if before.ends_with(b".append(") || before.ends_with(b".Append(") {
        let rest = &buf[after_quote.min(limit)..stop];
        let Some(rest) = rest.strip_prefix(b")") else {
            return false;
        };
        let k = rest.iter().take_while(|&&b| is_space(b)).count();
        if rest[k..].starts_with(b".append(") || rest[k..].starts_with(b".Append(") {
            return true;
        }
        if !last.is_ascii_alphanumeric() {
            return true;
        }
        // The same builder appended to by the next statement.
        let call = before.len() - b".append(".len();
        let receiver = before[..call]
            .iter()
            .rev()
            .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_')
            .count();
        let Some(next) = rest[k..].strip_prefix(b";") else {
            return false;
        };
        let next = next.trim_ascii_start();
        return receiver > 0
            && next.starts_with(&before[call - receiver..call])
            && matches!(
                &next[receiver..],
                [b'.', b'a' | b'A', b'p', b'p', b'e', b'n', b'd', b'(', ..]
            );
    }
    // A string made of it, then joined to a value: C++'s
    // `std::string("urn:isbn:978") + rest`, Qt's `QString(`, JavaScript's
    // `String(`.
    if (before.ends_with(b"string(") || before.ends_with(b"String("))
        && buf.get(after_quote) == Some(&b')')
        && joined_to_a_value(buf, after_quote + 1, limit)
    {
        return true;
    }
    let next = past_spaces(buf, after_quote, stop);
    let another = |at: usize| {
        buf.get(at)
            .filter(|_| at < limit)
            .is_some_and(|&b| !matches!(b, b')' | b']' | b'}' | b',' | b';'))
    };
    if before.ends_with(b"(str ") || before.ends_with(b"(string-append ") {
        return next > after_quote && another(next);
    }
    if before.ends_with(b"paste0(") || before.ends_with(b"paste(") {
        return buf.get(next) == Some(&b',') && another(past_spaces(buf, next + 1, stop));
    }
    if buf.get(next..limit.min(next + 2)) == Some(b"||") {
        let head = before.trim_ascii_end();
        let compared = matches!(
            head.last(),
            Some(b'=' | b'!' | b'<' | b'>' | b'&' | b'|' | b'?' | b':')
        );
        return !compared && next > after_quote && starts_name(buf, past_spaces(buf, next + 2, stop), limit);
    }
    false
}

/// Ruby's `String#<<` appends a value to the literal that closes right
/// before `after_quote`, on its line (`u = "urn:isbn:978" << rest`): `<<`,
/// a space (a heredoc's `<<EOS`, `<<~EOS` has none) and a name. Read so
/// in code whose line breaks end statements (Ruby's files), not in C++'s,
/// whose `<<` writes to a stream.
fn ruby_append(buf: &[u8], after_quote: usize, limit: usize) -> bool {
    let i = past_blanks(buf, after_quote, limit.min(after_quote + 16));
    buf.get(i..limit.min(i + 3)) == Some(b"<< ")
        && starts_name(buf, past_blanks(buf, i + 3, limit.min(i + 16)), limit)
}

/// The string literal whose closing quote ends right before `i` goes on
/// in the next one: adjacent literals are one string (C11 6.4.5, C++,
/// Python's string literal concatenation), and the next, after spaces or
/// line breaks, starts with a separator of URN parts (`:`, `.`, `/`, `#`):
/// `"urn:oasis:names:tc:SAML:metadata" ":dynamicsaml"`. One that starts
/// otherwise (`"urn:x:a" "urn:x:b"`, `"urn:x:a" "-v"`) may be the next
/// argument of a shell command, and leaves it whole.
///
/// The next literal opens with the quote this one closed with: a quote of
/// the other kind right after is the markup around it
/// (`value="'urn:mpeg:mpegB:cicp:ChannelConfiguration'"/>`, an XPath
/// string in a Schematron or XSLT attribute).
///
/// A literal a join operator then another literal follow (`+`, `.`, `||`,
/// `<<`, `~`, `&`) goes on in it too, when that one starts with what
/// could go on a URN (a letter, a digit, `:./#-_~%`): YANG's `namespace
/// "urn:ietf:params:xml:ns:yang" + ":ietf-tpm-remote-attestation";`
/// (RFC 7950 section 6.1.3), `"urn:isbn:97804514" + "50523"`. (A
/// method called on it, `"urn:x:y".equals(s)`, or a line end or text
/// joined on to it, `+ "\n"`, `+ " is"`, leaves it whole.)
///
/// A literal that ends in a separator (`,`, `;`, `-`, `=`, ...: not a
/// letter or digit) goes on in the next whatever URN character that one
/// starts with: PROJ's `"urn:ogc:def:crs,crs:EPSG::4979,"` then
/// `"cs:PROJ::ENh,"` on the next line (C11 5.1.1.2 phase 6).
fn continued(buf: &[u8], quote: u8, open_end: bool, after_quote: usize, limit: usize) -> bool {
    // Far enough for a deep indentation before the next literal.
    let stop = limit.min(after_quote + 256);
    let i = past_spaces(buf, after_quote, stop);
    // PHP's `.` and Visual Basic's `&` with a space before them: a period
    // written on to the quote ends a sentence (`"urn:x:y". "Next"`).
    let spaced = i > after_quote;
    let operator = match buf.get(i..limit.min(i + 2)).unwrap_or_default() {
        [b'<', b'<'] if opens_binary_or_heredoc(buf, after_quote, i) => 0,
        [b'|', b'|'] | [b'<', b'<'] | [b'.', b'.'] | [b'+', b'+'] => 2,
        // (OCaml's `^`: `"urn:example:ns" ^ ":" ^ name`.)
        [b'+' | b'~' | b'^', ..] => 1,
        [b'.' | b'&', ..] if spaced => 1,
        _ => 0,
    };
    if operator > 0 {
        let next = past_spaces(buf, i + operator, stop);
        return matches!(buf.get(next).filter(|_| next < limit), Some(b'"' | b'\''))
            && buf.get(next + 1).filter(|_| next + 1 < limit).is_some_and(|&b| {
                b.is_ascii_alphanumeric()
                    || matches!(b, b':' | b'.' | b'/' | b'#' | b'-' | b'_' | b'~' | b'%')
            });
    }
    // Python's f-string next, opening with a replacement field
    // (`("urn:isbn:978"` then `f"{rest}")`, PEP 498): a value joined on.
    if let Some(prefix) = buf.get(i..limit.min(i + 4))
        && let Some(q) = prefix
            .iter()
            .position(|&b| b == quote)
            .filter(|&q| (1..=2).contains(&q))
        && prefix[..q].iter().any(|&b| b == b'f' || b == b'F')
        && prefix[..q].iter().all(|b| b"fFrR".contains(b))
    {
        return prefix.get(q + 1) == Some(&b'{');
    }
    match buf.get(i..limit.min(i + 2)).unwrap_or_default() {
        [b'"', b'#'] if raw_string_close(buf, i, limit) => false,
        // A YANG module written as adjacent C literals, one statement
        // each (libyang's tests): a literal ending in `;`, the statement's
        // terminator (RFC 7950 section 6.3), before one opening with the
        // next statement's keyword (`"namespace urn:x:a;"` `"prefix a;"`)
        // ends the URN there.
        [q, _] if *q == quote && buf[after_quote - 2] == b';' && yang_statement(buf, i + 1, limit) => false,
        [q, b':' | b'.' | b'/' | b'#'] => *q == quote,
        [q, c] => *q == quote && open_end && is_urn_char(*c) && *c != quote,
        _ => false,
    }
}

/// The `"#` at `i` closes a Rust raw string literal, `r#"..."#` (The
/// Rust Reference, "Raw string literals": `r`, n `#`, `"`, then `"` and
/// the same n `#`), rather than opening an adjacent C literal that goes
/// on with a fragment (`"urn:x:a" "#f"`): what follows its `#`s is no
/// fragment's but code's, as after a raw string (a space or line end, `;`,
/// `,`, `)`, `]`, `}`, `.`, `+`): dash-mpd-rs's
/// `r#"<wrapper xmlns="urn:mpeg:dash:schema:mpd:2011" "# +`.
fn raw_string_close(buf: &[u8], i: usize, limit: usize) -> bool {
    let hashes = buf[i + 1..limit.min(i + 1 + 256)]
        .iter()
        .take_while(|&&b| b == b'#')
        .count();
    let after = i + 1 + hashes;
    after >= limit
        || matches!(buf[after], b';' | b',' | b')' | b']' | b'}' | b'.' | b'+')
        || is_space(buf[after])
}

/// The `<<` at `i`, the first thing on a line after the literal that
/// closed before `after_quote`, is written on to a quote: an Erlang
/// binary (`<<"urn:xmpp:sid:0">> = ...`) or a Ruby or shell heredoc
/// (`<<"EOS"`) opening a new statement, not C++'s or Ruby's `<<` joining
/// on to the literal before.
fn opens_binary_or_heredoc(buf: &[u8], after_quote: usize, i: usize) -> bool {
    matches!(buf.get(i + 2), Some(b'"' | b'\''))
        && buf[after_quote..i].iter().any(|&b| matches!(b, b'\n' | b'\r'))
}

/// An EPC URI whose last field is empty, written as a final `.` after
/// digits: a 12-digit GS1 Company Prefix leaves a PGLN's, GINC's or
/// SGLN's reference empty (EPC Tag Data Standard, section 6:
/// `urn:epc:id:pgln:859839494502.`; a pattern's, `urn:epc:idpat:grai:1234567890.12.`).
/// The URN is whole, not a prefix a program completes.
fn epc_empty_field(urn: &[u8]) -> bool {
    if !urn
        .get(..8)
        .is_some_and(|head| head.eq_ignore_ascii_case(b"urn:epc:"))
    {
        return false;
    }
    let mut parts = urn[8..].splitn(3, |&b| b == b':');
    let (Some(kind), Some(_scheme), Some(body)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    ["id", "idpat", "tag", "pat"]
        .iter()
        .any(|k| kind.eq_ignore_ascii_case(k.as_bytes()))
        && body.len() >= 2
        && body.ends_with(b".")
        && body[body.len() - 2].is_ascii_digit()
        && body.iter().all(|&b| b.is_ascii_digit() || b == b'.')
}

/// Where a `.properties` value goes on after the `\` at `i` that ends a
/// line (LF, CRLF or CR), past the next line's spaces, tabs and form
/// feeds; `None` when no line break follows it or the next line is blank.
fn properties_continuation(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
    let mut k = i + 1;
    match buf.get(k).filter(|_| k < limit)? {
        b'\r' if buf.get(k + 1).filter(|_| k + 1 < limit) == Some(&b'\n') => k += 2,
        b'\r' | b'\n' => k += 1,
        _ => return None,
    }
    while k < limit && matches!(buf[k], b' ' | b'\t' | b'\x0c') {
        k += 1;
    }
    (k < limit && is_urn_char(buf[k])).then_some(k)
}

/// A `)` comes later on the line from `i` (within 256 bytes).
fn closes_on_the_line(buf: &[u8], i: usize, limit: usize) -> bool {
    let rest = &buf[i.min(limit)..limit.min(i + 256)];
    let line = &rest[..memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len())];
    memchr::memchr(b')', line).is_some()
}

/// A blank line comes next after `after`: a line break, spaces or tabs,
/// and another line break (no statement of a program goes on across one
/// after a literal in practice; a list's next item or a new paragraph
/// does: `+ crs : URI = "urn:ogc:def:crs:OGC::84"`, then a blank line and
/// `+ dimensions`, UML attributes in an OGC standard's text).
fn blank_line_next(buf: &[u8], after: usize, limit: usize) -> bool {
    let rest = &buf[after.min(limit)..limit.min(after + 256)];
    let mut breaks = 0;
    let mut k = 0;
    while k < rest.len() {
        match rest[k] {
            b' ' | b'\t' => {}
            b'\r' if rest.get(k + 1) == Some(&b'\n') => {}
            b'\n' | b'\r' => {
                breaks += 1;
                if breaks == 2 {
                    return true;
                }
            }
            _ => return false,
        }
        k += 1;
    }
    false
}

/// A line break comes next after `after`, with nothing but spaces and
/// tabs before it (or the text ends).
fn line_break_next(buf: &[u8], after: usize, limit: usize) -> bool {
    let rest = &buf[after.min(limit)..limit];
    match rest.iter().position(|&b| b != b' ' && b != b'\t') {
        Some(k) => matches!(rest[k], b'\n' | b'\r'),
        None => true,
    }
}

/// The string literal that a URN runs to the end of, without starting
/// it, goes on in another literal on the next line (C11 6.4.5 and
/// Python's adjacent literals, one string: SoCo's
/// `'... xmlns:upnp="urn:schemas-upnp-org:m'` then `'etadata-1-0/DIDL-Lite/"'`,
/// a template's `'...xmlns:u="urn:schemas-upnp-org:service:'` then
/// `'{service_type}:{version}">'`): the URN is a piece of that string,
/// whatever the next literal starts with. Only spaces, tabs and one line
/// break between them (a shell's `"a" "b"` on one line are two words);
/// Python's triple quotes count as the quote. A next literal that opens
/// with a space or tab goes on from the string, not from the URN, which
/// holds none (miniupnp's `"...schemaLocation=\"urn:schemas-upnp-org:gw:WANIPConnection"`
/// then `" http://www.upnp.org/..."`; libyang's indented YANG statements,
/// `"  namespace urn:x:a;"` then `"  prefix a;"`): the URN ends there.
fn adjacent_on_next_line(buf: &[u8], quote: u8, after_quote: usize, limit: usize) -> bool {
    // A YANG statement's `;` before the next statement's literal ends it
    // (as in [`continued`]).
    let terminated = after_quote >= 2 && buf[after_quote - 2] == b';';
    // The rest of a triple quote that closed the literal.
    let after_quote = if buf.get(after_quote..after_quote + 2) == Some(&[quote, quote][..]) {
        after_quote + 2
    } else {
        after_quote
    };
    let stop = limit.min(after_quote + 256);
    let gap = &buf[after_quote.min(stop)..stop];
    let Some(k) = gap.iter().position(|&b| !is_space(b)) else {
        return false;
    };
    gap[..k].iter().filter(|&&b| b == b'\n').count() == 1
        && gap[k] == quote
        && !gap.get(k + 1).is_some_and(|&b| b == b' ' || b == b'\t')
        && !(terminated && yang_statement(buf, after_quote + k + 1, limit))
}

/// At `i`, right after an `&amp;` that decoded to `&`, the name of a
/// reference to a quote or angle bracket and its `;` (`quot;`, `lt;`,
/// `#34;`, `#x3E;`): markup escaped twice, which ends a URN.
fn escaped_delimiter(buf: &[u8], i: usize, limit: usize) -> bool {
    let rest = &buf[i.min(limit)..limit.min(i + 8)];
    [
        &b"quot;"[..],
        b"apos;",
        b"lt;",
        b"gt;",
        b"#34;",
        b"#39;",
        b"#60;",
        b"#62;",
        b"#x22;",
        b"#x27;",
        b"#x3c;",
        b"#x3e;",
    ]
    .iter()
    .any(|name| rest.len() >= name.len() && rest[..name.len()].eq_ignore_ascii_case(name))
}

/// The literal whose opening quote is at `open_quote` is the pattern of
/// SQL's `LIKE` (ISO/IEC 9075-2 8.5), PostgreSQL's `ILIKE` or `SIMILAR
/// TO`: the operator's word, any case, then spaces, right before it.
fn like_pattern(buf: &[u8], open_quote: usize) -> bool {
    let head = &buf[open_quote.saturating_sub(64)..open_quote];
    let end = head.iter().rposition(|&b| !is_space(b)).map_or(0, |k| k + 1);
    if end == head.len() {
        return false;
    }
    match last_word(&head[..end]) {
        Some((word, _)) if word.eq_ignore_ascii_case(b"like") || word.eq_ignore_ascii_case(b"ilike") => true,
        Some((word, before)) if word.eq_ignore_ascii_case(b"to") => {
            last_word(before.trim_ascii_end()).is_some_and(|(w, _)| w.eq_ignore_ascii_case(b"similar"))
        }
        _ => false,
    }
}

/// The word of letters that `text` ends with, and the text before it;
/// `None` when a word character is glued on before it.
fn last_word(text: &[u8]) -> Option<(&[u8], &[u8])> {
    let name = text.iter().rev().take_while(|b| b.is_ascii_alphabetic()).count();
    let glued = text.len() > name && is_word(text[text.len() - name - 1]);
    (!glued).then(|| (&text[text.len() - name..], &text[..text.len() - name]))
}

/// The string literal of the URN at `start` is an argument of `concat()`
/// (XPath 1.0 section 4.2, XSLT and Schematron; SQL's `CONCAT`) with
/// another after it or before it: a piece of a string made at run time
/// (`concat('urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_',
/// $XR-MAJOR-MINOR-VERSION)`). `open_quote`: where the literal opens,
/// when the URN starts it; `after_quote`: right after its closing quote.
fn concat_argument(
    buf: &[u8],
    start: usize,
    open_quote: Option<usize>,
    after_quote: usize,
    limit: usize,
) -> bool {
    // An argument with another after it or before it: the cheap test
    // first (this runs for an apostrophe in a run).
    let next = past_spaces(buf, after_quote, limit.min(after_quote + 256));
    let comma_after = buf.get(next).filter(|_| next < limit) == Some(&b',');
    let comma_before = open_quote.is_some_and(|q| {
        buf[q.saturating_sub(256)..q]
            .iter()
            .rev()
            .find(|&&b| !is_space(b))
            == Some(&b',')
    });
    if !comma_after && !comma_before {
        return false;
    }
    // The line before it, at most 512 bytes of it.
    let from = start.saturating_sub(512);
    let line_start = memchr::memrchr(b'\n', &buf[from..start]).map_or(from, |i| from + i + 1);
    let before = &buf[line_start..start];
    // The last `concat(` before it that is a function's, not a method's or
    // another name's (`a.concat(`, `GROUP_CONCAT(`: JavaScript's
    // Array.prototype.concat holds whole URNs), with the literal its own
    // argument, not one of a call nested in it (depth 1).
    let Some(call) = memchr::memrchr_iter(b'(', before).find(|&p| {
        p >= 6
            && before[p - 6..p].eq_ignore_ascii_case(b"concat")
            && !(p > 6 && (before[p - 7].is_ascii_alphanumeric() || matches!(before[p - 7], b'.' | b'_')))
    }) else {
        return false;
    };
    let mut depth = 1i32;
    for &b in &before[call + 1..] {
        depth += match b {
            b'(' => 1,
            b')' => -1,
            _ => 0,
        };
        if depth == 0 {
            return false;
        }
    }
    depth == 1
}

/// The string literal opening at `open_quote` is what a prefix test (or
/// a prefix's removal) is given: an argument of `startsWith(`, Java's
/// and JavaScript's; `startswith(`, Python's; `starts_with(`, Rust's and
/// C++20's; `hasPrefix(`, Swift's; `StartsWith(`, C#'s; Go's
/// `strings.HasPrefix(uri, "urn:...")`, `TrimPrefix(`, `CutPrefix(`;
/// PHP's `str_starts_with($uri, ...)`; Ruby's `start_with?(` and
/// `delete_prefix(`, also without parentheses (`s.start_with? "urn:..."`);
/// Elixir's `String.starts_with?(s, ...)`; XPath's `starts-with(`
/// (XPath 1.0 section 4.2: a Schematron rule's
/// `starts-with(normalize-space(cbc:CustomizationID/text()), 'urn:peppol:pint:billing-1@sg-1')`);
/// SPARQL's `STRSTARTS(` (SPARQL 1.1 section 17.4.3.7); C's
/// `strncmp(`, `strncasecmp(`, `_strnicmp(`, which compare the first n
/// bytes (`strncmp(s, "urn:isbn:978", 12) == 0`: a whole string is
/// compared with `strcmp`), libxml2's `xmlStrncmp(` and
/// `xmlStrncasecmp(`, GLib's
/// `g_str_has_prefix(`; Python's `removeprefix(`,
/// Kotlin's `removePrefix(`, Rust's `strip_prefix(`; any of its
/// arguments, or an item of a tuple or list given as the first (Python's
/// `startswith(("urn:a", "urn:b"))`); and Objective-C's message
/// `[s hasPrefix:@"urn:..."]`. The literal is a prefix of names there,
/// not a URN: converse.js's `startsWith('urn:xmpp:microblog:0:comments/')`,
/// a NETCONF client's `uri.startswith("urn:ietf:params")`, where the
/// same text elsewhere is whole (`urn:schemas-upnp-org:metadata-1-0/AVT/`).
/// `open_quote` may be the backslash of a quote written `\"`, code held
/// in a string (a Jupyter notebook's JSON: `s.startswith(\"urn:isbn:978\")`).
fn prefix_test(buf: &[u8], open_quote: usize) -> bool {
    const CALLS: [&[u8]; 23] = [
        b"strncmp",
        b"strncasecmp",
        b"Strncmp",
        b"Strncasecmp",
        b"strnicmp",
        b"has_prefix",
        b"startsWith",
        b"starts-with",
        b"STRSTARTS",
        b"strstarts",
        b"startswith",
        b"starts_with",
        b"starts_with?",
        b"start_with?",
        b"hasPrefix",
        b"HasPrefix",
        b"StartsWith",
        b"TrimPrefix",
        b"CutPrefix",
        b"removeprefix",
        b"removePrefix",
        b"strip_prefix",
        b"delete_prefix",
    ];
    fn trim(mut s: &[u8]) -> &[u8] {
        while let [rest @ .., b' ' | b'\t'] = s {
            s = rest;
        }
        s
    }
    let named = |s: &[u8]| CALLS.iter().any(|call| s.ends_with(call));
    let before = &buf[open_quote.saturating_sub(256)..open_quote];
    // Objective-C's string literal, `@"..."`, a message's argument
    // (`[uri hasPrefix:@"urn:ietf:params"]`).
    let before = before.strip_suffix(b"@").unwrap_or(before);
    let before = trim(before);
    if before
        .strip_suffix(b":")
        .is_some_and(|name| name.ends_with(b"hasPrefix"))
    {
        return true;
    }
    // Ruby's call without parentheses: `uri.start_with? "urn:..."`.
    if before.ends_with(b"?") && named(before) {
        return true;
    }
    // In parentheses: the innermost `(` left open before it on its line,
    // past the arguments before it, and past a tuple's or list's `(` or
    // `[` that is the call's first argument (one level). (Most literals
    // have no `(` before them to look for.)
    if memchr::memrchr(b'(', before).is_none() {
        return false;
    }
    let open_before = |upto: usize| {
        let mut depth = 0usize;
        for k in (0..upto).rev() {
            match before[k] {
                b')' | b']' => depth += 1,
                b'(' | b'[' if depth == 0 => return Some(k),
                b'(' | b'[' => depth -= 1,
                b'\n' | b'\r' | b';' | b'{' | b'}' => return None,
                _ => {}
            }
        }
        None
    };
    let Some(open) = open_before(before.len()) else {
        return false;
    };
    if before[open] == b'(' && named(&before[..open]) {
        return true;
    }
    // A tuple or list, the call's first argument.
    let outer = trim(&before[..open]);
    outer.strip_suffix(b"(").is_some_and(named)
}

/// The URN at `start` is in an argument of JUnit's `@CsvSource` (JUnit 5
/// User Guide, "@CsvSource": each string, or each line of its
/// `textBlock`, is a CSV row whose columns a `,` delimits): the last
/// `@CsvSource(` in the 1 KiB before it has its parenthesis still open
/// there, and the annotation (up to 512 bytes on) names no other
/// `delimiter` or `delimiterString`.
fn csv_source_row(buf: &[u8], start: usize, limit: usize) -> bool {
    const ANNOTATION: &[u8] = b"@CsvSource(";
    let from = start.saturating_sub(1024);
    let Some(at) = memchr::memmem::rfind(&buf[from..start], ANNOTATION) else {
        return false;
    };
    // The annotation's parenthesis, open before the URN and up to where
    // it closes after it.
    let mut depth = 1i32;
    let mut end = limit.min(start + 512);
    for (k, &b) in buf[from + at + ANNOTATION.len()..end].iter().enumerate() {
        depth += match b {
            b'(' => 1,
            b')' => -1,
            _ => 0,
        };
        if depth == 0 {
            end = from + at + ANNOTATION.len() + k;
            break;
        }
    }
    end > start && memchr::memmem::find(&buf[from + at..end], b"delimiter").is_none()
}

/// The string literal opening at `open_quote` (and closing right before
/// `after_quote`) starts a Java `StringBuilder` or `StringBuffer` that
/// more is appended to: `new StringBuilder("urn:oma:lwm2m").append(":")`,
/// a piece of a string made at run time.
fn builder_start(buf: &[u8], open_quote: usize, after_quote: usize, limit: usize) -> bool {
    let before = &buf[open_quote.saturating_sub(64)..open_quote];
    let opened = before.ends_with(b"StringBuilder(") || before.ends_with(b"StringBuffer(");
    opened && buf[after_quote.min(limit)..limit].starts_with(b").append(")
}

/// The quoted text starting at `start` is a markup attribute's value:
/// `name="` right before it, the `=` written on to the name (XML 1.0
/// section 3.1, `Attribute ::= Name Eq AttValue`, as markup writes it; an
/// assignment in a program, `PREFIX = "..."`, has spaces around its `=`).
///
/// A quote written `\"` (markup held in a C or Java string literal,
/// `"xmlns:cal=\"urn:schemas:calendar:\""`) counts as the quote.
fn attribute_value(buf: &[u8], start: usize) -> bool {
    let start = if escaped_quote_before(buf, start) {
        start - 1
    } else {
        start
    };
    start >= 3
        && buf[start - 2] == b'='
        && (buf[start - 3].is_ascii_alphanumeric() || matches!(buf[start - 3], b'-' | b'_' | b'.' | b':'))
}

/// The quote right before `start` is written with a backslash (`\"`,
/// `\'`): a quote of a string held in a string literal.
fn escaped_quote_before(buf: &[u8], start: usize) -> bool {
    start >= 2 && matches!(buf[start - 1], b'"' | b'\'') && buf[start - 2] == b'\\'
}

/// The buffers of one cut, reused.
#[derive(Clone, Debug, Default)]
pub(super) struct Scratch {
    /// The URN, decoded and joined.
    pub urn: Vec<u8>,
    /// For each byte of `urn`, where its text ends in the input.
    ends: Vec<usize>,
    /// Positions in `urn` of hyphens that end a line inside `<...>`, or
    /// in prose ([`Scratch::hyphenated`]).
    breaks: Vec<usize>,
    /// The URN went on past a hyphen that ends a line, outside `<...>`
    /// (prose, [`Scratch::hyphenated`]): `urn[..n]` is what its first line
    /// holds, a reading of its own.
    pub line_cut: Option<usize>,
    /// The text is prose, which typesetting and a PDF's extracted text
    /// break at a hyphen ([`super::Scanner::set_hyphenated`]).
    pub hyphenated: bool,
    /// `urn` without those hyphens.
    alt: Vec<u8>,
    /// The run goes past [`MAX_URN`].
    pub too_long: bool,
    /// It is a value in a URL's query (`?id=urn:...`, `&id=urn:...`):
    /// `&` and `#` are the URL's (RFC 3986 section 3.4).
    query: bool,
    /// Its colon was written `\:` (a Java `.properties` value): `\:`,
    /// `\=`, `\#` and `\!` in it are read as the character.
    properties: bool,
    /// A `?+`, `?=` or `#` has been taken: a component has started, in
    /// which `?` is a character (RFC 8141 section 2).
    component: bool,
    /// A `#` has been taken: the f-component, which holds no `#` (RFC 3986
    /// `fragment`).
    fragment: bool,
    /// The field delimiter of a delimited file (CSV): it ends a URN in a
    /// field that is not quoted (RFC 4180 section 2).
    pub delimiter: Option<u8>,
    /// The colon after the NID has been taken: the NSS has started.
    nss: bool,
    /// The text's strings take `$name` as written
    /// ([`super::Scanner::set_literal_dollar`]).
    pub literal_dollar: bool,
    /// The text folds long lines, a line break and one space or tab
    /// going on with the line ([`super::Scanner::set_folded`]).
    pub folded: bool,
    /// Where the line of an iCalendar or vCard content line starts whose
    /// value the URN is, in a file not read as folded (a calendar held in
    /// a program's string: a test's fixture); its long line may be folded
    /// all the same ([`calendar_value`]).
    content_line: Option<usize>,
    /// The text is MIME mail (`.eml`, `.mbox`, `.mht`) whose bodies may be
    /// quoted-printable: an `=` ending a line is a soft line break
    /// ([`super::Scanner::set_quoted_printable`]).
    pub quoted_printable: bool,
    /// The text is a Java `.properties` file
    /// ([`super::Scanner::set_properties`]): `\:`, `\=`, `\#` and `\!`
    /// are the character, and a `\` ending a line goes on after the next
    /// line's indentation.
    pub properties_file: bool,
    /// A line break after a string literal ends the statement: no operator
    /// or literal on the next line joins on to it
    /// ([`super::Scanner::set_line_statements`]).
    pub line_statements: bool,
    /// A percent-encoded quote or angle bracket opened it, in encoded text
    /// (a URL's query, `srsName=%22urn:ogc:def:crs:EPSG::4326%22`,
    /// `%3Cid%3Eurn:isbn:...%3C/id%3E`): a `%HH` of a character that no URN
    /// holds as itself, or of `'`, ends it, as the character would.
    encoded: bool,
    /// It is a segment of an `http:` or `https:` URL's path
    /// (`http://host/collections/urn:wmo:md:...:obs/items`): a `/` after
    /// it may be the URL's (RFC 3986 section 3.3), which the caller, who
    /// can check the URN before it, decides.
    pub url_path: bool,
    /// It is in a segment of a path, a `/` before it (C2PA's JUMBF URIs,
    /// `self#jumbf=/c2pa/urn:c2pa:<uuid>/c2pa.signature`, a label's
    /// `/c2pa/contentauth:urn:uuid:<uuid>/...`), which a `/` after it may
    /// go on.
    pub path_segment: bool,
    /// A `,` opened it: it is an item of a comma-separated list (psql's
    /// and spreadsheets' rows in a test's expected output, a `.properties`
    /// value's `namespace,name,value`), which the next `,` ends.
    field: bool,
    /// It is (in) the value of a `name=` pair that no `?` or `&` before
    /// shows to be a URL's query (a KVP request written without its URL,
    /// `id=urn:...&request=GetRecordById`): a `&name=` ends it.
    pairs: bool,
    /// Where the URN being cut starts, for the tests made only when its
    /// run meets what they are about ([`Scratch::in_csv_row`]).
    start: usize,
    /// Whether it is in a row of a JUnit `@CsvSource` (`None`: not yet
    /// looked at).
    csv_row: Option<bool>,
    /// Whether it is in a line of a MARC record in mnemonic form
    /// ([`marc_line`]; `None`: not yet looked at).
    marc: Option<bool>,
    /// The text is Markdown ([`super::Scanner::set_markdown`]).
    pub markdown: bool,
    /// The text is TeX, LaTeX or BibTeX source
    /// ([`super::Scanner::set_tex`]): `~` is a tie and `\` then letters a
    /// control word.
    pub tex: bool,
    /// The text is RTF ([`super::Scanner::set_rtf`]): `\` then letters is
    /// a control word.
    pub rtf: bool,
    /// A `~` ends this URN: TeX's tie, outside a verbatim argument.
    tie: bool,
    /// The text carries RFC 8792's header, `NOTE: '\' line wrapping per
    /// RFC 8792` (`Some(false)`) or its `'\\'` form (`Some(true)`): a `\`
    /// ending a line is a fold; set by the scanner.
    pub rfc8792: Option<bool>,
    /// The URN's line is in a Markdown code fence (CommonMark 4.5), where
    /// a `\` ending a line is no hard line break (6.7); set by the
    /// scanner.
    pub in_fence: bool,
    /// It opens the value of a Go struct tag's key (`` `json:"urn:...` ``),
    /// whose `,option` list ends the name ([`struct_tag_value`]).
    struct_tag: bool,
    /// The URN's line is a line of a unified diff, whose first column
    /// holds its marker (`-`, `+`, a space), after at most this many spaces
    /// (a fenced block's indentation in Markdown); set by the scanner for
    /// each URN.
    pub diff_line: Option<usize>,
}

impl Scratch {
    /// The reading without the hyphens at line breaks, if there is one.
    pub fn alternative(&self) -> Option<&[u8]> {
        (!self.breaks.is_empty()).then_some(&self.alt[..])
    }

    /// For each byte of `urn`, where its text ends in the input.
    pub fn ends(&self) -> &[usize] {
        &self.ends
    }

    fn push(&mut self, b: u8, end: usize) {
        self.urn.push(b);
        self.ends.push(end);
    }

    /// Cuts the URN whose `urn` starts at `start`, its colon written as
    /// `colon`; returns where its text ends, or `None` when it is no URN.
    pub fn cut(&mut self, buf: &[u8], start: usize, colon: Colon) -> Option<usize> {
        self.urn.clear();
        self.ends.clear();
        self.breaks.clear();
        self.line_cut = None;
        self.too_long = false;
        let prev = start.checked_sub(1).map(|i| buf[i]);
        // `<!--urn:...-->`: an XML/HTML comment opened right before it
        // (XML 1.0 section 2.5); its `-` is no word glued to `urn`.
        let comment = buf[..start].ends_with(b"<!--");
        let underscores = emphasis_underscores(buf, start);
        let code_mark = inline_code_mark(buf, start);
        // A `+` before a percent-encoded URN in a URL's query is a space
        // (`application/x-www-form-urlencoded`: `?q=urn%3Aietf%3Arfc%3A8141+OR+urn%3Aietf%3Arfc%3A2141`).
        let form_space = prev == Some(b'+') && colon == Colon::Percent && later_query_word(buf, start);
        if prev.is_some_and(is_word)
            && !form_space
            && !comment
            && underscores == 0
            && !code_mark
            && !after_escape(buf, start)
            && !self.syntax_before(buf, start)
            && !(start >= 2 && buf[start - 2] == b'$' && marc_line(buf, start))
        {
            return None;
        }
        // A letter, digit or mark of another script before `urn` glues it
        // to a word (`caféurn:`), as an ASCII one does, and as one written
        // on to a URN's end is part of it (RFC 8141 section 2: the run is
        // one word). `$urn` is a variable (Kotlin, PHP, Perl, shell) and
        // `^urn` a regular expression's start anchor: no URN starts there.
        if glued_before(buf, start) || matches!(prev, Some(b'$' | b'^')) && !separator_before(buf, start) {
            return None;
        }
        let open = prev
            .filter(|b| matches!(b, b'<' | b'"' | b'\'' | b'(' | b'*' | b'`' | b'_' | b'~') || code_mark)
            .or_else(|| escaped_apostrophe_before(buf, start).then_some(b'\''));
        self.query = form_space || query_value(buf, start);
        self.pairs = !self.query && pair_value(buf, start);
        self.start = start;
        self.csv_row = None;
        self.marc = None;
        // (A CSV file's own delimiter rule stands for it there.)
        self.field = prev == Some(b',') && self.delimiter.is_none();
        self.tie = self.tex && !tex_verbatim_argument(buf, start);
        self.struct_tag = prev == Some(b'"') && struct_tag_value(buf, start);
        self.path_segment = in_path_segment(buf, start);
        self.url_path = prev == Some(b'/') && in_web_url(buf, start);
        self.properties = false;
        self.component = false;
        self.fragment = false;
        self.nss = false;
        self.content_line = if self.folded || prev != Some(b':') {
            None
        } else {
            calendar_value(buf, start)
        };
        self.encoded = start >= 3
            && buf[start - 3] == b'%'
            && hex2(buf, start - 2, start).is_some_and(|c| c < 0x80 && (!is_urn_char(c) || c == b'\''));
        let limit = buf.len().min(start + KEEP - 64);
        // `urn` as written, then its colon: `:`, or read as one.
        let colon_len = match colon {
            Colon::Plain => 1,
            Colon::Percent => 3,
            // Java's `Properties.store()` writes `:` in a value as `\:`.
            Colon::Reference if buf.get(start + 3..start + 5) == Some(b"\\:") => {
                self.properties = true;
                2
            }
            Colon::Reference => match decode(buf, start + 3, limit) {
                Some((Decoded::Ascii(b':'), len)) => len,
                _ => return None,
            },
        };
        let percent = colon == Colon::Percent;
        for (i, &b) in buf[start..start + 3].iter().enumerate() {
            self.push(b, start + i + 1);
        }
        let body = start + 3 + colon_len;
        self.push(b':', body);
        let end = self.run(buf, body, limit, open, percent);
        if self.too_long || end == limit && limit < buf.len() {
            return self.cut_too_long();
        }
        let stop = buf.get(end).copied();
        if open == Some(b'<') && stop.is_some_and(is_space) && self.join(buf, end, limit) {
            if self.urn.len() > MAX_URN {
                return self.cut_too_long();
            }
            // Its text ends where the URN's last character does, not at
            // the `>`: the whitespace before it is the wrapping's
            // (Appendix E), and a region must not run on to the next line.
            return if self.has_nid_and_nss() {
                self.ends.last().copied()
            } else {
                None
            };
        }
        // Appendix E: delimiters are not part of the URN; once a pair is
        // closed, everything between them is. A quote written `\"` is
        // closed by one written so (markup in a string literal:
        // `"xmlns:cal=\"urn:schemas:calendar:\""`, Asterisk's C).
        let escaped_pair = matches!(open, Some(q @ (b'"' | b'\'')) if escaped_quote_before(buf, start)
            && buf.get(end + 1) == Some(&q)
            && stop == Some(b'\\'));
        let closed = escaped_pair
            || matches!(
                (open, stop),
                (Some(b'<'), Some(b'>'))
                    | (Some(b'"'), Some(b'"'))
                    | (Some(b'\''), Some(b'\''))
                    | (Some(b'`'), Some(b'`'))
            );
        let after_close = end + if escaped_pair { 2 } else { 1 };
        // What a writer left out or leaves to fill in, after a `:`, before
        // sentence punctuation is trimmed: an ellipsis (`urn:ietf:params:
        // acme:error:...` in a comment, or `:…`), or a fill-in in angle
        // brackets (`"urn:schemas-upnp-org:device:<deviceType:v>"`,
        // `urn:ietf:params:xml:ns:<name>`): a template of URNs, not one.
        let left_out = has_elision(&self.urn)
            || self.urn.last() == Some(&b':') && buf[end..limit].starts_with("\u{2026}".as_bytes())
            || matches!(self.urn.last(), Some(b':' | b'.' | b'/' | b'@'))
                && bracketed_fill_in(buf, end, limit);
        // A URN that runs to the end of a string literal it does not start
        // (`" <mas:MarlinContentId>urn:marlin:kid:" + kid`, `"<id>urn:isbn:978" + rest`)
        // is a piece the program joins more on to, as one that starts it
        // is (below); so is one the next literal goes on from
        // (`"##urn:www.cenbii.eu:...:ver1.0" + ":#urn:..."`, C's adjacent
        // `"...;gr=urn:uuid:459797d6-40f9-0072-a3ad-"` `"e9237e042437"`),
        // and an argument of XPath's or SQL's `concat()`.
        // A string literal the URN starts and closes, and whether it ends
        // in a separator (anything but a letter or digit).
        // (Not a pair of quotes written `\"` inside one: the quote after
        // its close is the outer literal's, `"xmlns:cal=\"urn:x:y:\"";`,
        // and the URN the markup's whole attribute value.)
        let quoted_literal = closed && !escaped_pair && matches!(open, Some(b'"' | b'\''));
        // Opened and closed by doubled quotes: escaped ones (C#'s verbatim
        // strings, C# spec 6.4.5.6, Visual Basic, CSV fields, SQL):
        // `@"<x Uri=""urn:oasis:names:tc:SAML:2.0:assertion""/>"`. The
        // second quote is the same quote escaped, no literal after it.
        let doubled = quoted_literal
            && open.is_some_and(|q| start >= 2 && buf[start - 2] == q && buf.get(after_close) == Some(&q));
        let open_end = self.urn.last().is_some_and(|b| !b.is_ascii_alphanumeric());
        // Kotlin, Go and Ruby end a statement at a line break after a
        // literal: a `+"text"` on the next line is a unary plus (a
        // Kotlin DSL's text node, Ruby's unfrozen string), not a join.
        // A blank line after a literal ends it in any text.
        // A diff's next line starts with its marker (`+`, `-`, a space),
        // no operator of the code in it.
        let line_statements = self.line_statements || self.diff_line.is_some();
        let ends_statement = |after: usize| {
            line_statements && line_break_next(buf, after, limit) || blank_line_next(buf, after, limit)
        };
        let piece = !closed
            && matches!(stop, Some(b'"' | b'\''))
            && !ends_statement(end + 1)
            && (matches!(self.urn.last(), Some(b':' | b'.')) && joined_on(buf, end + 1)
                || joined_to_a_value(buf, end + 1, limit)
                // (Not a doubled quote: an escaped one in CSV or SQL.)
                || buf.get(end + 1) != stop.as_ref()
                    && continued(buf, stop.unwrap_or_default(), open_end, end + 1, limit)
                || concat_argument(buf, start, None, end + 1, limit));
        // A URN that runs to the end of a literal it does not start (its
        // closing quote where the run stopped, an apostrophe it took as
        // its last character, or a quote after an escaped one that opened
        // it, `"<x xmlns=\"urn:...`), which a literal on the next line
        // goes on from ([`adjacent_on_next_line`]).
        let literal_end = if !closed && matches!(stop, Some(b'"' | b'\'')) {
            stop.map(|q| (q, end + 1))
        } else if !closed && self.urn.last() == Some(&b'\'') && open != Some(b'\'') {
            Some((b'\'', end))
        } else if closed && !escaped_pair && open == Some(b'"') && escaped_quote_before(buf, start) {
            Some((b'"', after_close))
        } else {
            None
        };
        let split = literal_end.is_some_and(|(quote, after)| {
            !ends_statement(after) && adjacent_on_next_line(buf, quote, after, limit)
        });
        // A `(` written on to the URN and a word after it, which a space
        // stops and a `)` later on the line closes: the sentence's
        // parenthesis (`...:nameid-format:unspecified(see Section 8.3.1)`).
        // (Not a `$(`: a command substitution or a make function,
        // `urn:uuid:$(shell uuidgen)`, a template below.)
        if matches!(stop, Some(b' ' | b'\t'))
            && let Some(paren) = self.urn.iter().rposition(|&b| b == b'(')
            && paren > 4
            && self.urn[paren - 1] != b'$'
            && self.urn.len() > paren + 1
            && self.urn[paren + 1..].iter().all(u8::is_ascii_alphabetic)
            && closes_on_the_line(buf, end, limit)
        {
            self.pop(self.urn.len() - paren);
        }
        // An element's whole content ending in `:`
        // (`<ns>urn:ietf:params:xml:ns:yang:</ns>`): the text between the
        // tags is the value, its `:` included, as an attribute's is; no
        // sentence ends in `:` before a closing tag (a `.` or `;` there
        // may be a list item's, and goes). Not when markup inside was
        // read past (`<b>urn:x:y</b>.</p>`).
        let element_content = prev == Some(b'>')
            && stop == Some(b'<')
            && buf.get(end + 1) == Some(&b'/')
            && self.urn.last() == Some(&b':')
            && memchr::memchr(b'<', &buf[start..end]).is_none();
        // `_` opens Markdown emphasis only when one closes it after the
        // URN (`_urn:x:y_`); without, it glues `urn` to a name
        // (`_urn:schemas-upnp-org:service:X_scpd.xml`, a file's name).
        if underscores > 0 && without_closing_punctuation(&self.urn).last() != Some(&b'_') {
            return None;
        }
        if !closed && !element_content {
            self.trim(open, stop);
        }
        // The run may pass MAX_URN by what ends a sentence after it.
        if self.urn.len() > MAX_URN {
            return self.cut_too_long();
        }
        if !self.has_nid_and_nss() {
            return None;
        }
        // A string a program fills in (`"urn:isbn:%s"`, `` `urn:x:${id}` ``,
        // `"urn:uuid:{0}"`) is a template of URNs, not one; so is a string
        // literal ending in `:` (or `.`, an OID's arcs: `"urn:oid:2.5.4."`):
        // a prefix a program joins more on to, there
        // (`"urn:ietf:params:oauth:" + kind`) or where it uses the constant
        // (`REQUEST_URI_PREFIX = "urn:ietf:params:oauth:request_uri:"`).
        // So is one ending in `-` or `_`, a name's prefix a program
        // completes (`NBN_PREFIX = "urn:nbn:nl:ui:13-"`: it gave `invalid`).
        // So is one with an ellipsis for a part (`"urn:uuid:..."`).
        // An attribute's whole value (`xmlns:ex="urn:example:"`) is used
        // as it stands, and stays. A quoted URN that the next literal goes
        // on from is part of a string as well.
        // (`${#Project#Id}` is SoapUI's property expansion, no RFC 6570
        // `{#...}` after a URN.)
        if stop == Some(b'{') && (self.urn.last() == Some(&b'$') || !query_expansion(buf, end, limit))
            || stop == Some(b'&')
                && buf[end - 1] == b':'
                && entity(buf, end, limit).is_none()
                && entity_shaped(buf, end, limit)
            || has_format_conversion(&self.urn)
            || matches!(open, Some(b'"' | b'\''))
                && has_tilde_directive(&self.urn)
                && format_call_before(buf, start - 1)
            || closed && self.urn.last() == Some(&b'%') && macro_after(buf, after_close, limit)
            || has_interpolation(&self.urn, self.literal_dollar)
            || has_build_token(&self.urn)
            || left_out
            // The same of an element of code in prose (HTML's `<code>`,
            // `<tt>`, `<samp>`, `<kbd>`; DocBook's `<code>`, `<literal>`)
            // whose whole content ends in `:`: a prefix the text names
            // (XLIFF 2.1's list of "allowed schema URN prefixes",
            // `<code class="code">urn:oasis:names:tc:xliff:</code>`), as a
            // string literal's is; a data element's value stays (above).
            || element_content && code_element_before(buf, start)
            || piece
            || split
            || x_filled(&self.urn)
            || stop == Some(b'<') && xslt_instruction(buf, end, limit)
            || stop == Some(b'<') && var_element(buf, end, limit)
            || stop == Some(b'<') && scriptlet(buf, end, limit)
            || stop == Some(b'`') && open != Some(b'`') && command_substitution(buf, end, limit)
            || stop == Some(b'\\') && swift_interpolation(buf, end, limit, open)
            || is_pattern(&self.urn, buf, start, end, limit, self.tex || self.rtf)
            || self.quoted_printable
                && open == Some(b'<')
                && self.urn.contains(&b'@')
                && message_id_header(buf, start)
            || regex_literal(&self.urn, buf, start, self.ends.last().copied().unwrap_or(end))
            || closed
                && open != Some(b'<')
                && (matches!(self.urn.last(), Some(b':' | b'.' | b'-' | b'_'))
                    || ends_in_query_name(&self.urn))
                && !epc_empty_field(&self.urn)
                && (joined_on(buf, after_close) || !attribute_value(buf, start))
            || quoted_literal
                && (prefix_test(buf, start - 1)
                    || builder_start(buf, start - 1, after_close, limit)
                    || built_piece(buf, start - 1, after_close, limit, self.urn[self.urn.len() - 1])
                    || self.line_statements && ruby_append(buf, after_close, limit)
                    || concat_argument(buf, start, Some(start - 1), after_close, limit)
                    || !doubled
                        && !ends_statement(after_close)
                        && continued(buf, open.unwrap_or_default(), open_end, after_close, limit)
                    || !ends_statement(after_close) && joined_to_a_value(buf, after_close, limit))
            // The same of a literal whose quotes are written `\"`, code
            // held in a string (a Jupyter notebook's cell, JSON:
            // `s.startswith(\"urn:isbn:978\")`, `\"urn:isbn:978\" + rest`);
            // its closing `\"` then an outer quote is the markup's whole
            // attribute value (`"xmlns:cal=\"urn:x:y:\""`) and stays.
            || escaped_pair
                && (prefix_test(buf, start - 2)
                    || !ends_statement(after_close) && joined_to_a_value(buf, after_close, limit))
            // A pattern of SQL's LIKE (`WHERE id LIKE 'urn:uuid:%'`: `%`
            // any characters, ISO/IEC 9075-2 8.5), not a URN.
            || matches!(open, Some(b'"' | b'\''))
                && self.urn.contains(&b'%')
                && like_pattern(buf, start - 1)
        {
            return None;
        }
        if self.hyphenated && !closed && open != Some(b'<') && self.ends.last() == Some(&end) {
            self.hyphen_break(buf, end, limit, open, percent);
            if self.too_long || self.urn.len() > MAX_URN {
                return self.cut_too_long();
            }
        }
        self.ends.last().copied()
    }

    /// Prose broken at a hyphen (a PDF's extracted text, typeset lines:
    /// `https://nbn-resolving.org/urn:nbn:de:bvb:19-` then `82009 (...)`):
    /// the URN, which ends in `-` right before a line break (spaces or tabs
    /// around it), goes on at the next line's first word when that starts
    /// with a letter or digit and is no URI of its own. Both readings of
    /// the hyphen are offered, as inside `<...>`, and the first line's
    /// alone ([`Scratch::line_cut`]); the caller, who can check them,
    /// chooses.
    fn hyphen_break(&mut self, buf: &[u8], end: usize, limit: usize, open: Option<u8>, percent: bool) {
        if self.urn.last() != Some(&b'-') || self.urn.len() < 6 {
            return;
        }
        let j = past_blanks(buf, end, limit);
        let j = match line_break_at(buf, j, limit) {
            Some(n) => j + n,
            // Classic Mac OS text's CR alone.
            None if j < limit && buf[j] == b'\r' => j + 1,
            None => return,
        };
        let j = past_blanks(buf, j, limit);
        if j >= limit || !buf[j].is_ascii_alphanumeric() || starts_uri(buf, j, limit) {
            return;
        }
        let kept = self.urn.len();
        let next = self.run(buf, j, limit, open, percent);
        if self.too_long {
            return;
        }
        self.trim(open, buf.get(next).copied());
        if self.urn.len() <= kept {
            self.urn.truncate(kept);
            self.ends.truncate(kept);
            return;
        }
        self.line_cut = Some(kept);
        self.breaks.push(kept - 1);
        self.alt.clear();
        self.alt.extend_from_slice(&self.urn[..kept - 1]);
        self.alt.extend_from_slice(&self.urn[kept..]);
    }

    /// The word byte right before `start` ends syntax that glues nothing
    /// on to `urn`: a unified diff's line marker, a shell parameter
    /// expansion's operator, or a terminal's escape sequence.
    fn syntax_before(&self, buf: &[u8], start: usize) -> bool {
        self.diff_line
            .is_some_and(|indent| diff_marker_before(buf, start, indent))
            || shell_default_before(buf, start)
            || csi_before(buf, start)
    }

    /// Whether the URN read so far is of a namespace whose NSS takes
    /// `;name=value` parameters, which a `;name=` then continues: gsma's
    /// `urn:gsma:imei:90420156-025763-0;svn=42;vers=0` (RFC 7254 section 3).
    fn takes_params(&self) -> bool {
        self.urn
            .get(..9)
            .is_some_and(|head| head.eq_ignore_ascii_case(b"urn:gsma:"))
    }

    /// Whether the URN is in a row of a JUnit `@CsvSource` annotation
    /// ([`csv_source_row`]), looked at once per URN, at its first `,`.
    fn in_csv_row(&mut self, buf: &[u8], limit: usize) -> bool {
        *self
            .csv_row
            .get_or_insert_with(|| csv_source_row(buf, self.start, limit))
    }

    /// Whether the URN is in a line of a MARC record in mnemonic form
    /// ([`marc_line`]), looked at once per URN, at its first `$`.
    fn in_marc_line(&mut self, buf: &[u8]) -> bool {
        *self.marc.get_or_insert_with(|| marc_line(buf, self.start))
    }

    /// A run longer than [`MAX_URN`]: its first MAX_URN bytes, as they
    /// stand, reported as too long; the scan skips the rest of the run.
    fn cut_too_long(&mut self) -> Option<usize> {
        self.too_long = true;
        let keep = self.urn.len().min(MAX_URN);
        self.urn.truncate(keep);
        self.ends.truncate(keep);
        self.breaks.clear();
        self.line_cut = None;
        self.ends.last().copied()
    }

    /// Takes URN characters from `i` on, at most [`RUN_LIMIT`] of them;
    /// returns where they stop.
    fn run(&mut self, buf: &[u8], mut i: usize, limit: usize, open: Option<u8>, percent: bool) -> usize {
        while i < limit {
            if self.urn.len() >= RUN_LIMIT {
                self.too_long = true;
                return i;
            }
            let b = buf[i];
            // A folded line (iCalendar, RFC 5545 section 3.1; vCard, RFC
            // 6350 section 3.2; LDIF, RFC 2849): the line break and the
            // one space or tab after it are no part of the value, and the
            // URN goes on (`urn:uuid:C3B38B00-` CRLF SP `4166-...`).
            if self.folded
                && matches!(b, b'\r' | b'\n')
                && let Some(len) = fold(buf, i, limit)
            {
                i += len;
                continue;
            }
            // So is a calendar's content line held in another file (a
            // test's fixture in a Python string, RFC 5545 section 3.1),
            // folded where it reaches 75 octets: a line of 60 to 100 bytes
            // (escapes a program writes, `\xe9`, make it longer), then
            // one space (`...;PARTSTAT=ACCEPTED:urn:uuid:A592CF8B-4FC8-4E4`
            // CRLF SP `F-B543-B2F29A7EEB0B`: it gave an invalid
            // `urn:uuid:A592CF8B-4FC8-4E4`).
            if let Some(line) = self.content_line
                && matches!(b, b'\r' | b'\n')
                && (60..=100).contains(&(i - line))
                && let Some(len) = fold(buf, i, limit)
            {
                self.content_line = Some(i + len - 1);
                i += len;
                continue;
            }
            // A quoted-printable soft line break (RFC 2045 section 6.7,
            // rule 5): an `=` ending an encoded line is no character of the
            // text; the URN goes on on the next line (`urn:isbn:04514=`
            // CRLF `50524`, a mail body's 76-character lines), or ends
            // before the `=`.
            if self.quoted_printable
                && b == b'='
                && let Some(line_end) = line_break_at(buf, i + 1, limit)
            {
                let after = i + 1 + line_end;
                if after < limit && is_urn_char(buf[after]) {
                    i = after;
                    continue;
                }
                return i;
            }
            if Some(b) == self.delimiter && open != Some(b'"') {
                return i;
            }
            if percent {
                // Inside a URL's query: `&`, `#` and `?` are the URL's.
                match b {
                    b'%' => match hex2(buf, i + 1, limit) {
                        // A `?` so written is read as one (RFC 8141
                        // section 2): it ends the URN but as `?+` or `?=`
                        // (`...%2Furn%3Aard%3Aimage%3A2e8e%3Fw%3D...`: the
                        // image URL's query).
                        Some(b'?')
                            if !self.component
                                && !matches!(decoded_at(buf, i + 3, limit), Some(b'+' | b'=')) =>
                        {
                            return i;
                        }
                        // What no URN holds ends it, as it does written
                        // as itself (`%7C`: FHIR's token `system|code`,
                        // `identifier=urn%3Aoid%3A1.2.3%7C1234`); so does a
                        // `,` `;` or `/` before another encoded URN
                        // (`urn%3Aoid%3A1.2.9%7Cs1%2Curn%3Aoid%3A...`).
                        Some(c) if !is_urn_char(c) => return i,
                        Some(b',' | b';' | b'/') if starts_encoded_urn(buf, i + 3, limit) => return i,
                        Some(c) => {
                            self.component |= matches!(c, b'?' | b'#');
                            self.push(c, i + 3);
                            i += 3;
                        }
                        None => return i,
                    },
                    b'&' | b'#' | b'?' | b'\'' => return i,
                    // In a URL's query a `+` is a space (HTML's
                    // `application/x-www-form-urlencoded`, the WHATWG URL
                    // Standard section 5.1), which a form writes for one
                    // and encodes a URN's own `+` as `%2B`: a search link's
                    // `?q=urn%3Aisbn%3A0451450523+book` (it gave
                    // `urn:isbn:0451450523+book`).
                    b'+' if self.query => return i,
                    // An `xmpp:` URI's next pair (`node=urn%3Axmpp%3A...;item=1`).
                    b';' if self.pairs && !self.takes_params() && next_pair(buf, i + 1, limit) => return i,
                    // A list of encoded URNs (rest.li's
                    // `ids=List(urn%3Ali%3Amessage%3A1,urn%3Ali%3Amessage%3A2)`).
                    b',' | b';' if starts_encoded_urn(buf, i + 1, limit) => return i,
                    // An encoded URN's run ends where a plain one's does
                    // (below): at the first `)` that closes a `(` right
                    // before `urn` (`eq(id,...)`), and at the `,` that ends
                    // an item of a comma-separated list, unless the next item
                    // goes on with `:` or `%3A` parts (an RQL query in a
                    // URL, AMWA IS-04's `query.rql=and(eq(format,urn%3Ax-nmos%3Aformat%3Avideo),in(tags.location,(Salford,London)))`:
                    // it gave `urn:x-nmos:format:video),in(tags.location,(Salford,London)`).
                    b')' if open == Some(b'(') && memchr::memchr(b'(', &self.urn).is_none() => return i,
                    b',' if self.field && !colon_in_next_item(buf, i + 1, limit) => return i,
                    _ if is_urn_char(b) => {
                        self.push(b, i + 1);
                        i += 1;
                    }
                    _ => return i,
                }
                continue;
            }
            if b == b'\'' && open == Some(b'\'') {
                return i;
            }
            // A quote that closes a single-quoted literal the program
            // joins a value on to (`'<dc:identifier>urn:uuid:'+self.BookId`,
            // no space before the `+`; an argument of `concat()` before
            // another): the URN is a piece of one made at run time
            // (below), and the `'` is no part of it.
            let apostrophe_closes = b == b'\'' && !matches!(open, Some(b'"' | b'<'));
            if apostrophe_closes
                && (joined_to_a_value(buf, i + 1, limit) || concat_argument(buf, i, None, i + 1, limit))
            {
                return i;
            }
            // A quote right before a tag's end closes an attribute value
            // the URN does not start (XML 1.0 AttValue:
            // `<items node='urn:xmpp:pps:subscribers:0/urn:xmpp:microblog:0'/>`).
            if apostrophe_closes
                && matches!(buf.get(i + 1..limit.min(i + 3)), Some([b'>', ..] | [b'/', b'>']))
            {
                return i;
            }
            // A quote then a `,`, `)` or `;` closes a single-quoted literal
            // the URN does not start, before the next argument, the end of
            // a call or of a statement (an SQL dump's row, `(4,'O''Reilly
            // urn:isbn:0451450523','y'),(5,...`; a Python list's
            // `['see urn:x:a','b']`): no URN goes on so, and the run must
            // not swallow the next values.
            if apostrophe_closes && i + 1 < limit && matches!(buf[i + 1], b',' | b')' | b';') {
                return i;
            }
            // A MARC subfield's delimiter, `$` and its code, ends it
            // (`=856  40$uhttp://nbn-resolving.de/urn:nbn:de:101:1-2016$xResolving-System`).
            if b == b'$' && i + 1 < limit && buf[i + 1].is_ascii_alphanumeric() && self.in_marc_line(buf) {
                return i;
            }
            if self.encoded
                && b == b'%'
                && hex2(buf, i + 1, limit).is_some_and(|c| c < 0x80 && (!is_urn_char(c) || c == b'\''))
            {
                return i;
            }
            match b {
                // A NID is letters, digits and hyphens (RFC 8141 section
                // 2): a `,` or `;` before its colon separates a list, the
                // `urn` before it a word or a key (`{urn:1,nsmap:1}`, a
                // Sphinx search index), not a URN's NID; a `*` there is a
                // glob's wildcard (`"*urn:invalid*urn:oasis:...*"`).
                b',' | b';' | b'*' if !self.nss => return i,
                // TeX's tie, a space that breaks no line (The TeXbook,
                // chapter 14): `urn:...~\cite{...}`, `RFC~8141`.
                b'~' if self.tie => return i,
                // An arrow, `->` or `=>` (a SCIM attribute path in a
                // comment, `...:2.0:User->apiKeys`; a map's `=>`), or a
                // comment's `-->`: `>` is no URN character, so the `-` or
                // `=` before it is the arrow's, not the URN's last. (In
                // `<...>` a `-` before the closing `>` is the URN's.)
                b'-' | b'='
                    if open != Some(b'<')
                        && (buf.get(i + 1) == Some(&b'>')
                            || b == b'-' && buf[i + 1..limit].starts_with(b"->")) =>
                {
                    return i;
                }
                // TeX's comment character (The TeXbook, chapter 7: category
                // 14), written on to a URN at a line's end to drop the
                // space there (`urn:isbn:0451450523%`), where no
                // percent-encoding (two hex digits) follows.
                b'%' if self.tie && hex2(buf, i + 1, limit).is_none() => return i,
                // An item of a comma-separated list ends at its `,`
                // (`Create,...,urn:ngsi-ld:entity:E1,f,kg,None`, a row
                // of a test's expected psql output; an eHealth
                // `namespace,urn:be:fgov:person:ssin,${id}` triple),
                // unless the next item goes on with ':'-parts, the URN's
                // own (OGC's compound CRS, `urn:ogc:def:crs,crs:EPSG::4326,...`).
                b',' if self.field && !colon_in_next_item(buf, i + 1, limit) => return i,
                // A row of JUnit's `@CsvSource` (each string one CSV line,
                // its `,` the column delimiter; `'` quotes a column that
                // holds one: JUnit 5 User Guide, "@CsvSource"): SCIM-SDK's
                // `@CsvSource({"urn:...:User:manager,ADD"})`.
                b',' if open != Some(b'\'') && self.in_csv_row(buf, limit) => return i,
                b':' => self.nss = true,
                // RFC 8141 section 2 allows `,`, `;` and `&` in an NSS, but
                // one written right before another URI starts a list of
                // them (ISO/IEC 23009-1 `@profiles`: URIs separated by
                // commas; RFC 6750 section 3's `scope="urn:example:channel=HBO&urn:example:rating=G,PG-13"`).
                b',' | b';' | b'&' if starts_uri(buf, i + 1, limit) => return i,
                // So does a `/` before another URN: two URNs as segments
                // of a URL's path (`/org/urn:mrn:mcp:org:idp1:dma/mms/urn:mrn:...`,
                // each a segment, RFC 3986 section 3.3).
                b'/' if starts_urn(buf, i + 1, limit) => return i,
                // A `(` right before `urn` is closed by the first `)` when
                // the URN holds no `(` of its own, whatever follows it
                // (a table of contents' leaders,
                // `2D simple grid (urn:ogc:def:method:WCS:1.1:2dSimpleGrid)....87`).
                b')' if open == Some(b'(') && memchr::memchr(b'(', &self.urn).is_none() => return i,
                // A YANG module on one line (`module a {namespace
                // urn:tests:a;prefix a;...}`, a test's module text): the
                // `;` ending the namespace statement before the next one.
                b';' if yang_statement(buf, i + 1, limit) => return i,
                // An X.509 subject alternative name list (OpenSSL's
                // `subjectAltName = URI:urn:...,DNS:host,IP:127.0.0.1`, an
                // OPC UA application's certificate).
                b',' if general_name(buf, i + 1, limit) => return i,
                // A query's value ends at its `&` (or a fragment's `#`).
                b'#' if self.query => return i,
                b'&' if self.query && entity(buf, i, limit).is_none() => return i,
                // Outside a component, `&name=` after a `name=` pair's
                // value is the next pair (a URN's own `&` is kept:
                // `urn:example:a&b`, a q-component's `?=a=1&b=2`).
                // So does one that ends the line before the next line's
                // `name=` (a KVP request laid out a pair a line, OGC WCS
                // 1.1's `GridBaseCRS=urn:ogc:def:crs:EPSG::4326&`).
                b'&' if self.pairs
                    && !self.component
                    && (next_pair(buf, past_ampersands(buf, i, limit), limit)
                        || pair_on_next_line(buf, i + 1, limit)) =>
                {
                    return i;
                }
                // A `,` before a name and `=` or `,` is a list of options
                // whose value this one is (a Go struct tag,
                // `jsonschema:"enum=urn:ietf:...:device_code,uniqueItems,title=..."`).
                b',' if self.pairs
                    && !self.component
                    && (next_pair(buf, i + 1, limit) || next_flag(buf, i + 1, limit)) =>
                {
                    return i;
                }
                // A Go struct tag's value is the name, then `,` and the
                // options of its encoder (reflect.StructTag; encoding/json's
                // `omitempty`, `string`; yaml's `inline`, `flow`; xml's
                // `attr`...): `json:"urn:...:2.0:User,omitempty"`, a SCIM
                // extension's member.
                b',' if self.struct_tag && tag_option(buf, i + 1, limit) => return i,
                // So does `;name=`: the pairs of an `xmpp:` URI's query
                // (RFC 5122 section 2.2: `pair = ";" key "=" value`,
                // `?pubsub;node=urn:xmpp:stickers:0;item=...`) and of an
                // OPC UA NodeId (`nsu=urn:example:ns;s=Demo`, OPC 10000-6
                // section 5.3.1.11). A URN's `;` not before a `name=` stays
                // (`urn:lex:it:stato:legge:2003-09-28;694`).
                b';' if self.pairs
                    && !self.component
                    && !self.takes_params()
                    && next_pair(buf, i + 1, limit) =>
                {
                    return i;
                }
                // A second `#` before another `urn:`: no URN holds a
                // second `#` (the f-component is RFC 3986's `fragment`),
                // and what follows is another value (Peppol's
                // `urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:...`
                // joins identifiers so, some with a NID no URN has).
                // Before anything else it stays, and the whole is checked
                // (`"urn:local:abc/def#f1#f2"`, a negative test).
                b'#' if self.fragment
                    && buf
                        .get(i + 1..limit.min(i + 5))
                        .is_some_and(|head| head.eq_ignore_ascii_case(b"urn:")) =>
                {
                    return i;
                }
                // RFC 8141 section 2: `?` starts a component only as `?+`
                // or `?=`; before one has started, any other `?` is a
                // URL's query after a URN in its path. Once `?+`, `?=` or
                // `#` is taken, `?` is a character of the component.
                b'?' | b'#' => {
                    self.fragment |= b == b'#';
                    let next = buf.get(i + 1).filter(|_| i + 1 < limit).copied();
                    if b == b'?' && !self.component && !matches!(next, Some(b'+' | b'=')) {
                        // A URN that a delimiter opened right before it is
                        // one URI up to the close (Appendix E: `<...>`,
                        // quotes): a `?` that more of it follows is its
                        // own (RFC 8141 refuses it: `<urn:uuid:...?query>`
                        // is no URN, not a URN and a query). A `?` at the
                        // close is the sentence's (`"urn:x:y?"`), and one
                        // after `(` opens a regex group (`(?P<code>`).
                        if !(matches!(open, Some(b'<' | b'"' | b'\''))
                            && !self.query
                            && self.urn.last() != Some(&b'(')
                            && next.is_some_and(|c| is_urn_char(c) && Some(c) != open))
                        {
                            return i;
                        }
                        self.push(b, i + 1);
                        i += 1;
                        continue;
                    }
                    self.component = true;
                }
                // A `.properties` key ends at its first `=` not escaped
                // (`Properties.store()` writes one in a key as `\=`):
                // `urn\:iso\:std\:iso\:30042\:ed-1\:v1\:en=tbx`.
                b'=' if self.properties => return i,
                b'\\' if self.properties || self.properties_file => {
                    if let Some(&c @ (b':' | b'=' | b'#' | b'!')) = buf.get(i + 1).filter(|_| i + 1 < limit) {
                        self.nss |= c == b':';
                        self.push(c, i + 2);
                        i += 2;
                        continue;
                    }
                    // A logical line goes on after a `\` that ends a
                    // natural one, the next one's leading whitespace dropped
                    // (`Properties.load`): `...:nameid-format:\` then
                    // `    emailAddress`.
                    if self.properties_file
                        && let Some(next) = properties_continuation(buf, i, limit)
                    {
                        i = next;
                        continue;
                    }
                }
                // `&name;` is a reference in HTML and XML text; one this
                // cut does not know is no part of a URN (a name of one
                // letter, `&b;`, is none: kept as the NSS's `&`).
                b'&' if entity(buf, i, limit).is_none() && entity_shaped(buf, i, limit) => return i,
                // A GUID in braces written on to an NSS (Mozilla's add-on
                // IDs, `urn:mozilla:extension:{eecba28f-b68b-4b3a-b501-6ce12e6b8696}`,
                // the registry form of Microsoft's GUIDs): part of what the
                // writer meant, invalid as a URN (RFC 8141 section 2 has no
                // `{`) and reported so, not taken for a template's
                // placeholder (whose names RFC 6570 section 2.3 keeps
                // without `-`).
                // In a quoted value, an index in brackets after a
                // subreference's word that more of the value follows, or
                // its closing quote (CTS's subreferences,
                // `"urn:cts:...:1.1.1@Gallia[1]-1.1.2@Belgae[1]"`; not a
                // pattern's class, `"urn:...:oxrs-1.[01]"`):
                // part of what was written, invalid as a URN (RFC 8141
                // section 2 has no `[`), not a footnote, which prose puts
                // after a URN.
                // So is a word in brackets after a name in a quoted value,
                // its closing quote or more of the value after it (an
                // SOS phenomenon's unit, `"urn:ogc:def:phenomenon:OGC:1.0.30:AIR_HUMIDITY_[PERCENT]"`,
                // `"urn:example:temp[1]"`): not a regex's class
                // ([`bracket_expression`]).
                b'[' if self.nss
                    && matches!(open, Some(b'"' | b'\''))
                    && self
                        .urn
                        .last()
                        .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
                    && !bracket_expression(&buf[i..limit.min(i + 64)])
                    && let Some(len) = quoted_index(buf, i, limit, open) =>
                {
                    if !self.push_all(buf, i, len) {
                        return i;
                    }
                    i += len;
                    continue;
                }
                // HTML's break hint element, `<wbr>` (`<wbr/>`, `<wbr />`;
                // HTML Living Standard 4.5.29) inside a URN that more of it
                // follows, is the page's, as a zero-width space is (below):
                // authlete-java-common's Javadoc
                // `urn:<wbr>ietf:<wbr>params:<wbr>oauth:...` (it gave
                // nothing, or `urn:nbn:de` for `urn:nbn:de:<wbr>bsz:...`).
                b'<' if let Some(len) = wbr_tag(buf, i, limit) => {
                    i += len;
                    continue;
                }
                // Emphasis marked up inside a URN, which more of it
                // follows (Javadoc's `urn:ogc:def:<b>crs</b>:EPSG::4326`,
                // a table's `urn:ogc:crs:<span style=...>epsg:</span>...`):
                // the markup is the page's, the URN reads on.
                b'<' if self.nss
                    && open != Some(b'<')
                    && let Some(len) = inline_markup(buf, i, limit) =>
                {
                    i += len;
                    continue;
                }
                b'{' if self.nss && braced_guid(buf, i, limit) => {
                    if !self.push_all(buf, i, BRACED_GUID) {
                        return i;
                    }
                    i += BRACED_GUID;
                    continue;
                }
                _ => {}
            }
            if b >= 0x80 {
                // An invisible break hint (a zero-width space, a soft
                // hyphen, a word joiner) is a typesetter's, not the URN's:
                // the text reads on past it (OASIS UBL's DocBook writes
                // `urn:&#8203;oasis:&#8203;names:...`).
                if let Some(len) = break_hint(buf, i, limit) {
                    i += len;
                    continue;
                }
                // A typographic dash between the letters or digits of a
                // URN (a word processor's or smart punctuation's en dash
                // for `-`, `urn:isbn:978–1–68050–252–7`) is part of what
                // the writer meant: held, so that the URN is reported
                // invalid at the dash rather than cut before it.
                if let Some(len) = typographic_dash(buf, i, limit, self.urn.last().copied()) {
                    if !self.push_all(buf, i, len) {
                        return i;
                    }
                    i += len;
                    continue;
                }
                // RFC 8141 section 2: a URN is ASCII. A letter or digit
                // written on to it is part of what the writer meant (and
                // makes it invalid); other characters (quotes, dashes,
                // spaces) end it.
                match glued(buf, i, limit) {
                    Some(len) => {
                        if !self.push_all(buf, i, len) {
                            return i;
                        }
                        i += len;
                    }
                    None => return i,
                }
                continue;
            }
            // RFC 8792 folding (an Internet-Draft's artwork): a `\` ending
            // a line, written on to a URN character, goes on after the
            // next line's leading whitespace (section 7.2.2), and past the
            // `\` that opens it in the `'\\'` form (section 8.2.2). In a
            // text with the header, or in prose without one (a fold whose
            // header was left out), not in TeX (`\` then a line break is a
            // control space there) nor in Markdown outside a code fence
            // (a hard line break there, CommonMark 6.7).
            if b == b'\\'
                && (self.rfc8792.is_some() || self.hyphenated && !self.tex && self.in_fence == self.markdown)
                && is_urn_char(buf[i - 1])
                && buf[i - 1] != b'\\'
                && let Some(next) = rfc8792_unfold(buf, i, limit, self.rfc8792 == Some(true))
            {
                i = next;
                continue;
            }
            // A backslash ending a line inside a string literal joins the
            // next line to it (C11 5.1.1.2 phase 2, Python's string
            // literals, a Java text block's `\<line-terminator>`, JLS
            // 3.10.7, whose next line's indentation is incidental): the
            // URN goes on after the indentation.
            if b == b'\\'
                && matches!(open, Some(b'"' | b'\''))
                && let Some(next) = line_continuation(buf, i, limit)
            {
                i = next;
                continue;
            }
            // A character escaped with a backslash that is not itself
            // escaped stands for itself: Markdown's `\_`, an underscore
            // that opens no emphasis (CommonMark 2.4:
            // `audio\_channel\_configuration`), and troff's `\-`, a
            // hyphen-minus as a manual page writes one in code and URLs
            // (groff_man_style(7): `URN:S1000D:DMC\-XLINKTEST\-A`).
            // TeX's `\#`, `\%` and `\&` are the characters (The TeXbook,
            // chapter 8: the special characters escaped),
            // `\texttt{urn:isbn:0451450523\#frag}`.
            if b == b'\\'
                && let Some(&c) = buf.get(i + 1).filter(|_| i + 1 < limit)
                && (matches!(c, b'_' | b'-') || self.tex && matches!(c, b'#' | b'%' | b'&'))
                && !escaped_before(buf, i)
            {
                self.component |= c == b'#';
                self.fragment |= c == b'#';
                self.push(c, i + 2);
                i += 2;
                continue;
            }
            // XML and HTML text: an entity reference is its character;
            // JSON strings: `\/` is `/`, `\u003a` is `:`.
            let reference = match b {
                b'&' => decode(buf, i, limit),
                b'\\' => match decode(buf, i, limit) {
                    Some(decoded) => Some(decoded),
                    None => return i,
                },
                _ => None,
            };
            match reference {
                None if is_urn_char(b) => {
                    self.push(b, i + 1);
                    i += 1;
                }
                None => return i,
                // `&amp;` in a query is the URL's `&` (HTML 4.01 B.2.2).
                Some((Decoded::Ascii(b'&' | b'#'), _)) if self.query => return i,
                // Markup escaped twice (`&amp;quot;`, `&amp;gt;&amp;lt;`:
                // a UPnP `LastChange` event's DIDL-Lite inside escaped
                // XML): a quote or angle bracket the text stands for, no
                // part of a URN, as one escaped once is not.
                Some((Decoded::Ascii(b'&'), len)) if escaped_delimiter(buf, i + len, limit) => return i,
                Some((Decoded::Ascii(b'&'), len)) if starts_uri(buf, i + len, limit) => return i,
                // JSON's `\/` before another URN, as `/` (RFC 8259 section 7).
                Some((Decoded::Ascii(b'/'), len)) if starts_urn(buf, i + len, limit) => return i,
                Some((Decoded::Ascii(b'&'), len))
                    if self.pairs && !self.component && next_pair(buf, i + len, limit) =>
                {
                    return i;
                }
                Some((Decoded::Ascii(c), len)) if is_urn_char(c) && !(c == b'\'' && open == Some(b'\'')) => {
                    self.nss |= c == b':';
                    self.push(c, i + len);
                    i += len;
                }
                // Any other character so written (a space, a quote, a
                // control character) ends it, as it does written as itself:
                // `\u001e` in a JSON string is a MARC record's field
                // separator (zotero/translators' MARC.js), not a character
                // the URN was meant to hold.
                Some((Decoded::Ascii(_), _)) => return i,
                Some((Decoded::Char(c), len)) if is_break_hint(c) => i += len,
                Some((Decoded::Char(c), len)) => {
                    // A dash for '-' written as a reference (`&ndash;`),
                    // as [`typographic_dash`] holds one.
                    let dash = self.urn.last().is_some_and(|&before| {
                        buf.get(i + len)
                            .filter(|_| i + len < limit)
                            .is_some_and(|&after| dash_for_hyphen(c, before, after))
                    });
                    if !is_glued(c) && !dash {
                        return i;
                    }
                    let mut utf8 = [0; 4];
                    for &byte in c.encode_utf8(&mut utf8).as_bytes() {
                        self.push(byte, i + len);
                    }
                    i += len;
                }
            }
        }
        i
    }

    /// Pushes `buf[i..i + len]`, unless the run would pass [`RUN_LIMIT`].
    fn push_all(&mut self, buf: &[u8], i: usize, len: usize) -> bool {
        if self.urn.len() + len > RUN_LIMIT {
            self.too_long = true;
            return false;
        }
        for k in 0..len {
            self.push(buf[i + k], i + len);
        }
        true
    }

    /// Inside `<...>`: the parts between whitespace with a line break are
    /// one URN, up to the `>` (Appendix E). Returns whether they were
    /// joined: false (nothing changed) when the brackets do not close over
    /// URN characters alone or no line break is among them.
    fn join(&mut self, buf: &[u8], mut j: usize, limit: usize) -> bool {
        let kept = self.urn.len();
        let mut line_break = false;
        let close = loop {
            let gap = j;
            while j < limit && is_space(buf[j]) {
                j += 1;
            }
            if j >= limit {
                break None;
            }
            // A LF, a CRLF or a CR alone (classic Mac OS text).
            let newline = buf[gap..j].iter().any(|&b| b == b'\n' || b == b'\r');
            line_break |= newline;
            if buf[j] == b'>' {
                break Some(j);
            }
            if !is_urn_char(buf[j]) {
                break None;
            }
            if newline && self.urn.last() == Some(&b'-') {
                self.breaks.push(self.urn.len() - 1);
            }
            j = self.run(buf, j, limit, Some(b'<'), false);
            if self.too_long {
                break None;
            }
            match buf.get(j) {
                Some(b'>') => break Some(j),
                Some(&c) if is_space(c) => {}
                _ => break None,
            }
        };
        match close {
            Some(_) if line_break => {
                self.alt.clear();
                let mut breaks = self.breaks.iter().peekable();
                for (i, &b) in self.urn.iter().enumerate() {
                    if breaks.peek() == Some(&&i) {
                        breaks.next();
                    } else {
                        self.alt.push(b);
                    }
                }
                true
            }
            _ => {
                self.urn.truncate(kept);
                self.ends.truncate(kept);
                self.breaks.clear();
                self.too_long = false;
                false
            }
        }
    }

    /// Drops what ends a sentence or closes a parenthesis opened before
    /// the URN (Appendix E), and the marks of Markdown and comments around
    /// it; `stop` is the byte after it.
    fn trim(&mut self, open: Option<u8>, stop: Option<u8>) {
        // `-->` closes an XML/HTML comment; `--` cannot be in one (XML 1.0
        // section 2.5), so it is not the URN's.
        if stop == Some(b'>') && self.urn.len() > 6 && self.urn.ends_with(b"--") {
            self.pop(2);
        }
        // Counted once: each pass drops from the end only, so the loop
        // stays linear in the URN (a run of 8,000 ')' or '*' must not be
        // counted again for each one dropped).
        let opened = memchr::memchr_iter(b'(', &self.urn).count();
        let mut closed = memchr::memchr_iter(b')', &self.urn).count();
        while self.urn.len() > 4 {
            let len = self.urn.len();
            let last = self.urn[len - 1];
            let drop = match last {
                // `*/` closes a comment of C, C++, Java, JavaScript and CSS
                // (C11 6.4.9): `(... urn:ogc:def:objectType:authority:code)*/`,
                // `/*urn:isbn:0451450523*/.`
                b'/' if self.urn.ends_with(b"*/") => 2,
                b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\'' => 1,
                b')' if closed > opened => {
                    closed -= 1;
                    1
                }
                // Markdown emphasis and strikethrough (CommonMark 6.2, GFM
                // 6.5) close what opened before `urn:`. A `*` written on
                // to a letter or digit is a footnote mark; one after `.`,
                // `:` or `/` is a whole segment, a wildcard (EPC Tag Data
                // Standard pattern URIs, `urn:epc:idpat:sgtin:0614141.*`),
                // and stays.
                // The whole run at once.
                b'*' => {
                    let marks = self.urn.iter().rev().take_while(|&&b| b == b'*').count();
                    if open == Some(b'*') || self.urn[len - 1 - marks].is_ascii_alphanumeric() {
                        marks
                    } else {
                        0
                    }
                }
                b'_' => usize::from(open == Some(b'_')),
                b'~' => usize::from(open == Some(b'~')),
                // RDoc's and AsciiDoc's `+code+`, Org's `=verbatim=`.
                b'+' => usize::from(open == Some(b'+')),
                b'=' => usize::from(open == Some(b'=')),
                // A possessive `'s` after a URN no apostrophe opened.
                b's' | b'S' if self.urn[len - 2] == b'\'' && open != Some(b'\'') && len > 6 => 2,
                _ => 0,
            };
            if drop == 0 {
                break;
            }
            self.pop(drop);
        }
    }

    fn pop(&mut self, n: usize) {
        let len = self.urn.len() - n;
        self.urn.truncate(len);
        self.ends.truncate(len);
    }

    /// `urn:NID:NSS` with a NID and an NSS of at least one byte each.
    fn has_nid_and_nss(&self) -> bool {
        let body = &self.urn[4..];
        match memchr::memchr(b':', body) {
            Some(colon) => colon > 0 && colon + 1 < body.len(),
            None => false,
        }
    }
}

/// The `^` or `$` right before `start` separates values, not a regular
/// expression's anchor or a variable's sigil: a letter, digit, `^` or `&`
/// is written on to it before (HL7 v2's component separator,
/// `&ISO^urn:ihe:iti:xds:2013:uniqueId`, `^^^^urn:oid:...`; FHIR MHD's
/// `2013001$urn:ihe:iti:xds:2013:accession`). A pattern's `^` starts it
/// (`"^urn:`, `/^urn:`, `(^urn:`) and a variable's `$` follows no word.
fn separator_before(buf: &[u8], start: usize) -> bool {
    start >= 2 && (buf[start - 2].is_ascii_alphanumeric() || matches!(buf[start - 2], b'^' | b'&'))
}

/// The byte before `start` ends an escape of a string literal (JSON,
/// C, Python, Java, JavaScript): `\n`, `\t`, `\u0020`, `\x20`; or a
/// percent-encoded byte that is no word character (`%20`, `%0A`): no word
/// is glued to `urn` then (`"line\nurn:isbn:..."`).
fn after_escape(buf: &[u8], start: usize) -> bool {
    // An escape only when its backslash is not itself escaped.
    let escapes = |backslash: usize| buf[backslash] == b'\\' && !escaped_before(buf, backslash);
    let hex_run = |from: usize, n: usize| buf[from..from + n].iter().all(u8::is_ascii_hexdigit);
    if start >= 2
        && matches!(buf[start - 1], b'n' | b't' | b'r' | b'b' | b'f' | b'v' | b'0')
        && escapes(start - 2)
    {
        return true;
    }
    // A troff special character, `\(xx` (groff_char(7): `\(dq` is `"`,
    // a manual page's quote: `\(dqurn:ogc:def:crs:EPSG::4326\(dq`), and
    // the same two-character name after a font or string escape,
    // `\f(CW`, `\*(lq` (groff(7), "Escape sequences").
    if start >= 4
        && buf[start - 3] == b'('
        && buf[start - 2..start].iter().all(u8::is_ascii_alphanumeric)
        && (escapes(start - 4) || start >= 5 && matches!(buf[start - 4], b'f' | b'*') && escapes(start - 5))
    {
        return true;
    }
    // A troff font change or string of a one-character name, `\fB`,
    // `\fI`, `\fR`, `\f1`, `\*Q` (groff(7)): `see \fBurn:isbn:...\fR` in a
    // manual page.
    if start >= 3
        && matches!(buf[start - 2], b'f' | b'*')
        && buf[start - 1].is_ascii_alphanumeric()
        && escapes(start - 3)
    {
        return true;
    }
    // An escaped letter or digit (`\u00e9`, `\x41`) is a word's, as the
    // character itself is.
    if start >= 6 && buf[start - 5] == b'u' && hex_run(start - 4, 4) && escapes(start - 6) {
        let unit = u32::from_str_radix(std::str::from_utf8(&buf[start - 4..start]).unwrap_or("0"), 16);
        return !unit.ok().and_then(char::from_u32).is_some_and(is_glued);
    }
    if start >= 4 && buf[start - 3] == b'x' && hex_run(start - 2, 2) && escapes(start - 4) {
        return hex2(buf, start - 2, start).is_some_and(|b| !is_word(b));
    }
    start >= 3 && buf[start - 3] == b'%' && hex2(buf, start - 2, start).is_some_and(|b| !is_word(b))
}

/// The `-` or `+` right before `start` is the marker of a unified diff's
/// line (GNU diff, "Unified Format": `-` a line removed, `+` one added, a
/// space one of context), first on its line after at most `indent`
/// spaces: `-urn:isbn:...` is the line `urn:isbn:...` removed.
fn diff_marker_before(buf: &[u8], start: usize, indent: usize) -> bool {
    if start == 0 || !matches!(buf[start - 1], b'-' | b'+') {
        return false;
    }
    let marker = start - 1;
    let floor = marker.saturating_sub(indent);
    let mut k = marker;
    while k > floor && buf[k - 1] == b' ' {
        k -= 1;
    }
    k == 0 || matches!(buf[k - 1], b'\n' | b'\r')
}

/// The `-` or `+` right before `start` is the operator of a shell
/// parameter expansion with a default or an alternative value (POSIX.1
/// XCU 2.6.2: `${name:-word}`, `${name-word}`, `${name:+word}`,
/// `${name+word}`): `"${NAMEID:-urn:oasis:...}"` in a script, a `.env` or
/// a Compose file. The name is a shell name or a positional parameter.
fn shell_default_before(buf: &[u8], start: usize) -> bool {
    if start < 4 || !matches!(buf[start - 1], b'-' | b'+') {
        return false;
    }
    let end = start - 1 - usize::from(buf[start - 2] == b':');
    let floor = end.saturating_sub(64);
    let name = buf[floor..end]
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let first = end - name;
    name > 0
        && first >= 2
        && &buf[first - 2..first] == b"${"
        && (!buf[first].is_ascii_digit() || buf[first..end].iter().all(u8::is_ascii_digit))
}

/// The letter right before `start` ends a control sequence of a
/// terminal (ECMA-48 section 5.4: CSI, then parameter bytes 0x30 to 0x3F,
/// intermediate bytes 0x20 to 0x2F and a final byte 0x40 to 0x7E), as a
/// saved log or a notebook's output holds it before coloured text
/// (`ESC[32murn:isbn:...`). CSI is `ESC [`, the ESC raw or written as a
/// string literal's escape: `\u001b` (JSON, Java, JavaScript), `\x1b`
/// (C, Python), `\033` (C's octal, shell `printf`), `\e` (Bash, Perl).
fn csi_before(buf: &[u8], start: usize) -> bool {
    if start < 3 || !(0x40..=0x7E).contains(&buf[start - 1]) {
        return false;
    }
    let floor = (start - 1).saturating_sub(32);
    let mut k = start - 1;
    while k > floor && (0x20..=0x2F).contains(&buf[k - 1]) {
        k -= 1;
    }
    while k > floor && (0x30..=0x3F).contains(&buf[k - 1]) {
        k -= 1;
    }
    if k == 0 || buf[k - 1] != b'[' {
        return false;
    }
    let head = &buf[(k - 1).saturating_sub(6)..k - 1];
    let written = |escape: &[u8]| {
        head.len() >= escape.len()
            && head[head.len() - escape.len()..].eq_ignore_ascii_case(escape)
            && !escaped_before(buf, k - 1 - escape.len())
    };
    head.last() == Some(&0x1B)
        || written(b"\\u001b")
        || written(b"\\x1b")
        || written(b"\\033")
        || written(b"\\e")
}

/// The URN at `start` is the argument of a LaTeX command that takes a URL
/// or a path as written, `\url{`, `\nolinkurl{`, `\path{` (the `url`
/// package) or `\href{` (`hyperref`): a `~` there is the URN's own, no
/// tie.
fn tex_verbatim_argument(buf: &[u8], start: usize) -> bool {
    let head = &buf[start.saturating_sub(12)..start];
    [&b"\\url{"[..], b"\\nolinkurl{", b"\\path{", b"\\href{"]
        .iter()
        .any(|command| head.ends_with(command))
}

/// Whether `urn` holds a printf-style conversion (C, Go, Python, Java's
/// `String.format`: `%s`, `%d`, `%1$s`, `%-8v`, `%*d`, `%.*s`, `%lld`,
/// `%(name)s`) where a percent-encoding (`%HH`, RFC 3986 section 2.1) is
/// not.
fn has_format_conversion(urn: &[u8]) -> bool {
    memchr::memchr_iter(b'%', urn).any(|i| {
        is_conversion(&urn[i + 1..]) || is_positional(&urn[i + 1..]) || is_environment_variable(&urn[i + 1..])
    })
}

/// Whether `urn` holds a `~` directive of a format string where a part
/// starts (after a character no letter or digit): Common Lisp's `format`
/// (CLHS 22.3: `~A`, `~S`, `~D`, `~X`, prefix parameters `~8,'0X`, case
/// conversion `~(`), Erlang's `io_lib:format` (`~s`, `~p`, `~w`, field
/// width, precision and padding: `~8.16.0b`, the `t` modifier), SWI-Prolog's
/// `format/2` and Racket's `format` (`~a`): `"urn:uuid:~A"` given to
/// one is a template ([`format_call_before`]). The directive's letter ends
/// its part (`~ab` stays a name's).
fn has_tilde_directive(urn: &[u8]) -> bool {
    memchr::memchr_iter(b'~', urn).any(|i| {
        if i == 0 || urn[i - 1].is_ascii_alphanumeric() {
            return false;
        }
        let mut k = i + 1;
        // Prefix parameters: numbers, `'c` (a character), `#`, `*`,
        // separated by `,` (Lisp) or `.` (Erlang); then `:` and `@`.
        while let Some(&c) = urn.get(k) {
            match c {
                b'0'..=b'9' | b',' | b'.' | b'#' | b'*' => k += 1,
                b'\'' => k += 2,
                b':' | b'@' if urn.get(k + 1).is_some_and(|&d| d != b':') => k += 1,
                _ => break,
            }
        }
        match urn.get(k) {
            Some(b'(') => true,
            // (Erlang's `t` modifier before its control: `~ts`, `~tp`.)
            Some(c) if b"asdboxrpcfegwitASDBOXRPCFEGWIT".contains(c) => {
                !urn.get(k + 1).is_some_and(u8::is_ascii_alphanumeric)
                    || *c == b't' && urn.get(k + 1).is_some_and(|d| b"spwPW".contains(d))
            }
            _ => false,
        }
    })
}

/// A call of a `format` function opens on the line before the literal
/// whose quote is at `open_quote` (`io_lib:format(`, `(format nil `,
/// `format(atom(Urn), `, `(cl-format nil `): its `~` directives are
/// that function's. Elsewhere a `~` then a letter may be a URN's own
/// (RFC 5141's `urn:iso:std:iso:9999:-1:ed-1:en:~x`).
fn format_call_before(buf: &[u8], open_quote: usize) -> bool {
    let head = &buf[open_quote.saturating_sub(160)..open_quote];
    let line = &head[memchr::memrchr2(b'\n', b'\r', head).map_or(0, |k| k + 1)..];
    memchr::memmem::find(line, b"format").is_some()
}

/// An environment variable's expansion right after a `%`: a name (a
/// letter or `_`, then letters, digits and `_`) and the closing `%`, as
/// cmd.exe expands it in a batch file and Windows'
/// `ExpandEnvironmentStrings` in a registry value or an INF file
/// (`set ID=urn:example:host:%COMPUTERNAME%`: it gave that text as a URN).
/// A name whose first two characters are hex digits (`%DA...%`) is left
/// out: it may be a percent-encoding (RFC 3986 section 2.1, `%C3%A9`).
fn is_environment_variable(rest: &[u8]) -> bool {
    let name = rest
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_')
        .count();
    name >= 2
        && (rest[0].is_ascii_alphabetic() || rest[0] == b'_')
        && !(rest[0].is_ascii_hexdigit() && rest[1].is_ascii_hexdigit())
        && rest.get(name) == Some(&b'%')
}

/// A numbered placeholder right after a `%`: `%1` to `%9` with no hex
/// digit after it (Qt's `QString::arg`, `"urn:uuid:%1"`; Windows'
/// `FormatMessage`; a batch file's argument), which no percent-encoding
/// is (RFC 3986 section 2.1 wants two hex digits).
fn is_positional(rest: &[u8]) -> bool {
    matches!(rest, [b'1'..=b'9', ..]) && !rest.get(1).is_some_and(u8::is_ascii_hexdigit)
}

/// A printf conversion specification right after a `%` (C11 7.21.6.1,
/// POSIX's `%n$` and `*m$`, Go's fmt, Python's `%(name)s`): argument
/// index, flags, width (digits or `*`), precision (`.` then digits or
/// `*`), length modifier, conversion. Two hex digits after the `%` are a
/// percent-encoding (RFC 3986 section 2.1), except `%0` or `%1` and a
/// decimal digit with a conversion after them: a zero-padded width or a
/// width of 10 to 19 (`%08x`, `%02d`, `%10s`), read as such rather than as
/// the encoding of a control character followed by a letter.
fn is_conversion(rest: &[u8]) -> bool {
    let hex_pair = rest.len() >= 2 && rest[0].is_ascii_hexdigit() && rest[1].is_ascii_hexdigit();
    if hex_pair && !(matches!(rest[0], b'0' | b'1') && rest[1].is_ascii_digit()) {
        return false;
    }
    let at = |k: usize| rest.get(k).copied();
    let digits = |mut k: usize| {
        while at(k).is_some_and(|b| b.is_ascii_digit()) {
            k += 1;
        }
        k
    };
    // `*` or `*m$`, after which `$` may come.
    let star = |k: usize| match at(k) {
        Some(b'*') => {
            let m = digits(k + 1);
            if m > k + 1 && at(m) == Some(b'$') {
                m + 1
            } else {
                k + 1
            }
        }
        _ => digits(k),
    };
    // POSIX argument index `n$`.
    let mut k = digits(0);
    k = if k > 0 && at(k) == Some(b'$') { k + 1 } else { 0 };
    while matches!(at(k), Some(b'-' | b'+' | b' ' | b'#' | b'0' | b'\'')) {
        k += 1;
    }
    k = star(k);
    if at(k) == Some(b'.') {
        k = star(k + 1);
    }
    let conversion = |b: Option<u8>| {
        matches!(
            b,
            // C and POSIX; Go's v, q, t, T, b, U; Python's r; Python's
            // mapping key `%(name)s`.
            Some(
                b'd' | b'i'
                    | b'o'
                    | b'u'
                    | b'x'
                    | b'X'
                    | b'e'
                    | b'E'
                    | b'f'
                    | b'F'
                    | b'g'
                    | b'G'
                    | b'a'
                    | b'A'
                    | b'c'
                    | b's'
                    | b'p'
                    | b'n'
                    | b'%'
                    | b'v'
                    | b'q'
                    | b't'
                    | b'T'
                    | b'b'
                    | b'U'
                    | b'r'
                    | b'('
                    // Foundation's object conversion (Objective-C, Swift's
                    // `String(format:)`): `"urn:uuid:%@"`.
                    | b'@'
            )
        )
    };
    if conversion(at(k)) {
        return true;
    }
    // Length modifiers: hh, h, ll, l, L, q, j, z, t.
    let length = match (at(k), at(k + 1)) {
        (Some(b'h'), Some(b'h')) | (Some(b'l'), Some(b'l')) => 2,
        (Some(b'h' | b'l' | b'L' | b'q' | b'j' | b'z' | b't'), _) => 1,
        _ => return false,
    };
    conversion(at(k + length)) && at(k + length) != Some(b'(')
}

/// Whether `urn` holds a string interpolation `$name` (Kotlin, Groovy,
/// Scala's `s""`, PHP, Perl, Julia, Dart, shell) or a shell command
/// substitution `$(...)`: a `$` followed by an identifier's start (a
/// letter or `_`) or `(`, where no letter or digit is written on to it
/// before (`urn:uuid:$patientId`, `urn:isbn:$isbn->id`, `urn:x:id-$n`).
/// `$` is an NSS character (RFC 8141 section 2: sub-delims), so one
/// after a letter or digit (`urn:example:a$b`, a JVM class name
/// `Outer$Inner`) or before anything else (`urn:example:a$`) stays the
/// URN's.
///
/// A numbered one, `$1` to `$9` (a regex replacement's group, Java's
/// `Matcher.replaceAll`, ECMAScript's `GetSubstitution`, a shell's
/// positional parameter: `<entry>urn:uuid:$1</entry>`), is one too.
///
/// In text whose strings take `$name` as written (`literal_dollar`:
/// Java, C, an XML schema, ...), only `$(`, the numbered ones and a
/// placeholder closed by another `$` (`$CUSTOM-PRODUCT-CODE$`, a
/// specification's fill-in) are.
fn has_interpolation(urn: &[u8], literal_dollar: bool) -> bool {
    memchr::memchr_iter(b'$', urn).any(|i| {
        let filled = match urn.get(i + 1) {
            Some(&c) if c == b'(' || (b'1'..=b'9').contains(&c) => true,
            Some(&c) if c.is_ascii_alphabetic() || c == b'_' => {
                let rest = &urn[i + 1..];
                let len = rest
                    .iter()
                    .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
                    .count();
                !literal_dollar || rest.get(len) == Some(&b'$')
            }
            _ => false,
        };
        filled && !urn[i - 1].is_ascii_alphanumeric()
    })
}

/// Whether `urn` ends in a query's parameter name and its `=`, with no
/// value: `?name=` or `&name=` (RFC 3986 section 3.4, the
/// `application/x-www-form-urlencoded` pairs). A quoted literal so ending
/// is a prefix the program completes with the value, as one ending in `:`
/// is: libnetconf's `"urn:ietf:params:netconf:capability:url:1.0?scheme="`,
/// to which the schemes are appended. (An r- or q-component's own `?+`,
/// `?=` has no name before its `=`.)
fn ends_in_query_name(urn: &[u8]) -> bool {
    let Some(head) = urn.strip_suffix(b"=") else {
        return false;
    };
    let name = head.iter().rev().take_while(|&&b| is_param_name(b)).count();
    name > 0
        && matches!(
            head.len().checked_sub(name + 1).map(|i| head[i]),
            Some(b'?' | b'&')
        )
}

/// Whether `urn` has a build tool's or a template's token for a whole
/// part: an upper-case name (letters, digits and `_`, a letter first)
/// between two `@` (Ant's filter tokens, autoconf's substitutions:
/// `urn:uuid:@UUID@` in a DAISY NCX template), two `@@` or two `__`
/// (a WS-Discovery message template's `urn:uuid:__UUID__`,
/// `<wsa:MessageID>urn:uuid:__MESSAGE_ID__</wsa:MessageID>`), filled in
/// when the file is built or sent.
fn has_build_token(urn: &[u8]) -> bool {
    memchr::memchr_iter(b':', urn).any(|i| {
        let rest = &urn[i + 1..];
        let part = &rest[..rest
            .iter()
            .position(|b| matches!(b, b':' | b'/' | b'.' | b';'))
            .unwrap_or(rest.len())];
        [&b"@"[..], b"@@", b"__"].iter().any(|mark| {
            part.len() > 2 * mark.len() && part.starts_with(mark) && part.ends_with(mark) && {
                let name = &part[mark.len()..part.len() - mark.len()];
                name[0].is_ascii_uppercase()
                    && name.last().is_some_and(|b| *b != b'_' && *b != b'@')
                    && name
                        .iter()
                        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
            }
        })
    })
}

/// Whether `urn` has an ellipsis for a part: `...` (or more dots) after a
/// `:` and before a `:`, a `/`, a `)` or its end (`urn:uuid:...`,
/// `urn:oasis:names:...:Assertion`, `(urn:ogc:def:crs:...)`),
/// what a writer left out, not what a URN holds. (A run is read for it
/// before the sentence's punctuation is trimmed from its end.)
fn has_elision(urn: &[u8]) -> bool {
    memchr::memmem::find_iter(urn, b":...")
        .any(|i| matches!(urn.get(i + 4), None | Some(b':' | b'/' | b'.' | b')')))
}

/// A fill-in in angle or square brackets at `i`, right after a URN's `:`,
/// `.`, `/` or `@` (a separator of its parts: KNX's `urn:knx:sn.<serial-number>`,
/// `urn:knx:g.s.[ga]`, XEP-0277's `urn:xmpp:microblog:0:comments/<post-id>`):
/// `<` or `[` and a letter or `_` (so no closing
/// tag, `</ns>`, and no footnote, `[1]`), then at most 64 bytes with no
/// markup or line break in them (`<`, `/`, `=`, quotes), then the
/// closing `>` or `]`: `<deviceType:v>`, `<id>`, `<device type>`. A line
/// break tag (`<br>`, `<wbr>`) is the text's, not a fill-in; a name
/// marked as one in HTML (`<var>`, `<em>`, `<i>`, then a letter:
/// `urn:xmpp:order-by:1@<em>other_namespace</em>`) is one.
fn bracketed_fill_in(buf: &[u8], i: usize, limit: usize) -> bool {
    // Written with entity references in XML and HTML text
    // (`urn:xmpp:forums:category:0:&lt;UNIQUE ID&gt;`, XEP-0508).
    if let Some(escaped) = buf[i.min(limit)..limit.min(i + 74)].strip_prefix(b"&lt;") {
        return escaped
            .first()
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
            && memchr::memmem::find(escaped, b"&gt;").is_some_and(|close| {
                let name = &escaped[..close];
                !name
                    .iter()
                    .any(|&b| matches!(b, b'<' | b'&' | b'/' | b'=' | b'"' | b'\'' | b'\n' | b'\r'))
                    && !is_html_tag(name)
            });
    }
    let rest = &buf[i.min(limit)..limit.min(i + 67)];
    let closing = match rest.first() {
        Some(b'<') => b'>',
        Some(b'[') => b']',
        _ => return false,
    };
    if rest.len() < 3 || !(rest[1].is_ascii_alphabetic() || rest[1] == b'_') {
        return false;
    }
    let Some(close) = rest.iter().position(|&b| b == closing) else {
        return false;
    };
    let name = &rest[1..close];
    if closing == b'>'
        && [&b"var"[..], b"em", b"i"]
            .iter()
            .any(|t| name.eq_ignore_ascii_case(t))
        && rest
            .get(close + 1)
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
    {
        return true;
    }
    let markup = name
        .iter()
        .any(|&b| matches!(b, b'<' | b'/' | b'=' | b'"' | b'\'' | b'\n' | b'\r'));
    let tag = closing == b'>' && is_html_tag(name);
    !markup && !tag
}

/// Whether the start tag that ends right before `start` opens an element
/// of code in prose: HTML's `code`, `tt`, `samp` and `kbd` (HTML Living
/// Standard 4.5), DocBook's `code` and `literal`; attributes may follow
/// the name (`<code class="code">`).
fn code_element_before(buf: &[u8], start: usize) -> bool {
    const NAMES: [&[u8]; 5] = [b"code", b"tt", b"samp", b"kbd", b"literal"];
    let Some(gt) = start.checked_sub(1).filter(|&i| buf[i] == b'>') else {
        return false;
    };
    let from = gt.saturating_sub(256);
    let Some(lt) = memchr::memrchr(b'<', &buf[from..gt]).map(|i| from + i) else {
        return false;
    };
    let tag = &buf[lt + 1..gt];
    if tag.contains(&b'>') || tag.ends_with(b"/") {
        return false;
    }
    let name = tag.split(|&b| is_space(b)).next().unwrap_or_default();
    NAMES.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// An HTML element's start tag between `<` and `>`, attributes left out
/// (`p`, `br`, `span class=...` has none here: `=` is refused before): the
/// text's markup after a URN, not a fill-in (`...urn:ietf:rfc:8141.<p>`).
fn is_html_tag(name: &[u8]) -> bool {
    const TAGS: [&[u8]; 42] = [
        b"a",
        b"abbr",
        b"b",
        b"bdi",
        b"blockquote",
        b"br",
        b"caption",
        b"cite",
        b"code",
        b"dd",
        b"del",
        b"div",
        b"dl",
        b"dt",
        b"em",
        b"h1",
        b"h2",
        b"h3",
        b"h4",
        b"h5",
        b"h6",
        b"hr",
        b"i",
        b"ins",
        b"kbd",
        b"li",
        b"ol",
        b"p",
        b"pre",
        b"q",
        b"s",
        b"samp",
        b"small",
        b"span",
        b"strong",
        b"sub",
        b"sup",
        b"td",
        b"tr",
        b"tt",
        b"u",
        b"wbr",
    ];
    let tag = name.split(|&b| b == b' ').next().unwrap_or_default();
    TAGS.iter().any(|t| t.eq_ignore_ascii_case(tag))
}

/// Whether the last part of `urn` (after its last `:`) is a fill-in of
/// `x`s: eight or more, with only `-` and `.` between them
/// (`urn:uuid:xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, `urn:isbn:XXXXXXXXXX`
/// in documentation): a template of URNs, not one. A short one stays a
/// name (`urn:mrn:gla:grad:s125:datasets:XXXX`, an S-100 test's dataset).
/// So is a last part of three or more `*` alone, a mask
/// (`URN:OGC:DEF:CRS:EPSG::****`); one or two stay, a pattern's wildcard
/// (EPC's `urn:epc:idpat:sgtin:0614141.*`); and one of three or more `#`
/// with only `-` and `.` between them, digits to fill in
/// (`urn:uuid:########-####-####-############`, `urn:imei:###############`).
fn x_filled(urn: &[u8]) -> bool {
    let last = urn.rsplit(|&b| b == b':').next().unwrap_or_default();
    let run_of = |fill: &[u8], least: usize| {
        last.iter().filter(|b| fill.contains(b)).count() >= least
            && last.iter().all(|b| fill.contains(b) || matches!(b, b'-' | b'.'))
    };
    run_of(b"xX", 8) || last.len() >= 3 && last.iter().all(|&b| b == b'*') || run_of(b"#", 3)
}

/// Whether the URN-like text is a regular expression's (an XSD
/// `xs:pattern`, a JSON Schema `pattern`, a `/.../` literal): regex syntax
/// where its run stops, that neither a URN nor prose writes there:
/// - the run ends in an opening `(`: a group opened and never closed in
///   it (`urn:uuid:([0-9a-f]{8}...`, `urn:uuid:(?:...`, `(\d+)`);
/// - it ends in a segment `.*` or `.+`, "any characters" (`urn:ietf:rfc:.*`;
///   EPC's wildcard, `0614141.*`, follows no `:`), or holds a group of
///   them, `(.*` or `.*)` (`urn:oasis:names:tc:SAML:2.0:status:(.*)`);
/// - it stops at a class escape `\d`, `\D`, `\w`, `\W`, `\s`, `\S`,
///   `\p`, `\P` or an escaped metacharacter `\.`, `\(`, `\[`, `\{`,
///   `\+`, `\*`, `\|` (none is an escape of JSON or C strings, whose
///   `\n` still ends a URN: `r"urn:li:fsd_profilePositionGroup:\([^)]+\)"`);
/// - it stops at an alternation `|` inside a group: one opened right
///   before `urn` (`(urn:epcglobal:cbv|https?:...)`; `(?:`, `(?=`, `(?!`,
///   `(?<=`, `(?<!`, `(?>`: `(?:urn:...|...)`)
///   or in it and not closed (`urn:x:(a|b)`);
/// - it stops at a bracket expression: `[` up to `]` on the line, whose
///   content is ranges (`0-9`, `a-f`) and other non-alphanumeric characters
///   (`[0-9a-f]`, `[A-Za-z0-9._-]`), or followed by a quantifier `{` or `+`
///   (`[^:]+`). A footnote mark or an index (`[^1]`, `[1]`) is not one.
///
/// The text is then not reported, as a template is not, whether the
/// pattern starts with `(` or `[`.
///
/// `control_words`: the text is TeX or RTF, whose `\` then letters after
/// a URN is markup (`\par`, `\S`), never a class escape.
fn is_pattern(urn: &[u8], buf: &[u8], start: usize, end: usize, limit: usize, control_words: bool) -> bool {
    if urn.ends_with(b"(") || urn.ends_with(b":.*") || urn.ends_with(b".+") {
        return true;
    }
    // Either, then the end anchor `$` (`"^(?i)urn:oid:.*$"`).
    if urn.ends_with(b".*$") || urn.ends_with(b".+$") {
        return true;
    }
    // A last `.*` elsewhere is "any characters" too (an NGSI-LD
    // `idPattern`, `urn:ngsi-ld:Vehicle:A.*`, a `/.*` path), but in EPC's
    // pattern URIs, whose `*` is a whole component (EPC Tag Data Standard
    // section 8, `urn:epc:idpat:sgtin:0614141.*`).
    let epc = urn.get(4..8).is_some_and(|nid| nid.eq_ignore_ascii_case(b"epc:"));
    if urn.ends_with(b".*") && !epc {
        return true;
    }
    // So is a last part that is a glob's wildcard alone, `:*` or `/*`
    // (`**`), outside EPC: a shell `case` pattern's `urn:isbn:*)`,
    // PowerShell's `-like 'urn:isbn:*'`, SQLite's `GLOB 'urn:uuid:*'`.
    let stars = urn.iter().rev().take_while(|&&b| b == b'*').count();
    if (1..=2).contains(&stars) && matches!(urn[..urn.len() - stars].last(), Some(b':' | b'/')) && !epc {
        return true;
    }
    if urn
        .windows(3)
        .any(|w| matches!(w, b"(.*" | b"(.+" | b".*)" | b".+)"))
    {
        return true;
    }

    let rest = &buf[end.min(limit)..limit.min(end + 64)];
    if rest.first() == Some(&b'|')
        && (group_opened(&buf[..start])
            || memchr::memchr_iter(b'(', urn).count() > memchr::memchr_iter(b')', urn).count())
    {
        return true;
    }
    match rest {
        // A troff special character (`\(dq`, two letters or digits) is
        // text's, not a pattern's.
        [b'\\', b'(', a, b, after @ ..]
            if a.is_ascii_alphanumeric()
                && b.is_ascii_alphanumeric()
                && !after.first().is_some_and(u8::is_ascii_alphanumeric) =>
        {
            false
        }
        // So are groff's other escapes after a URN (groff(7), "Escape
        // sequences"): a special character by its long name, `\[dq]`,
        // `\[rq]` (as pandoc writes a quote), and a string, `\*(rq`,
        // `\*[rq]`, `\*Q`; no regex escapes a bracket so (`\[0-9]`) or
        // writes `\*` before such a name.
        [b'\\', b'[', ..] if troff_long_name(&rest[1..]) => false,
        [b'\\', b'*', b'[', ..] if troff_long_name(&rest[2..]) => false,
        [b'\\', b'*', b'(', a, b, ..] if a.is_ascii_alphanumeric() && b.is_ascii_alphanumeric() => false,
        [b'\\', b'*', a, after @ ..]
            if a.is_ascii_alphabetic() && !after.first().is_some_and(u8::is_ascii_alphanumeric) =>
        {
            false
        }
        // An unfinished groff escape (`\[`, `\[rq y`, `\*(r`, `\(` at a
        // line's end or before a space) is a manual page's slip, and no
        // regex escapes a bracket or star with nothing after it on the
        // line: the URN stays, ending at the backslash (it vanished,
        // even with --all, and an invalid one was not said).
        [b'\\', b'[' | b'(' | b'*', ..] if unfinished_troff_escape(&rest[1..]) => false,
        // A class escape, `\d`, `\w`, `\s`, `\p` and their negations, is
        // one letter: more letters after it make a control word of TeX
        // or RTF (`\par`, `\dots`, `\section`, `\wedge`; The TeXbook,
        // chapter 3; RTF 1.9.1, "Control Words"), which a pattern's `\d+`,
        // `\w*` or `\p{L}` is not.
        [
            b'\\',
            b'd' | b'D' | b'w' | b'W' | b's' | b'S' | b'p' | b'P',
            after @ ..,
        ] => !control_words && !after.first().is_some_and(u8::is_ascii_alphabetic),
        [b'\\', b'.' | b'(' | b'[' | b'{' | b'+' | b'*' | b'|', ..] => true,
        [b'[', ..] => bracket_expression(rest),
        _ => false,
    }
}

/// A groff long name in brackets at the start of `rest`: `[`, a letter,
/// then at most 15 letters and digits, `]` (`[dq]`, `[rq]`, `[u201D]`).
fn troff_long_name(rest: &[u8]) -> bool {
    let name = rest[1..rest.len().min(17)]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    name > 0
        && rest.first() == Some(&b'[')
        && rest[1].is_ascii_alphabetic()
        && rest.get(1 + name) == Some(&b']')
}

/// An unfinished groff escape at the start of `rest` (after its `\`):
/// `[`, `(` or `*` (then `(` or `[` after `*`), at most 15 letters and
/// digits, and then the line's or the text's end or a space: `[`, `[rq y`,
/// `*`, `*(r`, `*[x`, `(r`. A regex goes on after its escaped
/// metacharacter with more of the pattern (`\[0-9]`, `\([^)]+\)`, `\[x"`).
fn unfinished_troff_escape(rest: &[u8]) -> bool {
    let opener = match rest {
        [b'*', b'(' | b'[', ..] => 2,
        _ => 1,
    };
    let name = rest[opener..rest.len().min(opener + 16)]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    name < 16 && rest.get(opener + name).is_none_or(|&b| is_space(b))
}

/// Whether the URN-like text is a `/.../` literal in a string, PHP's and
/// Perl's way of writing a pattern (`preg_match('/urn:isbn:0451450523/', $x)`,
/// SimpleSAMLphp's `'/urn:x-surfnet:surf/'` with `'regex' => true`): a `/`
/// after a quote right before it, and its own last `/` right before that
/// quote again (`text_end`: where its text ends).
///
/// Or a regular expression literal of JavaScript (ECMA-262 12.9.5, Perl
/// and Ruby alike): a `/` right before it where an expression starts,
/// after `(`, `=`, `,`, `!`, `&`, `|`, `?`, `[`, `{`, `;` or `:` (spaces
/// between), and a `/` in the text that its flags and then its end, a
/// method call, `)`, `,` or `;` follow (`if (/urn:isbn:0451450523/.test(s))`,
/// `.match(/urn\:oasis\:...\:status\:(.*)/)`). A `/` before it after a
/// name is a URL's path (`host/urn:x:y/`). Perl's match operators open
/// one too (`qr/urn:.../`, `m/.../`, `$x =~ /.../`), and so does such a
/// `/` earlier on the line, the URN inside the pattern
/// (`assert_match(/<samlp:StatusCode Value='urn:...:PartialLogout/, xml)`).
fn regex_literal(urn: &[u8], buf: &[u8], start: usize, text_end: usize) -> bool {
    if start < 2 {
        return false;
    }
    // PHP's PCRE patterns take other delimiters too, `#`, `~`, `@`, `!`,
    // `%`, `|` (any that is no letter, digit, backslash or space), and
    // flags after the closing one: `'#urn:oasis:...:assurance-certification#'`,
    // `'@urn:isbn:0451450524@i'`.
    let delimiter = buf[start - 1];
    if matches!(buf[start - 2], b'"' | b'\'') && matches!(delimiter, b'#' | b'~' | b'@' | b'!' | b'%' | b'|')
    {
        let quote = buf[start - 2];
        let line = &buf[start..buf.len().min(start + 2048)];
        let Some(close) = line.iter().position(|&b| b == quote || b == b'\n') else {
            return false;
        };
        let inner = &line[..close];
        // PCRE's modifiers (PHP's `i`, `m`, `s`, `x`, `u`, `A`, `D`, `S`,
        // `U`, `X`, `J`, `n`), a few of them.
        let flags = inner
            .iter()
            .rev()
            .take_while(|b| b"imsxuADSUXJn".contains(b))
            .count();
        if flags > 4 {
            return false;
        }
        return buf[start + close] == quote && inner[..inner.len() - flags].ends_with(&[delimiter]);
    }
    if delimiter != b'/' {
        // The pattern opened earlier on the line.
        let line = &buf[start.saturating_sub(256)..start];
        let line = &line[line.iter().rposition(|&b| b == b'\n').map_or(0, |k| k + 1)..];
        return match memchr::memrchr(b'/', line) {
            Some(k) => {
                let opening = start - line.len() + k;
                opening > 0
                    && buf[opening - 1] != b'\\'
                    && opens_regex(buf, opening)
                    && closes_regex_strictly(urn, buf, text_end)
            }
            None => false,
        };
    }
    if matches!(buf[start - 2], b'"' | b'\'') {
        return urn.ends_with(b"/") && buf.get(text_end) == Some(&buf[start - 2]);
    }
    // A Markdown link's target, `[text](/urn:...)`, is a path.
    if start >= 3 && buf[start - 2] == b'(' && buf[start - 3] == b']' {
        return false;
    }
    opens_regex(buf, start - 1) && closes_regex(urn)
}

/// The `/` at `slash` opens a regular expression literal: after `(`,
/// `=`, `,`, `!`, `&`, `|`, `?`, `[`, `{`, `;` or `:` (spaces between;
/// ECMA-262 12.9.5, Ruby alike), after Perl's `=~` or `!~`, or as the
/// delimiter of Perl's `qr` or `m` (perlop, "Regexp Quote-Like
/// Operators").
fn opens_regex(buf: &[u8], slash: usize) -> bool {
    let head = &buf[slash.saturating_sub(256)..slash];
    let operator = |word: &[u8]| {
        head.ends_with(word) && (head.len() == word.len() || !is_word(head[head.len() - word.len() - 1]))
    };
    if operator(b"qr") || operator(b"m") {
        return true;
    }
    matches!(
        head.iter().rev().find(|&&b| b != b' ' && b != b'\t'),
        Some(b'(' | b'=' | b',' | b'!' | b'&' | b'|' | b'?' | b'[' | b'{' | b';' | b':' | b'~')
    )
}

/// As [`closes_regex`], for a pattern that opened before the URN, where a
/// `/` in it is more often a path's: its flags are JavaScript's, Ruby's
/// or Perl's usual ones (`g`, `i`, `m`, `s`, `u`, `x`, `y`, at most
/// three), and what follows them is a method call on the pattern, or `)`,
/// `,` or `;` (in the text after the URN when the URN ends there).
fn closes_regex_strictly(urn: &[u8], buf: &[u8], text_end: usize) -> bool {
    memchr::memchr_iter(b'/', urn).any(|at| {
        let flags = urn[at + 1..]
            .iter()
            .take_while(|b| b"gimsuxy".contains(b))
            .count();
        let after = &urn[at + 1 + flags..];
        flags <= 3
            && match after.first() {
                None => matches!(buf.get(text_end), Some(b')' | b',' | b';')),
                Some(b')' | b',' | b';') => true,
                Some(_) => [&b".test("[..], b".exec(", b".match("]
                    .iter()
                    .any(|call| after.starts_with(call)),
            }
    })
}

/// The URN's text holds the `/` that closes a regular expression literal:
/// its flags (lower-case letters), then its end, a method call (`.test(`),
/// `)`, `,` or `;`.
fn closes_regex(urn: &[u8]) -> bool {
    memchr::memchr_iter(b'/', urn).any(|at| {
        let flags = urn[at + 1..]
            .iter()
            .take_while(|b| b.is_ascii_lowercase())
            .count();
        match urn.get(at + 1 + flags) {
            None => true,
            Some(b'.') => {
                let call = &urn[at + 1 + flags..];
                flags == 0 && call.get(1).is_some_and(u8::is_ascii_alphabetic)
                    || call.starts_with(b".test(")
                    || call.starts_with(b".exec(")
            }
            Some(b')' | b',' | b';') => true,
            Some(_) => false,
        }
    })
}

/// `before` ends with a regex group's opening: `(`, or `(?` and one of
/// `:`, `=`, `!`, `>`, `<=`, `<!`.
fn group_opened(before: &[u8]) -> bool {
    [&b"("[..], b"(?:", b"(?=", b"(?!", b"(?>", b"(?<=", b"(?<!"]
        .iter()
        .any(|opening| before.ends_with(opening))
}

/// `rest` starts with a regex bracket expression (POSIX.1 9.3.5): see
/// [`is_pattern`].
fn bracket_expression(rest: &[u8]) -> bool {
    let Some(close) = rest[1..].iter().position(|&b| matches!(b, b']' | b'\n' | b'\r')) else {
        return false;
    };
    let close = close + 1;
    if rest[close] != b']' || close < 2 {
        return false;
    }
    if matches!(rest.get(close + 1), Some(b'{' | b'+')) {
        return true;
    }
    let inner = rest[1..close].strip_prefix(b"^").unwrap_or(&rest[1..close]);
    let same_class = |a: u8, b: u8| {
        a <= b
            && (a.is_ascii_digit() && b.is_ascii_digit()
                || a.is_ascii_lowercase() && b.is_ascii_lowercase()
                || a.is_ascii_uppercase() && b.is_ascii_uppercase())
    };
    let (mut i, mut ranges) = (0, 0);
    while i < inner.len() {
        match inner[i..] {
            [a, b'-', b, ..] if same_class(a, b) => {
                ranges += 1;
                i += 3;
            }
            [b'\\', _, ..] => i += 2,
            [c, ..] if !c.is_ascii_alphanumeric() => i += 1,
            _ => return false,
        }
    }
    ranges > 0
}

/// The character right before `start` is a letter, digit or combining
/// mark of another script ([`is_glued`]): the last UTF-8 character ending
/// there, or a byte that is none read as Latin-1 (a letter: as [`glued`]
/// reads one after a URN).
fn glued_before(buf: &[u8], start: usize) -> bool {
    match start.checked_sub(1).map(|i| buf[i]) {
        Some(b) if b >= 0x80 => {}
        _ => return false,
    }
    for len in 2..=4.min(start) {
        if let Ok(text) = std::str::from_utf8(&buf[start - len..start]) {
            let mut chars = text.chars();
            if let (Some(c), None) = (chars.next(), chars.next()) {
                return is_glued(c);
            }
        }
    }
    matches!(buf[start - 1], 0xC0..=0xFF) && !matches!(buf[start - 1], 0xD7 | 0xF7)
}

/// The line holding `at` is a field of a MARC record in mnemonic form
/// (MARCMaker's `.mrk`, Library of Congress: `=TAG  II$avalue$bvalue`, an
/// `=`, a three-digit tag, two spaces, then the indicators and subfields),
/// whose `$` and a letter or digit delimit subfields: `$aurn:nbn:...` is
/// subfield a's value, `urn:nbn:...`, and a `$` after it starts the next
/// (`=024  7\$aurn:nbn:de:101:1-201609052530$2urn`). The line starts at
/// most 512 bytes before `at`, as a field's tag and first subfields do.
fn marc_line(buf: &[u8], at: usize) -> bool {
    let from = at.saturating_sub(512);
    let line = match memchr::memrchr2(b'\n', b'\r', &buf[from..at]) {
        Some(i) => from + i + 1,
        None if from == 0 => 0,
        None => return false,
    };
    let head = &buf[line..at];
    head.len() >= 6 && head[0] == b'=' && head[1..4].iter().all(u8::is_ascii_digit) && &head[4..6] == b"  "
}

/// The text at `start` is in a mail header of message identifiers (RFC
/// 5322 section 3.6.4: `Message-ID:`, `In-Reply-To:`, `References:`,
/// and MIME's `Content-ID:`, RFC 2045 section 7), read back over folded
/// lines (a continuation starts with a space or tab). A mailer may make
/// the id of a UUID URN, `<urn:uuid:...@host>`: a msg-id, no URN.
fn message_id_header(buf: &[u8], start: usize) -> bool {
    const NAMES: [&[u8]; 4] = [b"message-id:", b"in-reply-to:", b"references:", b"content-id:"];
    let from = start.saturating_sub(4096);
    let mut end = start;
    loop {
        let line = memchr::memrchr(b'\n', &buf[from..end]).map_or(from, |i| from + i + 1);
        if line == from && from > 0 {
            // The header's name is farther back than is looked at.
            return false;
        }
        let text = &buf[line..end];
        match text.first() {
            Some(b' ' | b'\t') if line > 0 => end = line - 1,
            _ => {
                return NAMES.iter().any(|name| {
                    text.get(..name.len())
                        .is_some_and(|head| head.eq_ignore_ascii_case(name))
                });
            }
        }
    }
}

/// A byte of a query parameter's name.
fn is_param_name(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// Whether the item of a comma-separated list at `i` holds a ':' before
/// its end (the next `,`, or a character no URN holds), looking at most
/// 128 bytes on, and is no `urn:...` of its own (one whose NID is no
/// NID, `urn:www.nesubl.eu:...`, is still another item).
fn colon_in_next_item(buf: &[u8], i: usize, limit: usize) -> bool {
    let item = &buf[i.min(limit)..limit.min(i + 128)];
    let len = item.iter().take_while(|&&b| b != b',' && is_urn_char(b)).count();
    let item = &item[..len];
    // Percent-encoded text writes the colon `%3A` (`crs%3AEPSG%3A%3A4326`).
    let head = &buf[i.min(limit)..limit.min(i + 6)];
    !(head.get(..4).is_some_and(|h| h.eq_ignore_ascii_case(b"urn:")) || head.eq_ignore_ascii_case(b"urn%3a"))
        && (item.contains(&b':') || item.windows(3).any(|w| w.eq_ignore_ascii_case(b"%3a")))
}

/// Whether the URN at `start` is in a segment of a path: back from it,
/// over the URN characters a segment holds (RFC 3986 section 3.3's pchar,
/// less the quote, brackets and `*` prose puts around a URN; at most 256
/// bytes), a `/` comes (`/c2pa/urn:...`, `/c2pa/contentauth:urn:...`),
/// not a space, a quote or a bracket.
fn in_path_segment(buf: &[u8], start: usize) -> bool {
    buf[start.saturating_sub(256)..start]
        .iter()
        .rev()
        .find(|&&b| !is_urn_char(b) || matches!(b, b'/' | b'\'' | b'(' | b')' | b'*' | b'?' | b'#'))
        == Some(&b'/')
}

/// The length of the run of emphasis tags at `i` (`<b>`, `</b>`,
/// `<strong>`, `<span ...>` and their end tags, at most four, each within
/// 256 bytes) when a URN character follows it: the markup inside a URN on an
/// HTML page or in Javadoc. (`<i>`, `<em>` and `<var>` after a part's
/// separator mark a fill-in instead, [`bracketed_fill_in`].)
fn inline_markup(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
    let mut at = i;
    for _ in 0..4 {
        let rest = &buf[at..limit.min(at + 256)];
        let close = usize::from(rest.get(1) == Some(&b'/'));
        let name_len = rest[1 + close..]
            .iter()
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        let name = &rest[1 + close..1 + close + name_len];
        if ![&b"b"[..], b"strong", b"span"]
            .iter()
            .any(|t| name.eq_ignore_ascii_case(t))
        {
            return None;
        }
        let end = rest.iter().position(|&b| b == b'>')?;
        // Attributes only on a start tag, and no line break or other tag
        // among them.
        let attributes = &rest[1 + close + name_len..end];
        let well_formed = attributes.is_empty() || close == 0 && is_space(attributes[0]);
        if !well_formed || attributes.contains(&b'<') {
            return None;
        }
        at += end + 1;
        match buf.get(at).filter(|_| at < limit) {
            Some(b'<') => continue,
            Some(&c) if is_urn_char(c) => return Some(at - i),
            _ => return None,
        }
    }
    None
}

/// An XSLT instruction that writes a computed value at `i`, right after
/// a URN's text (XSLT 3.0 sections 11.4.2, 5.7.1, 10.1, 11.9.1, 11.4.1:
/// `<xsl:value-of`, `<xsl:apply-templates`, `<xsl:call-template`,
/// `<xsl:copy-of`, `<xsl:text`): the literal text is a template's start,
/// as `{$x}` in an attribute value template is
/// (`<dc:identifier>urn:nbn:de:gbv:089-<xsl:value-of select="."/>`).
fn xslt_instruction(buf: &[u8], i: usize, limit: usize) -> bool {
    let Some(name) = buf[i..limit.min(i + 24)].strip_prefix(b"<xsl:") else {
        return false;
    };
    [
        &b"value-of"[..],
        b"apply-templates",
        b"call-template",
        b"copy-of",
        b"text",
    ]
    .iter()
    .any(|instruction| {
        name.starts_with(instruction)
            && name
                .get(instruction.len())
                .is_some_and(|&b| is_space(b) || matches!(b, b'/' | b'>'))
    })
}

/// A variable's element right after a URN's text, at `i`: HTML's `<var>`
/// (HTML Living Standard 4.5.17) and DITA's `<var>` in a module's
/// description (DITA 1.3,
/// `<rngMod>urn:pubid:oasis:names:tc:dita:rng:topicMod.rng<var presep=":" name="ditaver"/>`),
/// which a processor fills in: what comes before is a URN's first part.
fn var_element(buf: &[u8], i: usize, limit: usize) -> bool {
    buf[i..limit.min(i + 5)]
        .get(..4)
        .is_some_and(|tag| tag.eq_ignore_ascii_case(b"<var"))
        && buf
            .get(i + 4)
            .filter(|_| i + 4 < limit)
            .is_some_and(|&b| is_space(b) || matches!(b, b'/' | b'>'))
}

/// A server page's or a template's code right after a URN's text, at
/// `i`: `<%` (ASP, JSP, ERB, EJS: `<dc:identifier>urn:example:book:<%= id %>`)
/// or PHP's `<?php`, `<?=` and short `<? ` (PHP manual, "PHP tags"). The
/// literal text is a template's start, as before `<xsl:value-of` (it gave
/// the text before, `urn:example:book`). (An XML declaration or processing
/// instruction, `<?xml`, is markup.)
fn scriptlet(buf: &[u8], i: usize, limit: usize) -> bool {
    let rest = &buf[i..limit.min(i + 6)];
    rest.starts_with(b"<%")
        || rest.len() >= 5 && rest[..5].eq_ignore_ascii_case(b"<?php")
        || rest.starts_with(b"<?=")
        || rest.starts_with(b"<? ")
}

/// A shell's command substitution in the backquoted form right after a
/// URN's separator, at `i` (POSIX.1 XCU 2.6.3: `` `command` ``, which the
/// shell replaces with the command's output: `UID:urn:example:ev:`uuidgen``,
/// an iCalendar file written by a script): a `:`, `-`, `/`, `.`, `_`, `=`
/// or `@` before the backquote, a command's first character after it
/// (a letter, `$`, `/` or `.`) and the closing backquote on the line. The
/// text is a template (it gave the text before, `urn:example:ev`). A
/// Markdown code span's closing backquote after a URN has a space or
/// punctuation after it, no command.
fn command_substitution(buf: &[u8], i: usize, limit: usize) -> bool {
    i > 0
        && matches!(buf[i - 1], b':' | b'-' | b'/' | b'.' | b'_' | b'=' | b'@')
        && buf
            .get(i + 1)
            .filter(|_| i + 1 < limit)
            .is_some_and(|&b| b.is_ascii_alphabetic() || matches!(b, b'$' | b'/' | b'.'))
        && buf[i + 1..limit.min(i + 256)]
            .iter()
            .take_while(|&&b| b != b'\n' && b != b'\r')
            .any(|&b| b == b'`')
}

/// Swift's string interpolation right after a URN's separator, at `i`:
/// `\(` then an expression and `)` on the line (The Swift Programming
/// Language, "String Interpolation": `"urn:example:thing:\(id)"`). The
/// literal is a template. A longer expression is already refused as a
/// regex's escaped `\(` ([`is_pattern`]); this is the one of two letters or
/// digits, `\(id)`, which a manual page's troff special character
/// (`\(dq`, groff_char(7)) also has: that one closes a quote after a
/// URN's last letter or digit (`\(dqurn:x:y\(dq`) or a sentence's `.`,
/// not after a part's separator (it gave `urn:example:thing`). After a
/// `.` it is one in a literal a `"` opens right before `urn`
/// (`"urn:example:thing:v1.\(n)"`), a quote no manual page writes so.
fn swift_interpolation(buf: &[u8], i: usize, limit: usize, open: Option<u8>) -> bool {
    i > 0
        && (matches!(buf[i - 1], b':' | b'-' | b'/' | b'_' | b'=' | b'@' | b'#')
            || buf[i - 1] == b'.' && open == Some(b'"'))
        && buf.get(i + 1) == Some(&b'(')
        && buf[i + 2..limit.min(i + 256)]
            .iter()
            .take_while(|&&b| b != b'\n' && b != b'\r' && b != b'"')
            .any(|&b| b == b')')
}

/// The first place from `i` on (before `stop`) that holds no space or tab.
fn past_blanks(buf: &[u8], mut i: usize, stop: usize) -> usize {
    while i < stop && matches!(buf[i], b' ' | b'\t') {
        i += 1;
    }
    i
}

/// The length of the line break at `i` (CRLF or LF), before `limit`.
fn line_break_at(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
    match buf.get(i..limit.min(i + 2))? {
        [b'\r', b'\n'] => Some(2),
        [b'\n', ..] => Some(1),
        _ => None,
    }
}

/// Where the line starts of the URN at `start`, written right after a
/// `:`, when that line is an iCalendar or vCard content line
/// (RFC 5545 section 3.1, RFC 6350 section 3.3: `name *(";" param) ":"
/// value`, the URN its value): a property's name first on the line (an
/// upper-case letter, then upper-case letters, digits and `-`) and a `;`
/// or `:` after it, `ORGANIZER;CN=...:urn:uuid:...`; or one space or tab
/// first, a folded line's continuation (` CCEPTED:urn:uuid:...`).
fn calendar_value(buf: &[u8], start: usize) -> Option<usize> {
    let from = start.saturating_sub(100);
    let line = match memchr::memrchr(b'\n', &buf[from..start]) {
        Some(n) => from + n + 1,
        None if from == 0 => 0,
        None => return None,
    };
    let head = &buf[line..start];
    let shaped = match head {
        [b' ' | b'\t', c, ..] => !is_space(*c),
        [c, ..] if c.is_ascii_uppercase() => {
            let name = head
                .iter()
                .take_while(|&&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-')
                .count();
            matches!(head.get(name), Some(b';' | b':'))
        }
        _ => false,
    };
    shaped.then_some(line)
}

/// The length of a folded line's break at `i` (CRLF or LF, then one
/// space or tab) when a URN character goes on after it.
fn fold(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
    let line_end = line_break_at(buf, i, limit)?;
    let after = i + line_end;
    (after + 1 < limit && matches!(buf[after], b' ' | b'\t') && is_urn_char(buf[after + 1]))
        .then_some(line_end + 1)
}

/// The length of a `<wbr>` tag at `i` (`<wbr>`, `<wbr/>`, `<wbr />`, in
/// any letter case) when a URN character follows it.
fn wbr_tag(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
    let rest = &buf[i..limit.min(i + 8)];
    if !rest
        .get(1..4)
        .is_some_and(|name| name.eq_ignore_ascii_case(b"wbr"))
    {
        return None;
    }
    let len = [&b">"[..], b"/>", b" />"]
        .iter()
        .find(|close| rest[4..].starts_with(close))
        .map(|close| 4 + close.len())?;
    buf.get(i + len)
        .filter(|&&c| i + len < limit && is_urn_char(c))
        .map(|_| len)
}

/// The length of `[word]` at `i` (letters, digits, `_`, `-`, `.`; at
/// most 48, or none) when a URN character or the quote `open` follows it.
fn quoted_index(buf: &[u8], i: usize, limit: usize, open: Option<u8>) -> Option<usize> {
    let word = buf[i + 1..limit.min(i + 50)]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        .count();
    let close = i + 1 + word;
    let after = buf.get(close + 1).filter(|_| close + 1 < limit).copied();
    (word <= 48
        && buf.get(close) == Some(&b']')
        && close < limit
        && after.is_some_and(|c| Some(c) == open || is_urn_char(c)))
    .then_some(word + 2)
}

/// The length of a GUID in braces, `{8-4-4-4-12 hex digits}`.
const BRACED_GUID: usize = 38;

/// Whether `buf[i..]` starts with a GUID in braces.
fn braced_guid(buf: &[u8], i: usize, limit: usize) -> bool {
    buf.get(i..i + BRACED_GUID)
        .filter(|_| i + BRACED_GUID <= limit)
        .is_some_and(|g| {
            g[0] == b'{'
                && g[BRACED_GUID - 1] == b'}'
                && g[1..BRACED_GUID - 1].iter().enumerate().all(|(k, &c)| {
                    if matches!(k, 8 | 13 | 18 | 23) {
                        c == b'-'
                    } else {
                        c.is_ascii_hexdigit()
                    }
                })
        })
}

/// Whether the URN at `start` is in the path of an `http://` or
/// `https://` URL, below its first segment: the text before it, back to a
/// space, quote or angle bracket (at most 512 bytes), holds one and a
/// segment before the URN's (`http://host/collections/urn:...`). A URN
/// right after the host is a resolver's (`https://nbn-resolving.org/urn:nbn:...`,
/// which takes the rest of the path as the URN). So is one in a reference
/// to a path on the same host (RFC 3986 section 4.2), below its first
/// segment: `href="/library/urn:cts:...:perseus-eng1/json/"`, or after
/// `//host/`.
fn in_web_url(buf: &[u8], start: usize) -> bool {
    let floor = start.saturating_sub(512);
    let from = buf[floor..start]
        .iter()
        .rposition(|&b| b.is_ascii_whitespace() || matches!(b, b'"' | b'\'' | b'<' | b'>' | b'(' | b'`'))
        .map_or(floor, |i| floor + i + 1);
    let token = &buf[from..start];
    if token.starts_with(b"/") {
        // A segment before the URN's: `/a/` (two '/'s), `//host/a/` (two
        // after the host).
        let (path, slashes) = match token.strip_prefix(b"//") {
            Some(after_host) => (after_host, 2),
            None => (&token[1..], 1),
        };
        return memchr::memchr_iter(b'/', path).count() >= slashes;
    }
    // The URL may follow a `name=` or `name:` in the same token.
    memchr::memmem::find(token, b"://").is_some_and(|at| {
        let head = &token[..at];
        let name_start = head
            .iter()
            .rposition(|b| !b.is_ascii_alphabetic())
            .map_or(0, |i| i + 1);
        let name = &head[name_start..];
        (name.eq_ignore_ascii_case(b"http") || name.eq_ignore_ascii_case(b"https"))
            && memchr::memchr_iter(b'/', &token[at + 3..]).count() >= 2
    })
}

/// The URN at `start` is a value in a URL's query: `?name=` or `&name=`
/// (`&amp;name=` in HTML) right before it (RFC 3986 section 3.4, the
/// `application/x-www-form-urlencoded` pairs of the WHATWG URL standard).
fn query_value(buf: &[u8], start: usize) -> bool {
    let Some(eq) = value_start(buf, start) else {
        return false;
    };
    let floor = eq.saturating_sub(64);
    let mut k = eq;
    while k > floor && is_param_name(buf[k - 1]) {
        k -= 1;
    }
    k < eq
        && k > 0
        && matches!(buf[k - 1], b'?' | b'&' | b';')
        && (buf[k - 1] != b';' || buf[..k].ends_with(b"&amp;"))
}

/// The `+` before `start` is a space between words of a URL's query value
/// (`application/x-www-form-urlencoded`, the WHATWG URL Standard section
/// 5.1): back over the value's words and `+`s (at most [`MAX_LIST`]
/// bytes, no `=`, `&`, `?`, `#` or `;`), a `name=` after `?` or `&`
/// (`?query=urn%3Aietf%3Arfc%3A8141+OR+urn%3Aietf%3Arfc%3A2141`).
fn later_query_word(buf: &[u8], start: usize) -> bool {
    let before = start - 1;
    let floor = before.saturating_sub(MAX_LIST);
    let mut k = before;
    while k > floor && is_urn_char(buf[k - 1]) && !matches!(buf[k - 1], b'=' | b'&' | b';' | b'?' | b'#') {
        k -= 1;
    }
    k > floor && buf[k - 1] == b'=' && query_value(buf, k)
}

/// The URN at `start` is a `name=` pair's value, or in one as an item of
/// a list (`bbox=44.79,-6.17,68.41,17.92,urn:ogc:def:crs:EPSG::4326`):
/// `name=` before it, the name not glued to a word or path before it (a
/// pair may open a call's arguments or be another pair's value: Apache
/// Camel's `?node=RAW(nsu=urn:foo:bar;s=item-1)`, an OPC UA NodeId).
fn pair_value(buf: &[u8], start: usize) -> bool {
    let Some(eq) = value_start(buf, start) else {
        return false;
    };
    let floor = eq.saturating_sub(64);
    let mut k = eq;
    while k > floor && is_param_name(buf[k - 1]) {
        k -= 1;
    }
    k < eq
        && (k == 0
            // A UTF-8 byte-order mark is no character of the text.
            || k == 3 && buf.starts_with(b"\xEF\xBB\xBF")
            || !(is_urn_char(buf[k - 1]) || buf[k - 1] >= 0x80)
            || matches!(buf[k - 1], b',' | b';' | b'&' | b'?' | b'(' | b'=')
            || opening_apostrophe(buf, k - 1))
}

/// The apostrophe at `i` opens a single-quoted string: nothing glued to
/// it before (a space, a bracket, `=`, `:`, the start), as a shell word
/// (POSIX.1 XCU 2.2.2: `curl -d 'id=urn:...&request=x'`), a Python or
/// JavaScript literal (`body: 'grant_type=urn:...&scope=x'`) opens; an
/// apostrophe written on to a letter or digit is the text's
/// (`it's=`).
fn opening_apostrophe(buf: &[u8], i: usize) -> bool {
    buf[i] == b'\'' && (i == 0 || !(buf[i - 1].is_ascii_alphanumeric() || buf[i - 1] >= 0x80))
}

/// The `=` of the `name=` whose value holds the URN at `start`: right
/// before it, or before the list of items it is a later one of
/// (`bbox=44.79,-6.17,68.41,17.92,urn:ogc:def:crs:EPSG::4326`,
/// `recordIds=urn:uuid:...,urn:uuid:...`: the items before it, up to
/// [`MAX_LIST`] bytes, are URN characters but `=`, `&`, `;`, `?` and `#`,
/// and the one right before it ends in `,`).
fn value_start(buf: &[u8], start: usize) -> Option<usize> {
    let before = start.checked_sub(1)?;
    match buf[before] {
        b'=' => Some(before),
        b',' => {
            let floor = before.saturating_sub(MAX_LIST);
            let mut k = before;
            while k > floor
                && is_urn_char(buf[k - 1])
                && !matches!(buf[k - 1], b'=' | b'&' | b';' | b'?' | b'#')
            {
                k -= 1;
            }
            (k > floor && buf[k - 1] == b'=').then(|| k - 1)
        }
        _ => None,
    }
}

/// The most bytes of a `name=` value's list before a URN in it that
/// [`value_start`] reads back over (a WCS 1.1 `BOUNDINGBOX` of four
/// coordinates at full precision and its CRS is about 80).
const MAX_LIST: usize = 512;

/// Where the next pair would start after the `&` at `i` and any more `&`
/// right after it (an empty pair, `&&WIDTH=512`).
fn past_ampersands(buf: &[u8], i: usize, limit: usize) -> usize {
    let mut j = i + 1;
    while j < limit && buf[j] == b'&' {
        j += 1;
    }
    j
}

/// Whether an apostrophe written as an escape or a reference (`\u0027`,
/// `\'`, `&#39;`, `&#x27;`, `&apos;`) is right before `start`: it opens the
/// URN as a written one does, and the same written again ends it (a
/// FHIRPath message in JSON: `(\u0027urn:oid:1.2\u0027,\u0027urn:oid:1.3\u0027)`).
fn escaped_apostrophe_before(buf: &[u8], start: usize) -> bool {
    let head = &buf[..start];
    [&b"\\u0027"[..], b"\\'", b"&#39;", b"&#039;", b"&#x27;", b"&apos;"]
        .iter()
        .any(|form| head.len() >= form.len() && head[head.len() - form.len()..].eq_ignore_ascii_case(form))
}

/// A query's next pair starts at `i`: a name (a letter or `_` first) and
/// its `=`.
fn next_pair(buf: &[u8], i: usize, limit: usize) -> bool {
    let rest = &buf[i.min(limit)..limit.min(i + 65)];
    let name = rest.iter().take_while(|&&b| is_param_name(b)).count();
    name > 0 && (rest[0].is_ascii_alphabetic() || rest[0] == b'_') && rest.get(name) == Some(&b'=')
}

/// After spaces or tabs from `i`, a line break, then (after indentation)
/// a query's next pair.
fn pair_on_next_line(buf: &[u8], i: usize, limit: usize) -> bool {
    let stop = limit.min(i + 128);
    let k = past_blanks(buf, i, stop);
    let Some(n) = line_break_at(buf, k, stop) else {
        return false;
    };
    next_pair(buf, past_blanks(buf, k + n, stop), limit)
}

/// The quoted value the URN at `start` opens is a Go struct tag's
/// (reflect.StructTag: `` `key:"value" key2:"value2"` ``, each key letters,
/// digits and `_`): a key and `:` right before the quote, and a backquote
/// before the key, or a space and an earlier key's value on the line.
fn struct_tag_value(buf: &[u8], start: usize) -> bool {
    if start < 4 || buf[start - 2] != b':' {
        return false;
    }
    let colon = start - 2;
    let floor = colon.saturating_sub(32);
    let mut k = colon;
    while k > floor && (buf[k - 1].is_ascii_alphanumeric() || buf[k - 1] == b'_') {
        k -= 1;
    }
    if k == colon || k == 0 {
        return false;
    }
    match buf[k - 1] {
        b'`' => true,
        b' ' => {
            let line = &buf[k.saturating_sub(512)..k];
            let line = &line[line.iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1)..];
            memchr::memchr(b'`', line).is_some() && line.trim_ascii_end().ends_with(b"\"")
        }
        _ => false,
    }
}

/// A struct tag's option at `i`, after the name's `,`: one an encoder of
/// Go's takes (encoding/json's `omitempty`, `omitzero`, `string`;
/// encoding/xml's `attr`, `chardata`, `cdata`, `innerxml`, `comment`,
/// `any`; yaml's `flow`, `inline`; bson's `minsize`, `truncate`;
/// mapstructure's `squash`, `remain`), then `,` or the closing quote.
fn tag_option(buf: &[u8], i: usize, limit: usize) -> bool {
    const OPTIONS: [&[u8]; 15] = [
        b"omitempty",
        b"omitzero",
        b"string",
        b"inline",
        b"flow",
        b"attr",
        b"chardata",
        b"cdata",
        b"innerxml",
        b"comment",
        b"any",
        b"minsize",
        b"truncate",
        b"squash",
        b"remain",
    ];
    let rest = &buf[i.min(limit)..limit.min(i + 16)];
    let word = rest.iter().take_while(|b| b.is_ascii_lowercase()).count();
    matches!(rest.get(word), Some(b',' | b'"')) && OPTIONS.contains(&&rest[..word])
}

/// A bare option at `i` in a list of them: a name (a letter or `_`, then
/// letters, digits and `_`) and a `,` after it (`uniqueItems,`).
fn next_flag(buf: &[u8], i: usize, limit: usize) -> bool {
    let rest = &buf[i.min(limit)..limit.min(i + 65)];
    let name = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    name > 0 && (rest[0].is_ascii_alphabetic() || rest[0] == b'_') && rest.get(name) == Some(&b',')
}

/// A `+` or `=` right before `start` opens inline code, not glued to a
/// word before it (a space, a tab, a line's start, `(` or `[` before it),
/// and closes on the same line after a URN character (`+` then a space,
/// punctuation or the line's end): RDoc's and AsciiDoc's monospace,
/// `+urn:isbn:0451450523+` (Ruby's URI documentation), and Org's
/// verbatim, `=urn:isbn:0451450523=`. The mark is no part of the URN.
fn inline_code_mark(buf: &[u8], start: usize) -> bool {
    let Some(mark @ (b'+' | b'=')) = start.checked_sub(1).map(|i| buf[i]) else {
        return false;
    };
    if start >= 2 && !matches!(buf[start - 2], b' ' | b'\t' | b'\n' | b'\r' | b'(' | b'[') {
        return false;
    }
    let line = &buf[start..buf.len().min(start + 1024)];
    let line = &line[..memchr::memchr2(b'\n', b'\r', line).unwrap_or(line.len())];
    let run = line.iter().take_while(|&&b| is_urn_char(b)).count();
    // The closing mark is the run's last one, or one before punctuation.
    let body = without_closing_punctuation(&line[..run]);
    body.len() > 5 && body[body.len() - 1] == mark && body[body.len() - 2] != mark
}

/// `text` without the sentence punctuation and `)` that end it: where a
/// closing mark (`_`, `+`, `=`) written on to a URN would stand.
fn without_closing_punctuation(text: &[u8]) -> &[u8] {
    let end = text
        .iter()
        .rposition(|&b| !matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?' | b')'))
        .map_or(0, |k| k + 1);
    &text[..end]
}

/// How many `_` open Markdown emphasis right before `start`: a run of one
/// to three not glued to a word before it (CommonMark 6.2: a
/// left-flanking run; `my_urn:` is a name), else 0.
fn emphasis_underscores(buf: &[u8], start: usize) -> usize {
    let run = buf[..start].iter().rev().take_while(|&&b| b == b'_').count();
    let before = start - run;
    if run == 0 || run > 3 || (before > 0 && is_word(buf[before - 1])) {
        return 0;
    }
    run
}

/// Another URI starts at `i`: `urn:` with a NID-shaped word and its colon
/// (RFC 8141 section 2, any letter case), or `scheme://` (RFC 3986
/// section 3).
fn starts_uri(buf: &[u8], i: usize, limit: usize) -> bool {
    let rest = &buf[i.min(limit)..limit.min(i + 40)];
    if rest.len() >= 4 && rest[..4].eq_ignore_ascii_case(b"urn:") {
        return starts_urn(buf, i, limit);
    }
    let scheme = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        .count();
    scheme > 0 && rest[0].is_ascii_alphabetic() && rest[scheme..].starts_with(b"://")
}

/// `urn:` (any letter case) with a NID-shaped word and its colon starts
/// at `i` (RFC 8141 section 2).
fn starts_urn(buf: &[u8], i: usize, limit: usize) -> bool {
    let rest = &buf[i.min(limit)..limit.min(i + 40)];
    if rest.len() < 4 || !rest[..4].eq_ignore_ascii_case(b"urn:") {
        return false;
    }
    let nid = rest[4..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-')
        .count();
    (1..=32).contains(&nid) && rest.get(4 + nid) == Some(&b':')
}

/// A YANG statement starts at `i`: a keyword of those that follow a
/// module's `namespace` (RFC 7950 section 7.1: its header, linkage, meta,
/// revision and body statements), then whitespace, `{` or `"`.
fn yang_statement(buf: &[u8], i: usize, limit: usize) -> bool {
    const KEYWORDS: [&[u8]; 26] = [
        b"prefix",
        b"yang-version",
        b"import",
        b"include",
        b"organization",
        b"contact",
        b"description",
        b"reference",
        b"revision",
        b"extension",
        b"feature",
        b"identity",
        b"typedef",
        b"grouping",
        b"container",
        b"leaf",
        b"leaf-list",
        b"list",
        b"choice",
        b"anydata",
        b"anyxml",
        b"uses",
        b"augment",
        b"rpc",
        b"notification",
        b"deviation",
    ];
    let rest = &buf[i.min(limit)..limit.min(i + 14)];
    let word = rest
        .iter()
        .take_while(|b| b.is_ascii_lowercase() || **b == b'-')
        .count();
    matches!(rest.get(word), Some(&b) if is_space(b) || matches!(b, b'{' | b'"'))
        && KEYWORDS.contains(&&rest[..word])
}

/// An entry of OpenSSL's `subjectAltName` list starts at `i`: a
/// GeneralName's type and its colon (x509v3_config(5), "Subject
/// Alternative Name": `email:`, `URI:`, `DNS:`, `RID:`, `IP:`, `dirName:`,
/// `otherName:`, as OpenSSL spells them).
fn general_name(buf: &[u8], i: usize, limit: usize) -> bool {
    let rest = &buf[i.min(limit)..limit.min(i + 10)];
    [
        &b"email:"[..],
        b"URI:",
        b"DNS:",
        b"RID:",
        b"IP:",
        b"dirName:",
        b"otherName:",
    ]
    .iter()
    .any(|tag| rest.starts_with(tag))
}

/// An RFC 6570 expression at `i` that adds a query or a fragment to a
/// URI template (`{?ref}`, `{&ref}`, `{#frag}`, sections 3.2.8, 3.2.9 and
/// 3.2.4): the URN before it is literal and whole, as before a URL's `&`
/// (`?id=urn:cts:greekLit:tlg0012.tlg001.opp-grc{&ref}{&start}`, the DTS
/// API's own form). Other expressions (`{id}`, `{/id}`, `{.ext}`) fill
/// in the URN itself: a template.
fn query_expansion(buf: &[u8], i: usize, limit: usize) -> bool {
    matches!(buf.get(i + 1).filter(|_| i + 1 < limit), Some(b'?' | b'&' | b'#'))
        && buf
            .get(i + 2)
            .filter(|_| i + 2 < limit)
            .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
}

/// A macro name (C's `PRId64`, GLib's `G_GINT64_FORMAT`: a string literal
/// the preprocessor puts there) at `i`, after spaces: what follows a
/// literal that ends in the `%` of a conversion, `"urn:bnode:%"
/// G_GINT64_FORMAT` (C11 6.4.5: adjacent literals are one string).
fn macro_after(buf: &[u8], i: usize, limit: usize) -> bool {
    let j = past_spaces(buf, i, limit.min(i + 16));
    buf.get(j)
        .filter(|_| j < limit)
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
}

/// `urn%3A` (any letter case), or `urn:`, at `i`: another URN of a
/// percent-encoded list.
fn starts_encoded_urn(buf: &[u8], i: usize, limit: usize) -> bool {
    let rest = &buf[i.min(limit)..limit.min(i + 6)];
    rest.len() == 6 && rest.eq_ignore_ascii_case(b"urn%3a") || starts_urn(buf, i, limit)
}

/// The byte at `i` of a percent-encoded text, decoded: `%HH` or itself.
fn decoded_at(buf: &[u8], i: usize, limit: usize) -> Option<u8> {
    match buf.get(i).filter(|_| i < limit)? {
        b'%' => hex2(buf, i + 1, limit),
        &b => Some(b),
    }
}

/// The backslash at `i` is itself escaped (an odd run of backslashes
/// before it).
fn escaped_before(buf: &[u8], i: usize) -> bool {
    buf[..i].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}

/// Where the URN goes on after a backslash at `i` that ends a line (LF
/// or CRLF): past the next line's spaces and tabs, at a URN character;
/// `None` otherwise.
fn line_continuation(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
    let after = i + 1 + line_break_at(buf, i + 1, limit)?;
    let j = past_blanks(buf, after, limit);
    (j < limit && is_urn_char(buf[j])).then_some(j)
}

/// Where the URN goes on after the RFC 8792 fold at `i` (a `\` then a
/// line break): past the next line's spaces and, in the `'\\'` form, a
/// `\` (RFC 8792 sections 7.2.2 and 8.2.2), at a URN character.
fn rfc8792_unfold(buf: &[u8], i: usize, limit: usize, double: bool) -> Option<usize> {
    let after = i + 1 + line_break_at(buf, i + 1, limit)?;
    let mut j = past_blanks(buf, after, limit);
    if double {
        j = (j < limit && buf[j] == b'\\').then_some(j + 1)?;
    }
    // A template's expression, unfolded (`urn:ietf:params:scitt:\` then
    // `{message-type}:\`), is read as one.
    (j < limit && (is_urn_char(buf[j]) || buf[j] == b'{')).then_some(j)
}

/// `&name;` at `i` with a name of HTML's shape (a letter, then letters
/// and digits: two to 32 in all), known or not.
fn entity_shaped(buf: &[u8], i: usize, limit: usize) -> bool {
    let rest = &buf[i + 1..limit.min(i + 35)];
    let name = rest.iter().take_while(|b| b.is_ascii_alphanumeric()).count();
    (2..=32).contains(&name) && rest[0].is_ascii_alphabetic() && rest.get(name) == Some(&b';')
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

fn hex2(buf: &[u8], i: usize, limit: usize) -> Option<u8> {
    if i + 2 > limit {
        return None;
    }
    Some(hex(buf[i])? << 4 | hex(buf[i + 1])?)
}

/// How the URN's colon is written after `urn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Colon {
    /// `:`.
    Plain,
    /// `%3A`, in a URL: the rest is percent-decoded once.
    Percent,
    /// An entity reference (`&#58;`, `&colon;`) or a JSON escape
    /// (`\u003a`).
    Reference,
}

/// A character written as a reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decoded {
    Ascii(u8),
    Char(char),
}

/// The character an XML/HTML entity reference (`&amp;`, `&#58;`,
/// `&#xE9;`) or a JSON escape (`\/`, `\u003a`) at `i` stands for, and
/// the reference's length.
fn decode(buf: &[u8], i: usize, limit: usize) -> Option<(Decoded, usize)> {
    let (c, len) = match buf[i] {
        b'&' => entity(buf, i, limit)?,
        b'\\' => escape(buf, i, limit)?,
        _ => return None,
    };
    let decoded = match u8::try_from(c) {
        Ok(b) if b.is_ascii() => Decoded::Ascii(b),
        _ => Decoded::Char(char::from_u32(c)?),
    };
    Some((decoded, len))
}

/// An XML/HTML entity reference at `i`: its code point and length.
fn entity(buf: &[u8], i: usize, limit: usize) -> Option<(u32, usize)> {
    let rest = &buf[i + 1..limit.min(i + 35)];
    let semi = memchr::memchr(b';', rest)?;
    let c = match &rest[..semi] {
        [b'#', b'x' | b'X', digits @ ..] => number(digits, 16)?,
        [b'#', digits @ ..] => number(digits, 10)?,
        name => named(name)?,
    };
    Some((c, semi + 2))
}

/// The code point of an HTML named character reference (HTML Living
/// Standard 13.5, "Named character references"): the XML five, the
/// whitespace, punctuation and quotation marks prose puts next to an
/// identifier, and the Latin-1 letters (a letter written on to a URN is
/// held, as `&#233;` is). Names are case-sensitive.
pub(crate) fn named(name: &[u8]) -> Option<u32> {
    Some(match name {
        b"amp" | b"AMP" => 0x26,
        b"apos" => 0x27,
        b"quot" | b"QUOT" => 0x22,
        b"lt" | b"LT" => 0x3C,
        b"gt" | b"GT" => 0x3E,
        // Whitespace.
        b"Tab" => 0x09,
        b"NewLine" => 0x0A,
        b"nbsp" | b"NonBreakingSpace" => 0xA0,
        b"ensp" => 0x2002,
        b"emsp" => 0x2003,
        b"emsp13" => 0x2004,
        b"emsp14" => 0x2005,
        b"numsp" => 0x2007,
        b"puncsp" => 0x2008,
        b"thinsp" | b"ThinSpace" => 0x2009,
        b"hairsp" | b"VeryThinSpace" => 0x200A,
        b"ZeroWidthSpace" => 0x200B,
        b"zwnj" => 0x200C,
        b"zwj" => 0x200D,
        b"MediumSpace" => 0x205F,
        b"NoBreak" => 0x2060,
        b"shy" => 0xAD,
        // ASCII punctuation.
        b"excl" => 0x21,
        b"num" => 0x23,
        b"dollar" => 0x24,
        b"percnt" => 0x25,
        b"lpar" => 0x28,
        b"rpar" => 0x29,
        b"ast" | b"midast" => 0x2A,
        b"plus" => 0x2B,
        b"comma" => 0x2C,
        b"period" => 0x2E,
        b"sol" => 0x2F,
        b"colon" => 0x3A,
        b"semi" => 0x3B,
        b"equals" => 0x3D,
        b"quest" => 0x3F,
        b"commat" => 0x40,
        b"lsqb" | b"lbrack" => 0x5B,
        b"bsol" => 0x5C,
        b"rsqb" | b"rbrack" => 0x5D,
        b"Hat" => 0x5E,
        b"lowbar" | b"UnderBar" => 0x5F,
        b"grave" | b"DiacriticalGrave" => 0x60,
        b"lcub" | b"lbrace" => 0x7B,
        b"verbar" | b"vert" | b"VerticalLine" => 0x7C,
        b"rcub" | b"rbrace" => 0x7D,
        // Quotation marks, dashes and other punctuation.
        b"lsquo" | b"OpenCurlyQuote" => 0x2018,
        b"rsquo" | b"rsquor" | b"CloseCurlyQuote" => 0x2019,
        b"sbquo" | b"lsquor" => 0x201A,
        b"ldquo" | b"OpenCurlyDoubleQuote" => 0x201C,
        b"rdquo" | b"rdquor" | b"CloseCurlyDoubleQuote" => 0x201D,
        b"bdquo" | b"ldquor" => 0x201E,
        b"laquo" => 0xAB,
        b"raquo" => 0xBB,
        b"lsaquo" => 0x2039,
        b"rsaquo" => 0x203A,
        b"hyphen" | b"dash" => 0x2010,
        b"ndash" => 0x2013,
        b"mdash" => 0x2014,
        b"horbar" => 0x2015,
        b"dagger" => 0x2020,
        b"Dagger" | b"ddagger" => 0x2021,
        b"bull" | b"bullet" => 0x2022,
        b"hellip" | b"mldr" => 0x2026,
        b"prime" => 0x2032,
        b"Prime" => 0x2033,
        b"minus" => 0x2212,
        b"iexcl" => 0xA1,
        b"iquest" => 0xBF,
        b"cent" => 0xA2,
        b"pound" => 0xA3,
        b"curren" => 0xA4,
        b"yen" => 0xA5,
        b"brvbar" => 0xA6,
        b"sect" => 0xA7,
        b"copy" | b"COPY" => 0xA9,
        b"not" => 0xAC,
        b"reg" | b"REG" => 0xAE,
        b"deg" => 0xB0,
        b"plusmn" => 0xB1,
        b"para" => 0xB6,
        b"middot" | b"centerdot" => 0xB7,
        b"times" => 0xD7,
        b"divide" => 0xF7,
        b"euro" => 0x20AC,
        b"trade" | b"TRADE" => 0x2122,
        // Latin-1 letters.
        b"Agrave" => 0xC0,
        b"agrave" => 0xE0,
        b"Aacute" => 0xC1,
        b"aacute" => 0xE1,
        b"Acirc" => 0xC2,
        b"acirc" => 0xE2,
        b"Atilde" => 0xC3,
        b"atilde" => 0xE3,
        b"Auml" => 0xC4,
        b"auml" => 0xE4,
        b"Aring" => 0xC5,
        b"aring" => 0xE5,
        b"AElig" => 0xC6,
        b"aelig" => 0xE6,
        b"Ccedil" => 0xC7,
        b"ccedil" => 0xE7,
        b"Egrave" => 0xC8,
        b"egrave" => 0xE8,
        b"Eacute" => 0xC9,
        b"eacute" => 0xE9,
        b"Ecirc" => 0xCA,
        b"ecirc" => 0xEA,
        b"Euml" => 0xCB,
        b"euml" => 0xEB,
        b"Igrave" => 0xCC,
        b"igrave" => 0xEC,
        b"Iacute" => 0xCD,
        b"iacute" => 0xED,
        b"Icirc" => 0xCE,
        b"icirc" => 0xEE,
        b"Iuml" => 0xCF,
        b"iuml" => 0xEF,
        b"ETH" => 0xD0,
        b"eth" => 0xF0,
        b"Ntilde" => 0xD1,
        b"ntilde" => 0xF1,
        b"Ograve" => 0xD2,
        b"ograve" => 0xF2,
        b"Oacute" => 0xD3,
        b"oacute" => 0xF3,
        b"Ocirc" => 0xD4,
        b"ocirc" => 0xF4,
        b"Otilde" => 0xD5,
        b"otilde" => 0xF5,
        b"Ouml" => 0xD6,
        b"ouml" => 0xF6,
        b"Oslash" => 0xD8,
        b"oslash" => 0xF8,
        b"Ugrave" => 0xD9,
        b"ugrave" => 0xF9,
        b"Uacute" => 0xDA,
        b"uacute" => 0xFA,
        b"Ucirc" => 0xDB,
        b"ucirc" => 0xFB,
        b"Uuml" => 0xDC,
        b"uuml" => 0xFC,
        b"Yacute" => 0xDD,
        b"yacute" => 0xFD,
        b"THORN" => 0xDE,
        b"thorn" => 0xFE,
        b"szlig" => 0xDF,
        b"yuml" => 0xFF,
        _ => return None,
    })
}

fn number(digits: &[u8], radix: u32) -> Option<u32> {
    if digits.is_empty() || digits.len() > 7 {
        return None;
    }
    let mut value = 0u32;
    for &d in digits {
        value = value * radix + (d as char).to_digit(radix)?;
    }
    (value <= 0x10FFFF).then_some(value)
}

/// A JSON escape at `i`: `\/`, `\uXXXX`, or a surrogate pair of them; its
/// code point (a lone surrogate is none: `decode` refuses it) and length.
fn escape(buf: &[u8], i: usize, limit: usize) -> Option<(u32, usize)> {
    match buf.get(i + 1).filter(|_| i + 1 < limit)? {
        b'/' => Some((u32::from(b'/'), 2)),
        b'u' if i + 6 <= limit => {
            let unit = |at: usize| {
                Some(u32::from(hex2(buf, at, limit)?) << 8 | u32::from(hex2(buf, at + 2, limit)?))
            };
            let c = unit(i + 2)?;
            // A character past U+FFFF is a surrogate pair (RFC 8259
            // section 7): `\ud835\udc00` is one letter.
            if (0xD800..0xDC00).contains(&c)
                && buf.get(i + 6..i + 8) == Some(b"\\u")
                && let Some(low) = unit(i + 8).filter(|l| (0xDC00..0xE000).contains(l))
            {
                return Some((0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00), 12));
            }
            Some((c, 6))
        }
        _ => None,
    }
}

/// A character that, written on to a URN, belongs to it: a letter or a
/// digit of any script, or a combining mark.
fn is_glued(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

/// The length of the non-ASCII character at `i` when it is glued to the
/// URN before it ([`is_glued`]); a byte that starts no UTF-8 character
/// counts when it is a Latin-1 letter (a file in that encoding), else it
/// ends the URN too.
/// Whether `c` is an invisible break hint: a zero-width space (U+200B),
/// a soft hyphen (U+00AD) or a word joiner (U+2060), which typesetting
/// puts inside long names to say where a line may break (Unicode 15.0
/// section 23.2).
fn is_break_hint(c: char) -> bool {
    matches!(c, '\u{200B}' | '\u{00AD}' | '\u{2060}')
}

/// The length of the break hint ([`is_break_hint`]) written in UTF-8 at
/// `i`, if one is there.
fn break_hint(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
    let head = &buf[i..limit.min(i + 3)];
    ["\u{200B}", "\u{00AD}", "\u{2060}"]
        .iter()
        .map(|c| c.as_bytes())
        .find(|c| head.starts_with(c))
        .map(<[u8]>::len)
}

/// The length of a dash at `i` that stands for a hyphen-minus between
/// `before` and the byte after it ([`dash_for_hyphen`]).
fn typographic_dash(buf: &[u8], i: usize, limit: usize, before: Option<u8>) -> Option<usize> {
    let head = buf.get(i..i + 3).filter(|_| i + 3 < limit)?;
    let c = std::str::from_utf8(head).ok()?.chars().next()?;
    dash_for_hyphen(c, before?, buf[i + 3]).then_some(3)
}

/// A dash that stands for a hyphen-minus between `before` and `after`: a
/// hyphen (U+2010 HYPHEN, U+2011 NON-BREAKING HYPHEN) between ASCII
/// letters or digits, or a dash (U+2012 FIGURE DASH, U+2013 EN DASH,
/// U+2014 EM DASH, U+2212 MINUS SIGN) between digits, as in an ISBN's
/// parts; between words a dash is prose's punctuation (`urn:x:y—see`).
fn dash_for_hyphen(c: char, before: u8, after: u8) -> bool {
    match c {
        '\u{2010}' | '\u{2011}' => before.is_ascii_alphanumeric() && after.is_ascii_alphanumeric(),
        '\u{2012}'..='\u{2014}' | '\u{2212}' => before.is_ascii_digit() && after.is_ascii_digit(),
        _ => false,
    }
}

fn glued(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
    let head = &buf[i..limit.min(i + 4)];
    let text = match std::str::from_utf8(head) {
        Ok(text) => text,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or(""),
    };
    match text.chars().next() {
        Some(c) => is_glued(c).then(|| c.len_utf8()),
        None => (matches!(buf[i], 0xC0..=0xFF) && !matches!(buf[i], 0xD7 | 0xF7)).then_some(1),
    }
}
