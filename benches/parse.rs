//! Parser and equivalence-key throughput (criterion), over short, long and
//! escape-heavy URNs. `cargo bench --bench parse`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use urnreg::Urn;

fn inputs() -> Vec<(&'static str, String)> {
    vec![
        ("short", "urn:isbn:0451450523".to_string()),
        (
            "uuid",
            "urn:uuid:6e8bc430-9c3a-11d9-9669-0800200c9a66".to_string(),
        ),
        (
            "components",
            "URN:Example:foo-bar-baz-qux?+CCResolve:cc=uk?=lat=51.5&lon=0#somepart".to_string(),
        ),
        ("long", format!("urn:example:{}", "abcdefghij/".repeat(50))),
        ("escapes", format!("urn:example:{}", "%e2%82%ac%2C%41".repeat(40))),
    ]
}

fn bench(c: &mut Criterion) {
    let mut parse = c.benchmark_group("parse");
    for (name, text) in inputs() {
        parse.throughput(Throughput::Bytes(text.len() as u64));
        parse.bench_function(name, |b| b.iter(|| Urn::parse(black_box(&text)).is_ok()));
    }
    parse.finish();

    let mut key = c.benchmark_group("equivalence_key");
    for (name, text) in inputs() {
        let urn = Urn::parse(&text).expect("bench input parses");
        key.throughput(Throughput::Bytes(text.len() as u64));
        key.bench_function(name, |b| b.iter(|| black_box(&urn).equivalence_key().len()));
    }
    key.finish();

    let mut warnings = c.benchmark_group("parse_and_warnings");
    for (name, text) in inputs() {
        warnings.throughput(Throughput::Bytes(text.len() as u64));
        warnings.bench_function(name, |b| {
            b.iter(|| {
                let urn = Urn::parse(black_box(&text)).expect("parses");
                let mut n = 0;
                urn.for_each_warning(|_| n += 1);
                n
            })
        });
    }
    warnings.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
