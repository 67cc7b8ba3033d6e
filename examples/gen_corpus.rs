//! Writes a deterministic benchmark corpus of URNs, one per line:
//! `cargo run --release --example gen_corpus -- 1000000 > corpus.txt`.
//!
//! Mixed namespaces (isbn, issn, uuid, oid, ietf, nbn, lex, example with
//! r-, q- and f-components) and about 10% invalid lines.

use std::io::{self, BufWriter, Write};

/// A small deterministic generator (xorshift64*), so every run writes the
/// same corpus.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn digits(&mut self, n: usize) -> String {
        (0..n).map(|_| char::from(b'0' + self.below(10) as u8)).collect()
    }

    fn hex(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b"0123456789abcdef"[self.below(16) as usize]))
            .collect()
    }
}

fn isbn13(rng: &mut Rng) -> String {
    let body = format!("978{}", rng.digits(9));
    let sum: u32 = body
        .bytes()
        .enumerate()
        .map(|(i, b)| u32::from(b - b'0') * if i % 2 == 0 { 1 } else { 3 })
        .sum();
    format!("{body}{}", (10 - sum % 10) % 10)
}

fn issn(rng: &mut Rng) -> String {
    let body = rng.digits(7);
    let sum: u32 = body
        .bytes()
        .enumerate()
        .map(|(i, b)| u32::from(b - b'0') * (8 - i as u32))
        .sum();
    let check = (11 - sum % 11) % 11;
    let check = if check == 10 {
        "X".to_string()
    } else {
        check.to_string()
    };
    format!("{}-{}{check}", &body[..4], &body[4..])
}

fn main() -> io::Result<()> {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut out = BufWriter::new(io::stdout().lock());
    for _ in 0..n {
        let line = match rng.below(20) {
            0..=2 => format!("urn:isbn:{}", isbn13(&mut rng)),
            3 => format!("URN:ISBN:{}-{}", rng.digits(3), rng.digits(9)),
            4..=5 => format!("urn:issn:{}", issn(&mut rng)),
            6..=8 => format!(
                "urn:uuid:{}-{}-{}-{}-{}",
                rng.hex(8),
                rng.hex(4),
                rng.hex(4),
                rng.hex(4),
                rng.hex(12)
            ),
            9..=10 => format!("urn:oid:1.3.6.1.4.1.{}.{}", rng.below(60_000), rng.below(1000)),
            11..=12 => format!("urn:ietf:rfc:{}", rng.below(9999) + 1),
            13 => format!("urn:ietf:params:xml:ns:yang:ietf-{}", rng.hex(6)),
            14 => format!("urn:nbn:fi-fe{}", rng.digits(8)),
            15 => format!(
                "urn:lex:it:stato:legge:2003-09-{:02};{}",
                rng.below(28) + 1,
                rng.below(999)
            ),
            16 => format!(
                "urn:example:{}?+r={}?=q={}#f{}",
                rng.hex(10),
                rng.below(99),
                rng.below(99),
                rng.below(9)
            ),
            17 => format!("urn:example:a%2c{}/b%C3%A9", rng.hex(6)),
            18 => format!("urn:examp1e:{} bad", rng.hex(4)),
            _ => format!("urn:{}:{}", rng.hex(3), rng.hex(8)),
        };
        writeln!(out, "{line}")?;
    }
    out.flush()
}
