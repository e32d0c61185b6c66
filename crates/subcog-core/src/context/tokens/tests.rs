use super::*;
use proptest::prelude::*;

fn reference(text: &str) -> usize {
    bpe_openai::cl100k_base().count(text)
}

#[test]
fn counts_like_cl100k() {
    // Reference counts from tiktoken's cl100k_base.
    assert_eq!(count("hello world"), 2);
    assert_eq!(count(""), 0);
    assert_eq!(count("Use PostgreSQL for primary storage."), 6);
    assert_eq!(count("<subcog-context>\n  <memory id=\"01H\" tier=\"hot\">"), 18);
}

#[test]
fn every_token_of_the_vocabulary_is_found_with_its_rank() {
    let bpe = &bpe_openai::cl100k_base().bpe;
    for id in 0..u32::try_from(bpe.num_tokens()).expect("token count") {
        assert_eq!(vocab::rank(bpe.token_bytes(id)), Some(id), "token {id}");
    }
    assert_eq!(vocab::rank(b"no such token in any vocabulary"), None);
}

#[test]
fn counts_this_repository_like_the_reference() {
    // Real text of every kind we store: prose, Markdown, Rust, SQL, JSON, TOML.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![
        root.join("../../README.md"),
        root.join("../../docs/ARCHITECTURE.md"),
        root.join("../../Cargo.toml"),
    ];
    for dir in ["src/context", "src/hooks", "migrations"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("source dir").flatten() {
            files.push(entry.path());
        }
    }
    let mut checked = 0;
    for path in files.into_iter().filter(|p| p.is_file()) {
        let text = std::fs::read_to_string(&path).expect("utf-8 source");
        assert_eq!(count(&text), reference(&text), "{}", path.display());
        checked += 1;
    }
    assert!(checked > 10, "only {checked} files");
}

#[test]
fn long_pieces_and_unusual_whitespace() {
    let long_word = "x".repeat(5_000);
    let base64ish: String = (0..4_000)
        .map(|i| char::from(b"AZaz09+/"[(i * 7 + i / 3) % 8]))
        .collect();
    for text in [
        long_word.as_str(),
        base64ish.as_str(),
        "   \n\n\t  \r\n  x  ",
        "a  b   c\t\td \u{a0}e",
        "\u{3000}全角スペース\u{3000}と日本語の文章。",
        "emoji 🙂🙂 and ZWJ 👩‍💻 sequences",
        "1234567 12.5e-3 0xdeadBEEF",
        "it's they'RE we've I'M you'll he'd",
        "    ",
        "\n",
    ] {
        assert_eq!(count(text), reference(text), "{text:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn counts_random_text_like_the_reference(
        text in "[a-zA-Z0-9 \t\r\n.,;:'\"<>/=_(){}\\-é中日本🙂ß]{0,120}"
    ) {
        prop_assert_eq!(count(&text), reference(&text));
    }
}
