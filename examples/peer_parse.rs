//! The peer baseline of `bench/batch.sh`: a parse-only loop over a corpus
//! with the crates.io `urn` crate (borrowed `UrnSlice`, no allocation per
//! URN), printing how many lines parsed.

use std::io::{self, BufRead, BufReader};

fn main() -> io::Result<()> {
    let mut reader = BufReader::with_capacity(1 << 16, io::stdin().lock());
    let mut line = String::new();
    let (mut total, mut ok) = (0u64, 0u64);
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            break;
        }
        total += 1;
        let text = line.trim_end_matches(['\n', '\r']);
        if urn::UrnSlice::try_from(text).is_ok() {
            ok += 1;
        }
    }
    println!("{ok} of {total} parsed");
    Ok(())
}
