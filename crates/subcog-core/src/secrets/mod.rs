//! Secret redaction: finds API keys, tokens, private keys and passwords in text and
//! replaces each with `[REDACTED:kind]`.
//!
//! Applied at capture and on import, to notes arriving through sync, and before every LLM
//! request, so a secret never reaches storage, notes, logs or a model. Redaction is
//! idempotent: redacted text contains nothing that matches again. This module never logs
//! the matched text. The rules themselves live in [`rules`]; this file owns the kinds, the
//! policy and the engine that applies the rules.

mod rules;

pub(crate) use rules::ascii as ascii_classes;

use regex::Regex;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::{LazyLock, OnceLock};

use crate::model::ValidationError;

/// The kinds of secret subcog recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SecretKind {
    /// Private keys, BEGIN to END: PEM (RSA, EC, PKCS#8, encrypted), OpenSSH, PGP.
    PrivateKey,
    /// Anthropic API and admin keys (`sk-ant-…`).
    AnthropicKey,
    /// OpenAI keys (`sk-…`, `sk-proj-…`, `sk-svcacct-…`).
    OpenaiKey,
    /// AWS access key ids (`AKIA…`, `ASIA…`).
    AwsAccessKey,
    /// AWS secret access keys beside their name.
    AwsSecretKey,
    /// AWS session tokens (`IQoJb3JpZ2luX2Vj…`, `FwoGZXIvYXdzE…`).
    AwsSessionToken,
    /// GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`, `github_pat_`).
    GithubToken,
    /// GitLab tokens (`glpat-`, `glrt-`, `gldt-`, …).
    GitlabToken,
    /// Slack tokens (`xoxb-`, `xapp-`, …) and webhook URLs.
    SlackToken,
    /// Stripe secret, restricted and webhook-signing keys.
    StripeKey,
    /// Google API keys (`AIza…`).
    GoogleApiKey,
    /// Google OAuth client secrets (`GOCSPX-`) and access tokens (`ya29.`).
    GoogleOauth,
    /// The `private_key_id` of a GCP service-account key.
    GcpKeyId,
    /// Azure storage account keys, SAS signatures and client secrets.
    AzureKey,
    /// npm access tokens (`npm_`).
    NpmToken,
    /// PyPI upload tokens (`pypi-AgE…`).
    PypiToken,
    /// Docker Hub tokens (`dckr_pat_`) and `auth` values of a Docker config.
    DockerToken,
    /// Hugging Face tokens (`hf_`, `api_org_`).
    HuggingfaceToken,
    /// SendGrid API keys (`SG.….…`).
    SendgridKey,
    /// Twilio API keys (`SK…`) and auth tokens.
    TwilioKey,
    /// Mailgun API keys.
    MailgunKey,
    /// Mailchimp API keys (`…-us7`).
    MailchimpKey,
    /// Shopify tokens and shared secrets (`shpat_`, `shpss_`, …).
    ShopifyToken,
    /// Atlassian API tokens (`ATATT3…`).
    AtlassianToken,
    /// Heroku API keys (`HRKU-`, or a UUID beside its name).
    HerokuKey,
    /// DigitalOcean tokens (`dop_v1_`, `doo_v1_`, `dor_v1_`).
    DigitaloceanToken,
    /// Linear API keys (`lin_api_`).
    LinearKey,
    /// Notion integration tokens (`secret_…`, `ntn_…`).
    NotionToken,
    /// Discord bot tokens and webhook URLs.
    DiscordToken,
    /// Telegram bot tokens (`123456789:AA…`).
    TelegramToken,
    /// Datadog API and application keys beside their name.
    DatadogKey,
    /// New Relic user and license keys (`NRAK-`, `…NRAL`).
    NewrelicKey,
    /// Sentry DSN keys and auth tokens (`sntrys_`, `sntryu_`).
    SentryKey,
    /// Square access tokens and OAuth secrets.
    SquareToken,
    /// Braintree access tokens.
    BraintreeToken,
    /// PayPal access tokens (`A21AA…`).
    PaypalToken,
    /// Firebase Cloud Messaging server keys.
    FirebaseKey,
    /// Okta API tokens (`SSWS …`).
    OktaToken,
    /// Terraform Cloud tokens (`….atlasv1.…`).
    TerraformToken,
    /// HashiCorp Vault tokens (`hvs.`, `hvb.`, `hvr.`).
    VaultToken,
    /// Doppler tokens (`dp.pt.`, `dp.st.`, …).
    DopplerToken,
    /// Pulumi access tokens (`pul-`).
    PulumiToken,
    /// Postman API keys (`PMAK-`).
    PostmanKey,
    /// Grafana service-account and cloud tokens (`glsa_`, `glc_`).
    GrafanaToken,
    /// age secret keys (`AGE-SECRET-KEY-1…`).
    AgeKey,
    /// Values under `data:` of a Kubernetes Secret.
    KubernetesSecret,
    /// JSON Web Tokens.
    Jwt,
    /// The password part of a `scheme://user:password@host` URL.
    ConnectionString,
    /// Tokens in `Authorization` headers and `--auth` flags.
    BearerToken,
    /// `password=…`, `api_key: …` and similar assignments.
    PasswordAssignment,
    /// A random-looking value given to a name that says it is secret.
    GenericSecret,
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
            SecretKind::AwsSessionToken => "aws_session_token",
            SecretKind::GithubToken => "github_token",
            SecretKind::GitlabToken => "gitlab_token",
            SecretKind::SlackToken => "slack_token",
            SecretKind::StripeKey => "stripe_key",
            SecretKind::GoogleApiKey => "google_api_key",
            SecretKind::GoogleOauth => "google_oauth",
            SecretKind::GcpKeyId => "gcp_key_id",
            SecretKind::AzureKey => "azure_key",
            SecretKind::NpmToken => "npm_token",
            SecretKind::PypiToken => "pypi_token",
            SecretKind::DockerToken => "docker_token",
            SecretKind::HuggingfaceToken => "huggingface_token",
            SecretKind::SendgridKey => "sendgrid_key",
            SecretKind::TwilioKey => "twilio_key",
            SecretKind::MailgunKey => "mailgun_key",
            SecretKind::MailchimpKey => "mailchimp_key",
            SecretKind::ShopifyToken => "shopify_token",
            SecretKind::AtlassianToken => "atlassian_token",
            SecretKind::HerokuKey => "heroku_key",
            SecretKind::DigitaloceanToken => "digitalocean_token",
            SecretKind::LinearKey => "linear_key",
            SecretKind::NotionToken => "notion_token",
            SecretKind::DiscordToken => "discord_token",
            SecretKind::TelegramToken => "telegram_token",
            SecretKind::DatadogKey => "datadog_key",
            SecretKind::NewrelicKey => "newrelic_key",
            SecretKind::SentryKey => "sentry_key",
            SecretKind::SquareToken => "square_token",
            SecretKind::BraintreeToken => "braintree_token",
            SecretKind::PaypalToken => "paypal_token",
            SecretKind::FirebaseKey => "firebase_key",
            SecretKind::OktaToken => "okta_token",
            SecretKind::TerraformToken => "terraform_token",
            SecretKind::VaultToken => "vault_token",
            SecretKind::DopplerToken => "doppler_token",
            SecretKind::PulumiToken => "pulumi_token",
            SecretKind::PostmanKey => "postman_key",
            SecretKind::GrafanaToken => "grafana_token",
            SecretKind::AgeKey => "age_key",
            SecretKind::KubernetesSecret => "kubernetes_secret",
            SecretKind::Jwt => "jwt",
            SecretKind::ConnectionString => "connection_string",
            SecretKind::BearerToken => "bearer_token",
            SecretKind::PasswordAssignment => "password",
            SecretKind::GenericSecret => "generic_secret",
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

/// Which part of a rule's match is the secret.
#[derive(Clone, Copy)]
enum Take {
    /// The whole match.
    Whole,
    /// One capture group.
    Group(usize),
    /// The first group that matched (alternatives such as quoted or bare values).
    First,
}

/// One recognizer: a regex, the part of its match that is secret, and an optional check
/// the secret must pass (so placeholders and low-entropy words stay).
///
/// A rule compiles on first use, and only for a text holding one of its anchors (lower-case
/// literals its matches contain): compiling all of them costs a hook tens of
/// milliseconds, most prompts need a handful, and a literal search costs microseconds.
struct Rule {
    kind: SecretKind,
    anchors: &'static [&'static str],
    pattern: String,
    regex: OnceLock<Option<Regex>>,
    take: Take,
    check: Option<Check>,
}

impl Rule {
    /// The compiled regex; `None` (logged once) if the pattern does not compile, which the
    /// tests rule out.
    fn regex(&self) -> Option<&Regex> {
        self.regex
            .get_or_init(|| {
                Regex::new(&self.pattern)
                    .inspect_err(|e| tracing::error!(kind = %self.kind, error = %e, "secret rule does not compile"))
                    .ok()
            })
            .as_ref()
    }

    fn may_match(&self, lower: &str) -> bool {
        self.anchors.is_empty() || self.anchors.iter().any(|a| lower.contains(a))
    }
}

/// A rule's check: given the whole match and the secret part, keep it as a secret?
type Check = fn(&str, &str) -> bool;

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(rules::all);

static EMAIL: LazyLock<Rule> = LazyLock::new(|| Rule {
    kind: SecretKind::Email,
    anchors: &["@"],
    pattern: r"\b[A-Za-z0-9._%+\-]+@[A-Za-z0-9.\-]+\.[A-Za-z]{2,}\b".to_string(),
    regex: OnceLock::new(),
    take: Take::Whole,
    check: None,
});

/// Replaces every secret in `text`; emails only when `redact_emails` is set.
pub fn redact(text: &str, redact_emails: bool) -> Redacted {
    let mut current = text.to_string();
    let mut redactions: Vec<Redaction> = Vec::new();
    let emails = redact_emails.then(|| &*EMAIL);
    let lower = text.to_ascii_lowercase();
    for rule in RULES.iter().chain(emails).filter(|r| r.may_match(&lower)) {
        let (next, count) = apply(&current, rule);
        if count > 0 {
            current = next;
            count_kind(&mut redactions, rule.kind, count);
        }
    }
    let (next, count) = rules::kubernetes_secret_data(&current);
    if count > 0 {
        current = next;
        count_kind(&mut redactions, SecretKind::KubernetesSecret, count);
    }
    Redacted {
        text: current,
        redactions,
    }
}

fn count_kind(redactions: &mut Vec<Redaction>, kind: SecretKind, count: usize) {
    match redactions.iter_mut().find(|r| r.kind == kind) {
        Some(r) => r.count += count,
        None => redactions.push(Redaction { kind, count }),
    }
}

/// The marker that replaces a secret of `kind`.
fn marker(kind: SecretKind) -> String {
    format!("[REDACTED:{}]", kind.as_str())
}

fn apply(text: &str, rule: &Rule) -> (String, usize) {
    let Some(regex) = rule.regex() else {
        return (text.to_string(), 0);
    };
    let marker = marker(rule.kind);
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut count = 0;
    for caps in regex.captures_iter(text) {
        let m = match rule.take {
            Take::Whole => caps.get(0),
            Take::Group(i) => caps.get(i),
            Take::First => (1..caps.len()).find_map(|i| caps.get(i)),
        };
        let Some(m) = m else {
            continue;
        };
        // Never redact a marker we wrote ourselves (keeps redaction idempotent), and only
        // what passes the rule's check.
        if m.as_str().contains("[REDACTED:")
            || rule
                .check
                .is_some_and(|check| !check(caps.get(0).map_or("", |w| w.as_str()), m.as_str()))
        {
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
mod tests;
