//! The layout of the cl100k vocabulary table, shared by the build script that writes it
//! and the counter that reads it (`build.rs` includes this file by path).
//!
//! All numbers are little-endian u32: `MAGIC`, the token count `n`, the slot count `m` (a
//! power of two), then `n + 1` offsets into the byte blob (token `id` is
//! `blob[offsets[id]..offsets[id + 1]]`; the id is the token's BPE rank), then `m` hash
//! slots (0 empty, else `id + 1`, linear probing from `hash(bytes) & (m - 1)`), then the
//! blob.

/// First word of the table; a different value means a table of another format.
pub const MAGIC: u32 = 0x6b30_3163;

/// Words before the offsets: magic, token count, slot count.
pub const HEADER_WORDS: usize = 3;

/// FNV-1a over the token's bytes: short keys, no seed needed, same in build and run.
pub fn hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    // FNV's low bits mix poorly for short keys; fold the high half in.
    h ^ (h >> 32)
}
