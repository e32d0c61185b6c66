use crate::common::TestEnv;

#[test]
fn config_show_reports_values_and_sources() {
    let env = TestEnv::new();
    let path = env.write_config("[recall]\ndefault_limit = 3\n[capture]\nredact_emails = true\n");
    let out = env
        .command(&["config", "show", "--json"])
        .env("SUBCOG_CONTEXT_TOKEN_BUDGET", "6000")
        .output()
        .expect("run");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let values = &v["values"];
    assert_eq!(values["recall.default_limit"]["value"], 3);
    assert_eq!(
        values["recall.default_limit"]["source"],
        format!("file {}", path.display())
    );
    assert_eq!(values["context.base_token_budget"]["value"], 6000);
    assert_eq!(
        values["context.base_token_budget"]["source"],
        "env SUBCOG_CONTEXT_TOKEN_BUDGET"
    );
    assert_eq!(values["storage.data_dir"]["source"], "env SUBCOG_DATA_DIR");
    assert_eq!(values["retention.recency_half_life_days"]["source"], "default");
    // Human form lists every key with its source.
    let human = env.run(&["config"]).ok();
    assert!(human.stdout.contains("recall.default_limit"), "{}", human.stdout);
    assert!(human.stdout.contains("# default"));
}

#[test]
fn config_changes_behaviour() {
    let env = TestEnv::new();
    env.write_config("[recall]\ndefault_limit = 2\n[capture]\nredact_emails = true\n");
    for i in 0..5 {
        env.capture("learnings", &format!("deploy note {i}"));
    }
    assert_eq!(env.run(&["recall", "deploy", "--json"]).ok().json()["count"], 2);
    let out = env
        .run(&["capture", "--json", "-n", "context", "mail ops@example.com"])
        .ok()
        .json();
    assert_eq!(out["memory"]["content"], "mail [REDACTED:email]");
    // --config points elsewhere; a missing explicit file is an error.
    let other = env.root.path().join("other.toml");
    std::fs::write(&other, "[recall]\ndefault_limit = 4\n").expect("write");
    let via_flag = env
        .run(&["recall", "deploy", "--json", "--config", other.to_str().expect("utf8")])
        .ok()
        .json();
    assert_eq!(via_flag["count"], 4);
    env.run(&["--config", "/nonexistent/subcog.toml", "status"])
        .fails_with(3);
}

#[test]
fn bad_config_is_one_clear_error() {
    let env = TestEnv::new();
    env.write_config("[recall]\ndefault_limt = 3\n");
    let out = env.run(&["status"]).fails_with(3);
    assert!(
        out.stderr.contains("unknown key `recall.default_limt`"),
        "{}",
        out.stderr
    );
    env.write_config("[capture]\non_secret = \"shout\"\n");
    let out = env.run(&["status"]).fails_with(3);
    assert!(out.stderr.contains("capture.on_secret"), "{}", out.stderr);
    let env2 = TestEnv::new();
    let bad_env = env2
        .command(&["status"])
        .env("SUBCOG_RECALL_DEFAULT_LIMIT", "lots")
        .output()
        .expect("run");
    assert_eq!(bad_env.status.code(), Some(3));
}

#[test]
fn config_default_is_the_documented_example_and_parses() {
    let env = TestEnv::new();
    let example = env.run(&["config", "default"]).ok().stdout;
    assert!(example.contains("[capture]") && example.contains("on_secret = \"redact\""));
    let path = env.write_config(&example);
    let v = env.run(&["config", "show", "--json"]).ok().json();
    assert_eq!(
        v["values"]["capture.on_secret"]["source"],
        format!("file {}", path.display())
    );
    let paths = env.run(&["config", "path", "--json"]).ok().json();
    assert_eq!(paths["config_file_exists"], true);
    assert_eq!(paths["data_dir"], env.data.display().to_string());
}

#[test]
fn global_options_work_before_or_after_the_command() {
    let env = TestEnv::new();
    let alt = env.root.path().join("alt-data");
    let alt_s = alt.to_str().expect("utf8");
    env.run(&["--data-dir", alt_s, "capture", "-n", "decisions", "Alt store memory"])
        .ok();
    let after = env.run(&["recall", "alt", "--data-dir", alt_s, "--json"]).ok().json();
    assert_eq!(after["count"], 1);
    let before = env.run(&["--json", "--data-dir", alt_s, "recall", "alt"]).ok().json();
    assert_eq!(before["count"], 1);
    // The default data dir (SUBCOG_DATA_DIR here) does not have it.
    assert_eq!(env.run(&["recall", "alt", "--json"]).ok().json()["count"], 0);
    let quiet = env.run(&["-q", "recall", "alt", "--data-dir", alt_s]).ok();
    assert!(quiet.stderr.is_empty(), "{}", quiet.stderr);
    let colored = env
        .run(&["recall", "alt", "--data-dir", alt_s, "--color", "always"])
        .ok();
    assert!(colored.stdout.contains('\u{1b}'), "forced color");
}

#[test]
fn a_relative_data_dir_in_the_config_file_is_relative_to_the_file() {
    let env = TestEnv::new();
    let path = env.write_config("[storage]\ndata_dir = \"store\"\n");
    let out = env
        .command(&["config", "path", "--json"])
        .env_remove("SUBCOG_DATA_DIR")
        .output()
        .expect("run");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let want = path.parent().expect("dir").join("store");
    assert_eq!(v["data_dir"], want.display().to_string());
}

#[test]
fn completions_are_generated() {
    let env = TestEnv::new();
    for shell in ["bash", "zsh", "fish"] {
        let out = env.run(&["completions", shell]).ok();
        assert!(
            out.stdout.contains("capture") && out.stdout.contains("recall"),
            "{shell}"
        );
    }
}
