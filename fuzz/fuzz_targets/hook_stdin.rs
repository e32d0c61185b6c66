//! A hook's stdin, as Claude Code (or anything else) writes it, and the capture markers
//! and injected blocks found in a prompt: a value or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = subcog_core::hooks::HookInput::from_json(&text);
    let _ = subcog_core::hooks::markers::find(&text);
    let _ = subcog_core::hooks::markers::strip_injected(&text);
});
