//! Secret redaction: finds API keys, tokens, private keys and passwords in text and
//! replaces each with `[REDACTED:kind]`.
//!
//! Applied at capture and on import (and later before every LLM request), so a secret
//! never reaches storage, notes, logs or a model. Redaction is idempotent: redacted text
//! contains nothing that matches again. This module never logs the matched text.

use regex::Regex;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use crate::model::ValidationError;

/// The kinds of secret subcog recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SecretKind {
    /// `-----BEGIN ... PRIVATE KEY-----` blocks.
    PrivateKey,
    /// Anthropic API keys (`sk-ant-...`).
    AnthropicKey,
    /// OpenAI API keys (`sk-...`, `sk-proj-...`).
    OpenaiKey,
    /// AWS access key ids (`AKIA...`, `ASIA...`).
    AwsAccessKey,
    /// AWS secret access keys in an assignment.
    AwsSecretKey,
    /// GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`).
    GithubToken,
    /// Slack tokens (`xoxb-`, ...) and webhook URLs.
    SlackToken,
    /// Stripe secret and restricted keys.
    StripeKey,
    /// Google API keys (`AIza...`).
    GoogleApiKey,
    /// JSON Web Tokens.
    Jwt,
    /// The password part of a `scheme://user:password@host` URL.
    ConnectionString,
    /// `Bearer <token>` authorization values.
    BearerToken,
    /// `password=...`, `api_key: ...` and similar assignments.
    PasswordAssignment,
    /// Email addresses (only when `capture.redact_emails` is on).
    Email,
}

impl SecretKind {
    /// The name used inside `[REDACTED:...]`.
    pub const fn as_str(self) -> &'static str {
        match self {
            SecretKind::PrivateKey => "private_key",
            SecretKind::AnthropicKey => "anthropic_key",
            SecretKind::OpenaiKey => "openai_key",
            SecretKind::AwsAccessKey => "aws_access_key",
            SecretKind::AwsSecretKey => "aws_secret_key",
            SecretKind::GithubToken => "github_token",
            SecretKind::SlackToken => "slack_token",
            SecretKind::StripeKey => "stripe_key",
            SecretKind::GoogleApiKey => "google_api_key",
            SecretKind::Jwt => "jwt",
            SecretKind::ConnectionString => "connection_string",
            SecretKind::BearerToken => "bearer_token",
            SecretKind::PasswordAssignment => "password",
            SecretKind::Email => "email",
        }
    }
}

impl fmt::Display for SecretKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What to do when captured content contains a secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SecretPolicy {
    /// Replace each secret with `[REDACTED:kind]` and store the rest (default).
    #[default]
    Redact,
    /// Refuse the capture.
    Block,
}

impl FromStr for SecretPolicy {
    type Err = ValidationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "redact" => Ok(SecretPolicy::Redact),
            "block" => Ok(SecretPolicy::Block),
            _ => Err(ValidationError::UnknownValue {
                what: "secret policy",
                value: s.to_string(),
                expected: "redact, block".into(),
            }),
        }
    }
}

/// How many secrets of one kind were replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Redaction {
    /// The kind of secret.
    pub kind: SecretKind,
    /// How many were found.
    pub count: usize,
}

/// Text after redaction and what was removed from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redacted {
    /// The text with secrets replaced.
    pub text: String,
    /// What was replaced, by kind, in pattern order.
    pub redactions: Vec<Redaction>,
}

impl Redacted {
    /// Whether anything was replaced.
    pub fn found_any(&self) -> bool {
        !self.redactions.is_empty()
    }

    /// The kinds that were found.
    pub fn kinds(&self) -> Vec<SecretKind> {
        self.redactions.iter().map(|r| r.kind).collect()
    }
}

struct Pattern {
    kind: SecretKind,
    regex: Regex,
    /// Capture group holding the secret; 0 replaces the whole match.
    group: usize,
}

/// Patterns in the order they run: specific prefixes before generic ones, so an
/// Anthropic key is named as such and not as an OpenAI key.
static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    let p = |kind, re: &str, group| Pattern {
        kind,
        // The patterns are constants covered by tests; failing to compile one is a bug.
        #[allow(clippy::expect_used)]
        regex: Regex::new(re).expect("secret pattern compiles"),
        group,
    };
    vec![
        p(
            SecretKind::PrivateKey,
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|\z)",
            0,
        ),
        p(SecretKind::AnthropicKey, r"\bsk-ant-[A-Za-z0-9_\-]{8,}", 0),
        p(
            SecretKind::OpenaiKey,
            r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}",
            0,
        ),
        p(SecretKind::StripeKey, r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}", 0),
        p(SecretKind::AwsAccessKey, r"\b(?:AKIA|ASIA|AIDA|AROA)[0-9A-Z]{16}\b", 0),
        p(
            SecretKind::AwsSecretKey,
            r#"(?i)aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})"#,
            1,
        ),
        p(
            SecretKind::GithubToken,
            r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
            0,
        ),
        p(SecretKind::SlackToken, r"\bxox[abposr]-[A-Za-z0-9\-]{10,}", 0),
        p(
            SecretKind::SlackToken,
            r"https://hooks\.slack\.com/services/[A-Za-z0-9/_\-]+",
            0,
        ),
        p(SecretKind::GoogleApiKey, r"\bAIza[0-9A-Za-z_\-]{35}", 0),
        p(
            SecretKind::Jwt,
            r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
            0,
        ),
        p(
            SecretKind::ConnectionString,
            // user optional (redis://:pass@host); the password runs to the last '@' before the host.
            r"\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@\[\]]*:([^\s/\[\]]+)@[^\s@/]+",
            1,
        ),
        p(SecretKind::BearerToken, r"(?i)\bbearer\s+([A-Za-z0-9._~+/=\-]{16,})", 1),
        p(
            SecretKind::PasswordAssignment,
            // Also DB_PASSWORD=..., MYSQL_ROOT_PASSWORD: ...; quoted values may hold any
            // character but a quote.
            r#"(?i)(?:password|passwd|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|secret[_-]?key)["']?\s*[:=]\s*(?:"([^"\n]{4,}?)"|'([^'\n]{4,}?)'|([^\s"',;\[\]]{6,}))"#,
            0,
        ),
        p(
            SecretKind::PasswordAssignment,
            // A bare "secret" only with a token-like value (a digit in it), so prose such
            // as "secret: rotation happens weekly" stays.
            r#"(?i)secret["']?\s*[:=]\s*["']?([A-Za-z_\-]*[0-9][^\s"',;\[\]]{5,})"#,
            1,
        ),
    ]
});

static EMAIL: LazyLock<Pattern> = LazyLock::new(|| Pattern {
    kind: SecretKind::Email,
    #[allow(clippy::expect_used)]
    regex: Regex::new(r"\b[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}\b").expect("email pattern compiles"),
    group: 0,
});

/// Replaces every secret in `text`; emails only when `redact_emails` is set.
pub fn redact(text: &str, redact_emails: bool) -> Redacted {
    let mut current = text.to_string();
    let mut redactions: Vec<Redaction> = Vec::new();
    let emails = redact_emails.then(|| &*EMAIL);
    for pattern in PATTERNS.iter().chain(emails) {
        let (next, count) = replace_pattern(&current, pattern);
        if count > 0 {
            current = next;
            match redactions.iter_mut().find(|r| r.kind == pattern.kind) {
                Some(r) => r.count += count,
                None => redactions.push(Redaction {
                    kind: pattern.kind,
                    count,
                }),
            }
        }
    }
    Redacted {
        text: current,
        redactions,
    }
}

fn replace_pattern(text: &str, pattern: &Pattern) -> (String, usize) {
    let marker = format!("[REDACTED:{}]", pattern.kind.as_str());
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut count = 0;
    for caps in pattern.regex.captures_iter(text) {
        // With group 0 and alternative groups, the secret is the first group that matched.
        let m = if pattern.group == 0 && caps.len() > 1 {
            (1..caps.len()).find_map(|i| caps.get(i))
        } else {
            caps.get(pattern.group)
        };
        let Some(m) = m else {
            continue;
        };
        // Never redact a marker we wrote ourselves (keeps redaction idempotent).
        if m.as_str().starts_with("[REDACTED:") {
            continue;
        }
        out.push_str(&text[last..m.start()]);
        out.push_str(&marker);
        last = m.end();
        count += 1;
    }
    if count == 0 {
        return (text.to_string(), 0);
    }
    out.push_str(&text[last..]);
    (out, count)
}

#[cfg(test)]
mod tests {
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
            ("AKIAIOSFODNN7EXAMPLE", SecretKind::AwsAccessKey),
            (
                "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
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
}

#[cfg(test)]
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
