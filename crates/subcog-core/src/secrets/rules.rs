//! The recognizers, in the order they run, and the checks that keep look-alikes.
//!
//! Three families. **Prefixed tokens** (`ghp_`, `glpat-`, `npm_`, `SG.`…) are matched by
//! their documented shape alone. **Named values** (a Datadog key, an Azure account key, a
//! password) have no shape of their own: only the name, header or flag before them says
//! they are secret. **Generic assignments** catch the rest: a value given to a name that
//! says it is secret (`*_KEY`, `*secret*`, `*token*`), kept only when it looks random
//! (entropy, mixed characters, not words, not a placeholder). Specific rules run before
//! generic ones so a key is named by its provider. The formats were written from the
//! providers' documentation of their token shapes; the rule list of public scanners such
//! as gitleaks served as the checklist of which providers to cover.

use std::sync::OnceLock;

use super::{Check, Rule, SecretKind as K, Take};

/// Every rule, specific before generic.
pub(super) fn all() -> Vec<Rule> {
    let mut rules = Vec::with_capacity(80);
    let mut add = |kind, anchors, re: &str, take, check: Option<Check>| {
        rules.push(Rule {
            kind,
            anchors,
            pattern: ascii(re),
            regex: OnceLock::new(),
            take,
            check,
        });
    };
    let real: Option<Check> = Some(|_, v| not_placeholder(v));
    let random: Option<Check> = Some(|m, v| named_secret(m) && looks_random(v));

    // Whole private keys, BEGIN to END (or to the end of the text when the END line is
    // missing): the body is the secret, not the armour.
    add(
        K::PrivateKey,
        &["private key"],
        r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|\z)",
        Take::Whole,
        None,
    );
    add(
        K::AgeKey,
        &["age-secret-key-"],
        r"AGE-SECRET-KEY-1[0-9A-Z]{50,}",
        Take::Whole,
        None,
    );

    // Prefixed tokens.
    add(
        K::AnthropicKey,
        &["sk-ant-"],
        r"\bsk-ant-[A-Za-z0-9_\-]{8,}",
        Take::Whole,
        real,
    );
    add(
        K::OpenaiKey,
        &["sk-"],
        r"\bsk-(?:proj-|svcacct-|admin-|or-v1-)?[A-Za-z0-9_\-]{20,}",
        Take::Whole,
        real,
    );
    add(
        K::StripeKey,
        &["sk_live_", "sk_test_", "rk_live_", "rk_test_"],
        r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}",
        Take::Whole,
        real,
    );
    add(
        K::StripeKey,
        &["whsec_"],
        r"\bwhsec_[A-Za-z0-9+/=]{24,}",
        Take::Whole,
        real,
    );
    add(
        K::AwsAccessKey,
        &["akia", "asia", "aida", "aroa", "abia", "acca", "anpa", "anva", "apka"],
        r"\b(?:AKIA|ASIA|AIDA|AROA|ABIA|ACCA|ANPA|ANVA|APKA)[0-9A-Z]{16}\b",
        Take::Whole,
        None,
    );
    add(
        K::AwsSessionToken,
        &["iqojb3jpz2lux2vj", "fwogzxivyxdze"],
        r"(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdzE)[A-Za-z0-9/+=]{60,}",
        Take::Whole,
        None,
    );
    add(
        K::GithubToken,
        &["ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"],
        r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})",
        Take::Whole,
        real,
    );
    add(
        K::GitlabToken,
        &["gl", "gr1348941"],
        r"\b(?:gl(?:pat|dt|rt|ptt|cbt|oas|soat|ft|imt|agent|ffct)-[A-Za-z0-9_\-]{20,}|GR1348941[A-Za-z0-9_\-]{20,})",
        Take::Whole,
        real,
    );
    add(
        K::SlackToken,
        &["xox", "xapp-"],
        r"\b(?:xox[abposre]-[A-Za-z0-9\-]{10,}|xapp-\d-[A-Za-z0-9\-]{10,})",
        Take::Whole,
        real,
    );
    add(
        K::SlackToken,
        &["hooks.slack.com"],
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_\-]+",
        Take::Whole,
        None,
    );
    add(
        K::GoogleApiKey,
        &["aiza"],
        r"\bAIza[0-9A-Za-z_\-]{35}",
        Take::Whole,
        real,
    );
    add(
        K::GoogleOauth,
        &["gocspx-", "ya29."],
        r"\b(?:GOCSPX-[A-Za-z0-9_\-]{20,}|ya29\.[A-Za-z0-9_\-]{30,})",
        Take::Whole,
        real,
    );
    add(K::NpmToken, &["npm_"], r"\bnpm_[A-Za-z0-9]{36}\b", Take::Whole, real);
    add(
        K::PypiToken,
        &["pypi-age"],
        r"\bpypi-AgE[A-Za-z0-9_\-]{50,}",
        Take::Whole,
        None,
    );
    add(
        K::DockerToken,
        &["dckr_"],
        r"\bdckr_(?:pat|oat)_[A-Za-z0-9_\-]{20,}",
        Take::Whole,
        real,
    );
    add(
        K::HuggingfaceToken,
        &["hf_", "api_org_"],
        r"\b(?:hf|api_org)_[A-Za-z]{30,}\b",
        Take::Whole,
        real,
    );
    add(
        K::SendgridKey,
        &["sg."],
        r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}",
        Take::Whole,
        None,
    );
    add(K::TwilioKey, &["sk"], r"\bSK[0-9a-fA-F]{32}\b", Take::Whole, None);
    // An auth token right after the account SID it belongs to: `Client("AC…", "…")`.
    add(
        K::TwilioKey,
        &["ac"],
        r#"\bAC[0-9a-f]{32}["']?\s*,\s*["']([0-9a-f]{32})\b"#,
        Take::Group(1),
        None,
    );
    add(
        K::MailgunKey,
        &["-"],
        r"\b(?:key-[0-9a-f]{32}|[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})\b",
        Take::Whole,
        None,
    );
    add(
        K::MailchimpKey,
        &["-us"],
        r"\b[0-9a-f]{32}-us\d{1,2}\b",
        Take::Whole,
        None,
    );
    add(
        K::ShopifyToken,
        &["shp"],
        r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b",
        Take::Whole,
        None,
    );
    add(
        K::AtlassianToken,
        &["atatt3"],
        r"\bATATT3[A-Za-z0-9_\-=]{100,}",
        Take::Whole,
        None,
    );
    add(
        K::HerokuKey,
        &["hrku-"],
        r"\bHRKU-[A-Za-z0-9_\-]{40,}",
        Take::Whole,
        None,
    );
    add(
        K::DigitaloceanToken,
        &["_v1_"],
        r"\bdo[opr]_v1_[a-f0-9]{64}\b",
        Take::Whole,
        None,
    );
    add(
        K::LinearKey,
        &["lin_"],
        r"\blin_(?:api|oauth)_[A-Za-z0-9]{32,}",
        Take::Whole,
        real,
    );
    add(
        K::NotionToken,
        &["secret_", "ntn_"],
        r"\b(?:secret_[A-Za-z0-9]{43}|ntn_[0-9]{11}[A-Za-z0-9]{35})\b",
        Take::Whole,
        real,
    );
    add(
        K::DiscordToken,
        &["."],
        r"\b[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}",
        Take::Whole,
        None,
    );
    add(
        K::DiscordToken,
        &["discord"],
        r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]+",
        Take::Whole,
        None,
    );
    // No leading \b: the token follows "bot" directly in the API's URLs.
    add(
        K::TelegramToken,
        &[":aa"],
        r"\d{8,10}:AA[A-Za-z0-9_\-]{33}\b",
        Take::Whole,
        None,
    );
    add(
        K::NewrelicKey,
        &["nrak-", "nral", "nrjs-"],
        r"\b(?:NRAK-[A-Z0-9]{27}|[0-9a-f]{36}NRAL|NRJS-[a-f0-9]{19})\b",
        Take::Whole,
        None,
    );
    add(
        K::SentryKey,
        &["sntry"],
        r"\b(?:sntrys_[A-Za-z0-9+/=_]{40,}|sntryu_[a-f0-9]{64})",
        Take::Whole,
        None,
    );
    // A DSN's secret is its password part (https://<public>:<secret>@…) when it has one,
    // otherwise its key, the user part (https://<key>@o1.ingest.sentry.io/2).
    add(
        K::SentryKey,
        &["://"],
        r"https?://[0-9a-f]{32}:([0-9a-f]{32})@",
        Take::Group(1),
        None,
    );
    add(
        K::SentryKey,
        &["://"],
        r"https?://([0-9a-f]{32})@",
        Take::Group(1),
        None,
    );
    add(
        K::SquareToken,
        &["eaaa", "sq0"],
        r"\b(?:EAAA[A-Za-z0-9_\-]{56,}|sq0(?:atp|csp)-[A-Za-z0-9_\-]{22,})",
        Take::Whole,
        real,
    );
    add(
        K::BraintreeToken,
        &["access_token$"],
        r"access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}",
        Take::Whole,
        None,
    );
    add(
        K::PaypalToken,
        &["a21aa"],
        r"\bA21AA[A-Za-z0-9_\-]{80,}",
        Take::Whole,
        None,
    );
    add(
        K::FirebaseKey,
        &[":apa91b"],
        r"\bAAAA[A-Za-z0-9_\-]{7}:APA91b[A-Za-z0-9_\-]{100,}",
        Take::Whole,
        None,
    );
    add(
        K::TerraformToken,
        &[".atlasv1."],
        r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{60,}",
        Take::Whole,
        None,
    );
    add(
        K::VaultToken,
        &["hvs.", "hvb.", "hvr."],
        r"\bhv[sbr]\.[A-Za-z0-9_\-]{24,}",
        Take::Whole,
        real,
    );
    add(
        K::DopplerToken,
        &["dp."],
        r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9_.\-]{30,}",
        Take::Whole,
        real,
    );
    add(K::PulumiToken, &["pul-"], r"\bpul-[a-f0-9]{40}\b", Take::Whole, None);
    add(
        K::PostmanKey,
        &["pmak-"],
        r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b",
        Take::Whole,
        None,
    );
    add(
        K::GrafanaToken,
        &["glsa_", "glc_"],
        r"\b(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/=_\-]{32,})",
        Take::Whole,
        None,
    );
    add(
        K::Jwt,
        &["eyj"],
        r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",
        Take::Whole,
        None,
    );
    add(
        K::AzureKey,
        &["q~"],
        r"\b[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.\-]{31,34}",
        Take::Whole,
        None,
    );

    // Named values: the name, header or flag says the value is secret.
    add(
        K::GcpKeyId,
        &["private_key_id"],
        r#""private_key_id"\s*:\s*"([0-9a-f]{40})""#,
        Take::Group(1),
        None,
    );
    add(
        K::AzureKey,
        &["accountkey=", "sharedaccesskey=", "--account-key"],
        r#"(?i)(?:AccountKey=|SharedAccessKey=|--account-key[ =]["']?)([A-Za-z0-9+/]{40,}={0,2})"#,
        Take::Group(1),
        None,
    );
    add(
        K::AzureKey,
        &["sig="],
        r"[?&]sig=([A-Za-z0-9%+/=]{20,})",
        Take::Group(1),
        None,
    );
    add(
        K::AwsSecretKey,
        &["secret"],
        r#"(?i)(?:aws_?secret_?(?:access_?)?key|secret_?access_?key|secret_?key)["']?\s*[:=]\s*["']?([A-Za-z0-9/+=]{40})\b"#,
        Take::Group(1),
        None,
    );
    add(
        K::DatadogKey,
        &["key"],
        r#"(?i)\b(?:dd|datadog)[_-]?(?:api|app|application)[_-]?key["']?\s*[:=]\s*["']?([0-9a-f]{32,40})\b"#,
        Take::Group(1),
        None,
    );
    add(
        K::HerokuKey,
        &["heroku"],
        r#"(?i)heroku[a-z_]*key["']?\s*[:=]\s*["']?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"#,
        Take::Group(1),
        None,
    );
    add(
        K::OktaToken,
        &["ssws"],
        r"\bSSWS\s+([A-Za-z0-9_\-]{30,})",
        Take::Group(1),
        real,
    );
    add(
        K::DockerToken,
        &["\"auth\""],
        r#""auth"\s*:\s*"([A-Za-z0-9+/]{12,}={0,2})""#,
        Take::Group(1),
        None,
    );
    // user optional (redis://:pass@host); the password runs to the last '@' before the host.
    add(
        K::ConnectionString,
        &["://"],
        r"\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@\[\]]*:([^\s/\[\]]+)@[^\s@/]+",
        Take::Group(1),
        real,
    );
    add(
        K::BearerToken,
        &["bearer"],
        r"(?i)\bbearer[ \t]+([A-Za-z0-9._~+/=\-]{16,})",
        Take::Group(1),
        Some(|_, v| bearer_value(v)),
    );
    add(
        K::BearerToken,
        &["token", "basic"],
        r"(?i)\b(?:token|basic)[ \t]+([A-Za-z0-9._~+/=\-]{16,})",
        Take::Group(1),
        random,
    );
    add(
        K::BearerToken,
        &["--"],
        r#"(?i)--(?:auth|token|access-token|api-key|auth-token)[ =]["']?([A-Za-z0-9._~+/=:\-]{16,})"#,
        Take::Group(1),
        random,
    );
    // `.netrc`: machine HOST login USER password SECRET.
    add(
        K::PasswordAssignment,
        &["machine"],
        r"(?i)\bmachine\s+\S+\s+login\s+\S+\s+password\s+(\S+)",
        Take::Group(1),
        real,
    );
    // Passwords on a command line: mysql -p'…', redis-cli -a '…', docker login -p ….
    add(
        K::PasswordAssignment,
        &[" -p", " -a", "--password"],
        r#"(?:\s-p|\s-a|--password)(?:'([^'\s]{6,})'|"([^"\s]{6,})"|[ =]'([^'\s]{6,})'|[ =]"([^"\s]{6,})")"#,
        Take::First,
        real,
    );
    // Also DB_PASSWORD=..., MYSQL_ROOT_PASSWORD: ...; quoted values may hold any character
    // but a quote.
    add(
        K::PasswordAssignment,
        &["pass", "key", "token", "secret"],
        r#"(?i)(?:password|passwd|passphrase|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|secret[_-]?key)["']?\s*[:=]\s*(?:"([^"\n]{4,}?)"|'([^'\n]{4,}?)'|([^\s"',;\[\]]{6,}))"#,
        Take::First,
        real,
    );
    // A bare "secret" only with a token-like value (a digit in it), so prose such as
    // "secret: rotation happens weekly" stays.
    add(
        K::PasswordAssignment,
        &["secret"],
        r#"(?i)secret["']?\s*[:=]\s*["']?([A-Za-z_\-]*[0-9][^\s"',;\[\]]{5,})"#,
        Take::Group(1),
        real,
    );
    // Generic: a value given to a name that says it is secret, kept when it looks random.
    // The word before the name is part of the match so the check sees "public key".
    add(
        K::GenericSecret,
        &[
            "key",
            "secret",
            "token",
            "pass",
            "pwd",
            "credential",
            "auth",
            "sig",
            "salt",
        ],
        r#"(?i)(?:\b[a-z]+[ \t]+)?\b[a-z0-9_.\-]*(?:key|secret|token|passw|pwd|credential|auth|signature|salt|sig)[a-z0-9_.\-]*["']?\s*[:=]\s*["']?([A-Za-z0-9+/=_\-.~!@#$%^&*]{16,})"#,
        Take::Group(1),
        random,
    );
    // A credential an error message names: "401 Unauthorized for key X".
    add(
        K::GenericSecret,
        &["unauthori", "invalid", "forbidden", "expired", "revoked", "rejected"],
        r#"(?i)\b(?:unauthori[sz]ed|invalid|forbidden|expired|revoked|rejected)\b[^\n]{0,20}?\b(?:key|token|secret|credential)\s*:?\s+["'`]?([A-Za-z0-9+/=_\-.~]{16,})"#,
        Take::Group(1),
        random,
    );
    // A credential named in prose: "the staging credential is X", "the token you asked
    // for: X". The connecting "is" or colon is required: "file key X" names an id.
    add(
        K::GenericSecret,
        &["credential", "token", "key", "secret", "password"],
        r#"(?i)(?:\b[a-z]+[ \t]+)?\b(?:credential|token|key|secret|password)s?\b(?:\s+(?:is|was)|[^\n.;:]{0,24}?:)\s+["'`]?([A-Za-z0-9+/=_\-.~]{20,})"#,
        Take::Group(1),
        Some(|m, v| named_secret(m) && prose_value(v)),
    );
    rules
}

/// The pattern with ASCII word boundaries, spaces and digits: secrets are ASCII, and
/// Unicode classes make the rules slower to compile (42 → 30 ms for all of them in a
/// debug build).
pub(crate) fn ascii(re: &str) -> String {
    re.replace(r"\b", r"(?-u:\b)")
        .replace(r"\s", r"[\t\n\x0B\x0C\r ]")
        .replace(r"\d", "[0-9]")
        .replace(r"\w", "[A-Za-z0-9_]")
}

/// Values under `data:` of a Kubernetes Secret manifest: base64 of secret material, with
/// nothing in their shape to tell them apart from other base64. Only inside a manifest
/// that says `kind: Secret` (or the output of `kubectl get secret`).
pub(super) fn kubernetes_secret_data(text: &str) -> (String, usize) {
    let is_secret = text.contains("kind: Secret") || text.contains("get secret");
    if !is_secret {
        return (text.to_string(), 0);
    }
    let marker = super::marker(K::KubernetesSecret);
    let mut out = String::with_capacity(text.len());
    let mut count = 0;
    // The indentation of the `data:` line while inside its block.
    let mut in_data: Option<usize> = None;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let indent = body.len() - body.trim_start().len();
        let trimmed = body.trim();
        if in_data.is_some_and(|base| !trimmed.is_empty() && indent <= base) {
            in_data = None;
        }
        if let Some(redacted) = in_data.and_then(|_| redact_data_value(line, &marker)) {
            out.push_str(&redacted);
            count += 1;
            continue;
        }
        if trimmed == "data:" || trimmed == "stringData:" {
            in_data = Some(indent);
        }
        out.push_str(line);
    }
    (out, count)
}

/// Whether the name in a match is that of a secret: not a public key, an id or a file,
/// cache or dedup key, and not a setting about secrets (an endpoint, a length, a backend).
fn named_secret(matched: &str) -> bool {
    let name: String = matched
        .split(['=', ':'])
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let not_secret = [
        "public",
        "publishable",
        "file key",
        "cache",
        "dedup",
        "sort",
        "partition",
        "primary",
        "foreign",
        "endpoint",
        "_url",
        "_uri",
        "_id",
        "-id",
        "prefix",
        "length",
        "ttl",
        "backend",
        "provider",
        "version",
        "checksum",
        "digest",
        "fingerprint",
        "integrity",
        "project",
        "path",
        "_name",
    ];
    !not_secret.iter().any(|w| name.contains(w))
}

/// `  NAME: BASE64` with the value replaced by `marker`; `None` for any other line.
fn redact_data_value(line: &str, marker: &str) -> Option<String> {
    let (name, rest) = line.split_once(':')?;
    let name = name.trim();
    let value = rest.trim();
    let base64 = value.len() >= 8
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='));
    if !base64 || name.is_empty() || name.contains(' ') {
        return None;
    }
    let head_len = line.len() - rest.len();
    Some(format!("{}{}", line.get(..head_len)?, rest.replacen(value, marker, 1)))
}

/// Not a placeholder: no `<…>`, `${…}`, `{{…}}`, `xxxx`, `****`, `...`, `YOUR_…`.
pub(super) fn not_placeholder(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    // A run of x in one case is filler; "XXXxaaa…" is a random token that has one.
    let fillers = ["****", "...", "…", "••", "<", ">", "${", "{{", "%(", "$("];
    if fillers.iter().any(|f| lower.contains(f))
        || value.contains("xxxx")
        || value.contains("XXXX")
        || lower.starts_with('$')
        || value.ends_with("xxx")
        || value.ends_with("XXX")
    {
        return false;
    }
    let words = [
        "your_",
        "your-",
        "changeme",
        "example",
        "placeholder",
        "redacted",
        "hidden",
        "dummy",
    ];
    if words.iter().any(|w| lower.contains(w)) {
        return false;
    }
    // A token of few distinct characters is filler ("ghp_000000…").
    let mut seen = [false; 128];
    let distinct = value
        .bytes()
        .filter(|b| b.is_ascii())
        .filter(|&b| !std::mem::replace(&mut seen[usize::from(b)], true))
        .count();
    distinct >= 6 || value.len() < 12
}

/// A bearer or basic credential, unless it is a placeholder or a word such as a scheme
/// name (`token authentication`).
fn bearer_value(value: &str) -> bool {
    not_placeholder(value) && (value.bytes().any(|b| b.is_ascii_digit()) || shannon(value) >= 3.5)
}

/// Random-looking: long enough, not a placeholder, not words joined by separators, with
/// letters and digits mixed and at least 3 bits of entropy per character.
pub(super) fn looks_random(value: &str) -> bool {
    let value = value.trim_end_matches(['.', ',']);
    if value.len() < 16 || !not_placeholder(value) || wordy(value) {
        return false;
    }
    let digits = value.bytes().filter(u8::is_ascii_digit).count();
    let letters = value.bytes().filter(u8::is_ascii_alphabetic).count();
    digits >= 2 && letters >= 2 && shannon(value) >= 3.0
}

/// A value in prose is a credential only when it is clearly random: mixed case or digits
/// among letters, longer, and not hex alone (hashes and ids are quoted in prose all the
/// time), and not a URL or a path.
fn prose_value(value: &str) -> bool {
    let value = value.trim_end_matches(['.', ',']);
    if value.len() < 20 || !looks_random(value) || value.contains("//") {
        return false;
    }
    let hex = value.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-');
    let upper = value.bytes().any(|b| b.is_ascii_uppercase());
    let lower = value.bytes().any(|b| b.is_ascii_lowercase());
    !hex && upper && lower && shannon(value) >= 4.0
}

/// Words and numbers joined by `-`, `_`, `.` or `/` (`prod-db-credentials-2024`,
/// `acme.internal`): every part is all lower-case letters, all digits, or short.
fn wordy(value: &str) -> bool {
    value
        .split(['-', '_', '.', '/', ':'])
        .filter(|p| !p.is_empty())
        .all(|p| {
            p.len() <= 3
                || p.bytes().all(|b| b.is_ascii_lowercase())
                || p.bytes().all(|b| b.is_ascii_digit())
                || (p.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
                    && p.bytes().skip(1).all(|b| b.is_ascii_lowercase()))
        })
}

/// Shannon entropy of the characters of `value`, in bits per character.
pub(super) fn shannon(value: &str) -> f64 {
    let mut counts = std::collections::HashMap::new();
    let mut n = 0usize;
    for c in value.chars() {
        *counts.entry(c).or_insert(0usize) += 1;
        n += 1;
    }
    if n == 0 {
        return 0.0;
    }
    counts
        .values()
        .map(|&c| {
            let p = c as f64 / n as f64;
            -p * p.log2()
        })
        .sum()
}
