//! Where a URN found at `urn:` ends, and what it says once decoded (see
//! the module above for the rules and their sources).

use super::{KEEP, MAX_URN};

mod context;
mod decode;
mod ends;
mod fill_ins;
mod quoted;

use context::*;
use decode::*;
use ends::*;
use fill_ins::*;
use quoted::*;

pub(super) use decode::Colon;
#[cfg(feature = "store")]
pub(crate) use decode::named;

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
    /// It is in an RFC 2047 encoded word of a mail header
    /// (`=?utf-8?Q?urn=3Aisbn=3A...?=`), which `?=` closes.
    encoded_word: bool,
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
        self.url_path = in_web_url(buf, start);
        self.encoded_word = self.quoted_printable && in_encoded_word(buf, start);
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
        // `urn` as written, then its colon: `:`, or read as one; where
        // each of the four ends.
        let head = match colon {
            Colon::QuotedPrintable if self.quoted_printable => quoted_printable_head(buf, start, limit)?,
            Colon::QuotedPrintable => return None,
            _ => {
                let colon_len = match colon {
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
                    _ => 1,
                };
                [start + 1, start + 2, start + 3, start + 3 + colon_len]
            }
        };
        let percent = colon == Colon::Percent;
        // (Each letter of `urn` is the byte before where it ends.)
        for &end in &head[..3] {
            self.push(buf[end - 1], end);
        }
        let body = head[3];
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
    /// expansion's operator, a terminal's escape sequence, or in
    /// quoted-printable mail a byte so written (`xmlns:o=3Durn:...`).
    fn syntax_before(&self, buf: &[u8], start: usize) -> bool {
        self.diff_line
            .is_some_and(|indent| diff_marker_before(buf, start, indent))
            || shell_default_before(buf, start)
            || csi_before(buf, start)
            || self.quoted_printable && quoted_printable_before(buf, start)
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
            // RFC 2047 section 2: `?=` closes an encoded word; in its Q
            // encoding `_` is a space (section 4.2).
            if self.encoded_word && (b == b'?' && buf.get(i + 1) == Some(&b'=') || b == b'_') {
                return i;
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
            // Any other `=` in quoted-printable text writes a byte as two
            // hex digits (RFC 2045 section 6.7, rule 1: `=3D` is `=`, and
            // an encoder may write `:` as `=3A`): read as that byte.
            if self.quoted_printable
                && b == b'='
                && let Some(c) = hex2(buf, i + 1, limit)
            {
                if !is_urn_char(c) || self.query && matches!(c, b'&' | b'#') {
                    return i;
                }
                self.nss |= c == b':';
                self.push(c, i + 3);
                i += 3;
                continue;
            }
            // A terminal's rendition (ECMA-48 8.3.117, SGR: `ESC[01;31m`,
            // and the `ESC[K` grep writes after it) changes the colour, not
            // the text: a URN that `grep --color=always` highlighted part
            // of reads on past it (`urn:isbn` ESC[m ESC[K `:0451450524`), or
            // ends before it.
            if b == 0x1B
                && let Some(len) = renditions(buf, i, limit)
            {
                if i + len < limit && is_urn_char(buf[i + len]) {
                    i += len;
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
