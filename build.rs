//! Embeds `registry/*.toml` and `migrations/*.sql` in the binary, so that a
//! fresh install works with no files around it.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn embed(dir: &str, ext: &str, out_name: &str) {
    println!("cargo:rerun-if-changed={dir}");
    let root = Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap()).join(dir);
    let mut names: Vec<String> = fs::read_dir(&root)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(ext))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut code = String::from("&[\n");
    for name in &names {
        let path = root.join(name);
        println!("cargo:rerun-if-changed={}", path.display());
        writeln!(
            code,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .unwrap();
    }
    code.push(']');
    let out = Path::new(&env::var("OUT_DIR").unwrap()).join(out_name);
    fs::write(out, code).unwrap();
}

fn main() {
    embed("registry", ".toml", "registry_files.rs");
    embed("migrations", ".sql", "migration_files.rs");
}
