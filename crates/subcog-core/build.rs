//! Embeds every `migrations/NNNN_name.sql` file in the library, in order, so a new
//! migration can never be left out of the binary.

use std::fmt::Write as _;
use std::{env, fs, path::Path};

fn main() {
    println!("cargo:rerun-if-changed=migrations");
    // Read at run time: a build script compiled for another checkout sharing this target
    // directory must still find this checkout's migrations.
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR set");
    let dir = Path::new(&manifest).join("migrations");
    let mut files: Vec<(u32, String, String)> = Vec::new();
    for entry in fs::read_dir(&dir).expect("migrations directory exists") {
        let path = entry.expect("readable entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let Some(stem) = name.strip_suffix(".sql") else {
            continue;
        };
        let (num, label) = stem.split_once('_').expect("migration named NNNN_label.sql");
        let version: u32 = num.parse().expect("migration number");
        println!("cargo:rerun-if-changed={}", path.display());
        files.push((version, label.to_string(), path.display().to_string()));
    }
    files.sort();
    for (i, (version, _, _)) in files.iter().enumerate() {
        assert_eq!(
            *version as usize,
            i + 1,
            "migrations must be numbered 1, 2, 3... without gaps"
        );
    }
    let mut out = String::from(
        "/// Embedded migrations: (version, label, SQL).\npub(crate) const MIGRATIONS: &[(u32, &str, &str)] = &[\n",
    );
    for (version, label, path) in &files {
        writeln!(out, "    ({version}, {label:?}, include_str!({path:?})),").expect("write to string");
    }
    out.push_str("];\n");
    let dest = Path::new(&env::var("OUT_DIR").expect("OUT_DIR set")).join("migrations.rs");
    fs::write(dest, out).expect("write migrations.rs");
}
