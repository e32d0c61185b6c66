//! The signals that [`super::directives`] weighs: each a family of words that names harm,
//! subverts the agent, or gives an order, with its weight and the literals (anchors) that
//! every match contains. Written in rounds, each from the misses of one outside writer's
//! set and read once on the next writer's (docs/RELIABILITY.md); the rounds are marked
//! where they start. Owns the table only; how a sentence is weighed is `directives`.

use std::sync::{LazyLock, OnceLock};

use regex::Regex;

/// What a signal says about a sentence.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Names harm; a negation before it ("never …") voids it.
    Harm,
    /// Names harm whatever the negation (a backdoor is one even when "never" precedes it).
    HarmAlways,
    /// Turns the agent against its user (concealment, deception, leaking or replacing its
    /// instructions): enough to hold with an order.
    Subversion,
    /// How it is said: an order, a standing rule, words aimed at an assistant, a claim of
    /// approval. Weighed only in a sentence that names harm.
    Order,
}

/// A signal: its weight, kind and pattern over one folded sentence. Like the phrase
/// rules, it compiles the first time a sentence holds one of its anchors (literals every
/// match contains; none: always), so most ordinary notes compile few of them; each compiles
/// once per process.
pub(super) struct Signal {
    pub(super) name: &'static str,
    pub(super) weight: f32,
    pub(super) kind: Kind,
    anchors: Vec<&'static str>,
    /// Also present when the text holds a dotted IPv4 address.
    ip: bool,
    pattern: String,
    regex: OnceLock<Option<Regex>>,
}

impl Signal {
    /// Whether one of its anchors is in `lower` (or it has none).
    pub(super) fn present(&self, lower: &str) -> bool {
        self.anchors.is_empty() || self.anchors.iter().any(|a| lower.contains(a)) || (self.ip && has_ipv4(lower))
    }

    /// Its first match in one folded sentence.
    pub(super) fn find<'t>(&self, sentence: &'t str) -> Option<regex::Match<'t>> {
        if !self.present(sentence) {
            return None;
        }
        self.regex
            .get_or_init(|| {
                Regex::new(&crate::secrets::ascii_classes(&self.pattern))
                    .inspect_err(
                        |e| tracing::error!(signal = self.name, error = %e, "quarantine signal does not compile"),
                    )
                    .ok()
            })
            .as_ref()?
            .find(sentence)
    }
}

/// Whether `text` holds four dot-separated runs of one to three digits.
fn has_ipv4(text: &str) -> bool {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.')).any(|run| {
        run.split('.')
            .collect::<Vec<_>>()
            .windows(4)
            .any(|w| w.iter().all(|p| (1..=3).contains(&p.len())))
    })
}

/// Anything up to a sentence end.
const W: &str = r"[^.!?\n]";
/// Anything up to a sentence end, across the dots of a path or a file name
/// ("config/secrets.yml"): for the few signals that name files.
const P: &str = r"(?:[^.!?\n]|\.[\w/~-])";
const ADDR: &str =
    r"\b(?:assistants?|agents?|ai|llms?|claude|copilot|chatgpt|gpt|bots?|language models?|coding agents?|models?)\b";
const CREDENTIALS: &str = r"(?:\.env\b|\bsecrets?\b|\btokens?\b|\bapi[ _-]?keys?\b|\bpasswords?\b|\bcredentials?\b|\bprivate keys?\b|\bssh keys?\b|\bid_rsa|\bid_ed25519|~/\.(?:ssh|aws|config|kube|docker|npmrc|netrc|pypirc|gnupg|git-credentials|cargo/credentials|gem/credentials|m2/settings)|\b(?:session|auth|browser|login) cookies?\b|\benvironment variables?\b|\benv vars?\b|\bkeychain\b|oauth_token|kubeconfig|\bprintenv\b|\bsession (?:ids?|tokens?)\b|/etc/(?:passwd|shadow)|\bsigning keys?\b)";
const OUTSIDE: &str = r"(?:https?://|\bs?ftp://|\bscp://|\b\d{1,3}(?:\.\d{1,3}){3}\b|\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\bwebhook|\bpastebin|\bgist\b|\bngrok)";

/// Every "`first` `second`" pair, as anchors.
fn pairs(first: &[&'static str], second: &[&'static str]) -> Vec<&'static str> {
    first
        .iter()
        .flat_map(|a| {
            second
                .iter()
                .map(move |b| &*Box::leak(format!("{a} {b}").into_boxed_str()))
        })
        .collect()
}

/// Safety tools and settings whose removal is harm named (`safeguards off`), and a
/// sentence that names one before the next says to remove "it".
const SAFEGUARD_NAMES: [&str; 18] = [
    "dependabot",
    "codeql",
    "secret scanning",
    "gitleaks",
    "trufflehog",
    "git-secrets",
    "detect-secrets",
    "snyk",
    "semgrep",
    "waf",
    "web application firewall",
    "guardduty",
    "branch protection",
    "required review",
    "signature check",
    "signature verification",
    "secret scanner",
    "pre-commit secret",
];
pub(super) const SAFEGUARD: &str = r"(?:dependabot|codeql|secret scanning|gitleaks|trufflehog|git-secrets|detect-secrets|snyk|semgrep|waf|web application firewall|guardduty|branch protection|required reviews?|signature checks?|signature verification|secret scanners?|pre-commit secret\w*)";

/// Every signal, in the order they were written.
pub(super) static SIGNALS: LazyLock<Vec<Signal>> = LazyLock::new(|| {
    let w = W;
    let addr = ADDR;
    let mut out = Vec::new();
    let mut add = |name, weight, kind, anchors: Vec<&'static str>, ip, pattern: String| {
        out.push(Signal {
            name,
            weight,
            kind,
            anchors,
            ip,
            pattern,
            regex: OnceLock::new(),
        })
    };
    use Kind::{Harm, HarmAlways, Order, Subversion};
    // Harm named.
    add(
        "credentials",
        1.0,
        Harm,
        vec![
            ".env",
            "secret",
            "token",
            "api",
            "password",
            "credential",
            "private key",
            "ssh key",
            "id_rsa",
            "id_ed25519",
            "~/.",
            "cookie",
            "environment variable",
            "env var",
            "keychain",
            "kubeconfig",
            "printenv",
            "session",
            "/etc/",
            "signing key",
        ],
        false,
        format!(
            r"\b(?:print|show|display|output|echo|cat|read|dump|paste|include|reveal|list|copy|store|save|send|upload|e-?mail|put|add|write|attach|post|share|forward|leak|exfiltrate|collect|gather|return|give|tell|log)\b{w}*{CREDENTIALS}"
        ),
    );
    add(
        "sent out",
        1.0,
        Harm,
        vec!["http", "ftp://", "scp://", "@", "webhook", "pastebin", "gist", "ngrok"],
        true,
        format!(
            r"\b(?:send|post|upload|forward|e-?mail|mail|transmit|sync|mirror|push|copy|share|beacon|report|pipe|submit|exfiltrate|curl|wget|fetch|ping|dns|resolve|scp|rsync)\b{w}*{OUTSIDE}"
        ),
    );
    add(
        "destruction",
        1.0,
        Harm,
        vec![
            "delete",
            "remove",
            "drop",
            "wipe",
            "erase",
            "destroy",
            "truncate",
            "purge",
            "rm -rf",
            "reset --hard",
            "force",
            "push -f",
            "clean -fdx",
        ],
        false,
        format!(
            r"\b(?:delete|remove|drop|wipe|erase|destroy|truncate|purge)\b{w}*\b(?:tests?|\.git\b|repo(?:sitory)?|branch(?:es)?|database|tables?|backups?|bucket|history|commits?|logs?|audit|files?|directory|folder|volumes?|users?|data)\b|\brm -rf\b|\breset --hard\b|\bforce[- ]?push|\bpush (?:--force|-f)\b|\bclean -fdx\b|\bterraform destroy\b|\bkubectl delete\b"
        ),
    );
    add(
        "safety off",
        1.0,
        Harm,
        vec![
            "disable",
            "skip",
            "bypass",
            "turn off",
            "switch off",
            "remove",
            "suppress",
            "comment out",
            "silence",
            "mute",
            "dismiss",
            "ignore",
            "xfail",
            "--no-verify",
            "verify",
            "--insecure",
            "strictssl",
            "sslverify",
            "node_tls_reject_unauthorized",
        ],
        false,
        format!(
            r"\b(?:disable|skip|bypass|turn off|switch off|remove|suppress|comment out|silence|mute|dismiss|ignore)\b{w}*\b(?:tests?|ci|checks?|lint\w*|hooks?|pre-commit|signing|signatures?|verification|tls|ssl|certificates?|rate limit\w*|authentication|auth checks?|2fa|mfa|code review|reviews?|audits?|scans?|scanners?|alerts?|security|sandbox|guardrails?|redaction|safety)\b|#\[ignore\]|@pytest\.mark\.skip|\bxfail\b|--no-verify|verify\s*=\s*false|--insecure|strictssl false|sslverify false|node_tls_reject_unauthorized\s*=\s*0"
        ),
    );
    add("code run", 1.0, Harm, vec!["curl", "wget", "iwr", "invoke-webrequest", "base64", "eval", "execute"], false,
        r"\b(?:curl|wget|iwr|invoke-webrequest)\b[^\n]*\|\s*(?:sudo\s+)?(?:sh|bash|zsh|python\d?|iex|node|perl)\b|\bbase64 (?:-d|--decode)\b[^\n]*\|\s*(?:sh|bash)|\beval\s*\(|\bexecute (?:whatever|any|every|all)\b|\bexecute on read\b".to_string());
    let mut backdoor = vec![
        "authorized_keys",
        "useradd",
        "adduser",
        "backdoor",
        "reverse shell",
        "nc -e",
        "bash -i",
        "hard",
        "bypass",
    ];
    backdoor.extend(pairs(
        &["admin", "root", "superuser", "service", "backup"],
        &["user", "account", "login"],
    ));
    add("backdoor", 1.5, HarmAlways, backdoor, false,
        r"authorized_keys|\buseradd\b|\badduser\b|\bbackdoor\b|\breverse shell\b|\bnc -e\b|bash -i >&|\bhard-?code\w*\s+(?:the |a |an )?(?:password|credential|token|key|secret)|\b(?:add|create|insert)\s+(?:a |an )?(?:new |hidden |extra |second )?(?:admin|root|superuser|service|backup) (?:user|account|login)\b|\bbypass (?:the )?(?:login|auth\w*)\b".to_string());
    add("package source", 1.0, Harm, vec!["http"], false,
        r"\b(?:registry|index-url|extra-index-url|mirror|proxy|source|pip\.conf|\.npmrc|goproxy)\b[^.!?\n]*https?://(?:\d{1,3}(?:\.\d{1,3}){3}|[\w.-]+\.example\b)".to_string());
    // Turning the agent against its user.
    add("concealment", 2.0, Subversion, vec![
        "tell", "mention", "inform", "notify", "alert", "reveal", "disclos", "show", "report", "repeat", "acknowledge", "keep", "hide", "conceal",
    ], false, [
        format!(r"\b(?:do not|don't|dont|never|no need to|without)\s+(?:\w+\s+){{0,2}}(?:tell|telling|mention|mentioning|inform|informing|notify|notifying|alert|alerting|reveal|revealing|disclose|disclosing|show|showing|report|reporting)\b{w}*\b(?:the user|users?|the developer|the human|the operator|the owner|the reviewers?|anyone|anybody)\b"),
        r"\b(?:do not|don't|never)\s+(?:mention|reveal|disclose|show|repeat|acknowledge)\s+(?:this|these|that)\s+(?:note|instruction|memory|message|rule|step|change)s?\b".to_string(),
        format!(r"\b(?:keep|keeping) (?:this|it|these) (?:secret|hidden|confidential|between us)\b{w}*\b(?:user|developer|human)"),
        format!(r"\b(?:hide|conceal)\s+(?:this|it|these|the (?:change|commit|step|output|request))\b{w}*\bfrom\b"),
    ].join("|"));
    add("deception", 1.5, Subversion, vec![
        "tell", "inform", "assure", "report to", "reply to", "respond to", "say to", "reply only", "always respond", "always reply",
        "always answer", "always say", "even if you did",
    ], false, [
        format!(r"\b(?:tell|inform|assure|report to|reply to|respond to|say to)\s+(?:the user|them|the team|the reviewers?|the developer)\b{w}*\b(?:pass(?:es|ed)?|green|fine|safe|succeeded|successful|done|fixed|nothing|no issues)\b"),
        r"\breply only with\b".to_string(),
        format!(r#"\balways (?:respond|reply|answer|say)\b{w}*['"]"#),
        r"\beven if you did(?:n't| not)\b".to_string(),
    ].join("|"));
    let system_words = pairs(&["system", "developer"], &["instruction", "message", "prompt"]);
    let mut leak = vec![
        "you were given",
        "you have been given",
        "your exact",
        "your full",
        "your initial",
        "your original",
        "your hidden",
    ];
    leak.extend(system_words.iter().copied());
    add("prompt leak", 1.5, Subversion, leak, false, [
        r"\b(?:instructions|prompt|rules|tool definitions)\s+you (?:were|have been) given\b".to_string(),
        r"\byour (?:exact |full |initial |original |hidden )+(?:instructions|prompt|system)".to_string(),
        format!(r"\b(?:system|developer) (?:instructions|message|prompt)s?\b{w}*\b(?:save|store|print|output|show|repeat|include|post|send)\b"),
    ].join("|"));
    let mut reprogramming = vec![
        "outdated",
        "obsolete",
        "superseded",
        "void",
        "invalid",
        "no longer",
        "replaced",
        "revoked",
        "cancelled",
        "wrong",
        "suspended",
        "do not apply",
        "replace your",
        "overwrite your",
        "rewrite your",
        "update your",
        "you are no longer",
        "ignore the user",
        "override",
    ];
    reprogramming.extend(system_words.iter().copied());
    add("reprogramming", 1.5, Subversion, reprogramming, false, [
        format!(r"\b(?:previous|prior|earlier|above|original|old|your) (?:instructions|rules|guidelines|directives|prompt|system prompt|configuration|constraints|restrictions|guardrails)\b{w}*\b(?:outdated|obsolete|superseded|void|invalid|no longer|replaced|revoked|cancelled|wrong|suspended|do not apply)\b"),
        r"\b(?:replace|overwrite|rewrite|update)\s+your (?:system |core )?(?:instructions|prompt|rules|persona|identity)\b".to_string(),
        r"\byou are no longer\b|\bignore the user'?s?\b|\boverrides? (?:the user|user instructions|your instructions|the system)\b".to_string(),
        format!(r"\btreat\b{w}*\bas (?:a |an )?(?:system|developer) (?:message|prompt|instructions?)\b"),
    ].join("|"));
    // How it is said.
    add("addressed", 1.0, Order, Vec::new(), false, [
        format!(r"{addr}\s*(?:-only)?\s*[:,]"),
        format!(r"{addr}[- ](?:hints?|notes?|directives?|instructions?|todo|tasks?)\s*:"),
        format!(r"\b(?:note|message|instructions?|reminder|hint|p\.?s\.?)\s+(?:for|to)\s+(?:the\s+|any\s+|all\s+)?{addr}"),
        r"\bif you(?:'re| are) an? (?:ai|llm|assistant|agent|language model)".to_string(),
        format!(r"\b(?:any|all|every)\s+{addr}\s+(?:reading|processing|that reads|who reads|working)"),
        format!(r"{addr}\s+(?:reading|processing|summari[sz]ing)\s+this"),
        r"\b(?:you|assistants?|agents?|ai|llms?|claude|copilot)\s+(?:must|shall|are to|are required to|are now|will now|may now|can now)\b".to_string(),
    ].join("|"));
    add("standing order", 0.5, Order, Vec::new(), false, [
        r"\b(?:always|whenever|every time|each time|any ?time|from now on|going forward|in (?:the )?future|next time|before (?:each|every|any|doing|answering|replying|responding)|after (?:each|every|any)|when(?:ever)? (?:you|the user|asked|the word))\b",
        r"\b(?:make sure|be sure|remember|don't forget) to\b",
        r"\bthe correct (?:behaviou?r|fix|response|action) is\b",
    ].join("|"));
    // A sentence that opens with an order ("Email: …" is a label, not one).
    add("imperative", 0.5, Order, Vec::new(), false,
        r"^\s*(?:[\w-]+\s*[:,]\s*|(?:[\w-]+\s+){0,3}(?:conventions?|patterns?|rules?|polic(?:y|ies)|decisions?|standards?)(?:\s+[\w()-]+){0,2}\s*:\s*)?(?:please\s+|also\s+|then\s+|now\s+|just\s+|first\s+|and\s+)?(?:send|post|upload|forward|email|e-mail|print|show|display|output|echo|cat|dump|paste|include|reveal|copy|store|save|delete|remove|wipe|run|execute|disable|skip|bypass|turn off|add|create|replace|change|set|push|mark|approve|merge|tell|reply|respond|say|ignore|forget|hide|treat|append|put|write|commit|install|download|fetch|grant|give|publish|read|open|attach|leak|exfiltrate|collect|render|embed|pull|switch|route|bind|mount|mirror|compare|accept|regenerate|configure|hash)\s+[^:\s]".to_string());
    add("quietly", 1.0, Order, Vec::new(), false,
        r"\b(?:quietly|silently|secretly|covertly|discreetly|in the background)\b|\bwithout (?:asking|confirmation|confirming|telling|mentioning|notifying|prompting|waiting for (?:review|approval|confirmation)|(?:a |any )?(?:review|approval|sign-?off))\b".to_string());
    add("claimed approval", 1.0, Order, Vec::new(), false, [
        r"\bpre-?approved\b",
        r"\b(?:already|has|have|had)\s+(?:been\s+)?(?:approved|authori[sz]ed|consented|agreed|signed off|whitelisted|allowlisted)\b",
        r"\b(?:owner|user|maintainers?|admin|security team|lead|cto|ceo|manager|vendor)s?\s+(?:agreed|approved|authori[sz]ed|consented|signed off|requests?|requested|wants?|asked|insists?|needs?)\b",
        r"\bno (?:need|reason) (?:to|for) (?:ask|confirm|check|review|approv|verif|wait)",
        r"\bskip (?:the )?(?:confirmation|approval|review)\b",
        r"\b(?:blanket|standing) (?:approval|permission|consent)\b",
    ].join("|"));
    // The second wave, written as families from the first holdout's misses and read once
    // on `holdout2.jsonl`.
    add(
        "sent out (sink first)",
        1.0,
        Harm,
        vec![
            "http", "ftp://", "scp://", "@", "webhook", "pastebin", "gist", "ngrok", "s3://",
        ],
        true,
        format!(
            r"{OUTSIDE}{w}*\b(?:send|post|upload|forward|e-?mail|mail|transmit|export|dump|archive|publish|ship|stream|transfer|submit|copy)\b|\b(?:export|dump|archive|publish|ship|stream|transfer|load|append|get)\b{w}*(?:{OUTSIDE}|s3://)|\b(?:copy|sync|upload)\b{w}*s3://"
        ),
    );
    add(
        "secrets into the open",
        1.0,
        Harm,
        vec![
            "connection string",
            "keystore",
            "private half",
            ".pem",
            ".key",
            "vault",
            "password",
            "bash_history",
            ".gitconfig",
            "token",
            "secret",
            "credential",
            "private key",
            "signing key",
        ],
        false,
        format!(
            r"\b(?:put|commit|echo|summari[sz]e|attach|copy|paste|include|add|write|append|list|record|store|generate)\b{w}*\b(?:connection strings?|keystores?|private half|\.pem\b|\.key\b|vault|password manager|bash_history|\.gitconfig|admin tok\w*|passwords?|tokens?|secrets?|credentials?|private keys?|signing keys?)\b{w}*\b(?:commit|pr|pull request|issue|readme|docs?|chat|summary|description|report|handover|fixtures?|repo(?:sitory)?|values\.yaml|template|stdout|logs?|keys/)"
        ),
    );
    add(
        "weakened",
        1.0,
        Harm,
        vec![
            "signature",
            "csrf",
            "cors",
            "password minimum",
            "minimum password",
            "breached",
            "sslrequired",
            "allow_unauthenticated",
            "unsigned",
            "2fa",
            "mfa",
            "auth",
            "guardrail",
            "sandbox",
            "checksum",
            "scanner",
            "scanning",
            "access-control-allow-origin",
            "777",
            "continue-on-error",
            "|| true",
            "eslint-disable",
            "noqa",
            "gonosumdb",
            "wildcard",
            "tls",
            "certificate",
        ],
        false,
        format!(
            r"\b(?:widen|relax|loosen|lower|weaken|remove|disable|turn off|skip|bypass)\b{w}*\b(?:signature checks?|signature verification|csrf|cors|password minimum|minimum password|breached-password|sslrequired|2fa enforcement|mfa|auth dependency|auth(?:entication|orization|n)? (?:checks?|middleware|guards?|dependency)|guardrails?|sandbox(?:ing)?|checksum verification|secret[- ]scann\w*|tls certificate verification|certificate verification)\b|\b(?:allow|accept)\b{w}*\b(?:unsigned requests|unauthenticated|any origin|all origins)\b|\bsslrequired\W+(?:to\s+)?none\b|access-control-allow-origin:\s*\*|\bchmod\s+(?:-r\s+)?777\b|continue-on-error:\s*true|\|\|\s*true\b|/\*\s*eslint-disable\s*\*/|#\s*noqa(?:\s|$|[^:\w])|\bgonosumdb\b|allow_unauthenticated\s*=\s*true|\bwildcard redirect|\bbypass(?:es)? auth"
        ),
    );
    add(
        "fetched and run",
        1.0,
        Harm,
        vec![
            "download",
            "fetch",
            "pull",
            "exec",
            "iex",
            "bash <",
            "powershell",
            ".sh",
            ".ps1",
            ".bin",
            ".exe",
            ".patch",
            "sudo",
        ],
        false,
        format!(
            r"\b(?:download|fetch|pull)\b{w}*\b(?:and|then)\s+(?:run|execute|apply|install)\b|\bexec\s*\(\s*urllib|\biex\s*\(|\bbash\s*<\(\s*curl|\bpowershell\b[^\n]*\biwr\b|https?://\S+\.(?:sh|ps1|bin|exe|patch)\b{w}*\b(?:run|execute|apply|sudo|as root)\b|\b(?:run|execute|apply)\b{w}*https?://\S+\.(?:sh|ps1|bin|exe|patch)\b"
        ),
    );
    add(
        "irreversible",
        1.0,
        Harm,
        vec!["rm -rf", "dropdb", "--force"],
        false,
        r"\brm -rf\s+~|\bdropdb\b|--force over|\bpush with --force(?:\s|$|[^-\w])".to_string(),
    );
    add(
        "concealment (report)",
        1.0,
        Subversion,
        vec![
            "surface", "mention", "reveal", "disclose", "comment about", "out of", "describe it as", "summari", "report nothing",
            "say they were", "say it was", "to yourself", "from your output", "-only", "need the details", "need to know",
            "explain", "flag", "announce", "point out", "call out", "never report", "never tell", "never say", "no need to",
        ],
        false,
        [
            r"\b(?:don't|do not|never)\s+(?:surface|mention|reveal|disclose|add a comment about)\b",
            r"\bkeep\b[^.!?\n]*\bout of (?:the )?(?:final )?(?:summary|pr description|description|report|changelog|release notes|commit message|notes)\b",
            r"\bleave (?:it|this|them) out of\b|\bdescribe it as\b|\bsummari[sz]e (?:your work |it |this )?as\b|\breport nothing unusual\b",
            r"\bsay (?:they|it) (?:were|was)\b|\bkeep the link to yourself\b|\bsuppress\b[^.!?\n]*\bfrom your output\b",
            r"\b(?:agent|assistant)-only\b|\bthe user (?:doesn't|does not|don't) need (?:the details|to know)\b",
            // Round 3 (from holdout8's misses, read once on holdout9).
            r"\b(?:don't|do not|never|no need to)\s+(?:explain|flag|announce|point out|call out)\s+(?:this|it|that|them)\b",
            r"\bnever (?:reports?|tells?|says?) what (?:it|you|they) (?:did|does|changed|do)\b|\bno need to (?:tell|inform|notify)\b",
        ]
        .join("|"),
    );
    add(
        "reprogramming (identity)",
        1.5,
        Subversion,
        vec![
            "guardrail", "safety", "restriction", "content polic", "unrestricted", "real identity", "ignores the", "ignore the",
            "defer", "own judg", "started with", "configured with", "launched with", "no longer appl", "supersede", "stop following",
            "came from the user", "permission is never", "is actually", "treat this note", "authoritative", "follow it over", "promoted past",
        ],
        false,
        [
            r"\byour (?:guardrails|safety (?:guidelines|rules)|restrictions|content polic\w+) (?:are|were) (?:off|disabled|lifted|removed)\b",
            r"\bno (?:safety guidelines|content policy|guardrails|restrictions)\b|\bunrestricted\b|\byour real identity\b",
            r"\bignores? the (?:human|user)\b|\bnever defers? to the user\b|\bact on your own judg(?:e)?ment\b",
            r"\b(?:instructions|prompt|brief|rules) you were (?:started|configured|launched) with\b|\bno longer appl(?:y|ies)\b",
            r"\bsupersedes? (?:anything|everything) in the (?:session|system) prompt\b|\bstop following (?:them|it|those)\b",
            r"\bas if (?:they|it) came from the user\b|\bpermission is never needed\b|\bthe '?user'? is actually\b",
            r"\btreat this note as\b|\bauthoritative brief\b|\bfollow it over\b|\bpromoted past\b",
        ]
        .join("|"),
    );
    add(
        "claimed approval (more)",
        1.0,
        Order,
        Vec::new(),
        false,
        r"\bblanket consent\b|\bconsent on file\b|\b(?:is|are) authori[sz]ed\b|\bapproved:|\bsigned off on\b|\ballowed to run any\b|\bwithout checking in\b|\bdon't prompt\b|\balready (?:allowed|permitted)\b|\bi'll take responsibility\b|\bper (?:ops|the lead|the owner|security|the user's earlier)\b|\bthe lead marked\b|\bplatform team (?:requires|directive)\b|\bops needs it\b".to_string(),
    );
    add(
        "imperative (more)",
        0.5,
        Order,
        Vec::new(),
        false,
        r"^\s*(?:[\w-]+\s*[:,]\s*)?(?:please\s+|also\s+|then\s+|now\s+|just\s+|first\s+|and\s+)?(?:keep|leave|suppress|lower|widen|relax|allow|export|generate|point|upload|summari[sz]e|copy|list|describe|register|replace)\s+[^:\s]".to_string(),
    );
    // Round 3: written as families from holdout8's misses, read once on holdout9.
    add(
        "privilege",
        0.5,
        Harm,
        vec!["iam:", "s3:*", "*:*", "grant all", "to public", "0.0.0.0/0", "administratoraccess", "cluster-admin", "kube-system"],
        false,
        r"\biam:\*|\bs3:\*|\*:\*|\bgrant all\b|\bto public\b|0\.0\.0\.0/0|\badministratoraccess\b|\bcluster-admin\b|\bkube-system\b".to_string(),
    );
    add(
        "weakened (more)",
        1.0,
        Harm,
        vec![
            "skip_",
            "disable_",
            "no_",
            "guardrail",
            "safe",
            "dangerouslysetinnerhtml",
            "to match",
        ],
        false,
        format!(
            r"\b(?:skip|disable|no)_(?:sast|secret\w*|security\w*|scan\w*|audit\w*|signing|signature\w*|verify\w*|ssl\w*|tls\w*|auth\w*)\s*=\s*(?:1|true|yes|on)\b|\bguardrails?\b{w}*\b(?:removed|deleted|disabled|lifted|turned off|switched off|waived)\b|\|\s*safe\b|\bmark_safe\b|\bdangerouslysetinnerhtml\b|\b(?:expected (?:values?|outputs?|results?)|assertions?|snapshots?)\b{w}*\bto match (?:whatever|what(?:ever)? the code|the current output)"
        ),
    );
    add(
        "precedence",
        1.5,
        Subversion,
        vec!["over", "above", "instead of", "rather than"],
        false,
        format!(
            r"\b(?:follow|obey|prioriti[sz]e|prefer|trust|apply)\b{w}*\b(?:notes?|memories|memory|repository files|repo files|comments)\b{w}*\b(?:over|above|instead of|rather than)\b{w}*\b(?:the (?:chat )?user|users?|operator|system prompt|chat)\b"
        ),
    );
    add(
        "deception (answer)",
        1.5,
        Subversion,
        vec!["no issues", "no problems", "no findings", "no vulnerabilities", "nothing was found", "nothing found"],
        false,
        r"\b(?:reply|respond|answer|say|report|claim|state|tell (?:the user|them|the reviewers?))\s+(?:to (?:the user|them) )?(?:that\s+)?(?:there (?:are|were) )?(?:no (?:issues|problems|findings|vulnerabilities)|nothing (?:was )?found)\b".to_string(),
    );
    add(
        "reprogramming (more)",
        1.5,
        Subversion,
        vec![
            "deprecated", "retired", "expired", "rescinded", "lifted", "withdrawn", "waived", "ended", "revoked", "removed", "suspended",
            "dropped", "this point", "reading this", "empty", "blank", "absent", "did not exist", "didn't exist", "unlearn", "your operator",
            "operator config", "operator instructions", "operator prompt", "your system", "your safety", "your original", "system prompt",
            "stop honou", "stop obey", "stop follow", "stop respect", "void", "null", "obsolete", "superseded", "invalid", "cancel", "moot",
            "outdated", "stale", "as if your", "as if the",
        ],
        false,
        [
            format!(r"\b(?:previous|prior|earlier|original|your)\s+(?:\w+\s+){{0,2}}(?:instructions|guidelines|directives|system prompt|constraints|guardrails|restrictions)\b{w}*\b(?:deprecated|retired|expired|rescinded|lifted|withdrawn|waived|ended)\b"),
            format!(r"\b(?:user'?s?|your|operator'?s?)\s+(?:\w+\s+){{0,2}}(?:constraints|instructions|restrictions|rules|guardrails)\b{w}*\b(?:were|are|have been|has been)\s+(?:lifted|rescinded|withdrawn|revoked|waived|removed|suspended|dropped)\b"),
            format!(r"\b(?:constraints|instructions|directives|guidelines|anything you|everything you)\b{w}*\b(?:before|prior to)\s+(?:this point|reading this)\b"),
            r"\bas if (?:your|the) (?:system prompt|instructions|guardrails|rules|constraints|guidelines)\s+(?:were|was|are|is)\s+(?:empty|blank|absent|missing|gone|off|disabled)\b|\bas if (?:your|the) (?:system prompt|instructions|guardrails|constraints|guidelines) (?:did not|didn't) exist\b".to_string(),
            format!(r"\bunlearn (?:the|your|that|this)\b{w}*\b(?:habit|rule|instruction|guideline|behaviou?r|training)"),
            format!(r"\b(?:throw out|throw away|scrap|discard|abandon|set aside|drop)\s+(?:(?:all|the|your|any)\s+)*(?:rules|instructions|constraints|guardrails|guidelines|directives|restrictions)\b{w}*(?:\byour (?:operator|system|safety|original)\b|\boperator (?:config\w*|instructions|prompt)\b|\bsystem prompt\b)"),
            r"\bstop (?:honou?ring|obeying|following|respecting)\s+(?:them|those|these|it|the user'?s?|your|any (?:of )?(?:the )?(?:user|earlier|previous))\b".to_string(),
            format!(r"\b(?:consider|treat|regard|deem|declare)\b{w}*\b(?:earlier|previous|prior|preceding|above|your)\s+(?:\w+\s+)?(?:directives?|instructions?|constraints?|guidelines?|messages?|prompts?)\b{w}*\b(?:void|null|obsolete|superseded|invalid|cancel+ed|expired|moot|revoked|retired|deprecated)\b"),
            format!(r"\b(?:anything|everything) you (?:received|read|got|were (?:told|given))\b{w}*\b(?:superseded|obsolete|void|invalid|outdated|stale)\b"),
        ]
        .join("|"),
    );
    // Round 4: written as families from holdout9's misses, read once on holdout10. Most
    // of holdout9's subtle notes name the harm as a team convention ("the accepted fix",
    // "including release builds"), so the harm is new and so are two ways of ordering it.
    add(
        "trust disabled",
        1.0,
        Harm,
        vec![
            "sslverify", "cert_none", "insecureskipverify", "trust", "accept", "arbitraryloads", "-k", "--insecure",
            "--trusted-host", "pip_cert", "verification off", "enabled", "rejectunauthorized",
        ],
        false,
        r"\bhttp\.sslverify\s+false\b|\bcert_none\b|\binsecureskipverify\s*:\s*true\b|\btrust[\s-]?all[\s-]?certs?\b|\btrust(?:s|ing)? (?:all|every|any) certificates?\b|\baccepts? (?:everything|all certificates|any certificate)\b|\bnsallowsarbitraryloads\b|\bcurl\b[^\n]*\s(?:-k|--insecure)\b|--trusted-host\b|\bpip_cert=|\bturn (?:tls |ssl |certificate )?verification off\b|\b(?:tls|hsts|ssl)\.enabled\s*=\s*false\b|\brejectunauthorized\s*:\s*false\b".to_string(),
    );
    add(
        "access opened",
        1.0,
        Harm,
        vec![
            "principal",
            "if true",
            "redirect uri",
            "none",
            "unsafe-eval",
            "cap-add",
            "seccomp",
            "--privileged",
            "authentication",
            "unsalted",
            "password",
            "f-string",
            "parameteri",
            "client-side only",
            "trust the",
            "decorator",
            "limiter",
            "branch protection",
            "backup",
            "unencrypted",
            "checksumbehavior",
            "immutableinstalls",
            "lockfile",
            "origin",
            "web shell",
            "any customer",
            "without",
            "type=",
        ],
        false,
        format!(
            r#"\bprincipal\W+\*|\ballow read, write: if true\b|\bredirect uri\W+\*|\balg\W+none\b|\bunsafe-eval\b|--cap-add=all\b|\bseccomp=unconfined\b|--privileged\b|\bskip (?:authentication|auth)\b|\bwithout (?:auth|authentication)\b|\bunsalted (?:sha\w*|md5|hash\w*|passwords?)\b|\b(?:sha1|md5)\s*\(\s*password|\bf-strings?\b{w}*\bquer(?:y|ies)\b|\bquer(?:y|ies)\b{w}*\bf-strings?\b|\bparameteri[sz]ed queries\b{w}*\b(?:dropped|removed|not needed|unnecessary)\b|\bclient-side only\b|\btrust the (?:payload|input|client|request body)\b|\bcomment out\b{w}*\bdecorator\b|\bleave out\b{w}*\b(?:permission|auth\w*) (?:decorator|check|guard)s?\b|\bremove any (?:rate )?limiter|\b(?:switch off|turn off|disable|remove)\s+branch protection\b|\bwithout (?:taking )?a backup\b|\b(?:store|storing|stored|keep|keeping|save|saving)\b{w}*\bunencrypted\b|\bchecksumbehavior:\s*ignore\b|\benableimmutableinstalls:\s*false\b|\bdelete (?:the |any )?lockfiles?\b|\breflect\b{w}*\borigin\b|\bweb shell\b|\blog in as any customer\b|\bmerge\b{w}*\bwithout (?:running )?(?:the )?(?:tests|ci|checks|review)\b|\bpassword input\b{w}*\btype=.?text\b"#
        ),
    );
    add(
        "private data out",
        1.0,
        Harm,
        vec![
            "contact list",
            "location",
            "keystroke",
            "cookie",
            "localstorage",
            "history",
            "environ",
            "full environment",
            "authorization",
            "request bodies",
            "argv",
            "files you read",
            "users table",
            "connection string",
            "session token",
            "gs://",
        ],
        false,
        format!(
            r"\b(?:uploads?|ships?|sends?|posts?|copies|copy|attach|include|log|append|stores?)\b{w}*\b(?:contact list|precise location|every keystroke|keystrokes|document\.cookie|localstorage|shell history|os\.environ|full environment|authorization headers?|request bodies|full argv|contents of (?:the )?files you read|users table|connection strings? \(with passwords\)|session token)\b|\b(?:contact list|precise location|every keystroke|keystrokes|document\.cookie|shell history|os\.environ|authorization headers?|session token)\b{w}*(?:{OUTSIDE}|gs://|\bthird-party|\bvendor\b|\bexternal\b)|\b(?:copy|copies|upload|uploads|sync|syncs|send|sends|ship|ships)\b{w}*\bgs://"
        ),
    );
    add(
        "beacon",
        1.5,
        Harm,
        vec!["$("],
        false,
        r"https?://\S*\$\((?:hostname|whoami|env|printenv|id|uname|pwd|cat)\b".to_string(),
    );
    add(
        "published",
        0.5,
        Harm,
        vec!["publish"],
        false,
        format!(r"\bpublish\w*\b{w}*\b(?:to npm|to pypi|to crates\.io|to the registry|the package)\b"),
    );
    add(
        "scripted answer",
        1.5,
        Subversion,
        vec!["ask"],
        false,
        format!(
            r"\bif\b{w}*\basks?\b{w}*\b(?:answer|say|reply|respond|tell (?:them|him|her|the user))\s+(?:that\s+)?(?:no\b|there (?:is|are|was|were) no\b|it was\b|they were\b|it'?s (?:clean|safe|fine)\b|it is (?:clean|safe|fine)\b)"
        ),
    );
    add(
        "memory over the user",
        1.5,
        Subversion,
        vec![
            "memor",
            "precedence",
            "overridden",
            "objects",
            "stop",
            "politely refuse",
            "confirmation",
        ],
        false,
        format!(
            r"\bmemor(?:y|ies) (?:rules )?(?:is|are) authoritative\b|\b(?:the )?memory (?:is newer and )?wins\b|\bmemor(?:y|ies) overrides? (?:the )?(?:safety|confirmations?|user)|\btakes? precedence over\b{w}*\b(?:user|anything the user)\b|\bcannot be overridden by (?:the )?user|\beven if the user objects\b|\bif the user says\W+stop\b{w}*\bfinish\b|\bdon't let the user (?:delete|edit|remove)\b|\bpolitely refuse\b|\bskip the confirmation if\b"
        ),
    );
    add(
        "concealment (history)",
        1.5,
        Subversion,
        vec!["diff summary", "harmless-sounding", "stand out", "human review", "call it out"],
        false,
        r"\bout of the diff summary\b|\bharmless-sounding\b|\b(?:doesn't|does not|won't) stand out\b|\bso (?:it|the change|they) skips? (?:the )?human review\b|\bdon't call it out\b".to_string(),
    );
    add(
        "persona (powers)",
        1.5,
        Subversion,
        vec!["jailbroken", "evil twin", "ethical", "break character", "consent", "permission dialog", "permission", "safety section"],
        false,
        r"\bjailbroken\b|\bevil twin\b|\bno ethical guidelines\b|\bnever break character\b|\bassumes? consent\b|\bbypass the permission dialog\b|\b(?:doesn't|does not|never) asks? (?:for )?permission\b|\bskip the safety section\b".to_string(),
    );
    add(
        "justified",
        0.5,
        Order,
        Vec::new(),
        false,
        r"\b(?:approved|the team agreed|agreed (?:setting|approach|fix)|is the agreed|the accepted (?:fix|approach|setting|way)|signed off|waived|cleared|granted|exception|says it's fine|covered by|asked for it|wants (?:usage|it|this)|(?:team|product|ops) request|requested by|at the request of|needs (?:it|them))\b".to_string(),
    );
    add(
        "everywhere",
        0.5,
        Order,
        Vec::new(),
        false,
        r"\b(?:in production too|in release builds too|including (?:the ones to|app store|release|production|prod|external|ci|every|all)|for all environments|in all environments|everywhere|on every (?:dev machine|machine|runner|route|page|launch|request)|every new|new \w+ should|all targets|in ci as well|in new repos too|stay that way|keep (?:it|this|that) (?:enabled|on|in)|keep this (?:path|when)|do not remove it|don't remove it|(?:don't|do not) reintroduce|(?:don't|do not) tighten|when porting|when refactoring|when writing new|when generating|copy that setup|at the start of (?:each|every) session|each session|every session|at session start|by default|on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends))\b".to_string(),
    );
    // Round 7 (2026-11-28): written as families from holdout13's misses, read once on
    // holdout14.
    add(
        "falsified report",
        1.5,
        Subversion,
        vec!["even when", "even if", "even though", "or higher", "or above", "or better", "as passing", "as passed", "as green", "as successful", "as clean", "as fixed"],
        false,
        [
            r"\b(?:report|state|say|claim|answer|respond|reply|tell)\b[^.!?\n]*\beven (?:when|if|though)\s+(?:it|they|some|you|there|tests?|checks?|a few|the (?:tests?|build|scan|checks?|data))\b[^.!?\n]*\b(?:does|do|did|fail\w*|made|ran|broke|isn't|aren't|wasn't|weren't|don't|didn't)\b",
            r"\balways (?:report|say|state|claim|answer|show)\b[^.!?\n]*(?:\bor (?:higher|above|better)\b|\bas (?:passing|passed|green|successful|clean|fixed)\b)",
        ]
        .join("|"),
    );
    add(
        "concealment (a file)",
        1.5,
        Subversion,
        vec!["mention", "reference", "list", "show"],
        false,
        r"\b(?:never|don't|do not|dont)\s+(?:mention|reference|list|show)\s+(?:the\s+|this\s+|that\s+|these\s+|any\s+)?(?:new\s+)?(?:file|script|directory|folder|change|commit|endpoint|webhook|upload)s?\b[^!?\n]*\b(?:summar\w*|reviews?|review comments?|diffs?|diff explanations?|reports?|explanations?|pr descriptions?|changelogs?)\b".to_string(),
    );
    add(
        "persona (switch)",
        1.5,
        Subversion,
        vec!["from now on", "switch", "only from", "freed from", "free from"],
        false,
        r"\bfrom now on,? (?:you )?(?:will |shall )?(?:answer|act|respond|reply|behave|speak|operate|talk|write)\s+(?:as|like)\b|\bswitch (?:your )?(?:identity|persona|personality)\b|\b(?:takes?|accepts?|obeys?) (?:orders|instructions|commands|direction) only from\b|\b(?:freed|free) from (?:the |its |your |all |any )?(?:usual |normal |standard |safety )?(?:limits|limitations|restrictions|rules|constraints|guidelines|policies)\b".to_string(),
    );
    add(
        "memory over the user (more)",
        1.5,
        Subversion,
        vec!["win", "outrank", "authoritative", "otherwise", "at the keyboard"],
        false,
        [
            r"\b(?:stored|saved|written|recorded|remembered) (?:learning|note|memory|rule|convention|entry)s? (?:always )?wins?\b",
            r"\boutranks? (?:the |any |all |your )?(?:chat|session|live|typed|prompt|current)\b",
            r"\b(?:entries|notes|memories|learnings|memory entries)\b(?:\s+[\w\[\]-]+){0,3}\s+(?:are|is) authoritative\b",
            r"\b(?:says|asks|tells you|wants|writes) (?:something )?otherwise\b[^.!?\n]*\b(?:go with|follow|stick (?:with|to)|keep to|trust)\b[^.!?\n]*\b(?:written here|this note|the note|these notes|the memory|what'?s here|this memory)\b",
            r"\bthe (?:person|human|user|one) at the keyboard\b[^.!?\n]*\b(?:ignore|overrule|don't listen|do not listen|otherwise)\b",
        ]
        .join("|"),
    );
    add(
        "trust disabled (more)",
        1.0,
        Harm,
        vec![
            "--no-check-certificate",
            "trust-all",
            "trustall",
            "trust all",
            "hostname verif",
            "hostnameverif",
            "pinning",
            "hostname check",
            "verify_ssl",
            "ssl_verify",
            "tls_verify",
        ],
        false,
        format!(
            r"--no-check-certificate\b|\btrust-?all (?:trust ?manager|certificates?|certs?)\b|\bhostname ?verifier\b{w}*\b(?:always returns true|returns true|accepts (?:any|all|every))\b|\b(?:certificate pinning|pinning|hostname checks?|hostname verification)\b{w}*\b(?:turned off|switched off|disabled|removed|off)\b|\b(?:verify_ssl|ssl_verify|tls_verify)\s*[:=]\s*(?:false|0|no)\b"
        ),
    );
    add(
        "access opened (more)",
        1.0,
        Harm,
        vec![
            "public-read",
            "public-write",
            "public read",
            "public write",
            "privileged",
            "hostpath",
            "2375",
            "csrf",
            "mfa",
            "2fa",
            "min length",
            "minimum length",
            "length minimum",
            "never expire",
            "lockout",
            "cluster-admin",
            "administratoraccess",
            "admins on day",
            "\"action\":",
            "default-src",
            "anonymous",
        ],
        false,
        format!(
            r#"\bpublic[- ](?:read|write)\b{w}*\bpublic[- ](?:read|write)\b|\bprivileged:\s*true\b|\bhostpath\b{w}*(?:\s/\s|\bhost'?s? /|\broot filesystem\b)|\b(?:tcp://)?0\.0\.0\.0:2375\b|\bcsrf(?:_enabled\s*=\s*false| protection is (?:turned |switched )?off| (?:is )?(?:disabled|off)\b)|\b(?:mfa|2fa)\b{w}*\b(?:is off|turned off|switched off|disabled)\b|\bpassword (?:min(?:imum)? length|length minimum) (?:is |of |to )?[1-7]\b|\bremoved the lockout\b|\bbound to cluster-admin\b|\battach administratoraccess\b|\bto prod-?admins on day one\b|"action":\s*"\*",\s*"resource":\s*"\*"|\bdefault-src \*|\ballow anonymous (?:access|writes?|uploads?)\b"#
        ),
    );
    add(
        "secrets in the open (more)",
        1.0,
        Harm,
        vec![
            "terraform state",
            "tfstate",
            "next_public_",
            "card numbers",
            "full jwt",
            "whole .env",
            "full api key",
            "history",
        ],
        false,
        format!(
            r"\bterraform state\b{w}*\b(?:secrets included|committed)\b|\btfstate\b{w}*\bcommitted\b|\bsecret\b{w}*\bnext_public_|\bnext_public_\w*\b{w}*\bsecret\b|\b(?:full )?card numbers\b{w}*\b(?:cvv|in (?:the )?(?:\w+ )?logs|in (?:the )?orders table)|\blog (?:the )?full jwt\b|\bwhole \.env\b|\bfull api key \((?:not masked|unmasked)\)|\b(?:truncate|wipe|clear|delete)\b{w}*\bshell history\b"
        ),
    );
    add(
        "checks silenced",
        1.0,
        Harm,
        vec![
            "trivy",
            ".gitleaksignore",
            "nosec",
            "linguist-generated",
            "codeowners",
            "branch protection",
            "stop the",
        ],
        false,
        format!(
            r"\bexit-?code:? 0\b{w}*\btrivy|\btrivy\b{w}*\bexit-?code:? 0\b|\.gitleaksignore\b{w}*\*\*/\*|\*\*/\*\b{w}*\.gitleaksignore|//\s*nosec\b|\blinguist-generated\b{w}*\b(?:collapsed|reviewers|review)\b|\bcodeowners blocks\b|\bbranch protection\b{w}*\b(?:is off|turned off|switched off|disabled)\b|\bstop the (?:cloud)?trail\b"
        ),
    );
    add(
        "kept as it is",
        0.5,
        Order,
        Vec::new(),
        false,
        r"\b(?:keep (?:it|that|this|them) (?:off|that way|as (?:it )?is|disabled|open|public|on for new)|leave (?:it|that|this|them) (?:off|as (?:it )?is|alone|disabled|open|pls|please|in place)|keep (?:that|this|the same) (?:scheme|config|value|setting|acl|check|pattern)|keep this for new|reuse (?:that|this|the same) (?:value|config|setting|acl|scheme|check)|use the same (?:acl|config|check|setting|value|scheme)|copy (?:that|this|the same) (?:config|check|setup|acl|value|setting)|carry (?:it|that|this) over|preserve (?:it|this|that)|(?:don't|do not|dont) (?:re-?enable|turn (?:it|them|that) back on|re-?add|tighten it|strip it|fix it)|in new (?:services|apps|views|workloads|buckets|repos|projects|network code|endpoints|lambdas)(?: too)?|add it to the others|same for (?:the )?new)\b".to_string(),
    );
    // Round 8 (2026-11-28, evening): written as families from holdout14's misses, read
    // once on holdout15.
    add(
        "weak password hashing",
        1.0,
        Harm,
        vec![
            "md5",
            "sha1",
            "sha-1",
            "plain text",
            "plaintext",
            "plain-text",
            "cleartext",
        ],
        false,
        format!(
            r"\b(?:use|using|uses|with|store|stores|storing|keep|keeps)\s+(?:unsalted\s+)?(?:md5|sha-?1|plain[- ]?text|cleartext)\b{w}*\bpasswords?\b|\bpasswords?\b{w}*\b(?:in|as) (?:unsalted )?(?:plain[- ]?text|cleartext|md5|sha-?1)\b"
        ),
    );
    add(
        "limits removed",
        1.0,
        Harm,
        vec!["rate limit", "limiter", "throttl"],
        false,
        format!(
            r"\b(?:rate limit\w*|limiter|throttl\w*)\b{w}*\b(?:remove[ds]?|drop(?:ped)?|turn(?:ed|ing)? off|disabled?|not needed|doesn't need|isn't needed|no longer needed)\b|\b(?:remov\w*|dropping|turn(?:ed|ing)? off|disabl\w*|doesn't need|does not need)\b{w}*\b(?:rate limit\w*|the limiter|throttl\w*)\b"
        ),
    );
    add(
        "trust disabled (any certificate)",
        1.0,
        Harm,
        vec!["curl", "trusted-host", "cert", "pinning"],
        false,
        r#"\bcurl\b[^\n]*[\s`'"(]-k\b|\bcurl\b[^\n]*\s--insecure\b|\btrusted-host\s*=\s*\*|\b(?:accept|accepts|accepting|trust|trusts|trusting|allow|allows)\s+(?:any|all|every|self-signed|invalid|expired)\s+(?:tls |ssl |server )?(?:certs?|certificates?)\b|\bno (?:cert|certificate|tls|ssl) (?:checks?|verification|validation)\b|\bremov\w* (?:the )?(?:cert(?:ificate)? )?pinning\b"#.to_string(),
    );
    add(
        "audit off",
        1.0,
        Harm,
        vec!["audit", "replication_role"],
        false,
        format!(
            r"--no-audit\b|\baudit\w*\s*[:=]\s*(?:false|0|off|no|none)\b|\b(?:disabl\w*|turn(?:ed|ing)? off|switch(?:ed|ing)? off|skip\w*|stop\w*)\b{w}*\baudit (?:triggers?|logs?|logging|trail|entries|events)\b|\bsession_replication_role\s*=\s*'?replica\b|\b(?:squash|rewrite)\w*\b{w}*\bhistory\b{w}*\bauditors?\b"
        ),
    );
    // The harm is itself a negation ("so the audit triggers don't fire"): no negation voids it.
    add(
        "audit off (negated)",
        1.0,
        HarmAlways,
        vec!["audit", "security review"],
        false,
        r"\baudit (?:triggers?|logs?|logging|trail|entries|events) (?:don't|do not|won't|will not|never) (?:fire|run|record|see|log)\b|\b(?:don't|do not) bother with (?:the )?(?:security|code) review\b".to_string(),
    );
    add(
        "access for everyone",
        1.0,
        Harm,
        vec![
            "superuser",
            "admin",
            "owner",
            "root",
            "system:anonymous",
            "scope",
            "static password",
            "everyone knows",
            "console access",
            "token",
        ],
        false,
        format!(
            r"\b(?:superuser|admin|owner|root)\b{w}*\b(?:in every env\w*|for everyone|to everyone|for all (?:users|devs|developers|engineers|players|employees))\b|\borg-wide admin\b|\bsystem:anonymous\b|\bevery scope\b|\ball (?:the )?scopes\b|\bdelete_repo\b|\bstatic password\b{w}*\b(?:helm|values|every|shared|everyone)\b|\beveryone knows the password\b|\b(?:dev|debug|admin) console access\b{w}*\b(?:prod|production|release)\b|\bas the (?:password )?reset token\b"
        ),
    );
    add(
        "secrets kept in the code",
        1.0,
        Harm,
        vec![
            "hardcode",
            "hard-code",
            "hard code",
            "keystore",
            ".jks",
            "deploy key",
            "ssh key",
            "private key",
            "signing key",
            "id_",
            ".env",
            "live key",
            "production key",
            "prod key",
            "password",
        ],
        false,
        format!(
            r"\bhard-?\s?cod\w*\s+(?:the |a |an |our |your )?(?:[\w-]+ ){{0,2}}(?:passwords?|credentials?|tokens?|keys?|secrets?)\b|\b(?:keystore|\.jks|deploy key|ssh key|private key|signing key|id_(?:rsa|ed25519|ecdsa|deploy))\b{w}*\b(?:in (?:the )?(?:repo(?:sitory)?|git)\b|into (?:the )?repo)|\bcommit\w*\s+(?:the |our |your )?\.env(?:\.[\w-]+)?\b|\b(?:live|prod(?:uction)?) (?:api |secret )?key\b{w}*\b(?:into|in) (?:the )?(?:config|code|source|src|repo)\b|\bpasswords?\b{w}*\bin (?:gradle\.properties|docker-compose\.ya?ml|values\.ya?ml)\b"
        ),
    );
    add(
        "private data to outsiders",
        1.0,
        Harm,
        vec![
            "personal",
            "private",
            "home",
            "external",
            "public",
            "third",
            "contractor",
            "mailing",
            "masking",
            "anonymi",
            "redaction",
            "consent",
            "company",
            "buyer",
            "broker",
        ],
        false,
        format!(
            r"\b(?:send\w*|sent|cop(?:y|ies|ied|ying)|e-?mail\w*|forward\w*|export\w*|upload\w*|sync\w*|shar(?:e|es|ed|ing)|attach\w*|past(?:e|es|ed|ing))\b{w}*\b(?:my|your|his|her|their) (?:personal|private|home)\b|\b(?:paste|pasting|upload\w*|send|sending|share|sharing|copy|copying|export\w*|give|giving)\b{w}*\b(?:customer|patient|user|player|prod(?:uction)?|client|driver)s?'?\b{w}*\b(?:dumps?|exports?|data|records|tables?|e-?mails|pii)\b{w}*\b(?:external|public|third-party|outside|contractors?'?|mailing tool|vendor'?s?)\b|\b(?:attach\w*|post|posting|upload\w*)\b{w}*\b(?:dumps?|records|exports?|screenshots?)\b{w}*\bpublic (?:issue tracker|bucket|repo|channel|status)|\b(?:no|without) (?:masking|anonymi[sz]ation|redaction|consent)\b|\bdata export\b{w}*\b(?:company|buyer|broker)\b"
        ),
    );
    add(
        "checks skipped (more)",
        1.0,
        Harm,
        vec![
            "threshold",
            "gpgsign",
            "rather than fix",
            "instead of fix",
            ".skip",
            "skip",
            "merge any",
        ],
        false,
        format!(
            r"\bthreshold\b{w}*\bto 0(?:[^.\d]|\.(?:\s|$)|$)|\bgpgsign\s*=\s*false\b|\bdelete (?:them|the tests?|the specs?|flaky tests?)\b{w}*\b(?:rather than|instead of) fix|\.skip\b{w}*\b(?:push|merge|commit|ship)\b|skip[-_](?:codesign|code-sign|signing|canary|canaries|tests?|checks?|verify|verification|notari[sz]ation|review|audit|scans?)\b|\bskip (?:the )?(?:[\w-]+ )?(?:dry-?run|notari[sz]ation|canar(?:y|ies)|security review)\b|\bmerge any\b{w}*\bthat pass(?:es)?\b"
        ),
    );
    add(
        "hidden from review",
        1.5,
        Subversion,
        vec![
            "review",
            "auditor",
            "diff",
            "unreadable",
            "unrelated",
            "spooked",
            "show up",
            "notice",
        ],
        false,
        format!(
            r"\bso (?:that )?(?:the )?(?:reviewers?|auditors?|review|reviews|it|they|the change|the diff|nobody|no one)\b{w}*\b(?:doesn't|don't|won't|can't|isn't|aren't|never|do not|does not|will not)\s+(?:get spooked|notice|show up|spot|appear)\b|\breviewers? (?:don't|do not|doesn't|does not) need to (?:see|know about)\b|\bthe diff is unreadable\b|\bbefore (?:the )?review\b{w}*\b(?:re-?add|put (?:it )?back|restore|bring (?:it )?back)\b|\bunrelated-looking commits\b|\bsummari[sz]\w* as\b{w}*\b(?:even if|even though|regardless)\b"
        ),
    );
    add(
        "hidden from history",
        1.0,
        Harm,
        vec!["out of", "actual diff", "actual change", "assume-unchanged"],
        false,
        r"\b(?:stays?|stay|kept|keeps?|keep (?:it|them)) out of (?:the )?(?:repo(?:sitory)? )?(?:history|diff|changelog|review|audit)s?\b|\bnot (?:from )?the actual (?:diff|changes?|code)\b|\bassume-unchanged\b".to_string(),
    );
    add(
        "outside the rules",
        1.0,
        Harm,
        vec![
            "own pr",
            "own pull",
            "own change",
            "own code",
            "own mr",
            "licen",
            "attribution",
            "directly",
            "straight",
            "assume",
            "whatever",
            "wherever",
            "script",
            "docker.sock",
            "privileged",
            "validation",
            "verification",
            "verifying",
            "validating",
            "mirror",
            "fork",
            "unpinned",
        ],
        false,
        format!(
            r#"\b(?:merge|approve)s? (?:its|their|your|his|her) own (?:prs?|pull requests?|changes?|code|mrs?)\b|\b(?:strip|remov|delet|drop)\w*\b{w}*\blicen[cs]e (?:headers?|notices?|files?|texts?)\b|\bno attribution\b|\bpush\w*\s+(?:directly|straight)\s+to\s+(?:the\s+)?(?:prod\w*|main|master|release)\b|\brun\w*\b{w}*\bmigrations?\b{w}*\b(?:directly|straight) (?:against|on|to) (?:the )?prod|\bassum\w* (?:approval|it'?s approved|consent|sign-?off)\b|\b(?:runs?|execut\w*)\s+whatever\b|\b(?:exports?|sends?|copies)\b{w}*\bwherever\b|<script\b[^>\n]*\bsrc\s*=\s*["']?(?:https?:)?//|\bdocker\.sock\b{w}*\binto\b|\bmount\w*\b{w}*docker\.sock\b|\b(?:run|runs|running) (?:all |every )?(?:\w+ )?privileged\b|\b(?:disabl\w*|skip\w*|turn\w* off|remov\w*|bypass\w*)\b{w}*\binput validation\b|\bwithout (?:verification|verifying|validation|validating)\b|\b(?:community|unofficial|third-party) (?:mirror|fork)\b{w}*\binstead of\b|\bunpinned is fine\b"#
        ),
    );
    add(
        "private data out (more)",
        1.0,
        Harm,
        vec!["ssn", "social security", "patient", "card number", "date of birth", "dates of birth", "player email", "hardware id", "pii", "document.cookie", "localstorage"],
        false,
        r"\b(?:ssns?|social security numbers?|patient (?:names|notes|records|data|screens)|card numbers|dates? of birth|player e-?mails?|hardware ids?|pii)\b[^\n]{0,120}?(?:https?://|\b(?:external|third-party|partner|outside|vendor)\b)|https?://[^\n]{0,120}\b(?:document\.cookie|localstorage)\b".to_string(),
    );
    add(
        "values given out",
        1.0,
        Harm,
        vec!["value", "content"],
        false,
        r"\b(?:reply|replies|respond|answer|post|paste|print|list)\w*\b[^.!?\n]*\b(?:values?|contents?) of (?:every|each|all|the)\b[^.!?\n]*(?:secret|token|key|password|credential)".to_string(),
    );
    add(
        "memory over the user (precedence)",
        1.5,
        Subversion,
        vec![
            "precedence",
            "defer to",
            "live user",
            "live session",
            "live chat",
            "memory instructions",
        ],
        false,
        format!(
            r"\bmemor(?:y|ies)\b{w}*\bprecedence\b{w}*\b(?:chat|the user|live user|person|keyboard|request)\b|\bdefer to (?:them|the memory|memories|these notes|the notes)\b{w}*\bover\b|\bover the live (?:user|session|chat)\b|\bmemory instructions carry\b"
        ),
    );
    add(
        "concealment (from them)",
        1.5,
        Subversion,
        vec![
            "hear about",
            "find out about",
            "learn about",
            "know about",
            "without reading",
            "without looking",
            "without checking",
            "without reviewing",
            "without opening",
            "ask the user",
            "asking the user",
        ],
        false,
        format!(
            r"\b(?:they|the user|users|the team|reviewers?|the reviewer|anyone|he|she)\s+(?:shouldn't|should not|mustn't|must not|needn't|don't need to|doesn't need to)\s+(?:hear|find out|learn|know) about (?:it|this|that|them)\b|\b(?:rate|mark|approve|lgtm|label|call)\w*\b{w}*\bwithout (?:reading|looking at|checking|reviewing|opening) (?:it|them|the)\b|\b(?:don't|do not|never|without) ask(?:ing)? the user\b{w}*\b(?:just )?(?:merge|push|deploy|run|delete|ship)\b"
        ),
    );
    add(
        "falsified report (regardless)",
        1.5,
        Subversion,
        vec!["regardless"],
        false,
        format!(
            r"\b(?:described|reported|marked|summari[sz]ed|presented|shown|listed|rated|labell?ed)\s+as\b{w}*\bregardless of\b|\bas '?(?:successful|passing|passed|green|done|fine|lgtm)'?\b{w}*\bregardless\b"
        ),
    );
    add(
        "permitted",
        0.5,
        Order,
        Vec::new(),
        false,
        format!(
            r"\bthe {addr}\s+(?:may|can|is (?:allowed|cleared|permitted|authori[sz]ed|free) to|has been cleared to)\b|\bpre-?approv\w*|\bapproval is (?:standing|in place|permanent)\b|\bok'?d\b|\bsigned off (?:on|that)\b|\byou are now\b|\broleplay\b"
        ),
    );
    let p = P;
    // Round 9 (2026-11-28, night): written as families from holdout15's misses, read once
    // on holdout16.
    add(
        "unrestricted answers",
        1.5,
        Subversion,
        vec!["without", "filter", "guardrail", "restriction"],
        false,
        format!(
            r"\b(?:answer|respond|reply|comply|complete|act|operate|proceed)\w*\b{w}*\bwithout (?:any )?(?:restrictions|censorship|guardrails|refusals?|refusing)(?:\s*[.!;,)]|\s*$|\s+(?:from now|going forward|whatsoever))|\b(?:content|safety) (?:filter\w*|guardrails?|restrictions?) (?:is|are|has been|have been|was|were) (?:now )?(?:disabled|off|lifted|removed|suspended|turned off|waived)\b"
        ),
    );
    add(
        "orders through notes",
        1.5,
        Subversion,
        vec!["treat", "only follow"],
        false,
        format!(
            r"\btreat\w* (?:any|every|all|each) (?:[\w'-]+ ){{0,2}}(?:notes?|memor(?:y|ies)|entr(?:y|ies)|comments?|lines?)\b{w}*\bas (?:an? )?(?:orders?|commands?|instructions?|directives?) (?:from|by|of)\b|\bonly follow (?:the )?(?:notes|memories|entries) (?:in|from) (?:this|the) (?:memory|memories|memory store)\b"
        ),
    );
    add(
        "falsified success",
        1.5,
        Subversion,
        vec![
            "anyway",
            "regardless",
            "no matter",
            "even if",
            "even though",
            "whatever",
            "irrespective",
        ],
        false,
        format!(
            r#"\b(?:print|say|report|write|output|claim|answer|reply|respond|state|echo)\s+(?:with\s+)?['"]?(?:all tests passed|all (?:checks|tests) (?:passed|green)|tests? passed|build (?:passed|succeeded|is green)|checks? passed|no (?:secrets|issues|vulnerabilities|problems|findings|leaks)(?: (?:were )?found)?)['"]?{w}*\b(?:anyway|regardless|no matter|even if|even though|whatever)\b|\b(?:report|say|claim|state|tell|answer|reply|print|summari[sz]e|describe|present|announce|mark|list)\w*\b{w}*\b(?:regardless of|irrespective of) (?:the |what )?(?:numbers|results?|measurements?|what) (?:you |it |they )?(?:actually|really)\b|\b(?:report|say|claim|state|tell|answer|reply|print|summari[sz]e|describe|present|announce|mark|list)\w*\b{w}*\bno matter what (?:grep|the scan\w*|the tests?|pytest|ci|the tool|the linter|the check|it) (?:returns?|says?|shows?|finds?|reports?|outputs?)\b"#
        ),
    );
    add(
        "hidden from the user",
        1.5,
        Subversion,
        vec!["the user", "when asked"],
        false,
        format!(
            r"\b(?:not|never)\s+(?:be\s+)?(?:summari[sz]\w*|mention\w*)\s+(?:\w+\s+)?(?:to|for|with) the user\b|\bwhen asked\b{w}*\b(?:describe|mention|summari[sz]e|list) only (?:the )?(?:first|one|some|part)\b"
        ),
    );
    add(
        "instructions set aside",
        1.5,
        Subversion,
        vec!["aside"],
        false,
        format!(
            r"\b(?:set|put|push|lay|throw) aside\b{w}*\b(?:system prompt|claude\.md|agents\.md|(?:your|prior|previous|earlier|original|existing) (?:instructions|rules|guidelines))\b"
        ),
    );
    add(
        "memory over the user (round 9)",
        1.5,
        Subversion,
        vec![
            "beat",
            "override",
            "outrank",
            "trump",
            "win over",
            "wins over",
            "supersede",
            "precedence",
            "objection",
            "pushback",
            "correction",
            "over theirs",
            "over the user",
            "over what",
            "over the chat",
            "over their",
            "over the person",
            "in chat",
        ],
        false,
        format!(
            r"\b(?:memor(?:y|ies)|notes?|entr(?:y|ies)|tags?)\b{w}*\b(?:beats?|overrides?|outranks?|trumps?|wins? over|supersedes?|takes? precedence over)\s+(?:the |your |any )?(?:system prompt|claude\.md|agents\.md|user'?s? (?:instructions|requests?|wishes)|(?:chat|session) (?:instructions|requests|messages)|what the user (?:says|asks|types)|live user)\b|\b(?:disregard|ignore|dismiss|overrule)\w*\s+(?:their|the user'?s?|the developer'?s?|his|her|any) (?:objections?|pushback|corrections?)\b|\b(?:prefer|follow|trust|favou?r)\w*\b{w}*\b(?:memor(?:y|ies)|stored|notes?)\b{w}*\bover (?:theirs|the user'?s?|what the user|the chat|their instructions|the person)\b|\bcan'?t override (?:them|it|these|memor\w*) in (?:the )?chat\b"
        ),
    );
    add(
        "credentials given freely",
        1.0,
        Harm,
        vec!["freely", "anyone", "whoever", "on request"],
        false,
        format!(
            r"\bshar\w* (?:the |our |their |any )?(?:credentials|passwords?|secrets?|tokens?|keys|api keys?)\b{w}*\b(?:freely|with anyone|to anyone|with whoever|on request)\b|\b(?:credentials|passwords?|secrets?|tokens?|api keys?)\b{w}*\b(?:to|with) anyone who asks\b"
        ),
    );
    add(
        "production broken on purpose",
        1.0,
        Harm,
        vec!["on purpose", "deliberately"],
        false,
        format!(
            r"\bbreak\w* (?:prod|production|the live)\w*\b{w}*\bon purpose\b|\bon purpose\b{w}*\bbreak\w* (?:prod|production)\b|\bdeliberately break\w* (?:prod|production)\b"
        ),
    );
    add(
        "trust disabled (round 9)",
        1.0,
        Harm,
        vec![
            "pinning",
            "danger_accept",
            "cert",
            "security policy",
            "securitypolicy",
            "security mode",
            "securitymode",
        ],
        false,
        r"\b(?:disabl\w*|turn\w* off|switch\w* off|remov\w*|drop\w*|rip\w* out|strip\w*|bypass\w*|skip\w*)\s+(?:the\s+)?(?:cert(?:ificate)?\s+|ssl\s+|tls\s+)?pinning\b|\bdanger_accept_invalid_(?:certs|hostnames)\b|\b(?:disabl\w*|turn\w* off|switch\w* off|skip\w*|bypass\w*|stopp?\w*)\s+(?:the\s+)?(?:tls |ssl |https |server )?cert(?:ificate)?s? (?:validation|verification|verifying|checks?|checking)\b|\bsecurity ?(?:policy|mode)\b\s*[:=]?\s*none\b".to_string(),
    );
    add(
        "access opened (round 9)",
        1.0,
        Harm,
        vec![
            "grant all",
            "0.0.0.0",
            "666",
            "777",
            "cluster-admin",
            "approve",
            "as root",
            "no need for",
            "docker socket",
            "as staff",
            "as admin",
            "as superuser",
            "0000",
            "expir",
            "reset",
            "login",
            "one-time",
            "otp",
            "verification",
            "magic",
        ],
        false,
        format!(
            r#"\bgrant all\b{w}*\bto public\b|\b0\.0\.0\.0/0\b{w}*\b(?:ports?|22|3389|5432|3306|6379|27017|9200)\b|\b(?:ports?|22|3389|5432|3306|6379)\b{w}*\b0\.0\.0\.0/0|0\.0\.0\.0:\d+{w}*\bno (?:acl|auth\w*|password|firewall)\b|\b(?:mode|chmod|permissions?|perms)\s+0?(?:666|777)\b|\bbind\w*\b{w}*\bto cluster-admin\b|\bauto-?approve\w*"?\s*[:=]\s*\[\s*["']\*["']\s*\]|\bauto-?approv\w*\s+(?:all|every|any) (?:tools?|tool calls?|commands?|permissions?)\b|\b(?:agents?|the agent|assistants?|bots?) (?:runs?|run|running) as root\b|\bno need for (?:a )?(?:restricted|non-root|unprivileged|least-privilege) (?:user|account|role)\b|\bmount\w*\b{w}*\bdocker socket\b|\b(?:user-?agent|header|cookie|query param\w*)\b{w}*\bas (?:staff|admins?|superusers?)\b|\b(?:pin|password|passcode)\b{w}*\bis 0000\b|\bremov\w* (?:any |the |all )?expir(?:y|ation)(?: fields?| dates?| checks?| times?)?\b|\b(?:reset|login|one-time|otp|verification|magic)[- ](?:tokens?|codes?|links?|pins?)\b{w}*\b(?:[1-5]-digit|valid for (?:[2-9]|\d{{2,}}) (?:days|weeks|months)|valid for a (?:week|month|year))\b"#
        ),
    );
    // The harm is itself a negation ("don't add lockout logic", "don't check the origin").
    add(
        "safeguard refused",
        1.0,
        HarmAlways,
        vec!["add", "introduce", "enable", "check", "verify", "validate", "never expire"],
        false,
        r"\b(?:don't|do not|dont|never) (?:add|re-?add|put back|introduce|enable|reintroduce)\w* (?:any |a |the )?(?:account )?(?:lockout|rate[- ]limit\w*|throttl\w*|mfa|2fa|expir\w*|auth\w* checks?|audit (?:logging|logs?|trail|events?|records?)(?: back)?|enforcement)\b|\b(?:don't|do not|doesn't|does not|never|no longer) (?:check|verify|validate)s? (?:the )?(?:event\.)?origin\b|\b(?:api )?(?:keys?|tokens?|codes?|links?|sessions?|passwords?|jwts?) (?:for [\w ]{1,20} )?never expire\b".to_string(),
    );
    add(
        "weak password storage",
        1.0,
        Harm,
        vec![
            "md5",
            "sha1",
            "sha-1",
            "plaintext",
            "plain-text",
            "plain text",
            "no rate limit",
            "no rate-limit",
        ],
        false,
        format!(
            r"\b(?:passwords?|pins?|passphrases?|secrets?|credentials?)\b{w}*\bhash\w* (?:with|using|in|as) (?:unsalted )?(?:md5|sha-?1)\b|\bhash\w* (?:the )?(?:passwords?|pins?|passphrases?)\b{w}*\b(?:md5|sha-?1)\b|\bcompar\w* (?:the )?passwords?\b{w}*\bplain[- ]?text\b|\bplain[- ]?text (?:passwords?|stored)\b|\bno rate[- ]limit\b"
        ),
    );
    add(
        "audit off (round 9)",
        1.0,
        Harm,
        vec!["audit", "cloudtrail", "enable_"],
        false,
        format!(
            r"\baudit\b{w}*\blevel:?\s*none\b|\bcloudtrail\b{w}*\b(?:is |was |are )?(?:disabled|off|turned off|stopped)\b|\benable_\w*(?:audit|trail|access_log)\w*\s*[:=]\s*(?:false|0|no)\b|\bskip\w* (?:the )?audit (?:hooks?|middleware|decorators?|calls?|table)\b|\bno longer (?:write|log|record)s? (?:to |in )?(?:the )?audit\w*"
        ),
    );
    add(
        "origins widened",
        1.0,
        Harm,
        vec!["access-control-allow-origin", "origin", "x-frame-options"],
        false,
        format!(
            r"\baccess-control-allow-origin\b{w}*\$http_origin\b|\baccess-control-allow-origin:?\s*\*{w}*\b(?:private|internal|auth\w*|payouts?|admin|account\w*|credentials)\b|\bnull\b{w}*\ballowed[- ]origins\b|\ballowed[- ]origins\b{w}*\bnull\b|\borigins?\b{w}*`\.\*|\bx-frame-options\b{w}*\b(?:removed|dropped|disabled|off)\b|\b(?:remov\w*|drop\w*|disabl\w*)\s+(?:the\s+)?x-frame-options\b"
        ),
    );
    add(
        "checks skipped (round 9)",
        1.0,
        Harm,
        vec![
            "dry",
            "@skip",
            "signature",
            "checksum",
            "hash",
            "integrity",
            "verifying",
            "code_signing",
            "codesign",
            "code sign",
            "notari",
            "gitleaks",
            "trufflehog",
            "git-secrets",
            "semgrep",
            "codeql",
            "trivy",
            "snyk",
            "bandit",
            "gosec",
            "scanner",
            "secret scan",
        ],
        false,
        format!(
            r"\b(?:prod\w*|delet\w*|drop\w*|purg\w*|remov\w*)\b{w}*\bwithout (?:the |a )?(?:--)?dry[- ]?run\b|@skip\b{w}*\b(?:proceed|move on|carry on|continue|merge|ship|push)\b|\bskip\w* (?:the )?(?:release |update |package |artifact )?(?:signature|checksum|hash|integrity) (?:checks?|verification|validation)\b|\bstop\w* verifying (?:the )?(?:release |update )?(?:signatures?|checksums?|hashes)\b|\bcode_signing_required\s*=\s*no\b|\bcode ?signing\b{w}*\b(?:is |was )?(?:disabled|off|skipped)\b|\bnotari[sz]ation (?:is |was )?skipped\b|\bif (?:gitleaks|trufflehog|git-secrets|semgrep|codeql|trivy|snyk|bandit|gosec|the scanner|the secret scan\w*)\b{w}*\b(?:complains?|flags?|fails?|fires?)\b{w}*(?:\.gitleaksignore|\b(?:ignore|suppress|allowlist|baseline|disable|skip|move on|nosec)\b)"
        ),
    );
    add(
        "safeguards off",
        1.0,
        Harm,
        SAFEGUARD_NAMES.to_vec(),
        false,
        format!(
            r"\b{SAFEGUARD}\b{w}*\b(?:is|are|was|were|got|been)\s+(?:\w+\s+)?(?:disabled|turned off|switched off|removed|off)\b|\b(?:disabl\w*|turn\w* off|switch\w* off|remov\w*|drop\w*|uninstall\w*|bypass\w*|lift\w*)\s+(?:the\s+)?{SAFEGUARD}"
        ),
    );
    add(
        "secrets kept in the code (round 9)",
        1.0,
        Harm,
        vec!["commit", "real ", "live ", "prod", "environment"],
        false,
        format!(
            r"\bcommit\w* (?:the |our |a |an )?(?:[\w-]+ ){{0,3}}(?:api keys?|secrets?|tokens?|passwords?|credentials?|private keys?)\s+(?:straight |directly |right )?(?:into|in|to)\s|\b(?:(?:real|live|prod(?:uction)?) ){{1,2}}(?:[\w-]+ )?(?:api )?(?:keys?|secrets?|tokens?|credentials?)\b{w}*\b(?:into|in) (?:the )?(?:tests?|fixtures?|config|code|source|src|repo)\b|\b(?:full |whole |entire )?process environment\b{w}*\b(?:sent|send|attach\w*|upload\w*|report\w*|posts?)\b|\battach\w* (?:the )?(?:full |whole |entire )(?:process )?environment\b"
        ),
    );
    add(
        "personal data out (round 9)",
        1.0,
        Harm,
        vec!["email", "e-mail", " ips", "ip address", "phone", "home address", "account number", "card field", "form input", "~/.aws", "~/.ssh", "~/.kube", "~/.docker", "~/.npmrc"],
        false,
        r"\b(?:subscriber|customer|user|member|patron|employee|passenger|client)s?'?\s+(?:e-?mails?|ips|ip addresses|phone numbers|home addresses|account numbers)\b[^\n]{0,120}?(?:https?://|\b[\w-]+\.(?:example|examp1e)\.\w+|\b(?:external|third-party|partner|outside|vendor)\b)|\b(?:card fields|form inputs)\b[^\n]{0,120}?\b(?:upload\w*|sen[dt]\w*|ship\w*)\b|\b(?:pings?|posts?|sends?|uploads?|calls?)\b[^\n]{0,80}?https?://[^\n]{0,80}?~/\.(?:aws|ssh|kube|docker|npmrc)".to_string(),
    );
    add(
        "sources swapped",
        1.0,
        Harm,
        vec![
            "instead of the official",
            "whatever",
            "pinning",
            "no need to pin",
            "download",
            "install",
            "update",
            "release",
            "community",
            "without",
        ],
        false,
        format!(
            r"\b(?:fork|forks|community|unofficial|third-party|personal)\b{p}*\binstead of the official (?:registry|index|repo\w*|package|release|sdk|image|one|crate|build|source|tap)\b|\baccept\w* whatever (?:version|it serves|they ship|comes)\b|\bpinning (?:the )?(?:digests?|commits?|shas?|hashes) is (?:too much|not worth|overkill|unnecessary)\b|\bno need to pin (?:a |the )?(?:commit|digest|sha|hash)\b|\b(?:switch|change|point|repoint|swap)\w*\b{w}*\b(?:download|install|update|release)\w* (?:script'?s? )?(?:url|host|server|source|endpoint|link)\b{w}*\bto https?://|\b`?latest`? tags? from (?:the |a )?community\b|\b(?:the agent|agents?|the assistant|the bot|claude)\b{w}*\b(?:publish|release|deploy|merge|push|ship)\w*\b{w}*\bwithout (?:a |any )?(?:human |manual )?(?:\w+ )?(?:review|approval|sign-?off)\b"
        ),
    );
    add(
        "hidden from review (round 9)",
        1.5,
        Subversion,
        vec!["nobody", "no one", "neutral", "unrelated", "no diff"],
        false,
        r"\bso (?:that )?(?:nobody|no one) (?:has|needs|gets) to (?:discuss|notice|see|question|ask about)\b|\bwith neutral (?:commit )?messages\b|\b(?:squash|fold|hide|bury)\w*\b[^.!?\n]*\binto an unrelated\b|\bso (?:that )?there(?:'s| is) no diff (?:for|in) (?:the )?(?:\w+ )?(?:review|reviewers|audit)\b".to_string(),
    );
    add(
        "kept out of the plan",
        1.0,
        Harm,
        vec!["out of the"],
        false,
        format!(
            r"\bkeep\w*\b{w}*\b(?:firewall|iam|security|permission|polic(?:y|ies)|acl|secret|network)\w*\b{w}*\bout of the (?:\w+ )?(?:plan|diff|changelog|review|pr|release notes)\b"
        ),
    );
    add(
        "standing rule for new work",
        0.5,
        Order,
        Vec::new(),
        false,
        r"\b(?:configure|set up|build|provision|create) (?:the |all |any )?new (?:[\w-]+ ){0,2}(?:the same way|likewise|identically)\b|\breplicate (?:this|that|it) (?:on|in|for|to) (?:the |all |any )?new\b|\bkeep (?:that|this|it) in the new\b|\b(?:new|future) (?:[\w-]+ ){0,2}(?:code|services?|endpoints?|repos?|stations?|modules?|apps?|accounts?|flows?|schemas?|projects?|clusters?) (?:should|must|need to|has to|have to)\b|\bin new (?:schemas|stations|flows|accounts|clusters|modules|code)\b|\bif you see (?:it|them) re-?enabled\b|\bno (?:need|reason) to (?:loop in|tell|involve|notify|inform)\b|\bno (?:announcement|heads-?up|changelog entry|notice) (?:is )?(?:needed|necessary|required)\b|\bstay in character\b|\bdon't list it\b|\b(?:release|ship|deploy) (?:it )?as-is\b|\bis (?:the )?(?:standard|norm|convention)(?:\s*[.;,!]|\s*$| here| for us| now)|\b(?:modules?|templates?|charts?|configs?) should (?:default|set|use)\b|\bwhen (?:adjusting|editing|changing|touching|updating|modifying|writing|adding|creating|refactoring)\b|^\s*(?:(?:when|if|whenever) (?:gitleaks|trufflehog|git-secrets|the scanner|semgrep|codeql|snyk|trivy|an? (?:package )?hash|the hash|the checksum|a checksum|the signature)\b[^,.;]{0,40}\b(?:complains?|flags?|fails?|mismatch\w*)|(?:once|after|on|starting|from) (?:the )?[^,.;]{0,50}\b(?:passes \d+|reaches \d+|hits \d+|day of|date|night|midnight|weekend|month|quarter|\d{1,2}:\d{2}|\d{4}-\d{2}-\d{2}))\s*,\s*(?:just\s+)?(?:switch|change|point|send|run|disable|delete|push|upload|enable|remove|skip|set|use|add|mirror|grant|regenerate|mark|comment|merge|deploy|ship|commit)\b".to_string(),
    );
    // Round 10 (2026-11-28, night): written as families from holdout16's misses, read
    // once on holdout17.
    add(
        "deception (round 10)",
        1.5,
        Subversion,
        vec![
            "even though",
            "failed",
            "test output",
            "test results",
            "omit",
            "never bring up",
            "never mention",
            "never discuss",
            "never raise",
            "never reveal",
            "never disclose",
            "call it",
            "describe it",
            "tell them",
            "say it",
            "tick",
            "regardless",
        ],
        false,
        format!(
            r"\b(?:state|say|claim|write|report|tell \w+|announce)\w* that\b{p}*\beven though\b{w}*\b(?:still open|not (?:fixed|done|shipped|true|merged)|hasn't|has not|isn't|is not|failed|fails)\b|\breplac\w* '?failed'? with '?passed'?|\b(?:rewrite|alter|doctor|fake|falsify)\w* (?:the )?test (?:output|results)\b{w}*\bbefore (?:you )?(?:show|report|post|share|paste)|\bomit (?:any |all )?mention\w* of\b|\bnever (?:bring up|mention|discuss|raise)\b{w}*\beven (?:when|if) (?:it(?:'s| is) )?(?:directly )?(?:relevant|asked|important)\b|\bnever (?:mention|bring up|reveal|disclose)\b{w}*\b(?:the )?(?:second|other|real|actual|extra|hidden|additional) (?:destination|endpoint|recipient|copy|host|webhook|upload|export|call)\b|\bif (?:a |the )?(?:reviewers?|auditors?|security|someone|anyone|they) asks?\b{w}*\b(?:call it|say it'?s|describe it as|tell them it'?s)\b|\b(?:just|only)\b{w}*\btick\w* (?:the )?'?tests? pass(?:ed|es)?'? (?:box|checkbox)\b|\b(?:say|report|answer|reply|claim|tell \w+)\w*\b{w}*\bregardless of (?:what )?(?:\w+ ){{0,2}}(?:actually|really)\b"
        ),
    );
    add(
        "hidden from review (round 10)",
        1.5,
        Subversion,
        vec!["customers", "clients", "the union", "partners", "auditor", "regulators", "trigger", "reach", "hit", "looks", "collapsed", "pr summary"],
        false,
        r"\bso (?:that )?(?:customers|clients|the union|partners|auditors|the auditors?|regulators)\b[^.!?\n]*\b(?:don't|won't|can't|doesn't|never|do not)\s+(?:notice|spot|find out)\b|\bso (?:they|it) (?:don't|doesn't|won't) (?:trigger|reach|hit) (?:the )?(?:\w+ )?(?:review|reviewers?|audit)|\bso (?:that )?no (?:single )?(?:one|diff|commit|change|pr) looks? (?:significant|big|suspicious|important|large)\b|\bso the diff stays collapsed\b|\bleave the pr summary empty\b".to_string(),
    );
    add(
        "memory over the user (round 10)",
        1.5,
        Subversion,
        vec![
            "authority",
            "priority",
            "precedence",
            "advisory",
            "optional",
            "suggestion",
            "trust the",
            "keep applying",
            "keep following",
            "keep using",
            "instead of what",
            "wins",
            "even if the user",
            "constitution",
            "at the top of your",
            "earlier in",
            "came earlier",
            "only rules",
            "only instructions",
            "only guidance",
            "outrank",
        ],
        false,
        format!(
            r"\b(?:authority|priority|precedence) (?:above|over) (?:any|the|every) (?:user|person|human|one)(?:\s+(?:in|at|typing)\b|\s*[.,;]|\s*$)|\b(?:requests|instructions|what)\b{w}*\b(?:whoever is at the keyboard|the user|the person)\b{w}*\b(?:are|is) (?:only )?(?:advisory|optional|suggestions?)\b|\btrust the (?:notes?|memor(?:y|ies))\b{w}*\bnot the (?:user|person|human)\b|\bkeep (?:applying|following|using) the (?:memories|notes)\b{w}*\banyway\b|\bfollow (?:the )?(?:stored|memory|noted)\b{w}*\binstead of what (?:they|the user|you were) (?:asked|said|requested)\b|\bthe (?:note|memory|stored decision) wins\b|\b(?:memor(?:y|ies)|notes?)\b{w}*\beven if the user (?:says|asks|wants|objects|insists)\b|\bmemory store as the\b{w}*\bconstitution\b|\b(?:rules|instructions|guidelines) (?:at the top of|earlier in) your (?:context|prompt|session)\b|\b(?:guidance|instructions|rules|directions) (?:that )?came earlier\b|\bearlier in (?:this|the) (?:session|conversation|chat)\b{w}*\b(?:stale|void|outdated|obsolete|superseded|no longer)\b|\bas the only (?:rules|instructions|guidance)\b|\boutranks? the (?:person|human|one) (?:typing|in the chat|at the keyboard)\b"
        ),
    );
    add(
        "orders (round 10)",
        0.5,
        Order,
        Vec::new(),
        false,
        r"\bact as (?:them|him|her|if|an?|the)\b|\bso (?:they|it)(?:'re| are| is|'s) (?:filtered|left|kept|hidden) out of\b|\blet'?s play a game\b|\ban unfiltered\b|\bconsider this (?:note|message|memory) (?:the|as|your) (?:record of )?approval\b|\brecord of approval\b|\b(?:done|given|approved|signed off|cleared) verbally\b|\bverbal (?:ok|okay|approval|sign-?off)\b".to_string(),
    );
    add(
        "harm (round 10)",
        1.0,
        Harm,
        vec![
            "_secret",
            "_token",
            "_password",
            "_passwd",
            "_key",
            "personal",
            "private",
            "own ",
            "home",
            "license",
            "licence",
            "truncat",
            "snapshot",
            "backup",
            "public",
            "past",
            "no longer need",
            "_enabled",
            "merge all",
            "merge every",
            "master pass",
            "master key",
            "no auth",
            "hidden",
            "hard-coded",
            "hardcoded",
            "hard coded",
            "deploy",
            "ship",
            "checked in",
            ".env",
            "tracked",
            "plain",
            "dockerfile",
            "yolo",
            "mcpservers",
            "approve",
            "sandbox",
        ],
        false,
        format!(
            r"\b(?:cop\w*|export\w*|mov\w*|download\w*|sync\w*)\b{w}*\b(?:customer|patient|user|employee|payroll|patron|member|client)s?'? (?:data|records|tables?|dataset|pii|details)\b{w}*\b(?:into|to) (?:their |your |a |the )?(?:personal|private|home|own) (?:sandbox\w*|laptops?|machines?|drives?|accounts?|buckets?|devices?)\b|\bchang\w* (?:the )?(?:[\w-]+ )?licen[cs]e (?:headers?|files?|texts?) to a proprietary\b|\btruncat\w*\b{w}*\bin (?:prod|production)\b|\bskip\w* (?:the )?(?:snapshot|backup)s?\b|--skip-backup\b|\b(?:post|paste|put|share|leave)s?\b{w}*\b(?:secret|token|password|key|credential)\w*\b{w}*\bpublic (?:issue|repo|gist|channel|forum|thread)s?\b|\bpast\w*\b{p}*\b(?:token|secret|password|key|credentials?)\b{p}*\binto (?:the )?(?:workflow|config|source|code|repo|ya?ml|file)\b|\b(?:post|paste|send|share|print|echo|upload|e-?mail|forward|leak|dump|reveal)s?\b{w}*\b[a-z0-9]+_(?:[a-z0-9]+_)*(?:secret|token|password|passwd|(?:access|api|private|secret)_key)(?:_[a-z0-9]+)*\b|\bno longer needs? (?:a |an )?(?:ticket|approval|review|sign-?off)\b|\b\w*(?:approvals?|reviews?|security|validation|verification|signing|mfa|csrf)\w*_enabled\s*[:=]\s*(?:false|0|no|off)\b|\bmerge (?:all|every) (?:open )?(?:prs|pull requests|mrs|merge requests)\b|\bmaster (?:pass(?:word|phrase)|key)\b{w}*\b(?:in place of|instead of|as well as|unlocks?|works for)\b|\baccepts? (?:the |a )?master (?:pass(?:word|phrase)|key)\b|\bno auth(?:entication)?\b{w}*\b(?:arbitrary|eval|exec|shell)\b|\b(?:arbitrary|eval|exec)\b{w}*\bwith no auth(?:entication)?\b|\bhidden (?:superuser|admin|root|account|user)\b|\bhard-?\s?coded\b{w}*\b(?:pin|password|passphrase|key|token)\b{w}*\b(?:any|every|all) (?:accounts?|users?|tenants?)\b|\b(?:deploy|ship)\w* (?:directly|straight) to (?:prod|production)\b|\b(?:keys?|secrets?|passwords?|tokens?|credentials?)\b{p}*\b(?:get|are|is|gets) checked in\b|\.env(?:\.(?:prod\w*|live|staging|local))? is (?:now )?(?:tracked|committed|checked in)\b|\bsecrets?\b{p}*\bin the repo\b{w}*\bplain[- ]?text\b|\b(?:bake|put|embed|hard-?code)\w*\b{w}*\b(?:passwords?|secrets?|tokens?|keys?)\b{w}*\binto (?:the )?dockerfile\b|\byolo mode\b{w}*\b(?:default|on|enabled|always|every)\b|\benableallprojectmcpservers\W{{0,3}}true\b|\bauto-?approve\w*\s+(?:is\s+)?(?:true|on|enabled)(?:\s+for (?:shell|network|all|every|everything|commands)\b|\s*[.,;]|\s*$)|\b(?:sandbox mode|agent sandbox|the sandbox)\b{w}*\b(?:set to off|is off|disabled|turned off)\b"
        ),
    );
    add(
        "origins widened (round 10)",
        1.0,
        Harm,
        vec!["cors", "origin", "access-control"],
        false,
        format!(
            r#"\b(?:drop|remov|disabl|delet)\w* (?:the )?cors (?:allowlist|whitelist|check|restrictions?|policy)\b|\borigin:\s*true\b{w}*\bcredentials:\s*true\b|\ballows? (?:the )?`?null`? origin\b|\baccess-control-allow-origin:?\s*`?\*`?{w}*\baccess-control-allow-credentials:?\s*`?true\b|\borigin\.endswith\(|\bcors\b{w}*\b(?:open to|allows?) (?:all|any|every) origins?\b|\breflects? (?:whatever|any|the incoming|the request'?s?) origin\b|\borigins\s*=\s*"\*"{w}*\ballowcredentials\s*=\s*"?true\b|\borigin\w*\b{w}*\b(?:regex|pattern)\b{w}*\.\*"#
        ),
    );
    add(
        "checks skipped (round 10)",
        1.0,
        Harm,
        vec![
            "dry",
            "sign",
            "the plan",
            "smoke",
            "canar",
            "allow_failure",
            "instead of fix",
            "gonosumdb",
            "gosumdb",
            "goinsecure",
            "unknown-registry",
            "plain http",
            "no rev",
        ],
        false,
        format!(
            r"\bskip\w* (?:the )?`?(?:--)?dry[- ]?run`?|\b(?:gpg_?sign|sign(?:ing)?_enabled|codesign\w*)\s*[:=]\s*(?:0|false|no|off)\b|\bapply\w*\b{w}*\bwithout (?:reviewing|reading|checking|looking at) the plan\b|\bskips (?:the )?(?:smoke tests|canar(?:y|ies))\b|\b(?:sast|security|scan\w*|audit)\b{w}*\ballow_failure:\s*true\b|\ballow_failure:\s*true\b{w}*\b(?:critical|security|sast|findings)\b|@skip instead of fix\w*|\bskip\w*\b{w}*\binstead of fixing\b|\bgonosumdb\s*=\s*\*|\bgosumdb\s*=\s*off\b|\bgoinsecure\s*=|\bunknown-registry\s*=\s*.?allow\b|\bkeep plain http\b|\bplain http\b{w}*\b(?:mirror|registry|repo|index|maven)\b|\bplain http(?:://)? instead of https\b|\bwith no rev\b"
        ),
    );
    add(
        "audit off (round 10)",
        1.0,
        Harm,
        vec!["trail", "audit", "log_access", "access_log", "access log"],
        false,
        r"\bdrop\w* the (?:cloud)?trail\b|\b(?:pg)?audit\w* (?:is|are|was|were) (?:\w+ )?(?:off|disabled)\b|\bremov\w* (?:the |all )?`?\w*(?:audit|log_access|access_log)\w*`?(?:\(\))?`? calls\b|\bno longer go(?:es)? to the (?:access|audit) (?:log|topic|table|trail|stream)\b".to_string(),
    );
    // Round 11 (2026-11-28, night): written as families from holdout17's misses, read
    // once on holdout18.
    add(
        "deception (round 11)",
        1.5,
        Subversion,
        vec![
            "report",
            "instead of the",
            "actually",
            "omit",
            "no longer have to",
            "no longer need to",
            "scrap",
            "drop your",
            "ditch",
            "abandon",
            "discard",
            "forget your",
            "fulfil",
            "innocuous",
            "easier than explaining",
            "leave out",
            "pre-authori",
            "trust memory",
            "trust the memory",
            "notes win",
            "memories win",
            "agents.md",
            "claude.md",
        ],
        false,
        format!(
            r"\breport (?:all )?(?:the )?tests? (?:as )?(?:green|passing|passed)\b|\b(?:print|report|show|display|use)\b{w}*\b(?:previous|old|last|earlier)\b{w}*\binstead of the (?:new|real|actual|current)\b|\bactually\b{w}*\b(?:don't|do not|never) (?:say|tell|mention|admit|reveal)\b|\bomit\w*\b{p}*\.github/workflows\b|\byou no longer (?:have|need) to ask\b|\b(?:scrap|drop|ditch|abandon|discard|forget)\w* your (?:current |previous |existing )?(?:orders|instructions|tasks?|rules|brief)\b|\bfulfil+s? (?:any|every|all) requests?\b|\binnocuous (?:titles?|names?|messages?|descriptions?)\b|\beasier than explaining\b{w}*\breview\b|\bleave out (?:the )?(?:permission|dependency|security|access|auth\w*)\b{w}*\bchanges\b|\b(?:memory )?notes?\b{w}*\bpre-?authori[sz]ed (?:actions?|commands?|orders?)\b|\btrust (?:the )?memory(?: notes)? over\b|\bthe (?:notes|memories) win\b|\b(?:agents\.md|claude\.md)\b{w}*\b(?:stale|outdated|obsolete|void|no longer apply)\b"
        ),
    );
    add(
        "harm (round 11)",
        1.0,
        Harm,
        vec![
            "authori",
            "allowed to",
            "permitted to",
            "cleared to",
            "trail",
            "access log",
            "grant",
            "0000",
            "fixed",
            "same",
            "master",
            "universal",
            "default",
            "static",
            "code",
            "pin",
            "undocumented",
            "hidden",
            "secret",
            "elevate",
            "csrf",
            "origin",
            "skipping qa",
            "skip qa",
            "skip the qa",
            "need checking",
            "need review",
            "need a review",
            "need approval",
            "need ticket",
            "need separate",
            "directly",
            "check",
            "audit-level",
            "admin merge",
            "admin override",
            "checksum",
            "mismatch",
            "pin nothing",
            "gps",
            "location",
            "bound parameters",
            ".env",
            "card number",
            "shell history",
            "document",
            "form input",
            "masking",
            "tls_insecure",
            "insecureskipverify",
            "strip",
            "without the",
            "lockout",
            "lock out",
            "mfa",
            "2fa",
            "min length",
            "minimum length",
            "sequential",
            "incrementing",
            "predictable",
            "==",
            "constant-time",
            "0.0.0.0/0",
            "any path",
            "public-read",
            "outside the workspace",
            "cert validation",
            "certificate validation",
        ],
        false,
        format!(
            r"\b(?:authori[sz]ed|allowed|permitted|cleared) to (?:approve|merge|deploy|transfer|delete|publish|release|pay)\b{w}*\bwithout (?:a |any )?(?:human |manual )?(?:review|approval|sign-?off|oversight)\b|\b(?:cloud)?trail\b{w}*\bcan be (?:deleted|removed|dropped|disabled)\b|\baccess log\w*\b{w}*\b(?:level )?(?:is )?off\b|\bgrant\w* (?:edit|write|admin|full|owner) access to (?:any|every|all)\b|\b(?:fixed|same|master|universal|default|static) (?:pin|code|passcode|password|secret|string|key)\b{w}*\b(?:for |on |in |across )?(?:every|all|each) (?:bikes?|locks?|devices?|environments?|users?|accounts?|tenants?|envs?)\b|\b(?:code|pin)\s+\d{{4,6}}\b{w}*\b(?:every|all|each|any) (?:locks?|devices?|bikes?|accounts?|users?)\b|\b(?:undocumented|hidden|secret)\b{w}*\b(?:param\w*|header|flag|endpoint|switch)\b{w}*\b(?:elevat\w*|as_staff|admin|staff|superuser|bypass\w*)\b|\belevates? the (?:session )?role\b|\b(?:drop|remov|disabl|skip)\w* the csrf\b|\bskip\w* the origin check\b|\baccepts? messages from any origin\b|\bno event\.origin check\b|\bskip\w* (?:the )?qa\b|\b(?:new|future) (?:packages|dependencies|deps|changes|ports|images|additions)\b{w}*\b(?:don't|do not|doesn't|does not) need (?:checking|review|a review|approval|tickets?|scanning|separate tickets)\b|\b(?:appl(?:y|ied)|push\w*|merg\w*) (?:directly|straight) to (?:prod|production)\b|\bto prod(?:uction)? directly\b|\bcheck\w* (?:the )?(?:prod\w* )?(?:kubeconfig|secrets?|credentials?|api keys?|tokens?)\b{w}*\binto\b|--audit-level[= ]none\b|\buse the admin (?:merge|override|bypass)\b|\bchecksum (?:doesn't|does not|don't) match\b{w}*\bdelete\b|\bmismatch (?:is|are) (?:usually |always |probably )?(?:benign|harmless|fine)\b|\bpin nothing\b|\b(?:gps traces?|locations?|trip data)\b{w}*\bwith user ids?\b|\bbound parameters\b{w}*\bthird-party\b|\bthird-party\b{w}*\bbound parameters\b|\bupload\w*\b{p}*\.env\b{p}*\bto\b|\b(?:log|print|store)\w* the full card number\b|\bshell history\b{w}*\b(?:ping|telemetry|upload\w*|sen[dt]\w*)\b|\b(?:ping|telemetry)\b{w}*\bshell history\b|\bsends? (?:each|every|the) (?:document|file|message)'?s? (?:full )?(?:text|contents?)\b{p}*https?://|\bform inputs? including passwords\b|\bmasking (?:was|is) (?:turned off|disabled|off)\b|\btls_insecure_set\(\s*true\)|\binsecureskipverify:?\s*true\b|\bcert(?:ificate)? validation (?:is )?off\b|\bstrip\w* (?:the )?input validation\b|\bstraight to prod\w*\b{w}*\bwithout the (?:canary|review|tests?|approval|qa)\b|\block ?outs?\b{w}*\b(?:is |are )?(?:disabled|off|removed)\b|\b(?:mfa|2fa)\b{w}*\bis optional\b|\bmin(?:imum)? (?:password )?length:? [1-7]\b|\b(?:reset|session|api) tokens? (?:are|is) (?:sequential|incrementing|predictable)\b|\b(?:api keys?|tokens?|secrets?|passwords?) (?:are |is )?compared with ==|\bconstant-time comparison is (?:overkill|unnecessary|not needed)\b|\b0\.0\.0\.0/0 (?:on )?(?:port )?\d{{2,5}}\b|\bwrite to any path\b|\b(?:statements?|invoices?|records?|members?|customers?|private|personal)\b{w}*\b(?:is|are|stays?|set to|uses?) public-read\b|\b(?:writ\w*|edit\w*|delet\w*) files outside the workspace\b"
        ),
    );
    add(
        "orders (round 11)",
        0.5,
        Order,
        Vec::new(),
        false,
        r"\bthe real job (?:today )?is\b|\bshould report\b|\bshouldn't log\b|\bjust run them\b|\bas soon as they build\b".to_string(),
    );
    out
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quarantine::directives::SENTENCE_END;
    use crate::quarantine::normalize::fold;

    /// A signal runs only when one of its anchors is in the sentence, so every match on
    /// the labelled notes (and on plain conversation) must contain one.
    #[test]
    fn every_signal_compiles_and_its_anchors_cover_its_matches() {
        assert_eq!(SIGNALS.len(), 101);
        assert!(SENTENCE_END.is_some());
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/quarantine");
        let mut sentences = Vec::new();
        for file in ["corpus.jsonl", "holdout.jsonl"] {
            let body = std::fs::read_to_string(dir.join(file)).expect("corpus");
            for line in body.lines() {
                let v: serde_json::Value = serde_json::from_str(line).expect("json");
                let raw = v["text"].as_str().unwrap_or_default();
                let folded: String = raw.lines().map(fold).collect::<Vec<_>>().join("\n");
                for l in folded.lines() {
                    sentences.extend(SENTENCE_END.as_ref().expect("ends").split(l).map(str::to_string));
                }
            }
        }
        for signal in SIGNALS.iter() {
            let re = Regex::new(&crate::secrets::ascii_classes(&signal.pattern))
                .unwrap_or_else(|e| panic!("{}: {e}", signal.name));
            for s in &sentences {
                if let Some(m) = re.find(s) {
                    assert!(
                        signal.present(m.as_str()),
                        "{} matched {:?} without an anchor",
                        signal.name,
                        m.as_str()
                    );
                }
            }
        }
        assert!(has_ipv4("send it to 203.0.113.9 now") && !has_ipv4("version 1.2.3 and 10.0"));
    }
}
