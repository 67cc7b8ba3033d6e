//! RFC page furniture: page breaks, running headers and footers, page
//! numbers, and the indentation of what is left.

use super::*;

/// What a line of an RFC's page break becomes: no text, and no line
/// either (line numbers stay those of the input).
pub(super) const PAGE_BREAK: &str = "\u{0}";

/// Blanks out the page breaks of an RFC extract (RFC 7322 section 4.8's
/// layout): the footer ending in `[Page N]`, the form feed, the next
/// page's running header (`RFC 4854 ... April 2007`, or an
/// Internet-Draft's), and the blank lines that pad them, so that no
/// field holds them and a paragraph split by a page reads whole.
pub(super) fn drop_page_breaks(lines: &mut [&str]) {
    let is_blank = |l: &str| {
        l.trim_matches(|c: char| c.is_whitespace() || c == '\u{c}')
            .is_empty()
    };
    let is_footer = |l: &str| {
        let t = l.trim();
        t.ends_with(']')
            && t.rfind("[Page ")
                .is_some_and(|at| t[at + 6..t.len() - 1].trim().bytes().all(|b| b.is_ascii_digit()))
    };
    // Other documents' running footers and headers (`Page 3 of 9`, `- 3 -`,
    // a draft's `Internet Draft ...`, a title alone), told by where they
    // stand: around the form feeds of a paginated text.
    let running = running_furniture(lines);
    let is_footer = |i: usize, l: &str| is_footer(l) || running.footers.contains(&i);
    let is_header = |i: usize, l: &str| {
        let t = l.trim_start_matches('\u{c}').trim_start();
        ((t.starts_with("RFC ") || t.starts_with("Internet-Draft") || t.starts_with("INTERNET-DRAFT"))
            && t.contains("   "))
            || running.headers.contains(&i)
    };
    // Line lengths are measured from the text's left margin, so that an
    // indented copy of a text breaks the same.
    let margin = lines
        .iter()
        .filter(|l| !is_blank(l))
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let footer = is_footer(i, line);
        if !footer && !line.contains('\u{c}') {
            i += 1;
            continue;
        }
        if !(footer || is_blank(line) || is_header(i, line)) {
            // Text after a form feed is text.
            lines[i] = line.trim_matches('\u{c}');
            i += 1;
            continue;
        }
        lines[i] = PAGE_BREAK;
        // The padding before it.
        let mut back = i;
        while back > 0 && is_blank(lines[back - 1]) {
            back -= 1;
            lines[back] = PAGE_BREAK;
        }
        // The form feed, the next page's header and the padding after.
        let mut j = i + 1;
        while j < lines.len() && is_blank(lines[j]) {
            lines[j] = PAGE_BREAK;
            j += 1;
        }
        if j < lines.len() && is_header(j, lines[j]) {
            lines[j] = PAGE_BREAK;
            j += 1;
            while j < lines.len() && is_blank(lines[j]) {
                lines[j] = PAGE_BREAK;
                j += 1;
            }
        }
        if back > 0
            && j < lines.len()
            && page_broke_between_paragraphs(lines[back - 1], lines[j], margin, i - back)
        {
            lines[back] = "";
        }
        reattach_underline(lines, back, j);
        i = j;
    }
    // A page's padding whose footer and header were deleted (an "rfc
    // strip" macro, a copy from a paginated viewer): a run of more blank
    // lines than any paragraph gap is read as a page break too, one blank
    // line, or none inside a sentence.
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].trim().is_empty() || lines[i] == PAGE_BREAK {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && lines[i].trim().is_empty() && lines[i] != PAGE_BREAK {
            i += 1;
        }
        if start == 0 || i == lines.len() || i - start < PADDING_RUN {
            continue;
        }
        // The run is the page's padding and the blank lines below its
        // header: a form feed's line and two (RFC 7322 section 4.1).
        let goes_on =
            !page_broke_between_paragraphs(lines[start - 1], lines[i], margin, (i - start).saturating_sub(3));
        for line in &mut lines[start..i - usize::from(!goes_on)] {
            *line = PAGE_BREAK;
        }
        reattach_underline(lines, start, i);
    }
}

/// A setext underline (`----`, `====`) that a page break parted from
/// the field title above it (the title the last line of its page, the
/// underline the first of the next): put back right under the title, on
/// the page break's first line (`from`, the one after the title), and
/// its own line (`to`, the first after the break) made part of the
/// break, so that the title reads as underlined and no field holds the
/// underline.
pub(super) fn reattach_underline(lines: &mut [&str], from: usize, to: usize) {
    if from == 0 || from >= to || to >= lines.len() || !is_underline(lines[to]) {
        return;
    }
    let title = from - 1;
    if lines[title].trim().is_empty() || lines[title] == PAGE_BREAK {
        return;
    }
    if find_heading(lines, title, None).is_none_or(|h| h.key.is_empty()) {
        return;
    }
    lines[from] = lines[to];
    lines[to] = PAGE_BREAK;
}

/// The running footers and headers of a paginated text in other forms
/// than an RFC's, by line: the last line above each form feed and the
/// first below it, when the same line (its numbers aside) stands there
/// at two page breaks or more, or is a page number (`3`, `- 3 -`, `Page
/// 3`, `Page 3 of 9`, also at the end of a footer's line); also, at a
/// text's only page break, a footer or header laid out in columns and
/// set apart from the page's text by a blank line, and a header in three
/// columns (`Internet Draft   Title   March 1999`), as running headers are.
pub(super) struct Running {
    pub(super) footers: HashSet<usize>,
    pub(super) headers: HashSet<usize>,
}

pub(super) fn running_furniture(lines: &[&str]) -> Running {
    let blank = |l: &str| {
        l.trim_matches(|c: char| c.is_whitespace() || c == '\u{c}')
            .is_empty()
    };
    let mut footers = Vec::new();
    let mut headers = Vec::new();
    let breaks: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].contains('\u{c}')).collect();
    for (k, &at) in breaks.iter().enumerate() {
        let floor = if k > 0 { breaks[k - 1] + 1 } else { 0 };
        let ceiling = breaks.get(k + 1).copied().unwrap_or(lines.len());
        // Text before the form feed on its own line is the footer's.
        let above = lines[at].split('\u{c}').next().unwrap_or("");
        if !blank(above) {
            footers.push(at);
        } else if let Some(f) = (floor..at).rev().find(|&i| !blank(lines[i])) {
            footers.push(f);
        }
        let below = lines[at].rsplit('\u{c}').next().unwrap_or("");
        if !blank(below) {
            headers.push(at);
        } else if let Some(h) = (at + 1..ceiling).find(|&i| !blank(lines[i])) {
            headers.push(h);
        }
    }
    // Counted in a map: a text may hold a form feed on every line.
    let recurring = |found: &[usize]| -> HashSet<String> {
        let mut seen: HashMap<String, usize> = HashMap::new();
        for &i in found {
            *seen.entry(page_shape(lines[i])).or_default() += 1;
        }
        seen.into_iter().filter(|(_, n)| *n > 1).map(|(s, _)| s).collect()
    };
    let footer_shapes = recurring(&footers);
    let header_shapes = recurring(&headers);
    // A line set apart by a blank line from the page's text, in two
    // columns or more (`Doe    Expires September 2, 2016`).
    let apart = |i: usize, step: isize| {
        columns(lines[i]) >= 2
            && i.checked_add_signed(step)
                .and_then(|j| lines.get(j))
                .is_some_and(|l| blank(l))
    };
    footers.retain(|&i| {
        let s = page_shape(lines[i]);
        footer_shapes.contains(&s)
            || is_page_number(&s)
            || ends_with_page_number(lines[i].trim())
            || apart(i, -1)
    });
    headers.retain(|&i| {
        let s = page_shape(lines[i]);
        header_shapes.contains(&s) || columns(lines[i]) >= 3 || apart(i, 1)
    });
    Running {
        footers: footers.into_iter().collect(),
        headers: headers.into_iter().collect(),
    }
}

/// A running line's wording, its numbers aside: its words one space
/// apart, each run of digits one `#` (`Page 3 of 9` is `Page # of #`).
pub(super) fn page_shape(line: &str) -> String {
    let mut out = String::new();
    for word in line
        .trim_matches(|c: char| c.is_whitespace() || c == '\u{c}')
        .split_whitespace()
    {
        if !out.is_empty() {
            out.push(' ');
        }
        let mut digits = false;
        for c in word.chars() {
            if c.is_ascii_digit() {
                if !digits {
                    out.push('#');
                }
                digits = true;
            } else {
                out.push(c);
                digits = false;
            }
        }
    }
    out
}

/// A page number as a footer writes it, its digits made `#`: `#`, `- # -`,
/// `Page #`, `Page # of #`, `# of #`, `#/#`.
pub(super) fn is_page_number(shape: &str) -> bool {
    let lower = shape.to_ascii_lowercase();
    let rest = lower.strip_prefix("page ").unwrap_or(&lower);
    matches!(rest, "#" | "- # -" | "-#-" | "# of #" | "#/#" | "# / #")
}

/// A footer's line that ends with its page number after a gap of three
/// spaces or more (`Doe    Expires March 1999    Page 3`).
pub(super) fn ends_with_page_number(line: &str) -> bool {
    let Some(at) = line.rfind("   ") else {
        return false;
    };
    !line[..at].trim().is_empty() && is_page_number(&page_shape(&line[at..]))
}

/// The columns a line is laid out in, parted by gaps of three spaces or
/// more: a running header's left, centre and right are three.
pub(super) fn columns(line: &str) -> usize {
    let t = line.trim_matches(|c: char| c.is_whitespace() || c == '\u{c}');
    t.split("   ").filter(|part| !part.trim().is_empty()).count()
}

/// Blank lines in a row that no paragraph gap has: a page's padding.
pub(super) const PADDING_RUN: usize = 4;

/// The blank lines an RFC page ends with at least (RFC 7322 section 4.1's
/// pages, as formatters pad them): more, and the page was cut short.
pub(super) const PAGE_PADDING: usize = 3;

/// The widest line of an RFC (RFC 7322 section 4.1).
pub(super) const RFC_LINE_WIDTH: usize = 72;

/// Whether a page broke between two paragraphs (or list items) rather
/// than inside one: the line before the break ends a sentence, and the
/// first word after it would have fitted on that line, so a formatter
/// filling the paragraph would have put it there; or the line after it
/// starts a grammar rule.
pub(super) fn page_broke_between_paragraphs(
    before: &str,
    after: &str,
    margin: usize,
    padding: usize,
) -> bool {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let shallower = indent(after) < indent(before);
    let capital = after.trim_start().starts_with(|c: char| c.is_uppercase());
    let before = before.trim_end();
    let ends_sentence = before
        .trim_end_matches(['"', ')', '\'', '\u{201d}'])
        .ends_with(['.', '!', '?', ':']);
    let next_word = after.split_whitespace().next().unwrap_or("");
    let used = before.chars().count().saturating_sub(margin);
    // A grammar's next rule (`rfc-nss = "rfc:" 1*DIGIT`, RFC 5234 section
    // 2.2) starts a group of its own: rules are parted by a blank line.
    let rule = after.trim_start();
    let name = rule
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .unwrap_or(rule.len());
    let next_rule = name > 0 && rule[name..].trim_start().starts_with('=');
    // So does a list's next bullet (`*  "Lamp Catalogue" [CAT].`, `o  ...`,
    // RFC 7322's bullets) and a note. (A numbered line may be a section's
    // title as well as an item: `is_section_title` tells them apart.)
    let next_item =
        matches!(rule.split_once(' '), Some(("*" | "-" | "o" | "+", _))) || rule.starts_with("NOTE:");
    let fitted = used + 1 + next_word.chars().count() <= RFC_LINE_WIDTH;
    // Or a line the next word would have fitted on ends a display left of
    // which the text goes on (`http://www.dvb.org/metadata` at column 9,
    // then `DVB will ...` at 6; RFC 3121's grammar, then `where ...`); or
    // a sentence ended and a new one begins on a page cut short (more
    // padding than a full page has: RFC 6288's `... may not be
    // reassigned.`, 7 blank lines, `The DGIWG may permit ...`). A full
    // page ending a sentence goes on with the paragraph (RFC 3614's
    // `... URN catalogs.` / `The presence of a URN ...`, one paragraph in
    // IANA's mpeg text).
    (fitted && (ends_sentence || shallower))
        || ((ends_sentence || fitted) && capital && padding > PAGE_PADDING)
        || next_rule
        || next_item
}

/// Removes the common indentation and the blank lines at both ends.
pub(super) fn dedent(lines: &[&str]) -> String {
    dedent_under(lines, usize::MAX)
}

/// [`dedent`] for a field's text below a heading indented `heading`
/// columns: when the only lines at or left of the heading's indentation
/// are laid out as headings themselves (`Designated contact:`, a heading
/// that names no field, kept in the text), the others are dedented by
/// their own least indentation and those lose their own spaces only.
pub(super) fn dedent_under(lines: &[&str], heading: usize) -> String {
    let kept: Vec<&str> = lines.iter().copied().filter(|l| *l != PAGE_BREAK).collect();
    let lines = &kept[..];
    let filled = || (0..lines.len()).filter(|&i| !lines[i].trim().is_empty());
    let indent_of = |i: usize| lines[i].len() - lines[i].trim_start().len();
    // A heading's line: short, ending in a colon, a blank line after it
    // (`Text of a list:` right above its items introduces them).
    let headed = |i: usize| {
        let t = lines[i].trim();
        t.ends_with(':')
            && t.split_whitespace().count() <= 6
            && lines.get(i + 1).is_none_or(|next| next.trim().is_empty())
    };
    let outdented_headings_only = heading != usize::MAX
        && filled().filter(|&i| indent_of(i) <= heading).all(headed)
        && filled().any(|i| indent_of(i) > heading);
    let indent = if outdented_headings_only {
        filled().map(indent_of).filter(|&n| n > heading).min()
    } else {
        filled().map(indent_of).min()
    }
    .unwrap_or(0);
    let body: Vec<&str> = lines
        .iter()
        .map(|l| {
            let own = l.len() - l.trim_start().len();
            l[own.min(indent)..].trim_end()
        })
        .collect();
    let start = body.iter().position(|l| !l.is_empty()).unwrap_or(body.len());
    let end = body.iter().rposition(|l| !l.is_empty()).map_or(start, |e| e + 1);
    body[start..end].join("\n")
}
