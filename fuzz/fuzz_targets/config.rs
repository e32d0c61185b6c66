//! A config file and `SUBCOG_*` variables with any content: settings or a clear error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let path = std::path::Path::new("/fuzz/config.toml");
    let _ = subcog_core::config::load(Some((path, &text)), &[], &[]);
    // The same bytes as the value of a few variables (split on the first newline).
    let (name, value) = text.split_once('\n').unwrap_or(("SUBCOG_RECALL_DEFAULT_LIMIT", &text));
    let env = vec![
        (format!("SUBCOG_{}", name.trim().to_uppercase()), value.to_string()),
        ("SUBCOG_STORAGE_BUSY_TIMEOUT_MS".to_string(), value.to_string()),
    ];
    let _ = subcog_core::config::load(None, &env, &[]);
});
