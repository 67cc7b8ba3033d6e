//! The second peer of `bench/batch.sh`: the crates.io `urn-rs` crate (a
//! SWAR fork of `urn`), single-threaded, writing `valid<TAB>key` for each
//! line (`1<TAB>urn:nid:nss` with the scheme and NID lower-cased and the
//! `%hh` escapes upper-cased by its parser, or `0<TAB>`): the work of
//! `urnreg normalize --syntax-only`, and the floor `check` is measured on.

use std::io::{self, BufRead, BufReader, BufWriter, Write};

fn main() -> io::Result<()> {
    let mut reader = BufReader::with_capacity(1 << 16, io::stdin().lock());
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            break;
        }
        let text = line.trim_end_matches(['\n', '\r']);
        match urn_rs::UrnSlice::try_from(text) {
            Ok(urn) => {
                out.write_all(b"1\turn:")?;
                out.write_all(urn.nid().as_bytes())?;
                out.write_all(b":")?;
                out.write_all(urn.nss().as_bytes())?;
                out.write_all(b"\n")?;
            }
            Err(_) => out.write_all(b"0\t\n")?,
        }
    }
    out.flush()
}
