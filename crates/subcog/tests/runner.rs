//! All CLI integration tests, compiled as one test binary (fast to link, one place to
//! see them). Each module runs the real `subcog` binary in a temp environment.

mod common;

mod test_capture_recall;
mod test_concurrency;
mod test_config;
mod test_consolidate;
mod test_errors;
mod test_hooks;
mod test_llm;
mod test_manage;
mod test_mcp;
mod test_notes;
mod test_observe;
#[cfg(feature = "otlp")]
mod test_otlp;
#[cfg(feature = "postgres")]
mod test_postgres;
mod test_semantic;
mod test_sync;
mod test_temporal;
mod test_transfer;
mod test_ui;
#[cfg(unix)]
mod test_warm;

/// Fails when a `test_*.rs` file exists that is not listed above.
#[test]
fn every_test_file_is_wired_in() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let runner = std::fs::read_to_string(dir.join("runner.rs")).expect("runner.rs");
    for entry in std::fs::read_dir(&dir).expect("tests dir") {
        let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_prefix("test_").and_then(|n| n.strip_suffix(".rs")) {
            assert!(
                runner.contains(&format!("mod test_{stem};")),
                "tests/{name} is not listed in runner.rs"
            );
        }
    }
}
