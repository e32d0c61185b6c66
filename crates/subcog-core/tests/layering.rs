//! The layering of `subcog-core`: the storage layer and the value types it is made of
//! depend on nothing above them, so a second backend is a module beside `store/sqlite`,
//! not a change across the crate. Read from the sources, so a new `use` that breaks the
//! layering fails here.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What each low-level part may use of the crate (besides itself).
const LAYERS: &[(&str, &[&str])] = &[
    ("model", &["content", "entities", "temporal", "timestamp"]),
    ("timestamp.rs", &["model"]),
    ("secrets", &["model"]),
    ("private.rs", &[]),
    ("content.rs", &[]),
    ("vector", &["embed"]),
    ("bm25.rs", &[]),
    ("temporal/mod.rs", &["model", "timestamp"]),
    ("temporal/resolve.rs", &[]),
    ("temporal/tense.rs", &[]),
    (
        "store",
        &[
            "bm25",
            "content",
            "embed",
            "model",
            "private",
            "temporal",
            "timestamp",
            "vector",
        ],
    ),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn files(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut out = Vec::new();
    for entry in std::fs::read_dir(path).expect("read dir") {
        let p = entry.expect("entry").path();
        if p.is_dir() {
            out.extend(files(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
    out
}

/// The top-level modules a file names as `crate::<module>`, outside its tests.
fn uses(file: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(file).expect("read source");
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.insert(name);
        }
    }
    out
}

#[test]
fn low_layers_depend_on_nothing_above_them() {
    let mut broken = Vec::new();
    for (part, allowed) in LAYERS {
        let own = part.trim_end_matches(".rs").split('/').next().unwrap_or(part);
        for file in files(&src().join(part)) {
            // The conformance suite and `*tests.rs` files are test modules; they may use
            // whatever they test with.
            let test_module = file
                .file_name()
                .is_some_and(|n| n.to_string_lossy().ends_with("tests.rs"));
            if file.ends_with("store/conformance.rs") || test_module {
                continue;
            }
            for used in uses(&file) {
                if used != own && !allowed.contains(&used.as_str()) {
                    broken.push(format!("{} uses crate::{used}", file.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "layering broken:\n{}", broken.join("\n"));
}
