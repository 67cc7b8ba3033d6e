//! How output reaches people: colours (`--color`, `NO_COLOR`), text made
//! safe for a terminal, standard output that names itself in its errors,
//! and the one place errors are printed.

use std::borrow::Cow;
use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufWriter, Write};
use std::sync::OnceLock;

use anstyle::{AnsiColor, Style};

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Color {
    /// Colour on a terminal, unless NO_COLOR is set (or TERM=dumb).
    Auto,
    /// Always colour, even in a pipe.
    Always,
    /// Never colour.
    Never,
}

impl Color {
    /// The `--color` among raw arguments (before clap has parsed them, so
    /// that clap's own help and errors follow it); `Auto` when absent or
    /// not one of the three words (clap then reports the mistake).
    pub fn from_args(args: impl IntoIterator<Item = OsString>) -> Color {
        let mut found = Color::Auto;
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let value = if arg == "--" {
                break;
            } else if arg == "--color" {
                args.next()
            } else if let Some(v) = arg.to_str().and_then(|a| a.strip_prefix("--color=")) {
                Some(v.into())
            } else {
                continue;
            };
            found = match value.as_ref().and_then(|v| v.to_str()) {
                Some("always") => Color::Always,
                Some("never") => Color::Never,
                _ => Color::Auto,
            };
        }
        found
    }

    /// Makes this the choice for everything printed from now on (ours and
    /// clap's).
    pub fn apply(self) {
        anstream::ColorChoice::write_global(match self {
            Color::Auto => anstream::ColorChoice::Auto,
            Color::Always => anstream::ColorChoice::Always,
            Color::Never => anstream::ColorChoice::Never,
        });
    }
}

/// The styles of what is coloured. With colour off every style is empty,
/// so writers never need to ask.
#[derive(Clone, Copy, Debug, Default)]
pub struct Palette {
    /// `error`, and the verdicts `invalid`, `refused`, `not equivalent`.
    pub error: Style,
    /// `warning`.
    pub warning: Style,
    /// The verdicts `valid`, `ok`, `equivalent`.
    pub good: Style,
    /// Locations and field names, de-emphasised.
    pub dim: Style,
}

impl Palette {
    fn coloured() -> Palette {
        Palette {
            error: Style::new().bold().fg_color(Some(AnsiColor::Red.into())),
            warning: Style::new().bold().fg_color(Some(AnsiColor::Yellow.into())),
            good: Style::new().bold().fg_color(Some(AnsiColor::Green.into())),
            dim: Style::new().bold(),
        }
    }

    /// The palette for standard output.
    pub fn stdout() -> Palette {
        static CHOICE: OnceLock<Palette> = OnceLock::new();
        *CHOICE.get_or_init(|| Self::for_stream(&io::stdout()))
    }

    /// The palette for standard error.
    pub fn stderr() -> Palette {
        static CHOICE: OnceLock<Palette> = OnceLock::new();
        *CHOICE.get_or_init(|| Self::for_stream(&io::stderr()))
    }

    fn for_stream<S: anstream::stream::RawStream>(stream: &S) -> Palette {
        match anstream::AutoStream::choice(stream) {
            anstream::ColorChoice::Never => Palette::default(),
            _ => Palette::coloured(),
        }
    }
}

/// `text` in `style` (nothing added when the style is empty).
pub fn paint<T: fmt::Display>(style: Style, text: T) -> impl fmt::Display {
    struct Painted<T>(Style, T);
    impl<T: fmt::Display> fmt::Display for Painted<T> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            // Without colour (the usual case in a pipe, where `check`
            // writes millions of lines), the text alone.
            if self.0 == Style::new() {
                return self.1.fmt(f);
            }
            write!(f, "{}{}{}", self.0.render(), self.1, self.0.render_reset())
        }
    }
    Painted(style, text)
}

/// Returns true if and only if `c` must not reach a terminal as it is:
/// control characters (C0 but line feed and tab, DEL, C1), which can move
/// the cursor, retitle the window or hide text, and the format characters
/// of [`is_hidden_format`].
fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_hidden_format(c)
}

/// Returns true if and only if `c` is a format character that changes
/// what is shown without being seen: the bidirectional embeddings,
/// overrides and isolates (U+202A to U+202E, U+2066 to U+2069) and marks
/// (U+061C, U+200E, U+200F) that reorder text ("Trojan Source",
/// CVE-2021-42574), and the invisible ones that hide a character or
/// break a line in some viewers: U+200B (zero width space), U+2028 and
/// U+2029 (line and paragraph separators), U+FEFF (byte order mark).
/// The joiners U+200C and U+200D are left as they are: scripts and emoji
/// need them.
pub fn is_hidden_format(c: char) -> bool {
    matches!(
        c,
        '\u{061c}'
            | '\u{200b}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
    )
}

/// `c` as an escape: `\x1b` below U+0100, else `\u{202e}`.
pub fn escape(c: char) -> String {
    if (c as u32) < 0x100 {
        format!("\\x{:02x}", c as u32)
    } else {
        format!("\\u{{{:x}}}", c as u32)
    }
}

/// `text` safe to print: each unsafe character (see [`is_unsafe`]) is
/// written as an escape, `\x1b` for ESC, `\u{202e}` for the others.
/// Borrowed when there is nothing to escape.
pub fn printable(text: &str) -> Cow<'_, str> {
    // Printable ASCII, tabs and line feeds (nearly every text) are safe:
    // a byte test, before looking at characters.
    if all_plain(text.as_bytes()) || !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            out.push_str(&escape(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` safe to print within one line: as [`printable`], and a line
/// feed written as `\x0a` too, all in one pass: the escaping of every
/// argument a message quotes (a NID, a path, a service name), and of what
/// a line of a report is built of (a file name in `FILE:LINE:COL:`),
/// which must not start a line of its own:
/// a file named `a\nfake.txt:9:9: invalid ...` would forge a finding.
pub fn printable_line(text: &str) -> Cow<'_, str> {
    // Printable ASCII (nearly every message): one pass, eight bytes at a
    // time (it runs on every message `normalize` writes).
    if printable_ascii(text.as_bytes()) {
        return Cow::Borrowed(text);
    }
    if !text.contains('\n') {
        return printable(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c == '\n' || is_unsafe(c) {
            out.push_str(&escape(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Returns true if and only if every byte is printable ASCII, a tab or a
/// line feed (it runs on every message `normalize` writes).
fn all_plain(bytes: &[u8]) -> bool {
    let plain = |b: u8| b.wrapping_sub(0x20) < 0x5f || b == b'\n' || b == b'\t';
    // Printable ASCII eight bytes at a time; a word with a tab or a line
    // feed is looked at byte by byte.
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let word: [u8; 8] = word.try_into().unwrap_or_default();
        if !printable_word(u64::from_le_bytes(word)) && !word.iter().all(|&b| plain(b)) {
            return false;
        }
    }
    words.remainder().iter().all(|&b| plain(b))
}

/// Returns true if and only if every byte of `bytes` is printable ASCII
/// (0x20 to 0x7E), eight at a time.
pub fn printable_ascii(bytes: &[u8]) -> bool {
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let word: [u8; 8] = word.try_into().unwrap_or_default();
        if !printable_word(u64::from_le_bytes(word)) {
            return false;
        }
    }
    words.remainder().iter().all(|b| (0x20..0x7f).contains(b))
}

/// Whether each byte of `word` is in 0x20..=0x7E: none has its high bit,
/// none is below 0x20, none is 0x7F (the usual tests for a byte below a
/// value and for a zero byte, on all eight at once).
fn printable_word(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGH;
    let del = word ^ (ONES * 0x7f);
    let is_del = del.wrapping_sub(ONES) & !del & HIGH;
    word & HIGH == 0 && below_space == 0 && is_del == 0
}

/// What an error writing to standard output says first.
pub const STDOUT: &str = "writing to standard output";

/// An I/O error of standard output, saying so.
#[derive(Debug)]
struct StdoutError(io::Error);

impl fmt::Display for StdoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(STDOUT)
    }
}

impl std::error::Error for StdoutError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

/// Standard output, buffered; its errors keep their kind (a closed pipe
/// stays `BrokenPipe`) and read "writing to standard output", caused by
/// what the system said ("No space left on device"). Call
/// [`Stdout::finish`] at the end: an error in the last flush is not lost.
pub struct Stdout {
    inner: BufWriter<io::StdoutLock<'static>>,
}

/// Standard output for a command's results.
pub fn stdout() -> Stdout {
    Stdout {
        inner: BufWriter::with_capacity(32 * 1024, io::stdout().lock()),
    }
}

fn tag(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), StdoutError(e))
}

impl Stdout {
    /// Flushes what is buffered.
    ///
    /// # Errors
    ///
    /// The write error, as "writing to standard output".
    pub fn finish(mut self) -> io::Result<()> {
        self.flush()
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(tag)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf).map_err(tag)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(tag)
    }
}

/// Returns true if and only if `err` comes from a closed pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// The command's arguments that hold a line feed, as an error may quote
/// them: whole, and the value of `--option=value`.
fn arguments_with_line_feeds() -> &'static [String] {
    static ARGS: OnceLock<Vec<String>> = OnceLock::new();
    ARGS.get_or_init(|| line_feed_pieces(std::env::args_os().skip(1)))
}

fn line_feed_pieces(args: impl IntoIterator<Item = OsString>) -> Vec<String> {
    let mut pieces = Vec::new();
    for arg in args {
        let arg = arg.to_string_lossy();
        if !arg.contains('\n') {
            continue;
        }
        let value = arg
            .strip_prefix('-')
            .and_then(|a| a.split_once('='))
            .map(|(_, v)| v);
        if let Some(value) = value.filter(|v| v.contains('\n')) {
            pieces.push(value.to_string());
        }
        pieces.push(arg.into_owned());
    }
    // As a message quotes one already escaped by `printable` (its other
    // control characters written `\x1b`, its line feeds left): found so too.
    let escaped: Vec<String> = pieces
        .iter()
        .filter_map(|piece| match printable(piece) {
            Cow::Owned(escaped) => Some(escaped),
            Cow::Borrowed(_) => None,
        })
        .collect();
    pieces.extend(escaped);
    pieces
}

/// `message` made printable (as [`printable`]), and each line feed that
/// comes from one of `arguments` written as `\x0a` (as
/// [`printable_line`]): a NID or path quoted in a refusal must not start a
/// line of its own (`x\nerror: forged` would forge one), while the line
/// breaks of our own multi-line messages stay. A line feed comes from an
/// argument when it lies within the argument quoted whole, or when what
/// follows it begins as what follows a line feed in the argument (a part
/// of it quoted: an item of a list, a file within a directory).
pub fn printable_quoting(message: &str, arguments: &[String]) -> String {
    let mut from_argument = vec![false; message.len()];
    let mut starts = std::collections::HashSet::new();
    for arg in arguments {
        for (at, _) in message.match_indices(arg.as_str()) {
            for (i, _) in arg.match_indices('\n') {
                from_argument[at + i] = true;
            }
        }
        // How each of its lines after a line feed begins (a set: an
        // argument of many lines is looked up once per line feed of the
        // message, not searched once per line).
        starts.extend(
            arg.split('\n')
                .skip(1)
                .map(|line| line.chars().take(4).collect::<String>())
                .filter(|start| !start.is_empty()),
        );
    }
    for (at, _) in message.match_indices('\n') {
        let after = &message[at + 1..];
        let begins = after
            .char_indices()
            .take(4)
            .map(|(i, c)| &after[..i + c.len_utf8()])
            .any(|start| starts.contains(start));
        if begins {
            from_argument[at] = true;
        }
    }
    let mut out = String::with_capacity(message.len() + 8);
    for (at, c) in message.char_indices() {
        if (c == '\n' && from_argument[at]) || is_unsafe(c) {
            out.push_str(&escape(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// Prints an error and each of its causes, made printable (the line feeds
/// of quoted arguments too: [`printable_quoting`]).
pub fn print_error(err: &anyhow::Error) {
    let p = Palette::stderr();
    let args = arguments_with_line_feeds();
    let shown = |text: &str| -> String {
        if args.is_empty() {
            printable(text).into_owned()
        } else {
            printable_quoting(text, args)
        }
    };
    let mut stderr = io::stderr().lock();
    let _ = writeln!(stderr, "{}: {}", paint(p.error, "error"), shown(&err.to_string()));
    let mut last = err.to_string();
    for cause in err.chain().skip(1) {
        // An io::Error wrapping ours repeats its message: say it once.
        let text = cause.to_string();
        if text != last {
            let _ = writeln!(stderr, "  caused by: {}", shown(&text));
        }
        last = text;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time tests say what a byte-by-byte test says, for
    /// every byte value at every place of a word and in the tail.
    #[test]
    fn printable_tests_agree_with_bytes() {
        for b in 0..=255u8 {
            for at in 0..11 {
                let mut text = vec![b'a'; 11];
                text[at] = b;
                let printable = (0x20..0x7f).contains(&b);
                assert_eq!(printable_ascii(&text), printable, "{b:#x} at {at}");
                let plain = printable || b == b'\n' || b == b'\t';
                assert_eq!(all_plain(&text), plain, "{b:#x} at {at}");
            }
        }
    }

    #[test]
    fn printable_escapes_what_a_terminal_would_obey() {
        assert!(matches!(printable("plain\ttext\nmore"), Cow::Borrowed(_)));
        assert_eq!(printable("a\u{1b}[31mb"), "a\\x1b[31mb");
        assert_eq!(printable("nul\0"), "nul\\x00");
        assert_eq!(printable("del\u{7f} csi\u{9b}"), "del\\x7f csi\\x9b");
        assert_eq!(printable("cr\r"), "cr\\x0d");
        assert_eq!(printable("abc\u{202e}def"), "abc\\u{202e}def");
        // Marks and invisible characters too (found in hostile testing: U+061C,
        // U+2028 and U+FEFF reached `status` and `queue` as they were).
        for c in [
            '\u{061c}', '\u{200b}', '\u{200f}', '\u{2028}', '\u{2029}', '\u{feff}',
        ] {
            let text = format!("a{c}b");
            assert_eq!(printable(&text), format!("a\\u{{{:x}}}b", c as u32));
            assert_eq!(printable_line(&text), format!("a\\u{{{:x}}}b", c as u32));
        }
        assert_eq!(printable("a\u{200d}b"), "a\u{200d}b", "joiners stay");
        assert_eq!(printable("café ✓"), "café ✓");
        // Past the 32-byte blocks of the fast test, and in its tail.
        let long = "x".repeat(70);
        assert!(matches!(printable(&long), Cow::Borrowed(_)));
        for at in [0, 31, 32, 63, 64, 69] {
            let mut bad = long.clone().into_bytes();
            bad[at] = 0x1b;
            let bad = String::from_utf8(bad).unwrap();
            assert!(printable(&bad).contains("\\x1b"), "ESC at {at}");
        }
    }

    /// A line feed of a quoted argument is escaped, whole or in part;
    /// the line breaks of the message itself stay.
    #[test]
    fn line_feeds_of_quoted_arguments_are_escaped() {
        let args =
            line_feed_pieces(["ns", "x\nerror: forged", "--nid=a,b\nerror: c", "plain"].map(OsString::from));
        assert_eq!(args, ["x\nerror: forged", "a,b\nerror: c", "--nid=a,b\nerror: c"]);
        assert_eq!(
            printable_quoting(
                "'x\nerror: forged' is neither registered\n  try: urnreg ns list",
                &args
            ),
            "'x\\x0aerror: forged' is neither registered\n  try: urnreg ns list"
        );
        // Part of an argument: an item of a list.
        assert_eq!(
            printable_quoting("unknown NID 'b\nerror: c'\nsecond line", &args),
            "unknown NID 'b\\x0aerror: c'\nsecond line"
        );
        assert_eq!(
            printable_quoting("esc \u{1b} stays escaped", &args),
            "esc \\x1b stays escaped"
        );
        // Nothing quoted: the message as it is.
        assert_eq!(printable_quoting("one\ntwo", &args), "one\ntwo");
    }

    #[test]
    fn color_is_read_before_clap() {
        let args = |a: &[&str]| a.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(Color::from_args(args(&["urnreg", "check"])), Color::Auto);
        assert_eq!(
            Color::from_args(args(&["urnreg", "check", "--color", "never"])),
            Color::Never
        );
        assert_eq!(
            Color::from_args(args(&["urnreg", "--color=always", "ns", "list"])),
            Color::Always
        );
        assert_eq!(
            Color::from_args(args(&["urnreg", "check", "--", "--color=always"])),
            Color::Auto,
            "after -- it is an operand"
        );
        assert_eq!(
            Color::from_args(args(&["urnreg", "--color", "bogus"])),
            Color::Auto
        );
    }

    #[test]
    fn stdout_errors_name_standard_output_and_keep_their_kind() {
        let e = tag(io::Error::from_raw_os_error(28));
        assert_eq!(e.to_string(), STDOUT);
        let cause = std::error::Error::source(&e).map(ToString::to_string);
        assert!(cause.is_some_and(|c| c.contains("No space left")));
        let e = tag(io::Error::from(io::ErrorKind::BrokenPipe));
        assert!(is_broken_pipe(&anyhow::Error::new(e)));
    }

    #[test]
    fn empty_styles_add_nothing() {
        assert_eq!(paint(Palette::default().error, "x").to_string(), "x");
        assert_eq!(
            paint(Palette::coloured().error, "x").to_string(),
            "\u{1b}[1m\u{1b}[31mx\u{1b}[0m"
        );
    }
}
