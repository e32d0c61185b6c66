//! Git notes from any peer: memory notes, meta notes and record notes, as raw bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use subcog_core::notes::format::{MetaRecord, parse_memory_note, parse_record};

fuzz_target!(|data: &[u8]| {
    let anchor = git2::Oid::hash_object(git2::ObjectType::Blob, b"subcog memory fuzz").unwrap_or(git2::Oid::ZERO_SHA1);
    if let Ok(memory) = parse_memory_note(data, anchor, 1 << 16) {
        // What parsed is written back the way subcog writes notes, and must read again.
        let text = subcog_core::notes::format::memory_note(&memory);
        let own = subcog_core::notes::Anchor::memory(&memory.id.to_string()).oid;
        assert!(parse_memory_note(text.as_bytes(), own, 1 << 20).is_ok(), "a note subcog wrote must read back");
    }
    let _ = MetaRecord::parse(data, anchor);
    let _ = parse_record::<serde_json::Value>(data, "summary");
    let _ = parse_record::<serde_json::Value>(data, "edge");
    let _ = parse_record::<serde_json::Value>(data, "run");
});
