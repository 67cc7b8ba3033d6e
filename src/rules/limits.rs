//! What a `[rules]` table may ask of urnreg: the limits on compiling a
//! namespace's NSS syntax.
//!
//! Rules arrive in registration files, requests and snapshots, which anyone
//! can write, and are compiled by `lint`, `request`, `revise` and `import`.
//! Within these limits any rule text compiles, or is refused with an error
//! that names the limit it exceeds, in bounded time and memory: about a
//! second and 64 MB for the largest text accepted ([`MAX_ABNF_LEN`]). Every
//! step is near-linear in the size of the text, and no step recurses deeper
//! than a limit checked before it recurses.
//!
//! The limits are part of the contract: a rule that compiles today compiles
//! in every later version. They are far above what registered namespaces
//! use: the largest grammar in `registry/` (ietf) is 353 bytes of 10 rules
//! and expands to a 1,255-byte pattern; the deepest (ietf, 3gpp2) nests 10
//! deep expanded; the largest repetition count is 34 (mrn).

/// The largest ABNF text (`[rules.syntax] abnf`, or the ABNF that `lint`
/// finds in a Syntax field), in bytes: 1 MiB.
pub const MAX_ABNF_LEN: usize = 1 << 20;

/// The most rules an ABNF text may define (each `name =` or `name =/` line
/// counts once); the predefined core rules do not count.
pub const MAX_ABNF_RULES: usize = 10_000;

/// How deeply an ABNF grammar may nest: groups `( )` and options `[ ]`
/// inside each other in the text, and, once every rule reference is
/// expanded, alternations, concatenations, repetitions and strings inside
/// each other.
pub const MAX_ABNF_NESTING: usize = 64;

/// The largest regular expression an ABNF grammar may expand to, in bytes
/// (every rule reference is inlined, so a rule used twice counts twice):
/// 256 KiB.
pub const MAX_ABNF_EXPANSION: usize = 256 * 1024;

/// The largest repetition count: `n`, `n*` and `*m` in ABNF (RFC 5234
/// section 3.6), `{n}`, `{n,}` and `{n,m}` in a regular expression.
/// Unbounded repetition (`*`, `1*`, `+`) is always allowed.
pub const MAX_REPETITION: u32 = 1_000;

/// The longest regular expression (`[rules.syntax] regex`), in bytes:
/// 64 KiB.
pub const MAX_REGEX_LEN: usize = 64 * 1024;

/// How deeply a regular expression may nest (groups, classes,
/// repetitions, alternations and concatenations: the `nest_limit` of
/// regex-syntax, whose default is the same).
pub const MAX_REGEX_NESTING: u32 = 250;

/// The heap the NFA of an NSS syntax may use, in bytes: 8 MiB.
pub const MAX_NFA_BYTES: usize = 8 << 20;

/// The size of the DFA an NSS syntax compiles to, in bytes: 2 MiB (every
/// namespace's DFA stays in memory while URNs are checked; the largest in
/// `registry/` is far below 1 MiB).
pub const MAX_DFA_BYTES: usize = 2 << 20;

/// The working memory used to build a DFA (the NFA state sets of its
/// states), in bytes: 1 MiB. Building a DFA takes time in proportion to
/// this memory and more, so this limit is what bounds the time of the
/// slowest patterns. Found by fuzzing, in a release build:
/// `(?:\A|a|\B|(\B)|b|c|[d-z]){1000}` took 1.8 s with 8 MiB, 0.15 s with
/// 1 MiB; `1000( 1*( pchar ) )` 1.5 s with 2 MiB, 0.25 s with 1 MiB.
pub const MAX_DETERMINIZE_BYTES: usize = 1 << 20;
