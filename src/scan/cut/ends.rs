//! What ends a URN in running text or code: closing punctuation, markup,
//! line breaks and folds, the next URI or flag.

use super::*;

/// The length of the run of emphasis tags at `i` (`<b>`, `</b>`,
/// `<strong>`, `<span ...>` and their end tags, at most four, each within
/// 256 bytes) when a URN character follows it: the markup inside a URN on an
/// HTML page or in Javadoc. (`<i>`, `<em>` and `<var>` after a part's
/// separator mark a fill-in instead, [`bracketed_fill_in`].)
pub(super) fn inline_markup(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
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
pub(super) fn xslt_instruction(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn var_element(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn scriptlet(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn command_substitution(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn swift_interpolation(buf: &[u8], i: usize, limit: usize, open: Option<u8>) -> bool {
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
pub(super) fn past_blanks(buf: &[u8], mut i: usize, stop: usize) -> usize {
    while i < stop && matches!(buf[i], b' ' | b'\t') {
        i += 1;
    }
    i
}

/// The length of the line break at `i` (CRLF or LF), before `limit`.
pub(super) fn line_break_at(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
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
pub(super) fn calendar_value(buf: &[u8], start: usize) -> Option<usize> {
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
pub(super) fn fold(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
    let line_end = line_break_at(buf, i, limit)?;
    let after = i + line_end;
    (after + 1 < limit && matches!(buf[after], b' ' | b'\t') && is_urn_char(buf[after + 1]))
        .then_some(line_end + 1)
}

/// The length of a `<wbr>` tag at `i` (`<wbr>`, `<wbr/>`, `<wbr />`, in
/// any letter case) when a URN character follows it.
pub(super) fn wbr_tag(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
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
pub(super) fn quoted_index(buf: &[u8], i: usize, limit: usize, open: Option<u8>) -> Option<usize> {
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
pub(super) const BRACED_GUID: usize = 38;

/// Whether `buf[i..]` starts with a GUID in braces.
pub(super) fn braced_guid(buf: &[u8], i: usize, limit: usize) -> bool {
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

/// `text` without the sentence punctuation and `)` that end it: where a
/// closing mark (`_`, `+`, `=`) written on to a URN would stand.
pub(super) fn without_closing_punctuation(text: &[u8]) -> &[u8] {
    let end = text
        .iter()
        .rposition(|&b| !matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?' | b')'))
        .map_or(0, |k| k + 1);
    &text[..end]
}

/// How many `_` open Markdown emphasis right before `start`: a run of one
/// to three not glued to a word before it (CommonMark 6.2: a
/// left-flanking run; `my_urn:` is a name), else 0.
pub(super) fn emphasis_underscores(buf: &[u8], start: usize) -> usize {
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
pub(super) fn starts_uri(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn starts_urn(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn yang_statement(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn general_name(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn query_expansion(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn macro_after(buf: &[u8], i: usize, limit: usize) -> bool {
    let j = past_spaces(buf, i, limit.min(i + 16));
    buf.get(j)
        .filter(|_| j < limit)
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
}

/// `urn%3A` (any letter case), or `urn:`, at `i`: another URN of a
/// percent-encoded list.
pub(super) fn starts_encoded_urn(buf: &[u8], i: usize, limit: usize) -> bool {
    let rest = &buf[i.min(limit)..limit.min(i + 6)];
    rest.len() == 6 && rest.eq_ignore_ascii_case(b"urn%3a") || starts_urn(buf, i, limit)
}

/// The byte at `i` of a percent-encoded text, decoded: `%HH` or itself.
pub(super) fn decoded_at(buf: &[u8], i: usize, limit: usize) -> Option<u8> {
    match buf.get(i).filter(|_| i < limit)? {
        b'%' => hex2(buf, i + 1, limit),
        &b => Some(b),
    }
}

/// The backslash at `i` is itself escaped (an odd run of backslashes
/// before it).
pub(super) fn escaped_before(buf: &[u8], i: usize) -> bool {
    buf[..i].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}

/// Where the URN goes on after a backslash at `i` that ends a line (LF
/// or CRLF): past the next line's spaces and tabs, at a URN character;
/// `None` otherwise.
pub(super) fn line_continuation(buf: &[u8], i: usize, limit: usize) -> Option<usize> {
    let after = i + 1 + line_break_at(buf, i + 1, limit)?;
    let j = past_blanks(buf, after, limit);
    (j < limit && is_urn_char(buf[j])).then_some(j)
}

/// Where the URN goes on after the RFC 8792 fold at `i` (a `\` then a
/// line break): past the next line's spaces and, in the `'\\'` form, a
/// `\` (RFC 8792 sections 7.2.2 and 8.2.2), at a URN character.
pub(super) fn rfc8792_unfold(buf: &[u8], i: usize, limit: usize, double: bool) -> Option<usize> {
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
pub(super) fn entity_shaped(buf: &[u8], i: usize, limit: usize) -> bool {
    let rest = &buf[i + 1..limit.min(i + 35)];
    let name = rest.iter().take_while(|b| b.is_ascii_alphanumeric()).count();
    (2..=32).contains(&name) && rest[0].is_ascii_alphabetic() && rest.get(name) == Some(&b';')
}

pub(super) fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

pub(super) fn hex2(buf: &[u8], i: usize, limit: usize) -> Option<u8> {
    if i + 2 > limit {
        return None;
    }
    Some(hex(buf[i])? << 4 | hex(buf[i + 1])?)
}
