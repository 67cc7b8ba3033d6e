//! The layout of the lines before headings are read: tabs and no-break
//! spaces as columns, soft hyphens, doubled spacing, characters no one
//! sees, and the import's own check that it did not misread.

use super::*;

/// The columns a tab in a line's indentation reaches to: the next
/// multiple of 8, the convention of RFC text (and of terminals, `expand`
/// and mail clients that turn leading spaces into tabs).
pub(super) const TAB_STOP: usize = 8;

/// The most columns an expanded indentation is given (a line of tabs
/// only must not grow eightfold without bound).
pub(super) const MAX_INDENT_COLUMNS: usize = 1024;

/// `lines` with their layout written in spaces: a tab in a line's
/// indentation taken to the next [`TAB_STOP`], so that margins and
/// continuation lines keep their columns (tabs inside a line stay as
/// written), and a no-break space (U+00A0) that lays text out (in the
/// indentation, or next to another blank, as a web page's `&nbsp;`
/// runs align an ABNF rule) made a space. A lone no-break space between
/// two words (`5 March`) is typography and stays. Also the (0-based)
/// lines where a no-break space was made a space.
pub(super) fn spaced_layout<'t>(lines: &[&'t str]) -> (Vec<Cow<'t, str>>, Vec<usize>) {
    let mut nbsp = Vec::new();
    let spaced = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let body = line.trim_start_matches([' ', '\t', '\u{a0}']);
            let lead = &line[..line.len() - body.len()];
            if !lead.contains('\t') && !line.contains('\u{a0}') {
                return Cow::Borrowed(*line);
            }
            let body = layout_nbsp_as_spaces(body);
            if lead.contains('\u{a0}') || matches!(body, Cow::Owned(_)) {
                nbsp.push(i);
            }
            // Deeper than any layout: kept bounded, in its place among the
            // lines this deep.
            let columns = indent_columns(lead).min(MAX_INDENT_COLUMNS);
            Cow::Owned(format!("{}{body}", " ".repeat(columns)))
        })
        .collect();
    (spaced, nbsp)
}

/// What [`soft_hyphens`] repaired: the first (0-based) line that held a
/// soft hyphen, how many went inside words, and how many words broken at
/// a line's end were joined.
pub(super) struct SoftHyphens {
    pub(super) first: usize,
    pub(super) dropped: usize,
    pub(super) joined: usize,
}

/// `lines` without the soft hyphens (U+00AD) a word processor or a PDF
/// copy leaves in a text. One inside a line is invisible and goes. One
/// at a line's end broke a word there (`regis\u{ad}` / `tration`): the
/// word is joined again, past a page break between its halves, by moving
/// the next line's first word up; that line keeps its indentation and
/// its other words, so that no line is left blank (a paragraph's end or
/// a field's boundary) and margins stay. When that word is all of the
/// next line (a paragraph's last word), the line goes as a page break's
/// lines go ([`PAGE_BREAK`]: no text, no line) after its paragraph, and
/// the word ends the line above. A soft hyphen before a blank line, or
/// with no word before it, is only dropped.
pub(super) fn soft_hyphens<'t>(lines: &[&'t str]) -> (Vec<Cow<'t, str>>, Option<SoftHyphens>) {
    const SHY: char = '\u{ad}';
    let mut first = None;
    let mut dropped = 0;
    let mut joined = 0;
    // Every soft hyphen goes but one ending a line after a word, which
    // stays (alone at the line's end, trailing blanks gone) to be joined.
    let mut out: Vec<Cow<'t, str>> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            if !line.contains(SHY) {
                return Cow::Borrowed(*line);
            }
            first.get_or_insert(i);
            let clean = line.replace(SHY, "");
            let end = line.trim_end();
            let broke = end.ends_with(SHY) && clean.trim_end().ends_with(|c: char| !c.is_whitespace());
            dropped += line.matches(SHY).count() - usize::from(broke);
            if broke {
                let mut kept = clean.trim_end().to_string();
                kept.push(SHY);
                Cow::Owned(kept)
            } else {
                Cow::Owned(clean)
            }
        })
        .collect();
    let Some(first) = first else {
        return (out, None);
    };
    let mut i = first;
    // Where the line after line `i` is looked for: past the lines already
    // joined to it, so that a column of word pieces costs no square.
    let mut from = i + 1;
    while i < out.len() {
        if !out[i].ends_with(SHY) {
            i += 1;
            from = i + 1;
            continue;
        }
        let mut k = from.max(i + 1);
        while k < out.len() && out[k] == PAGE_BREAK {
            k += 1;
        }
        let ends_paragraph = k == out.len() || out[k].trim().is_empty();
        out[i].to_mut().pop();
        if ends_paragraph {
            // The paragraph ends: nothing to join.
            dropped += 1;
            i += 1;
            from = i + 1;
            continue;
        }
        joined += 1;
        let (word, shortened) = {
            let next = &out[k];
            let body = next.trim_start();
            let indent = next.len() - body.len();
            let word_end = body.find(char::is_whitespace).unwrap_or(body.len());
            let rest = body[word_end..].trim_start();
            let shortened = (!rest.is_empty()).then(|| format!("{}{rest}", &next[..indent]));
            (body[..word_end].to_string(), shortened)
        };
        out[i].to_mut().push_str(&word);
        let Some(shortened) = shortened else {
            // The word was the line: it goes; the joined word may end in a
            // soft hyphen again (a column of pieces), so line `i` is looked
            // at again, from the line after.
            out[k] = Cow::Borrowed(PAGE_BREAK);
            from = k + 1;
            continue;
        };
        out[k] = Cow::Owned(shortened);
        i += 1;
        from = i + 1;
    }
    (
        out,
        Some(SoftHyphens {
            first,
            dropped,
            joined,
        }),
    )
}

/// The columns a line's leading blanks reach to, tabs taken to the next
/// [`TAB_STOP`]. Spaces before the first tab are counted apart, as a
/// shift of the stops: they are an indentation put before the whole text
/// after its tabs were written (a quoted or re-indented copy, where
/// `    \t ` still lines up with `            ` below it); `expand` and
/// `unexpand` never write a space before a tab.
pub(super) fn indent_columns(lead: &str) -> usize {
    let shift = lead.len() - lead.trim_start_matches(' ').len();
    let mut column = 0;
    for c in lead[shift..].chars() {
        column = if c == '\t' {
            (column / TAB_STOP + 1) * TAB_STOP
        } else {
            column + 1
        };
    }
    shift + column
}

/// What [`Unseen::clean`] took out of or changed in a text, summed over
/// its calls.
#[derive(Default)]
pub(super) struct Unseen {
    /// Control characters (C0 but tab, LF, CR and form feed; DEL): NUL
    /// padding, a DOS end-of-file mark (SUB, 0x1A), an escape.
    pub(super) controls: usize,
    /// Zero-width characters and marks that show nothing (U+200B,
    /// U+2060, U+FEFF inside the text, U+200E, U+200F).
    pub(super) invisible: usize,
    /// Line ends written as U+2028, U+2029, NEL (U+0085) or a vertical
    /// tab (a word processor's manual line break).
    pub(super) separators: usize,
    /// Non-breaking hyphens (U+2011, as xml2rfc's HTML writes `&nbhy;`)
    /// made hyphens: the text shows one, and ABNF and dates need it.
    pub(super) hyphens: usize,
}

impl Unseen {
    /// `text` without the characters no one sees, and with the other
    /// line separators made LF (a paragraph separator, U+2029, a blank
    /// line). Zero-width joiners (U+200C, U+200D) stay: they shape the
    /// words of some scripts.
    pub(super) fn clean<'t>(&mut self, text: &'t str) -> Cow<'t, str> {
        let unseen = |c: char| matches!(c, '\u{200B}' | '\u{2060}' | '\u{FEFF}' | '\u{200E}' | '\u{200F}');
        let separator = |c: char| matches!(c, '\u{2028}' | '\u{2029}' | '\u{85}' | '\u{0B}');
        let control =
            |c: char| (c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0C')) && !separator(c);
        if !text
            .chars()
            .any(|c| unseen(c) || separator(c) || control(c) || c == '\u{2011}')
        {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            if separator(c) {
                self.separators += 1;
                out.push_str(if c == '\u{2029}' { "\n\n" } else { "\n" });
            } else if control(c) {
                self.controls += 1;
            } else if unseen(c) {
                self.invisible += 1;
            } else if c == '\u{2011}' {
                self.hyphens += 1;
                out.push('-');
            } else {
                out.push(c);
            }
        }
        Cow::Owned(out)
    }

    /// A note's words for what was done, if anything.
    pub(super) fn said(&self) -> Option<String> {
        let mut done = Vec::new();
        if self.controls > 0 {
            done.push(format!(
                "{} control character(s) (NUL padding, a DOS end-of-file mark) dropped",
                self.controls
            ));
        }
        if self.invisible > 0 {
            done.push(format!(
                "{} zero-width character(s) (U+200B, U+2060, U+FEFF, as a web page or word \
                 processor leaves them) dropped",
                self.invisible
            ));
        }
        if self.separators > 0 {
            done.push(format!(
                "{} line end(s) written as U+2028, U+2029, NEL or a vertical tab read as line ends",
                self.separators
            ));
        }
        if self.hyphens > 0 {
            done.push(format!(
                "{} non-breaking hyphen(s) (U+2011, as xml2rfc's HTML writes them) read as '-'",
                self.hyphens
            ));
        }
        (!done.is_empty()).then(|| done.join("; "))
    }
}

/// A double-spaced text (a blank line after every line of the text as
/// written, as a second line-end conversion or a copy from some viewers
/// leaves it) made single-spaced: each single blank line between two
/// lines goes, and a run of three (a paragraph's blank line, doubled)
/// leaves one. Only a text that is double-spaced throughout is: no two
/// lines next to each other, every run of blank lines odd, one run of
/// three at least (a text of one-line paragraphs has none) and a dozen
/// lines. The number of blank lines dropped, if the text was.
pub(super) fn undouble_spacing(lines: &mut Vec<&str>) -> Option<usize> {
    let blank = |l: &str| l.trim().is_empty();
    let mut texts = 0;
    let mut run = 0;
    let mut runs = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if blank(l) {
            run += 1;
            continue;
        }
        if i > 0 && run == 0 {
            return None;
        }
        if texts > 0 {
            runs.push(run);
        }
        texts += 1;
        run = 0;
    }
    if texts < 12 || runs.iter().any(|r| r % 2 == 0) || !runs.iter().any(|&r| r >= 3) {
        return None;
    }
    let first = lines.iter().position(|l| !blank(l))?;
    let mut kept = Vec::with_capacity(lines.len() / 2 + 1);
    let mut dropped = 0;
    let mut run = 0;
    for (i, l) in lines.iter().enumerate() {
        if i < first || !blank(l) {
            if run > 0 {
                kept.extend(std::iter::repeat_n("", (run - 1) / 2));
                dropped += run - (run - 1) / 2;
            }
            run = 0;
            kept.push(*l);
        } else {
            run += 1;
        }
    }
    kept.extend(std::iter::repeat_n("", run));
    *lines = kept;
    Some(dropped)
}

/// `line` with the full-width colon (U+FF1A) after a heading written in
/// ASCII (`Namespace ID：ucode`) made `: `, if it has one and no ASCII
/// colon before it: a template typed with a CJK input method. A
/// full-width colon inside CJK text (an address) stays.
pub(super) fn ascii_heading_fullwidth_colon(line: &str) -> Option<String> {
    let at = line.find('\u{FF1A}')?;
    let head = &line[..at];
    let words = head.trim();
    if words.is_empty()
        || words.len() > 60
        || !head.is_ascii()
        || head.contains(':')
        || !words.starts_with(|c: char| c.is_ascii_alphanumeric() || matches!(c, '*' | '#' | '-'))
    {
        return None;
    }
    let rest = line[at + '\u{FF1A}'.len_utf8()..].trim_start_matches('\u{3000}');
    Some(if rest.is_empty() || rest.starts_with([' ', '\t']) {
        format!("{head}:{rest}")
    } else {
        format!("{head}: {rest}")
    })
}

/// `text` with every no-break space next to another blank made a space.
pub(super) fn layout_nbsp_as_spaces(text: &str) -> Cow<'_, str> {
    if !text.contains('\u{a0}') {
        return Cow::Borrowed(text);
    }
    let chars: Vec<char> = text.chars().collect();
    let blank = |at: Option<&char>| matches!(at, Some(' ' | '\t' | '\u{a0}'));
    let mut changed = false;
    let out: String = (0..chars.len())
        .map(|k| {
            let layout = chars[k] == '\u{a0}'
                && (blank(k.checked_sub(1).and_then(|p| chars.get(p))) || blank(chars.get(k + 1)));
            changed |= layout;
            if layout { ' ' } else { chars[k] }
        })
        .collect();
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// The title urnreg's HTML and Markdown renderings give a registration
/// with no NID (`templates/registration.html`, `templates/markdown.md`).
pub(super) const INFORMAL_TITLE: &str = "Informal namespace (NID to be assigned)";

/// Whether `line` is [`INFORMAL_TITLE`], as a Markdown heading or alone.
pub(super) fn is_informal_title(line: &str) -> bool {
    line.trim()
        .trim_start_matches('#')
        .trim()
        .eq_ignore_ascii_case(INFORMAL_TITLE)
}

/// How many of a one-line value's lines (`filled`: the indices in `raw`
/// of those with text) are its first: one, or, when it opens a
/// parenthesis that the lines right below close (`Version: 2 (this
/// revision replaces the registration made by` / `RFC 3044)`), up to the
/// one that closes it.
pub(super) fn parenthesis_lines(raw: &[&str], filled: &[usize]) -> usize {
    let depth = |line: &str| line.matches('(').count() as isize - line.matches(')').count() as isize;
    let Some(&first) = filled.first() else {
        return 1;
    };
    let mut open = depth(raw[first]);
    let mut kept = 1;
    while open > 0 && kept < filled.len().min(NID_VALUE_MAX_LINES) && filled[kept] == filled[kept - 1] + 1 {
        open += depth(raw[filled[kept]]);
        kept += 1;
    }
    if open > 0 { 1 } else { kept }
}

/// How many of a Namespace Identifier's lines (`filled`, as for
/// [`parenthesis_lines`]) are its value when the first `kept` name the
/// NID: those, or, when the last of them is a sentence that goes on in
/// the lines right below (`The Namespace ID "lampx" is requested of IANA
/// for this` / `namespace.`, RFC 4358's and RFC 7467's wording), up to
/// the line that ends it.
pub(super) fn sentence_lines(raw: &[&str], filled: &[usize], kept: usize) -> usize {
    let ends = |line: &str| {
        line.trim_end()
            .trim_end_matches(['"', ')', '\'', '\u{201d}'])
            .ends_with(['.', '!', '?', ':', ';'])
    };
    let last = raw[filled[kept - 1]].trim();
    if last.split_whitespace().count() < 3 || ends(last) {
        return kept;
    }
    let mut n = kept;
    while n < filled.len().min(NID_VALUE_MAX_LINES) && filled[n] == filled[n - 1] + 1 {
        if ends(raw[filled[n]]) {
            return n + 1;
        }
        n += 1;
    }
    kept
}
