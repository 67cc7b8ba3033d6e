//! Parse errors and non-fatal findings (warnings), both with byte offsets.

use std::fmt;

/// The part of a URN a finding is about (RFC 8141 section 2 rule names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Component {
    /// The `urn` scheme and its `:`.
    Scheme,
    /// The namespace identifier, `NID`.
    Nid,
    /// The namespace specific string, `NSS`.
    Nss,
    /// The `r-component` (after `?+`).
    RComponent,
    /// The `q-component` (after `?=`).
    QComponent,
    /// The `f-component` (after `#`).
    FComponent,
}

impl Component {
    /// The ABNF rule name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Component::Scheme => "scheme",
            Component::Nid => "NID",
            Component::Nss => "NSS",
            Component::RComponent => "r-component",
            Component::QComponent => "q-component",
            Component::FComponent => "f-component",
        }
    }
}

/// What went wrong in a parse. Matched by callers; [`ParseErrorKind::code`]
/// gives a stable kebab-case name for machine-readable output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input does not start with `urn:` (any case).
    MissingScheme,
    /// The NID is shorter than 2 (RFC 2141: 1) or longer than 32 characters.
    NidLength,
    /// The NID starts or ends with `-`.
    NidHyphen,
    /// A byte that cannot appear in a NID (before its closing `:`).
    NidChar {
        /// The byte found.
        found: u8,
    },
    /// The input ends after the NID: no `:` and NSS follow.
    MissingColon,
    /// A NID starting with `urn-` that is not `urn-` + a positive number
    /// without leading zeros (RFC 8141 section 5.2).
    InformalNid,
    /// The NID `urn` under RFC 2141 (section 2: reserved).
    ReservedNid,
    /// The NSS is empty.
    EmptyNss,
    /// The r- or q-component after `?+` / `?=` is empty.
    EmptyComponent,
    /// A byte not allowed at this place of this component.
    InvalidChar {
        /// The byte found.
        found: u8,
    },
    /// A byte outside ASCII; RFC 8141 section 2 requires UTF-8 then
    /// percent-encoding.
    NonAscii {
        /// The first byte found.
        found: u8,
    },
    /// A `%` not followed by two hex digits (RFC 3986 `pct-encoded`).
    BadPercent,
    /// A `?` in the NSS not starting `?+` or `?=` (RFC 8141 section 2).
    StrayQuestionMark {
        /// Whether `name=` follows it, as in a URI's query (a NETCONF
        /// capability's `?module=...`).
        query: bool,
    },
    /// Under RFC 2141, `/`, `?` or `#` unencoded (RFC 2141 section 2.3.2).
    ReservedChar {
        /// The byte found.
        found: u8,
    },
    /// The input is longer than a URN can be here (4 GiB).
    TooLong,
}

impl ParseErrorKind {
    /// A stable, kebab-case name of the kind (used as `kind` in JSON).
    pub fn code(&self) -> &'static str {
        match self {
            ParseErrorKind::MissingScheme => "missing-scheme",
            ParseErrorKind::NidLength => "nid-length",
            ParseErrorKind::NidHyphen => "nid-hyphen",
            ParseErrorKind::NidChar { .. } => "nid-char",
            ParseErrorKind::MissingColon => "missing-colon",
            ParseErrorKind::InformalNid => "informal-nid",
            ParseErrorKind::ReservedNid => "reserved-nid",
            ParseErrorKind::EmptyNss => "empty-nss",
            ParseErrorKind::EmptyComponent => "empty-component",
            ParseErrorKind::InvalidChar { .. } => "invalid-char",
            ParseErrorKind::NonAscii { .. } => "non-ascii",
            ParseErrorKind::BadPercent => "bad-percent",
            ParseErrorKind::StrayQuestionMark { .. } => "stray-question-mark",
            ParseErrorKind::ReservedChar { .. } => "reserved-char",
            ParseErrorKind::TooLong => "too-long",
        }
    }
}

impl ParseErrorKind {
    /// For a NID that fails with this kind ([`crate::check_nid`]): what a
    /// NID must be, and the rule that says so. `urn-` followed by anything
    /// but a positive number without leading zeros breaks the informal
    /// form (RFC 8141 section 5.2), not the NID grammar of section 2.
    pub fn nid_rule(&self) -> (&'static str, &'static str) {
        match self {
            ParseErrorKind::InformalNid => (
                "an informal NID is 'urn-' and a positive number without leading zeros",
                "RFC 8141 section 5.2",
            ),
            ParseErrorKind::ReservedNid => ("the NID 'urn' is reserved", "RFC 2141 section 2"),
            _ => (
                "expected 2 to 32 letters, digits or inner hyphens",
                "RFC 8141 section 2",
            ),
        }
    }
}

/// A URN that failed to parse: what was expected, and at which byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    kind: ParseErrorKind,
    component: Component,
    offset: usize,
    /// Found under RFC 2141's syntax (its message states and cites that
    /// syntax's rules, not RFC 8141's).
    rfc2141: bool,
    /// An `InvalidChar` at the first byte of the NSS, r- or q-component,
    /// which must be pchar (RFC 8141 section 2): `/` and `?` may follow,
    /// not start.
    first_of_component: bool,
    /// A `MissingScheme` in an input that starts with white space.
    leading_space: bool,
}

impl ParseError {
    pub(crate) fn new(kind: ParseErrorKind, component: Component, offset: usize) -> Self {
        ParseError {
            kind,
            component,
            offset,
            rfc2141: false,
            first_of_component: false,
            leading_space: false,
        }
    }

    /// The same error, at the first byte of its component.
    pub(crate) fn at_component_start(self) -> Self {
        ParseError {
            first_of_component: true,
            ..self
        }
    }

    /// The same error, in an input that starts with white space.
    pub(crate) fn after_leading_space(self) -> Self {
        ParseError {
            leading_space: true,
            ..self
        }
    }

    /// The same error, found under RFC 2141's syntax.
    pub(crate) fn in_rfc2141(self) -> Self {
        ParseError {
            rfc2141: true,
            ..self
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> ParseErrorKind {
        self.kind
    }

    /// The component being parsed when it went wrong.
    pub fn component(&self) -> Component {
        self.component
    }

    /// The 0-based byte offset in the input where it went wrong.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Builds the same error shifted by `by` bytes (for errors found in a
    /// slice of a larger text).
    pub fn shifted(&self, by: usize) -> Self {
        ParseError {
            offset: self.offset + by,
            ..self.clone()
        }
    }
}

/// The most characters of input text a message quotes.
pub(crate) const MAX_QUOTED: usize = 24;

/// Input text as a message quotes it: at most [`MAX_QUOTED`] characters,
/// then `…` when there is more (a finding's message stays short whatever
/// the input). Written where it goes.
pub(crate) fn shortened(text: &str) -> Shortened<'_> {
    Shortened(text)
}

/// Text as a message quotes it ([`shortened`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shortened<'a>(&'a str);

impl fmt::Display for Shortened<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(MAX_QUOTED) {
            Some((cut, _)) => {
                f.write_str(&self.0[..cut])?;
                f.write_str("…")
            }
            None => f.write_str(self.0),
        }
    }
}

/// Describes a byte for a message: `'x'` ([`quoted_char`]), `' ' (space)`,
/// or `byte 0x1f` for the other invisible ones. Written where it goes (no
/// `String`: a stream of invalid lines formats one per line).
pub(crate) fn describe_byte(byte: u8) -> DescribedByte {
    DescribedByte(byte)
}

/// The apostrophe as every message quotes it: `'''` reads as a typo.
pub(crate) const QUOTED_APOSTROPHE: &str = "\"'\"";

/// A printable character in quotes, as every message quotes one (the
/// parser's and the namespace rules' alike): `'x'`, and the apostrophe as
/// [`QUOTED_APOSTROPHE`].
pub(crate) fn quoted_char(c: char) -> String {
    quoted(c.encode_utf8(&mut [0; 4]))
}

/// Text in quotes for a message: `'std:'`, or in double quotes when it
/// holds an apostrophe (`"'"`, `"O'Reilly"`).
pub(crate) fn quoted(text: &str) -> String {
    if text.contains('\'') {
        format!("\"{text}\"")
    } else {
        format!("'{text}'")
    }
}

/// A byte as a message shows it ([`describe_byte`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct DescribedByte(u8);

impl fmt::Display for DescribedByte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = ToFormatter { f, result: Ok(()) };
        out.byte(self.0);
        out.result
    }
}

/// What a component takes, and the rule that says so.
fn expected_in(component: Component) -> &'static str {
    match component {
        Component::Scheme => "'urn:' (RFC 8141 section 2)",
        Component::Nid => "a letter, digit or '-', or ':' after the NID (RFC 8141 section 2)",
        Component::Nss => "pchar, '/', '%HH', '?+', '?=' or '#' (RFC 8141 section 2)",
        Component::RComponent => "pchar, '/', '?', '%HH', '?=' or '#' (RFC 8141 section 2)",
        Component::QComponent => "pchar, '/', '?', '%HH' or '#' (RFC 8141 section 2)",
        Component::FComponent => "pchar, '/', '?' or '%HH' (RFC 8141 section 2)",
    }
}

/// Where the pieces of a message go: text, and numbers written without
/// `fmt` (a stream of invalid lines writes one message per line: written
/// piece by piece, a parse error's message costs a sixth of formatting it).
pub(crate) trait MessageOut {
    /// Appends `s`.
    fn text(&mut self, s: &str);

    /// Appends the decimal digits of `n`.
    fn number(&mut self, n: usize) {
        self.text(itoa::Buffer::new().format(n));
    }

    /// Appends `byte` as [`describe_byte`] shows it.
    fn byte(&mut self, byte: u8) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        if byte == b'\'' {
            // As [`quoted_char`] has it.
            self.text(QUOTED_APOSTROPHE);
        } else if byte.is_ascii_graphic() {
            let quoted = [b'\'', byte, b'\''];
            // Three ASCII bytes: always UTF-8.
            self.text(std::str::from_utf8(&quoted).unwrap_or("'?'"));
        } else if byte == b' ' {
            self.text("' ' (space)");
        } else {
            let hex = [HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 15)]];
            self.text("byte 0x");
            self.text(std::str::from_utf8(&hex).unwrap_or("??"));
        }
    }
}

impl MessageOut for String {
    fn text(&mut self, s: &str) {
        self.push_str(s);
    }
}

/// A message's pieces written to a formatter, the first error kept.
struct ToFormatter<'f, 'a> {
    f: &'f mut fmt::Formatter<'a>,
    result: fmt::Result,
}

impl MessageOut for ToFormatter<'_, '_> {
    fn text(&mut self, s: &str) {
        if self.result.is_ok() {
            self.result = self.f.write_str(s);
        }
    }
}

impl ParseError {
    /// Ends a message with the rule's citation: RFC 2141's section under
    /// its grammar, else RFC 8141's.
    fn cite(&self, out: &mut impl MessageOut, rfc2141: &str, rfc8141: &str) {
        let (rfc, section) = if self.rfc2141 {
            ("2141", rfc2141)
        } else {
            ("8141", rfc8141)
        };
        out.text(" (RFC ");
        out.text(rfc);
        out.text(" section ");
        out.text(section);
        out.text(")");
    }

    /// Writes the message (what `Display` shows) to `out`, piece by piece.
    pub(crate) fn write_message(&self, out: &mut impl MessageOut) {
        let at = self.offset;
        let comp = self.component.name();
        match self.kind {
            ParseErrorKind::MissingScheme => {
                out.text("expected the scheme 'urn:' at byte ");
                out.number(at);
                out.text(if self.leading_space {
                    ": leading white space; a URN starts with 'urn:' (RFC 8141 section 2)"
                } else {
                    ": a URN starts with 'urn:' (RFC 8141 section 2)"
                });
            }
            // RFC 2141 section 2: NID = let-num [ 1*31let-num-hyp ] (one
            // to 32 characters, a hyphen may end it); RFC 8141 section 2:
            // NID = alphanum 0*30ldh alphanum.
            ParseErrorKind::NidLength if self.rfc2141 => {
                out.text("expected a NID of 1 to 32 letters, digits or hyphens at byte ");
                out.number(at);
                out.text(" (RFC 2141 section 2)");
            }
            ParseErrorKind::NidLength => {
                out.text("expected a NID of 2 to 32 letters, digits or hyphens at byte ");
                out.number(at);
                out.text(" (RFC 8141 section 2)");
            }
            ParseErrorKind::NidHyphen if self.rfc2141 => {
                out.text("expected a letter or digit at byte ");
                out.number(at);
                out.text(": a NID must not start with '-' (RFC 2141 section 2)");
            }
            ParseErrorKind::NidHyphen => {
                out.text("expected a letter or digit at byte ");
                out.number(at);
                out.text(": a NID must not start or end with '-' (RFC 8141 section 2)");
            }
            ParseErrorKind::NidChar { found } => {
                unexpected_at(out, "", found, Component::Nid.name(), at);
                out.text(": expected a letter, digit or '-', or ':' after the NID");
                self.cite(out, "2", "2");
            }
            ParseErrorKind::MissingColon => {
                out.text("expected ':' after NID at byte ");
                out.number(at);
                self.cite(out, "2", "2");
            }
            ParseErrorKind::InformalNid => {
                out.text("expected a positive number without leading zeros after 'urn-' at byte ");
                out.number(at);
                out.text(" (RFC 8141 section 5.2)");
            }
            ParseErrorKind::ReservedNid => {
                out.text("the NID 'urn' at byte ");
                out.number(at);
                out.text(" is reserved (RFC 2141 section 2)");
            }
            ParseErrorKind::EmptyNss => {
                out.text("expected NSS at byte ");
                out.number(at);
                self.cite(out, "2", "2");
            }
            ParseErrorKind::EmptyComponent => {
                out.text("expected a non-empty ");
                out.text(comp);
                out.text(" starting with pchar at byte ");
                out.number(at);
                out.text(" (RFC 8141 section 2)");
            }
            // RFC 8141 section 2: NSS = pchar *(pchar / "/"), r-component
            // and q-component = pchar *( pchar / "/" / "?" ).
            ParseErrorKind::InvalidChar { found } if self.first_of_component => {
                unexpected_at(out, "", found, comp, at);
                out.text(if self.component == Component::Nss {
                    ": an "
                } else {
                    ": the "
                });
                out.text(comp);
                out.text(" starts with pchar or '%HH'");
                if matches!(found, b'/' | b'?') {
                    out.text(", not ");
                    out.byte(found);
                }
                out.text(" (RFC 8141 section 2)");
            }
            // RFC 3986 section 3.5: a fragment holds no '#'; a second one
            // (Peppol's `...#compliant#urn:...`) is data, written %23.
            ParseErrorKind::InvalidChar { found: b'#' }
                if self.component == Component::FComponent && !self.rfc2141 =>
            {
                unexpected_at(out, "", b'#', comp, at);
                out.text(": the f-component follows the only '#': write a second one as %23 (RFC 8141 section 2, RFC 3986 section 3.5)");
            }
            ParseErrorKind::InvalidChar { found } => {
                unexpected_at(out, "", found, comp, at);
                out.text(": expected ");
                out.text(if self.rfc2141 {
                    // RFC 2141 section 2.2: <trans> and "%" <hex> <hex>.
                    "a letter, a digit, one of ( ) + , - . : = @ ; $ _ ! * ' or '%HH' (RFC 2141 section 2.2)"
                } else {
                    expected_in(self.component)
                });
            }
            // A NID is ASCII letters, digits and '-': no escape makes a
            // NID of other characters (RFC 8141 section 2, RFC 2141
            // section 2); elsewhere UTF-8 is percent-encoded.
            ParseErrorKind::NonAscii { found } if self.component == Component::Nid => {
                unexpected_at(out, "non-ASCII ", found, comp, at);
                out.text(": a NID is ASCII letters, digits and '-' only, never percent-encoded");
                self.cite(out, "2", "2");
            }
            ParseErrorKind::NonAscii { found } => {
                unexpected_at(out, "non-ASCII ", found, comp, at);
                out.text(": expected UTF-8 percent-encoded as %HH");
                self.cite(out, "2.4", "2");
            }
            ParseErrorKind::BadPercent => {
                out.text("expected two hex digits after '%' at byte ");
                out.number(at);
                out.text(" (RFC 3986 section 2.1)");
            }
            ParseErrorKind::StrayQuestionMark { query: false } => {
                out.text("unexpected '?' in NSS at byte ");
                out.number(at);
                out.text(": expected '?+' (r-component) or '?=' (q-component) (RFC 8141 section 2)");
            }
            // RFC 8141 section 2 took the URI query out of the URN: a
            // q-component is '?=' and its own name=value list.
            ParseErrorKind::StrayQuestionMark { query: true } => {
                out.text("unexpected '?' in NSS at byte ");
                out.number(at);
                out.text(": '?name=value' is a URI query: the URN ends before '?' (a q-component starts '?=', RFC 8141 section 2)");
            }
            // RFC 2141 section 2.3.2 reserves them and says namespaces
            // SHOULD NOT use them unencoded; the 2012 URN draft's ABNF of
            // RFC 2141's NSS (Appendix C) leaves them out, as urnreg does.
            ParseErrorKind::ReservedChar { found } => {
                out.text("unexpected reserved ");
                out.byte(found);
                out.text(" at byte ");
                out.number(at);
                out.text(": RFC 2141 reserves '/', '?' and '#' for future use, not to be used unencoded (section 2.3.2); write ");
                out.text(match found {
                    b'/' => "%2F",
                    b'?' => "%3F",
                    _ => "%23",
                });
            }
            ParseErrorKind::TooLong => {
                out.text("input too long at byte ");
                out.number(at);
                out.text(" (urnreg's limit: 4 GiB)");
            }
        }
    }
}

/// "unexpected {what}{byte} in {component} at byte {at}": how a message
/// about one byte starts.
fn unexpected_at(out: &mut impl MessageOut, what: &str, found: u8, component: &str, at: usize) {
    out.text("unexpected ");
    out.text(what);
    out.byte(found);
    out.text(" in ");
    out.text(component);
    out.text(" at byte ");
    out.number(at);
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = ToFormatter { f, result: Ok(()) };
        self.write_message(&mut out);
        out.result
    }
}

impl std::error::Error for ParseError {}

/// What a non-fatal finding is about. [`WarningKind::code`] is its stable name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WarningKind {
    /// `URN:` instead of `urn:` (the scheme is case-insensitive; lower case is canonical).
    SchemeCase,
    /// Upper-case letters in the NID (case-insensitive; lower case is canonical).
    NidCase,
    /// Lower-case hex digits in `%hh` (RFC 3986 section 2.1: upper case is canonical).
    HexCase,
    /// A percent-encoded unreserved character such as `%41` (RFC 3986 section 2.3).
    EncodedUnreserved,
    /// `%00` (RFC 2141 section 2.4: never to be used).
    EncodedNul,
    /// An r-component: RFC 8141 section 2.3.1 says not to use them yet.
    RComponent,
    /// `?+` inside the q-component: an r-component must come before the q-component.
    RAfterQ,
    /// The NID `urn`, reserved by the 2012 URN draft section 2.1.
    ReservedNid,
    /// A NID starting with `X-`, the old experimental form (RFC 8141 section 5.1).
    ExperimentalNid,
    /// A NID starting with two letters and a hyphen, kept for country codes
    /// (RFC 8141 section 5.1).
    CountryCodeNid,
}

impl WarningKind {
    /// A stable, kebab-case name of the kind (used as `kind` in JSON).
    pub fn code(&self) -> &'static str {
        match self {
            WarningKind::SchemeCase => "scheme-case",
            WarningKind::NidCase => "nid-case",
            WarningKind::HexCase => "hex-case",
            WarningKind::EncodedUnreserved => "encoded-unreserved",
            WarningKind::EncodedNul => "encoded-nul",
            WarningKind::RComponent => "r-component",
            WarningKind::RAfterQ => "r-after-q",
            WarningKind::ReservedNid => "reserved-nid",
            WarningKind::ExperimentalNid => "experimental-nid",
            WarningKind::CountryCodeNid => "country-code-nid",
        }
    }
}

/// A non-fatal finding: the URN parses, but something is not canonical or
/// is discouraged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Warning {
    /// What it is about.
    pub kind: WarningKind,
    /// 0-based byte offset where it starts.
    pub offset: usize,
}

impl Warning {
    /// Its message around the offset: the text before and after it, so
    /// that a writer can put the number in between without formatting.
    pub(crate) fn message_parts(&self) -> (&'static str, &'static str) {
        match self.kind {
            WarningKind::SchemeCase => (
                "scheme not in lower case at byte ",
                ": the scheme is case-insensitive and its canonical form is lower case, 'urn:' (RFC 3986 section 3.1)",
            ),
            WarningKind::NidCase => (
                "NID not in lower case at byte ",
                ": NIDs are case-insensitive; URN-equivalence lower-cases them (RFC 8141 section 3.1)",
            ),
            WarningKind::HexCase => (
                "lower-case hex digits in percent-encoding at byte ",
                ": '%HH' in upper case is canonical (RFC 3986 section 2.1)",
            ),
            WarningKind::EncodedUnreserved => (
                "percent-encoded unreserved character at byte ",
                ": write it unencoded (RFC 3986 §2.3); it is not equivalent to the character (RFC 8141 §3.1)",
            ),
            WarningKind::EncodedNul => (
                "'%00' at byte ",
                ": the zero octet should never be used (RFC 2141 section 2.4)",
            ),
            WarningKind::RComponent => (
                "r-component at byte ",
                ": r-components should not be used until they are standardized (RFC 8141 section 2.3.1)",
            ),
            WarningKind::RAfterQ => (
                "'?+' inside the q-component at byte ",
                ": it is part of the q-component, an r-component must come before '?=' (RFC 8141 section 2)",
            ),
            WarningKind::ReservedNid => (
                "the NID 'urn' at byte ",
                " is reserved (2012 URN draft section 2.1)",
            ),
            WarningKind::ExperimentalNid => (
                "NID starting with 'X-' at byte ",
                ": experimental NIDs are obsolete and cannot be registered (RFC 8141 section 5.1)",
            ),
            WarningKind::CountryCodeNid => (
                "NID starting with two letters and '-' at byte ",
                ": reserved for country-code namespaces (RFC 8141 section 5.1)",
            ),
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (before, after) = self.message_parts();
        write!(f, "{before}{}{after}", self.offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A byte is quoted the same way by the parser's messages and by
    /// [`quoted_char`]: an apostrophe in double quotes, never `'''`.
    #[test]
    fn an_apostrophe_is_quoted_readably() {
        assert_eq!(describe_byte(b'\'').to_string(), "\"'\"");
        assert_eq!(quoted_char('\''), "\"'\"");
        for b in (0x21..0x7f_u8).filter(|&b| b != b'\'') {
            assert_eq!(describe_byte(b).to_string(), quoted_char(char::from(b)));
        }
        assert_eq!(describe_byte(b' ').to_string(), "' ' (space)");
        let e = crate::urn::Urn::parse("urn:a'b:c").unwrap_err();
        assert!(
            e.to_string().starts_with("unexpected \"'\" in NID at byte 5"),
            "{e}"
        );
    }

    /// Quoted input is cut at `MAX_QUOTED` characters (not bytes), with
    /// `…`; shorter text is quoted whole.
    #[test]
    fn quoted_input_is_cut_at_24_characters() {
        assert_eq!(shortened("I2L").to_string(), "I2L");
        let exact = "x".repeat(MAX_QUOTED);
        assert_eq!(shortened(&exact).to_string(), exact);
        assert_eq!(
            shortened(&"é".repeat(5000)).to_string(),
            format!("{}…", "é".repeat(MAX_QUOTED))
        );
    }
}
