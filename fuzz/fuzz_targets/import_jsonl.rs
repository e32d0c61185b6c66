//! JSON Lines given to `subcog import`: parsed records (with conversation turns linked) or
//! an error naming the line.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(mut records) = subcog_core::transfer::parse_jsonl(&text) {
        subcog_core::transfer::link_turns(&mut records);
    }
});
