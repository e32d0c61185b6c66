//! Token counts with a real tokenizer: OpenAI's cl100k_base BPE. Claude's own tokenizer
//! is not public; cl100k is the common stand-in and counts code and English within a few
//! percent of it.
//!
//! The counter is ours so that it costs nothing to start: a hook must answer in 50 ms and
//! the ready-made crates spend 17-30 ms building their tables in every process. The build
//! script writes the vocabulary (taken from `bpe-openai`) as a hash table that is compiled
//! into the binary and read in place ([`layout`]); text is split with cl100k's pre-tokenizer
//! pattern and each piece merged by rank, as tiktoken defines the encoding
//! (`vocab::count_piece`). The tests hold the counts equal to `bpe-openai`'s.

pub mod layout;
mod split;
mod vocab;

/// Prepares the pre-tokenizer on another thread, so it is ready when counting begins.
pub fn warm_up() {
    split::warm_up();
}

/// The number of cl100k tokens in `text`.
pub fn count(text: &str) -> usize {
    let mut merger = vocab::Merger::default();
    split::pieces(text)
        .map(|piece| merger.count_piece(piece.as_bytes()))
        .sum()
}

#[cfg(test)]
mod tests;
