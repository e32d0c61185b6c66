//! The quarantine judgement and secret redaction, on any text: never a panic, and
//! redaction settles after one pass (redacting redacted text changes nothing).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = subcog_core::quarantine::assess(&text);
    let once = subcog_core::secrets::redact(&text, true);
    let twice = subcog_core::secrets::redact(&once.text, true);
    assert_eq!(once.text, twice.text, "redaction must settle after one pass");
});
