//! Finding URNs in running text: specifications, pages, XML, JSON, code.
//!
//! Where a URN in prose starts and ends follows the URI drafts' Appendix E,
//! "Recommendations for Delimiting URI in Context" (`shared/spec/001`,
//! `002`), and what real files do:
//!
//! - A URN starts at `urn:` in any letter case at a word boundary (not
//!   after a letter, digit, `_`, `+`, `-` or `.`, unless that letter or
//!   digit ends a string literal's escape, `\n` or `\u0020`, a troff
//!   escape, `\(dq`, `\fB`, `\*(lq`, or a `%20`),
//!   and needs a NID and an NSS (`urn:NID:x`): `URN: urn:isbn:...` (a label), `the urn:isbn
//!   namespace` (a mention) and `{urn:1,nsmap:1}` (a key: a `,`, `;` or
//!   `*` before the NID's colon ends the run) are not URNs. A letter, digit or mark of
//!   another script before it glues it to a word too (`caféurn:`), and so
//!   do `$` (`$urn`, a variable) and `^` (a regular expression's anchor).
//!   Syntax ending in a word's character glues nothing: a shell parameter
//!   expansion's `${NAME:-`, `${NAME+` (POSIX.1 XCU 2.6.2), a terminal's
//!   control sequence `ESC[32m` (ECMA-48 section 5.4, also `\u001b[`), and
//!   a unified diff's line marker ([`Scanner::set_diff`]).
//! - It runs as far as the RFC 8141 characters go (r-, q- and
//!   f-components included). Double quotes, angle brackets and whitespace
//!   delimit it; so does an apostrophe when one opened it (also one
//!   written as an escape or reference: `\u0027`, `&#39;`, `&apos;`).
//! - `,`, `;` and `&` right before another URI (`urn:NID:`, `scheme://`) end
//!   it: a list of URIs (a DASH `@profiles`) gives each; so does a `,`
//!   before the next entry of OpenSSL's `subjectAltName` (`,DNS:`, `,IP:`),
//!   and a `;` before a YANG statement's keyword (`namespace
//!   urn:tests:a;prefix a;`, a module on one line). A `?` not
//!   followed by `+` or `=` before any component ends it (RFC 8141
//!   section 2), so a URL's query after a URN in its path is not taken;
//!   a URN that is a query value (`?id=urn:...`) ends at the next `&`,
//!   and one that is a `name=` pair's value elsewhere
//!   (`id=urn:...&request=x`, `;node=urn:...;item=x` of an `xmpp:` URI,
//!   `nsu=urn:...;s=x` of an OPC UA NodeId; also in a single-quoted
//!   string, `'id=urn:...&request=x'`) at the next `&name=` or
//!   `;name=`. In a row of JUnit's `@CsvSource` a `,` ends it (the
//!   column delimiter).
//!   In a CSV file ([`Scanner::set_csv`]) the delimiter ends a URN in a
//!   field that is not quoted (RFC 4180 section 2). In a Go struct tag's
//!   value a `,` before an encoder's option ends it
//!   (`json:"urn:...:User,omitempty"`, reflect.StructTag). An arrow,
//!   `->` or `=>`, ends it (outside `<...>`).
//! - Outside a closed delimiter pair, trailing sentence punctuation
//!   (`.` `,` `;` `:` `!` `?`), an apostrophe or a possessive `'s`, an
//!   unbalanced `)`, Markdown emphasis and strikethrough that opened before
//!   it (`**urn:...**`, `_urn:..._`, `~~urn:...~~`), a footnote `*` on a
//!   letter or digit and a comment's `-->` (`<!--urn:...-->`) or `*/` are
//!   not part of it. A second `#` right before another `urn:` ends it (no
//!   f-component holds one); a
//!   percent-encoded quote or `<` before it (`%22urn:...%22`) is closed by
//!   the `%HH` of a character no URN holds. An encoded URN ends where a
//!   plain one does at a `)` closing a `(` before it and at a list item's
//!   `,` (an RQL query, `eq(format,urn%3Ax-nmos%3A...),in(...)`), and in a
//!   URL's query at a `+`, a form's space (`?q=urn%3Aisbn%3A...+book`).
//! - A calendar's content line held in another file (a test's fixture in
//!   a string: `ORGANIZER;CN=x:urn:uuid:...`, 60 to 100 bytes) is read
//!   folded, as in an `.ics` file (RFC 5545 section 3.1).
//! - A string a program fills in (`"urn:uuid:%s"`, `%*d`, `%lld`,
//!   `` `urn:x:${id}` ``, `"urn:uuid:$id"`, `{0}`, an ellipsis for a part,
//!   `urn:oasis:names:...:Assertion`, a fill-in after a `:`,
//!   `urn:x:y:<name>`, `urn:uuid:xxxxxxxx-...`, a quoted literal ending
//!   in `:` or `.`, a prefix: `"urn:x:" + id`, `PREFIX = "urn:x:"`,
//!   `"urn:oid:2.5.4."`, a document's own entity after a `:`,
//!   `urn:x:&version;`, a server page's `<%= id %>` or `<?php`, a shell's
//!   `` `uuidgen` ``, Swift's `\(id)`, cmd.exe's `%NAME%`, a `~`
//!   directive of Lisp's, Erlang's or Prolog's format in a quoted literal
//!   given to a `format` call, `(format nil "urn:uuid:~A" id)`; not a markup
//!   attribute's value, `xmlns:x="urn:x:"`) is a template of URNs, not one: not
//!   reported, nor one ending in `?name=` or `&name=`, nor one given to a
//!   prefix test (`startsWith(`, `HasPrefix(s, `...). Nor is a literal the
//!   next goes on from (`"urn:x:a" ":b"`, but not past a Rust raw
//!   string's closing `"#` or a YANG statement's `;`,
//!   `"urn:x:a" + ":b"`, YANG's concatenation) or one joined to a computed
//!   value (`"urn:isbn:978" + rest`, also `++`, `<>`, `..`, `^`, `*`,
//!   `&`, SQL's `||`, Ruby's `<<`, a shell's `$NAME`, a builder's
//!   `append` that more is appended to, Clojure's `(str`, R's `paste0(`),
//!   and an argument of `concat()`; a literal a URN runs to the end of
//!   goes on in one on the next line (C's and Python's adjacent literals),
//!   unless that one is a key (YAML's `"k": v`, TOML's and INI's
//!   `"k" = v`), a shell command's word (`"$BIN" --flag`) or a Python
//!   triple-quoted literal, which start something new. Kotlin, Go and Ruby end a statement
//!   at a line break ([`Scanner::set_line_statements`]). So is a
//!   regular expression: regex syntax where the run stops
//!   (`urn:uuid:([0-9a-f]...`, `urn:ietf:rfc:\d+`, `[0-9a-f]{8}`,
//!   `(urn:epcglobal:cbv|...)`, `(.*)`), or a `/.../` literal (Perl's
//!   `qr/`, `m/`, `=~ /`, or opened earlier on the line), and SQL's `LIKE`
//!   pattern (`LIKE 'urn:uuid:%'`).
//! - A backslash ending a line inside a quoted string joins the next line
//!   on, past its indentation (C, Python, a Java text block); so does one
//!   written on to a URN in a text folded as RFC 8792 says (its header,
//!   `NOTE: '\' line wrapping per RFC 8792`, seen before; or prose, in
//!   Markdown in a code fence only).
//! - Inside `<...>` whitespace and line breaks may be inserted and are
//!   ignored (Appendix E): the parts are joined. A hyphen at a line break
//!   may be the writer's or the URN's: both readings are offered
//!   ([`Found::alternative`]).
//! - Text is read as its text: the entity references of XML and HTML
//!   (`&amp;`, `&#58;`, HTML's named references of whitespace,
//!   punctuation, quotes and Latin-1 letters: `&nbsp;`, `&mdash;`), JSON's
//!   escapes (`\/`, `\u003a`), string literals' hex escapes (`\x3a`, and
//!   `\u{3a}` of JavaScript, Rust and Swift), Java `.properties` escapes
//!   (`urn\:isbn\:`), the colon after `urn` included, a URN
//!   percent-encoded inside a URL (`?id=urn%3Aisbn%3A...`, decoded once),
//!   and in mail quoted-printable's `=3D` and `=3A` and its soft line
//!   breaks, inside `urn` too ([`Scanner::set_quoted_printable`]). A
//!   terminal's colour (SGR `ESC[...m`, and `ESC[K`) inside a URN is read
//!   past (saved `grep --color=always` output). Whether a URN is a segment
//!   of a web URL's path ([`Found::in_web_url`]) is read on the URL as its
//!   text too: its `/` written `\/`, `&#x2F;` or `%2F` (a URL in another's
//!   query). An unknown `&name;` ends it, and
//!   so does markup escaped twice (`&amp;quot;`, `&amp;lt;`).
//! - A URN is ASCII (RFC 8141 section 2): a letter, digit or combining
//!   mark of another script written on to it (`urn:example:café`, or
//!   `\u00e9` in JSON) is part of it, so it is reported invalid rather than
//!   cut short and passed; so is a typographic dash between its letters or
//!   digits (`urn:isbn:978–1–68050–252–7`, an en dash for `-`). An invisible break hint (U+200B, U+00AD,
//!   U+2060, also as `&#8203;`) is read past. Other characters (`”`, `»`,
//!   a no-break space, a control character, also written as a reference:
//!   `\u001e`, `&#0;`) end it. A byte that starts no UTF-8 character is read
//!   as Latin-1: a letter there is part of it too.
//!
//! [`Scanner::scan`] reads any [`Read`] in a window of fixed size, so
//! memory stays bounded whatever the input (a 2 GB file on one line
//! included); a URN longer than [`MAX_URN`] bytes is reported as such
//! ([`Found::too_long`]), not held.
//!
//! ```
//! use urnreg::scan::Scanner;
//!
//! let text = "See <urn:isbn:0-395-\n  36341-1>, and (URN:ISSN:0167-6423).\n";
//! let mut found = Vec::new();
//! Scanner::new()
//!     .scan(text.as_bytes(), |f| found.push((f.line, f.column, f.urn_str().into_owned())))
//!     .unwrap();
//! assert_eq!(found, [
//!     (1, 6, "urn:isbn:0-395-36341-1".to_string()),
//!     (2, 18, "URN:ISSN:0167-6423".to_string()),
//! ]);
//! ```

use std::borrow::Cow;
use std::io::{self, Read};

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};

mod cut;

/// The code point of an HTML named character reference (`amp`, `nbsp`,
/// `mdash`, the Latin-1 letters...), for other readers of HTML text (the
/// template importer).
#[cfg(feature = "store")]
pub(crate) use cut::named as html_named_reference;

/// The longest URN a scan reports whole, in bytes (decoded): a longer run
/// is reported as too long, at its start.
pub const MAX_URN: usize = 8192;

/// The window read at once; a URN starting in it is always whole in it.
const WINDOW: usize = 256 * 1024;
/// How far past a URN's start the window must reach: the longest raw run
/// (entities and `<...>` whitespace make it longer than the URN).
const KEEP: usize = 4 * MAX_URN + 64;
/// How far back from a URN's start its boundary tests look.
const LOOK_BACK: usize = 72;
/// The bytes looked at to tell a binary file (a NUL among them).
const BINARY_PROBE: usize = 8192;

/// What starts a URN, as [`Scanner::new`] finds it: `urn:` (first), its
/// colon percent-encoded (second), written as a reference or an escape,
/// then from [`QUOTED_PRINTABLE_STARTS`] on as quoted-printable writes it
/// (RFC 2045 section 6.7: `urn=3A`, a soft line break `=` CRLF or LF after
/// `u`, `ur` or `urn`).
const STARTS: [&str; 13] = [
    "urn:", "urn%3a", "urn&", "urn\\u", "urn\\:", "urn\\x", "urn=3a", "u=\n", "u=\r\n", "ur=\n", "ur=\r\n",
    "urn=\n", "urn=\r\n",
];

/// The first of [`STARTS`] that quoted-printable writes.
const QUOTED_PRINTABLE_STARTS: usize = 6;

/// A URN found in text.
#[derive(Clone, Copy, Debug)]
pub struct Found<'a> {
    /// Byte offset of its first byte (`u` of `urn`) in the text read.
    pub offset: u64,
    /// Its line, from 1: a line ends at a LF, a CRLF or a CR alone.
    pub line: u64,
    /// Its column, from 1, in characters (UTF-8; any other byte counts as
    /// one; a UTF-8 byte-order mark at the start counts as none).
    pub column: u64,
    /// As it stands in the text (it may hold entities, escapes or, inside
    /// `<...>`, line breaks).
    pub text: &'a [u8],
    /// What was found: joined and decoded; the URN to check.
    pub urn: &'a [u8],
    /// The other reading of a URN joined across a line break after a
    /// hyphen, with the hyphen dropped.
    pub alternative: Option<&'a [u8]>,
    /// Prose broken at a hyphen ([`Scanner::set_hyphenated`]): `urn` went
    /// on past a `-` that ends a line, to the next line's first word, and
    /// its first `n` bytes are what the first line holds, a reading of
    /// its own (its text: [`Found::text_of`]); `alternative` is the
    /// reading without the hyphen.
    pub line_cut: Option<usize>,
    /// The run goes on past [`MAX_URN`] bytes: `urn` is its start only.
    pub too_long: bool,
    /// It is a segment of an `http://` or `https://` URL's path
    /// (`http://host/collections/urn:wmo:md:...:obs/items`, also written
    /// `https:\/\/host\/a\/urn:...`, with `&#x2F;`, or percent-encoded in
    /// another URL's query): a `/` in it may be the URL's next segment (RFC
    /// 3986 section 3.3).
    pub in_web_url: bool,
    /// It is in a segment of a path, a `/` before it, which a `/` after it
    /// may go on (C2PA's JUMBF URIs,
    /// `self#jumbf=/c2pa/urn:c2pa:<uuid>/c2pa.signature`).
    pub path_segment: bool,
    /// For each byte of `urn`, where its text ends in the text read.
    ends: &'a [usize],
    /// Where `text` starts in the text read.
    start: usize,
}

impl<'a> Found<'a> {
    /// The text of the first `len` bytes of `urn` (all of `text` when
    /// `len` is its length): a URN cut shorter than found is reported
    /// where its own text ends.
    pub fn text_of(&self, len: usize) -> &'a [u8] {
        match len.checked_sub(1).and_then(|last| self.ends.get(last)) {
            Some(&end) if len < self.urn.len() => &self.text[..(end - self.start).min(self.text.len())],
            _ => self.text,
        }
    }

    /// The line and column just after `text`, a start of [`Found::text`]
    /// (all of it, or [`Found::text_of`]): where a URN written across
    /// lines ends. Line breaks are counted as for its start.
    pub fn end_of(&self, text: &[u8]) -> (u64, u64) {
        step(self.line, self.column, text, false)
    }

    /// [`Found::urn`] as text.
    pub fn urn_str(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.urn)
    }

    /// [`Found::text`] as text.
    pub fn text_str(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.text)
    }
}

/// How a scan of one input ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scanned {
    /// Bytes read.
    pub bytes: u64,
    /// URNs found.
    pub found: u64,
    /// A NUL byte among the first bytes: a binary input, not scanned
    /// (unless [`Scanner::binary`]).
    pub binary: bool,
}

/// Finds URNs in text. One per thread: it keeps its buffers from input to
/// input.
#[derive(Clone, Debug)]
pub struct Scanner {
    starts: AhoCorasick,
    /// Finds RFC 8792's header ([`RFC8792_HEADER`]).
    header: memchr::memmem::Finder<'static>,
    binary: bool,
    csv: bool,
    diff: bool,
    markdown: bool,
    buf: Vec<u8>,
    cut: cut::Scratch,
}

impl Default for Scanner {
    fn default() -> Scanner {
        Scanner::new()
    }
}

impl Scanner {
    /// A scanner that skips binary inputs.
    pub fn new() -> Scanner {
        // `urn` and its colon as written: plain, percent-encoded in a URL,
        // or an entity reference, a string literal's escape (`\u003a`,
        // `\u{3a}`, `\x3a`) or a Java `.properties` escape (`urn\:`; read
        // by the cut); in quoted-printable mail, `=3A` or a soft line break
        // inside `urn` or before its colon (the cut reads these only in
        // text read as mail). The patterns are ASCII and the builder's
        // limits are far off: building cannot fail.
        let starts = AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::LeftmostFirst)
            .kind(Some(AhoCorasickKind::DFA))
            .build(STARTS)
            .expect("ASCII patterns");
        Scanner {
            starts,
            header: memchr::memmem::Finder::new(RFC8792_HEADER),
            binary: false,
            csv: false,
            diff: false,
            markdown: false,
            buf: Vec::new(),
            cut: cut::Scratch::default(),
        }
    }

    /// Scans inputs with a NUL byte among their first 8 KiB too (they are
    /// skipped by default, as ripgrep does).
    pub fn binary(mut self, yes: bool) -> Scanner {
        self.binary = yes;
        self
    }

    /// Reads the inputs from now on as delimited fields (a `.csv` file):
    /// the delimiter (`,` or `;`, whichever the first line has more of
    /// outside quotes) ends a URN in a field that is not quoted (RFC 4180
    /// section 2), although RFC 8141 allows both in an NSS.
    pub fn set_csv(&mut self, yes: bool) {
        self.csv = yes;
    }

    /// Reads the inputs from now on as text whose strings take `$name` as
    /// written: languages without `$` interpolation (Java, C, C#, Go,
    /// Rust) and XML schemas, so SWIFT's `"urn:swift:xsd:$ahV10"` is a
    /// URN. Off (the default), `$name` in a URN is a variable filled in
    /// (PHP, Perl, shell, Kotlin, Groovy, Dart, a template file), and the
    /// text a template. `$(`, `${`, `$1` to `$9` and a `$NAME$`
    /// placeholder are templates either way.
    pub fn set_literal_dollar(&mut self, yes: bool) {
        self.cut.literal_dollar = yes;
    }

    /// Reads the inputs from now on as text that folds its long lines: a
    /// line break and one space or tab after it go on with the line
    /// (iCalendar, RFC 5545 section 3.1; vCard, RFC 6350 section 3.2;
    /// LDIF, RFC 2849), so a URN folded in two is read whole. Off (the
    /// default), a line break ends a URN.
    pub fn set_folded(&mut self, yes: bool) {
        self.cut.folded = yes;
    }

    /// Reads the inputs from now on as MIME mail (RFC 2045), whose bodies
    /// may be quoted-printable: an `=` ending a line is a soft line break,
    /// no character, so a URN broken by one (`urn:isbn:04514=` CRLF
    /// `50524`, also `u=` CRLF `rn:isbn:...`) is read whole, and one ending
    /// at it (`urn:isbn:0451450523=` CRLF) ends before the `=`; an `=` and
    /// two hex digits is the byte they write (`xmlns:o=3Durn:...`,
    /// `urn=3Aisbn=3A...`), and a header's encoded word that a URN opens
    /// (RFC 2047, `=?utf-8?Q?urn=3Aisbn=3A...?=`) ends at its `?=`. Off
    /// (the default), an `=` is an NSS character and a line break ends a
    /// URN.
    pub fn set_quoted_printable(&mut self, yes: bool) {
        self.cut.quoted_printable = yes;
    }

    /// Reads the inputs from now on as Java `.properties` files
    /// (`Properties.load`): `\:`, `\=`, `\#` and `\!` in a value are the
    /// character (`ns=urn:x-example:a\:b`), and a `\` ending a line goes
    /// on after the next line's leading whitespace, so a URN continued so is
    /// read whole. Off (the default), these escapes are read only in a URN
    /// whose first colon is written `\:` (`urn\:isbn\:...`, as
    /// `Properties.store()` writes it).
    pub fn set_properties(&mut self, yes: bool) {
        self.cut.properties_file = yes;
    }

    /// Reads the inputs from now on as code whose statements end at a line
    /// break after a string literal (Kotlin, Go, Ruby): an operator or a
    /// literal at the start of the next line joins nothing on to it
    /// (Kotlin's and Ruby's `+"text"` is a unary plus). Off (the default),
    /// `"urn:x:" + ...` on two lines is read as one string, as in Java,
    /// JavaScript, C and Python.
    pub fn set_line_statements(&mut self, yes: bool) {
        self.cut.line_statements = yes;
    }

    /// Reads the inputs from now on as TeX, LaTeX or BibTeX source (`.tex`,
    /// `.sty`, `.cls`, `.bib`): a `~` ends a URN, as the tie it is there
    /// (The TeXbook, chapter 14: `urn:isbn:...~\cite{x}`), and so does a
    /// comment's `%` where no percent-encoding follows (chapter 7), but in
    /// the argument of `\url{`, `\href{`, `\nolinkurl{` or `\path{`;
    /// `\#`, `\%` and `\&` are the characters (chapter 8); and `\`
    /// then letters after a URN is a control word (`\S`, `\par`), not a
    /// regular expression's class escape. Off (the default), `~` is an NSS
    /// character (RFC 8141 section 2).
    pub fn set_tex(&mut self, yes: bool) {
        self.cut.tex = yes;
    }

    /// Reads the inputs from now on as RTF: `\` then letters after a URN is
    /// a control word (`\par`, `\s1`: RTF 1.9.1, "Control Words"), not a
    /// regular expression's class escape.
    pub fn set_rtf(&mut self, yes: bool) {
        self.cut.rtf = yes;
    }

    /// Reads the inputs from now on as unified diffs (a `.diff` or `.patch`
    /// file; GNU diff, "Unified Format"): the `-` or `+` first on a line
    /// is the line's marker, glued to nothing (`-urn:isbn:...`), and a
    /// `+` line after a quoted URN joins nothing on to it. An input that
    /// starts as a diff does (`diff --git`, `--- `, `@@ `) is read so
    /// anyway.
    pub fn set_diff(&mut self, yes: bool) {
        self.diff = yes;
    }

    /// Reads the inputs from now on as prose, which typesetting breaks at
    /// a hyphen (a PDF's extracted text, `.txt`, Markdown): a URN ending
    /// in `-` right before a line break goes on at the next line's first
    /// word (`urn:nbn:de:bvb:19-` then `82009`), when that starts with a
    /// letter or digit and is no URI of its own; both readings of the
    /// hyphen are offered ([`Found::alternative`]) and the first line's
    /// alone ([`Found::line_cut`]). Off (the default), a line break ends
    /// a URN outside `<...>`.
    pub fn set_hyphenated(&mut self, yes: bool) {
        self.cut.hyphenated = yes;
    }

    /// Reads the inputs from now on as Markdown: the lines of a fenced code
    /// block whose language is `diff` or `patch` (CommonMark 4.5, the info
    /// string's first word) are read as a unified diff's
    /// ([`Scanner::set_diff`]).
    pub fn set_markdown(&mut self, yes: bool) {
        self.markdown = yes;
        self.cut.markdown = yes;
    }

    /// Reads `input` to its end and hands each URN found to `each`, in
    /// order. Memory stays within a fixed window (about 300 KiB).
    pub fn scan<R: Read>(&mut self, mut input: R, mut each: impl FnMut(&Found<'_>)) -> io::Result<Scanned> {
        if self.buf.len() != WINDOW + KEEP {
            self.buf = vec![0; WINDOW + KEEP];
        }
        let mut scanned = Scanned::default();
        let mut filled = 0;
        let mut eof = false;
        let mut base = 0u64; // offset of buf[0] in the input
        let mut at = 0; // where the search goes on
        let mut lines = Lines::default();
        let mut first = true;
        // After a URN too long to report whole: the rest of its run is
        // skipped, not read again as URNs of its own.
        let mut skipping = false;
        // The Markdown code fences read so far.
        let mut fences = Fences::default();
        // The input is a unified diff, by its name or its first line.
        let mut diff = self.diff;
        self.cut.delimiter = None;
        // RFC 8792's header seen so far, and where the search for it goes
        // on.
        self.cut.rfc8792 = None;
        let mut header_from = 0;
        loop {
            while filled < self.buf.len() && !eof {
                match input.read(&mut self.buf[filled..]) {
                    Ok(0) => eof = true,
                    Ok(n) => filled += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            scanned.bytes = base + filled as u64;
            if first {
                first = false;
                let probe = &self.buf[..filled.min(BINARY_PROBE)];
                if !self.binary && memchr::memchr(0, probe).is_some() {
                    scanned.binary = true;
                    return Ok(scanned);
                }
                // A UTF-8 byte-order mark is no character of the text:
                // columns do not count it (SARIF 2.1.0 section 3.30.2: text
                // positions do not depend on a BOM); offsets still do.
                if self.buf[..filled].starts_with(b"\xEF\xBB\xBF") {
                    lines.pos = 3;
                }
                if self.csv {
                    self.cut.delimiter = Some(csv_delimiter(&self.buf[..filled]));
                }
                diff |= starts_as_diff(&self.buf[..filled]);
            }
            let safe = if eof { filled } else { filled - KEEP };
            while at < safe {
                if skipping {
                    while at < filled && cut::is_urn_char(self.buf[at]) {
                        at += 1;
                    }
                    skipping = at == filled && !eof;
                    continue;
                }
                let Some(m) = self.starts.find(&self.buf[at..filled]) else {
                    at = safe;
                    break;
                };
                let start = at + m.start();
                if start >= safe {
                    at = safe;
                    break;
                }
                self.cut.diff_line = if diff {
                    Some(0)
                } else if self.markdown {
                    fences.advance(&self.buf, start);
                    fences.diff_indent()
                } else {
                    None
                };
                self.cut.in_fence = self.markdown && fences.open.is_some();
                if self.cut.rfc8792.is_none() && header_from < start {
                    self.cut.rfc8792 = rfc8792_header(&self.header, &self.buf[header_from..start]);
                    header_from = start - RFC8792_HEADER.len().min(start);
                }
                let colon = match m.pattern().as_usize() {
                    0 => cut::Colon::Plain,
                    1 => cut::Colon::Percent,
                    k if k >= QUOTED_PRINTABLE_STARTS => cut::Colon::QuotedPrintable,
                    _ => cut::Colon::Reference,
                };
                match self.cut.cut(&self.buf[..filled], start, colon) {
                    Some(end) => {
                        lines.advance(&self.buf, start);
                        let cut = &self.cut;
                        each(&Found {
                            offset: base + start as u64,
                            line: lines.line,
                            column: lines.column,
                            text: &self.buf[start..end],
                            urn: &cut.urn,
                            alternative: cut.alternative(),
                            line_cut: cut.line_cut,
                            too_long: cut.too_long,
                            in_web_url: cut.url_path,
                            path_segment: cut.path_segment,
                            ends: cut.ends(),
                            start,
                        });
                        scanned.found += 1;
                        at = end.max(start + 1);
                        skipping = cut.too_long;
                    }
                    None => at = start + m.len(),
                }
            }
            if eof {
                return Ok(scanned);
            }
            // RFC 8792's header in what is let go, whether or not a URN
            // came after it in this window.
            if self.cut.rfc8792.is_none() && header_from < at {
                self.cut.rfc8792 = rfc8792_header(&self.header, &self.buf[header_from..at]);
                header_from = at - RFC8792_HEADER.len().min(at);
            }
            // Keep some bytes before `at`: the boundary tests look back (an
            // escape, `<!--`, a query parameter's name).
            let mut keep = at.saturating_sub(LOOK_BACK);
            // ... and not in the middle of a character: columns count
            // whole ones.
            for _ in 0..3 {
                if keep > 0 && (0x80..0xC0).contains(&self.buf[keep]) {
                    keep -= 1;
                }
            }
            lines.advance(&self.buf, keep);
            if self.markdown {
                fences.advance(&self.buf, keep);
                fences.pos -= keep;
            }
            self.buf.copy_within(keep..filled, 0);
            filled -= keep;
            base += keep as u64;
            at -= keep;
            lines.pos -= keep;
            header_from = header_from.saturating_sub(keep);
        }
    }
}

/// Line and column of a position in the window, advanced as the scan
/// goes.
#[derive(Clone, Copy, Debug)]
struct Lines {
    pos: usize,
    line: u64,
    column: u64,
    /// The last byte counted was a CR: a LF right after it ends the same
    /// line (CRLF), wherever the window split them.
    cr: bool,
}

impl Default for Lines {
    fn default() -> Lines {
        Lines {
            pos: 0,
            line: 1,
            column: 1,
            cr: false,
        }
    }
}

impl Lines {
    fn advance(&mut self, buf: &[u8], to: usize) {
        if to <= self.pos {
            return;
        }
        let span = &buf[self.pos..to];
        (self.line, self.column) = step(self.line, self.column, span, self.cr);
        self.cr = span.last() == Some(&b'\r');
        self.pos = to;
    }
}

/// Line and column after `span`, from those before it. A line ends at a
/// LF, a CRLF or a CR alone (classic Mac OS text); `cr`: the byte before
/// `span` was a CR, so a LF first in it is that CRLF's.
fn step(mut line: u64, column: u64, span: &[u8], cr: bool) -> (u64, u64) {
    let mut start = None;
    for i in memchr::memchr2_iter(b'\n', b'\r', span) {
        let after_cr = if i == 0 { cr } else { span[i - 1] == b'\r' };
        if !(span[i] == b'\n' && after_cr) {
            line += 1;
        }
        start = Some(i + 1);
    }
    match start {
        Some(start) => (line, 1 + chars(&span[start..])),
        None => (line, column + chars(span)),
    }
}

/// Characters: each UTF-8 character one, and each byte that is not part
/// of one (Latin-1 text) one too.
fn chars(bytes: &[u8]) -> u64 {
    if bytes.is_ascii() {
        return bytes.len() as u64;
    }
    bytes
        .utf8_chunks()
        .map(|chunk| chunk.valid().chars().count() + chunk.invalid().len())
        .sum::<usize>() as u64
}

/// The first line of a unified diff: git's header (`diff --git`), a
/// hunk's (`@@ `), or the first file's (`--- `) with the second's
/// (`+++ `) on the next line, as a YAML document's `--- ` is not (GNU
/// diff, "Unified Format").
fn starts_as_diff(head: &[u8]) -> bool {
    let second = memchr::memchr(b'\n', head).map_or(&[][..], |k| &head[k + 1..]);
    head.starts_with(b"diff --git ")
        || head.starts_with(b"@@ ")
        || head.starts_with(b"--- ") && second.starts_with(b"+++ ")
}

/// The words of RFC 8792's header (sections 7.1.1 and 8.1.1: `NOTE: '\'
/// line wrapping per RFC 8792`, or `'\\'`), centred in a line of `=`.
const RFC8792_HEADER: &[u8] = b"line wrapping per RFC 8792";

/// RFC 8792's header in `text`: `Some(true)` for the `'\\'` strategy's
/// (section 8), `Some(false)` for the `'\'` one's (section 7).
fn rfc8792_header(header: &memchr::memmem::Finder<'_>, text: &[u8]) -> Option<bool> {
    let at = header.find(text)?;
    Some(text[..at].trim_ascii_end().ends_with(b"'\\\\'"))
}

/// The first bytes of a line kept to tell a code fence; a longer line's
/// rest is not needed (a fence's language is its info string's first
/// word).
const FENCE_HEAD: usize = 32;

/// Markdown's fenced code blocks (CommonMark 4.5), read line by line as
/// the scan goes, in a fixed space: whether a URN's line is inside one
/// whose language is `diff` or `patch`.
#[derive(Clone, Copy, Debug, Default)]
struct Fences {
    /// The next byte to read in the window.
    pos: usize,
    /// The first bytes of the line being read.
    head: [u8; FENCE_HEAD],
    /// Bytes of that line read so far (more than `head` holds, when long).
    len: usize,
    /// The fence the text is in, if any.
    open: Option<Fence>,
}

/// An opening code fence: its character, length and indentation, and
/// whether its language is a diff's.
#[derive(Clone, Copy, Debug)]
struct Fence {
    mark: u8,
    width: usize,
    indent: usize,
    diff: bool,
}

impl Fences {
    /// Reads the lines up to `to`: the state is then that of the line
    /// `to` is in.
    fn advance(&mut self, buf: &[u8], to: usize) {
        while self.pos < to {
            let rest = &buf[self.pos..to];
            match memchr::memchr2(b'\n', b'\r', rest) {
                Some(k) => {
                    self.take(&rest[..k]);
                    self.end_line();
                    self.pos += k + 1;
                }
                None => {
                    self.take(rest);
                    self.pos = to;
                }
            }
        }
    }

    fn take(&mut self, bytes: &[u8]) {
        if self.len < FENCE_HEAD {
            let n = bytes.len().min(FENCE_HEAD - self.len);
            self.head[self.len..self.len + n].copy_from_slice(&bytes[..n]);
        }
        self.len = self.len.saturating_add(bytes.len());
    }

    /// A line has ended: it may open or close a fence.
    fn end_line(&mut self) {
        let line = &self.head[..self.len.min(FENCE_HEAD)];
        self.open = match self.open {
            Some(fence) if closes(line, fence) => None,
            Some(fence) => Some(fence),
            None => opens(line),
        };
        self.len = 0;
    }

    /// The indentation before a diff line's marker when the text is in a
    /// `diff` or `patch` block.
    fn diff_indent(&self) -> Option<usize> {
        self.open.filter(|fence| fence.diff).map(|fence| fence.indent)
    }
}

/// The line opens a code fence: at most three spaces, three or more
/// backticks or tildes, and an info string (no backtick in it after
/// backticks) whose first word is the language.
fn opens(line: &[u8]) -> Option<Fence> {
    let indent = line.iter().take_while(|&&b| b == b' ').count();
    let mark = *line.get(indent).filter(|&&b| b == b'`' || b == b'~')?;
    let width = line[indent..].iter().take_while(|&&b| b == mark).count();
    let info = &line[indent + width..];
    if indent > 3 || width < 3 || mark == b'`' && info.contains(&b'`') {
        return None;
    }
    let info = info.trim_ascii_start();
    let word = &info[..info
        .iter()
        .position(|b| b.is_ascii_whitespace() || *b == b'{')
        .unwrap_or(info.len())];
    let diff = word.eq_ignore_ascii_case(b"diff") || word.eq_ignore_ascii_case(b"patch");
    Some(Fence {
        mark,
        width,
        indent,
        diff,
    })
}

/// The line closes `fence`: at most three spaces, as many of its
/// character or more, then only spaces and tabs.
fn closes(line: &[u8], fence: Fence) -> bool {
    let indent = line.iter().take_while(|&&b| b == b' ').count();
    let width = line[indent..].iter().take_while(|&&b| b == fence.mark).count();
    indent <= 3 && width >= fence.width && line[indent + width..].iter().all(|&b| b == b' ' || b == b'\t')
}

/// The delimiter of a CSV file from its first line: `;` when it has more
/// of them than of `,` outside quotes, else `,`.
fn csv_delimiter(head: &[u8]) -> u8 {
    let line = &head[..memchr::memchr(b'\n', head).unwrap_or(head.len())];
    let (mut quoted, mut commas, mut semicolons) = (false, 0, 0);
    for &b in line {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => commas += 1,
            b';' if !quoted => semicolons += 1,
            _ => {}
        }
    }
    if semicolons > commas { b';' } else { b',' }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(text: &str) -> Vec<String> {
        let mut found = Vec::new();
        Scanner::new()
            .scan(text.as_bytes(), |f| found.push(f.urn_str().into_owned()))
            .unwrap();
        found
    }

    #[test]
    fn a_urn_cut_across_the_window_is_found_whole_at_its_place() {
        // Appendix E: a URN is found the same wherever the reads split it.
        for pad in [
            WINDOW - 3,
            WINDOW - KEEP - 2,
            WINDOW - KEEP + 5,
            2 * WINDOW - KEEP - 1,
        ] {
            let mut text = "x\n".repeat(pad / 2);
            text.push_str(" urn:isbn:0451450523. urn:issn:0167-6423\n");
            let mut found = Vec::new();
            Scanner::new()
                .scan(text.as_bytes(), |f| {
                    found.push((f.offset, f.line, f.column, f.urn_str().into_owned()))
                })
                .unwrap();
            let start = (pad / 2 * 2 + 1) as u64;
            let line = (pad / 2 + 1) as u64;
            assert_eq!(
                found,
                [
                    (start, line, 2, "urn:isbn:0451450523".to_string()),
                    (start + 21, line, 23, "urn:issn:0167-6423".to_string())
                ],
                "pad {pad}"
            );
        }
    }

    #[test]
    fn one_huge_line_is_read_in_a_bounded_window() {
        struct Endless(u64);
        impl Read for Endless {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = buf.len().min(self.0 as usize);
                for (i, b) in buf[..n].iter_mut().enumerate() {
                    *b = if i % 64 == 0 { b' ' } else { b'a' };
                }
                self.0 -= n as u64;
                Ok(n)
            }
        }
        let mut scanner = Scanner::new();
        let scanned = scanner.scan(Endless(50 << 20), |_| {}).unwrap();
        assert_eq!(scanned.bytes, 50 << 20);
        assert_eq!(scanner.buf.len(), WINDOW + KEEP);
    }

    /// One finding for the whole run, however long and whatever it holds
    /// (`urn:` again inside it), its text the first MAX_URN bytes; the
    /// next URN after it is found. Also across the window's edge.
    #[test]
    fn a_run_past_the_limit_is_too_long_and_not_held() {
        for body in [
            "a".repeat(3 * MAX_URN),
            "urn:x:".repeat(7000),
            "b".repeat(WINDOW + 3 * KEEP),
        ] {
            let text = format!("urn:example:{body} urn:example:after");
            let mut seen = Vec::new();
            Scanner::new()
                .scan(text.as_bytes(), |f| {
                    seen.push((f.too_long, f.urn.len(), f.text.len(), f.urn_str().into_owned()))
                })
                .unwrap();
            assert_eq!(seen.len(), 2, "{}", &body[..8]);
            assert_eq!((seen[0].0, seen[0].1, seen[0].2), (true, MAX_URN, MAX_URN));
            assert_eq!(seen[1], (false, 17, 17, "urn:example:after".to_string()));
        }
    }

    /// A URN of exactly MAX_URN bytes is whole, whatever ends it (a
    /// sentence's period, a closing parenthesis or quote); one byte more
    /// is too long.
    #[test]
    fn a_urn_of_max_urn_bytes_is_whole() {
        let exact = format!("urn:example:{}", "a".repeat(MAX_URN - 12));
        assert_eq!(exact.len(), MAX_URN);
        for (before, after) in [
            ("", "\n"),
            ("", ""),
            ("", ". Next"),
            ("(", ")."),
            ("\"", "\""),
            ("<", ">"),
            ("", "..."),
            ("**", "**"),
        ] {
            for (urn, too_long) in [(exact.clone(), false), (format!("{exact}b"), true)] {
                let text = format!("see {before}{urn}{after} urn:example:after\n");
                let mut seen = Vec::new();
                Scanner::new()
                    .scan(text.as_bytes(), |f| seen.push((f.too_long, f.urn.len())))
                    .unwrap();
                let want = if too_long { MAX_URN } else { urn.len() };
                assert_eq!(
                    seen,
                    [(too_long, want), (false, 17)],
                    "{before:?} {} bytes {after:?}",
                    urn.len()
                );
            }
        }
    }

    /// RFC 4180 section 2: in a CSV file the delimiter ends a URN in a
    /// field that is not quoted; `;` when the header line has more of
    /// them than of `,`.
    #[test]
    fn csv_fields_end_at_their_delimiter_unless_quoted() {
        let scan = |text: &str| {
            let mut scanner = Scanner::new();
            scanner.set_csv(true);
            let mut found = Vec::new();
            scanner
                .scan(text.as_bytes(), |f| found.push(f.urn_str().into_owned()))
                .unwrap();
            found
        };
        assert_eq!(
            scan("id,urn\n1,urn:isbn:0451450523,Book\n2,\"urn:example:a,b\",x\n3,urn:a:b,urn:c:d;e\n"),
            ["urn:isbn:0451450523", "urn:example:a,b", "urn:a:b", "urn:c:d;e"]
        );
        assert_eq!(
            scan("id;urn;\"a,b\"\n1;urn:example:semi;Label,x\n"),
            ["urn:example:semi"]
        );
        // Outside CSV a URN that a ',' opens is a list's item, which the
        // next ',' ends; one opened otherwise keeps its commas.
        assert_eq!(find("1,urn:example:a,Book"), ["urn:example:a"], "not CSV");
        assert_eq!(find("1 urn:example:a,Book"), ["urn:example:a,Book"], "not CSV");
    }

    #[test]
    fn binary_inputs_are_skipped_unless_asked() {
        let text = b"\0\x01urn:isbn:0451450523";
        let scanned = Scanner::new().scan(&text[..], |_| {}).unwrap();
        assert!(scanned.binary);
        assert_eq!(find_binary(text), ["urn:isbn:0451450523"]);
    }

    fn find_binary(text: &[u8]) -> Vec<String> {
        let mut found = Vec::new();
        Scanner::new()
            .binary(true)
            .scan(text, |f| found.push(f.urn_str().into_owned()))
            .unwrap();
        found
    }

    /// A byte that starts no UTF-8 character is read as Latin-1: a letter
    /// there is held (the URN is then invalid, RFC 8141 section 2), a
    /// guillemet or a no-break space ends it.
    #[test]
    fn latin_1_letters_are_held_and_latin_1_punctuation_ends_it() {
        let mut found = Vec::new();
        Scanner::new()
            .scan(&b"\xabumn urn:example:caf\xe9 \xaburn:example:b\xbb urn:example:c\xa0d urn:example:x\xd7"[..], |f| {
                found.push(f.urn.to_vec())
            })
            .unwrap();
        let want: [&[u8]; 4] = [
            b"urn:example:caf\xe9",
            b"urn:example:b",
            b"urn:example:c",
            b"urn:example:x",
        ];
        assert_eq!(found, want);
    }

    /// A Latin-1 letter right before `urn` glues it to a word, as the
    /// same letter after a URN is held (RFC 8141 section 2); Latin-1
    /// punctuation does not.
    #[test]
    fn a_latin_1_letter_before_urn_glues_it_to_a_word() {
        let mut found = Vec::new();
        Scanner::new()
            .scan(
                &b"caf\xe9urn:example:a \xaburn:example:b\xbb \xd7urn:example:c"[..],
                |f| found.push(f.urn.to_vec()),
            )
            .unwrap();
        let want: [&[u8]; 2] = [b"urn:example:b", b"urn:example:c"];
        assert_eq!(found, want);
    }

    /// A byte that is no part of a UTF-8 character (Latin-1, cp1252) is
    /// one column, as the scan reads it; so is each character.
    #[test]
    fn columns_count_latin_1_bytes_one_each() {
        let mut found = Vec::new();
        Scanner::new()
            .scan(
                &b"\xa9 2024 urn:a:b\n\x93\x93\x93 urn:c:d \xe2\x82\xac urn:e:f"[..],
                |f| found.push((f.line, f.column)),
            )
            .unwrap();
        assert_eq!(found, [(1, 8), (2, 5), (2, 15)]);
    }

    #[test]
    fn columns_count_characters() {
        let mut found = Vec::new();
        Scanner::new()
            .scan("é ü\n«urn:a:b»".as_bytes(), |f| {
                found.push((f.line, f.column))
            })
            .unwrap();
        assert_eq!(found, [(2, 2)]);
    }

    /// SARIF 2.1.0 section 3.30.2: a byte-order mark moves no column; the
    /// offset is still the byte's in the input.
    #[test]
    fn a_utf8_byte_order_mark_is_no_column() {
        let mut found = Vec::new();
        Scanner::new()
            .scan(&b"\xEF\xBB\xBFurn:isbn:0451450523 urn:a:b\nurn:c:d"[..], |f| {
                found.push((f.offset, f.line, f.column))
            })
            .unwrap();
        assert_eq!(found, [(3, 1, 1), (23, 1, 21), (31, 2, 1)]);
    }

    /// A CR alone is a line break and a CRLF one, also where the window
    /// moves on between them (the scan counts lines up to a point short of
    /// what it has read, `LOOK_BACK` before it) and where one read ends at
    /// the CR and the next starts at the LF.
    #[test]
    fn a_cr_is_a_line_break_and_a_crlf_one_across_the_window() {
        /// Hands the input over in pieces cut at `cut`.
        struct Split<'a>(&'a [u8], usize);
        impl Read for Split<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let take = if self.1 > 0 { self.1 } else { self.0.len() };
                let n = take.min(buf.len()).min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                self.1 = self.1.saturating_sub(n);
                Ok(n)
            }
        }
        let edge = WINDOW - LOOK_BACK;
        for cr_at in edge - 3..edge + 3 {
            for (breaks, cut) in [("\r\n", 0), ("\r", 0), ("\r\n", cr_at + 1), ("\r", cr_at + 1)] {
                // The first URN past the window's first safe end, so that
                // the lines are first counted up to `edge`, and the input
                // longer than one window.
                let text = format!(
                    "{}{breaks}{} urn:a:b\rz urn:c:d\r\n\r\nurn:e:f\n{}",
                    "x".repeat(cr_at),
                    "y".repeat(100),
                    " ".repeat(KEEP)
                );
                let mut found = Vec::new();
                Scanner::new()
                    .scan(Split(text.as_bytes(), cut), |f| found.push((f.line, f.column)))
                    .unwrap();
                assert_eq!(
                    found,
                    [(2, 102), (3, 3), (5, 1)],
                    "CR at {cr_at}, {breaks:?}, cut {cut}"
                );
            }
        }
    }

    /// CommonMark 4.5: a `diff` code block is read as a diff however far
    /// the window has moved on since its fence opened, and not after its
    /// closing fence.
    #[test]
    fn a_diff_fence_holds_across_the_window() {
        for pad in [WINDOW - 5, WINDOW + KEEP, 3 * WINDOW] {
            let text = format!(
                "```diff\n{}-urn:isbn:0451450523\n```\n{}-urn:isbn:0451450524\n",
                "x\n".repeat(pad / 2),
                "y\n".repeat(pad / 2)
            );
            let mut scanner = Scanner::new();
            scanner.set_markdown(true);
            let mut found = Vec::new();
            scanner
                .scan(text.as_bytes(), |f| {
                    found.push((f.line, f.urn_str().into_owned()))
                })
                .unwrap();
            assert_eq!(
                found,
                [(pad as u64 / 2 + 2, "urn:isbn:0451450523".to_string())],
                "pad {pad}"
            );
        }
    }

    /// RFC 8792 sections 7.1.1 and 8.1.1: a header seen however far back
    /// (windows with no URN in them between) makes a `\` ending a line a
    /// fold, and its `'\\'` form the strategy; without one, outside prose,
    /// a `\` there ends the URN.
    #[test]
    fn an_rfc8792_header_holds_across_the_window() {
        for (header, continuation) in [
            ("NOTE: '\\' line wrapping per RFC 8792", "  ce"),
            ("NOTE: '\\\\' line wrapping per RFC 8792", "  \\ce"),
            ("", "ce"),
        ] {
            for pad in [10, WINDOW + KEEP, 3 * WINDOW] {
                let text = format!(
                    "{header}\n{}urn:ietf:params:xml:ns:yang:ietf-network-instan\\\n{continuation};\n",
                    "x\n".repeat(pad / 2)
                );
                let want = if header.is_empty() {
                    "urn:ietf:params:xml:ns:yang:ietf-network-instan"
                } else {
                    "urn:ietf:params:xml:ns:yang:ietf-network-instance"
                };
                assert_eq!(find(&text), [want], "{header:?}, pad {pad}");
            }
        }
    }

    #[test]
    fn every_urn_of_a_line_is_found() {
        assert_eq!(
            find("urn:a:b urn:c:d, urn:e:f"),
            ["urn:a:b", "urn:c:d", "urn:e:f"]
        );
    }
}
