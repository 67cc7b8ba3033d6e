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

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

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

/// The largest regular expression a grammar may expand to.
const MAX_PATTERN: usize = 256 * 1024;

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

#[derive(Clone, Debug)]
enum Node {
    Alt(Vec<Node>),
    Cat(Vec<Node>),
    Rep(u32, Option<u32>, Box<Node>),
    Ref(String, usize, usize),
    /// Bytes; case-insensitive when the flag is set.
    Lit(Vec<u8>, bool),
    Range(u32, u32),
}

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
    /// Line and column of each byte, to report errors where they are.
    line_starts: &'a [usize],
}

impl Parser<'_> {
    fn err(&self, message: impl Into<String>) -> AbnfError {
        let line = self.line_starts.partition_point(|s| *s <= self.pos);
        let col = self.pos - self.line_starts[line - 1] + 1;
        AbnfError {
            line,
            column: col,
            message: message.into(),
        }
    }

    /// Skips white space, line breaks (continuations) and comments.
    fn skip_ws(&mut self) {
        while self.pos < self.src.len() {
            match self.src[self.pos] {
                b' ' | b'\t' | b'\r' | b'\n' => self.pos += 1,
                b';' => {
                    while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
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

    fn number(&mut self) -> Option<u32> {
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        std::str::from_utf8(&self.src[start..self.pos]).ok()?.parse().ok()
    }

    fn repetition(&mut self) -> Result<Node, AbnfError> {
        let min = self.number();
        let (min, max) = if self.peek() == Some(b'*') {
            self.pos += 1;
            (min.unwrap_or(0), self.number())
        } else {
            match min {
                Some(n) => (n, Some(n)),
                None => return self.element(),
            }
        };
        if max.is_some_and(|m| m < min) {
            return Err(self.err(format!(
                "repetition {min}*{} has its bounds the wrong way round",
                max.unwrap_or(0)
            )));
        }
        let el = self.element()?;
        Ok(Node::Rep(min, max, Box::new(el)))
    }

    fn element(&mut self) -> Result<Node, AbnfError> {
        let Some(b) = self.peek() else {
            return Err(self.err("expected an element, found the end"));
        };
        match b {
            b'(' | b'[' => {
                self.pos += 1;
                let inner = self.alternation()?;
                self.skip_ws();
                let close = if b == b'(' { b')' } else { b']' };
                if self.peek() != Some(close) {
                    return Err(self.err(format!("expected '{}'", close as char)));
                }
                self.pos += 1;
                Ok(if b == b'[' {
                    Node::Rep(0, Some(1), Box::new(inner))
                } else {
                    inner
                })
            }
            b'"' => self.char_val(true),
            b'%' => self.percent(),
            b'<' => Err(self.err("prose (<...>) cannot be compiled: write it as ABNF")),
            b if b.is_ascii_alphabetic() => {
                let (line, col) = (self.err("").line, self.err("").column);
                let start = self.pos;
                while self
                    .peek()
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'-')
                {
                    self.pos += 1;
                }
                let name = String::from_utf8_lossy(&self.src[start..self.pos]).to_ascii_lowercase();
                Ok(Node::Ref(name, line, col))
            }
            other => Err(self.err(format!("unexpected '{}'", other as char))),
        }
    }

    fn char_val(&mut self, case_insensitive: bool) -> Result<Node, AbnfError> {
        self.pos += 1; // opening quote
        let start = self.pos;
        while let Some(b) = self.peek() {
            if b == b'"' {
                let lit = self.src[start..self.pos].to_vec();
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
        let first = self.digits(radix)?;
        match self.peek() {
            Some(b'-') => {
                self.pos += 1;
                let last = self.digits(radix)?;
                if last < first {
                    return Err(self.err("range with its end before its start"));
                }
                Ok(Node::Range(first, last))
            }
            Some(b'.') => {
                let mut values = vec![first];
                while self.peek() == Some(b'.') {
                    self.pos += 1;
                    values.push(self.digits(radix)?);
                }
                Ok(Node::Cat(values.into_iter().map(|v| Node::Range(v, v)).collect()))
            }
            _ => Ok(Node::Range(first, first)),
        }
    }

    fn digits(&mut self, radix: u32) -> Result<u32, AbnfError> {
        let start = self.pos;
        while self.peek().is_some_and(|b| (b as char).is_digit(radix)) {
            self.pos += 1;
        }
        let text = std::str::from_utf8(&self.src[start..self.pos]).unwrap_or("");
        u32::from_str_radix(text, radix)
            .ok()
            .filter(|v| *v <= 0x10_FFFF)
            .ok_or_else(|| self.err("expected a number"))
    }
}

/// A parsed grammar: rule name (lower case) -> definition.
struct Grammar {
    rules: HashMap<String, Node>,
    /// Rule names in the order they were first defined.
    order: Vec<String>,
}

fn parse_grammar(text: &str, grammar: &mut Grammar) -> Result<(), AbnfError> {
    let src = text.as_bytes();
    let mut line_starts = vec![0];
    line_starts.extend(
        src.iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .map(|(i, _)| i + 1),
    );
    let mut p = Parser {
        src,
        pos: 0,
        line_starts: &line_starts,
    };
    // Each rule starts at the beginning of a line; its elements run until
    // the next line that starts with a rule name.
    let mut rule_starts = Vec::new();
    for &start in &line_starts {
        if src.get(start).is_some_and(|b| b.is_ascii_alphabetic()) {
            rule_starts.push(start);
        } else if let Some(&b) = src.get(start) {
            let rest_blank_or_comment = src[start..]
                .iter()
                .take_while(|b| **b != b'\n')
                .find(|b| !b.is_ascii_whitespace())
                .is_none_or(|b| *b == b';');
            if rule_starts.is_empty() && !rest_blank_or_comment && b != b'\n' {
                p.pos = start;
                return Err(p.err("expected a rule name at the start of the line"));
            }
        }
    }
    for (i, &start) in rule_starts.iter().enumerate() {
        let end = rule_starts.get(i + 1).copied().unwrap_or(src.len());
        p.pos = start;
        let name_start = p.pos;
        while p.peek().is_some_and(|b| b.is_ascii_alphanumeric() || b == b'-') {
            p.pos += 1;
        }
        let name = String::from_utf8_lossy(&src[name_start..p.pos]).to_ascii_lowercase();
        p.skip_ws();
        if p.peek() != Some(b'=') {
            return Err(p.err(format!("expected '=' after the rule name '{name}'")));
        }
        p.pos += 1;
        let incremental = p.peek() == Some(b'/');
        if incremental {
            p.pos += 1;
        }
        // Parse only this rule's slice.
        let sub = Parser {
            src: &src[..end],
            pos: p.pos,
            line_starts: &line_starts,
        };
        let mut sub = sub;
        let node = sub.alternation()?;
        sub.skip_ws();
        if sub.pos < end {
            return Err(sub.err("unexpected text after the rule's elements"));
        }
        match (incremental, grammar.rules.remove(&name)) {
            (true, Some(prev)) => {
                grammar.rules.insert(name, Node::Alt(vec![prev, node]));
            }
            (true, None) => {
                return Err(p.err(format!("'=/' adds to '{name}', which is not defined before")));
            }
            (false, _) => {
                if !grammar.order.contains(&name) {
                    grammar.order.push(name.clone());
                }
                grammar.rules.insert(name, node);
            }
        }
    }
    Ok(())
}

/// Removes the indentation common to all non-blank lines (grammars are
/// often pasted indented, as in registration texts).
/// The indentation common to the non-blank lines of `text`, in bytes.
fn common_indent(text: &str) -> usize {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0)
}

fn dedent(text: &str) -> String {
    let indent = common_indent(text);
    text.lines()
        .map(|l| l.get(indent..).unwrap_or(""))
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
/// recursive rules, and grammars that expand too far.
pub fn compile(text: &str, start: Option<&str>) -> Result<CompiledAbnf, AbnfError> {
    let mut core = Grammar {
        rules: HashMap::new(),
        order: Vec::new(),
    };
    parse_grammar(CORE, &mut core).expect("the core rules parse");
    let mut user = Grammar {
        rules: HashMap::new(),
        order: Vec::new(),
    };
    // Errors are found in the dedented text: their columns are given back
    // the indentation, so that they are columns of `text`.
    let indent = common_indent(text);
    let in_text = |mut e: AbnfError| {
        if e.line > 0 {
            e.column += indent;
        }
        e
    };
    parse_grammar(&dedent(text), &mut user).map_err(in_text)?;
    let start = match start {
        Some(s) => s.to_ascii_lowercase(),
        None => user.order.first().cloned().ok_or_else(|| AbnfError {
            line: 0,
            column: 0,
            message: "the grammar defines no rule".into(),
        })?,
    };
    let mut all = core.rules;
    all.extend(user.rules);
    if !all.contains_key(&start) {
        return Err(AbnfError {
            line: 0,
            column: 0,
            message: format!("the start rule '{start}' is not defined"),
        });
    }
    let mut emitter = Emitter {
        rules: &all,
        done: BTreeMap::new(),
        stack: Vec::new(),
    };
    let pattern = emitter.rule(&start, 0, 0).map_err(in_text)?;
    Ok(CompiledAbnf { pattern, start })
}

struct Emitter<'g> {
    rules: &'g HashMap<String, Node>,
    done: BTreeMap<String, String>,
    stack: Vec<String>,
}

impl Emitter<'_> {
    fn rule(&mut self, name: &str, line: usize, column: usize) -> Result<String, AbnfError> {
        if let Some(p) = self.done.get(name) {
            return Ok(p.clone());
        }
        if self.stack.iter().any(|n| n == name) {
            let mut cycle = self.stack.clone();
            cycle.push(name.to_string());
            let from = cycle.iter().position(|n| n == name).unwrap_or(0);
            return Err(AbnfError {
                line,
                column,
                message: format!(
                    "rule '{name}' is recursive ({}): a linear-time matcher cannot compile it",
                    cycle[from..].join(" -> ")
                ),
            });
        }
        let Some(node) = self.rules.get(name) else {
            return Err(AbnfError {
                line,
                column,
                message: format!("rule '{name}' is not defined"),
            });
        };
        self.stack.push(name.to_string());
        let pattern = self.node(node)?;
        self.stack.pop();
        if pattern.len() > MAX_PATTERN {
            return Err(AbnfError {
                line,
                column,
                message: format!("rule '{name}' expands too far to compile"),
            });
        }
        self.done.insert(name.to_string(), pattern.clone());
        Ok(pattern)
    }

    fn node(&mut self, node: &Node) -> Result<String, AbnfError> {
        Ok(match node {
            Node::Alt(alts) => {
                let parts: Result<Vec<_>, _> = alts.iter().map(|a| self.node(a)).collect();
                format!("(?:{})", parts?.join("|"))
            }
            Node::Cat(items) => {
                let mut out = String::from("(?:");
                for i in items {
                    out.push_str(&self.node(i)?);
                }
                out.push(')');
                out
            }
            Node::Rep(min, max, inner) => {
                let inner = self.node(inner)?;
                match max {
                    Some(max) => format!("(?:{inner}){{{min},{max}}}"),
                    None => format!("(?:{inner}){{{min},}}"),
                }
            }
            Node::Ref(name, line, column) => self.rule(name, *line, *column)?,
            Node::Lit(bytes, ci) => {
                let mut out = String::from("(?:");
                for b in bytes {
                    if *ci && b.is_ascii_alphabetic() {
                        let _ = write!(
                            out,
                            "[{}{}]",
                            b.to_ascii_lowercase() as char,
                            b.to_ascii_uppercase() as char
                        );
                    } else {
                        let _ = write!(out, "\\x{b:02X}");
                    }
                }
                out.push(')');
                out
            }
            Node::Range(lo, hi) => {
                // Values beyond a byte cannot occur in an ASCII NSS.
                let (lo, hi) = ((*lo).min(0xFF), (*hi).min(0xFF));
                format!("[\\x{lo:02X}-\\x{hi:02X}]")
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn incremental_alternatives_and_comments() {
        let c = compile("nss = \"a\" ; first\nnss =/ \"b\"\n  ; a comment line\n", None).unwrap();
        assert!(c.pattern.contains('|'));
    }
}
