//! `urnreg scan`: find the URNs in files and trees ([`urnreg::scan`]) and
//! judge each against its namespace, reported where it stands.
//!
//! Walking is ripgrep's own walker (the `ignore` crate): `.gitignore`,
//! `.ignore`, hidden and binary files skipped, every core. UTF-16 files
//! with a byte-order mark, or without one when their first bytes read as
//! UTF-16 text (`utf16_without_bom`), are read as UTF-8
//! (`encoding_rs_io`).

use std::borrow::Cow;
use std::collections::HashMap;
use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use ignore::{DirEntry, WalkBuilder, WalkState, overrides::OverrideBuilder};
use serde_json::{Value, json};
use urnreg::batch::Summary;
use urnreg::scan::{Found, MAX_URN, Scanner};
use urnreg::{Checker, Registry, Report};

use super::check::{cores, parse_jobs};
use super::db::DbArgs;
use super::ignore_files::IgnoreGuard;
use super::output::{Palette, paint, printable_line};
use super::{Format, FormatParser, SyntaxArgs};

/// The file extensions of languages whose string literals take `$name`
/// as written, with no interpolation (Java, C, C++, C#, Go, Rust), of
/// XML schemas (XSD, WSDL), which no template fills in, and of JSON
/// (RFC 8259 section 7: a string is its characters, no interpolation;
/// JSON Schema's `$ref`, SCIM's `urn:...:User:groups.$ref` attribute
/// ids): `$name` in a URN there is the URN's
/// ([`urnreg::scan::Scanner::set_literal_dollar`]; `${name}` and `$(...)`
/// stay templates, as a JSON file a tool fills in writes them).
/// (Other XML and HTML files are often templates, `urn:uuid:$guid`, as
/// are Python's `string.Template` and YAML files, Helm's and Ansible's.)
const LITERAL_DOLLAR: &[&str] = &[
    "java", "c", "h", "cc", "cpp", "cxx", "hpp", "cs", "go", "rs", "xsd", "wsdl", "json", "jsonld",
];

/// File name extensions of formats that fold long lines, a line break
/// and one space or tab going on with the line: iCalendar (RFC 5545
/// section 3.1: `.ics`, `.ifb`, and vCalendar's `.vcs`), vCard (RFC 6350
/// section 3.2: `.vcf`, `.vcard`) and LDIF (RFC 2849: `.ldif`); so does
/// a JAR's manifest, `MANIFEST.MF` ([`FOLDED_NAMES`]).
const FOLDED: &[&str] = &["ics", "ifb", "vcs", "vcf", "vcard", "ldif"];

/// File names of formats that fold long lines: a JAR's manifest (JAR
/// File Specification, "Manifest Specification": lines of at most 72
/// bytes, a continuation line starting with a space; `META-INF/MANIFEST.MF`,
/// an OSGi bundle's headers). (`.mf` alone is also METAFONT's source.)
const FOLDED_NAMES: &[&str] = &["MANIFEST.MF"];

/// File name extensions of MIME mail and web archives, whose bodies may
/// be quoted-printable (RFC 2045 section 6.7): an `=` ending a line is a
/// soft line break ([`urnreg::scan::Scanner::set_quoted_printable`]).
const QUOTED_PRINTABLE: &[&str] = &["eml", "mbox", "mbx", "mht", "mhtml"];

/// File name extensions of languages whose statements end at a line break
/// after a string literal, so nothing on the next line joins on to it:
/// Kotlin (a newline ends a statement; `+"text"` is `unaryPlus`, a DSL's
/// text node), Go (a semicolon is inserted after a string literal that
/// ends a line: The Go Programming Language Specification, "Semicolons")
/// and Ruby (`+"text"` is `String#+@`).
const LINE_STATEMENTS: &[&str] = &["kt", "kts", "go", "rb", "rake"];

/// File name extensions of TeX, LaTeX and BibTeX source, where `~` is a
/// tie and `\` then letters a control word
/// ([`urnreg::scan::Scanner::set_tex`]).
const TEX: &[&str] = &["tex", "sty", "cls", "bib", "ltx", "dtx"];

/// File name extensions of unified diffs
/// ([`urnreg::scan::Scanner::set_diff`]).
const DIFF: &[&str] = &["diff", "patch"];

/// File name extensions of Markdown, whose `diff` code blocks are read as
/// diffs ([`urnreg::scan::Scanner::set_markdown`]).
const MARKDOWN: &[&str] = &["md", "markdown", "mkd", "mdown"];

/// File name extensions of prose and markup, which have no operators: a
/// `+` that starts a line is a list item's bullet (CommonMark 5.2) or a
/// UML attribute's visibility (`+ crs : URI = "urn:ogc:def:crs:OGC::84"`
/// in an OGC standard's text), not a join on to a quoted URN on the line
/// before; a line break there ends the statement, as in [`LINE_STATEMENTS`].
/// Typesetting and a PDF's text extraction break prose at a hyphen: a URN
/// ending in `-` at a line's end may go on at the next line's start
/// ([`urnreg::scan::Scanner::set_hyphenated`], [`judge_hyphen_break`]).
const PROSE: &[&str] = &[
    "md", "markdown", "mkd", "mdown", "txt", "text", "rst", "adoc", "asciidoc", "org", "tex", "rdoc",
];

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Files and directories to scan, `-` for stdin (default: the current
    /// directory).
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,

    /// Output format: text (`FILE:LINE:COL: invalid URN: kind: message`),
    /// json (one array), jsonl (one object per URN), sarif (SARIF 2.1.0,
    /// for code-scanning services).
    #[arg(long, value_name = "FORMAT", default_value = "text",
          value_parser = FormatParser(&[Format::Text, Format::Json, Format::Jsonl, Format::Sarif]))]
    format: Format,

    /// Report every URN found, not only the invalid ones (a valid one with
    /// its warnings).
    #[arg(long)]
    all: bool,

    /// Each distinct URN once, with how often it was found and its first
    /// place.
    #[arg(long)]
    unique: bool,

    /// After the results, print counts by NID and by error kind (to
    /// stderr).
    #[arg(long)]
    summary: bool,

    /// Only URNs of these namespaces (comma-separated NIDs); `!NID` leaves
    /// one out, registered or not (`--nid '!schemas-upnp-org'`), as
    /// `-g '!GLOB'` leaves out files.
    #[arg(long, value_name = "NID", value_delimiter = ',')]
    nid: Vec<String>,

    /// Check the generic RFC 8141 syntax only, without the registry.
    #[arg(long, alias = "generic")]
    syntax_only: bool,

    #[command(flatten)]
    syntax: SyntaxArgs,

    /// Only files whose path matches this glob (`!` before it: all but
    /// those); repeatable, as ripgrep's --glob.
    #[arg(long, short = 'g', value_name = "GLOB")]
    glob: Vec<String>,

    /// Scan hidden files and directories too.
    #[arg(long, short = '.')]
    hidden: bool,

    /// Do not honour .gitignore, .ignore and the like.
    #[arg(long)]
    no_ignore: bool,

    /// Scan binary files (a NUL byte in their first 8 KiB) too.
    #[arg(long)]
    binary: bool,

    /// Follow symbolic links (loops are noted and skipped).
    #[arg(long, short = 'L')]
    follow: bool,

    /// Threads (default: one per core, at most 256).
    #[arg(long, short = 'j', value_name = "N", value_parser = parse_jobs)]
    jobs: Option<usize>,

    #[command(flatten)]
    db: DbArgs,
}

/// The most memory the results held to the end may take (json, sarif,
/// `--unique`); past it the scan stops with an error naming the limit.
pub const MAX_KEPT_BYTES: usize = 256 << 20;

/// How much output is made before it is written, when the results held
/// to the end are written out.
const OUTPUT_PIECE: usize = 64 * 1024;

/// How many errors a SARIF report lists in its invocation; the exit status
/// and standard error say the rest.
const MAX_NOTIFICATIONS: usize = 1000;

/// The file a scan reads, as its hits name it.
struct Source {
    /// As shown (reached from the argument).
    name: String,
    /// As a SARIF `artifactLocation.uri` (empty for other formats).
    uri: String,
    /// Read as UTF-8 from UTF-16: offsets are in the decoded text.
    transcoded: bool,
}

/// One URN reported.
#[derive(Debug)]
struct Hit {
    path: String,
    /// As a URI reference (SARIF only).
    uri: String,
    /// Offsets are in the text decoded from UTF-16, not the file's bytes.
    transcoded: bool,
    line: u64,
    column: u64,
    offset: u64,
    /// Bytes of `text`, and where it ends (line, column): for SARIF.
    length: u64,
    end: (u64, u64),
    text: String,
    urn: String,
    /// The first error: kind and message.
    error: Option<(&'static str, String)>,
    /// A valid URN's warnings, kind and message (text and SARIF, with
    /// `--all`).
    warnings: Vec<(&'static str, String)>,
    /// `check --format jsonl`'s object.
    check: Vec<u8>,
    count: u64,
}

impl Hit {
    /// What it takes in memory, held to the end: its own size twice (a
    /// map's table under `--unique` is at most half full just after it
    /// grows, and held twice while it grows), each string's capacity,
    /// the URN again as the map's key, and the allocator's 16 bytes for
    /// each allocation. Counted so, `MAX_KEPT_BYTES` bounds what the
    /// process holds, not half of it.
    fn footprint(&self) -> usize {
        const ALLOCATION: usize = 16;
        let strings = [
            self.path.capacity(),
            self.uri.capacity(),
            self.text.capacity(),
            self.urn.capacity(),
            self.urn.len(),
            self.error.as_ref().map_or(0, |(_, message)| message.capacity()),
            self.warnings.capacity() * std::mem::size_of::<(&str, String)>(),
            self.warnings.iter().map(|(_, message)| message.capacity()).sum(),
            self.check.capacity(),
        ];
        2 * std::mem::size_of::<(String, Hit)>() + strings.iter().map(|n| n + ALLOCATION).sum::<usize>()
    }
}

/// What the threads share.
struct Shared<'a> {
    args: &'a Args,
    registry: Option<&'a Registry>,
    nids: Vec<String>,
    /// The NIDs of `--nid '!NID'`: their URNs are neither reported nor
    /// counted.
    skipped_nids: Vec<String>,
    /// Written as found (text, jsonl without --unique).
    stream: Mutex<Box<dyn Write + Send + 'a>>,
    /// Kept to the end (json, sarif, --unique).
    kept: Mutex<Vec<Hit>>,
    unique: Mutex<HashMap<String, Hit>>,
    /// Bytes held by `kept` and `unique`, and their limit
    /// ([`MAX_KEPT_BYTES`]).
    kept_bytes: AtomicUsize,
    kept_limit: usize,
    summary: Mutex<Summary>,
    /// The file standard output writes to, when it is a regular file
    /// (device and inode): never scanned, since a scan of a tree that
    /// holds its own output would read what it writes, without end.
    output: Option<(u64, u64)>,
    invalid: AtomicBool,
    failed: AtomicBool,
    /// The first [`MAX_NOTIFICATIONS`] errors, for SARIF's invocation
    /// (a run whose files could not all be read must not read as clean).
    errors: Mutex<Vec<String>>,
    closed: AtomicBool,
    /// The reader of standard output left (a closed pipe): the scan ends
    /// quietly with status 0, as a stream does (`scan`'s help).
    reader_left: AtomicBool,
    /// The results held passed [`MAX_KEPT_BYTES`]: nothing more is kept
    /// and nothing is written.
    over_budget: AtomicBool,
}

impl Shared<'_> {
    fn keeps(&self) -> bool {
        self.args.unique || matches!(self.args.format, Format::Json | Format::Sarif)
    }

    fn note(&self, text: &str) {
        let p = Palette::stderr();
        eprintln!("{}: {}", paint(p.warning, "note"), printable_line(text));
    }

    fn error(&self, text: &str) {
        self.failed.store(true, Ordering::Relaxed);
        if matches!(self.args.format, Format::Sarif) {
            let mut errors = self.errors.lock().unwrap_or_else(|e| e.into_inner());
            if errors.len() < MAX_NOTIFICATIONS {
                errors.push(text.to_string());
            }
        }
        print_error(text);
    }
}

/// An error of the walk on standard error, its control characters escaped.
fn print_error(text: &str) {
    let p = Palette::stderr();
    eprintln!("{}: {}", paint(p.error, "error"), printable_line(text));
}

/// One thread's scanner and buffers.
struct Worker<'s, 'a> {
    shared: &'s Shared<'a>,
    scanner: Scanner,
    checker: Checker<'a>,
    out: Vec<u8>,
    hits: Vec<Hit>,
    summary: Summary,
    /// A file's first bytes, read to tell its encoding.
    head: Vec<u8>,
}

impl Drop for Worker<'_, '_> {
    fn drop(&mut self) {
        let summary = std::mem::take(&mut self.summary);
        if let Ok(mut shared) = self.shared.summary.lock() {
            shared.merge(summary);
        }
    }
}

impl<'s, 'a> Worker<'s, 'a> {
    fn new(shared: &'s Shared<'a>) -> Worker<'s, 'a> {
        // Warnings are shown by JSON's `check` objects, and by the text and
        // SARIF outputs with `--all` (a valid URN's recommendations).
        let mut checker = shared.args.syntax.checker(shared.registry);
        if !matches!(shared.args.format, Format::Json | Format::Jsonl) && !shared.args.all {
            checker = checker.without_warnings();
        }
        Worker {
            shared,
            scanner: Scanner::new().binary(shared.args.binary),
            checker,
            out: Vec::new(),
            hits: Vec::new(),
            summary: Summary::default(),
            head: Vec::new(),
        }
    }

    fn visit(&mut self, entry: Result<DirEntry, ignore::Error>, defaulted: bool) -> WalkState {
        if self.shared.closed.load(Ordering::Relaxed) {
            return WalkState::Quit;
        }
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                if is_loop(&err) {
                    self.shared.note(&format!("{err}: skipped"));
                } else {
                    self.shared.error(&err.to_string());
                }
                return WalkState::Continue;
            }
        };
        let path = entry.path();
        let name = name_of(shown(path, defaulted));
        if entry.is_stdin() {
            let source = self.source("<stdin>", Path::new("<stdin>"));
            self.file(io::stdin().lock(), source, true);
            return WalkState::Continue;
        }
        let Some(kind) = entry.file_type() else {
            return WalkState::Continue;
        };
        if kind.is_dir() {
            return WalkState::Continue;
        }
        if kind.is_symlink() {
            // Not followed (see --follow), as ripgrep.
            return WalkState::Continue;
        }
        // A FIFO named on the command line is read (`urnreg scan <(cmd)`);
        // one met in a walk, a socket or a device is not.
        let named_fifo = entry.depth() == 0 && is_fifo(&kind);
        if !kind.is_file() && !named_fifo {
            self.shared.note(&format!(
                "{name}: not a regular file (a FIFO, socket or device): skipped"
            ));
            return WalkState::Continue;
        }
        if self.shared.output.is_some() && file_id(path) == self.shared.output {
            self.shared.note(&format!(
                "{name}: the file this scan writes its output to: skipped"
            ));
            return WalkState::Continue;
        }
        match File::open(path) {
            // A path named on the command line, not met in a walk.
            Ok(file) => {
                let source = self.source(&name, shown(path, defaulted));
                self.file(file, source, entry.depth() == 0)
            }
            Err(err) if is_link_loop(&err) => self.shared.note(&format!("{name}: {err}: skipped")),
            Err(err) => self.shared.error(&format!("{name}: {err}")),
        }
        if self.shared.closed.load(Ordering::Relaxed) {
            WalkState::Quit
        } else {
            WalkState::Continue
        }
    }

    /// What a hit says of its file: its name as shown and, for SARIF, its
    /// URI.
    fn source(&self, name: &str, shown: &Path) -> Source {
        Source {
            name: name.to_owned(),
            uri: if self.shared.args.format == Format::Sarif {
                uri_of(shown)
            } else {
                String::new()
            },
            transcoded: false,
        }
    }

    /// Scans one file (or stdin) and writes or keeps what it reports. A
    /// binary input is skipped without a word in a walk (as ripgrep), with
    /// a note when it was `named` on the command line.
    fn file(&mut self, mut input: impl Read, mut source: Source, named: bool) {
        let name = &source.name[..];
        // UTF-16, with a byte-order mark or told from its first bytes: read
        // the text as UTF-8.
        let head = &mut self.head;
        head.resize(HEAD, 0);
        let mut got = 0;
        let mut eof = false;
        while got < HEAD && !eof {
            match input.read(&mut head[got..]) {
                Ok(0) => eof = true,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return self.shared.error(&format!("{name}: {e}")),
            }
        }
        let bom = matches!(head[..got], [0xFF, 0xFE, ..] | [0xFE, 0xFF, ..]);
        let guessed = if bom {
            None
        } else {
            utf16_without_bom(&head[..got], eof)
        };
        source.transcoded = bom || guessed.is_some();
        let source = &source;
        let name = &source.name[..];
        let head = io::Cursor::new(&head[..got]);
        let reader: Box<dyn Read + '_> = if source.transcoded {
            Box::new(
                encoding_rs_io::DecodeReaderBytesBuilder::new()
                    .encoding(guessed)
                    .bom_sniffing(true)
                    .build(head.chain(input)),
            )
        } else {
            Box::new(head.chain(input))
        };
        // How the file's kind reads: a CSV file's delimiter ends a URN in
        // an unquoted field; markup and languages whose strings take
        // `$name` as written; formats that fold their long lines; languages
        // whose line breaks end statements; TeX's ties and control words,
        // RTF's control words; diffs' line markers.
        let extension = Path::new(name).extension().and_then(|e| e.to_str()).unwrap_or("");
        let one_of = |list: &[&str]| list.iter().any(|x| x.eq_ignore_ascii_case(extension));
        self.scanner.set_csv(one_of(&["csv"]));
        self.scanner.set_literal_dollar(one_of(LITERAL_DOLLAR));
        let file_name = Path::new(name).file_name().and_then(|n| n.to_str()).unwrap_or("");
        self.scanner
            .set_folded(one_of(FOLDED) || FOLDED_NAMES.iter().any(|x| x.eq_ignore_ascii_case(file_name)));
        self.scanner.set_quoted_printable(one_of(QUOTED_PRINTABLE));
        self.scanner.set_properties(one_of(&["properties"]));
        self.scanner.set_tex(one_of(TEX));
        self.scanner.set_rtf(one_of(&["rtf"]));
        self.scanner.set_diff(one_of(DIFF));
        self.scanner.set_markdown(one_of(MARKDOWN));
        self.scanner.set_hyphenated(one_of(PROSE));
        self.scanner
            .set_line_statements(one_of(LINE_STATEMENTS) || one_of(PROSE));
        let shared = self.shared;
        let checker = &mut self.checker;
        let summary = &mut self.summary;
        let out = &mut self.out;
        let hits = &mut self.hits;
        // Once the scan has stopped (its output closed, or the results
        // held past their limit), the rest of the file is not read.
        let reader = UntilStopped {
            inner: reader,
            stopped: &shared.closed,
        };
        let result = self.scanner.scan(reader, |found| {
            // Past the limit on what is held, or the output closed: nothing
            // more is made, and a URN cut off where the reading stopped is
            // no finding (it would count as invalid).
            if shared.over_budget.load(Ordering::Relaxed) || shared.closed.load(Ordering::Relaxed) {
                return;
            }
            if !shared.nids.is_empty() && !nid_is_one_of(found.urn, &shared.nids) {
                return;
            }
            if !shared.skipped_nids.is_empty() && nid_is_one_of(found.urn, &shared.skipped_nids) {
                return;
            }
            for (urn, text, report) in judge(checker, found, shared.registry.is_some()) {
                summary.add(&report, true);
                if !report.is_valid() {
                    shared.invalid.store(true, Ordering::Relaxed);
                }
                if !shared.args.all && report.is_valid() {
                    continue;
                }
                if shared.keeps() {
                    hits.push(hit(source, found, urn, text, &report, shared.args.format));
                    if hits.len() >= 1024 {
                        keep(shared, hits);
                    }
                } else {
                    if shared.args.format == Format::Jsonl {
                        // Streamed: written as it is, nothing held.
                        write_json_found(name, found, urn, text, &report, out);
                    } else {
                        write_hit(
                            &hit(source, found, urn, text, &report, shared.args.format),
                            shared.args.format,
                            out,
                        );
                    }
                    if out.len() >= OUT_FLUSH {
                        write_out(shared, out);
                    }
                }
            }
        });
        match result {
            Err(e) => self.shared.error(&format!("{name}: {e}")),
            Ok(scanned) if scanned.binary && named => self.shared.note(&format!(
                "{name}: binary (a NUL byte in its first 8 KiB): skipped; --binary scans it"
            )),
            Ok(_) => {}
        }
        self.flush();
    }

    fn flush(&mut self) {
        write_out(self.shared, &mut self.out);
        if self.hits.is_empty() {
            return;
        }
        keep(self.shared, &mut self.hits);
    }
}

/// A reader that ends when `stopped` is set: a scan that has stopped
/// reads no more of the file it is in (a file of gigabytes is not read
/// to its end for nothing).
struct UntilStopped<'a, R> {
    inner: R,
    stopped: &'a AtomicBool,
}

impl<R: Read> Read for UntilStopped<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.stopped.load(Ordering::Relaxed) {
            return Ok(0);
        }
        self.inner.read(buf)
    }
}

/// The bytes read first, to tell a file's encoding: as many as the scan
/// looks at to tell a binary file.
const HEAD: usize = 8192;

/// UTF-16 without a byte-order mark, told from a file's first bytes
/// (`complete`: the whole file), or `None`. Only a text that holds a NUL
/// byte is looked at (any other is read as bytes, as before), and it must
/// read as UTF-16 text from end to end in one byte order: every whole code
/// unit a character (no U+0000, no control character but tab, line feed,
/// form feed and carriage return, no noncharacter U+FFFE or U+FFFF, no
/// unpaired surrogate), and at least half of them ASCII, so that the NULs
/// stand at every other position (XML 1.0 Appendix F: `<\0?\0`, `\0<\0?`).
/// A binary file seldom reads so; a UTF-16 text of few ASCII characters
/// is left as binary.
fn utf16_without_bom(head: &[u8], complete: bool) -> Option<&'static encoding_rs::Encoding> {
    if head.len() < 4 || !head.contains(&0) || (complete && head.len() % 2 == 1) {
        return None;
    }
    let reads_as = |big_endian: bool| {
        let units = head.chunks_exact(2).map(|pair| {
            if big_endian {
                u16::from_be_bytes([pair[0], pair[1]])
            } else {
                u16::from_le_bytes([pair[0], pair[1]])
            }
        });
        let (mut total, mut ascii) = (0usize, 0usize);
        let mut high = false; // the unit before was a high surrogate
        for unit in units {
            total += 1;
            if high != (0xDC00..0xE000).contains(&unit) {
                return false;
            }
            high = (0xD800..0xDC00).contains(&unit);
            match unit {
                0x09 | 0x0A | 0x0C | 0x0D => ascii += 1,
                0x00..0x20 | 0x7F | 0xFFFE | 0xFFFF => return false,
                0x20..0x7F => ascii += 1,
                _ => {}
            }
        }
        // A pair cut by the end of what was read is whole in the file.
        (!high || !complete) && 2 * ascii >= total
    };
    if reads_as(false) {
        Some(encoding_rs::UTF_16LE)
    } else if reads_as(true) {
        Some(encoding_rs::UTF_16BE)
    } else {
        None
    }
}

/// What a worker writes of one file before it hands it on, so that a
/// file of many URNs (one huge line included) holds no more than this.
const OUT_FLUSH: usize = 256 * 1024;

/// Writes `out` to the shared output and empties it.
fn write_out(shared: &Shared<'_>, out: &mut Vec<u8>) {
    if out.is_empty() {
        return;
    }
    let mut stream = shared.stream.lock().unwrap_or_else(|e| e.into_inner());
    if let Err(e) = stream.write_all(out) {
        if e.kind() == io::ErrorKind::BrokenPipe {
            shared.reader_left.store(true, Ordering::Relaxed);
        } else {
            shared.error(&format!("standard output: {e}"));
        }
        shared.closed.store(true, Ordering::Relaxed);
    }
    out.clear();
}

/// Hands `hits` over to the results held to the end, counting what they
/// take against [`MAX_KEPT_BYTES`].
fn keep(shared: &Shared<'_>, hits: &mut Vec<Hit>) {
    if shared.over_budget.load(Ordering::Relaxed) {
        hits.clear();
        return;
    }
    let mut added = 0;
    let held;
    if shared.args.unique {
        let mut unique = shared.unique.lock().unwrap_or_else(|e| e.into_inner());
        for hit in hits.drain(..) {
            match unique.get_mut(&hit.urn) {
                Some(seen) => {
                    let count = seen.count + 1;
                    if (&hit.path, hit.offset) < (&seen.path, seen.offset) {
                        *seen = hit;
                    }
                    seen.count = count;
                }
                None => {
                    added += hit.footprint();
                    unique.insert(hit.urn.clone(), hit);
                }
            }
        }
        held = unique.len();
    } else {
        added = hits.iter().map(Hit::footprint).sum();
        let mut kept = shared.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.append(hits);
        held = kept.len();
    }
    let total = shared.kept_bytes.fetch_add(added, Ordering::Relaxed) + added;
    if total > shared.kept_limit && !shared.over_budget.swap(true, Ordering::Relaxed) {
        // The results are held to be written in order (by path and
        // offset, whatever the threads' order) and, for SARIF, with the
        // rules they name ahead of them: say how many reached the limit.
        shared.error(&format!(
            "the results held to the end (for --format json or sarif, or --unique) passed {} MiB \
             (the limit) at {held} {}: stopped, nothing written; use --format jsonl or text \
             without --unique to stream them, or narrow the scan (--nid, --glob)",
            shared.kept_limit >> 20,
            if shared.args.unique {
                "distinct URNs"
            } else {
                "results"
            }
        ));
        shared.closed.store(true, Ordering::Relaxed);
    }
}

/// The readings of what was found that are reported, each with its text
/// and report: a URN joined across a hyphen at a line break is reported
/// both ways only when both are valid, else the valid one, else as
/// written (or cut at a '/', [`cut_at_slash`]).
fn judge<'a, 'r>(
    checker: &mut Checker<'r>,
    found: &Found<'a>,
    registry: bool,
) -> Vec<(&'a [u8], &'a [u8], Report<'a, 'r>)> {
    if found.too_long {
        return vec![(
            found.urn,
            found.text,
            Report::urn_too_long(found.urn, MAX_URN, registry),
        )];
    }
    if let (Some(n), Some(other)) = (found.line_cut, found.alternative) {
        return judge_hyphen_break(checker, found, n, other);
    }
    let written = checker.check(found.urn);
    let Some(other) = found.alternative else {
        return vec![cut_at_slash(checker, found, written)];
    };
    let dropped = checker.check(other);
    match (written.is_valid(), dropped.is_valid()) {
        (true, true) => vec![(found.urn, found.text, written), (other, found.text, dropped)],
        (false, true) => vec![(other, found.text, dropped)],
        _ => vec![cut_at_slash(checker, found, written)],
    }
}

/// The readings of a URN that prose broke at a hyphen ending a line
/// ([`Found::line_cut`]: `urn:nbn:de:bvb:19-` then `82009` in a PDF's
/// text): the first line's alone is reported, as written there, unless a
/// reading joined across the break is better, valid where it is not, or
/// valid without a warning where it has one (`urn:nbn:de:101:1-2016090525-`
/// then `30`: a check digit's warning); then the best joined readings are
/// (both when both are as good, as inside `<...>`).
fn judge_hyphen_break<'a, 'r>(
    checker: &mut Checker<'r>,
    found: &Found<'a>,
    n: usize,
    other: &'a [u8],
) -> Vec<(&'a [u8], &'a [u8], Report<'a, 'r>)> {
    fn rank(report: &Report<'_, '_>) -> u8 {
        match (report.is_valid(), report.warnings().next().is_none()) {
            (true, true) => 2,
            (true, false) => 1,
            _ => 0,
        }
    }
    let line = &found.urn[..n];
    let first = checker.check(line);
    let kept = checker.check(found.urn);
    let dropped = checker.check(other);
    let best = rank(&kept).max(rank(&dropped));
    if best <= rank(&first) {
        return vec![(line, found.text_of(n), first)];
    }
    let mut readings = Vec::with_capacity(2);
    if rank(&kept) == best {
        readings.push((found.urn, found.text, kept));
    }
    if rank(&dropped) == best {
        readings.push((other, found.text, dropped));
    }
    readings
}

/// A URN in a segment of a path, a '/' before it (C2PA's JUMBF URIs,
/// `self#jumbf=/c2pa/urn:c2pa:<uuid>/c2pa.signature`; a book's URN in a
/// URL) ends at a '/' its namespace's syntax refuses, when what comes
/// before it is a valid URN and the syntax never takes a '/' in the part
/// it ends in (up to its next ':'): that URN is reported, with its own
/// text. Any other invalid URN is reported as written: a namespace with no
/// grammar (RFC 8141's syntax, or a built-in check alone), a '/' that may
/// come later in that part (cdx's UUID "/" version), or an invalid URN
/// before the '/', stays an error.
fn cut_at_slash<'a, 'r>(
    checker: &mut Checker<'r>,
    found: &Found<'a>,
    written: Report<'a, 'r>,
) -> (&'a [u8], &'a [u8], Report<'a, 'r>) {
    // In a web URL's path a '/' starts the URL's next segment (RFC 3986
    // section 3.3: `.../collections/urn:wmo:md:...:obs/items`) when the
    // URN before it is valid, or of a NID no registry defines; a URN its
    // namespace makes whole only with the '/' (cdx's UUID "/" version)
    // keeps it.
    if found.in_web_url
        && let Some(at) = first_slash_in_nss(found.urn)
    {
        let prefix = &found.urn[..at];
        let cut = checker.check(prefix);
        let unregistered = cut
            .errors()
            .next()
            .is_some_and(|e| e.code() == "unregistered-nid");
        if cut.is_valid() || unregistered && cut.errors().count() == 1 {
            return (prefix, found.text_of(at), cut);
        }
    }
    // Elsewhere, only a URN in a segment of a path (a '/' before it)
    // ends at one: `"@id": "urn:uuid:<uuid>/state"` (a Web of
    // Things description's node) is one value, invalid as written.
    let at = written
        .errors()
        .next()
        .filter(|e| {
            found.path_segment && e.code() == "nss-syntax" && found.urn.get(e.offset()) == Some(&b'/')
        })
        .map(|e| e.offset());
    let Some(at) = at else {
        return (found.urn, found.text, written);
    };
    let prefix = &found.urn[..at];
    let cut = checker.check(prefix);
    let ends_there = cut.is_valid()
        && cut.urn().is_some_and(|urn| {
            cut.namespace()
                .and_then(|ns| ns.rules().ok().flatten())
                .is_some_and(|rules| !rules.admits_in_part(urn, b'/'))
        });
    if ends_there {
        (prefix, found.text_of(at), cut)
    } else {
        (found.urn, found.text, written)
    }
}

/// Where the first '/' after the NID's ':' is in `urn`, if it has one.
fn first_slash_in_nss(urn: &[u8]) -> Option<usize> {
    let body = 4.min(urn.len());
    let nss = body + memchr::memchr(b':', &urn[body..])? + 1;
    memchr::memchr(b'/', &urn[nss..]).map(|i| nss + i)
}

fn nid_is_one_of(urn: &[u8], nids: &[String]) -> bool {
    let body = &urn[4.min(urn.len())..];
    let nid = &body[..memchr::memchr(b':', body).unwrap_or(body.len())];
    nids.iter().any(|n| n.as_bytes().eq_ignore_ascii_case(nid))
}

fn hit(
    source: &Source,
    found: &Found<'_>,
    urn: &[u8],
    text: &[u8],
    report: &Report<'_, '_>,
    format: Format,
) -> Hit {
    let length = text.len() as u64;
    let end = found.end_of(text);
    let text = String::from_utf8_lossy(text).into_owned();
    let mut check = Vec::new();
    if matches!(format, Format::Json | Format::Jsonl) {
        report.write_json(&mut check, None);
    }
    Hit {
        path: source.name.clone(),
        uri: source.uri.clone(),
        transcoded: source.transcoded,
        line: found.line,
        column: found.column,
        offset: found.offset,
        length,
        end,
        text,
        urn: String::from_utf8_lossy(urn).into_owned(),
        error: report.errors().next().map(|e| (e.code(), e.to_string())),
        warnings: if report.is_valid() && !matches!(format, Format::Json | Format::Jsonl) {
            report.warnings().map(|w| (w.code(), w.to_string())).collect()
        } else {
            Vec::new()
        },
        check,
        count: 1,
    }
}

fn write_hit(hit: &Hit, format: Format, out: &mut Vec<u8>) {
    match format {
        Format::Jsonl => {
            write_json_hit(hit, out);
            out.push(b'\n');
        }
        _ => write_text_hit(hit, out),
    }
}

/// A URN as a line of text shows it: as it is, unless its end would run
/// into what follows (a last `:` before `: kind`, `urn:x:yang:: nss-syntax`)
/// or it holds whitespace: then between `<` and `>`, as the URI drafts'
/// Appendix E delimits a URI in context.
fn delimited(urn: &str) -> Cow<'_, str> {
    if urn.is_empty() || urn.ends_with(':') || urn.contains(char::is_whitespace) {
        Cow::Owned(format!("<{urn}>"))
    } else {
        Cow::Borrowed(urn)
    }
}

fn write_text_hit(hit: &Hit, out: &mut Vec<u8>) {
    let p = Palette::stdout();
    let place = format!("{}:{}:{}:", hit.path, hit.line, hit.column);
    let times = if hit.count > 1 {
        format!(" ({} times)", hit.count)
    } else {
        String::new()
    };
    // Writing to a Vec cannot fail. One line per hit, whatever a file's
    // name holds.
    let _ = match &hit.error {
        Some((kind, message)) => writeln!(
            out,
            "{} {} {}: {kind}: {}{times}",
            paint(p.dim, printable_line(&place)),
            paint(p.error, "invalid"),
            printable_line(&delimited(&hit.urn)),
            printable_line(message)
        ),
        None => {
            let mut warned = String::new();
            for (i, (kind, message)) in hit.warnings.iter().enumerate() {
                warned.push_str(if i == 0 { " (" } else { "; " });
                warned.push_str(&format!(
                    "{}: {kind}: {}",
                    paint(p.warning, "warning"),
                    printable_line(message)
                ));
            }
            if !warned.is_empty() {
                warned.push(')');
            }
            writeln!(
                out,
                "{} {} {}{warned}{times}",
                paint(p.dim, printable_line(&place)),
                paint(p.good, "valid"),
                printable_line(&delimited(&hit.urn))
            )
        }
    };
}

/// Where a URN was found and what it was, as the start of its JSON object
/// (the keys in order; `count` and `check` follow).
struct JsonHead<'a> {
    path: &'a str,
    line: u64,
    column: u64,
    offset: u64,
    text: &'a str,
    urn: &'a str,
}

impl JsonHead<'_> {
    fn write(&self, out: &mut Vec<u8>) {
        // Writing to a Vec cannot fail.
        let string = |out: &mut Vec<u8>, text: &str| {
            let _ = serde_json::to_writer(&mut *out, text);
        };
        let _ = write!(
            out,
            "{{\"column\":{},\"line\":{},\"offset\":{},\"path\":",
            self.column, self.line, self.offset
        );
        string(out, self.path);
        out.extend_from_slice(b",\"text\":");
        string(out, self.text);
        out.extend_from_slice(b",\"urn\":");
        string(out, self.urn);
    }
}

/// [`write_json_hit`]'s line, written straight from what was found, for a
/// stream of many.
fn write_json_found(
    path: &str,
    found: &Found<'_>,
    urn: &[u8],
    text: &[u8],
    report: &Report<'_, '_>,
    out: &mut Vec<u8>,
) {
    JsonHead {
        path,
        line: found.line,
        column: found.column,
        offset: found.offset,
        text: &String::from_utf8_lossy(text),
        urn: &String::from_utf8_lossy(urn),
    }
    .write(out);
    out.extend_from_slice(b",\"check\":");
    report.write_json(out, None);
    out.extend_from_slice(b"}\n");
}

fn write_json_hit(hit: &Hit, out: &mut Vec<u8>) {
    JsonHead {
        path: &hit.path,
        line: hit.line,
        column: hit.column,
        offset: hit.offset,
        text: &hit.text,
        urn: &hit.urn,
    }
    .write(out);
    if hit.count > 1 {
        // Writing to a Vec cannot fail.
        let _ = write!(out, ",\"count\":{}", hit.count);
    }
    out.extend_from_slice(b",\"check\":");
    out.extend_from_slice(&hit.check);
    out.push(b'}');
}

/// SARIF 2.1.0: the report without its results (`"results": []`), made
/// from all of them (the rules they name), with the run's invocation:
/// whether it succeeded, and the errors met (paths that could not be
/// read) as `toolExecutionNotifications` (section 3.20). The results,
/// [`sarif_result`] each, are written into its array one at a time.
fn sarif_head(hits: &[Hit], failed: bool, errors: &[String]) -> Value {
    let mut kinds: Vec<&'static str> = hits
        .iter()
        .filter_map(|h| h.error.as_ref().map(|e| e.0))
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    let mut rules: Vec<Value> = kinds
        .iter()
        .map(|kind| {
            json!({
                "id": kind,
                "shortDescription": { "text": format!("URN finding: {kind}") },
                "helpUri": "https://www.rfc-editor.org/rfc/rfc8141",
            })
        })
        .collect();
    // A valid URN's warnings (with `--all`): a rule each, of level
    // "warning" (SARIF 2.1.0 section 3.27.10).
    let mut warned: Vec<&'static str> = hits
        .iter()
        .filter(|h| h.error.is_none())
        .flat_map(|h| h.warnings.iter().map(|w| w.0))
        .collect();
    warned.sort_unstable();
    warned.dedup();
    rules.extend(warned.iter().filter(|kind| !kinds.contains(kind)).map(|kind| {
        json!({
            "id": kind,
            "shortDescription": { "text": format!("URN warning: {kind}") },
            "defaultConfiguration": { "level": "warning" },
            "helpUri": "https://www.rfc-editor.org/rfc/rfc8141",
        })
    }));
    // `--all` reports valid URNs too, as results of their own rule (SARIF
    // 2.1.0 section 3.27.5: a result's ruleId names a rule of the driver).
    if hits.iter().any(|h| h.error.is_none() && h.warnings.is_empty()) {
        rules.push(json!({
            "id": "valid",
            "shortDescription": { "text": "A valid URN (reported with --all)" },
            "defaultConfiguration": { "level": "none" },
            "helpUri": "https://www.rfc-editor.org/rfc/rfc8141",
        }));
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "urnreg",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://www.rfc-editor.org/rfc/rfc8141",
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": !failed,
                "toolExecutionNotifications": errors
                    .iter()
                    .map(|text| json!({ "level": "error", "message": { "text": text } }))
                    .collect::<Vec<Value>>(),
            }],
            "columnKind": "unicodeCodePoints",
            "results": [],
        }]
    })
}

/// The SARIF results of a reported URN, each with its region: one for an
/// invalid URN (level "error"), one for each warning of a valid one
/// (level "warning"), or one of rule `valid` (level "none").
fn sarif_results(hit: &Hit) -> Vec<Value> {
    match &hit.error {
        Some((kind, message)) => vec![sarif_result(
            hit,
            kind,
            "error",
            format!("invalid URN {}: {message}", delimited(&hit.urn)),
        )],
        None if hit.warnings.is_empty() => {
            vec![sarif_result(
                hit,
                "valid",
                "none",
                format!("valid URN {}", delimited(&hit.urn)),
            )]
        }
        None => hit
            .warnings
            .iter()
            .map(|(kind, message)| {
                sarif_result(
                    hit,
                    kind,
                    "warning",
                    format!("valid URN {} with a warning: {message}", delimited(&hit.urn)),
                )
            })
            .collect(),
    }
}

/// One SARIF result: a reported URN with its region.
fn sarif_result(hit: &Hit, rule: &str, level: &str, message: String) -> Value {
    let mut region = json!({
        "startLine": hit.line,
        "startColumn": hit.column,
        "endLine": hit.end.0,
        "endColumn": hit.end.1,
    });
    // SARIF 2.1.0 sections 3.30.4 and 3.30.11: byteOffset counts the
    // file's bytes and must describe the text's range; in a file read
    // from UTF-16 the scan's offsets are the decoded UTF-8's, so there are
    // none to give.
    if !hit.transcoded {
        region["byteOffset"] = json!(hit.offset);
        region["byteLength"] = json!(hit.length);
    }
    let mut result = json!({
        "ruleId": rule,
        "level": level,
        "message": { "text": message },
        "locations": [{
            "physicalLocation": {
                "artifactLocation": { "uri": hit.uri },
                "region": region,
            }
        }],
    });
    if hit.count > 1 {
        result["occurrenceCount"] = json!(hit.count);
    }
    result
}

/// A path as shown: as ripgrep, without the `./` of the implied
/// directory (`defaulted`: no path was given).
fn shown(path: &Path, defaulted: bool) -> &Path {
    if defaulted {
        path.strip_prefix(".").unwrap_or(path)
    } else {
        path
    }
}

/// A path's name as the text, JSON and JSON Lines outputs give it: its
/// text, each byte of it that is no part of a UTF-8 character written
/// `\xHH`, as the text output writes a control character (`bad\xffname.txt`),
/// so that names that differ in such a byte stay apart (U+FFFD would make
/// them one), and each backslash written `\\`, so that a file literally
/// named `bad\xffname.txt` reads `bad\\xffname.txt`, not as the other.
/// SARIF's URI percent-encodes the bytes instead ([`uri_of`]).
fn name_of(path: &Path) -> String {
    #[cfg(unix)]
    {
        use std::fmt::Write as _;
        use std::os::unix::ffi::OsStrExt as _;
        let bytes = path.as_os_str().as_bytes();
        let mut name = String::with_capacity(bytes.len());
        for chunk in bytes.utf8_chunks() {
            for piece in chunk.valid().split_inclusive('\\') {
                name.push_str(piece);
                if piece.ends_with('\\') {
                    name.push('\\');
                }
            }
            for b in chunk.invalid() {
                // Writing to a String cannot fail.
                let _ = write!(name, "\\x{b:02x}");
            }
        }
        name
    }
    #[cfg(not(unix))]
    {
        path.display().to_string()
    }
}

/// A path as a URI reference (RFC 3986 section 4.1): `/` separators,
/// and every other byte a URI cannot hold percent-encoded, from the
/// path's own bytes (a byte that is no UTF-8 is itself, `%FF`; on Unix a
/// `\\` is a name's character, `%5C`). A relative path whose first
/// segment holds a colon gets `./`, else that segment reads as a scheme
/// (RFC 3986 section 4.2).
fn uri_of(path: &Path) -> String {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt as _;
        std::borrow::Cow::Borrowed(path.as_os_str().as_bytes())
    };
    #[cfg(not(unix))]
    let bytes = std::borrow::Cow::<[u8]>::Owned(path.to_string_lossy().replace('\\', "/").into_bytes());
    let mut uri = String::with_capacity(bytes.len() + 2);
    let first = bytes.split(|&b| b == b'/').next().unwrap_or_default();
    if path.is_relative() && first.contains(&b':') {
        uri.push_str("./");
    }
    for &b in bytes.iter() {
        if b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

#[cfg(unix)]
fn is_fifo(kind: &std::fs::FileType) -> bool {
    std::os::unix::fs::FileTypeExt::is_fifo(kind)
}

#[cfg(not(unix))]
fn is_fifo(_: &std::fs::FileType) -> bool {
    false
}

/// A loop of the walk (a directory that holds its ancestor, through a
/// link), or links that lead to each other (`b -> c`, `c -> b`: the
/// system's "too many levels of symbolic links"): noted and skipped, as
/// `--follow` promises.
fn is_loop(err: &ignore::Error) -> bool {
    match err {
        ignore::Error::Loop { .. } => true,
        ignore::Error::WithPath { err, .. } | ignore::Error::WithDepth { err, .. } => is_loop(err),
        ignore::Error::Partial(errs) => errs.iter().all(is_loop),
        ignore::Error::Io(e) => is_link_loop(e),
        _ => false,
    }
}

/// Whether `e` is ELOOP: too many levels of symbolic links (its number
/// differs between systems; `ErrorKind::FilesystemLoop` is not stable).
fn is_link_loop(e: &io::Error) -> bool {
    let eloop = if cfg!(any(target_os = "linux", target_os = "android")) {
        40
    } else if cfg!(any(
        target_os = "macos",
        target_os = "ios",
        target_os = "freebsd",
        target_os = "openbsd",
        target_os = "netbsd",
        target_os = "dragonfly"
    )) {
        62
    } else {
        return false;
    };
    e.raw_os_error() == Some(eloop)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let registry = if args.syntax_only {
        None
    } else {
        Some(args.db.registry()?)
    };
    let defaulted = args.paths.is_empty();
    let paths = if defaulted {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };

    let mut walk = WalkBuilder::new(&paths[0]);
    for path in &paths[1..] {
        walk.add(path);
    }
    let ignore = !args.no_ignore;
    walk.hidden(!args.hidden)
        .ignore(ignore)
        .git_ignore(ignore)
        .git_global(ignore)
        .git_exclude(ignore)
        .parents(ignore)
        // A .gitignore counts in a tree that is not a git checkout too.
        .require_git(false)
        .follow_links(args.follow);
    if !args.glob.is_empty() {
        let mut globs = OverrideBuilder::new(".");
        for glob in &args.glob {
            if glob.trim().is_empty() {
                return Err(super::UsageError(
                    "--glob: the pattern is empty: give a glob such as '*.xml' or '!vendor/**'".to_string(),
                )
                .into());
            }
            globs.add(glob).with_context(|| format!("--glob {glob}"))?;
        }
        walk.overrides(globs.build().context("--glob")?);
    }
    let (nids, skipped_nids) = checked_nids(&args.nid, registry.as_ref())?;
    // The ignore files are checked before the walk reads them: those of each
    // root and the directories above it now, each other directory's before
    // the walk enters it; one refused leaves its directory out.
    let refused = Arc::new(Mutex::new(Vec::new()));
    if ignore {
        let guard = Arc::new(IgnoreGuard::default());
        for path in paths.iter().filter(|p| p.as_os_str() != "-") {
            guard.admit_root(path).map_err(anyhow::Error::msg)?;
        }
        let refused = Arc::clone(&refused);
        walk.filter_entry(move |entry| {
            if !entry.file_type().is_some_and(|kind| kind.is_dir()) {
                return true;
            }
            match guard.admit(entry.path()) {
                Ok(()) => true,
                Err(text) => {
                    print_error(&text);
                    refused.lock().unwrap_or_else(|e| e.into_inner()).push(text);
                    false
                }
            }
        });
    }
    let jobs = args.jobs.unwrap_or_else(cores);
    // Stdin may stay open and silent: its reader gone, the scan ends.
    let watch = paths
        .iter()
        .any(|p| p.as_os_str() == "-")
        .then(super::input::watch_stdout);
    let shared = Shared {
        args: &args,
        registry: registry.as_ref(),
        nids,
        skipped_nids,
        stream: Mutex::new(Box::new(io::BufWriter::with_capacity(64 * 1024, io::stdout()))),
        kept: Mutex::new(Vec::new()),
        unique: Mutex::new(HashMap::new()),
        kept_bytes: AtomicUsize::new(0),
        kept_limit: MAX_KEPT_BYTES,
        summary: Mutex::new(Summary::default()),
        output: stdout_file_id(),
        invalid: AtomicBool::new(false),
        failed: AtomicBool::new(false),
        errors: Mutex::new(Vec::new()),
        closed: AtomicBool::new(false),
        reader_left: AtomicBool::new(false),
        over_budget: AtomicBool::new(false),
    };
    if jobs <= 1 {
        let mut worker = Worker::new(&shared);
        for entry in walk.sort_by_file_name(OsStr::cmp).build() {
            if let WalkState::Quit = worker.visit(entry, defaulted) {
                break;
            }
        }
    } else {
        walk.threads(jobs).build_parallel().run(|| {
            let mut worker = Worker::new(&shared);
            Box::new(move |entry| worker.visit(entry, defaulted))
        });
    }
    drop(watch);
    for text in std::mem::take(&mut *refused.lock().unwrap_or_else(|e| e.into_inner())) {
        shared.failed.store(true, Ordering::Relaxed);
        let mut errors = shared.errors.lock().unwrap_or_else(|e| e.into_inner());
        if matches!(args.format, Format::Sarif) && errors.len() < MAX_NOTIFICATIONS {
            errors.push(text);
        }
    }
    finish(&shared)?;
    let failed = shared.failed.load(Ordering::Relaxed);
    Ok(ExitCode::from(if failed {
        2
    } else if shared.reader_left.load(Ordering::Relaxed) {
        0
    } else if shared.invalid.load(Ordering::Relaxed) {
        1
    } else {
        0
    }))
}

/// A file's device and inode (following links, as the walk opens it).
#[cfg(unix)]
fn file_id(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(_: &Path) -> Option<(u64, u64)> {
    None
}

/// The device and inode of the regular file standard output writes to
/// (`urnreg scan . > urns.txt`), if it is one.
#[cfg(unix)]
fn stdout_file_id() -> Option<(u64, u64)> {
    use std::os::fd::AsFd as _;
    use std::os::unix::fs::MetadataExt as _;
    let fd = io::stdout().as_fd().try_clone_to_owned().ok()?;
    let meta = File::from(fd).metadata().ok()?;
    meta.is_file().then(|| (meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn stdout_file_id() -> Option<(u64, u64)> {
    None
}

/// The NIDs of `--nid`, those to scan for and those left out (`!NID`):
/// each must be one (RFC 8141 section 2) and, with a registry, one scanned
/// for must be registered; a typo would otherwise filter out everything
/// and pass. An unregistered namespace is scanned for with
/// `--syntax-only`; one left out need not be registered (leaving out a
/// namespace a project knows is unregistered, `schemas-upnp-org`, is what
/// it is for), and a typo there leaves its URNs reported, not hidden.
fn checked_nids(given: &[String], registry: Option<&Registry>) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    let (mut nids, mut skipped) = (Vec::new(), Vec::new());
    // `--nid ''` or `--nid ,` names nothing: filtering by it would scan
    // for every NID while the user asked for some.
    if !given.is_empty() && given.iter().all(|n| n.trim().is_empty()) {
        return Err(super::UsageError(
            "--nid: the list is empty: name at least one NID (--nid isbn,issn)".to_string(),
        )
        .into());
    }
    for entry in given.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        let (nid, skip) = match entry.strip_prefix('!') {
            Some(nid) => (nid.trim(), true),
            None => (entry, false),
        };
        if nid.is_empty() {
            return Err(super::UsageError(
                "--nid '!': no NID after '!': name the namespace to leave out (--nid '!schemas-upnp-org')"
                    .to_string(),
            )
            .into());
        }
        if let Err(kind) = urnreg::check_nid(nid) {
            let (what, section) = kind.nid_rule();
            return Err(super::UsageError(format!(
                "--nid {}: not a valid NID ({}): {what} ({section})",
                printable_line(entry),
                kind.code()
            ))
            .into());
        }
        if skip {
            skipped.push(nid.to_owned());
            continue;
        }
        if let Some(registry) = registry
            && registry.namespace(nid).is_none()
        {
            let near = registry
                .suggest(nid)
                .map(|ns| format!(" (did you mean '{}'?)", ns.nid()))
                .unwrap_or_default();
            return Err(super::UsageError(format!(
                "--nid {nid}: not a registered NID{near}; add --syntax-only to scan for an \
                 unregistered namespace"
            ))
            .into());
        }
        nids.push(nid.to_owned());
    }
    // Every NID scanned for also left out (`--nid 'isbn,!isbn'`): nothing
    // could be reported, and the scan would pass whatever the files hold.
    let left_out = |nid: &String| skipped.iter().any(|s| s.eq_ignore_ascii_case(nid));
    if !nids.is_empty() && nids.iter().all(left_out) {
        let both = nids
            .iter()
            .map(|n| format!("{n} and !{n}"))
            .collect::<Vec<_>>()
            .join(", ");
        return Err(super::UsageError(format!(
            "--nid: every NID scanned for is also left out ({}): nothing could be reported; \
             drop one of the two",
            printable_line(&both)
        ))
        .into());
    }
    Ok((nids, skipped))
}

/// Writes what was kept to the end, the closing of the output and the
/// summary.
fn finish(shared: &Shared<'_>) -> anyhow::Result<()> {
    let args = shared.args;
    if shared.over_budget.load(Ordering::Relaxed) {
        // A partial array or report would read as the whole: none.
        return Ok(());
    }
    let mut hits = std::mem::take(&mut *shared.kept.lock().unwrap_or_else(|e| e.into_inner()));
    {
        // The map given up as it is emptied: the results are not held twice.
        let unique = std::mem::take(&mut *shared.unique.lock().unwrap_or_else(|e| e.into_inner()));
        hits.reserve_exact(unique.len());
        hits.extend(unique.into_values());
    }
    hits.sort_by(|a, b| (&a.path, a.offset, &a.urn).cmp(&(&b.path, b.offset, &b.urn)));
    let mut stream = shared.stream.lock().unwrap_or_else(|e| e.into_inner());
    // Written as made, 64 KiB at a time, each result let go once written:
    // the output is never held whole beside the results (MAX_KEPT_BYTES
    // bounds what the scan holds, not twice that).
    let mut closed = shared.closed.load(Ordering::Relaxed);
    let mut out = Vec::with_capacity(OUTPUT_PIECE);
    let mut emit = |out: &mut Vec<u8>, last: bool| -> anyhow::Result<()> {
        if out.len() < OUTPUT_PIECE && !last {
            return Ok(());
        }
        if !closed {
            let written = stream
                .write_all(out)
                .and_then(|()| if last { stream.flush() } else { Ok(()) });
            match written {
                // The reader is gone: nothing more is written.
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                    shared.reader_left.store(true, Ordering::Relaxed);
                    closed = true
                }
                Err(e) => return Err(anyhow::Error::new(e).context("standard output")),
                Ok(()) => {}
            }
        }
        out.clear();
        Ok(())
    };
    match args.format {
        Format::Sarif => {
            let errors = shared.errors.lock().unwrap_or_else(|e| e.into_inner());
            let failed = shared.failed.load(Ordering::Relaxed);
            let head = serde_json::to_string_pretty(&sarif_head(&hits, failed, &errors))?;
            // The empty array the results go into: the head's last one.
            let at = head
                .rfind("\"results\": []")
                .map(|i| i + "\"results\": [".len())
                .context("SARIF head without its results")?;
            out.extend_from_slice(&head.as_bytes()[..at]);
            let empty = hits.is_empty();
            let mut first = true;
            for hit in hits {
                for result in sarif_results(&hit) {
                    out.extend_from_slice(if first { b"\n        " } else { b",\n        " });
                    first = false;
                    serde_json::to_writer(&mut out, &result)?;
                }
                emit(&mut out, false)?;
            }
            if !empty {
                out.extend_from_slice(b"\n      ");
            }
            out.extend_from_slice(&head.as_bytes()[at..]);
            out.push(b'\n');
        }
        Format::Json => {
            out.push(b'[');
            let empty = hits.is_empty();
            for (i, hit) in hits.into_iter().enumerate() {
                out.extend_from_slice(if i == 0 { b"\n" } else { b",\n" });
                write_json_hit(&hit, &mut out);
                emit(&mut out, false)?;
            }
            out.extend_from_slice(if empty { b"]\n" } else { b"\n]\n" });
        }
        format => {
            for hit in hits {
                write_hit(&hit, format, &mut out);
                emit(&mut out, false)?;
            }
        }
    }
    emit(&mut out, true)?;
    drop(stream);
    if args.summary {
        let summary = shared.summary.lock().unwrap_or_else(|e| e.into_inner());
        print_summary(&summary, shared.registry)?;
    }
    Ok(())
}

fn print_summary(summary: &Summary, registry: Option<&Registry>) -> io::Result<()> {
    let mut err = io::BufWriter::new(io::stderr().lock());
    writeln!(
        err,
        "{} URNs found, {} valid, {} invalid",
        summary.total(),
        summary.total() - summary.invalid(),
        summary.invalid()
    )?;
    writeln!(err, "by NID:")?;
    for (nid, n) in summary.by_nid(registry) {
        writeln!(err, "  {n:>10}  {nid}")?;
    }
    writeln!(err, "by error kind:")?;
    for (kind, n) in summary.by_error() {
        writeln!(err, "  {n:>10}  {kind}")?;
    }
    err.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser as _;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn hit(urn: &str) -> Hit {
        Hit {
            path: "f".into(),
            uri: "f".into(),
            transcoded: false,
            line: 1,
            column: 1,
            offset: 0,
            length: urn.len() as u64,
            end: (1, 1),
            text: urn.into(),
            urn: urn.into(),
            error: None,
            warnings: Vec::new(),
            check: Vec::new(),
            count: 1,
        }
    }

    /// UTF-16 without a byte-order mark is told only from text that reads
    /// as UTF-16 from end to end, mostly ASCII; never from text without a
    /// NUL byte, nor from a binary file's bytes.
    #[test]
    fn utf16_without_a_bom_is_told_only_from_text_that_reads_so() {
        let le = |text: &str| {
            text.encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect::<Vec<u8>>()
        };
        let be = |text: &str| {
            text.encode_utf16()
                .flat_map(u16::to_be_bytes)
                .collect::<Vec<u8>>()
        };
        let xml = "<?xml version=\"1.0\"?>\r\n<a>urn:a:b 書 😀</a>\n";
        assert_eq!(utf16_without_bom(&le(xml), true), Some(encoding_rs::UTF_16LE));
        assert_eq!(utf16_without_bom(&be(xml), true), Some(encoding_rs::UTF_16BE));
        // Cut by the end of what was read, inside a surrogate pair: a file
        // longer than that; the whole file would have it whole.
        let cut = le("urn:a:b 😀");
        assert_eq!(
            utf16_without_bom(&cut[..cut.len() - 2], false),
            Some(encoding_rs::UTF_16LE)
        );
        assert_eq!(utf16_without_bom(&cut[..cut.len() - 2], true), None);
        // Odd, when it is the whole file.
        assert_eq!(utf16_without_bom(&le(xml)[1..], true), None);
        for bytes in [
            // No NUL: 8-bit text, read as bytes.
            &b"urn:a:b caf\xe9 and more"[..],
            // A U+0000, a control character, an unpaired surrogate.
            &le("urn:a:b\0x")[..],
            &le("urn:a:b\x01x")[..],
            &[b'a', 0, 0x00, 0xDC, b'b', 0][..],
            // Mostly not ASCII.
            &le("書書書書書書書書 urn")[..],
            b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00",
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        ] {
            assert_eq!(utf16_without_bom(bytes, true), None, "{bytes:?}");
        }
    }

    /// `--unique` counts each distinct URN once against the limit; past
    /// it nothing more is held and the scan stops (bounded memory).
    #[test]
    fn results_held_to_the_end_stop_at_their_limit() {
        let args = Cli::parse_from(["scan", "--unique"]).args;
        let one = hit("urn:example:0").footprint();
        let shared = Shared {
            args: &args,
            registry: None,
            nids: Vec::new(),
            skipped_nids: Vec::new(),
            stream: Mutex::new(Box::new(io::sink())),
            kept: Mutex::new(Vec::new()),
            unique: Mutex::new(HashMap::new()),
            kept_bytes: AtomicUsize::new(0),
            kept_limit: 10 * one,
            summary: Mutex::new(Summary::default()),
            output: None,
            invalid: AtomicBool::new(false),
            failed: AtomicBool::new(false),
            errors: Mutex::new(Vec::new()),
            closed: AtomicBool::new(false),
            reader_left: AtomicBool::new(false),
            over_budget: AtomicBool::new(false),
        };
        // The same URN a hundred times takes one entry.
        let mut hits: Vec<Hit> = (0..100).map(|_| hit("urn:example:0")).collect();
        keep(&shared, &mut hits);
        assert!(hits.is_empty());
        assert_eq!(shared.unique.lock().unwrap()["urn:example:0"].count, 100);
        assert!(!shared.over_budget.load(Ordering::Relaxed));
        let mut hits: Vec<Hit> = (1..20).map(|i| hit(&format!("urn:example:{i}"))).collect();
        keep(&shared, &mut hits);
        assert!(shared.over_budget.load(Ordering::Relaxed));
        assert!(shared.failed.load(Ordering::Relaxed) && shared.closed.load(Ordering::Relaxed));
        let held = shared.unique.lock().unwrap().len();
        let mut more = vec![hit("urn:example:99")];
        keep(&shared, &mut more);
        assert!(more.is_empty());
        assert_eq!(shared.unique.lock().unwrap().len(), held, "nothing more is held");
    }

    /// Once the scan stops (the limit passed, the output closed), the file
    /// it is in is read no further: the scanner sees its end.
    #[test]
    fn a_stopped_scan_reads_no_more_of_its_file() {
        let stopped = AtomicBool::new(false);
        let data = vec![b'a'; 3 * 8192];
        let mut reader = UntilStopped {
            inner: &data[..],
            stopped: &stopped,
        };
        let mut buf = [0; 8192];
        assert_eq!(reader.read(&mut buf).unwrap(), 8192);
        stopped.store(true, Ordering::Relaxed);
        assert_eq!(reader.read(&mut buf).unwrap(), 0);
        // Through the scanner: a text of many URNs, stopped after the first.
        let text = "urn:example:a\n".repeat(100_000);
        let stopped = AtomicBool::new(false);
        let mut found = 0;
        Scanner::new()
            .scan(
                UntilStopped {
                    inner: text.as_bytes(),
                    stopped: &stopped,
                },
                |_| {
                    found += 1;
                    stopped.store(true, Ordering::Relaxed);
                },
            )
            .unwrap();
        assert!(found < 100_000, "read to its end: {found}");
    }
}
