//! Plain text out of the forms a registration template travels in
//! besides plain text, before the importer reads it: an HTML page (an
//! RFC as the IETF's tools render it, a mail archive's page), a mail
//! whose body is quoted-printable (RFC 2045 section 6.7, as the
//! `urn-nid` list archive keeps them), and a Markdown definition list
//! (kramdown's and mmark's `Term` / `: value`, the sources of
//! Internet-Drafts). Each is turned into the text it shows, and said in
//! a note: line numbers in later notes are those of that text.

use std::borrow::Cow;
use std::ops::Range;

use crate::urn::chars::hex_value;

/// What was done to the text, for the note that says so.
#[derive(Default)]
pub(crate) struct Unwrapped {
    /// The text to read.
    pub text: String,
    /// What form it was in and how it was read.
    pub how: String,
    /// The lines of `text` (0-based, end excluded) that each table of two
    /// columns was read into.
    pub tables: Vec<Range<usize>>,
    /// A Markdown definition list's terms, as written.
    pub terms: Vec<String>,
    /// The text was Markdown (a definition list, a pipe table).
    pub markdown: bool,
}

/// A text in the plain form the importer reads, and what was learnt of
/// its layout on the way.
#[derive(Default)]
pub(crate) struct Plain<'t> {
    /// The text to read.
    pub text: Cow<'t, str>,
    /// What was done to it, for notes.
    pub said: Vec<String>,
    /// The lines of `text` that each table of two columns was read into:
    /// a template a table holds whole ends with it.
    pub tables: Vec<Range<usize>>,
    /// A Markdown definition list's terms: each one is laid out as a
    /// heading, whether or not it names a field.
    pub terms: Vec<String>,
}

/// `text` in plain form, with what was done to it, or `text` itself; a
/// Markdown source's backslash escapes read last.
pub(crate) fn plain_text(text: &str) -> Plain<'_> {
    let mut plain = Plain {
        text: Cow::Borrowed(text),
        ..Plain::default()
    };
    let mut markdown = false;
    for step in [
        multipart as fn(&str) -> Option<Unwrapped>,
        base64_body,
        quoted_printable,
        pgp_cleartext,
        flowed,
        xml2rfc,
        xml2rfc_artwork,
        html,
        html_mail,
        definition_list,
        two_column_table,
    ] {
        if let Some(done) = step(&plain.text) {
            // A later step that moves lines moves the tables found before.
            if done.text.split('\n').count() != plain.text.split('\n').count() {
                plain.tables.clear();
            }
            plain.tables.extend(done.tables);
            plain.terms.extend(done.terms);
            markdown |= done.markdown;
            plain.said.push(done.how);
            plain.text = Cow::Owned(done.text);
        }
    }
    if (markdown || is_markdown(&plain.text))
        && let Some((text, read, chars)) = markdown_escapes(&plain.text)
    {
        plain.text = Cow::Owned(text);
        let shown: Vec<String> = chars.iter().map(|c| format!("\\{c}")).collect();
        plain.said.push(format!(
            "{read} Markdown backslash escape(s) ({}) read as the character they escape (CommonMark \
             section 2.4)",
            shown.join(" ")
        ));
    }
    plain
}

// ---------------------------------------------------------------------
// MIME multipart mails

/// How deep multiparts nest in a mail that is read (a `multipart/mixed`
/// holding a `multipart/alternative` is two).
const MAX_MULTIPART_DEPTH: usize = 4;

/// A MIME multipart mail (RFC 2046 section 5.1: `Content-Type:
/// multipart/alternative; boundary="..."`, as mail clients send a text
/// with its HTML copy, and list archives keep it): the mail with its
/// body replaced by its `text/plain` part (a part without a Content-Type
/// is one, RFC 2045 section 5.2), looked for inside nested multiparts
/// too, and that part's header lines (its Content-Type and
/// Content-Transfer-Encoding) in place of the mail's. Of several
/// `text/plain` parts (a covering note, then the template attached as
/// `rocket-template.txt`), the one whose text has headings for the most template
/// fields; the first on a tie. The other parts (the HTML alternative,
/// attachments) and the boundary lines are no text of the registration.
fn multipart(text: &str) -> Option<Unwrapped> {
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let block = super::import::mail_header_block(&lines)?;
    let headers = &lines[block.clone()];
    let (mut found, mut html) = (Vec::new(), Vec::new());
    let leaves = plain_parts(headers, &lines[block.end..], 0, &mut found, &mut html)?;
    // A mail sent as HTML only: its first text/html part, read as a page
    // later ([`html_mail`]).
    let only_html = found.is_empty();
    if only_html {
        found.extend(html.first());
    }
    let chosen = template_part(&found)?;
    let part = found[chosen];
    let mut out: Vec<&str> = lines[..block.start].to_vec();
    // The mail's own headers but those the part's replace (and their
    // folded lines).
    let mut replaced = false;
    for line in headers {
        if !line.starts_with([' ', '\t']) {
            replaced = line.split_once(':').is_some_and(|(name, _)| {
                let name = name.trim();
                name.eq_ignore_ascii_case("content-type")
                    || name.eq_ignore_ascii_case("content-transfer-encoding")
            });
        }
        if !replaced {
            out.push(line);
        }
    }
    out.extend(part);
    let how = if only_html {
        format!(
            "the mail is MIME multipart (RFC 2046 section 5.1) with no text/plain part: its text/html part \
             read, {} other part(s) and the boundary lines left out",
            leaves - 1
        )
    } else if found.len() > 1 {
        format!(
            "the mail is MIME multipart (RFC 2046 section 5.1): of its {} text/plain parts, part {} \
             read (the one that holds the template), the {} other part(s) and the boundary lines left out",
            found.len(),
            chosen + 1,
            leaves - 1
        )
    } else {
        format!(
            "the mail is MIME multipart (RFC 2046 section 5.1): its text/plain part read, {} other \
             part(s) (an HTML alternative, attachments) and the boundary lines left out",
            leaves - 1
        )
    };
    Some(Unwrapped {
        text: out.join("\n"),
        how,
        ..Unwrapped::default()
    })
}

/// How many `text/plain` parts of a mail are read to find the one that
/// holds the template.
const MAX_PLAIN_PARTS: usize = 16;

/// The `text/plain` parts of a multipart body (`body`, below the header
/// block `headers`), each its header lines and body, in order and inside
/// nested multiparts, into `found` (at most [`MAX_PLAIN_PARTS`]); how many
/// parts that are no multipart it holds in all. `None` when `headers`
/// are no multipart's, or no `text/plain` part is found.
fn plain_parts<'l, 't>(
    headers: &[&'t str],
    body: &'l [&'t str],
    depth: usize,
    found: &mut Vec<&'l [&'t str]>,
    html: &mut Vec<&'l [&'t str]>,
) -> Option<usize> {
    let content_type = header_value(headers, "content-type")?;
    if !content_type.to_ascii_lowercase().starts_with("multipart/") || depth >= MAX_MULTIPART_DEPTH {
        return None;
    }
    let boundary = parameter(&content_type, "boundary")?;
    // A digest's parts are mails (RFC 2046 section 5.1.5: their type is
    // message/rfc822 unless they say otherwise), as a list's MIME digest
    // (Mailman's) sends them.
    let digest = content_type.to_ascii_lowercase().starts_with("multipart/digest");
    let mut leaves = 0;
    for mut part in body_parts(body, &boundary) {
        let mut header_end = part
            .iter()
            .position(|l| l.trim().is_empty())
            .unwrap_or(part.len());
        let mut kind = header_value(&part[..header_end], "content-type")
            .map(|v| v.to_ascii_lowercase())
            .or_else(|| digest.then(|| "message/rfc822".to_string()));
        if kind.as_deref().is_some_and(|k| k.starts_with("message/rfc822")) {
            // An encapsulated mail (RFC 2046 section 5.2.1): its own
            // header block (its Date is that mail's) and body are the part
            // read, a text/plain one unless its header says otherwise.
            let start = (header_end..part.len())
                .find(|&i| !part[i].trim().is_empty())
                .unwrap_or(part.len());
            part = &part[start..];
            header_end = part
                .iter()
                .position(|l| l.trim().is_empty())
                .unwrap_or(part.len());
            kind = header_value(&part[..header_end], "content-type").map(|v| v.to_ascii_lowercase());
        }
        let part_headers = &part[..header_end];
        if kind.as_deref().is_none_or(|k| k.starts_with("text/plain")) {
            leaves += 1;
            if found.len() < MAX_PLAIN_PARTS {
                found.push(part);
            }
        } else if let Some(inner) = plain_parts(part_headers, &part[header_end..], depth + 1, found, html) {
            leaves += inner;
        } else {
            if kind.as_deref().is_some_and(|k| k.starts_with("text/html")) && html.is_empty() {
                html.push(part);
            }
            leaves += 1;
        }
    }
    (!found.is_empty() || !html.is_empty()).then_some(leaves)
}

/// The parts of a multipart body: the lines between its delimiter lines
/// (RFC 2046 section 5.1.1: `--` and the boundary, white space after it
/// allowed; the last one ends with `--`).
fn body_parts<'l, 't>(body: &'l [&'t str], boundary: &str) -> Vec<&'l [&'t str]> {
    let delimiter = format!("--{boundary}");
    let mut parts = Vec::new();
    let mut start: Option<usize> = None;
    for (i, line) in body.iter().enumerate() {
        let line = line.trim_end();
        let Some(rest) = line.strip_prefix(delimiter.as_str()) else {
            continue;
        };
        if !rest.is_empty() && rest != "--" {
            continue;
        }
        if let Some(s) = start {
            parts.push(&body[s..i]);
        }
        if rest == "--" {
            return parts;
        }
        start = Some(i + 1);
    }
    if let Some(s) = start {
        parts.push(&body[s..]);
    }
    parts
}

/// Which of the `text/plain` parts `found` holds the template: the one
/// whose body (base64 decoded) has headings for the most template
/// fields, the first on a tie.
fn template_part(found: &[&[&str]]) -> Option<usize> {
    if found.len() == 1 {
        return Some(0);
    }
    let fields = |part: &[&str]| {
        let header_end = part
            .iter()
            .position(|l| l.trim().is_empty())
            .unwrap_or(part.len());
        let body = &part[header_end..];
        let text = match base64_lines(&part[..header_end], body) {
            Some(bytes) => super::import::decode(&bytes).0,
            None => body.join("\n"),
        };
        super::import::fields_named(&text)
    };
    let counts: Vec<usize> = found.iter().map(|p| fields(p)).collect();
    let most = *counts.iter().max()?;
    counts.iter().position(|&c| c == most)
}

// ---------------------------------------------------------------------
// Base64 mail bodies

/// A mail (or the MIME part [`multipart`] kept of one) whose header says
/// `Content-Transfer-Encoding: base64`, as Outlook, Exchange and many
/// webmailers send UTF-8 text and as a file is attached: its body
/// decoded (RFC 2045 section 6.8), the bytes read as UTF-8 or else
/// Windows-1252 like the rest of the importer's input. The headers stay
/// as they are. A body that is no text (`Content-Type: image/png`) is
/// not decoded.
fn base64_body(text: &str) -> Option<Unwrapped> {
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let block = super::import::mail_header_block(&lines)?;
    let headers = &lines[block.clone()];
    let is_text =
        header_value(headers, "content-type").is_none_or(|v| v.to_ascii_lowercase().starts_with("text/"));
    if !is_text {
        return None;
    }
    let bytes = base64_lines(headers, &lines[block.end..])?;
    let (body, not_utf8) = super::import::decode(&bytes);
    let mut how = "the mail body is base64 (RFC 2045 section 6.8): read decoded".to_string();
    if not_utf8.is_some() {
        how.push_str(", its bytes read as Windows-1252 (Latin-1) where they are not UTF-8");
    }
    let mut out = lines[..block.end].join("\n");
    out.push_str("\n\n");
    out.push_str(&body);
    Some(Unwrapped {
        text: out,
        how,
        ..Unwrapped::default()
    })
}

/// The bytes of a base64 body (`body`, below the header lines `headers`
/// that say `Content-Transfer-Encoding: base64`): its lines decoded up to
/// the first that is no base64 (a blank line after the data, a boundary,
/// a list footer). `None` when the headers say no base64 or the body is
/// none.
fn base64_lines(headers: &[&str], body: &[&str]) -> Option<Vec<u8>> {
    let encoding = header_value(headers, "content-transfer-encoding")?;
    if !encoding.eq_ignore_ascii_case("base64") {
        return None;
    }
    let mut data = String::new();
    for line in body.iter().map(|l| l.trim()).skip_while(|l| l.is_empty()) {
        if line.is_empty()
            || !line
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))
        {
            break;
        }
        data.push_str(line);
    }
    let bytes = decode_base64(&data)?;
    (!bytes.is_empty()).then_some(bytes)
}

/// RFC 4648 section 4's base64 decoded; `None` for a character outside
/// its alphabet or padding in the middle.
fn decode_base64(data: &str) -> Option<Vec<u8>> {
    let digits = data.trim_end_matches('=').as_bytes();
    let value = |b: u8| -> Option<u32> {
        Some(match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(digits.len() / 4 * 3 + 2);
    for chunk in digits.chunks(4) {
        let mut word = 0;
        for (k, &b) in chunk.iter().enumerate() {
            word |= value(b)? << (18 - 6 * k);
        }
        let bytes = word.to_be_bytes();
        // Four digits are three bytes, three are two, two are one.
        out.extend_from_slice(&bytes[1..chunk.len().max(1)]);
    }
    Some(out)
}

// ---------------------------------------------------------------------
// Quoted-printable mail bodies

/// A mail (or a MIME part of one) whose header says
/// `Content-Transfer-Encoding: quoted-printable`: its body decoded (RFC
/// 2045 section 6.7: `=XX` is a byte, `=` at a line's end joins it to the
/// next), the bytes read as UTF-8 or else Windows-1252 like the rest of
/// the importer's input. The headers stay as they are.
fn quoted_printable(text: &str) -> Option<Unwrapped> {
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let header_end = super::import::mail_header_block(&lines)?.end;
    let headers = &lines[..header_end];
    let boundary = header_value(headers, "content-type").and_then(|v| parameter(&v, "boundary"));
    let mut out: Vec<u8> = Vec::with_capacity(text.len());
    let mut decoded = 0;
    // Whether the lines being read are a quoted-printable body.
    let mut encoded = is_quoted_printable(headers);
    let mut i = 0;
    let push_line = |out: &mut Vec<u8>, line: &str| {
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
    };
    while i < header_end {
        push_line(&mut out, lines[i]);
        i += 1;
    }
    while i < lines.len() {
        let line = lines[i];
        if let Some(b) = &boundary
            && line
                .strip_prefix("--")
                .is_some_and(|rest| rest.trim_end().trim_end_matches("--") == b)
        {
            // A MIME part: its own header block says how its body is sent.
            push_line(&mut out, line);
            i += 1;
            let start = i;
            while i < lines.len() && !lines[i].trim().is_empty() {
                push_line(&mut out, lines[i]);
                i += 1;
            }
            encoded = is_quoted_printable(&lines[start..i]);
            continue;
        }
        if !encoded {
            push_line(&mut out, line);
            i += 1;
            continue;
        }
        // RFC 2045 section 6.7 rule 3: trailing white space is padding.
        let line = line.trim_end_matches([' ', '\t']);
        let bytes = line.as_bytes();
        let (body, soft) = match bytes.strip_suffix(b"=") {
            Some(body) => (body, true),
            None => (bytes, false),
        };
        let mut j = 0;
        while j < body.len() {
            let hex = |k: usize| body.get(k).copied().and_then(hex_value);
            if body[j] == b'='
                && let (Some(hi), Some(lo)) = (hex(j + 1), hex(j + 2))
            {
                out.push(hi * 16 + lo);
                decoded += 1;
                j += 3;
            } else {
                out.push(body[j]);
                j += 1;
            }
        }
        if soft {
            decoded += 1;
        } else {
            out.push(b'\n');
        }
        i += 1;
    }
    if decoded == 0 {
        return None;
    }
    if !text.ends_with('\n') && out.last() == Some(&b'\n') {
        out.pop();
    }
    let (text, not_utf8) = super::import::decode(&out);
    let mut how = "the mail body is quoted-printable (RFC 2045 section 6.7): read decoded".to_string();
    if not_utf8.is_some() {
        how.push_str(", its bytes read as Windows-1252 (Latin-1) where they are not UTF-8");
    }
    Some(Unwrapped {
        text,
        how,
        ..Unwrapped::default()
    })
}

// ---------------------------------------------------------------------
// PGP cleartext signatures

/// The line that starts a cleartext-signed message (RFC 4880 section 7).
const PGP_SIGNED: &str = "-----BEGIN PGP SIGNED MESSAGE-----";
/// The lines around the signature of one (RFC 4880 section 6.2).
const PGP_SIGNATURE: (&str, &str) = ("-----BEGIN PGP SIGNATURE-----", "-----END PGP SIGNATURE-----");

/// A cleartext-signed text (RFC 4880 section 7, as registrations were
/// sent to urn-nid in 2000-2010): the signed text alone. The armor line
/// and its `Hash:` headers are made blank (the later lines keep their
/// numbers), a dash-escaped line (`- ` before a line that starts with a
/// dash, section 7.1) is read without its escape, and the signature
/// block, up to its END line, is no text of the registration.
fn pgp_cleartext(text: &str) -> Option<Unwrapped> {
    let mut lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let is = |line: &str, armor: &str| line.trim_end() == armor;
    let signed = lines.iter().position(|l| is(l, PGP_SIGNED));
    let from = signed.unwrap_or(0);
    let signature = (from..lines.len()).find(|&i| is(lines[i], PGP_SIGNATURE.0));
    if signed.is_none() && signature.is_none() {
        return None;
    }
    let text_end = signature.unwrap_or(lines.len());
    if let Some(start) = signed {
        // The armor headers (`Hash: SHA256`) up to the blank line.
        let headers_end = (start + 1..text_end)
            .find(|&i| lines[i].trim().is_empty())
            .unwrap_or(text_end);
        for line in &mut lines[start..headers_end] {
            *line = "";
        }
        for line in &mut lines[headers_end..text_end] {
            if let Some(unescaped) = line.strip_prefix("- ") {
                *line = unescaped;
            }
        }
    }
    if let Some(start) = signature {
        let end = (start..lines.len())
            .find(|&i| is(lines[i], PGP_SIGNATURE.1))
            .map_or(lines.len(), |e| e + 1);
        lines.drain(start..end);
    }
    Some(Unwrapped {
        text: lines.join("\n"),
        how: "the text is PGP cleartext-signed (RFC 4880 section 7): its armor lines and signature block \
              left out, dash-escaped lines read unescaped"
            .to_string(),
        ..Unwrapped::default()
    })
}

// ---------------------------------------------------------------------
// format=flowed mail bodies

/// A mail (or its text part) whose header says `Content-Type: text/plain;
/// format=flowed` (RFC 3676, as Thunderbird, Apple Mail and many others
/// send, and the urn-nid archive keeps the message): its body as the
/// lines the sender wrote. A line that ends in a space is a soft break
/// (section 4.2), joined to the next of the same quote depth (without
/// that space when `DelSp=yes`, section 4.3); a space put before a line
/// that starts with a space, `>` or `From ` is taken off (space-stuffing,
/// section 4.4). Without this a template line the sender's client wrapped
/// goes on at the margin (`      Kansallisarkisto, Rauhankatu 17, P.O.Box`
/// then `258, 00171 Helsinki`), out of the value's indentation, and every
/// indented line is one space deeper than written. The headers stay.
fn flowed(text: &str) -> Option<Unwrapped> {
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let block = super::import::mail_header_block(&lines)?;
    let content_type = header_value(&lines[block.clone()], "content-type")?;
    let is = |name: &str, value: &str| {
        parameter(&content_type, name).is_some_and(|v| v.eq_ignore_ascii_case(value))
    };
    if !content_type.to_ascii_lowercase().starts_with("text/plain") || !is("format", "flowed") {
        return None;
    }
    let delsp = is("delsp", "yes");
    let mut out: Vec<String> = lines[..block.end].iter().map(|l| l.to_string()).collect();
    // The logical line being joined: its quote depth and text.
    let mut open: Option<(usize, String)> = None;
    let mut joined = 0;
    for line in &lines[block.end..] {
        let depth = line.bytes().take_while(|&b| b == b'>').count();
        let body = &line[depth..];
        let body = body.strip_prefix(' ').unwrap_or(body);
        // The signature separator `-- ` is no soft break (section 4.3).
        let soft = body.ends_with(' ') && body != "-- ";
        let quote = if depth > 0 {
            format!("{} ", ">".repeat(depth))
        } else {
            String::new()
        };
        let text = match open.take() {
            Some((d, mut text)) if d == depth => {
                joined += 1;
                text.push_str(body);
                text
            }
            Some((d, text)) => {
                // A soft break before a change of depth ends the line.
                let q = if d > 0 {
                    format!("{} ", ">".repeat(d))
                } else {
                    String::new()
                };
                out.push(format!("{q}{}", text.trim_end()));
                body.to_string()
            }
            None => body.to_string(),
        };
        if soft {
            let mut text = text;
            if delsp {
                text.pop();
            }
            open = Some((depth, text));
        } else {
            out.push(format!("{quote}{text}"));
        }
    }
    if let Some((d, text)) = open {
        let q = if d > 0 {
            format!("{} ", ">".repeat(d))
        } else {
            String::new()
        };
        out.push(format!("{q}{}", text.trim_end()));
    }
    if joined == 0 && !lines[block.end..].iter().any(|l| l.starts_with(' ')) {
        return None;
    }
    Some(Unwrapped {
        text: out.join("\n"),
        how: format!(
            "the mail body is format=flowed (RFC 3676): {joined} soft line break(s) joined{}, space-stuffing \
             taken off",
            if delsp {
                " (DelSp=yes: without their space)"
            } else {
                ""
            }
        ),
        ..Unwrapped::default()
    })
}

/// The value of the header `name` (lower case) in a header block, its
/// folded lines joined.
fn header_value(headers: &[&str], name: &str) -> Option<String> {
    let start = headers.iter().position(|l| {
        l.split_once(':')
            .is_some_and(|(n, _)| n.trim().eq_ignore_ascii_case(name))
    })?;
    let mut value = headers[start].split_once(':')?.1.trim().to_string();
    for more in headers[start + 1..]
        .iter()
        .take_while(|l| l.starts_with([' ', '\t']))
    {
        value.push(' ');
        value.push_str(more.trim());
    }
    Some(value)
}

/// A `name=value` parameter of a header value, unquoted.
fn parameter(value: &str, name: &str) -> Option<String> {
    value.split(';').skip(1).find_map(|p| {
        let (n, v) = p.split_once('=')?;
        n.trim()
            .eq_ignore_ascii_case(name)
            .then(|| v.trim().trim_matches('"').to_string())
    })
}

fn is_quoted_printable(headers: &[&str]) -> bool {
    header_value(headers, "content-transfer-encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("quoted-printable"))
}

// ---------------------------------------------------------------------
// HTML

/// Elements whose content is never text of the page. `head` is none of
/// them: its end tag and the `body` start tag may be left out (HTML
/// Living Standard section 13.1.2.4, as rfcmarkup's RFC pages do), so
/// the head ends at the first element or text that cannot be in it; what
/// can (`title`, `style`, `script`, `meta`, `link`) holds no text.
const SKIPPED: &[&str] = &["script", "style", "nav", "noscript", "svg", "template", "title"];

/// Elements that start and end a paragraph.
const PARAGRAPHS: &[&str] = &[
    "p",
    "div",
    "section",
    "article",
    "header",
    "footer",
    "main",
    "aside",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "dl",
    "table",
    "blockquote",
    "pre",
    "figure",
    "figcaption",
    "address",
    "hr",
    "body",
];

/// An HTML page: its `<pre>` blocks when they hold its text (an RFC as
/// rfcmarkup and the IETF's tools render it, whose page breaks the
/// importer then drops like a plain RFC's), or else its text laid out
/// by its block elements (headings and paragraphs apart, a definition's
/// value indented below its term, list items as `- ` lines). Tags go,
/// character references are read.
fn html(text: &str) -> Option<Unwrapped> {
    looks_like_html(text).then(|| {
        let (text, tables, how) = html_page(text);
        Unwrapped {
            text,
            how: format!(
                "the text is an HTML page: read as {how}, without tags and with character references read"
            ),
            tables,
            ..Unwrapped::default()
        }
    })
}

/// A mail whose body is HTML (`Content-Type: text/html`: a mail client's
/// only body, or the part [`multipart`] kept of a mail with no
/// `text/plain` one), its transfer encoding read: the body read as
/// [`html`] reads a page, below the mail's header block.
fn html_mail(text: &str) -> Option<Unwrapped> {
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let block = super::import::mail_header_block(&lines)?;
    header_value(&lines[block.clone()], "content-type")
        .filter(|v| v.to_ascii_lowercase().starts_with("text/html"))?;
    let (page, tables, how) = html_page(&lines[block.end..].join("\n"));
    let mut out = lines[..block.end].join("\n");
    out.push_str("\n\n");
    out.push_str(&page);
    // The page starts below the header block and a blank line.
    let below = block.end + 1;
    Some(Unwrapped {
        text: out,
        how: format!(
            "the mail body is HTML (text/html): read as {how}, without tags and with character references read"
        ),
        tables: tables
            .into_iter()
            .map(|t| t.start + below..t.end + below)
            .collect(),
        ..Unwrapped::default()
    })
}

/// An HTML page's text, as [`html`] reads it, the lines its tables of
/// two columns were read into, and how it was read.
fn html_page(text: &str) -> (String, Vec<Range<usize>>, &'static str) {
    let tokens = tokenize(text);
    // The text inside `<pre>` and outside it, in visible characters.
    let (mut inside, mut outside, mut depth) = (0usize, 0usize, 0usize);
    // Headings outside `<pre>`: a page whose sections are headed so holds
    // its text in them too (a field's value in a `<pre>` below its
    // `<h2>`), where an RFC rendered by rfcmarkup has its headings inside.
    let mut headings = 0usize;
    for token in &tokens {
        match token {
            Token::Open(name) if name == "pre" => depth += 1,
            Token::Open(name) if depth == 0 && is_heading(name) => headings += 1,
            Token::Close(name) if name == "pre" => depth = depth.saturating_sub(1),
            Token::Text(t) => {
                let n = t.chars().filter(|c| !c.is_whitespace()).count();
                if depth > 0 { inside += n } else { outside += n }
            }
            _ => {}
        }
    }
    if inside > 0 && inside >= outside * 4 && headings < 2 {
        (pre_text(&tokens), Vec::new(), "the text of its <pre> blocks")
    } else {
        let (text, tables) = block_text(&tokens);
        (
            text,
            tables,
            "its text, laid out by its headings, paragraphs and lists",
        )
    }
}

/// An xml2rfc XML source (RFC 7749's v2 vocabulary, RFC 7991's v3) whose
/// template is a definition list (v2's `<list style="hanging">` of `<t
/// hangText="Namespace ID:">` items, v3's `<dl>` of `<dt>`/`<dd>`) or a
/// section of sections titled after its fields (`3.1.  Namespace ID` in
/// the text rendering). Read
/// as the HTML page it maps to: a hangText as a `<dt>`, its `<t>` as the
/// `<dd>`, a section's title as its heading, `<artwork>` and
/// `<sourcecode>` as `<pre>`, `<vspace/>` as a line break, `<xref>` and
/// `<eref>` without text as their target, CDATA sections as text. A
/// source whose template is verbatim (`<artwork><![CDATA[`) is read as
/// text, as it is written there.
fn xml2rfc(text: &str) -> Option<Unwrapped> {
    let head = xml2rfc_source(text)?;
    let listed = text.contains("hangText=") || text.contains("<dt>") || text.contains("<dt ");
    // A template of nested sections, each titled after a field (v2's
    // `<section title="Namespace ID">`, v3's `<name>`, the sources of RFC
    // 6963, RFC 7738 and RFC 9039): three such titles, not counting the
    // "Security Considerations" every RFC has.
    let mut field_sections = 0usize;
    let mut out = String::with_capacity(text.len());
    // Whether each open `<t>` is a hanging item (closed as `</dd>`).
    let mut items: Vec<bool> = Vec::new();
    let mut rest = head;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        if let Some(cdata) = rest.strip_prefix("<![CDATA[") {
            let end = cdata.find("]]>").unwrap_or(cdata.len());
            out.push_str(&cdata[..end].replace('&', "&amp;").replace('<', "&lt;"));
            rest = cdata.get(end + 3..).unwrap_or("");
            continue;
        }
        if rest.starts_with("<!--") {
            rest = skip_to(rest, "-->");
            continue;
        }
        if rest.starts_with("<?") {
            rest = skip_to(rest, "?>");
            continue;
        }
        if rest.starts_with("<!") {
            // A DOCTYPE, with its internal subset of entities.
            let bracket = rest.find('[');
            let close = rest.find('>').unwrap_or(rest.len());
            rest = match bracket {
                Some(b) if b < close => skip_to(rest, "]>"),
                _ => rest.get(close + 1..).unwrap_or(""),
            };
            continue;
        }
        let close = rest.find('>').map_or(rest.len(), |e| e + 1);
        let tag = &rest[..close];
        rest = &rest[close..];
        let inner = tag.trim_start_matches('<').trim_end_matches('>');
        let ending = inner.starts_with('/');
        let empty = inner.ends_with('/');
        let name: String = inner
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        match (name.as_str(), ending) {
            ("t", false) if empty => {}
            ("t", false) => match attribute(inner, "hangtext") {
                Some(hang) => {
                    items.push(true);
                    out.push_str(&format!("<dt>{hang}</dt><dd>"));
                }
                None => {
                    items.push(false);
                    out.push_str("<p>");
                }
            },
            ("t", true) => out.push_str(if items.pop().unwrap_or(false) {
                "</dd>"
            } else {
                "</p>"
            }),
            ("list", false) => out.push_str("<dl>"),
            ("list", true) => out.push_str("</dl>"),
            ("vspace", _) => out.push_str("<br>"),
            ("section", false) => {
                out.push_str("<section>");
                if let Some(title) = attribute(inner, "title") {
                    field_sections += usize::from(super::import::titles_a_field(title));
                    out.push_str(&format!("<h2>{title}</h2>"));
                }
            }
            ("name", false) => {
                // Its text, looked for a short way on (a title is short).
                let mut cut = rest.len().min(200);
                while !rest.is_char_boundary(cut) {
                    cut -= 1;
                }
                if let Some(end) = rest[..cut].find("</name>") {
                    field_sections += usize::from(super::import::titles_a_field(&rest[..end]));
                }
                out.push_str("<h2>");
            }
            ("name", true) => out.push_str("</h2>"),
            ("xref" | "eref", false) if empty => {
                if let Some(target) = attribute(inner, "target") {
                    out.push_str(&format!("[{target}]"));
                }
            }
            ("xref" | "eref", _) => {}
            ("artwork" | "sourcecode", false) if !empty => out.push_str("<pre>"),
            ("artwork" | "sourcecode", true) => out.push_str("</pre>"),
            _ => out.push_str(tag),
        }
    }
    out.push_str(rest);
    let how = if listed {
        "its hangText and <dt> terms as headings"
    } else if field_sections >= 3 {
        "its sections' titles as headings"
    } else {
        return None;
    };
    let (text, tables) = block_text(&tokenize(&out));
    Some(Unwrapped {
        text,
        how: format!(
            "the text is an xml2rfc XML source: read as the text it renders, {how}, without tags and with \
             character references read"
        ),
        tables,
        ..Unwrapped::default()
    })
}

/// `text` from its first tag when it is an xml2rfc XML source (RFC 7749,
/// RFC 7991): its root element is `<rfc>`, after the prolog (XML 1.0
/// section 2.8: the XML declaration, processing instructions such as
/// `<?rfc toc="yes"?>`, comments, and a document type declaration whose
/// internal subset may declare the draft's many reference entities).
fn xml2rfc_source(text: &str) -> Option<&str> {
    let head = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    let mut rest = head;
    loop {
        rest = rest.trim_start_matches([' ', '\t', '\r', '\n']);
        let end = if rest.starts_with("<?") {
            rest.find("?>")? + 2
        } else if rest.starts_with("<!--") {
            rest.find("-->")? + 3
        } else if rest.starts_with("<!DOCTYPE") {
            doctype_end(rest)?
        } else {
            break;
        };
        rest = &rest[end..];
    }
    let after = rest.strip_prefix("<rfc")?;
    after
        .starts_with([' ', '\t', '\r', '\n', '>', '/'])
        .then_some(head)
}

/// The length of the document type declaration `text` starts with: to
/// its `>`, or past its internal subset `[...]` (whose entity
/// declarations hold `>`s of their own, quoted values `]`s, and comments
/// apostrophes: `<!-- don't -->`).
fn doctype_end(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut quote = None;
    let mut in_subset = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'<') if in_subset && bytes[i..].starts_with(b"<!--") => {
                i += text[i..].find("-->")? + 3;
                continue;
            }
            (None, b'"' | b'\'') if in_subset => quote = Some(b),
            (None, b'[') => in_subset = true,
            (None, b']') => in_subset = false,
            (None, b'>') if !in_subset => return Some(i + 1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// An xml2rfc source whose template is verbatim in an `<artwork>` or
/// `<sourcecode>` written with character references, not in a CDATA
/// section (`&lt;NSS&gt;`, `&amp;` for `@` in an address): those read
/// inside the element (XML 1.0 section 4.1), as the CDATA form is
/// written. The text is otherwise kept line for line: the importer reads
/// it as text, and `</artwork>` ends the template.
fn xml2rfc_artwork(text: &str) -> Option<Unwrapped> {
    xml2rfc_source(text)?;
    let mut out = String::with_capacity(text.len());
    let mut read = 0usize;
    let mut rest = text;
    while let Some(at) = rest.find('<') {
        let close = if rest[at..].starts_with("<artwork") {
            "</artwork>"
        } else if rest[at..].starts_with("<sourcecode") {
            "</sourcecode>"
        } else {
            out.push_str(&rest[..=at]);
            rest = &rest[at + 1..];
            continue;
        };
        let end = at + tag_end(&rest[at..]);
        out.push_str(&rest[..end]);
        rest = &rest[end..];
        if out.ends_with("/>") {
            continue;
        }
        let stop = rest.find(close).unwrap_or(rest.len());
        let mut content = &rest[..stop];
        rest = &rest[stop..];
        if content.contains("<![CDATA[") {
            out.push_str(content);
            continue;
        }
        while let Some(amp) = content.find('&') {
            out.push_str(&content[..amp]);
            let (c, used) = character_reference(&content[amp..]);
            read += usize::from(used > 1);
            out.push_str(&c);
            content = &content[amp + used..];
        }
        out.push_str(content);
    }
    out.push_str(rest);
    (read > 0).then(|| Unwrapped {
        text: out,
        how: format!(
            "the text is an xml2rfc XML source whose <artwork> or <sourcecode> is written with character \
             references (RFC 7991 section 2.5, RFC 7749 section 2.5): {read} read, as a CDATA section \
             would have them"
        ),
        ..Unwrapped::default()
    })
}

/// `rest` past the first `end` in it, or nothing.
fn skip_to<'s>(rest: &'s str, end: &str) -> &'s str {
    rest.find(end).map_or("", |e| &rest[e + end.len()..])
}

/// `h1` to `h6`.
fn is_heading(name: &str) -> bool {
    matches!(name.as_bytes(), [b'h', b'1'..=b'6'])
}

/// Whether the text starts as an HTML document or fragment does.
fn looks_like_html(text: &str) -> bool {
    let head = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    let starts = |prefix: &str| {
        head.as_bytes()
            .get(..prefix.len())
            .is_some_and(|b| b.eq_ignore_ascii_case(prefix.as_bytes()))
    };
    if starts("<!doctype html") {
        return true;
    }
    if starts("<?xml") || starts("<!--") {
        let window = &head.as_bytes()[..head.len().min(2048)];
        return window.windows(5).any(|w| w.eq_ignore_ascii_case(b"<html"));
    }
    let Some(rest) = head.strip_prefix('<') else {
        return false;
    };
    let name: String = rest
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let after = rest[name.len()..].chars().next();
    matches!(after, Some('>' | ' ' | '\t' | '\r' | '\n' | '/'))
        && (name == "html" || name == "body" || name == "meta" || PARAGRAPHS.contains(&name.as_str()))
}

#[derive(Debug, PartialEq)]
enum Token {
    Open(String),
    Close(String),
    Text(String),
}

/// What a word processor's paragraph (`<p class=MsoNormal>`, as Word and
/// Outlook write a mail or a document saved as HTML) opens as: a line, not
/// a paragraph. Word gives these no margin, so each shows as one line of
/// the text typed; a blank line is a paragraph of its own that holds only
/// `&nbsp;` (`<p class=MsoNormal><o:p>&nbsp;</o:p></p>`).
const WORD_LINE: &str = "mso-p";

/// The page as tags and text, the text's character references read and
/// the content of [`SKIPPED`] elements and comments left out.
fn tokenize(html: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    // Furniture elements found never closed.
    let mut unclosed: Vec<String> = Vec::new();
    let mut text = String::new();
    let mut rest = html;
    let flush = |text: &mut String, tokens: &mut Vec<Token>| {
        if !text.is_empty() {
            tokens.push(Token::Text(std::mem::take(text)));
        }
    };
    while let Some(at) = rest.find(['<', '&']) {
        text.push_str(&rest[..at]);
        rest = &rest[at..];
        if rest.starts_with('&') {
            let (c, used) = character_reference(rest);
            text.push_str(&c);
            rest = &rest[used..];
            continue;
        }
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        let bytes = rest.as_bytes();
        let close = bytes.get(1) == Some(&b'/');
        let name_start = if close { 2 } else { 1 };
        let is_tag = match bytes.get(name_start) {
            Some(b) if b.is_ascii_alphabetic() => true,
            Some(b'!' | b'?') => !close,
            _ => false,
        };
        if !is_tag {
            text.push('<');
            rest = &rest[1..];
            continue;
        }
        let end = tag_end(rest);
        // Without its `>` when it has one (a tag left open runs to the end).
        let inner_end = if rest.as_bytes()[end - 1] == b'>' {
            end - 1
        } else {
            end
        };
        let tag = &rest[name_start..inner_end.max(name_start)];
        rest = &rest[end..];
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        if name.is_empty() {
            continue; // <!DOCTYPE ...>, <?xml ...?>
        }
        flush(&mut text, &mut tokens);
        if close {
            tokens.push(Token::Close(name));
        } else if SKIPPED.contains(&name.as_str()) && !tag.trim_end().ends_with('/') {
            // Up to its end tag.
            rest = end_tag(rest, &name).map_or("", |at| &rest[at + tag_end(&rest[at..])..]);
        } else if let Some(after) =
            (is_furniture(&name, tag) && !tag.trim_end().ends_with('/') && !unclosed.contains(&name))
                .then(|| {
                    let after = past_element(rest, &name);
                    // None closes after this one either: not looked for
                    // again (each look runs to the end of the page).
                    if after.is_none() {
                        unclosed.push(name.clone());
                    }
                    after
                })
                .flatten()
        {
            rest = after;
        } else if name == "p" && attribute(tag, "class").is_some_and(|c| c.starts_with("Mso")) {
            tokens.push(Token::Open(WORD_LINE.to_string()));
        } else {
            tokens.push(Token::Open(name));
        }
    }
    text.push_str(rest);
    flush(&mut text, &mut tokens);
    tokens
}

/// Whether a tag (its text inside `<` and `>`) opens the page's own
/// furniture, no text of the document: a table of contents (`id="toc"`,
/// `class="toc"`, as xml2rfc writes it), a paragraph's self-link mark
/// (xml2rfc's `class="pilcrow"`, Sphinx's `class="headerlink"`: a `¶`), or
/// the site's footer (`<footer>`, `id="footer"`, `role="contentinfo"`).
/// Skipped up to its matching end tag; one never closed is read as text,
/// not taken with the rest of the page.
fn is_furniture(name: &str, tag: &str) -> bool {
    const NAMES: [&str; 4] = ["toc", "pilcrow", "headerlink", "footer"];
    if name == "footer" {
        return true;
    }
    let named = |value: Option<&str>| {
        value.is_some_and(|v| {
            v.split_ascii_whitespace()
                .any(|w| NAMES.iter().any(|n| w.eq_ignore_ascii_case(n)))
        })
    };
    let id = attribute(tag, "id");
    named(id.filter(|id| !id.contains(char::is_whitespace)))
        || named(attribute(tag, "class"))
        || attribute(tag, "role").is_some_and(|r| r.eq_ignore_ascii_case("contentinfo"))
}

/// The value of the attribute `name` (lower case) in a tag's text, quoted
/// or not.
fn attribute<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let bytes = tag.as_bytes();
    let mut from = 0;
    while let Some(at) = tag[from..].find('=') {
        let eq = from + at;
        from = eq + 1;
        let before = tag[..eq].trim_end();
        let start = before.len().checked_sub(name.len())?;
        let preceded = start == 0 || bytes[start - 1].is_ascii_whitespace();
        if !(preceded && before.get(start..).is_some_and(|n| n.eq_ignore_ascii_case(name))) {
            continue;
        }
        let value = tag[eq + 1..].trim_start();
        return Some(match value.chars().next() {
            Some(q @ ('"' | '\'')) => value[1..].split(q).next().unwrap_or(""),
            _ => value
                .split(|c: char| c.is_ascii_whitespace() || c == '/')
                .next()
                .unwrap_or(""),
        });
    }
    None
}

/// `s` past the element `name` whose start tag has been read: its end tag
/// matched to it through nested elements of the same name (a `<div>` in
/// a `<div>`), or `None` when it has none.
fn past_element<'s>(s: &'s str, name: &str) -> Option<&'s str> {
    let bytes = s.as_bytes();
    let mut depth = 1usize;
    let mut from = 0;
    while let Some(at) = s[from..].find('<') {
        let start = from + at;
        let close = bytes.get(start + 1) == Some(&b'/');
        let name_at = start + 1 + usize::from(close);
        let after = name_at + name.len();
        let named = bytes
            .get(name_at..after)
            .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()))
            && !bytes.get(after).is_some_and(u8::is_ascii_alphanumeric);
        let end = start + tag_end(&s[start..]);
        if named {
            if close {
                depth -= 1;
                if depth == 0 {
                    return Some(&s[end..]);
                }
            } else if !s[start..end].trim_end_matches('>').ends_with('/') {
                depth += 1;
            }
        }
        from = end.max(start + 1);
    }
    None
}

/// Where the end tag of the element `name` (lower case) starts in `s`,
/// in any case.
fn end_tag(s: &str, name: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut from = 0;
    while let Some(at) = s[from..].find("</") {
        let start = from + at;
        let after = start + 2 + name.len();
        if bytes
            .get(start + 2..after)
            .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()))
            && !bytes.get(after).is_some_and(u8::is_ascii_alphanumeric)
        {
            return Some(start);
        }
        from = start + 2;
    }
    None
}

/// The length of the tag that starts `s` (at its `<`), through its `>`:
/// a `>` inside a quoted attribute value does not end it.
fn tag_end(s: &str) -> usize {
    let mut quote = None;
    for (i, b) in s.bytes().enumerate().skip(1) {
        match (quote, b) {
            (None, b'"' | b'\'') => quote = Some(b),
            (Some(q), _) if b == q => quote = None,
            (None, b'>') => return i + 1,
            _ => {}
        }
    }
    s.len()
}

/// The character reference at the start of `s` (`&amp;`, `&#233;`,
/// `&#xE9;`) read, and the bytes it took; an `&` that starts none is
/// itself.
fn character_reference(s: &str) -> (Cow<'static, str>, usize) {
    let body_end = s[1..]
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
        .map_or(s.len(), |i| i + 1);
    let body = &s[1..body_end];
    let used = if s[body_end..].starts_with(';') {
        body_end + 1
    } else {
        body_end
    };
    let numeric = body
        .strip_prefix("#x")
        .or_else(|| body.strip_prefix("#X"))
        .map(|hex| u32::from_str_radix(hex, 16))
        .or_else(|| body.strip_prefix('#').map(str::parse::<u32>));
    if let Some(code) = numeric {
        return match code {
            Ok(code) => {
                let c = char::from_u32(code)
                    .filter(|c| *c != '\0')
                    .unwrap_or(char::REPLACEMENT_CHARACTER);
                (shown(c), used)
            }
            Err(_) => (Cow::Borrowed("&"), 1),
        };
    }
    // The entities every xml2rfc v3 source declares in its DOCTYPE
    // (`<!ENTITY nbhy "&#8209;">`, `zwsp`, `wj`, as kramdown-rfc and
    // xml2rfc write them), which HTML does not name.
    let xml2rfc = match body {
        "nbhy" => Some('\u{2011}'),
        "zwsp" => Some('\u{200b}'),
        "wj" => Some('\u{2060}'),
        _ => None,
    };
    match xml2rfc.or_else(|| crate::scan::html_named_reference(body.as_bytes()).and_then(char::from_u32)) {
        Some(c) => (shown(c), used),
        None => (Cow::Borrowed("&"), 1),
    }
}

/// A referenced character as the laid-out text shows it: a no-break or
/// typographic space as a space, an invisible one (a zero-width space or
/// joiner) as nothing. A soft hyphen (`&shy;`) stays, as one typed in a
/// plain text does: the importer drops it, and one at a line's end (in a
/// `<pre>` block) tells it a word broken there goes on at the next line.
fn shown(c: char) -> Cow<'static, str> {
    match c {
        '\u{a0}' | '\u{2000}'..='\u{200a}' => Cow::Borrowed(" "),
        '\u{200b}'..='\u{200d}' | '\u{2060}' => Cow::Borrowed(""),
        // A non-breaking hyphen is a hyphen (xml2rfc writes one in its
        // text output): `lampx&nbhy;nss` is an ABNF rule name.
        '\u{2011}' => Cow::Borrowed("-"),
        c => Cow::Owned(c.to_string()),
    }
}

/// The text of the page's `<pre>` blocks, one after another.
fn pre_text(tokens: &[Token]) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for token in tokens {
        match token {
            Token::Open(name) if name == "pre" => {
                if depth == 0 && !out.is_empty() && !out.ends_with('\n') {
                    out.push('\n');
                }
                depth += 1;
            }
            Token::Close(name) if name == "pre" => depth = depth.saturating_sub(1),
            Token::Open(name) if name == "br" && depth > 0 => out.push('\n'),
            Token::Text(t) if depth > 0 => out.push_str(t),
            _ => {}
        }
    }
    out
}

/// The page's text laid out as plain text by its block elements.
fn block_text(tokens: &[Token]) -> (String, Vec<Range<usize>>) {
    let mut out = Layout::default();
    // Inside a word processor's line ([`WORD_LINE`]): whether it has text.
    let mut word_line: Option<bool> = None;
    let two_column = two_column_tables(tokens);
    // For each open table, whether it is one of two columns; the cells of
    // the row being read; whether its second cell (a value) is open.
    let mut tables: Vec<bool> = Vec::new();
    let mut cells = 0usize;
    let mut value_cell = false;
    // The lines each table of two columns was written on, and the line
    // count of the text so far (counted on from `counted`, once).
    let mut read_tables: Vec<Range<usize>> = Vec::new();
    let mut opened: Vec<usize> = Vec::new();
    let (mut counted, mut newlines) = (0usize, 0usize);
    let mut line_at = |out: &Layout| {
        newlines += out.out.as_bytes()[counted..]
            .iter()
            .filter(|b| **b == b'\n')
            .count();
        counted = out.out.len();
        newlines + usize::from(!out.at_line_start())
    };
    let end_value = |out: &mut Layout, value_cell: &mut bool| {
        if std::mem::take(value_cell) {
            out.indent = out.indent.saturating_sub(1);
        }
    };
    for (at, token) in tokens.iter().enumerate() {
        // A table of two columns (a field's name, then its value) is read
        // as the Markdown one is: `Name: value` lines, the value's further
        // lines indented below the name, as in a plain template.
        match token {
            Token::Open(name) if name == "table" => {
                let two = two_column.contains(&at);
                if two {
                    opened.push(line_at(&out));
                }
                tables.push(two);
            }
            Token::Open(name) if name == "tr" => {
                end_value(&mut out, &mut value_cell);
                cells = 0;
            }
            Token::Open(name) if matches!(name.as_str(), "td" | "th") && tables.last() == Some(&true) => {
                end_value(&mut out, &mut value_cell);
                cells += 1;
                if cells == 2 {
                    while out.out.ends_with(' ') {
                        out.out.pop();
                    }
                    if !out.at_line_start() && !out.out.ends_with(':') {
                        out.out.push(':');
                    }
                    out.text(" ");
                    out.indent += 1;
                    value_cell = true;
                    continue;
                }
            }
            Token::Close(name) if matches!(name.as_str(), "td" | "th" | "tr") => {
                end_value(&mut out, &mut value_cell)
            }
            Token::Close(name) if name == "table" => {
                end_value(&mut out, &mut value_cell);
                if tables.pop() == Some(true)
                    && let Some(start) = opened.pop()
                {
                    read_tables.push(start..line_at(&out));
                }
            }
            _ => {}
        }
        match token {
            Token::Open(name) if name == WORD_LINE => {
                out.newline();
                word_line = Some(false);
            }
            Token::Close(name) if name == "p" && word_line.is_some() => {
                // A line with no text is the blank line between paragraphs.
                if word_line.take() == Some(true) {
                    out.newline();
                } else {
                    out.paragraph();
                }
            }
            Token::Text(t) if word_line.is_some() => {
                if !t.trim().is_empty() {
                    word_line = Some(true);
                }
                out.text(t);
            }
            Token::Open(name) => match name.as_str() {
                "br" => out.newline(),
                "pre" => {
                    out.paragraph();
                    out.pre += 1;
                    out.pre_opened = true;
                }
                "dl" => {
                    out.paragraph();
                    out.lists.push(false);
                }
                "dt" => {
                    // A term ends the definition before it (HTML's implied
                    // end of `<dd>`).
                    out.end_definition();
                    out.paragraph();
                }
                "dd" => {
                    out.end_definition();
                    out.newline();
                    out.begin_definition();
                }
                "li" => {
                    out.newline();
                    out.bullet = true;
                    out.fresh = true;
                }
                "tr" => out.newline(),
                "td" | "th" => out.text("  "),
                n if PARAGRAPHS.contains(&n) => out.paragraph(),
                _ => {}
            },
            Token::Close(name) => match name.as_str() {
                "pre" => {
                    out.pre = out.pre.saturating_sub(1);
                    out.paragraph();
                }
                "dd" => {
                    out.end_definition();
                    out.fresh = false;
                    out.newline();
                }
                "dl" => {
                    out.end_definition();
                    out.lists.pop();
                    out.paragraph();
                }
                "li" | "tr" | "dt" => {
                    out.fresh = false;
                    out.bullet = false;
                    out.newline();
                }
                n if PARAGRAPHS.contains(&n) => out.paragraph(),
                _ => {}
            },
            Token::Text(t) => out.text(t),
        }
    }
    let mut text = out.out.trim_end().to_string();
    text.push('\n');
    (text, read_tables)
}

/// Where the tables of two columns start among `tokens` (the index of
/// each one's `<table>`): every row at its own level has two cells (`<td>`
/// or `<th>`), at least two rows do, and it holds no other table.
fn two_column_tables(tokens: &[Token]) -> std::collections::HashSet<usize> {
    // Each open table: where it starts, whether it still is one of two
    // columns, its rows of two cells, the cells of its current row.
    let mut open: Vec<(usize, bool, usize, usize)> = Vec::new();
    let mut found = std::collections::HashSet::new();
    let end_row = |t: &mut (usize, bool, usize, usize)| {
        match t.3 {
            0 => {}
            2 => t.2 += 1,
            _ => t.1 = false,
        }
        t.3 = 0;
    };
    for (at, token) in tokens.iter().enumerate() {
        match token {
            Token::Open(name) if name == "table" => {
                if let Some(outer) = open.last_mut() {
                    outer.1 = false;
                }
                open.push((at, true, 0, 0));
            }
            Token::Open(name) | Token::Close(name) if name == "tr" => {
                if let Some(t) = open.last_mut() {
                    end_row(t);
                }
            }
            Token::Open(name) if name == "td" || name == "th" => {
                if let Some(t) = open.last_mut() {
                    t.3 += 1;
                }
            }
            Token::Close(name) if name == "table" => {
                if let Some(mut t) = open.pop() {
                    end_row(&mut t);
                    if t.1 && t.2 >= 2 {
                        found.insert(t.0);
                    }
                }
            }
            _ => {}
        }
    }
    found
}

/// The deepest indentation of nested definitions: a page nesting them
/// deeper (or never closing them) grows its text no further.
const MAX_INDENT: usize = 4;

/// Plain text being written from an HTML page's blocks.
#[derive(Default)]
struct Layout {
    out: String,
    /// Open definitions (`<dd>`): each indents its text by three spaces,
    /// up to [`MAX_INDENT`] levels.
    indent: usize,
    /// For each open `<dl>`, whether a `<dd>` of it is open (HTML ends a
    /// `<dd>` at the next `<dt>` or `<dd>` without an end tag).
    lists: Vec<bool>,
    /// Open `<pre>` elements: their text is kept as written.
    pre: usize,
    /// A `<pre>` has just opened: a line break first in its text is no
    /// part of it (HTML's parsing rules for `pre`).
    pre_opened: bool,
    /// A `<dd>` or `<li>` has just opened: the paragraphs inside it start
    /// on its line.
    fresh: bool,
    /// A list item's `- ` is to be written before its text.
    bullet: bool,
}

impl Layout {
    fn begin_definition(&mut self) {
        if self.lists.is_empty() {
            self.lists.push(false);
        }
        if let Some(open) = self.lists.last_mut() {
            *open = true;
        }
        self.indent += 1;
        self.fresh = true;
    }

    fn end_definition(&mut self) {
        if let Some(open) = self.lists.last_mut()
            && std::mem::take(open)
        {
            self.indent = self.indent.saturating_sub(1);
        }
    }

    fn at_line_start(&self) -> bool {
        self.out.is_empty() || self.out.ends_with('\n')
    }

    fn newline(&mut self) {
        if !self.fresh && !self.at_line_start() {
            self.out.push('\n');
        }
    }

    fn paragraph(&mut self) {
        if self.fresh {
            return;
        }
        self.newline();
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }

    /// The indentation, and a list item's bullet, at the start of a line.
    fn line_start(&mut self) {
        // A `<pre>` block's lines stand one step in, as a plain template's
        // values stand below their headings: a line of it that looks like
        // a heading or an RFC's section title (`2.4.1.  Definition`) is
        // then read as its text, not as the page's.
        let depth = self.indent + usize::from(self.pre > 0);
        self.out.push_str(&"   ".repeat(depth.min(MAX_INDENT)));
        if std::mem::take(&mut self.bullet) {
            self.out.push_str("- ");
        }
        self.fresh = false;
    }

    fn text(&mut self, t: &str) {
        let t = if std::mem::take(&mut self.pre_opened) {
            t.strip_prefix("\r\n")
                .or_else(|| t.strip_prefix('\n'))
                .unwrap_or(t)
        } else {
            t
        };
        if self.pre > 0 {
            for (i, line) in t.split('\n').enumerate() {
                if i > 0 {
                    self.out.push('\n');
                }
                if self.at_line_start() && !line.is_empty() {
                    self.line_start();
                }
                self.out.push_str(line.trim_end_matches('\r'));
            }
            return;
        }
        for (i, word) in t.split_whitespace().enumerate() {
            if self.at_line_start() {
                self.line_start();
            } else if (i > 0 || t.starts_with(char::is_whitespace)) && !self.out.ends_with(' ') {
                self.out.push(' ');
            }
            self.out.push_str(word);
        }
        if t.ends_with(char::is_whitespace) && !self.at_line_start() && !self.out.ends_with(' ') {
            self.out.push(' ');
        }
    }
}

// ---------------------------------------------------------------------
// Markdown tables

/// The cells of a Markdown pipe-table row (`| a | b |`, GitHub Flavored
/// Markdown section 4.10), `\|` read as a `|` of the cell's text.
fn table_cells(line: &str) -> Option<Vec<String>> {
    let t = line.trim().trim_end_matches('\r').trim_end();
    let inner = t.strip_prefix('|')?.strip_suffix('|')?;
    let mut cells = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cells.last_mut()?.push('|');
                chars.next();
            }
            '|' => cells.push(String::new()),
            c => cells.last_mut()?.push(c),
        }
    }
    Some(cells.into_iter().map(|c| c.trim().to_string()).collect())
}

/// Whether a table row's cells make its delimiter row (`|---|:--:|`).
fn is_delimiter(cells: &[String]) -> bool {
    cells.iter().all(|c| {
        let c = c.strip_prefix(':').unwrap_or(c);
        let c = c.strip_suffix(':').unwrap_or(c);
        !c.is_empty() && c.bytes().all(|b| b == b'-')
    })
}

/// How many rows of a Markdown table of two columns must name template
/// fields for the table to be the template's ([`two_column_table`]).
const MIN_TABLE_FIELDS: usize = 2;

/// Fields written as a Markdown table of two columns (`| Namespace
/// Identifier | `lamp` |`, as urnreg's own Markdown form writes the
/// NID, version and date): each row a `Name: value` line, the value
/// without its code span's backticks; the delimiter row goes.
fn two_column_table(text: &str) -> Option<Unwrapped> {
    let lines: Vec<&str> = text.split('\n').collect();
    // Each line read once: its cells when a row of two, and whether it is
    // a delimiter row (of any number of columns).
    let rows: Vec<(Option<Vec<String>>, bool)> = lines
        .iter()
        .map(|l| match table_cells(l) {
            Some(cells) => {
                let delimiter = is_delimiter(&cells);
                ((cells.len() == 2).then_some(cells), delimiter)
            }
            None => (None, false),
        })
        .collect();
    let two = |i: usize| rows[i].0.is_some();
    // The tables whose rows name fields (at least [`MIN_TABLE_FIELDS`]):
    // the template's. Another table of two columns (examples inside a
    // field's text, `| Deprecated identifier | Registered URN |`) is that
    // text, kept as written.
    let mut field_table = vec![false; lines.len()];
    let mut i = 0;
    while i + 1 < lines.len() {
        if !(two(i) && rows[i + 1].1 && two(i + 1)) {
            i += 1;
            continue;
        }
        let end = (i..lines.len()).find(|&j| !two(j)).unwrap_or(lines.len());
        let named = (i..end)
            .filter_map(|j| rows[j].0.as_ref().filter(|_| !rows[j].1))
            .filter(|cells| super::import::titles_a_field(cells[0].trim_matches(['*', '_', '`', ' '])))
            .count();
        field_table[i] = named >= MIN_TABLE_FIELDS;
        i = end;
    }
    if !field_table.contains(&true) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut in_table = false;
    // The output's line, and where the table being read started there.
    let mut line = 0usize;
    let mut read_tables: Vec<Range<usize>> = Vec::new();
    let mut start = None;
    for (i, line_text) in lines.iter().enumerate() {
        let starts = field_table[i];
        let was = in_table;
        in_table = (in_table || starts) && two(i);
        let delimiter = in_table && rows[i].1;
        if i > 0 && !delimiter {
            out.push('\n');
            line += 1;
        }
        match (was, in_table) {
            (false, true) => start = Some(line),
            (true, false) => read_tables.extend(start.take().map(|s| s..line)),
            _ => {}
        }
        match &rows[i].0 {
            Some(_) if delimiter => {}
            Some(cells) if in_table => {
                let name = cells[0].trim_end_matches(':');
                out.push_str(name);
                out.push(':');
                // The cell's lines, those after the first indented below
                // the heading as a plain template's are.
                for (k, cell_line) in cell_lines(&cells[1]).iter().enumerate() {
                    match (k, cell_line.is_empty()) {
                        (0, _) => out.push(' '),
                        (_, true) => out.push('\n'),
                        (_, false) => out.push_str("\n   "),
                    }
                    line += usize::from(k > 0);
                    out.push_str(cell_line);
                }
            }
            _ => out.push_str(line_text),
        }
    }
    read_tables.extend(start.map(|s| s..line + 1));
    Some(Unwrapped {
        text: out,
        how: "its Markdown table of two columns read as 'Name: value' lines".to_string(),
        tables: read_tables,
        markdown: true,
        ..Unwrapped::default()
    })
}

/// A table cell's lines: a GitHub Flavored Markdown cell is one line, and
/// `<br>` (any of its spellings) is how a line is broken inside it (two
/// part paragraphs). A line that is one code span whole (`` `lamp` ``) is
/// read without its backticks (GFM section 6.1), one that only has one
/// inside keeps them, as a plain template's text does.
fn cell_lines(cell: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut rest = cell;
    while let Some((at, len)) = rest
        .match_indices('<')
        .find_map(|(at, _)| line_break_len(&rest[at..]).map(|len| (at, len)))
    {
        lines.push(&rest[..at]);
        rest = &rest[at + len..];
    }
    lines.push(rest);
    lines
        .into_iter()
        .map(|line| {
            let line = line.trim();
            let run = line.len() - line.trim_start_matches('`').len();
            let inner = line.get(run..line.len().saturating_sub(run)).unwrap_or("");
            if run > 0 && line.len() > 2 * run && line.ends_with(&line[..run]) && !inner.contains('`') {
                inner.trim()
            } else {
                line
            }
        })
        .collect()
}

/// The length of the `<br>` (`<br/>`, `<br />`, `<BR>`) that starts `s`.
fn line_break_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if !(b.len() >= 4 && b[1..3].eq_ignore_ascii_case(b"br")) {
        return None;
    }
    let mut i = 3;
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    if b.get(i) == Some(&b'/') {
        i += 1;
    }
    (b.get(i) == Some(&b'>')).then_some(i + 1)
}

// ---------------------------------------------------------------------
// Markdown definition lists

/// A definition line: `:` at the margin (or up to three spaces in)
/// followed by a space, a tab or nothing.
fn definition_marker(line: &str) -> Option<usize> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[indent..];
    (indent <= 3 && rest.starts_with(':') && (rest.len() == 1 || rest[1..].starts_with([' ', '\t'])))
        .then_some(indent)
}

/// A kramdown or mmark attribute list on a line of its own
/// (`{:vspace}`, `{style="empty"}`, `{#id}`): markup, no text.
fn is_attribute_list(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 3
        && t.starts_with('{')
        && t.ends_with('}')
        && !t.starts_with("{{")
        && (t[1..].starts_with([':', '#', '.']) || t.contains('='))
}

/// A template written as a Markdown definition list (kramdown's and
/// mmark's `Namespace ID` / `: UUID`, the sources of Internet-Drafts):
/// each `:` marker becomes a space, so the value stands indented below its
/// term as in a plain template; attribute lists and `<br/>` go.
fn definition_list(text: &str) -> Option<Unwrapped> {
    let lines: Vec<&str> = text.split('\n').collect();
    let markup = |l: &str| is_attribute_list(l) || l.trim().trim_end_matches('\r').is_empty();
    let mut definitions = 0;
    let mut terms = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if definition_marker(line).is_none() {
            continue;
        }
        let term = lines[..i].iter().rev().find(|l| !markup(l));
        if let Some(t) = term.filter(|t| !t.starts_with([' ', '\t']) && definition_marker(t).is_none()) {
            definitions += 1;
            terms.push(t.trim().to_string());
        }
    }
    if definitions < 3 {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    // The column the value of the definition whose first paragraph is
    // being read stands at. The lines that go on with that paragraph
    // (up to a blank line) are part of it wherever they are indented:
    // mmark sources indent them to line up with the text after `: <br/>`
    // (`: <br/>  The process for assigning ...` then `         Details
    // ...`, the MRN draft's template), which is Markdown's lazy
    // continuation, not an indented block; they stand at the value's
    // column so that they are not read as indented below it.
    let mut paragraph: Option<usize> = None;
    let is_markup = |l: &str| is_attribute_list(l) || is_line_break(l);
    let mut first = true;
    for (i, line) in lines.iter().enumerate() {
        if is_markup(line) {
            // Markup among blank lines (mmark's `<br/>`, `{style="empty"}`,
            // `<br/>` between two paragraphs) goes with its line: the
            // blank lines around it are the paragraph break, which a run
            // of blank lines as long as a page's padding would not keep.
            let blank_or_markup = |l: &&str| l.trim().trim_end_matches('\r').is_empty() || is_markup(l);
            let among_blanks = i.checked_sub(1).map(|j| &lines[j]).is_some_and(blank_or_markup)
                || lines.get(i + 1).is_some_and(blank_or_markup);
            if among_blanks {
                continue;
            }
        }
        if !first {
            out.push('\n');
        }
        first = false;
        if is_markup(line) {
            continue;
        }
        match definition_marker(line) {
            Some(indent) => {
                let value = &line[indent + 1..];
                let spaces = value.len() - value.trim_start_matches([' ', '\t']).len();
                let value = value.trim_start_matches([' ', '\t']);
                // The spaces after a `<br/>` are the line's, not the value's.
                let value = match strip_line_break(value) {
                    v if v.len() < value.len() => v.trim_start_matches([' ', '\t']),
                    v => v,
                };
                let column = indent + 1 + spaces;
                out.push_str(&" ".repeat(column));
                out.push_str(value);
                paragraph = (!value.trim().is_empty()).then_some(column);
            }
            // A blank line ends the paragraph; so does a list item, which
            // may interrupt one (CommonMark 5.2) and keeps its own indent.
            None if line.trim().trim_end_matches('\r').is_empty() || starts_list_item(line) => {
                paragraph = None;
                out.push_str(strip_line_break(line));
            }
            None => match paragraph {
                Some(column) => {
                    out.push_str(&" ".repeat(column));
                    out.push_str(strip_line_break(line.trim_start_matches([' ', '\t'])));
                }
                None => out.push_str(strip_line_break(line)),
            },
        }
    }
    Some(Unwrapped {
        text: out,
        how: format!(
            "the template is a Markdown definition list ({definitions} 'Term' / ': value' pairs): each value read \
             as indented below its term"
        ),
        terms,
        markdown: true,
        ..Unwrapped::default()
    })
}

// ---------------------------------------------------------------------
// Markdown backslash escapes

/// Whether `text` reads as a Markdown source: it has an ATX heading
/// (`## Title`, CommonMark section 4.2) at the margin, first or after a
/// blank line, as kramdown-rfc and mmark drafts do.
fn is_markdown(text: &str) -> bool {
    let mut blank_before = true;
    for line in text.split('\n') {
        let hashes = line.bytes().take_while(|b| *b == b'#').count();
        if blank_before
            && (1..=6).contains(&hashes)
            && line[hashes..].starts_with([' ', '\t'])
            && line[hashes..].chars().any(char::is_alphanumeric)
        {
            return true;
        }
        blank_before = line.trim().is_empty();
    }
    false
}

/// A Markdown source's backslash escapes read as the characters they
/// escape (`\<` as `<`, `\_` as `_`; CommonMark section 2.4: any ASCII
/// punctuation), except in code fences and code spans, where a backslash
/// is a backslash. The text, how many were read and which characters,
/// if any.
fn markdown_escapes(text: &str) -> Option<(String, usize, std::collections::BTreeSet<char>)> {
    if !text.contains('\\') {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut read = 0usize;
    let mut chars = std::collections::BTreeSet::new();
    let mut fence: Option<&str> = None;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let indent = line.len() - line.trim_start_matches(' ').len();
        let run = super::import::fence_run(line).filter(|_| indent <= 3);
        match (fence, run) {
            (None, Some(run)) => fence = Some(run),
            (Some(open), Some(_)) if super::import::closes(line, open) => fence = None,
            _ => {}
        }
        if fence.is_some() || run.is_some() || !line.contains('\\') {
            out.push_str(line);
            continue;
        }
        read += unescape_line(line, &mut out, &mut chars);
    }
    (read > 0).then_some((out, read, chars))
}

/// One line of [`markdown_escapes`], written to `out`: the escapes read
/// outside its code spans (a run of backticks to the next run of as
/// many, CommonMark section 6.1). How many were read; the characters
/// they escaped go into `chars`.
fn unescape_line(line: &str, out: &mut String, chars: &mut std::collections::BTreeSet<char>) -> usize {
    let bytes = line.as_bytes();
    // The runs of backticks, and for each the next run of the same
    // length (found once, from the end).
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let len = bytes[i..].iter().take_while(|b| **b == b'`').count();
            runs.push((i, len));
            i += len;
        } else {
            i += 1;
        }
    }
    let mut next_same = vec![None; runs.len()];
    let mut last: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for k in (0..runs.len()).rev() {
        next_same[k] = last.insert(runs[k].1, k);
    }
    let mut read = 0;
    let (mut at, mut run) = (0usize, 0usize);
    while at < bytes.len() {
        // (A run that began with an escaped backtick is passed.)
        while run < runs.len() && runs[run].0 < at {
            run += 1;
        }
        if run < runs.len() && runs[run].0 == at {
            let (_, len) = runs[run];
            // A code span whole, or an unmatched run as it is.
            let end = match next_same[run] {
                Some(close) => {
                    let end = runs[close].0 + runs[close].1;
                    run = close + 1;
                    end
                }
                None => {
                    run += 1;
                    at + len
                }
            };
            out.push_str(&line[at..end]);
            at = end;
            continue;
        }
        if bytes[at] == b'\\' && bytes.get(at + 1).is_some_and(u8::is_ascii_punctuation) {
            out.push(char::from(bytes[at + 1]));
            chars.insert(char::from(bytes[at + 1]));
            read += 1;
            at += 2;
            continue;
        }
        let len = line[at..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&line[at..at + len]);
        at += len;
    }
    read
}

/// Whether `line` starts a Markdown list item (`- `, `* `, `+ `, `1. `,
/// `1) `), however indented.
fn starts_list_item(line: &str) -> bool {
    let t = line.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let rest = if digits > 0 && t[digits..].starts_with(['.', ')']) {
        &t[digits + 1..]
    } else if t.starts_with(['-', '*', '+']) {
        &t[1..]
    } else {
        return false;
    };
    rest.starts_with([' ', '\t'])
}

/// The ways a `<br>` is written.
const LINE_BREAKS: [&str; 3] = ["<br/>", "<br />", "<br>"];

/// A `<br/>` on a line of its own.
fn is_line_break(line: &str) -> bool {
    LINE_BREAKS.contains(&line.trim())
}

/// A line without the `<br/>` that starts it (mmark's way to put a
/// definition's value on a line of its own).
fn strip_line_break(line: &str) -> &str {
    LINE_BREAKS
        .iter()
        .find_map(|b| line.strip_prefix(b))
        .unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GFM table cells: `<br>` in any spelling breaks a line, two make a
    /// blank one; a line that is one code span whole loses its backticks,
    /// one inside a line keeps them; other tags stay text.
    #[test]
    fn table_cells_break_lines_at_br() {
        assert_eq!(cell_lines("a<br>b<BR/>c<br />d"), ["a", "b", "c", "d"]);
        assert_eq!(cell_lines("a<br><br>b"), ["a", "", "b"]);
        assert_eq!(cell_lines("`x = 1`<br>see `y`"), ["x = 1", "see `y`"]);
        assert_eq!(cell_lines("a <b> c <br"), ["a <b> c <br"]);
    }

    /// An HTML table of two columns reads as `Name: value` lines, with or
    /// without the name's colon; one of three columns does not.
    #[test]
    fn html_two_column_table_rows_read_as_fields() {
        let two =
            "<table><tr><td>Version</td><td>1</td></tr><tr><th>Date:</th><td>2020-01-02</td></tr></table>";
        assert_eq!(block_text(&tokenize(two)).0, "Version: 1\nDate: 2020-01-02\n");
        let three =
            "<table><tr><td>a</td><td>b</td><td>c</td></tr><tr><td>d</td><td>e</td><td>f</td></tr></table>";
        assert!(!block_text(&tokenize(three)).0.contains(':'));
    }

    /// xml2rfc: character references inside an `<artwork>` read, the text
    /// kept line for line; one in CDATA, or none, leaves the text alone.
    #[test]
    fn xml2rfc_artwork_references_read() {
        let escaped = "<rfc>\n<t>a &amp; b</t>\n<artwork>\nSyntax: &lt;NSS&gt; &amp;\n</artwork>\n</rfc>\n";
        let read = xml2rfc_artwork(escaped).unwrap();
        assert_eq!(
            read.text,
            "<rfc>\n<t>a &amp; b</t>\n<artwork>\nSyntax: <NSS> &\n</artwork>\n</rfc>\n"
        );
        assert!(xml2rfc_artwork("<rfc>\n<artwork><![CDATA[\n&lt;\n]]></artwork>\n</rfc>\n").is_none());
        assert!(xml2rfc_artwork("<html><rfc>\n<artwork>&lt;</artwork>").is_none());
        // The root after a long prolog: the declaration, PIs, a comment and
        // a DOCTYPE whose internal subset declares reference entities (a
        // draft's: thousands of bytes before `<rfc`).
        let entities =
            "<!ENTITY RFC2141 SYSTEM \"http://xml.resource.org/public/rfc/bibxml/reference.RFC.2141.xml\">\n"
                .repeat(60);
        let source = format!(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE rfc SYSTEM \"rfc2629.dtd\" [\n{entities}<!ENTITY q \"a ] > b\">\n<!-- don't ] > -->\n]>\n<?rfc toc=\"yes\"?>\n<!-- x -->\n<rfc ipr=\"trust200902\">\n<artwork>&lt;NSS&gt;</artwork>\n</rfc>\n"
        );
        assert!(source.find("<rfc ").unwrap() > 4096);
        assert!(xml2rfc_source(&source).is_some());
        assert!(xml2rfc_source("<!DOCTYPE html>\n<html><rfc></html>").is_none());
        assert!(xml2rfc_source("<?xml version=\"1.0\"?>\n<rfcx/>").is_none());
        assert!(xml2rfc_source("<!DOCTYPE rfc [ <!ENTITY a \"b\">").is_none());
    }

    /// RFC 3676: soft breaks joined at one quote depth (without their
    /// space under DelSp=yes), stuffing off, `-- ` no soft break; a
    /// mail that is not flowed is left alone.
    #[test]
    fn flowed_mail_reads_as_its_logical_lines() {
        let mail = "From: a@b.example\nSubject: x\nContent-Type: text/plain; charset=utf-8; format=flowed\n\n\
                    Scope:\n   Global, for the \nwhole world.\n>> quoted \n>> on\n> less \nnot joined\n-- \nsig\n";
        let done = flowed(mail).unwrap();
        assert!(done.text.ends_with(
            "\n\nScope:\n  Global, for the whole world.\n>> quoted on\n> less\nnot joined\n-- \nsig\n"
        ));
        let delsp = mail.replace("format=flowed", "format=flowed; delsp=yes");
        assert!(
            flowed(&delsp)
                .unwrap()
                .text
                .contains("  Global, for thewhole world.")
        );
        assert!(flowed(&mail.replace("; format=flowed", "")).is_none());
    }

    #[test]
    fn rfcmarkup_page_reads_as_its_pre_text() {
        let page = "<!DOCTYPE html>\n<html><head><title>RFC 3151</title></head><body>\n<pre>\n   Namespace ID:\n\n      \
                    \"publicid\" requested.\n\n   Declared registrant of the namespace:\n\n      Norman Walsh \
                    &lt;Norman.Walsh@East.Sun.COM&gt; <a href=\"./rfc2141\">RFC 2141</a>\n</pre></body></html>\n";
        let done = html(page).unwrap();
        assert!(
            done.text
                .contains("Norman Walsh <Norman.Walsh@East.Sun.COM> RFC 2141"),
            "{}",
            done.text
        );
        assert!(
            !done.text.contains("RFC 3151"),
            "the title is no text of the page"
        );
        assert!(!done.text.contains('<') || done.text.contains("<Norman"));
    }

    #[test]
    fn block_page_lays_out_definitions_indented() {
        let page = "<html><body><h2>3. Template</h2><dl><dt>Namespace ID:</dt><dd><p>UUID</p></dd>\
                    <dt>Scope:</dt><dd>Global &amp; <em>all</em>.</dd></dl><ul><li>one</li><li>two</li></ul></body></html>";
        let text = html(page).unwrap().text;
        assert_eq!(
            text,
            "3. Template\n\nNamespace ID:\n   UUID\n\nScope:\n   Global & all.\n\n- one\n- two\n"
        );
    }

    #[test]
    fn definitions_end_without_end_tags_and_nest_a_few_levels() {
        let page = "<html><dl><dt>A:<dd>one<dt>B:<dd>two<dd>three</dl><p>after";
        assert_eq!(
            html(page).unwrap().text,
            "A:\n   one\n\nB:\n   two\n   three\n\nafter\n"
        );
        let deep = format!("<html>{}x", "<dl><dd>".repeat(10_000));
        let text = html(&deep).unwrap().text;
        assert_eq!(text, format!("{}x\n", " ".repeat(3 * MAX_INDENT)));
    }

    #[test]
    fn plain_text_is_not_html() {
        assert!(!looks_like_html("Namespace ID: <foo>\n"));
        assert!(!looks_like_html("<foo@example.org> wrote:\n"));
        assert!(looks_like_html("  <PRE>\nNamespace ID:\n</PRE>"));
        assert!(looks_like_html(
            "<?xml version=\"1.0\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\">"
        ));
    }

    #[test]
    fn character_references() {
        assert_eq!(character_reference("&amp;x").0, "&");
        assert_eq!(character_reference("&#233;").0, "\u{e9}");
        assert_eq!(character_reference("&#xE9;").0, "\u{e9}");
        assert_eq!(character_reference("&#x110000;").0, "\u{fffd}");
        assert_eq!(character_reference("& b"), (Cow::Borrowed("&"), 1));
        assert_eq!(character_reference("&unknown;"), (Cow::Borrowed("&"), 1));
        // xml2rfc v3's own entities.
        assert_eq!(character_reference("&nbhy;").0, "-");
        assert_eq!(character_reference("&zwsp;").0, "");
        assert_eq!(character_reference("&wj;").0, "");
        assert_eq!(character_reference("&#99999999999;"), (Cow::Borrowed("&"), 1));
    }

    #[test]
    fn skipped_elements_end_at_their_end_tag_in_any_case() {
        let tokens = tokenize("<html><SCRIPT>a</scripts> b</Script >c<style/>d");
        let text: Vec<&Token> = tokens.iter().filter(|t| matches!(t, Token::Text(_))).collect();
        assert_eq!(
            text,
            [&Token::Text("c".to_string()), &Token::Text("d".to_string())]
        );
        // Linear in the page: many unclosed scripts end at the text's end.
        let page = format!("<html>{}", "<script>x".repeat(200_000));
        assert_eq!(tokenize(&page), vec![Token::Open("html".to_string())]);
    }

    #[test]
    fn hostile_html_ends() {
        for page in [
            "<html><body><p",
            "<html><script>",
            "<html><!-- x",
            "<html><a href=\"x>",
            "<html>&#",
            "<html></",
            "<html><a \u{e9}",
            "<html><p title='\u{e9}\u{e9}",
            "<html>&\u{e9}",
            "<html><pre>\u{e9}",
            "<html><div id=toc",
            "<html><div id=\"toc\"><div>",
            "<html><a class='pilcrow' href=x>\u{b6}",
            "<html><p id==>",
        ] {
            let _ = html(page).unwrap();
        }
    }

    /// xml2rfc v3's HTML: the table of contents (nested `<div>`s), the
    /// self-link marks and the site's footer are no text of the page.
    #[test]
    fn page_furniture_is_no_text() {
        let page = "<html><body><div id=\"toc\"><div><ul><li>1. Namespace Registration</li></ul></div>\
                    <p>still contents</p></div><p>Version: 1<a href=\"#s\" class=\"pilcrow\">\u{b6}</a></p>\
                    <div class=\"site footer\">\u{a9} 2024</div><footer>Legal</footer><p>Date: 2024</p></body></html>";
        let text = html(page).unwrap().text;
        assert_eq!(
            text.split_whitespace().collect::<Vec<_>>(),
            ["Version:", "1", "Date:", "2024"]
        );
        // Never closed: read as text, not taken with the rest of the page.
        for page in [
            "<html><div id=toc><p>Version: 1</p>",
            "<html><footer><p>Version: 1</p>",
        ] {
            assert!(html(page).unwrap().text.contains("Version: 1"), "{page}");
        }
        assert_eq!(attribute(" id = 'toc' class=x", "id"), Some("toc"));
        assert_eq!(attribute(" data-id=toc", "id"), None);
        assert_eq!(attribute(" class=pilcrow/", "class"), Some("pilcrow"));
    }

    /// A page whose headings stand outside its `<pre>` blocks (urnreg's own
    /// HTML form: each field's value in a `<pre>` under its `<h2>`) is read
    /// by its layout, the `<pre>` text one step in; rfcmarkup's pages keep
    /// their headings inside.
    #[test]
    fn pre_blocks_under_headings_are_read_with_them() {
        let page = "<html><body><h2>Purpose</h2><pre>\nWidgets.\n2.1.  Title</pre><h2>Syntax</h2><pre>NSS = 1*DIGIT</pre></body></html>";
        let text = html(page).unwrap().text;
        assert_eq!(
            text,
            "Purpose\n\n   Widgets.\n   2.1.  Title\n\nSyntax\n\n   NSS = 1*DIGIT\n"
        );
    }

    /// GitHub Flavored Markdown section 4.10: a table of two columns is
    /// read as `Name: value` lines; other tables stay as they are.
    #[test]
    fn two_column_tables_are_name_value_lines() {
        let text = "# urn:lamp\n\n| Field | Value |\n|---|:--:|\n| Namespace Identifier | `lamp` |\n| Version | 1 \\| 2 |\n\nafter\n";
        let done = two_column_table(text).unwrap();
        assert_eq!(
            done.text,
            "# urn:lamp\n\nField: Value\nNamespace Identifier: lamp\nVersion: 1 | 2\n\nafter\n"
        );
        assert!(two_column_table("| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n").is_none());
        assert!(two_column_table("| a | b |\n").is_none());
    }

    #[test]
    fn quoted_printable_body_is_decoded() {
        let mail = "From: a@example.org\nSubject: reg\nContent-Type: text/plain; charset=iso-8859-1\n\
                    Content-Transfer-Encoding: quoted-printable\n\nDeclared registrant: Soci=E9t=E9 J=F6rg, sep=\narators\n\
                    sprocket-nss =3D 6DIGIT\n";
        let done = quoted_printable(mail).unwrap();
        assert!(done.text.contains("Société Jörg, separators\n"), "{}", done.text);
        assert!(done.text.contains("sprocket-nss = 6DIGIT"));
        assert!(done.text.starts_with("From: a@example.org\n"));
    }

    #[test]
    fn quoted_printable_mime_part() {
        let mail = "From: a@example.org\nContent-Type: multipart/mixed; boundary=\"XX\"\n\npreamble =3D\n--XX\n\
                    Content-Transfer-Encoding: quoted-printable\n\nScope: Glob=\nal =3D\n--XX--\n";
        let text = quoted_printable(mail).unwrap().text;
        assert!(
            text.contains("preamble =3D\n"),
            "only the part says quoted-printable: {text}"
        );
        assert!(text.contains("Scope: Global =\n"), "{text}");
    }

    #[test]
    fn plain_mail_is_left_alone() {
        assert!(quoted_printable("From: a\nTo: b\n\nx =3D y\n").is_none());
        assert!(quoted_printable("Namespace ID: x\n\n").is_none());
    }

    #[test]
    fn definition_list_values_indented_below_terms() {
        let text =
            "{:vspace}\nNamespace ID:\n: UUID\n\nScope:\n: <br/>Global,\n  everywhere.\n\nVersion\n:  1\n";
        let done = definition_list(text).unwrap();
        assert_eq!(
            done.text,
            "\nNamespace ID:\n  UUID\n\nScope:\n  Global,\n  everywhere.\n\nVersion\n   1\n"
        );
        assert!(definition_list("Namespace ID: x\n: y\n").is_none());
        assert_eq!(done.terms, ["Namespace ID:", "Scope:", "Version"]);
    }

    #[test]
    fn markdown_escapes_read_outside_code() {
        let text = "# T\n\n\\<A\\> a\\_b `c\\_d` \\`e\\` f\\q\n```\nx\\_y\n```\n";
        let (out, read, chars) = markdown_escapes(text).unwrap();
        assert_eq!(out, "# T\n\n<A> a_b `c\\_d` `e` f\\q\n```\nx\\_y\n```\n");
        assert_eq!(read, 5);
        assert_eq!(chars.into_iter().collect::<String>(), "<>_`");
        assert!(is_markdown(text));
        assert!(!is_markdown("Namespace ID: x\n  # not a heading\n"));
        assert!(markdown_escapes("no escapes").is_none());
    }

    #[test]
    fn tables_read_give_their_lines() {
        let md = "Title\n\n| A | B |\n|---|---|\n| Version | 1 |\n| Scope | x<br>y |\n\nAfter\n";
        let done = two_column_table(md).unwrap();
        assert_eq!(done.text.lines().nth(2), Some("A: B"));
        assert_eq!(done.tables.len(), 1);
        assert_eq!((done.tables[0].start, done.tables[0].end), (2, 6));
        assert_eq!(done.text.lines().nth(6), Some(""));
        let html = "<p>Before</p><table><tr><td>Version</td><td>1</td></tr>\
                    <tr><td>Scope</td><td>x</td></tr></table><p>After</p>";
        let (text, tables) = block_text(&tokenize(html));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(tables.len(), 1);
        assert_eq!(
            lines[tables[0].clone()]
                .iter()
                .filter(|l| l.contains(':'))
                .count(),
            2
        );
        assert_eq!(
            lines[tables[0].end..].iter().find(|l| !l.is_empty()),
            Some(&"After")
        );
    }

    /// RFC 4648 section 4: padding, a short last group, characters
    /// outside the alphabet refused; a mail whose body is no text is not
    /// decoded.
    #[test]
    fn base64_is_decoded_for_text_bodies_only() {
        assert_eq!(decode_base64("TmFtZQ==").as_deref(), Some(&b"Name"[..]));
        assert_eq!(decode_base64("TmFt").as_deref(), Some(&b"Nam"[..]));
        assert_eq!(decode_base64("TmE").as_deref(), Some(&b"Na"[..]));
        assert_eq!(decode_base64("T*=="), None);
        let mail =
            "From: a@b\nSubject: s\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\nTmFtZQ==\n";
        assert!(base64_body(mail).is_none());
        let text = mail.replace("image/png", "text/plain");
        assert!(base64_body(&text).is_some_and(|u| u.text.ends_with("\n\nName")));
    }

    /// RFC 4880 section 7: the armor and signature go, dash escapes are
    /// undone; a text with neither is left alone.
    #[test]
    fn pgp_cleartext_signature_is_no_text() {
        let signed = "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nScope:\n- - one\n\n\
                      -----BEGIN PGP SIGNATURE-----\n\nabc\n-----END PGP SIGNATURE-----\nafter";
        let done = pgp_cleartext(signed).unwrap();
        assert_eq!(done.text, "\n\n\nScope:\n- one\n\nafter");
        assert!(pgp_cleartext("Scope:\n- - one\n").is_none());
    }
}
