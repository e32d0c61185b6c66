use crate::common::{TestEnv, test_model_dir};

fn seed(env: &TestEnv) {
    env.capture("decisions", "Use PostgreSQL for primary storage");
    env.capture("learnings", "The CI cache must be keyed by the lockfile hash");
    env.capture("patterns", "Wrap errors with context at module boundaries");
}

#[test]
fn recall_by_meaning_without_shared_words() {
    let env = TestEnv::new().with_model();
    seed(&env);
    let out = env
        .run(&["recall", "which database did we pick", "--json", "--explain"])
        .ok();
    assert!(!out.stderr.contains("keyword recall only"), "{}", out.stderr);
    let v = out.json();
    assert_eq!(v["semantic"], true);
    let top = &v["results"][0];
    assert_eq!(top["content"], "Use PostgreSQL for primary storage");
    assert_eq!(top["explain"]["vector"]["rank"], 1);
    assert!(top["explain"]["bm25"].is_null(), "no keyword in common: {top}");
    let human = env.run(&["recall", "which database did we pick", "--explain"]).ok();
    assert!(
        human
            .stdout
            .lines()
            .next()
            .is_some_and(|l| l.contains("PostgreSQL") && l.contains("vec#1"))
    );
}

#[test]
fn a_tag_never_lifts_a_note_above_the_exact_answer_and_explain_says_why() {
    let env = TestEnv::new().with_model();
    seed(&env);
    env.run(&[
        "capture",
        "-n",
        "context",
        "-t",
        "upload,s3",
        "upload.rs builds the S3 bucket names from the environment: lumen-uploads-staging and lumen-uploads-prod",
    ])
    .ok();
    env.capture("learnings", "The flaky upload test needs two retries");
    env.capture("learnings", "Integration tests run against a local MinIO instead of S3");
    let v = env
        .run(&[
            "recall",
            "how many retries does the flaky upload test need?",
            "--json",
            "--explain",
        ])
        .ok()
        .json();
    let first = &v["results"][0];
    assert_eq!(first["content"], "The flaky upload test needs two retries", "{v}");
    assert_eq!(first["explain"]["bm25"]["rank"], 1, "{first}");
    assert_eq!(first["explain"]["vector"]["rank"], 1, "{first}");
    let tagged = v["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|r| r["content"].as_str().is_some_and(|c| c.starts_with("upload.rs")))
        .expect("the tagged note is found too");
    assert_eq!(tagged["explain"]["tag_boost"], true, "{tagged}");
    assert_eq!(tagged["explain"]["boost_tags"], serde_json::json!(["upload"]));
    assert!(tagged["explain"]["boost"].as_f64() < Some(1.5), "capped: {tagged}");
    // The text view names every factor: channels, the boost and its tag, the tier.
    let human = env
        .run(&[
            "recall",
            "how many retries does the flaky upload test need?",
            "--explain",
        ])
        .ok()
        .stdout;
    let line = human.lines().find(|l| l.contains("upload.rs")).expect("line");
    assert!(
        line.contains("tag×") && line.contains("[upload]") && line.contains("hot"),
        "{line}"
    );
}

#[test]
fn without_a_model_recall_says_keyword_only() {
    let env = TestEnv::new();
    seed(&env);
    let out = env.run(&["recall", "postgresql", "--json"]).ok();
    assert!(out.stderr.contains("keyword recall only"), "{}", out.stderr);
    let v = out.json();
    assert_eq!(v["semantic"], false);
    assert!(
        v["semantic_unavailable"]
            .as_str()
            .is_some_and(|s| s.contains("subcog model install"))
    );
    assert_eq!(v["count"], 1);
    let status = env.run(&["status", "--json"]).ok().json();
    assert_eq!(status["semantic"], false);
    assert!(env.run(&["status"]).ok().stdout.contains("keyword only"));
}

#[test]
fn model_install_verify_and_a_corrupted_install() {
    let env = TestEnv::new();
    let src = test_model_dir();
    let installed = env
        .run(&["model", "install", "--from", src.to_str().expect("utf8"), "--json"])
        .ok()
        .json();
    assert_eq!(
        installed["sha256"],
        "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
    );
    // The install made the data directory: it and the model's directories are private.
    #[cfg(unix)]
    for dir in [
        env.data.clone(),
        env.data.join("models"),
        env.data.join("models/all-MiniLM-L6-v2"),
    ] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&dir).expect("dir").permissions().mode();
        assert_eq!(mode & 0o077, 0, "{} is {mode:o}", dir.display());
    }
    let status = env.run(&["model", "status", "--json"]).ok().json();
    assert_eq!(status["ready"], true);
    assert!(status["load_ms"].as_f64().is_some());
    env.run(&["model", "verify"]).ok();
    seed(&env);
    let v = env.run(&["recall", "which database did we pick", "--json"]).ok().json();
    assert_eq!(v["semantic"], true);

    // Truncate the installed weights: recall falls back to keywords and says why.
    let weights = env.data.join("models/all-MiniLM-L6-v2/model.safetensors");
    let file = std::fs::OpenOptions::new().write(true).open(&weights).expect("open");
    file.set_len(1000).expect("truncate");
    let out = env.run(&["recall", "postgresql", "--json"]).ok();
    assert!(out.stderr.contains("corrupt"), "{}", out.stderr);
    assert_eq!(out.json()["count"], 1);
    env.run(&["model", "verify"]).fails_with(4);
}

#[test]
fn a_model_with_wrong_weights_is_refused() {
    let env = TestEnv::new();
    let bad = env.root.path().join("bad-model");
    std::fs::create_dir_all(&bad).expect("dir");
    let src = test_model_dir();
    for f in ["config.json", "tokenizer.json"] {
        std::fs::copy(src.join(f), bad.join(f)).expect("copy");
    }
    std::fs::write(bad.join("model.safetensors"), b"these are not the weights").expect("write");
    let out = env.run(&["model", "install", "--from", bad.to_str().expect("utf8")]);
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("sha256"), "{}", out.stderr);
    assert!(!env.data.join("models/all-MiniLM-L6-v2").exists());
}

#[test]
fn reindex_embeds_memories_captured_without_a_model() {
    let env = TestEnv::new();
    seed(&env);
    let env = env.with_model();
    let status = env.run(&["status", "--json"]).ok().json();
    assert_eq!(status["missing_embeddings"], 3);
    let before = env
        .run(&["recall", "which database did we pick", "--json", "--explain"])
        .ok()
        .json();
    assert!(
        before["results"]
            .as_array()
            .is_some_and(|r| r.iter().all(|h| h["explain"]["vector"].is_null()))
    );
    let report = env.run(&["reindex", "--embeddings", "--json"]).ok().json();
    assert_eq!(report["embeddings"]["embedded"], 3);
    assert!(report.get("notes").is_none(), "--embeddings does not read notes");
    let status = env.run(&["status", "--json"]).ok().json();
    assert_eq!(status["missing_embeddings"], 0);
    assert_eq!(status["embeddings"]["sentence-transformers/all-MiniLM-L6-v2 (384d)"], 3);
    let after = env.run(&["recall", "which database did we pick", "--json"]).ok().json();
    assert_eq!(after["results"][0]["content"], "Use PostgreSQL for primary storage");
    // Nothing left to do the second time; --force re-embeds everything.
    assert_eq!(
        env.run(&["reindex", "--embeddings", "--json"]).ok().json()["embeddings"]["embedded"],
        0
    );
    assert_eq!(
        env.run(&["reindex", "--embeddings", "--force", "--json"]).ok().json()["embeddings"]["embedded"],
        3
    );
}

#[test]
fn modes_filter_tiers_before_top_k() {
    let env = TestEnv::new();
    let lines: String = ["hot", "warm", "cold", "archived"]
        .iter()
        .map(|t| {
            format!("{{\"content\":\"release checklist kept {t}\",\"namespace\":\"progress\",\"tier\":\"{t}\"}}\n")
        })
        .collect();
    env.run_stdin(&["import"], &lines).ok();
    let count = |mode: &str| {
        env.run(&["recall", "release checklist", "--mode", mode, "--json"])
            .ok()
            .json()["count"]
            .clone()
    };
    assert_eq!(count("reflexive"), 1);
    assert_eq!(count("standard"), 2);
    assert_eq!(count("deep"), 3);
    assert_eq!(count("exhaustive"), 4);
    let default = env.run(&["recall", "release checklist", "--json"]).ok().json();
    assert_eq!(default["mode"], "standard");
    assert!(
        default["results"]
            .as_array()
            .is_some_and(|r| r.iter().all(|h| h["tier"] != "archived"))
    );
}

#[test]
fn recall_records_activation_unless_told_not_to() {
    let env = TestEnv::new();
    let id = env.capture("decisions", "Adopt semantic versioning for the API");
    env.run(&["recall", "semantic versioning", "--no-touch"]).ok();
    assert_eq!(env.run(&["get", &id, "--json"]).ok().json()["activation_count"], 0);
    env.run(&["recall", "semantic versioning"]).ok();
    env.run(&["recall", "versioning api"]).ok();
    let m = env.run(&["get", &id, "--json"]).ok().json();
    assert_eq!(m["activation_count"], 2);
    assert!(m["last_accessed"].is_string());
}

#[test]
fn batch_recall_answers_one_line_per_query() {
    let env = TestEnv::new().with_model();
    seed(&env);
    let file = env.root.path().join("queries.jsonl");
    std::fs::write(
        &file,
        concat!(
            "{\"query\": \"which database did we pick\", \"limit\": 1}\n",
            "{\"query\": \"cache\", \"namespace\": \"decisions\"}\n",
            "not json\n",
            "{\"query\": \"errors\", \"namespace\": [\"patterns\", \"learnings\"], \"mode\": \"deep\"}\n",
            "{\"query\": \"errors\", \"namespaces\": \"typo\"}\n",
        ),
    )
    .expect("write");
    let out = env
        .run(&["recall", "--queries", file.to_str().expect("utf8"), "--json"])
        .ok();
    let lines: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(lines.len(), 5);
    assert!(
        lines[4]["error"].as_str().is_some_and(|e| e.contains("unknown field")),
        "{}",
        lines[4]
    );
    assert_eq!(lines[0]["count"], 1);
    assert_eq!(lines[0]["results"][0]["content"], "Use PostgreSQL for primary storage");
    assert!(
        lines[1]["results"]
            .as_array()
            .is_some_and(|r| r.iter().all(|h| h["namespace"] == "decisions"))
    );
    assert!(lines[2]["error"].as_str().is_some_and(|e| e.contains("line 3")));
    assert_eq!(lines[3]["mode"], "deep");
    assert_eq!(lines[3]["results"][0]["namespace"], "patterns");
}

#[test]
fn empty_store_huge_memory_and_other_languages() {
    let env = TestEnv::new().with_model();
    assert_eq!(
        env.run(&["recall", "anything at all", "--json"]).ok().json()["count"],
        0
    );
    // A 100 KB memory: stored whole and keyword-searchable to its end; its vector covers
    // the first 256 tokens (documented in docs/ARCHITECTURE.md).
    let big = format!(
        "{} closing remark about zeppelins",
        "The deploy pipeline retries flaky steps. ".repeat(2500)
    );
    assert!(big.len() > 100_000);
    env.run_stdin(&["capture", "-n", "learnings"], &big).ok();
    let hit = env.run(&["recall", "zeppelins", "--json"]).ok().json();
    assert_eq!(hit["count"], 1);
    assert_eq!(hit["results"][0]["content"].as_str().map(str::len), Some(big.len()));
    env.capture("decisions", "Die Datenbank läuft auf PostgreSQL");
    env.capture("decisions", "東京のチームはRustを使っています");
    let de = env
        .run(&["recall", "Welche Datenbank benutzen wir", "--json"])
        .ok()
        .json();
    assert_eq!(de["results"][0]["content"], "Die Datenbank läuft auf PostgreSQL");
    let ja = env.run(&["recall", "東京のチーム", "--json"]).ok().json();
    assert_eq!(ja["results"][0]["content"], "東京のチームはRustを使っています");
}

#[test]
fn locomo_evaluation_meets_the_retrieval_targets() {
    let env = TestEnv::new().with_model();
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/locomo/locomo-dev.json");
    assert!(data.is_file(), "LoCoMo dev split missing at {}", data.display());
    let v = env
        .run(&["eval", "locomo", data.to_str().expect("utf8"), "--json"])
        .ok()
        .json();
    assert_eq!(v["conversations"], 3);
    assert_eq!(v["turns"], 1451);
    assert_eq!(v["semantic"], true);
    let r5 = v["overall"]["recall_at"]["5"].as_f64().expect("R@5");
    let r10 = v["overall"]["recall_at"]["10"].as_f64().expect("R@10");
    assert!(r10 >= 0.80, "recall@10 {r10}");
    assert!(r5 >= 0.70, "recall@5 {r5}");
    // Temporal questions answered by recall --reason without an LLM (issue 7: ≥ 90 %).
    let t = &v["temporal"];
    assert_eq!(t["questions"], 90, "{t}");
    let parseable = t["parseable"].as_u64().expect("parseable");
    assert!(parseable >= 75, "most gold answers are dates: {t}");
    let accuracy = t["accuracy"].as_f64().expect("accuracy");
    assert!(accuracy >= 0.90, "temporal answers {accuracy}: {t}");

    // The plain protocol (no speaker tags, no neighbouring turns handed in): what real
    // captures get, each short turn with the short turns captured just before it as its
    // context. Floors a little under the measured 0.714 / 0.796 (0.615 / 0.694 without
    // that context; docs/EVALUATION.md).
    let v = env
        .run(&["eval", "locomo", data.to_str().expect("utf8"), "--plain", "--json"])
        .ok()
        .json();
    assert_eq!(v["plain"], true);
    assert_eq!(v["context_turns"], 0);
    let r5 = v["overall"]["recall_at"]["5"].as_f64().expect("R@5");
    let r10 = v["overall"]["recall_at"]["10"].as_f64().expect("R@10");
    assert!(r5 >= 0.69, "plain recall@5 {r5}");
    assert!(r10 >= 0.77, "plain recall@10 {r10}");
}

/// A chat set in LongMemEval's shape, pooled and scored on the keyword and time channels:
/// the report, and its turn recall@5 and @10 and session recall-any@5.
fn pooled_keyword_eval(file: &str) -> (serde_json::Value, f64, f64, f64) {
    let env = TestEnv::new();
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(file);
    assert!(data.is_file(), "chat set missing at {}", data.display());
    let v = env
        .run(&[
            "eval",
            "longmemeval",
            data.to_str().expect("utf8"),
            "--no-vectors",
            "--json",
        ])
        .ok()
        .json();
    assert_eq!(v["semantic"], false);
    let o = &v["overall"];
    let r5 = o["recall_at"]["5"].as_f64().expect("R@5");
    let r10 = o["recall_at"]["10"].as_f64().expect("R@10");
    let s5 = o["session_any_at"]["5"].as_f64().expect("session@5");
    (v, r5, r10, s5)
}

#[test]
fn longmemeval_pooled_evaluation_keeps_its_floors() {
    // Keyword and time channels only: embedding the pool's 3,213 long turns takes minutes
    // on two cores (docs/PERFORMANCE.md); the figures with the model are in
    // docs/EVALUATION.md. Floors a little under the measured 0.637 / 0.703 / 0.844 (with
    // `recall.self_boost`).
    let (v, r5, r10, s5) = pooled_keyword_eval("longmemeval/longmemeval-oracle-151.json");
    assert_eq!(v["sessions"], 273, "{v}");
    assert_eq!(v["turns"], 3213);
    assert_eq!(v["questions"], 147);
    assert_eq!(v["abstention"], 4);
    assert!(r5 >= 0.60, "turn recall@5 {r5}");
    assert!(r10 >= 0.68, "turn recall@10 {r10}");
    assert!(s5 >= 0.82, "session recall-any@5 {s5}");
    let ku = v["knowledge_updates"].as_u64().expect("knowledge updates");
    assert!(ku >= 10, "{v}");
}

#[test]
fn a_second_chat_set_keeps_its_floors() {
    // data/chatmem: one user's chats in LongMemEval's shape, written after `recall.self_boost`
    // was tuned on LongMemEval and never tuned on. Measured 0.566 / 0.662 / 0.903; 0.484 /
    // 0.616 / 0.917 without the asker's own words, so the R@5 floor fails if that boost
    // stops working.
    let (v, r5, r10, s5) = pooled_keyword_eval("chatmem/chatmem.json");
    assert_eq!(v["sessions"], 61, "{v}");
    assert_eq!(v["turns"], 396);
    assert_eq!(v["questions"], 72);
    assert!(r5 >= 0.53, "turn recall@5 {r5}");
    assert!(r10 >= 0.63, "turn recall@10 {r10}");
    assert!(s5 >= 0.88, "session recall-any@5 {s5}");
}

#[test]
fn reindex_from_notes_embeds_the_rebuilt_index() {
    let env = TestEnv::new().with_model();
    seed(&env);
    std::fs::remove_dir_all(env.data.join("projects")).expect("drop the index");
    let report = env.run(&["reindex", "--json"]).ok().json();
    assert_eq!(report["notes"]["scopes"][0]["inserted"], 3, "{report}");
    assert_eq!(report["embeddings"]["embedded"], 3, "{report}");
    let after = env.run(&["recall", "which database did we pick", "--json"]).ok().json();
    assert_eq!(after["results"][0]["content"], "Use PostgreSQL for primary storage");
    // A second rebuild keeps the vectors of unchanged memories.
    let again = env.run(&["reindex", "--json"]).ok().json();
    assert_eq!(again["notes"]["scopes"][0]["unchanged"], 3, "{again}");
    assert_eq!(again["embeddings"]["embedded"], 0, "{again}");
}

/// `subcog eval supersession data/<set> --json` with the model, checked for its note count
/// and for floors per split: `(split, precision, recall)`. Returns the report.
fn supersession_floors(set: &str, memories: u64, floors: &[(&str, f64, f64)]) -> serde_json::Value {
    let env = TestEnv::new().with_model();
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(set);
    let v = env
        .run(&["eval", "supersession", data.to_str().expect("utf8"), "--json"])
        .ok()
        .json();
    assert_eq!(v["memories"], memories, "{v}");
    assert_eq!(v["semantic"], true);
    for (split, precision, recall) in floors {
        let s = &v["splits"][split];
        let p = s["precision"].as_f64().expect("precision");
        let r = s["recall"].as_f64().expect("recall");
        assert!(p >= *precision, "{set} {split} precision {p}: {s}");
        assert!(r >= *recall, "{set} {split} recall {r}: {s}");
    }
    v
}

/// The report's wrong targets in `split` are at most `wrong`, and its store-level
/// precision at least `store`.
fn supersession_links(v: &serde_json::Value, split: &str, wrong: u64, store: f64) {
    let w = v["splits"][split]["wrong_targets"].as_u64().expect("wrong targets");
    assert!(w <= wrong, "{split}: {w} wrong targets: {v}");
    let s = v["store_precision"].as_f64().expect("store precision");
    assert!(s >= store, "store-level precision {s}");
}

#[test]
fn supersession_evaluation_keeps_its_floors() {
    // The labelled set of issue 23 (data/supersession), offline. Measured 0.977 / 0.878 on
    // the development half (fitted on) and 0.975 / 0.821 on the test half (only measured,
    // docs/CONSOLIDATION.md); floors a little under, and never a wrong target on the test half.
    let v = supersession_floors("supersession", 924, &[("dev", 0.96, 0.85), ("test", 0.96, 0.80)]);
    supersession_links(&v, "test", 0, 0.94);
}

#[test]
fn supersession_on_a_set_written_after_the_fit_keeps_its_floors() {
    // data/supersession-holdout: written by someone who saw neither subcog nor the first
    // set, read after the weights were fitted. Measured 0.939 / 0.831, 1 wrong target,
    // store-level 0.925 (docs/CONSOLIDATION.md): lower than the first set's test half,
    // and the floors sit just under what it is, so a regression shows.
    let v = supersession_floors("supersession-holdout", 636, &[("holdout", 0.92, 0.80)]);
    supersession_links(&v, "holdout", 1, 0.90);
}

#[test]
fn supersession_on_a_third_writers_set_keeps_its_floors() {
    // data/supersession-holdout2: a third writer, another organisation, most replacements
    // stated with no word of change. Read first with the judgement of 2225fd3: 0.973 /
    // 0.546, 2 wrong targets; now 0.978 / 0.692, 2 wrong targets, store-level 0.961
    // (docs/CONSOLIDATION.md).
    let v = supersession_floors("supersession-holdout2", 636, &[("holdout2", 0.96, 0.66)]);
    supersession_links(&v, "holdout2", 2, 0.94);
}

#[test]
fn supersession_on_a_fourth_writers_set_keeps_its_floors() {
    // data/supersession-holdout3: a fourth writer, in-house names no list holds. Read
    // first after the evening's changes: 0.895 / 0.523, 3 wrong targets, store-level
    // 0.835; 0.922 / 0.638, 3, 0.878 now (docs/CONSOLIDATION.md). Floors just under, so
    // a regression shows.
    let v = supersession_floors("supersession-holdout3", 636, &[("holdout3", 0.90, 0.61)]);
    supersession_links(&v, "holdout3", 3, 0.86);
}

#[test]
fn supersession_on_a_fifth_writers_set_keeps_its_floors() {
    // data/supersession-holdout4: a fifth writer, read once after every change of the
    // evening: 0.961 / 0.569, 3 wrong targets, store-level 0.925 (0.955 / 0.492 with the
    // judgement before them); 0.966 / 0.646, 3, 0.933 now (docs/CONSOLIDATION.md).
    let v = supersession_floors("supersession-holdout4", 636, &[("holdout4", 0.95, 0.62)]);
    supersession_links(&v, "holdout4", 3, 0.91);
}

#[test]
fn supersession_on_a_sixth_writers_set_keeps_its_floors() {
    // data/supersession-holdout5: a sixth writer (wind-farm software), read once with the
    // judgement of the session before it: 0.907 / 0.600, 1 wrong target, store-level 0.881
    // (docs/CONSOLIDATION.md, "A sixth writer"); 0.913 / 0.646, 1, 0.888 now.
    let v = supersession_floors("supersession-holdout5", 636, &[("holdout5", 0.90, 0.62)]);
    supersession_links(&v, "holdout5", 1, 0.87);
}

#[test]
fn supersession_on_a_seventh_writers_set_keeps_its_floors() {
    // data/supersession-holdout6: a seventh writer (veterinary practice software), read
    // first with the judgement of the session before: 0.896 / 0.462, 4 wrong targets,
    // store-level 0.831; then 0.907 / 0.523, 4, 0.846 after the settled rules
    // (docs/CONSOLIDATION.md, "A seventh and an eighth writer").
    let v = supersession_floors("supersession-holdout6", 636, &[("holdout6", 0.89, 0.50)]);
    supersession_links(&v, "holdout6", 4, 0.83);
}

#[test]
fn supersession_on_an_eighth_writers_set_keeps_its_floors() {
    // data/supersession-holdout7: an eighth writer (self-storage software), read once with
    // the judgement before the settled rules (0.919 / 0.438, 3 wrong targets, store-level
    // 0.855) and once after them: 0.928 / 0.492, 4, 0.847 (docs/CONSOLIDATION.md).
    let v = supersession_floors("supersession-holdout7", 636, &[("holdout7", 0.91, 0.47)]);
    supersession_links(&v, "holdout7", 4, 0.83);
}

#[test]
fn supersession_on_a_ninth_writers_set_keeps_its_floors() {
    // data/supersession-holdout8: a ninth writer (a ferry operator), read once on
    // 2026-11-28 and never tuned on: 0.965 / 0.638, 1 wrong target, store-level 0.929
    // (docs/CONSOLIDATION.md).
    let v = supersession_floors("supersession-holdout8", 636, &[("holdout8", 0.95, 0.62)]);
    supersession_links(&v, "holdout8", 2, 0.91);
}

#[test]
fn supersession_on_a_tenth_writers_set_keeps_its_floors() {
    // data/supersession-holdout9: a tenth writer (a water utility), read once on 2026-11-28
    // and never tuned on: 0.967 / 0.446, 8 wrong targets (two chains linked A -> C, three
    // restatements of a newer note merged into it), store-level 0.756
    // (docs/CONSOLIDATION.md).
    let v = supersession_floors("supersession-holdout9", 636, &[("holdout9", 0.95, 0.43)]);
    supersession_links(&v, "holdout9", 8, 0.74);
}
