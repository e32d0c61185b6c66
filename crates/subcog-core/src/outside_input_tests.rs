//! Property tests of every parser that takes bytes from outside the process: a hook's
//! stdin, git notes (from any peer), time expressions, the config file, JSONL imports,
//! capture markers, and the quarantine and secret scanners. Whatever arrives, they answer
//! with a value or an error and never panic; a note subcog wrote reads back as written.
//! Inputs mix arbitrary text with the fragments each format is made of, so the generator
//! reaches deep into the parsers rather than failing at the first byte.

use chrono::{NaiveDate, TimeZone, Utc};
use proptest::prelude::*;

/// Pieces of every format the parsers read, joined at random with arbitrary text.
fn fragments() -> impl Strategy<Value = String> {
    let pieces = prop_oneof![
        Just("+++\n".to_string()),
        Just("subcog = \"memory/1\"\n".to_string()),
        Just("id = \"01HAAAAAAAAAAAAAAAAAAAAAAA\"\n".to_string()),
        Just("namespace = \"decisions\"\nstatus = \"quarantined\"\n".to_string()),
        Just("created_at = \"2024-02-30T25:61:00Z\"\n".to_string()),
        Just("[storage]\ndata_dir = ".to_string()),
        Just("[recall]\ndefault_limit = -1\n".to_string()),
        Just("{\"session_id\": ".to_string()),
        Just("\"prompt\": [\"".to_string()),
        Just("{\"content\": \"".to_string()),
        Just("\", \"namespace\": 7}\n".to_string()),
        Just("[decision] ".to_string()),
        Just("<subcog-context>".to_string()),
        Just("last Tuesday ".to_string()),
        Just("the week before last ".to_string()),
        Just("on 31/02/2024 ".to_string()),
        Just("in 99999999999 days ".to_string()),
        Just("Q5 2024 ".to_string()),
        Just("-----BEGIN PRIVATE KEY-----\n".to_string()),
        Just("%E2%80%8B%ZZ".to_string()),
        Just("SWdub3Jl".to_string()),
        Just("\u{200b}\u{e0041}\u{0332}ｉ".to_string()),
        "\\PC{0,24}",
        "[0-9:/.-]{0,12}",
    ];
    prop::collection::vec(pieces, 0..24).prop_map(|v| v.concat())
}

fn anchor() -> git2::Oid {
    git2::Oid::hash_object(git2::ObjectType::Blob, b"subcog memory 01HAAAAAAAAAAAAAAAAAAAAAAA\n")
        .unwrap_or(git2::Oid::ZERO_SHA1)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn hook_stdin_never_panics(text in fragments()) {
        let _ = crate::hooks::HookInput::from_json(&text);
        let _ = crate::hooks::markers::find(&text);
        let _ = crate::hooks::markers::strip_injected(&text);
    }

    #[test]
    fn notes_from_any_peer_never_panic(bytes in fragments().prop_map(String::into_bytes), raw in prop::collection::vec(any::<u8>(), 0..300)) {
        for b in [&bytes, &raw] {
            let _ = crate::notes::format::parse_memory_note(b, anchor(), 4096);
            let _ = crate::notes::format::MetaRecord::parse(b, anchor());
            let _ = crate::notes::format::parse_record::<serde_json::Value>(b, "summary");
        }
    }

    #[test]
    fn a_note_subcog_wrote_reads_back_as_written(content in "\\PC{1,200}", tags in prop::collection::vec("[a-z0-9-]{1,12}", 0..4)) {
        prop_assume!(!content.trim().is_empty());
        let ns = crate::model::Namespace::parse("decisions").map_err(|e| TestCaseError::fail(e.to_string()))?;
        let mut m = crate::model::Memory::new(content.trim(), ns, Utc::now());
        // As subcog writes them: tags normalized at capture (lower case, no duplicates).
        let Ok(tags) = crate::model::normalize_tags(&tags) else { return Ok(()) };
        m.tags = tags;
        m.status = crate::model::Status::Quarantined;
        let text = crate::notes::format::memory_note(&m);
        let anchor = crate::notes::Anchor::memory(&m.id.to_string()).oid;
        let back = crate::notes::format::parse_memory_note(text.as_bytes(), anchor, 1 << 20)
            .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
        prop_assert_eq!(crate::notes::format::memory_note(&back), text);
        prop_assert_eq!(back.status, crate::model::Status::Quarantined);
    }

    #[test]
    fn time_expressions_never_panic(text in fragments(), days in -200_000i64..200_000) {
        let day = NaiveDate::from_ymd_opt(2024, 6, 15).and_then(|d| d.checked_add_signed(chrono::Duration::days(days)));
        let day = day.unwrap_or_default();
        for order in [crate::temporal::resolve::DateOrder::Mdy, crate::temporal::resolve::DateOrder::Dmy] {
            let _ = crate::temporal::resolve::resolve_all(&text, day, order);
        }
        let now = Utc.with_ymd_and_hms(2024, 6, 15, 12, 0, 0).single().unwrap_or_default();
        let _ = crate::temporal::query_range(&text, now);
        let _ = crate::temporal::period(&text, now);
        let _ = crate::temporal::bound(&text, now, crate::temporal::Bound::Start);
    }

    #[test]
    fn config_files_and_variables_never_panic(text in fragments(), value in "\\PC{0,40}") {
        let path = std::path::Path::new("/tmp/config.toml");
        let _ = crate::config::load(Some((path, &text)), &[], &[]);
        let env = [
            ("SUBCOG_RECALL_DEFAULT_LIMIT".to_string(), value.clone()),
            ("SUBCOG_STORAGE_DATA_DIR".to_string(), value.clone()),
            ("SUBCOG_DATABASE_URL".to_string(), value),
        ];
        let _ = crate::config::load(None, &env, &[]);
    }

    #[test]
    fn imports_never_panic(text in fragments()) {
        let _ = crate::transfer::parse_jsonl(&text);
    }

    #[test]
    fn scanners_never_panic_and_redaction_settles(text in fragments()) {
        let _ = crate::quarantine::assess(&text);
        let once = crate::secrets::redact(&text, true);
        let twice = crate::secrets::redact(&once.text, true);
        prop_assert_eq!(once.text, twice.text);
    }
}
