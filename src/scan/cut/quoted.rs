//! A URN inside a string literal: whether the literal holds it whole, or
//! is one piece of a string being built, continued or concatenated (then
//! what it holds is a prefix, not a URN).

use super::*;

/// A byte that glues `urn` to the word before it (`xurn:`, `x-urn:`,
/// `a.urn:`): no word boundary, no URN.
pub(super) fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'-' | b'.')
}

pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0c')
}

/// The first byte from `i` on that is no space or line break, looking
/// at most as far as `stop`.
pub(super) fn past_spaces(buf: &[u8], mut i: usize, stop: usize) -> usize {
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
pub(super) fn joined_on(buf: &[u8], after_quote: usize) -> bool {
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
pub(super) fn joined_to_a_value(buf: &[u8], after_quote: usize, limit: usize) -> bool {
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
pub(super) fn starts_name(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn built_piece(buf: &[u8], open_quote: usize, after_quote: usize, limit: usize, last: u8) -> bool {
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
pub(super) fn ruby_append(buf: &[u8], after_quote: usize, limit: usize) -> bool {
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
pub(super) fn continued(buf: &[u8], quote: u8, open_end: bool, after_quote: usize, limit: usize) -> bool {
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
    if buf.get(i) == Some(&quote) && i < limit && starts_statement(buf, quote, i, limit) {
        return false;
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
pub(super) fn raw_string_close(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn opens_binary_or_heredoc(buf: &[u8], after_quote: usize, i: usize) -> bool {
    matches!(buf.get(i + 2), Some(b'"' | b'\''))
        && buf[after_quote..i].iter().any(|&b| matches!(b, b'\n' | b'\r'))
}

/// An EPC URI whose last field is empty, written as a final `.` after
/// digits: a 12-digit GS1 Company Prefix leaves a PGLN's, GINC's or
/// SGLN's reference empty (EPC Tag Data Standard, section 6:
/// `urn:epc:id:pgln:859839494502.`; a pattern's, `urn:epc:idpat:grai:1234567890.12.`).
/// The URN is whole, not a prefix a program completes.
pub(super) fn epc_empty_field(urn: &[u8]) -> bool {
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
pub(super) fn properties_continuation(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
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
pub(super) fn closes_on_the_line(buf: &[u8], i: usize, limit: usize) -> bool {
    let rest = &buf[i.min(limit)..limit.min(i + 256)];
    let line = &rest[..memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len())];
    memchr::memchr(b')', line).is_some()
}

/// A blank line comes next after `after`: a line break, spaces or tabs,
/// and another line break (no statement of a program goes on across one
/// after a literal in practice; a list's next item or a new paragraph
/// does: `+ crs : URI = "urn:ogc:def:crs:OGC::84"`, then a blank line and
/// `+ dimensions`, UML attributes in an OGC standard's text).
pub(super) fn blank_line_next(buf: &[u8], after: usize, limit: usize) -> bool {
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
pub(super) fn line_break_next(buf: &[u8], after: usize, limit: usize) -> bool {
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
pub(super) fn adjacent_on_next_line(buf: &[u8], quote: u8, after_quote: usize, limit: usize) -> bool {
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
        && !starts_statement(buf, quote, after_quote + k, limit)
}

/// The literal opening at `q` with `quote`, after one a URN runs to the
/// end of, starts something of its own rather than going on from it, as
/// adjacent literals join only in C, C++, Objective-C and Python inside
/// brackets (C11 6.4.5; the Python Language Reference 2.4.2); a line break
/// ends a value or a command in a shell (POSIX.1 XCU 2.3), YAML 1.2
/// (section 7.3), TOML and INI, and a statement in Python outside
/// brackets:
///
/// - a key and its value, the literal closed on its line and a `:` or
///   `=` after it (YAML's `"x-key": value`, TOML's `"b" = 1`, an INI or
///   `.env` line, a hash's `=>`);
/// - a command's word, the literal closed on its line, then a space and a
///   word (a shell's `"$BIN" --flag`), where adjacent literals take an
///   operator, a `,`, `)` or `;`, or another literal;
/// - a triple quote opening a literal of its own (a Python docstring).
pub(super) fn starts_statement(buf: &[u8], quote: u8, q: usize, limit: usize) -> bool {
    if buf.get(q..limit.min(q + 3)) == Some(&[quote; 3][..]) {
        return true;
    }
    let stop = limit.min(q + 512);
    let mut k = q + 1;
    while k < stop && buf[k] != quote {
        match buf[k] {
            b'\n' | b'\r' => return false,
            b'\\' => k += 2,
            _ => k += 1,
        }
    }
    if k >= stop {
        return false;
    }
    let after = k + 1;
    let j = past_blanks(buf, after, stop);
    match buf.get(j).filter(|_| j < stop) {
        Some(b':') => buf.get(j + 1) != Some(&b':'),
        Some(b'=') => buf.get(j + 1) != Some(&b'='),
        Some(&c) => j > after && (c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$')),
        None => false,
    }
}

/// At `i`, right after an `&amp;` that decoded to `&`, the name of a
/// reference to a quote or angle bracket and its `;` (`quot;`, `lt;`,
/// `#34;`, `#x3E;`): markup escaped twice, which ends a URN.
pub(super) fn escaped_delimiter(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn like_pattern(buf: &[u8], open_quote: usize) -> bool {
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
pub(super) fn last_word(text: &[u8]) -> Option<(&[u8], &[u8])> {
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
pub(super) fn concat_argument(
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
pub(super) fn prefix_test(buf: &[u8], open_quote: usize) -> bool {
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
pub(super) fn csv_source_row(buf: &[u8], start: usize, limit: usize) -> bool {
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
pub(super) fn builder_start(buf: &[u8], open_quote: usize, after_quote: usize, limit: usize) -> bool {
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
pub(super) fn attribute_value(buf: &[u8], start: usize) -> bool {
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
pub(super) fn escaped_quote_before(buf: &[u8], start: usize) -> bool {
    start >= 2 && matches!(buf[start - 1], b'"' | b'\'') && buf[start - 2] == b'\\'
}
