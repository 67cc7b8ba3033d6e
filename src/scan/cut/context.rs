//! What stands right before a URN, and what that makes of it: markup and
//! code elements, a web URL's path or query, a key's value, a diff's
//! marker, a mail header, a MARC line.

use super::*;

/// The `^` or `$` right before `start` separates values, not a regular
/// expression's anchor or a variable's sigil: a letter, digit, `^` or `&`
/// is written on to it before (HL7 v2's component separator,
/// `&ISO^urn:ihe:iti:xds:2013:uniqueId`, `^^^^urn:oid:...`; FHIR MHD's
/// `2013001$urn:ihe:iti:xds:2013:accession`). A pattern's `^` starts it
/// (`"^urn:`, `/^urn:`, `(^urn:`) and a variable's `$` follows no word.
pub(super) fn separator_before(buf: &[u8], start: usize) -> bool {
    start >= 2 && (buf[start - 2].is_ascii_alphanumeric() || matches!(buf[start - 2], b'^' | b'&'))
}

/// The byte before `start` ends an escape of a string literal (JSON,
/// C, Python, Java, JavaScript): `\n`, `\t`, `\u0020`, `\x20`; or a
/// percent-encoded byte that is no word character (`%20`, `%0A`): no word
/// is glued to `urn` then (`"line\nurn:isbn:..."`).
pub(super) fn after_escape(buf: &[u8], start: usize) -> bool {
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
pub(super) fn diff_marker_before(buf: &[u8], start: usize, indent: usize) -> bool {
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
pub(super) fn shell_default_before(buf: &[u8], start: usize) -> bool {
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
pub(super) fn csi_before(buf: &[u8], start: usize) -> bool {
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
pub(super) fn tex_verbatim_argument(buf: &[u8], start: usize) -> bool {
    let head = &buf[start.saturating_sub(12)..start];
    [&b"\\url{"[..], b"\\nolinkurl{", b"\\path{", b"\\href{"]
        .iter()
        .any(|command| head.ends_with(command))
}

/// Whether the start tag that ends right before `start` opens an element
/// of code in prose: HTML's `code`, `tt`, `samp` and `kbd` (HTML Living
/// Standard 4.5), DocBook's `code` and `literal`; attributes may follow
/// the name (`<code class="code">`).
pub(super) fn code_element_before(buf: &[u8], start: usize) -> bool {
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
pub(super) fn is_html_tag(name: &[u8]) -> bool {
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

/// The character right before `start` is a letter, digit or combining
/// mark of another script ([`is_glued`]): the last UTF-8 character ending
/// there, or a byte that is none read as Latin-1 (a letter: as [`glued`]
/// reads one after a URN).
pub(super) fn glued_before(buf: &[u8], start: usize) -> bool {
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
pub(super) fn marc_line(buf: &[u8], at: usize) -> bool {
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
pub(super) fn message_id_header(buf: &[u8], start: usize) -> bool {
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
pub(super) fn is_param_name(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// Whether the item of a comma-separated list at `i` holds a ':' before
/// its end (the next `,`, or a character no URN holds), looking at most
/// 128 bytes on, and is no `urn:...` of its own (one whose NID is no
/// NID, `urn:www.nesubl.eu:...`, is still another item).
pub(super) fn colon_in_next_item(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn in_path_segment(buf: &[u8], start: usize) -> bool {
    buf[start.saturating_sub(256)..start]
        .iter()
        .rev()
        .find(|&&b| !is_urn_char(b) || matches!(b, b'/' | b'\'' | b'(' | b')' | b'*' | b'?' | b'#'))
        == Some(&b'/')
}

/// Whether the URN at `start` is in the path of an `http://` or
/// `https://` URL, below its first segment: right after a `/`, and the
/// text before it, back to a space, quote or angle bracket (at most 512
/// bytes), holds one and a segment before the URN's
/// (`http://host/collections/urn:...`). A URN right after the host is a
/// resolver's (`https://nbn-resolving.org/urn:nbn:...`, which takes the
/// rest of the path as the URN). So is one in a reference to a path on
/// the same host (RFC 3986 section 4.2), below its first segment:
/// `href="/library/urn:cts:...:perseus-eng1/json/"`, or after `//host/`.
///
/// The URL is read as its text, as the URN is: its `/` and `:` may be
/// written as JSON's or a string literal's escapes (`https:\/\/host\/b\/urn:...`,
/// PHP's `json_encode`), XML/HTML references (`&#x2F;`, `&#47;`, `&sol;`,
/// `&quot;` around it) or percent-encoded, a whole URL carried in another's
/// query (`?tx_dlf%5Bid%5D=https%3A%2F%2Fhost%2Fdata%2Furn%3Anbn%3A...`).
/// The URL the URN is in is the last one before it.
pub(super) fn in_web_url(buf: &[u8], start: usize) -> bool {
    let floor = start.saturating_sub(512);
    let before = &buf[floor..start];
    // Only after a slash, or what may be one written otherwise (`&#x2F;`,
    // `%2F`, `\x2f`, `\u002f`).
    if !matches!(before.last(), Some(b'/' | b';' | b'F' | b'f')) {
        return false;
    }
    if !before.iter().any(|&b| matches!(b, b'\\' | b'&' | b'%')) {
        return web_url_path(before);
    }
    web_url_path(&decoded_text(before))
}

/// The text before a URN that [`in_web_url`] reads: ends in the `/`
/// before the URN, and the URL's scheme and segments before it.
fn web_url_path(before: &[u8]) -> bool {
    if before.last() != Some(&b'/') {
        return false;
    }
    let from = before
        .iter()
        .rposition(|&b| b.is_ascii_whitespace() || matches!(b, b'"' | b'\'' | b'<' | b'>' | b'(' | b'`'))
        .map_or(0, |i| i + 1);
    let token = &before[from..];
    if token.starts_with(b"/") {
        // A segment before the URN's: `/a/` (two '/'s), `//host/a/` (two
        // after the host).
        let (path, slashes) = match token.strip_prefix(b"//") {
            Some(after_host) => (after_host, 2),
            None => (&token[1..], 1),
        };
        return memchr::memchr_iter(b'/', path).count() >= slashes;
    }
    // The URL may follow a `name=` or `name:` in the same token, or be
    // a value in another URL's query.
    memchr::memmem::rfind(token, b"://").is_some_and(|at| {
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

/// `text` with its escapes and references read as the ASCII characters
/// they stand for (string literal escapes, XML/HTML references, and
/// percent-encoding), for [`web_url_path`]; any other character so written
/// is read as a letter, which neither delimits nor separates.
fn decoded_text(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        let decoded = match b {
            b'\\' if text.get(i + 1) == Some(&b'\\') => None,
            b'\\' | b'&' => decode(text, i, text.len()),
            b'%' => hex2(text, i + 1, text.len()).map(|c| (Decoded::Ascii(c), 3)),
            _ => None,
        };
        match decoded {
            Some((Decoded::Ascii(c), len)) => {
                out.push(c);
                i += len;
            }
            Some((Decoded::Char(_), len)) => {
                out.push(b'x');
                i += len;
            }
            // An escaped backslash is two characters of no escape.
            None if b == b'\\' && text.get(i + 1) == Some(&b'\\') => {
                out.extend_from_slice(b"\\\\");
                i += 2;
            }
            None => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

/// The URN at `start` is a value in a URL's query: `?name=` or `&name=`
/// (`&amp;name=` in HTML) right before it (RFC 3986 section 3.4, the
/// `application/x-www-form-urlencoded` pairs of the WHATWG URL standard).
pub(super) fn query_value(buf: &[u8], start: usize) -> bool {
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
pub(super) fn later_query_word(buf: &[u8], start: usize) -> bool {
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
pub(super) fn pair_value(buf: &[u8], start: usize) -> bool {
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
pub(super) fn opening_apostrophe(buf: &[u8], i: usize) -> bool {
    buf[i] == b'\'' && (i == 0 || !(buf[i - 1].is_ascii_alphanumeric() || buf[i - 1] >= 0x80))
}

/// The `=` of the `name=` whose value holds the URN at `start`: right
/// before it, or before the list of items it is a later one of
/// (`bbox=44.79,-6.17,68.41,17.92,urn:ogc:def:crs:EPSG::4326`,
/// `recordIds=urn:uuid:...,urn:uuid:...`: the items before it, up to
/// [`MAX_LIST`] bytes, are URN characters but `=`, `&`, `;`, `?` and `#`,
/// and the one right before it ends in `,`).
pub(super) fn value_start(buf: &[u8], start: usize) -> Option<usize> {
    let before = start.checked_sub(1)?;
    match buf[before] {
        b'=' => Some(before),
        // Quoted-printable's `=3D` (RFC 2045 section 6.7, rule 1), which
        // the cut takes for a boundary only in mail.
        b'D' | b'd' if start >= 3 && &buf[start - 3..start - 1] == b"=3" => Some(start - 3),
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
pub(super) const MAX_LIST: usize = 512;

/// Where the next pair would start after the `&` at `i` and any more `&`
/// right after it (an empty pair, `&&WIDTH=512`).
pub(super) fn past_ampersands(buf: &[u8], i: usize, limit: usize) -> usize {
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
pub(super) fn escaped_apostrophe_before(buf: &[u8], start: usize) -> bool {
    let head = &buf[..start];
    [&b"\\u0027"[..], b"\\'", b"&#39;", b"&#039;", b"&#x27;", b"&apos;"]
        .iter()
        .any(|form| head.len() >= form.len() && head[head.len() - form.len()..].eq_ignore_ascii_case(form))
}

/// A query's next pair starts at `i`: a name (a letter or `_` first) and
/// its `=`.
pub(super) fn next_pair(buf: &[u8], i: usize, limit: usize) -> bool {
    let rest = &buf[i.min(limit)..limit.min(i + 65)];
    let name = rest.iter().take_while(|&&b| is_param_name(b)).count();
    name > 0 && (rest[0].is_ascii_alphabetic() || rest[0] == b'_') && rest.get(name) == Some(&b'=')
}

/// After spaces or tabs from `i`, a line break, then (after indentation)
/// a query's next pair.
pub(super) fn pair_on_next_line(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn struct_tag_value(buf: &[u8], start: usize) -> bool {
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
pub(super) fn tag_option(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn next_flag(buf: &[u8], i: usize, limit: usize) -> bool {
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
pub(super) fn inline_code_mark(buf: &[u8], start: usize) -> bool {
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
