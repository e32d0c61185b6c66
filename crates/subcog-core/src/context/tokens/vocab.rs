//! The cl100k vocabulary, compiled into the binary by the build script and read in place,
//! and the byte-pair merge that counts the tokens of one pre-tokenizer piece.

use super::layout::{HEADER_WORDS, MAGIC, hash};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/cl100k.table"));

fn word(bytes: &[u8], index: usize) -> Option<u32> {
    let at = index.checked_mul(4)?;
    let w: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
    Some(u32::from_le_bytes(w))
}

/// The rank (token id) of `bytes` if the vocabulary has it.
pub(super) fn rank(bytes: &[u8]) -> Option<u32> {
    if word(TABLE, 0)? != MAGIC {
        return None;
    }
    let n = word(TABLE, 1)? as usize;
    let slots = word(TABLE, 2)? as usize;
    let offsets = HEADER_WORDS;
    let table = offsets + n + 1;
    let blob = TABLE.get(4 * (table + slots)..)?;
    let mask = slots.checked_sub(1)?;
    let mut slot = (hash(bytes) as usize) & mask;
    for _ in 0..slots {
        let entry = word(TABLE, table + slot)?;
        let id = entry.checked_sub(1)?;
        let start = word(TABLE, offsets + id as usize)? as usize;
        let end = word(TABLE, offsets + id as usize + 1)? as usize;
        if blob.get(start..end)? == bytes {
            return Some(id);
        }
        slot = (slot + 1) & mask;
    }
    None
}

/// Reusable buffers for counting many pieces.
#[derive(Default)]
pub(super) struct Merger {
    /// Start of the next part, per part start (`len` for the last one).
    next: Vec<usize>,
    /// Start of the previous part, per part start.
    prev: Vec<usize>,
    /// Whether a part still starts at this byte.
    alive: Vec<bool>,
    /// Candidate merges: (rank of the pair, start of its left part, end of its right part).
    heap: BinaryHeap<Reverse<(u32, usize, usize)>>,
}

impl Merger {
    /// Tokens in one piece: start from single bytes and repeatedly merge the adjacent pair
    /// of lowest rank (the leftmost of equals) until no pair is in the vocabulary. This is
    /// tiktoken's definition, run with a heap so a long piece costs n log n, not n².
    pub(super) fn count_piece(&mut self, piece: &[u8]) -> usize {
        let len = piece.len();
        if len <= 1 || rank(piece).is_some() {
            return len.min(1);
        }
        self.next.clear();
        self.next.extend(1..=len);
        self.prev.clear();
        self.prev.extend((0..len).map(|i| i.saturating_sub(1)));
        self.alive.clear();
        self.alive.resize(len, true);
        self.heap.clear();
        for start in 0..len - 1 {
            self.push(piece, start, start + 2);
        }
        let mut parts = len;
        while let Some(Reverse((_, left, end))) = self.heap.pop() {
            let Some(&right) = self.next.get(left) else {
                continue;
            };
            // Stale: the left part is gone or has grown since this pair was seen.
            if !self.alive.get(left).copied().unwrap_or(false) || self.next.get(right).copied() != Some(end) {
                continue;
            }
            if let Some(a) = self.alive.get_mut(right) {
                *a = false;
            }
            self.next[left] = end;
            if end < len {
                self.prev[end] = left;
                let after = self.next[end];
                self.push(piece, left, after);
            }
            if left > 0 {
                let before = self.prev[left];
                self.push(piece, before, end);
            }
            parts -= 1;
        }
        parts
    }

    fn push(&mut self, piece: &[u8], left: usize, end: usize) {
        if let Some(r) = piece.get(left..end).and_then(rank) {
            self.heap.push(Reverse((r, left, end)));
        }
    }
}
