//! Text shaped like a URN that is not one yet: format conversions,
//! interpolations, build tokens, elisions and fill-ins, patterns and
//! regular expressions.

use super::*;

/// Whether `urn` holds a printf-style conversion (C, Go, Python, Java's
/// `String.format`: `%s`, `%d`, `%1$s`, `%-8v`, `%*d`, `%.*s`, `%lld`,
/// `%(name)s`) where a percent-encoding (`%HH`, RFC 3986 section 2.1) is
/// not.
pub(super) fn has_format_conversion(urn: &[u8]) -> bool {
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
pub(super) fn has_tilde_directive(urn: &[u8]) -> bool {
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
pub(super) fn format_call_before(buf: &[u8], open_quote: usize) -> bool {
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
pub(super) fn is_environment_variable(rest: &[u8]) -> bool {
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
pub(super) fn is_positional(rest: &[u8]) -> bool {
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
pub(super) fn is_conversion(rest: &[u8]) -> bool {
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
pub(super) fn has_interpolation(urn: &[u8], literal_dollar: bool) -> bool {
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
pub(super) fn ends_in_query_name(urn: &[u8]) -> bool {
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
pub(super) fn has_build_token(urn: &[u8]) -> bool {
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
pub(super) fn has_elision(urn: &[u8]) -> bool {
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
pub(super) fn bracketed_fill_in(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn x_filled(urn: &[u8]) -> bool {
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
pub(super) fn is_pattern(
    urn: &[u8],
    buf: &[u8],
    start: usize,
    end: usize,
    limit: usize,
    control_words: bool,
) -> bool {
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
pub(super) fn troff_long_name(rest: &[u8]) -> bool {
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
pub(super) fn unfinished_troff_escape(rest: &[u8]) -> bool {
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
pub(super) fn regex_literal(urn: &[u8], buf: &[u8], start: usize, text_end: usize) -> bool {
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
pub(super) fn opens_regex(buf: &[u8], slash: usize) -> bool {
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
pub(super) fn closes_regex_strictly(urn: &[u8], buf: &[u8], text_end: usize) -> bool {
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
pub(super) fn closes_regex(urn: &[u8]) -> bool {
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
pub(super) fn group_opened(before: &[u8]) -> bool {
    [&b"("[..], b"(?:", b"(?=", b"(?!", b"(?>", b"(?<=", b"(?<!"]
        .iter()
        .any(|opening| before.ends_with(opening))
}

/// `rest` starts with a regex bracket expression (POSIX.1 9.3.5): see
/// [`is_pattern`].
pub(super) fn bracket_expression(rest: &[u8]) -> bool {
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
