//! Embeds every `migrations/NNNN_name.sql` file in the library, in order, so a new
//! migration can never be left out of the binary; and writes the cl100k vocabulary as a
//! table the token counter reads in place (no start-up cost, see `context::tokens`).

use std::fmt::Write as _;
use std::{env, fs, path::Path};

#[path = "src/context/tokens/layout.rs"]
mod layout;

fn main() {
    migrations();
    vocabulary();
}

/// Writes `OUT_DIR/cl100k.table` in the layout of `context::tokens::layout`.
fn vocabulary() {
    println!("cargo:rerun-if-changed=src/context/tokens/layout.rs");
    let bpe = &bpe_openai::cl100k_base().bpe;
    let n = bpe.num_tokens();
    let slots = (2 * n).next_power_of_two();
    let mask = slots - 1;
    let mut offsets = Vec::with_capacity(n + 1);
    let mut blob = Vec::new();
    let mut table = vec![0u32; slots];
    for id in 0..n {
        let id32 = u32::try_from(id).expect("fewer than 2^32 tokens");
        let bytes = bpe.token_bytes(id32);
        offsets.push(u32::try_from(blob.len()).expect("blob under 4 GiB"));
        blob.extend_from_slice(bytes);
        let mut slot = (layout::hash(bytes) as usize) & mask;
        while table[slot] != 0 {
            slot = (slot + 1) & mask;
        }
        table[slot] = id32 + 1;
    }
    offsets.push(u32::try_from(blob.len()).expect("blob under 4 GiB"));
    let mut out = Vec::with_capacity(4 * (layout::HEADER_WORDS + n + 1 + slots) + blob.len());
    let header = [
        layout::MAGIC,
        u32::try_from(n).expect("token count"),
        u32::try_from(slots).expect("slot count"),
    ];
    for word in header.iter().chain(&offsets).chain(&table) {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&blob);
    let dest = Path::new(&env::var("OUT_DIR").expect("OUT_DIR set")).join("cl100k.table");
    fs::write(dest, out).expect("write cl100k.table");
}

fn migrations() {
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
