//! Registrations sent by mail: header blocks, quoted replies, signatures,
//! list footers; and a Markdown source's front matter.

use super::*;

/// A mailing list's footer starting at line `i`: a rule of underscores
/// (Mailman writes 47) and, below it, the list's name (`urn-nid mailing
/// list`).
pub(super) fn is_list_footer(lines: &[&str], i: usize) -> bool {
    let rule = lines[i].trim();
    rule.len() >= 20
        && rule.bytes().all(|b| b == b'_')
        && lines
            .get(i + 1)
            .is_some_and(|next| next.to_ascii_lowercase().contains("mailing list"))
}

/// Pipermail's line where it put a mail's scrubbed attachments (a PGP
/// signature, an HTML alternative) after the text: `--------------
/// next part --------------`, then `An HTML attachment was scrubbed...`
/// and its URL.
pub(super) fn is_attachment_trailer(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("----") && t.ends_with("----") && t.trim_matches('-').trim() == "next part"
}

/// Closings a registration mail ends with (the words a line of its own
/// starts with, case-insensitively), in the languages of the urn-nid
/// list's archive.
pub(super) const CLOSINGS: &[&str] = &[
    "best regards",
    "kind regards",
    "regards",
    "best wishes",
    "sincerely",
    "yours sincerely",
    "yours faithfully",
    "many thanks",
    "thanks and regards",
    "cheers",
    "mit freundlichen grüßen",
    "mit freundlichen gruessen",
    "viele grüße",
    "cordialement",
    "bien cordialement",
    "saludos",
    "met vriendelijke groet",
    "med vänlig hälsning",
    "ystävällisin terveisin",
];

/// Closings of a word or two that also start sentences (`Best effort
/// ...`, `Thanks to ...`): a closing only alone on its line, with its
/// punctuation (`Thanks,`, `Thank you!`, `Best,`), as on the urn-nid and
/// urn lists.
pub(super) const SHORT_CLOSINGS: &[&str] = &["thanks", "thank you", "best", "all the best", "thx", "ta"];

/// Whether `line` is a mail's closing: one of [`CLOSINGS`], alone or
/// followed by punctuation or a translation (`Mit freundlichen Grüßen /
/// Best regards`), or one of [`SHORT_CLOSINGS`] alone.
pub(super) fn is_closing(line: &str) -> bool {
    let t = line.trim().to_lowercase();
    let bare = t.trim_end_matches([',', '.', '!']).trim_end();
    t.chars().count() <= 60
        && (SHORT_CLOSINGS.contains(&bare)
            || CLOSINGS.iter().any(|c| {
                t.strip_prefix(c)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with([',', '.', '!', ' ', '/']))
            }))
}

/// RFC 5322 header fields a registration mail starts with, and those a
/// mailing list or a mail client adds (RFC 2369, RFC 2919, RFC 5064): each
/// names a mail's header even where it could be read as a heading.
pub(super) const MAIL_HEADERS: &[&str] = &[
    "from",
    "to",
    "cc",
    "bcc",
    "subject",
    "date",
    "sender",
    "reply-to",
    "message-id",
    "in-reply-to",
    "references",
    "received",
    "return-path",
    "mime-version",
    "content-type",
    "content-transfer-encoding",
    "organization",
    "keywords",
    "comments",
];

/// The lines of a mail's header block at the top of `lines` (RFC 5322
/// section 2.2: `Name: value` fields, folded lines starting with white
/// space, up to the first blank line; an mbox file's `From ` line before
/// them), if the text starts with one that has a `From`, `To`, `Subject`
/// or `Message-ID` field and at least two fields; otherwise `None`. A
/// field is one of [`MAIL_HEADERS`], or any other field name (RFC 5322
/// section 3.6.8: `List-Id`, `User-Agent`, `Archived-At`, `X-...`) that
/// is no template heading. Its `Date:` is the mail's, not the
/// registration's.
///
/// The IETF's mail archive (mailarchive.ietf.org) shows a message with
/// its subject and a line of its author and date above the header block,
/// and saves it so: a block after at most [`MAIL_PREFACE_PARAGRAPHS`]
/// short paragraphs is a header block too.
pub(in crate::template) fn mail_header_block(lines: &[&str]) -> Option<std::ops::Range<usize>> {
    let mut start = lines.iter().position(|l| !l.trim().is_empty())?;
    for _ in 0..=MAIL_PREFACE_PARAGRAPHS {
        if let Some(block) = header_block_at(lines, start) {
            return Some(block);
        }
        // The next paragraph, after a short one (a subject, an author's
        // line).
        let end = (start..lines.len()).find(|&i| lines[i].trim().is_empty())?;
        if end - start > 2 {
            return None;
        }
        start = (end..lines.len()).find(|&i| !lines[i].trim().is_empty())?;
    }
    None
}

/// The header blocks of mails inside the text, below its first line: a
/// paragraph that [`header_block_at`] reads as one (`Subject:`, `Date:`,
/// `From:`, `To:` after `-------- Forwarded Message --------` or a blank
/// line), as a forwarded message or an ID notification pasted into a
/// mail carries.
pub(super) fn inner_header_blocks(lines: &[&str]) -> Vec<std::ops::Range<usize>> {
    (1..lines.len())
        .filter(|&i| {
            !blank_or_break(lines[i]) && (blank_or_break(lines[i - 1]) || is_forward_rule(lines[i - 1]))
        })
        .filter_map(|i| header_block_at(lines, i))
        .collect()
}

/// The line mail clients put above a forwarded message's header block
/// (`-------- Forwarded Message --------`, `-----Original Message-----`,
/// `Begin forwarded message:`).
pub(super) fn is_forward_rule(line: &str) -> bool {
    let words = line
        .trim()
        .trim_matches(|c| c == '-' || c == ' ')
        .to_ascii_lowercase();
    matches!(
        words.as_str(),
        "forwarded message" | "original message" | "begin forwarded message:" | "forwarded message follows"
    )
}

/// How many paragraphs of one or two lines (a mail archive's subject and
/// author lines) may come before a mail's header block.
pub(super) const MAIL_PREFACE_PARAGRAPHS: usize = 2;

/// The header block of [`mail_header_block`] starting at line `start`.
pub(super) fn header_block_at(lines: &[&str], start: usize) -> Option<std::ops::Range<usize>> {
    // An mbox file's separator line: `From sender date`, no colon after
    // `From` (RFC 4155).
    let fields_start = if lines[start].starts_with("From ") {
        start + 1
    } else {
        start
    };
    let mut names = Vec::new();
    let mut end = fields_start;
    // The block ends at a blank line, or at the page break blank lines
    // of page padding are read as (`drop_page_breaks`).
    while end < lines.len() && !lines[end].trim().is_empty() && lines[end] != PAGE_BREAK {
        let line = lines[end];
        if line.starts_with([' ', '\t']) && !names.is_empty() {
            end += 1;
            continue;
        }
        let (name, _) = line.split_once(':')?;
        let name = name.to_ascii_lowercase();
        // RFC 5322 section 3.6.8: a field name is printable ASCII but the
        // colon; the ones in use are letters, digits and hyphens.
        let token = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        let is_field = MAIL_HEADERS.contains(&name.as_str())
            || (token && (name.starts_with("x-") || find_heading(&[line], 0, None).is_none()));
        if !is_field {
            return None;
        }
        names.push(name);
        end += 1;
    }
    let addressed = names
        .iter()
        .any(|n| matches!(n.as_str(), "from" | "to" | "subject" | "message-id"));
    (addressed && names.len() >= 2).then_some(start..end)
}

/// The lines of a YAML front matter block at the top of `lines`: a `---`
/// line first, then YAML (`key: value`, indented lines, `- item`,
/// comments) up to a closing `---` or `...` line (kramdown-rfc closes it
/// with its first section marker, `--- abstract`), within
/// [`FRONT_MATTER_MAX`] lines, as kramdown-rfc and mmark sources start.
pub(super) fn front_matter(lines: &[&str]) -> Option<std::ops::Range<usize>> {
    let start = lines.iter().position(|l| !l.trim().is_empty())?;
    if lines[start].trim_end() != "---" {
        return None;
    }
    let close = lines[start + 1..]
        .iter()
        .take(FRONT_MATTER_MAX)
        .position(|l| matches!(l.trim_end(), "---" | "...") || l.starts_with("--- "))?;
    let body = &lines[start + 1..start + 1 + close];
    let yaml = body.iter().all(|l| {
        let t = l.trim_start();
        t.is_empty()
            || t.starts_with('#')
            || t.starts_with("- ")
            || t == "-"
            || l.starts_with([' ', '\t'])
            || t.split_once(':').is_some_and(|(key, _)| {
                !key.is_empty()
                    && key
                        .chars()
                        .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '"' | '\''))
            })
    });
    let keyed = body
        .iter()
        .any(|l| !l.starts_with([' ', '\t']) && l.contains(':'));
    (yaml && keyed).then_some(start..start + close + 2)
}

/// How many lines a YAML front matter block may have.
pub(super) const FRONT_MATTER_MAX: usize = 2000;

/// A registration quoted in a mail reply (`> Namespace ID: ...`, RFC 3676
/// section 4.5's quote marks): when at least three lines and half of
/// those with text are quoted, the quoted lines are read without their
/// quote marks (and the space after each), and the replier's own lines
/// (`On ..., X wrote:`, `Looks fine to me.`) are no part of the template:
/// set aside, and said.
///
/// A reply to a reply quotes the registration deeper (`> > Namespace ID:`
/// or `>> Namespace ID:`, as a urn-nid thread quotes the request once per
/// answer): the template is read at the depth most of the quoted text is
/// quoted to, its lines without that many marks; the lines quoted less
/// deep are the earlier replies' words (`> Dear all, below is the revised
/// template.`), set aside like the replier's own.
pub(super) fn unquote_reply(lines: &mut [&str], notes: &mut Vec<Note>) {
    let quoted = lines.iter().filter(|l| l.starts_with('>')).count();
    let filled = lines.iter().filter(|l| !l.trim().is_empty()).count();
    if quoted < 3 || quoted * 2 < filled {
        return;
    }
    // The line without `depth` quote marks, and how many it had (up to
    // `depth`).
    fn unquoted(line: &str, depth: usize) -> (&str, usize) {
        let mut rest = line;
        for n in 0..depth {
            match rest.strip_prefix('>') {
                Some(r) => rest = r.strip_prefix(' ').unwrap_or(r),
                None => return (rest, n),
            }
        }
        (rest, depth)
    }
    // The depth the template's headings are quoted to, and else the one
    // with the most quoted lines of text: (headings, lines) at each depth.
    // An older thread quoted deeper below the registration is not it.
    let mut counts: Vec<(usize, usize)> = Vec::new();
    for line in lines.iter() {
        let (rest, depth) = unquoted(line, usize::MAX);
        if depth > 0 && !rest.trim().is_empty() {
            if counts.len() < depth {
                counts.resize(depth, (0, 0));
            }
            let heading = find_heading(&[rest], 0, None).is_some_and(|h| !h.key.is_empty());
            counts[depth - 1].0 += usize::from(heading);
            counts[depth - 1].1 += 1;
        }
    }
    let depth = (1..=counts.len())
        .rev()
        .max_by_key(|d| counts[d - 1])
        .unwrap_or(1);
    let mut own = Vec::new();
    let mut older = Vec::new();
    for (i, line) in lines.iter_mut().enumerate() {
        let (rest, marks) = unquoted(line, depth);
        if marks == depth && rest.starts_with('>') {
            // Quoted deeper than the template: an older message the
            // quoted one answered (`>> Earlier discussion ...`), no text
            // of the registration.
            if !rest.trim_start_matches(['>', ' ']).trim().is_empty() {
                older.push(i);
            }
            *line = "";
        } else if marks == depth {
            *line = rest;
        } else if rest.trim().is_empty() {
            *line = "";
        } else {
            own.push((i, line.trim()));
            *line = "";
        }
    }
    // The line that introduces an older message (`Earlier, Bob wrote:`)
    // goes with it.
    for k in 0..older.len() {
        let first = older[k];
        if k > 0 && older[k - 1] + 1 >= first {
            continue;
        }
        if let Some(intro) = (0..first).rev().find(|&j| !lines[j].trim().is_empty())
            && lines[intro].trim_end().to_ascii_lowercase().ends_with("wrote:")
        {
            lines[intro] = "";
            older.push(intro);
        }
    }
    older.sort_unstable();
    notes.push(Note::new(
        NoteKind::Unplaced,
        None,
        format!(
            "the text is a reply quoting the registration with '{}': the quoted lines are read without their \
             quote marks{}{}",
            ">".repeat(depth),
            match own.first() {
                Some((i, first)) => format!(
                    ", and the {} {} line(s) set aside (line {}: {})",
                    if depth > 1 {
                        "replies' own and less deeply quoted"
                    } else {
                        "reply's own"
                    },
                    own.len(),
                    i + 1,
                    preview(first)
                ),
                None => String::new(),
            },
            match older.first() {
                Some(i) => format!(
                    "; {} line(s) quoted deeper (an older message) set aside from line {}",
                    older.len(),
                    i + 1
                ),
                None => String::new(),
            }
        ),
    ));
}
