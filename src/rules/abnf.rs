//! ABNF (RFC 5234, with the RFC 7405 `%s`/`%i` strings) compiled to a
//! regular expression for the linear-time matcher.
//!
//! Registrations write their NSS syntax in ABNF. A grammar without
//! recursion describes a regular language, so it can be matched in linear
//! time: every rule reference is inlined, and a recursive or undefined rule
//! is an error when the rule is loaded. The core rules of RFC 5234
//! appendix B.1, RFC 3986 (`pchar`, `unreserved`, `pct-encoded`, `segment`,
//! `path-rootless`, `query`, `fragment`, ...) and
//! RFC 8141 (`alphanum`, `ldh`) are predefined; a grammar may redefine them.
//!
//! Grammars come from anyone who files a registration, so compiling one
//! takes time and memory near-linear in its size and never recurses deeper
//! than [`MAX_ABNF_NESTING`] allows: the text is parsed by recursive
//! descent with its nesting counted before each descent, every rule is
//! turned once into a template (its own pattern text with holes where other
//! rules go), the templates are sized and checked for recursion and depth
//! with an explicit stack, and only then is the start rule expanded, into a
//! pattern whose size is known in advance. The limits are in
//! [`super::limits`].

use std::collections::HashMap;
use std::fmt::Write as _;

use super::limits::{MAX_ABNF_EXPANSION, MAX_ABNF_LEN, MAX_ABNF_NESTING, MAX_ABNF_RULES, MAX_REPETITION};

/// The predefined rules.
const CORE: &str = r##"
ALPHA = %x41-5A / %x61-7A
BIT = "0" / "1"
CHAR = %x01-7F
CR = %x0D
CRLF = CR LF
CTL = %x00-1F / %x7F
DIGIT = %x30-39
DQUOTE = %x22
HEXDIG = DIGIT / "A" / "B" / "C" / "D" / "E" / "F"
HTAB = %x09
LF = %x0A
OCTET = %x00-FF
SP = %x20
VCHAR = %x21-7E
WSP = SP / HTAB
LWSP = *(WSP / CRLF WSP)
unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@"
sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
reserved = gen-delims / sub-delims
pct-encoded = "%" HEXDIG HEXDIG
pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
segment = *pchar
segment-nz = 1*pchar
path-rootless = segment-nz *( "/" segment )
query = *( pchar / "/" / "?" )
fragment = *( pchar / "/" / "?" )
alphanum = ALPHA / DIGIT
ldh = alphanum / "-"
"##;

/// An error in a grammar, with its line and column (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AbnfError {
    /// 1-based line in the grammar text (0 when not about one place).
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for AbnfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "ABNF line {}, column {}: {}",
                self.line, self.column, self.message
            )
        } else {
            write!(f, "ABNF: {}", self.message)
        }
    }
}

impl std::error::Error for AbnfError {}

impl AbnfError {
    /// An error about the grammar as a whole.
    fn whole(message: String) -> AbnfError {
        AbnfError {
            line: 0,
            column: 0,
            message,
        }
    }
}

/// Bytes `start..end` of a grammar text (texts are at most
/// [`MAX_ABNF_LEN`] bytes, so offsets fit in `u32`).
#[derive(Clone, Copy, Debug)]
struct Span {
    start: u32,
    end: u32,
}

impl Span {
    fn new(start: usize, end: usize) -> Span {
        let narrow = |v: usize| u32::try_from(v).expect("grammar texts are at most MAX_ABNF_LEN bytes");
        Span {
            start: narrow(start),
            end: narrow(end),
        }
    }

    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// The elements of a rule (RFC 5234 section 4). Names and strings point
/// into the text, so a node is small and allocates nothing of its own.
#[derive(Debug)]
enum Node {
    Alt(Vec<Node>),
    Cat(Vec<Node>),
    /// `min*max element`; no `max` is unbounded.
    Rep {
        min: u32,
        max: Option<u32>,
        inner: Box<Node>,
    },
    /// A rule reference: the name as written.
    Ref(Span),
    /// A quoted string, without its quotes; case-insensitive when the flag
    /// is set.
    Lit(Span, bool),
    /// `%x41-5A`, `%d65`: one value when both ends are equal.
    Range(u32, u32),
}

/// A grammar text and where its lines start.
struct Source<'t> {
    text: &'t str,
    line_starts: Vec<usize>,
    /// False for the predefined rules, whose places mean nothing to the
    /// author of a grammar.
    user: bool,
}

impl<'t> Source<'t> {
    fn new(text: &'t str, user: bool) -> Source<'t> {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Source {
            text,
            line_starts,
            user,
        }
    }

    /// An error at byte `pos` (no place for the predefined rules).
    fn error(&self, pos: usize, message: impl Into<String>) -> AbnfError {
        if !self.user {
            return AbnfError::whole(message.into());
        }
        let line = self.line_starts.partition_point(|s| *s <= pos);
        AbnfError {
            line,
            column: pos - self.line_starts[line - 1] + 1,
            message: message.into(),
        }
    }

    fn slice(&self, span: Span) -> &'t [u8] {
        &self.text.as_bytes()[span.range()]
    }
}

/// Recursive descent over one rule's elements. Each descent into a group
/// or option is counted, and refused beyond [`MAX_ABNF_NESTING`], so the
/// depth of the recursion is bounded whatever the text.
struct Parser<'s, 't> {
    source: &'s Source<'t>,
    src: &'t [u8],
    pos: usize,
    /// The end of the rule being parsed.
    end: usize,
    /// Groups and options open around `pos`.
    depth: usize,
}

impl Parser<'_, '_> {
    fn err(&self, message: impl Into<String>) -> AbnfError {
        self.source.error(self.pos, message)
    }

    /// Skips white space, line breaks (continuations) and comments.
    fn skip_ws(&mut self) {
        while self.pos < self.end {
            match self.src[self.pos] {
                b' ' | b'\t' | b'\r' | b'\n' => self.pos += 1,
                b';' => {
                    while self.pos < self.end && self.src[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        (self.pos < self.end).then(|| self.src[self.pos])
    }

    fn alternation(&mut self) -> Result<Node, AbnfError> {
        let mut alts = vec![self.concatenation()?];
        loop {
            self.skip_ws();
            if self.peek() == Some(b'/') {
                self.pos += 1;
                alts.push(self.concatenation()?);
            } else {
                break;
            }
        }
        Ok(if alts.len() == 1 {
            alts.pop().expect("one")
        } else {
            Node::Alt(alts)
        })
    }

    fn concatenation(&mut self) -> Result<Node, AbnfError> {
        let mut items = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None | Some(b'/' | b')' | b']') => break,
                _ => items.push(self.repetition()?),
            }
        }
        if items.is_empty() {
            return Err(self.err("expected an element"));
        }
        Ok(if items.len() == 1 {
            items.pop().expect("one")
        } else {
            Node::Cat(items)
        })
    }

    /// A repetition count (RFC 5234 section 3.6), at most
    /// [`MAX_REPETITION`]; `None` when there are no digits here.
    fn count(&mut self) -> Result<Option<u32>, AbnfError> {
        let start = self.pos;
        // Saturates just above the largest u32: enough to tell "too large".
        let mut value: u64 = 0;
        while let Some(b) = self.peek().filter(u8::is_ascii_digit) {
            value = (value * 10 + u64::from(b - b'0')).min(u64::from(u32::MAX) + 1);
            self.pos += 1;
        }
        if self.pos == start {
            return Ok(None);
        }
        match u32::try_from(value) {
            Ok(v) if v <= MAX_REPETITION => Ok(Some(v)),
            _ => {
                let digits = &self.src[start..self.pos];
                let shown = if digits.len() <= 20 {
                    String::from_utf8_lossy(digits).into_owned()
                } else {
                    format!("of {} digits", digits.len())
                };
                Err(self.source.error(
                    start,
                    format!(
                        "repetition count {shown} is above the limit of {MAX_REPETITION} (MAX_REPETITION)"
                    ),
                ))
            }
        }
    }

    fn repetition(&mut self) -> Result<Node, AbnfError> {
        let min = self.count()?;
        let (min, max) = if self.peek() == Some(b'*') {
            self.pos += 1;
            (min.unwrap_or(0), self.count()?)
        } else {
            match min {
                Some(n) => (n, Some(n)),
                None => return self.element(),
            }
        };
        if let Some(m) = max.filter(|m| *m < min) {
            return Err(self.err(format!("repetition {min}*{m} has its bounds the wrong way round")));
        }
        let inner = Box::new(self.element()?);
        Ok(Node::Rep { min, max, inner })
    }

    fn element(&mut self) -> Result<Node, AbnfError> {
        let Some(b) = self.peek() else {
            return Err(self.err("expected an element, found the end"));
        };
        match b {
            b'(' | b'[' => {
                if self.depth >= MAX_ABNF_NESTING {
                    return Err(self.err(format!(
                        "groups and options nest more than {MAX_ABNF_NESTING} deep (limit MAX_ABNF_NESTING)"
                    )));
                }
                self.pos += 1;
                self.depth += 1;
                let inner = self.alternation()?;
                self.depth -= 1;
                self.skip_ws();
                let close = if b == b'(' { b')' } else { b']' };
                if self.peek() != Some(close) {
                    return Err(self.err(format!("expected '{}'", close as char)));
                }
                self.pos += 1;
                Ok(if b == b'[' {
                    Node::Rep {
                        min: 0,
                        max: Some(1),
                        inner: Box::new(inner),
                    }
                } else {
                    inner
                })
            }
            b'"' => self.char_val(true),
            b'%' => self.percent(),
            b'<' => Err(self.err("prose (<...>) cannot be compiled: write it as ABNF")),
            b if b.is_ascii_alphabetic() => {
                let start = self.pos;
                while self
                    .peek()
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'-')
                {
                    self.pos += 1;
                }
                Ok(Node::Ref(Span::new(start, self.pos)))
            }
            other if !other.is_ascii() => {
                let tail = &self.src[self.pos..self.src.len().min(self.pos + 4)];
                let c = match std::str::from_utf8(tail) {
                    Ok(t) => t.chars().next(),
                    Err(e) => std::str::from_utf8(&tail[..e.valid_up_to()])
                        .ok()
                        .and_then(|t| t.chars().next()),
                };
                Err(self.err(match c {
                    Some(c) => format!(
                        "unexpected non-ASCII character '{c}' (U+{:04X}): ABNF is ASCII (RFC 5234)",
                        u32::from(c)
                    ),
                    None => format!("unexpected {}: ABNF is ASCII (RFC 5234)", describe(other)),
                }))
            }
            other => Err(self.err(format!("unexpected {}", describe(other)))),
        }
    }

    fn char_val(&mut self, case_insensitive: bool) -> Result<Node, AbnfError> {
        self.pos += 1; // opening quote
        let start = self.pos;
        while let Some(b) = self.peek() {
            if b == b'"' {
                let lit = Span::new(start, self.pos);
                self.pos += 1;
                return Ok(Node::Lit(lit, case_insensitive));
            }
            if !(0x20..=0x7e).contains(&b) {
                return Err(self.err("a quoted string holds printable ASCII only"));
            }
            self.pos += 1;
        }
        Err(self.err("unterminated string"))
    }

    fn percent(&mut self) -> Result<Node, AbnfError> {
        self.pos += 1;
        let radix = match self.peek().map(|b| b.to_ascii_lowercase()) {
            Some(b's') | Some(b'i') => {
                let sensitive = self.peek().map(|b| b.to_ascii_lowercase()) == Some(b's');
                self.pos += 1;
                if self.peek() != Some(b'"') {
                    return Err(self.err("expected '\"' after %s or %i"));
                }
                return self.char_val(!sensitive);
            }
            Some(b'x') => 16,
            Some(b'd') => 10,
            Some(b'b') => 2,
            _ => return Err(self.err("expected %x, %d, %b, %s or %i")),
        };
        self.pos += 1;
        let first = self.value(radix)?;
        match self.peek() {
            Some(b'-') => {
                self.pos += 1;
                let last = self.value(radix)?;
                if last < first {
                    return Err(self.err("range with its end before its start"));
                }
                Ok(Node::Range(first, last))
            }
            Some(b'.') => {
                let mut values = vec![Node::Range(first, first)];
                while self.peek() == Some(b'.') {
                    self.pos += 1;
                    let v = self.value(radix)?;
                    values.push(Node::Range(v, v));
                }
                Ok(Node::Cat(values))
            }
            _ => Ok(Node::Range(first, first)),
        }
    }

    /// A terminal value (RFC 5234 section 2.3): a code point, at most
    /// U+10FFFF.
    fn value(&mut self, radix: u32) -> Result<u32, AbnfError> {
        let start = self.pos;
        let mut value: u32 = 0;
        while let Some(d) = self.peek().and_then(|b| (b as char).to_digit(radix)) {
            value = value.saturating_mul(radix).saturating_add(d);
            self.pos += 1;
        }
        // A letter or digit run on to it is a digit of another base (a
        // typo such as %x41-5G), not the next element.
        if let Some(b) = self.peek().filter(u8::is_ascii_alphanumeric) {
            let base = match radix {
                16 => "hexadecimal (%x)",
                10 => "decimal (%d)",
                _ => "binary (%b)",
            };
            return Err(self.err(format!(
                "'{}' is not a {base} digit (RFC 5234 section 2.3)",
                b as char
            )));
        }
        if self.pos == start {
            return Err(self.err("expected a number"));
        }
        if value > 0x10_FFFF {
            return Err(self
                .source
                .error(start, "value above 0x10FFFF, the largest code point"));
        }
        Ok(value)
    }
}

/// One rule definition.
struct Rule {
    /// Lower case (rule names are case-insensitive, RFC 5234 section 2.1).
    name: String,
    node: Node,
    /// Index of its text in the compiler's sources.
    source: usize,
    /// Where its name is.
    at: usize,
}

/// The predefined rules and the grammar's own, by name; a rule of the
/// grammar replaces a predefined one of the same name.
#[derive(Default)]
struct Grammar {
    rules: Vec<Rule>,
    index: HashMap<String, usize>,
    /// The grammar's first rule, the default start.
    first: Option<String>,
}

impl Grammar {
    /// Adds the rules of `source` (index `sid`).
    fn parse(&mut self, source: &Source<'_>, sid: usize) -> Result<(), AbnfError> {
        let src = source.text.as_bytes();
        // Each rule starts at the beginning of a line; its elements run
        // until the next line that starts with a rule name.
        let mut rule_starts = Vec::new();
        for &start in &source.line_starts {
            if src.get(start).is_some_and(|b| b.is_ascii_alphabetic()) {
                if rule_starts.len() == MAX_ABNF_RULES && source.user {
                    return Err(source.error(
                        start,
                        format!(
                            "more than {MAX_ABNF_RULES} rule definitions ('name =' or 'name =/' lines; limit MAX_ABNF_RULES)"
                        ),
                    ));
                }
                rule_starts.push(start);
            } else if rule_starts.is_empty()
                && let Some(&b) = src.get(start)
            {
                let rest_blank_or_comment = src[start..]
                    .iter()
                    .take_while(|b| **b != b'\n')
                    .find(|b| !b.is_ascii_whitespace())
                    .is_none_or(|b| *b == b';');
                if !rest_blank_or_comment && b != b'\n' {
                    return Err(source.error(start, "expected a rule name at the start of the line"));
                }
            }
        }
        for (i, &start) in rule_starts.iter().enumerate() {
            let end = rule_starts.get(i + 1).copied().unwrap_or(src.len());
            let mut p = Parser {
                source,
                src,
                pos: start,
                end,
                depth: 0,
            };
            while p.peek().is_some_and(|b| b.is_ascii_alphanumeric() || b == b'-') {
                p.pos += 1;
            }
            let name = String::from_utf8_lossy(&src[start..p.pos]).to_ascii_lowercase();
            p.skip_ws();
            if p.peek() != Some(b'=') {
                return Err(p.err(format!("expected '=' after the rule name '{name}'")));
            }
            p.pos += 1;
            let incremental = p.peek() == Some(b'/');
            if incremental {
                p.pos += 1;
            }
            let node = p.alternation()?;
            p.skip_ws();
            if p.pos < end {
                return Err(p.err("unexpected text after the rule's elements"));
            }
            if incremental {
                // `=/` adds alternatives to a rule of the same text; the
                // alternation stays flat however many lines add to it.
                let Some(&i) = self.index.get(&name).filter(|i| self.rules[**i].source == sid) else {
                    return Err(source.error(
                        start,
                        format!("'=/' adds to '{name}', which is not defined before"),
                    ));
                };
                let rule = &mut self.rules[i];
                let mut alts = match std::mem::replace(&mut rule.node, Node::Alt(Vec::new())) {
                    Node::Alt(alts) => alts,
                    other => vec![other],
                };
                match node {
                    Node::Alt(more) => alts.extend(more),
                    other => alts.push(other),
                }
                rule.node = Node::Alt(alts);
            } else {
                // RFC 5234 section 3.3: alternatives are added with `=/`; a
                // second `=` of a rule of the same text would silently
                // replace the first (a predefined rule may be redefined).
                if let Some(&i) = self.index.get(&name).filter(|i| self.rules[**i].source == sid) {
                    let first = source.line_starts.partition_point(|s| *s <= self.rules[i].at);
                    let again = source.line_starts.partition_point(|s| *s <= start);
                    return Err(source.error(
                        start,
                        format!(
                            "'{name}' is defined twice with '=' (lines {first} and {again}): a second '=' \
                             would replace the first; add alternatives with '=/' (RFC 5234 section 3.3)"
                        ),
                    ));
                }
                if source.user && self.first.is_none() {
                    self.first = Some(name.clone());
                }
                self.index.insert(name.clone(), self.rules.len());
                self.rules.push(Rule {
                    name,
                    node,
                    source: sid,
                    at: start,
                });
            }
        }
        Ok(())
    }
}

/// The width of the blanks (spaces and tabs) a line starts with.
fn indent_of(line: &str) -> usize {
    line.bytes().take_while(|b| *b == b' ' || *b == b'\t').count()
}

/// The indentation common to the non-blank lines of `text`, in bytes.
fn common_indent(text: &str) -> usize {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(indent_of)
        .min()
        .unwrap_or(0)
}

/// Removes the indentation (spaces and tabs) common to all non-blank lines
/// (grammars are often pasted indented, as in registration texts).
fn dedent(text: &str) -> String {
    let indent = common_indent(text);
    // Every non-blank line has `indent` ASCII blanks to remove; a blank
    // line may have fewer.
    text.lines()
        .map(|l| &l[indent.min(indent_of(l))..])
        .collect::<Vec<_>>()
        .join("\n")
}

/// A grammar compiled to a regular expression for one start rule.
#[derive(Clone, Debug)]
pub struct CompiledAbnf {
    /// The regular expression (for the byte-oriented, non-Unicode syntax).
    pub pattern: String,
    /// The rule the NSS must match.
    pub start: String,
}

/// Compiles `text` with the predefined core rules; the NSS must match
/// `start`, or the first rule of the text when `start` is `None`.
///
/// # Errors
///
/// Syntax errors with line and column, prose values, undefined or
/// recursive rules, and grammars beyond the limits of [`super::limits`]
/// ([`MAX_ABNF_LEN`], [`MAX_ABNF_RULES`], [`MAX_ABNF_NESTING`],
/// [`MAX_REPETITION`], [`MAX_ABNF_EXPANSION`]), each error naming its limit.
pub fn compile(text: &str, start: Option<&str>) -> Result<CompiledAbnf, AbnfError> {
    if text.len() > MAX_ABNF_LEN {
        return Err(AbnfError::whole(format!(
            "the grammar is {} bytes, more than the limit of {MAX_ABNF_LEN} (MAX_ABNF_LEN)",
            text.len()
        )));
    }
    let user_text = dedent(text);
    let sources = [Source::new(CORE, false), Source::new(&user_text, true)];
    let mut grammar = Grammar::default();
    grammar.parse(&sources[0], 0).expect("the core rules parse");
    // Errors are found in the dedented text: their columns are given back
    // the indentation, so that they are columns of `text`.
    let indent = common_indent(text);
    let in_text = |mut e: AbnfError| {
        if e.line > 0 {
            e.column += indent;
        }
        e
    };
    grammar.parse(&sources[1], 1).map_err(in_text)?;
    let start = match start {
        Some(s) => s.to_ascii_lowercase(),
        None => grammar
            .first
            .clone()
            .ok_or_else(|| AbnfError::whole("the grammar defines no rule".into()))?,
    };
    let Some(&start_rule) = grammar.index.get(&start) else {
        return Err(AbnfError::whole(format!(
            "the start rule '{start}' is not defined"
        )));
    };
    let pattern = Expander::new(&grammar, &sources)
        .expand(start_rule)
        .map_err(in_text)?;
    Ok(CompiledAbnf { pattern, start })
}

/// A rule's own part of the pattern: pieces of text in the expander's
/// arena, with holes where other rules go.
struct Template {
    pieces: Vec<Piece>,
    /// Bytes of text of its own.
    own_len: usize,
    /// How deep its own groups nest.
    own_depth: usize,
}

/// A piece of a template: 16 bytes, as a grammar of [`MAX_ABNF_LEN`]
/// bytes may hold half a million references. Offsets fit in `u32`: the
/// arena is at most [`MAX_ABNF_EXPANSION`] bytes, the text at most
/// [`MAX_ABNF_LEN`], and there are fewer rules than bytes of text.
#[derive(Clone, Copy)]
enum Piece {
    /// `arena[start..end]`, never empty.
    Text(u32, u32),
    /// Another rule, inside `depth` groups; `user` and `at` say where the
    /// reference is written.
    Ref {
        rule: u32,
        depth: u32,
        at: u32,
        user: bool,
    },
}

fn narrow(v: usize) -> u32 {
    u32::try_from(v).expect("bounded by MAX_ABNF_LEN and MAX_ABNF_EXPANSION")
}

/// Turns a grammar into one pattern for its start rule: first a template
/// per rule reachable from the start (linear in the rules' size), then
/// sizes, depths and recursion found in one depth-first pass with an
/// explicit stack, then the expansion, which writes exactly the size
/// computed and no more than [`MAX_ABNF_EXPANSION`].
struct Expander<'g, 't> {
    grammar: &'g Grammar,
    sources: &'g [Source<'t>; 2],
    /// The text of every template.
    arena: String,
    templates: Vec<Option<Template>>,
}

/// Building one template: the text piece being written, the open groups.
struct TemplateBuilder {
    pieces: Vec<Piece>,
    text_start: usize,
    depth: usize,
    max_depth: usize,
    /// The rule, for errors.
    rule: usize,
}

impl<'g, 't> Expander<'g, 't> {
    fn new(grammar: &'g Grammar, sources: &'g [Source<'t>; 2]) -> Self {
        Expander {
            grammar,
            sources,
            arena: String::new(),
            templates: (0..grammar.rules.len()).map(|_| None).collect(),
        }
    }

    fn rule_error(&self, rule: usize, message: String) -> AbnfError {
        let r = &self.grammar.rules[rule];
        let source = &self.sources[r.source];
        let message = if source.user {
            message
        } else {
            format!("{message} (in the predefined rule '{}')", r.name)
        };
        source.error(r.at, message)
    }

    fn too_large(&self, rule: usize) -> AbnfError {
        self.rule_error(
            rule,
            format!(
                "rule '{}' expands to more than {MAX_ABNF_EXPANSION} bytes of regular expression \
                 (limit MAX_ABNF_EXPANSION)",
                self.grammar.rules[rule].name
            ),
        )
    }

    /// Appends `text` to the template being built. All templates together
    /// are part of the start rule's expansion, so their total is bounded
    /// by the same limit.
    fn text(&mut self, b: &TemplateBuilder, text: &str) -> Result<(), AbnfError> {
        if self.arena.len() + text.len() > MAX_ABNF_EXPANSION {
            return Err(self.too_large(b.rule));
        }
        self.arena.push_str(text);
        Ok(())
    }

    fn open(&mut self, b: &mut TemplateBuilder) -> Result<(), AbnfError> {
        b.depth += 1;
        b.max_depth = b.max_depth.max(b.depth);
        self.text(b, "(?:")
    }

    fn close(&mut self, b: &mut TemplateBuilder, suffix: &str) -> Result<(), AbnfError> {
        b.depth -= 1;
        self.text(b, ")")?;
        self.text(b, suffix)
    }

    fn flush(&mut self, b: &mut TemplateBuilder) {
        if b.text_start < self.arena.len() {
            b.pieces
                .push(Piece::Text(narrow(b.text_start), narrow(self.arena.len())));
        }
        b.text_start = self.arena.len();
    }

    fn template(&mut self, rule: usize) -> Result<(), AbnfError> {
        let mut b = TemplateBuilder {
            pieces: Vec::new(),
            text_start: self.arena.len(),
            depth: 0,
            max_depth: 0,
            rule,
        };
        let r = &self.grammar.rules[rule];
        self.emit(&r.node, r.source, &mut b)?;
        self.flush(&mut b);
        let own_len = b
            .pieces
            .iter()
            .map(|p| match p {
                Piece::Text(s, e) => (e - s) as usize,
                Piece::Ref { .. } => 0,
            })
            .sum();
        self.templates[rule] = Some(Template {
            pieces: b.pieces,
            own_len,
            own_depth: b.max_depth,
        });
        Ok(())
    }

    /// Writes one node. Recursion follows the node tree, whose depth the
    /// parser bounded (a few levels per group, [`MAX_ABNF_NESTING`] groups).
    fn emit(&mut self, node: &Node, sid: usize, b: &mut TemplateBuilder) -> Result<(), AbnfError> {
        let source = &self.sources[sid];
        match node {
            Node::Alt(alts) => {
                self.open(b)?;
                for (i, a) in alts.iter().enumerate() {
                    if i > 0 {
                        self.text(b, "|")?;
                    }
                    self.emit(a, sid, b)?;
                }
                self.close(b, "")?;
            }
            Node::Cat(items) => {
                self.open(b)?;
                for i in items {
                    self.emit(i, sid, b)?;
                }
                self.close(b, "")?;
            }
            Node::Rep { min, max, inner } => {
                self.open(b)?;
                self.emit(inner, sid, b)?;
                let bounds = match max {
                    Some(max) => format!("{{{min},{max}}}"),
                    None => format!("{{{min},}}"),
                };
                self.close(b, &bounds)?;
            }
            Node::Ref(span) => {
                let name = String::from_utf8_lossy(source.slice(*span)).to_ascii_lowercase();
                let Some(&target) = self.grammar.index.get(&name) else {
                    return Err(source.error(span.start as usize, format!("rule '{name}' is not defined")));
                };
                self.flush(b);
                b.pieces.push(Piece::Ref {
                    rule: narrow(target),
                    depth: narrow(b.depth),
                    at: span.start,
                    user: source.user,
                });
            }
            Node::Lit(span, ci) => {
                self.open(b)?;
                let mut out = String::new();
                for &c in source.slice(*span) {
                    out.clear();
                    if *ci && c.is_ascii_alphabetic() {
                        let _ = write!(
                            out,
                            "[{}{}]",
                            c.to_ascii_lowercase() as char,
                            c.to_ascii_uppercase() as char
                        );
                    } else {
                        let _ = write!(out, "\\x{c:02X}");
                    }
                    self.text(b, &out)?;
                }
                self.close(b, "")?;
            }
            Node::Range(lo, hi) => {
                // Values beyond a byte cannot occur in an NSS, which is
                // ASCII (RFC 8141 section 2): a range entirely beyond
                // matches nothing.
                let text = if *lo > 0xFF {
                    r"[^\x00-\xFF]".to_string()
                } else if lo == hi {
                    format!("\\x{lo:02X}")
                } else {
                    format!("[\\x{lo:02X}-\\x{:02X}]", (*hi).min(0xFF))
                };
                self.text(b, &text)?;
            }
        }
        Ok(())
    }

    fn expand(mut self, start: usize) -> Result<String, AbnfError> {
        #[derive(Clone, Copy, PartialEq, Eq)]
        enum State {
            New,
            Open,
            Done,
        }
        let n = self.grammar.rules.len();
        let mut state = vec![State::New; n];
        let mut len = vec![0usize; n];
        let mut depth = vec![0usize; n];
        // A rule whose whole definition is another rule expands to it; the
        // expansion jumps over such chains, so every rule it enters writes
        // text of its own.
        let mut alias: Vec<usize> = (0..n).collect();
        self.template(start)?;
        state[start] = State::Open;
        // Depth-first, post-order: (rule, next piece to look at).
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        while let Some(&(rule, next)) = stack.last() {
            let template = self.templates[rule].as_ref().expect("built when entered");
            if let Some(&piece) = template.pieces.get(next) {
                stack.last_mut().expect("not empty").1 += 1;
                if let Piece::Ref {
                    rule: target,
                    at,
                    user,
                    ..
                } = piece
                {
                    let target = target as usize;
                    match state[target] {
                        State::Done => {}
                        State::Open => return Err(self.recursion(&stack, target, user, at as usize)),
                        State::New => {
                            self.template(target)?;
                            state[target] = State::Open;
                            stack.push((target, 0));
                        }
                    }
                }
                continue;
            }
            let (mut l, mut d) = (template.own_len, template.own_depth);
            for piece in &template.pieces {
                if let Piece::Ref {
                    rule: target,
                    depth: at_depth,
                    ..
                } = *piece
                {
                    l = l.saturating_add(len[target as usize]);
                    d = d.max(at_depth as usize + depth[target as usize]);
                }
            }
            if let [Piece::Ref { rule: target, .. }] = template.pieces[..] {
                alias[rule] = alias[target as usize];
            }
            if l > MAX_ABNF_EXPANSION {
                return Err(self.too_large(rule));
            }
            if d > MAX_ABNF_NESTING {
                return Err(self.rule_error(
                    rule,
                    format!(
                        "rule '{}', with the rules it uses expanded, nests more than {MAX_ABNF_NESTING} \
                         deep (limit MAX_ABNF_NESTING)",
                        self.grammar.rules[rule].name
                    ),
                ));
            }
            (len[rule], depth[rule], state[rule]) = (l, d, State::Done);
            stack.pop();
        }
        // Every rule entered writes at least one byte of text, so the work
        // is bounded by the size, itself bounded by MAX_ABNF_EXPANSION.
        let mut out = String::with_capacity(len[start]);
        let mut stack: Vec<(usize, usize)> = vec![(alias[start], 0)];
        while let Some(top) = stack.last_mut() {
            let template = self.templates[top.0].as_ref().expect("built");
            match template.pieces.get(top.1) {
                None => {
                    stack.pop();
                }
                Some(&Piece::Text(s, e)) => {
                    top.1 += 1;
                    out.push_str(&self.arena[s as usize..e as usize]);
                }
                Some(&Piece::Ref { rule, .. }) => {
                    top.1 += 1;
                    stack.push((alias[rule as usize], 0));
                }
            }
        }
        debug_assert_eq!(out.len(), len[start]);
        Ok(out)
    }

    /// The error for a reference back to `target`, which is on `stack`.
    fn recursion(&self, stack: &[(usize, usize)], target: usize, user: bool, at: usize) -> AbnfError {
        let names = &self.grammar.rules;
        let from = stack.iter().position(|(r, _)| *r == target).unwrap_or(0);
        let mut cycle: Vec<&str> = stack[from..]
            .iter()
            .map(|(r, _)| names[*r].name.as_str())
            .collect();
        cycle.push(&names[target].name);
        // A long cycle is shown by its ends.
        let shown = if cycle.len() > 12 {
            let more = cycle.len() - 10;
            format!(
                "{} -> ... {more} more ... -> {}",
                cycle[..5].join(" -> "),
                cycle[cycle.len() - 5..].join(" -> ")
            )
        } else {
            cycle.join(" -> ")
        };
        // Source 1 is the grammar, 0 the predefined rules.
        self.sources[usize::from(user)].error(
            at,
            format!(
                "rule '{}' is recursive ({shown}): a linear-time matcher cannot compile it",
                names[target].name
            ),
        )
    }
}

/// A byte in quotes, the apostrophe in double quotes as every message
/// has it (`crate::urn::quoted_char`, out of reach of `build.rs`, which
/// compiles this file alone), or `byte 0x1f`.
fn describe(b: u8) -> String {
    if b == b'\'' {
        "\"'\"".to_string()
    } else if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("byte 0x{b:02x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A digit of another base in a value is named (not read as a range
    /// that ends before it starts).
    #[test]
    fn a_digit_of_another_base_is_named() {
        for (text, says) in [
            ("a = %x41-5G", "'G' is not a hexadecimal (%x) digit"),
            ("a = %d9A", "'A' is not a decimal (%d) digit"),
            ("a = %b102", "'2' is not a binary (%b) digit"),
        ] {
            let err = compile(text, None).unwrap_err().to_string();
            assert!(err.contains(says), "{text}: {err}");
        }
        assert!(compile("a = %x41-5A / %d48.49 / %b1010", None).is_ok());
    }

    #[test]
    fn rfc5234_repetition_forms() {
        for (grammar, pattern_has) in [
            ("a = 3DIGIT", "{3,3}"),
            ("a = *DIGIT", "{0,}"),
            ("a = 1*DIGIT", "{1,}"),
            ("a = 2*4DIGIT", "{2,4}"),
            ("a = *4DIGIT", "{0,4}"),
            ("a = [DIGIT]", "{0,1}"),
        ] {
            let c = compile(grammar, None).unwrap();
            assert!(c.pattern.contains(pattern_has), "{grammar}: {}", c.pattern);
        }
    }

    #[test]
    fn recursive_rules_are_refused() {
        let err = compile("a = \"x\" b\nb = \"(\" a \")\" / \"y\"", None).unwrap_err();
        assert!(err.message.contains("recursive (a -> b -> a)"), "{err}");
    }

    #[test]
    fn undefined_rules_are_refused_with_their_place() {
        let err = compile("nss = foo \":\" bar\nfoo = 1*ALPHA", None).unwrap_err();
        assert_eq!((err.line, err.column), (1, 15), "{err}");
        assert!(err.message.contains("'bar' is not defined"));
        // Columns are those of the text given, indentation included.
        let err = compile("\n   nss = foo \":\" bar\n   foo = 1*ALPHA", None).unwrap_err();
        assert_eq!((err.line, err.column), (2, 18), "{err}");
        let err = compile("  nss = \"a\" @ b", None).unwrap_err();
        assert_eq!((err.line, err.column), (1, 13), "{err}");
    }

    #[test]
    fn syntax_errors_say_where() {
        let err = compile("nss = \"a\" (b\nb = \"c\"", None).unwrap_err();
        assert!(err.message.contains("expected ')'"), "{err}");
        let err = compile("nss = <some prose>", None).unwrap_err();
        assert!(err.message.contains("prose"), "{err}");
        assert!(compile("nss = 4*2DIGIT", None).is_err());
    }

    #[test]
    fn nodes_and_pieces_stay_small() {
        // A megabyte of grammar is up to half a million nodes and pieces.
        assert!(std::mem::size_of::<Node>() <= 32);
        assert_eq!(std::mem::size_of::<Piece>(), 16);
    }

    #[test]
    fn chains_of_rules_expand_to_their_last_rule() {
        let c = compile("a = b\nb = c\nc = \"x\"", None).unwrap();
        assert_eq!(c.pattern, "(?:[xX])");
    }

    #[test]
    fn incremental_alternatives_stay_one_alternation() {
        let c = compile("a = \"a\"\na =/ \"b\"\na =/ \"c\" / \"d\"", None).unwrap();
        assert_eq!(c.pattern, "(?:(?:[aA])|(?:[bB])|(?:[cC])|(?:[dD]))");
    }

    /// RFC 5234 section 3.3: a rule defined twice with `=` is refused,
    /// naming both lines (it kept the last, silently).
    #[test]
    fn a_rule_defined_twice_with_equals_is_refused_naming_both_lines() {
        let err = compile("nss = part\npart = \"a\"\n; more\npart = \"b\"", None).unwrap_err();
        assert_eq!((err.line, err.column), (4, 1), "{err}");
        assert!(
            err.message
                .contains("'part' is defined twice with '=' (lines 2 and 4)")
                && err.message.contains("'=/' (RFC 5234 section 3.3)"),
            "{err}"
        );
        // Names are case-insensitive (RFC 5234 section 2.1).
        assert!(compile("nss = \"a\"\nNSS = \"b\"", None).is_err());
        // A predefined rule may still be redefined, once.
        let c = compile("nss = DIGIT\nDIGIT = \"x\"", None).unwrap();
        assert_eq!(c.pattern, "(?:[xX])");
    }

    #[test]
    fn values_beyond_a_byte_match_nothing() {
        let c = compile("a = %x100-10FFFF / %x62 / %x63-1FF", None).unwrap();
        let m = crate::rules::Matcher::new(&c.pattern).unwrap();
        assert!(m.check(b"b").is_ok());
        assert!(m.check(b"c").is_ok());
        assert!(m.check(b"a").is_err());
    }

    #[test]
    fn limits_are_named_where_they_are_exceeded() {
        let deep = format!("nss = {}\"a\"{}", "(".repeat(65), ")".repeat(65));
        let err = compile(&deep, None).unwrap_err();
        assert_eq!((err.line, err.column), (1, 71), "{err}");
        assert!(err.message.contains("(limit MAX_ABNF_NESTING)"), "{err}");
        let err = compile("nss = \"x\"\n  *1001DIGIT", None).unwrap_err();
        assert_eq!((err.line, err.column), (2, 4), "{err}");
        assert!(
            err.message
                .contains("1001 is above the limit of 1000 (MAX_REPETITION)"),
            "{err}"
        );
    }

    #[test]
    fn limits_exceeded_in_a_predefined_rule_name_it() {
        // DIGIT nests exactly as deep as allowed, so HEXDIG, which uses it,
        // nests one deeper.
        let digit = format!("DIGIT = {}\"0\"{}", "[".repeat(63), "]".repeat(63));
        assert!(compile(&format!("nss = DIGIT\n{digit}"), None).is_ok());
        let err = compile(&format!("nss = HEXDIG\n{digit}"), None).unwrap_err();
        assert_eq!(err.line, 0, "{err}");
        assert!(err.message.contains("(in the predefined rule 'hexdig')"), "{err}");
    }

    #[test]
    fn lines_indented_with_other_blanks_are_never_dropped() {
        // U+3000 is white space, but not indentation to remove: the second
        // line must not vanish (it did when dedent cut inside it).
        match compile("  a = \"x\"\n\u{3000}/ \"y\"", None) {
            Ok(c) => assert!(c.pattern.contains("[yY]"), "{}", c.pattern),
            Err(e) => assert!(!e.message.is_empty()),
        }
    }

    #[test]
    fn incremental_alternatives_and_comments() {
        let c = compile("nss = \"a\" ; first\nnss =/ \"b\"\n  ; a comment line\n", None).unwrap();
        assert!(c.pattern.contains('|'));
    }

    /// The ends of the matches of `node` starting at each of `starts`: a
    /// backtracking reading of RFC 5234, independent of the expander.
    fn ends(
        g: &Grammar,
        sources: &[Source<'_>; 2],
        node: &Node,
        sid: usize,
        input: &[u8],
        starts: &[usize],
    ) -> Vec<usize> {
        let mut out = Vec::new();
        for &pos in starts {
            let found: Vec<usize> = match node {
                Node::Lit(span, ci) => {
                    let lit = sources[sid].slice(*span);
                    let end = pos + lit.len();
                    let ok = input.get(pos..end).is_some_and(|s| {
                        if *ci {
                            s.eq_ignore_ascii_case(lit)
                        } else {
                            s == lit
                        }
                    });
                    if ok { vec![end] } else { vec![] }
                }
                Node::Range(lo, hi) => match input.get(pos) {
                    Some(&b) if (*lo..=*hi).contains(&u32::from(b)) => vec![pos + 1],
                    _ => vec![],
                },
                Node::Cat(items) => items
                    .iter()
                    .fold(vec![pos], |at, item| ends(g, sources, item, sid, input, &at)),
                Node::Alt(alts) => alts
                    .iter()
                    .flat_map(|a| ends(g, sources, a, sid, input, &[pos]))
                    .collect(),
                Node::Rep { min, max, inner } => {
                    let mut result = Vec::new();
                    let mut at = vec![pos];
                    for k in 0..=(*min as usize + input.len() + 1) {
                        if k >= *min as usize {
                            result.extend(&at);
                        }
                        if max.is_some_and(|m| k >= m as usize) || at.is_empty() {
                            break;
                        }
                        at = ends(g, sources, inner, sid, input, &at);
                        at.sort_unstable();
                        at.dedup();
                    }
                    result
                }
                Node::Ref(span) => {
                    let name = String::from_utf8_lossy(sources[sid].slice(*span)).to_ascii_lowercase();
                    let rule = &g.rules[g.index[&name]];
                    ends(g, sources, &rule.node, rule.source, input, &[pos])
                }
            };
            out.extend(found);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Elements that may use the rules `refs` and the core rules.
    fn element(refs: &[&'static str]) -> impl proptest::strategy::Strategy<Value = String> + use<> {
        use proptest::prelude::*;
        let mut leaves = vec![
            "DIGIT",
            "ALPHA",
            "\"a\"",
            "\"aB\"",
            "%s\"b\"",
            "%x61-63",
            "%x41",
            "%x30.2D",
            "%x100-10FFFF",
            "%x2D-1FF",
            "%d48",
            "\"\"",
        ];
        leaves.extend(refs);
        prop::sample::select(leaves)
            .prop_map(String::from)
            .prop_recursive(4, 24, 3, |inner| {
                let count = prop::sample::select(vec!["", "*", "1*", "2*3", "2", "*2", "0*1", "0"]);
                prop_oneof![
                    prop::collection::vec(inner.clone(), 1..3).prop_map(|v| v.join(" ")),
                    prop::collection::vec(inner.clone(), 2..4).prop_map(|v| format!("( {} )", v.join(" / "))),
                    inner.clone().prop_map(|e| format!("[ {e} ]")),
                    (count, inner).prop_map(|(c, e)| format!("{c}( {e} )")),
                ]
            })
    }

    /// Rules r0 to r3, each using only the ones after it, and sometimes
    /// an `=/` line for r0.
    fn grammar() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        (
            element(&["r1", "r2", "r3"]),
            element(&["r2", "r3"]),
            element(&["r3"]),
            element(&[]),
            proptest::option::of(element(&["r1", "r2", "r3"])),
        )
            .prop_map(|(r0, r1, r2, r3, more)| {
                let more = more.map(|m| format!("r0 =/ {m}\n")).unwrap_or_default();
                format!("r0 = {r0}\n{more}r1 = {r1}\nr2 = {r2}\nr3 = {r3}\n")
            })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 300,
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// The compiled matcher accepts exactly what a backtracking
        /// reading of the grammar accepts: the templates, the aliases and
        /// the expansion change nothing.
        #[test]
        fn the_expansion_matches_what_the_grammar_says(
            text in grammar(),
            inputs in proptest::collection::vec("[abcAB01-]{0,6}", 12),
        ) {
            // Only a limit may refuse these grammars.
            let compiled = match compile(&text, None) {
                Ok(c) => c,
                Err(e) if e.message.contains("(limit MAX_ABNF_") => return Ok(()),
                Err(e) => return Err(proptest::test_runner::TestCaseError::fail(format!("{e}\n{text}"))),
            };
            let matcher = match crate::rules::Matcher::new(&compiled.pattern) {
                Ok(m) => m,
                Err(e) if e.contains("(limit MAX_") => return Ok(()),
                Err(e) => return Err(proptest::test_runner::TestCaseError::fail(format!("{e}\n{text}"))),
            };
            let user = dedent(&text);
            let sources = [Source::new(CORE, false), Source::new(&user, true)];
            let mut g = Grammar::default();
            g.parse(&sources[0], 0).unwrap();
            g.parse(&sources[1], 1).unwrap();
            let start = &g.rules[g.index["r0"]];
            for input in &inputs {
                let want = ends(&g, &sources, &start.node, start.source, input.as_bytes(), &[0]).contains(&input.len());
                let got = matcher.check(input.as_bytes()).is_ok();
                proptest::prop_assert_eq!(got, want, "{:?} on {:?}\npattern {}", input, text, compiled.pattern);
            }
        }
    }
}
