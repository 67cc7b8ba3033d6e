//! The library's own sinks: the JSON objects of `urnreg check --format
//! jsonl` (or the elements of a JSON array), for every input, the invalid
//! ones, or none (counts only).

use super::Sink;
use crate::Report;

/// Which inputs a sink writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// Every input.
    All,
    /// Only the invalid ones.
    Invalid,
    /// None: only the [`super::Summary`] counts.
    None,
}

impl Shown {
    /// Returns true if and only if `report` is written.
    #[inline]
    pub fn shows(self, report: &Report<'_, '_>) -> bool {
        match self {
            Shown::All => true,
            Shown::Invalid => !report.is_valid(),
            Shown::None => false,
        }
    }
}

/// Writes each shown report as the JSON object of `check --format jsonl`
/// ([`Report::write_json`], with `line`).
#[derive(Clone, Copy, Debug)]
pub struct Json {
    shown: Shown,
    array: bool,
}

impl Json {
    /// One object per line, each followed by `\n`.
    pub fn lines(shown: Shown) -> Json {
        Json { shown, array: false }
    }

    /// Elements of one JSON array: each object is preceded by `,\n`; the
    /// writer opens the array, drops the very first comma and closes it.
    pub fn array_elements(shown: Shown) -> Json {
        Json { shown, array: true }
    }

    /// Which inputs it writes.
    pub fn shown(&self) -> Shown {
        self.shown
    }
}

impl Sink for Json {
    type Out = Vec<u8>;

    fn clear(&self, out: &mut Vec<u8>) {
        out.clear();
        // A chunk of huge lines must not keep its memory for the next.
        if out.capacity() > 4 << 20 {
            *out = Vec::with_capacity(1 << 20);
        }
    }

    #[inline]
    fn record(&self, report: &Report<'_, '_>, line: Option<u64>, out: &mut Vec<u8>) {
        if !self.shown.shows(report) {
            return;
        }
        if self.array {
            out.extend_from_slice(b",\n");
            report.write_json(out, line);
        } else {
            report.write_json(out, line);
            out.push(b'\n');
        }
    }

    fn held(&self, out: &Vec<u8>) -> usize {
        out.len()
    }
}
