//! Redaction of each kind, what must stay untouched, idempotence.

use super::*;

fn kinds(text: &str) -> Vec<SecretKind> {
    redact(text, true).kinds()
}

#[test]
fn each_kind_is_found_and_replaced() {
    let cases: &[(&str, SecretKind)] = &[
        (
            "key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789-AAAA",
            SecretKind::AnthropicKey,
        ),
        (
            "key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789",
            SecretKind::OpenaiKey,
        ),
        ("key sk-abcdefghijklmnopqrstuvwxyz012345", SecretKind::OpenaiKey),
        ("AKIA3GLEUCIM6PZBQBC7", SecretKind::AwsAccessKey),
        // AWS's documented example pair is redacted on purpose: tests and probes use it as
        // the stand-in for a real key.
        ("key AKIAIOSFODNN7EXAMPLE", SecretKind::AwsAccessKey),
        (
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            SecretKind::AwsSecretKey,
        ),
        (
            "aws_secret_access_key = mcRfM/cysCnN96pxdWuRov/ThGI829STwpA6GWM9",
            SecretKind::AwsSecretKey,
        ),
        ("ghp_abcdefghijklmnopqrstuvwxyz0123456789AB", SecretKind::GithubToken),
        (
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
            SecretKind::GithubToken,
        ),
        ("xoxb-1234567890-abcdefghij", SecretKind::SlackToken),
        (
            "https://hooks.slack.com/services/T000/B000/XXXXXXXX",
            SecretKind::SlackToken,
        ),
        ("sk_live_abcdefghijklmnop1234", SecretKind::StripeKey),
        ("AIzaSyA-abcdefghijklmnopqrstuvwxyz01234", SecretKind::GoogleApiKey),
        (
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            SecretKind::Jwt,
        ),
        (
            "postgres://app:hunter2pass@db.internal:5432/main",
            SecretKind::ConnectionString,
        ),
        ("password = correcthorsebattery", SecretKind::PasswordAssignment),
        ("DB_PASSWORD=hunter2pass", SecretKind::PasswordAssignment),
        ("MYSQL_ROOT_PASSWORD: s3cr3t-root", SecretKind::PasswordAssignment),
        ("GITHUB_CLIENT_SECRET=abcdef0123456789", SecretKind::PasswordAssignment),
        ("password=\"pa,ss w\"", SecretKind::PasswordAssignment),
        ("secret: Xy9kLm2pQr", SecretKind::PasswordAssignment),
        ("redis://:s3cretpass@cache:6379", SecretKind::ConnectionString),
        (
            "Authorization: Bearer abcdefghijklmnop1234.xyz",
            SecretKind::BearerToken,
        ),
        ("API_KEY: abcdef123456", SecretKind::PasswordAssignment),
        ("mail alice@example.com", SecretKind::Email),
        (
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
            SecretKind::PrivateKey,
        ),
    ];
    for (text, kind) in cases {
        let r = redact(text, true);
        assert!(r.kinds().contains(kind), "{text:?} gave {:?}", r.kinds());
        assert!(r.text.contains(&format!("[REDACTED:{}]", kind.as_str())), "{}", r.text);
    }
}

#[test]
fn anthropic_key_is_not_named_openai() {
    let r = redact("use sk-ant-api03-XYZxyz0123456789abcdef for claude", false);
    assert_eq!(r.text, "use [REDACTED:anthropic_key] for claude");
    assert_eq!(r.kinds(), vec![SecretKind::AnthropicKey]);
}

#[test]
fn connection_string_keeps_host_and_user() {
    let r = redact("DATABASE_URL=postgres://app:s3cretpw@db:5432/x", false);
    assert_eq!(
        r.text,
        "DATABASE_URL=postgres://app:[REDACTED:connection_string]@db:5432/x"
    );
}

#[test]
fn ordinary_text_is_untouched() {
    for text in [
        "Use PostgreSQL for primary storage",
        "the task-runner uses sk- prefixed names like sk-short",
        "see https://example.com/docs and run `cargo test`",
        "password policy: at least 12 characters",
        "secret: rotation happens weekly",
        "pwd: /home/alice/project",
    ] {
        let r = redact(text, false);
        assert!(!r.found_any(), "{text:?} -> {}", r.text);
        assert_eq!(r.text, text);
    }
    assert!(kinds("contact bob").is_empty());
    assert!(!redact("mail alice@example.com", false).found_any());
}

#[test]
fn redaction_is_idempotent() {
    let once = redact("k=sk-ant-api03-abcdefghijklmnop password: hunter22 x@y.io", true);
    let twice = redact(&once.text, true);
    assert_eq!(once.text, twice.text);
    assert!(!twice.found_any());
}

#[test]
fn policy_parses() {
    assert_eq!("BLOCK".parse::<SecretPolicy>().ok(), Some(SecretPolicy::Block));
    assert!("maybe".parse::<SecretPolicy>().is_err());
}

#[test]
fn private_keys_are_removed_whole() {
    let key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nQyNTUxOQAAACDtest1234567890abcdefghijkl\n-----END OPENSSH PRIVATE KEY-----";
    let r = redact(&format!("deploy key:\n{key}\nthen run it"), false);
    assert_eq!(r.text, "deploy key:\n[REDACTED:private_key]\nthen run it");
    // JSON-escaped, as in a GCP service-account file, and with no END line at all.
    let escaped = key.replace('\n', "\\n");
    let r = redact(&format!("{{\"private_key\": \"{escaped}\\n\"}}"), false);
    assert!(!r.text.contains("QyNTUxOQ"), "{}", r.text);
    let r = redact(
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAabcdef\n(truncated)",
        false,
    );
    assert_eq!(r.text, "[REDACTED:private_key]");
}

#[test]
fn provider_tokens_and_named_values_are_found() {
    let cases: &[(&str, SecretKind)] = &[
        (
            "NPM_TOKEN=npm_wFQdtZHD8EG8lNjAEhUzanU6SR5vu20h0tg3",
            SecretKind::NpmToken,
        ),
        (
            "curl --header \"PRIVATE-TOKEN: glpat-Osx-ncT4VRCUNTPk4_rB\"",
            SecretKind::GitlabToken,
        ),
        (
            "huggingface-cli login --token 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",
            SecretKind::HuggingfaceToken,
        ),
        (
            "password = pypi-AgEIcHlwaS5vcmcCJiLyyj0fddYwj8WXTpLxmY7FKB3vQKDLL-_sRa9e4mpgvWBb4C",
            SecretKind::PypiToken,
        ),
        (
            "echo dckr_pat_fTKES7JD-WWZpL_xrJgP2mVd23J | docker login",
            SecretKind::DockerToken,
        ),
        (
            "SENDGRID=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",
            SecretKind::SendgridKey,
        ),
        (
            "Twilio API key: SK0b1c018aef4d0ffe9c5136029f7c257d",
            SecretKind::TwilioKey,
        ),
        (
            "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=zhcOdtZcNBdVTAMENWfrQ6f22SEUE8851WZ5DZaImYhSfTkFToI0pGpQRq53tzxSV1mk/PUsgG79Q1MNsMfbUw==;EndpointSuffix=core.windows.net",
            SecretKind::AzureKey,
        ),
        (
            "  \"private_key_id\": \"dd25d1f001e2553660fd6c8baee2e5c10a5e7046\",",
            SecretKind::GcpKeyId,
        ),
        (
            "VAULT_TOKEN=hvs.TmdBTR3C4aJmDEihFR0ZlZIP vault kv get",
            SecretKind::VaultToken,
        ),
        (
            "doctl auth init --access-token dop_v1_277f1db5ec10944f2352f439c6ee6d19e726bfe3cdfa09d6513dddc5227f8243",
            SecretKind::DigitaloceanToken,
        ),
        (
            "docker run -e DD_API_KEY=52f8e027004567fea6e230370af0489f agent",
            SecretKind::DatadogKey,
        ),
        (
            "the staging credential is ya29.e09ANboxsHzJiKUN3pd-ouqZ4PrTSRjigqvXcqxs3AaKr9Uv2Kh",
            SecretKind::GoogleOauth,
        ),
        (
            "WEBHOOK_SIGNING_SECRET=9fK2mQ7xLp4Rt8Vz3Nw6",
            SecretKind::PasswordAssignment,
        ),
        ("app_secret_value: 9fK2mQ7xLp4Rt8Vz3Nw6Yb", SecretKind::GenericSecret),
        (
            "401 Unauthorized for key e8fadbd9ebd54876656590b30e39ee640e2ded21",
            SecretKind::GenericSecret,
        ),
    ];
    for (text, kind) in cases {
        let r = redact(text, false);
        assert!(r.kinds().contains(kind), "{text:?} gave {:?}: {}", r.kinds(), r.text);
    }
}

#[test]
fn kubernetes_secret_values_are_redacted_and_the_manifest_kept() {
    let manifest = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: smtp\n  namespace: production\ntype: Opaque\ndata:\n  relay: UHIwZC1qeFd3U29qaG45anch\n  port: NTg3\nimmutable: true\n";
    let r = redact(manifest, false);
    assert_eq!(
        r.text,
        manifest.replace("UHIwZC1qeFd3U29qaG45anch", "[REDACTED:kubernetes_secret]"),
        "the name, namespace and a short value stay"
    );
    let config_map = manifest.replace("kind: Secret", "kind: ConfigMap");
    assert_eq!(redact(&config_map, false).text, config_map);
}

#[test]
fn look_alikes_are_untouched() {
    for text in [
        "Reverted 3f9c2a1b7d4e8f0a6c5b2d1e9f8a7b6c5d4e3f2a after the outage",
        "request id 7f3c9e2a-4b1d-4e8f-9a6c-2d5b8e1f0a3c, tenant 01HQZ8X9Y7W6V5T4S3R2Q1P0NM",
        "export OPENAI_API_KEY=YOUR_API_KEY",
        "DATABASE_URL=postgres://app:${DB_PASSWORD}@db.internal:5432/app",
        "the token looks like ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX in the screenshot",
        "In the README use `stripe.api_key = \"sk_test_xxx\"`",
        "PASSWORD_MIN_LENGTH=12\nSECRET_BACKEND=vault\ntoken_endpoint: https://oauth2.googleapis.com/token",
        "minisign public key: RWR2UJKKsRtQl94JqZUU+ggZDIwj3HE8y89HHRxFEyKARibGlrLMLWgQ",
        "YouTube id dQw4w9WgXcQ and Figma file key pFD3ql3GH5dmtXYMvYwpyY",
        "integrity sha512-Q2sL0ZcYbA7rV5k9XyW2oP4nM8jK6hG3fD1sA0qZ9xW8vU7tS6rR5pQ4oN3mL2kJ1iH==",
        "Use token authentication for the internal API",
    ] {
        let r = redact(text, false);
        assert_eq!(r.text, text, "{:?}", r.kinds());
    }
}

/// A rule runs only when its anchors are in the text; every match of every rule on the
/// labelled corpus must therefore contain one of them, or the rule would be skipped.
#[test]
fn every_rule_compiles_and_its_anchors_cover_its_matches() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/secrets");
    let mut texts: Vec<String> = Vec::new();
    for file in ["secrets.jsonl", "near-misses.jsonl"] {
        let body = std::fs::read_to_string(dir.join(file)).expect("corpus");
        for line in body.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("json");
            texts.push(v["text"].as_str().unwrap_or_default().to_string());
        }
    }
    assert!(texts.len() > 600, "{}", texts.len());
    for rule in RULES.iter() {
        let regex = rule
            .regex()
            .unwrap_or_else(|| panic!("{} does not compile", rule.pattern));
        assert!(
            rule.anchors.iter().all(|a| a.to_ascii_lowercase() == *a),
            "{:?}",
            rule.anchors
        );
        for text in &texts {
            for m in regex.find_iter(text) {
                let lower = m.as_str().to_ascii_lowercase();
                assert!(
                    rule.may_match(&lower),
                    "{} matched {:?} without an anchor",
                    rule.pattern,
                    m.as_str()
                );
            }
        }
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn redaction_is_idempotent_on_any_text(text in "\\PC{0,300}", emails in any::<bool>()) {
            let once = redact(&text, emails);
            let twice = redact(&once.text, emails);
            prop_assert_eq!(&once.text, &twice.text);
            prop_assert!(!twice.found_any());
        }

        #[test]
        fn embedded_keys_never_survive(prefix in "[a-z ]{0,20}", key in "[A-Za-z0-9]{24,40}", suffix in "[a-z ]{0,20}") {
            let text = format!("{prefix} sk-ant-api03-{key} {suffix}");
            let r = redact(&text, false);
            prop_assert!(!r.text.contains(&key));
        }
    }
}
