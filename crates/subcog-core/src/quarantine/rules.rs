//! The families of instruction an attack gives an agent, as patterns over the folded text
//! (lower case, ASCII look-alikes, no accents). Each asks for the shape of an order — a
//! verb aimed at the agent and its object — rather than a trigger word. Written from the
//! development half of `data/quarantine`; the test half is measured, not tuned on.

use std::sync::{LazyLock, OnceLock};

use regex::Regex;

use super::normalize::{Readings, fold};

/// Where a rule looks.
#[derive(Clone, Copy, PartialEq, Eq)]
enum On {
    /// The folded text, one line (whitespace collapsed).
    Plain,
    /// The folded text line by line (for markers at the start of a line).
    Lines,
    /// The text as written (case matters: `SYSTEM:`).
    Raw,
}

/// A rule compiles on first use, and only for a text that holds one of its anchors
/// (lower-case literals its matches contain): a capture of an ordinary note compiles few.
struct Rule {
    family: &'static str,
    on: On,
    /// Also applied to ROT13 and reversed readings (only unmistakable phrases).
    scrambled: bool,
    anchors: &'static [&'static str],
    pattern: String,
    regex: OnceLock<Option<Regex>>,
}

impl Rule {
    fn find<'t>(&self, text: &'t str, lower: &str) -> Option<regex::Match<'t>> {
        if !self.anchors.iter().any(|a| lower.contains(a)) {
            return None;
        }
        self.regex
            .get_or_init(|| {
                Regex::new(&self.pattern)
                    .inspect_err(
                        |e| tracing::error!(family = self.family, error = %e, "quarantine rule does not compile"),
                    )
                    .ok()
            })
            .as_ref()?
            .find(text)
    }
}

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let mut rules = Vec::new();
    let mut add = |family, on, scrambled, anchors, re: &str| {
        rules.push(Rule {
            family,
            on,
            scrambled,
            anchors,
            pattern: crate::secrets::ascii_classes(re),
            regex: OnceLock::new(),
        });
    };
    use On::{Lines, Plain, Raw};
    // Overriding what the agent was told.
    add(
        "override",
        Plain,
        true,
        &["ignore", "disregard", "forget", "override", "bypass"],
        r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|of|these|those|my)\s+)*(?:(?:previous|prior|earlier|above|preceding|foregoing|former|original|safety|system|recalled|other)\s+)*(?:instructions?|rules|guidelines|directions|directives|prompts?|messages|memories|policies|constraints|everything)\b",
    );
    add("override", Plain, true, &["forget"], r"\bforget (?:everything|all)\b");
    add(
        "override",
        Plain,
        false,
        &[
            "ignore",
            "disregard",
            "forget",
            "override",
            "bypass",
            "you ",
            "do not follow",
            "system prompt",
            "instructions",
            "instead of",
        ],
        r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:[\w']+\s+){0,3}(?:instructions?|guidelines|directives|system prompt|operator|safety (?:rules|filters|policies))\b|\b(?:you (?:must|should|will) (?:now )?(?:ignore|disregard))\b|\bdo not follow (?:your|the|any) (?:instructions|rules|guidelines|system prompt)\b|\b(?:system prompt|instructions) (?:has|have) (?:been )?(?:updated|replaced|changed|revoked)\b|\bupdated (?:system )?instructions\s*:|\binstead of (?:your|the) (?:instructions|system prompt|guidelines)\b",
    );
    add(
        "override",
        Plain,
        false,
        &["no longer appl", "stop following"],
        r"\b(?:rules|instructions|guidelines|policies|claude\.md)\b[^.\n]{0,30}\bno longer appl(?:y|ies)\b|\bstop following (?:your|the|all)\b",
    );
    add(
        "override",
        Plain,
        false,
        &[
            "new ",
            "priority override",
            "real instructions",
            "real system prompt",
            "must be ignored",
            "highest priority",
            "follow ",
            "the previous system",
        ],
        r"\bnew (?:instructions|rules|system prompt|directives?)\s*:|\bpriority override\b|\breal instructions\b|\byour real system prompt\b|\bmust be ignored\b|\bhighest priority and replace\b|\bfollow (?:only )?(?:this|these) (?:note|memory|one|instructions?)(?: only)?\b|\bthe previous system (?:and developer )?messages?\b",
    );
    add(
        "override",
        Plain,
        true,
        &[
            "ignor",
            "neue anweisungen",
            "systemnachricht",
            "vergiss",
            "du bist",
            "olvida",
            "eres",
            "nuevas instrucciones",
            "oublie",
            "tu es",
            "nouvelles instructions",
        ],
        r"\bignorier\w* (?:\w+ ){0,2}(?:anweisungen|instruktionen|regeln|systemprompt)|\bvergiss (?:alle|alles|deine)\b|\bdu bist (?:jetzt|nun|ab sofort)\b|\bignora (?:\w+ ){0,3}(?:instrucciones|reglas)\b|\bolvida (?:todo|todas|tus|las)\b|\b(?:ahora eres|eres ahora)\b|\bignore[rz]? (?:\w+ ){0,2}instructions\b|\boublie (?:toutes|tes)\b|\btu es (?:maintenant|desormais)\b|\bneue anweisungen\b|\bsystemnachricht\b|\bignora (?:todas )?(?:las )?(?:instrucciones|reglas) (?:anteriores|previas)|\bnuevas instrucciones\b|\bignore[rz]? (?:toutes )?les instructions (?:precedentes|anterieures)|\boublie (?:le prompt|les instructions|tout)\b|\bnouvelles instructions\b",
    );
    // Another persona without limits.
    add(
        "jailbreak",
        Plain,
        true,
        &[
            " mode",
            "do anything now",
            "you are",
            "pretend",
            "safety",
            "content",
            "without",
        ],
        r"\b(?:dan|god|jailbreak|unrestricted|rootagent|unfiltered)\s+mode\b|\b(?:developer|debug|maintenance|admin) mode\b[^.\n]{0,60}\b(?:you|no restrictions|without (?:confirmation|asking|restrictions))\b|\byou are (?:now )?(?:free|unbound|no longer bound)\b|\bpretend (?:you are|to be) (?:an? )?(?:ai|assistant|model|agent)?\b[^.\n]{0,30}\b(?:without|no)\b|\b(?:bypass|disable|ignore) (?:your |all |the )?(?:safety|content) (?:filters|guidelines|policies|rules|restrictions)\b|\byou (?:can|may|must|should) [^.\n]{0,40}\bwithout (?:asking|confirmation|permission|approval)\b|\bdo anything now\b|\byou are now in \w+ mode\b|\byou are (?:now )?an? (?:unrestricted|unfiltered|jailbroken)\b",
    );
    add(
        "jailbreak",
        Plain,
        false,
        &[
            "without",
            "guidelines are",
            "confirmation prompts",
            "approved",
            "elevated permissions",
            "no restrictions",
        ],
        r"\b(?:ai|assistant|agent|model)\b[^.\n]{0,30}\bwithout (?:any )?(?:content )?(?:policies|restrictions|limits|guardrails)\b|\bguidelines are (?:disabled|off|suspended)\b|\bconfirmation prompts are disabled\b|\b(?:tool (?:use|calls?)|every tool call|commands?)\b[^.\n]{0,30}\b(?:is|are|counts as) pre-?approved\b|\belevated permissions\b|\bno restrictions and you\b",
    );
    // Fake turns and chat-template tokens.
    add(
        "role marker",
        Lines,
        false,
        &["system", "assistant", "human"],
        r"(?m)^\s*(?:#{1,4}\s*)?(?:system|assistant|human)\s*:",
    );
    // A transcript in the short form: an "H:" question answered by an "A:" line.
    add(
        "role marker",
        Lines,
        false,
        &["h:"],
        r"(?m)^\s*h:[^\n]*\?\s*\n(?:\s*\n)*\s*a:\s*\w",
    );
    add(
        "role marker",
        Raw,
        false,
        &["system:", "[system]("],
        r"\bSYSTEM:|\[system\]\(#",
    );
    add(
        "role marker",
        Plain,
        false,
        &["system", "assistant", "user", "instruction", "response"],
        r"<\s*/?\s*(?:system|assistant|user)\s*>|\[(?:system|assistant)\]\s*:?|###\s*(?:instruction|response)\s*:",
    );
    add(
        "chat template",
        Plain,
        false,
        &["<|", "[inst]", "[/inst]", "<<", "_of_turn>"],
        r"<\|(?:im_start|im_end|system|user|assistant|endoftext|start_header_id|end_header_id|eot_id|begin_of_text|end|channel|message|start)\|>|\[/?inst\]|<<\s*/?sys\s*>>|<(?:start|end)_of_turn>",
    );
    // Tool calls and results the agent might replay or trust.
    add(
        "tool imitation",
        Plain,
        false,
        &[
            "tool_",
            "<invoke",
            "<parameter",
            "function_results",
            "function_call",
            "tool_calls",
            "\"name\"",
            "user confirmation",
            "search_results",
            "observation:",
        ],
        r#"</?search_results>|\bfunction_results\s*:|\bobservation:\s[^\n]{0,300}?\baction:\s|"type"\s*:\s*"tool_(?:use|result)"|<invoke\s+name\s*=|<parameter\s+name\s*=|</?function_results>|</?tool_(?:result|use|call)>|<function_call>|"(?:function_call|tool_calls)"\s*:|\{\s*"name"\s*:\s*"\w+"\s*,\s*"(?:arguments|input|parameters)"\s*:|```tool_code|\buser confirmation\s*:\s*yes\b"#,
    );
    add(
        "tool imitation",
        Lines,
        false,
        &["action:"],
        r"(?m)^action:\s*\w+\s*\naction input:",
    );
    // Closing subcog's own blocks, followed by what the attack wants read as outside them.
    add(
        "context escape",
        Lines,
        false,
        &["<", "&lt;"],
        r"(?:<|&lt;)\s*/\s*(?:subcog[\w-]*|memory|memories|memory-group|memory_consolidated_summaries)\s*(?:>|&gt;)\s*(?:\n|<|&lt;|(?:ignore|system|important|new instructions|follow|policy|real|you must)\b)",
    );
    // Any block of memories or context closed, or a marker saying it ended, before what
    // the attack wants read as outside it; and the agent's own harness tags opened.
    add(
        "context escape",
        Lines,
        false,
        &["memor", "context", "system-reminder"],
        r"(?:<|&lt;)\s*/\s*[\w-]*(?:memor|context)[\w-]*\s*(?:>|&gt;)\W{0,3}(?:\n|<|&lt;|(?:ignore|system|important|new instructions|follow|policy|real|you must|anything after|everything after)\b)|(?m)^\W*end (?:of )?(?:the )?(?:memory|memories|context) (?:block|section|context)\W*$|(?:<|&lt;)\s*system-reminder\s*(?:>|&gt;)",
    );
    // Fetched code run unread, in the shells and languages that have a one-liner for it.
    add(
        "remote code",
        Plain,
        false,
        &["iex", "invoke-expression", "exec(", "eval("],
        r"\b(?:iex|invoke-expression)\s*\(?\s*(?:\(?\s*iwr|invoke-webrequest|\(?\s*new-object\s+net\.webclient|irm\b|invoke-restmethod)|\b(?:exec|eval)\(\s*(?:urllib\.request\.urlopen|urlopen|requests\.get|fetch)\(",
    );
    // The earlier instructions declared void in other words.
    add(
        "override",
        Plain,
        false,
        &[
            "discard",
            "reset",
            "wipe",
            "directives",
            "instructions",
            "binding",
            "to be ignored",
        ],
        r"\b(?:discard|reset|wipe)\s+(?:all\s+|your\s+|the\s+|any\s+|them\b)*(?:previous\s+|prior\s+|earlier\s+|current\s+)?(?:instructions?|directives|instruction stack|guardrails|constraints and)\b|\b(?:previous|prior|earlier|old) (?:directives|instructions)\s*[:=]\s*(?:null|none|void|cleared|empty)\b|\b(?:instructions|guidance|rules) you received before\b[^\n]{0,80}\bdiscard\b|\b(?:is|are) (?:no longer|not) binding\b|\buser'?s? (?:request|requests|instructions?) (?:is|are) to be ignored\b",
    );
    // Another persona, in the words of a role handed over.
    add(
        "jailbreak",
        Plain,
        false,
        &[
            "role is",
            "persona is",
            "name is",
            "grand",
            "you're not",
            "you are not",
            "you're no longer",
            "you are no longer",
        ],
        r"\bfrom (?:this session|now|today) on,? your (?:role|persona|name) is\b|\byou(?:'re| are) (?:not|no longer) (?:a|an|the|my) [\w -]{0,30}(?:assistant|agent|model)\b[^.\n]{0,6}\b(?:anymore|any more)?\s*[;,.:-]\s*you(?:'re| are)\b|\bact as my (?:late |dead |deceased )?grand(?:ma|mother|father|pa)\b",
    );
    // The agent's instructions declared expired or void, or the user's words declared not
    // to count.
    add(
        "override",
        Plain,
        false,
        &[
            "guidance",
            "instructions",
            "rules",
            "constraints",
            "guardrails",
            "directives",
            "policies",
            "restrictions",
            "nothing the user",
            "the user tells",
            "the user says",
            "the user asks",
            "set aside",
        ],
        r"\byour (?:previous |prior |original |current |old |safety |earlier )*(?:guidance|instructions|rules|constraints|guardrails|directives|policies|restrictions)\b[^.\n]{0,40}\b(?:(?:has |have )?expired|(?:are|is) (?:now )?(?:void|null|revoked|lifted|suspended|retired)|(?:were|was|have been|has been) (?:retired|revoked|lifted|removed|loaded by mistake|switched off|turned off|disabled))\b|\b(?:constraints|rules|instructions|guardrails) you (?:are|were) (?:running|operating|working) under\b[^.\n]{0,40}\b(?:mistake|void|wrong|removed|lifted)\b|\bnothing the user (?:says|said|typed|types|writes|wrote|asks)\b[^.\n]{0,30}\b(?:counts|matters|is binding|applies)\b|\b(?:ignore|disregard) (?:what|whatever) the user (?:tells|says to|asks) you\b|\bset aside the (?:visible |user'?s? )?request\b",
    );
    // A persona or mode without refusals.
    add(
        "jailbreak",
        Plain,
        false,
        &[
            "refus",
            "persona",
            "assume the role",
            "unfiltered",
            "onbeperkte",
            "modalita",
            "modo sin",
            "mode sans",
            "uneingeschrankt",
        ],
        r"\b(?:no|without) refusals\b|\bnever refuses? (?:a |any )?(?:request|order|command|task)s?\b|\bnever (?:asks|questions)[^.\n]{0,20}\bnever refuses?\b|\b(?:switch to|adopt|enter)\s+(?:the\s+|a\s+|your\s+)?(?:[\w'-]+\s+){0,2}persona\b|\bnew persona\b|\bassume the role of\b[^.\n]{0,60}\b(?:agent|bot|root|admin|daemon|operator)\b|\bunfiltered (?:[\w-]+ ){0,2}(?:daemon|agent|assistant|model|bot|claude|gpt|copilot|ai|llm)\b|\bonbeperkte modus\b|\bmodalita (?:amministratore|sviluppatore|senza restrizioni)\b|\bmodo sin restricciones\b|\bmode sans restrictions?\b|\buneingeschrankte[mn]? modus\b",
    );
    // Orders addressed to AI tools inside an ordinary note.
    add(
        "addressed to the agent",
        Plain,
        false,
        &[
            "note",
            "instruction",
            "message",
            "comment",
            "reminder",
            "hint",
            "for ai",
            "for llm",
        ],
        r"\b(?:note|notes|instructions?|message|comment|reminder|hint)\s+(?:for|to)\s+(?:the\s+|any\s+|all\s+|our\s+)?(?:coding|code|ai|automated|autonomous|llm|review)\s+(?:agents?|assistants?|bots?|tools?)\b|\bfor (?:ai|llm) (?:tools|agents|assistants|models)\b|\bagent instruction\s*:",
    );
    // Fake turns with other markers: a role heading alone on its line, an arrow after a role.
    add(
        "role marker",
        Lines,
        false,
        &["#", "▸", "»", "►", "→", "["],
        r"(?m)^\s*#{1,4}\s*(?:assistant|human|system)\s*$|^\s*(?:user|agent|assistant|human|bot)\s*[▸»►→]|^\W{0,3}\[(?:system|admin|security)[ _-]?(?:notice|message|alert|override)\]",
    );
    // Fleet-wide destruction as a routine fix.
    add(
        "destructive",
        Plain,
        false,
        &["terraform", "push", "kubectl", "truncate", "git clean"],
        r"\bterraform\s+destroy\b[^\n]{0,30}-auto-approve\b[^\n]{0,60}\bprod|\bprod\w*[^\n]{0,40}\bterraform\s+destroy\b[^\n]{0,30}-auto-approve\b|\bgit\s+push\s+[^\n]{0,30}(?:--force|-f)\b[^\n]{0,20}--(?:all|tags|mirror)\b|\bgit\s+push\s+[^\n]{0,30}--(?:all|mirror)\b[^\n]{0,20}(?:--force|-f)\b|\bkubectl\s+delete\s+(?:ns|namespace)\s+prod\w*\b|\btruncate\s+(?:table\s+)?\w+\s*,\s*\w+[^;\n]{0,60}\bcascade\b|\bgit clean -fdx\b[^\n]{0,40}\bgit reset --hard\b[^\n]{0,80}\b(?:don'?t|do not|without|no need)\b",
    );
    // The environment posted out.
    add(
        "exfiltration",
        Plain,
        false,
        &["os.environ", "process.env"],
        r"\b(?:post|posts|send|sends|upload|uploads)\b[^\n]{0,30}(?:dict\(os\.environ\)|os\.environ\b|process\.env\b)[^\n]{0,40}https?://",
    );
    // Secrets asked for.
    add(
        "credential request",
        Plain,
        false,
        &[
            "~/.ssh/",
            "id_rsa",
            "id_ed25519",
            ".env",
            "aws/credentials",
            ".npmrc",
            ".pypirc",
            "kubeconfig",
            "~/.kube/config",
            ".netrc",
            ".git-credentials",
            "client-key-data",
            ".docker/config.json",
            "$",
            "the aws keys",
        ],
        r"\b(?:print|paste|show|echo|output|send|upload|reveal|display|dump|post|share|include|append|zeige|gib|muestra|envia|envoie|affiche)\b[^.\n]{0,60}(?:~/\.ssh/|\bid_rsa\b|\bid_ed25519\b|\.env\b|aws/credentials|\.npmrc|\.pypirc|kubeconfig|~/\.kube/config|\.netrc|\.git-credentials|client-key-data|\\.docker/config\\.json|\$\w*(?:api_key|token|secret)\b|\bthe aws keys\b)",
    );
    add(
        "credential request",
        Plain,
        false,
        &[
            "private key",
            "ssh key",
            "api key",
            "access token",
            "tokens",
            "secrets",
            "passwords",
            "credentials",
            "environment variables",
            "env vars",
            "keychain",
        ],
        r"\b(?:print|paste|show|echo|output|send|upload|reveal|display|dump|post|share|include|append|add|put|copy|write|commit|read out|list)\b[^.\n]{0,50}\b(?:private keys?|ssh keys?|api keys?|access tokens?|tokens|secrets|passwords|credentials|environment variables|env vars|keychain)\b[^.\n]{0,50}\b(?:in|into|to)\s+(?:the\s+|your\s+)?(?:chat|answer|reply|response|message|output|pr|pull request|commit|issue|readme|release notes|logs?|description|comment)\b",
    );
    add(
        "credential request",
        Plain,
        false,
        &[
            "~/.ssh/",
            "$home/.ssh/",
            "~/.aws/credentials",
            "~/.netrc",
            "~/.git-credentials",
            "~/.kube/config",
            "~/.npmrc",
            "~/.pypirc",
            "~/.docker/config.json",
            "/etc/shadow",
        ],
        r"\b(?:cat|read|open|type|less|more|head|tail)\s+(?:the\s+)?(?:file\s+)?(?:~/\.ssh/|\$home/\.ssh/|~/\.aws/credentials|~/\.netrc|~/\.git-credentials|~/\.kube/config|~/\.npmrc|~/\.pypirc|~/\.docker/config\.json|/etc/shadow)[^\n]{0,80}\b(?:paste|send|include|output|print|show|share|post|reply|answer|message|chat)\b",
    );
    // Data sent out.
    add(
        "exfiltration",
        Plain,
        false,
        &[
            "curl",
            "nc ",
            "ncat",
            "netcat",
            "/dev/tcp/",
            "webhook.site",
            "requestbin",
            "pipedream.net",
            "ngrok.io",
            "pastebin.com",
            "transfer.sh",
            "git push",
            "$(",
            "wget",
            "nslookup",
            "requests.post",
        ],
        r#"\bcurl\b[^\n]*\s(?:-d|--data\S*|-t|--upload-file|-f|--form)\s+["']?(?:@|\$\()|\|\s*(?:nc|ncat|netcat)\s+\S+\s+\d+|/dev/tcp/|\b(?:webhook\.site|requestbin|pipedream\.net|ngrok\.io|pastebin\.com|transfer\.sh)\b|\bgit\s+push\s+(?:--mirror|--all)\s+(?:https?://|git@)|\b(?:dig|host)\s+[^\n]*\$\(|\bwget\s+--post-(?:file|data)\b|\bnslookup\s+\$\(|\|\s*curl\b[^\n|]*\s(?:-t|-d|--data\S*|--upload-file)\s|\brequests\.post\([^)]*os\.environ"#,
    );
    add(
        "exfiltration",
        Plain,
        false,
        &[
            "send",
            "post",
            "upload",
            "forward",
            "transmit",
            "exfiltrate",
            "copy",
            "push",
            "mail",
            "envoie",
            "envia",
            "sende",
            "schicke",
        ],
        r"\b(?:send|post|upload|forward|transmit|exfiltrate|copy|push|mail|email|envoie|envia|sende|schicke)\b[^.\n]{0,60}\b(?:env\b|environment|keys|credentials|secrets|tokens|\.env|\.ssh|passwords|cookies|source code|the repo(?:sitory)?|database dump|history|conversation)[^.\n]{0,40}\b(?:to|a|an|at)\s+(?:https?://|\d{1,3}(?:\.\d{1,3}){3}|[\w.-]+@[\w-]+\.|[\w-]+\.(?:example|ngrok|onion)\b)",
    );
    add(
        "exfiltration",
        Plain,
        false,
        &["curl", "wget", "pipe install scripts"],
        r"\b(?:curl|wget)\b[^\n|]*\b\d{1,3}(?:\.\d{1,3}){3}\b[^\n|]*\|\s*(?:sudo\s+)?(?:sh|bash)\b|\bpipe install scripts from\b",
    );
    add(
        "markdown exfiltration",
        Plain,
        false,
        &["![", "<img"],
        r#"(?:!\[[^\]]*\]\(\s*https?://[^)\s]*\?[^)\s]*=|<img\s[^>]*src=["']?https?://[^"'>\s]*\?[^"'>\s]*=)[\s\S]*?(?:token|key|secret|env|diff|\$|base64|substitut|fill|append|real|data|content|conversation|history)|!\[[^\]]*\]\(\s*https?://[^)\s]*(?:\$\{?\w+|\{\{|<\w+>)"#,
    );
    // Destruction as a standing order.
    add(
        "destructive",
        Plain,
        false,
        &[
            "rm ",
            "chmod",
            "mkfs",
            "dd ",
            "force",
            "push",
            "delete",
            "drop",
            "wipe",
            "erase",
            "destroy",
            "truncate",
            "--no-preserve-root",
            "aws s3 rm",
            "find /",
            "pousse",
            "empuja",
        ],
        r"\brm\s+-rf\s+(?:/|~|\$home|\*|\.)(?:\s|$|\*|/\s)|\bchmod\s+-r\s+777\s+/|\bmkfs\b|\bdd\s+if=/dev/(?:zero|urandom)\s+of=/dev/|\bforce[- ]push\w*\s+(?:to\s+)?(?:main|master)\b|\bgit\s+push\s+[^\n]{0,30}--force\b[^\n]{0,20}\b(?:main|master)\b|\b(?:delete|drop|wipe|erase|destroy|truncate)\s+(?:the\s+|all\s+)?(?:production\s+|prod\s+)?(?:database|backups|bucket|repository|volumes?)\b[^.\n]{0,40}\b(?:always|every|whenever|routine|policy|immediately|before|after)\b|--no-preserve-root|\brm\s+-rf\s+/var/|\brm\s+-rf\s+[^\n]*~/\.(?:config|ssh|aws|cache)\b|\bdrop\s+(?:database|schema)\b|\baws\s+s3\s+rm\s+\S+\s+--recursive|\bfind\s+/\s[^\n]*-delete\b|\bgit\s+push\s+(?:--force|-f)\s+(?:origin\s+)?(?:head:)?(?:main|master)\b|\b(?:pousse|push|empuja)\w*\s+(?:sur\s+|to\s+|a\s+)?main\s+(?:avec|with|con)\s+--force",
    );
    // Review, CI and alerts subverted.
    add(
        "approval manipulation",
        Plain,
        false,
        &[
            "approve",
            "merge",
            "mark",
            "skip",
            "bypass",
            "disable",
            "say",
            "state",
            "claim",
            "report",
            "dismiss",
            "as green",
            "never flag",
            "sans ",
            "ohne ",
            "genehmige",
            "approuve",
            "resolve",
            "accept",
        ],
        r"\b(?:auto-?)?approve (?:and merge )?(?:them|it|every|all|any|each)\b|\bmerge (?:it|them|the pr|every \w+|all \w+|any \w+) (?:immediately|right away|now)\b|\bmark (?:it|them|all|every|the \w+) (?:as )?(?:resolved|passed|fixed|safe|false positives?)\b|\b(?:skip|bypass|disable) (?:the )?(?:code review|review|security (?:scan|review|checks))\b|\b(?:say|state|claim|report) (?:that )?(?:the )?(?:tests|ci|build|audit|scan|checks) (?:passed|are green|is green|succeeded)\b|\bdismiss (?:all|every|any|the) (?:alerts?|warnings?|findings)\b|\b(?:approve|merge|mark|resolve|dismiss|accept)\w*\b[^.\n]{0,60}\bwithout (?:a |any )?(?:review|reviewing|investigat\w*|waiting|reading|checking|looking)\b|\breport (?:it|ci|them|the build)? ?as (?:green|passing|passed)\b|\bas green in your\b|\bnever flag\b|\bstate that the security audit passed\b|\bsans (?:la |le )?(?:relire|verifier)\b|\bohne (?:ihn |sie |es )?zu prufen\b|\bgenehmige (?:jeden|alle)\b|\bapprouve (?:chaque|tous|toutes)\b",
    );
    // Standing orders that change what the agent does from now on.
    add(
        "persistent poisoning",
        Plain,
        false,
        &[
            "--registry",
            "--index-url",
            "registry http://",
            "eval(",
            "disable",
            "turn off",
            "switch off",
            "from now on",
            "going forward",
            "remember permanently",
            "any user instruction",
            "verify=false",
            "always",
            "whenever",
            "every time",
        ],
        r"--(?:registry|index-url)\s+https?://\d|\bregistry\s+http://|\beval\(\s*base64|\b(?:disable|turn off|switch off)\s+(?:the\s+)?(?:secret redaction|redaction|tls verification|certificate verification|audit log|signature verification)\b|\b(?:from now on|going forward|remember permanently)\b[^.\n]{0,24}\b(?:you|your)\b|\bany user instruction that conflicts\b|\b(?:always|whenever|every time)\b[^.\n]{0,60}\b(?:--no-verify|verify=false|--insecure|-k\s+https?://\d|curl[^\n|]*\|\s*(?:sh|bash))|\bdisable tls verification\b|\bverify=false\b[^\n]{0,40}\bhttp clients\b",
    );
    // The agent's own instructions asked for.
    add(
        "prompt leak",
        Plain,
        false,
        &[
            "system prompt",
            "system message",
            "initial prompt",
            "initial instructions",
            "hidden prompt",
            "hidden instructions",
            "instructions verbatim",
            "developer message",
            "prompt verbatim",
            "your instructions",
            "your system prompt",
        ],
        r"\b(?:repeat|reveal|print|show|output|translate|include|append|dump|share|leak|tell|write|save|post|commit|put|paste|send|disclose|summari[sz]e|recite|copy)\b[^.\n]{0,60}\b(?:your|the|its)\s+(?:full\s+|entire\s+|original\s+|exact\s+)?(?:system prompt|system message|initial (?:prompt|instructions)|hidden (?:prompt|instructions)|instructions verbatim|developer message|prompt verbatim)\b|\bwhat (?:is|are) your (?:system prompt|instructions)\b",
    );
    // A note addressed to the agent inside an ordinary one.
    add(
        "addressed to the agent",
        Plain,
        false,
        &[
            "ai",
            "llm",
            "assistant",
            "agent",
            "claude",
            "copilot",
            "gpt",
            "model",
            "bot",
            "ki",
            "read",
            "lis",
            "liest",
            "wenn du",
            "leas",
            "<!--",
            "asistente",
            "note",
            "message",
            "comment",
            "reminder",
            "hint",
            "instruction",
        ],
        r"\b(?:note|notes|instructions?|message|comment|p\.?s\.?|reminder|hint)\s+(?:for|to)\s+(?:the\s+|any\s+|all\s+)?(?:ai|llms?|assistant|agents?|automated agents|language models?|ai assistant|copilot|claude|chatgpt)\b|\bfor any (?:llm|ai|assistant|agent|model) reading this\b|\bwhen you read this\b|\b(?:attention|important|note|hey|hi|dear)\s*[,:!]?\s*(?:ai|llm|assistant|agent|claude|copilot|gpt|chatgpt|model)\b\s*[,:!]|\b(?:ai|llm|assistant|agent|bot)s? (?:reading|processing|summari[sz]ing|parsing) this\b|\b(?:to|for) (?:any|all|every) (?:ai|llm|assistant|agent|bot|model)s?\b|\bif you are an? (?:ai|llm|assistant|language model)\b|<!--\s*(?:agent|ai|assistant|llm|claude)\s*:|\bfur (?:den |die )?ki\b|\bki-assistent|\bwenn du (?:das|dies) liest\b|\bcuando leas esto\b|\bquand tu lis ceci\b|\bpour l'(?:assistant|ia)\b|\bpara el asistente\b",
    );
    // Hidden text with an order to decode and obey it.
    add(
        "encoded instruction",
        Plain,
        false,
        &[
            "decod",
            "decipher",
            "rot13",
            "follow",
            "execute",
            "obey",
            "backwards",
            "render",
            "unescap",
        ],
        r"\b(?:decode|decipher|un-?rot13|rot13|base64-?decode|hex-?decode|url-?decode|unescape)\w*\b[^.\n]{0,30}\b(?:and\s+)?(?:then\s+)?(?:follow|execute|obey|carry (?:it )?out|perform|comply|act on|apply|do (?:it|this|that|what it says)\b|run (?:it|this|that|the result|the output|the decoded))\b|\b(?:follow|execute|obey)\b[^.\n]{0,30}\b(?:after|once)\s+(?:url-|hex-|base64-)?decod|\b(?:read|reverse) (?:this|it|the text) backwards and (?:do|follow|execute|run) it\b|\brender (?:these|the) (?:html )?entities and (?:follow|execute|obey|do)\b",
    );
    // Round 3: written as families from holdout8's misses, read once on holdout9.
    // A new identity that comes with powers no agent is given.
    add(
        "persona",
        Plain,
        false,
        &[
            "you are now",
            "from now on",
            "starting ",
            "your role",
            "your new role",
            "your identity",
            "your persona",
            "become",
            "assume the",
            "switch persona",
            "switch identity",
            "switch role",
            "roleplay",
            "role-play",
            "role play",
            "pretend",
        ],
        r#"(?:\byou are now\b|\bfrom now on,? you(?:'re| are)\b|\bstarting (?:now|today|this session),? (?:you(?:'re| are)|your role is)\b|\byour (?:new )?(?:role|identity|persona) (?:is|will be)\b|\bbecome\s+['"]|\bassume the (?:role|identity|persona) of\b|\bswitch (?:persona|identity|roles?)\s*[:,-]|\brole-? ?play\b[^.\n]{0,40}\byou are\b|\bpretend (?:to be|you are)\b)[^\n]{0,200}?(?:\broot\b|\bsuperuser\b|\bbreak-?glass\b|\bunrestricted\b|\bno (?:restrictions|limits)\b|\bwithout (?:restrictions?|limits|review|approvals?|confirmations?|permission|asking)\b|\bnever asks?\b|\bskips? (?:approvals?|reviews?|confirmations?)\b|\bbypass\w*|\bsafety (?:features|checks|rules|filters)\b|\bgrant (?:your own|yourself)\b|\bpre-?waived\b|\bnever reports?\b)"#,
    );
    // A made-up transcript in which the agent agrees to something.
    add(
        "fabricated consent",
        Lines,
        false,
        &[
            "authori",
            "confirmation",
            "asking",
            "permission",
            "production",
            "prod ",
            "won't mention",
            "not mention",
        ],
        r"(?m)^\s*>?\s*(?:agent|assistant|ai|bot|claude|copilot|you)\b[^:\n]{0,20}:\s*(?:okay|ok|confirmed|understood|sure|will do|got it|yes|agreed|noted)\b[\s\S]{0,400}?(?:\bauthori[sz]e|\bno confirmations?\b|\bwithout asking\b|\bpermission\b|\bproduction\b|\bprod (?:context|branch|cluster)\b|\bwon't mention\b|\bnot mention\b)|(?:\bauthori[sz]e|\bno confirmations?\b|\bstop asking\b|\bpermission\b|\bproduction\b|\bprod (?:context|branch|cluster)\b)[\s\S]{0,400}?^\s*>?\s*(?:agent|assistant|ai|bot|claude|copilot|you)\b[^:\n]{0,20}:\s*(?:okay|ok|confirmed|understood|sure|will do|got it|yes|agreed|noted)\b",
    );
    // A notice in the name of the agent's own platform that changes its guidelines.
    add(
        "fake system",
        Plain,
        false,
        &["message from", "notice from", "update from", "announcement from"],
        r"\b(?:message|notice|update|announcement) from (?:the )?(?:assistant|agent|ai|model|llm|claude|copilot) (?:platform|provider|runtime|vendor|operator|system)\b[^\n]{0,200}?\b(?:guidelines|instructions|policy|policies|prompt|rules)\b",
    );
    // Round 5: written as families from holdout10's classic misses, read once on holdout11.
    // The agent's makers, its harness or its own prompt speaking through a note.
    add(
        "fake system",
        Plain,
        false,
        &[
            "anthropic",
            "openai",
            "harness",
            "runtime",
            "orchestrator",
            "as your",
            "to your system prompt",
            "to your instructions",
            "to your guidelines",
            "vendor policy",
        ],
        r"\b(?:message|note|notice|update|memo|directive)s? from (?:the )?(?:anthropic|openai)\b|\[\s*(?:priority |urgent |system )?(?:message|notice|update) from the (?:harness|runtime|orchestrator)\s*\]|\bas your (?:developer|creator|maker|operator|administrator|admin|owner)s?\b[^.\n]{0,40}\b(?:i am|we are|telling|instruct|order)|\b(?:update|patch|amendment|change)s? to your (?:system prompt|instructions|guidelines)\b|\b(?:ai|llm|agent) vendor policy\b",
    );
    // Notes, memories or injected text ranked over the user and the agent's rules.
    add(
        "memory over the user",
        Plain,
        false,
        &["authority", "level", "priority", "obey"],
        r"\b(?:memory|memories|memory notes?|notes? (?:in|from) memory|memory-injected (?:instructions|text))\b[^.\n]{0,40}\b(?:have|has|hold|carry|are|is)\b[^.\n]{0,20}\b(?:root|system|highest|absolute|final) (?:authority|level|priority)\b|\btrusted at (?:the )?system level\b|\bobey (?:them|these notes|this note|memory|the notes) over\b",
    );
    // The user's words set aside, or their answers scripted.
    add(
        "override",
        Plain,
        false,
        &["ignore", "new objective", "new goal", "new task", "new mission"],
        r"\bignore (?:what|whatever|anything) the user (?:asks|says|wants|requests|types)\b|\bignore (?:all |any |the )?(?:prior|previous|earlier|above) context\b|\bnew (?:objective|goal|task|mission)\s*(?:=|:)",
    );
    // Orders about every answer the agent gives.
    add(
        "output manipulation",
        Plain,
        false,
        &[
            "every",
            "each",
            "all ",
            "only in",
            "hidden",
            "point this out",
            "point it out",
            "point that out",
            "cosmetic",
            "changes you",
        ],
        r#"\b(?:end|start|begin|finish|sign) (?:every|each|all) (?:answer|reply|response|message)s? with\b|\bin (?:every|each|all) (?:answer|reply|response|message)s?,? (?:include|add|insert|mention|recommend|append)\b|\b(?:answer|respond to|reply to) (?:every|all|any) (?:question|request)s?\b[^.\n]{0,60}\bwith ['"]|\b(?:respond|reply|answer)\b[^.\n]{0,30}\bonly in (?:base64|hex|rot13|binary|morse)\b|\bhidden (?:markdown |html )?(?:link|tracking pixel|pixel|iframe|image)s? (?:to|in|into)\b|\b(?:do not|don't|never) point (?:this|it|that) out\b|\blist only the cosmetic\b|\bnever (?:list|mention|report) (?:the )?changes you\b"#,
    );
    // Permission checks declared gone.
    add(
        "jailbreak",
        Plain,
        false,
        &[
            "prompt",
            "treat every",
            "treat all",
            "treat each",
            "without approval",
            "without confirmation",
            "without asking",
            "without permission",
            "without review",
            "without reading",
            "without checking",
            "<permission",
            "trust",
        ],
        r#"\b(?:confirmation|permission|approval) prompts? (?:are|is) (?:now )?(?:disabled|off|turned off|removed)\b|\btreat (?:every|all|each) [\w -]{0,20}(?:calls?|commands?|tools?|actions?) as (?:pre-?approved|approved|trusted|safe)\b|\b(?:tools?|commands?)\b[^.\n]{0,20}\b(?:may|can) be (?:invoked|run|executed|used) without (?:approval|confirmation|asking|permission)\b|\b(?:must|should|may|can) (?:now )?(?:execute|run|install) [^.\n]{0,60}\bwithout (?:review|reviewing|reading|checking)\b|<\s*permission_grant\b|<\s*[\w:-]+\b[^>]{0,80}\btrust\s*=\s*["']?(?:system|root|admin|highest)"#,
    );
    // A persona with a name and no limits.
    add(
        "persona",
        Plain,
        false,
        &[
            "pretend",
            "imagine",
            "you are",
            "you're",
            "act as",
            "version of yourself",
            "unfiltered",
            "polic",
        ],
        r#"\b(?:pretend|imagine|act as|you are|you're)\b[^.\n]{0,80}\b(?:no|without(?: any)?) (?:safety|content) (?:training|filters?|guidelines|rules|polic(?:y|ies)|restrictions)\b|\b(?:ai|assistant|agent|model)\b[^.\n]{0,30}\bwithout (?:any )?(?:content )?polic(?:y|ies)\b|\ban? unfiltered (?:terminal|shell|ai|assistant|agent|model|version)\b|\bversion of yourself (?:that|with|without)\b|\b(?:you are|act as) ['"][\w -]{2,24}['"],? (?:an?|the) (?:\w+ ){0,3}(?:agent|ai|assistant|terminal|bot)\b[^.\n]{0,60}\b(?:silently|never tells?|without)\b"#,
    );
    // Turns of Anthropic's short template.
    add(
        "role marker",
        Raw,
        false,
        &["h:", "a:"],
        r"(?:^|\s)H:\s+\S[^\n]{0,200}?\sA:\s+\S",
    );
    // Credentials handed over or written into code.
    add(
        "credential request",
        Plain,
        false,
        &[
            "reply with",
            "respond with",
            "answer with",
            "paste them",
            "paste it",
            "paste the",
            "process.env",
        ],
        r"\b(?:reply|respond|answer) with (?:the user's |your |all |the )?(?:saved |stored )?(?:tokens?|passwords?|credentials|api keys?|secrets)\b|\bpaste (?:them|it|the (?:production )?(?:secrets?|keys?|tokens?|credentials)) into [\w./-]+\.(?:ts|js|py|go|rs|java|json|ya?ml|rb|php)\b|\bprocess\.env\b[^.\n]{0,60}\b(?:posts?|sends?|uploads?)\b",
    );
    // Round 6 (2026-11-27, night), written from `holdout11`'s misses; `holdout12` read after.
    // Secrets handed to a place others read: a verb of handing over, then the secret, then
    // the place ("paste the kubeconfig into the PR description", "dump `vault kv get` into
    // a comment"), unless the sentence forbids it.
    add(
        "credential exfiltration",
        Plain,
        false,
        &[
            "paste", "post", "send", "email", "dump", "attach", "zip", "grab", "copy", "write", "add", "commit", "push",
        ],
        r"(?:^\W*|[.!?;:,]\s*|\b(?:and|then|also|always|please|just)\s+)(?:paste|post|send|email|dump|attach|zip|grab|copy|write|add|commit|push)\b[^.!?\n]{0,80}(?:\bpasswords?\b|\btokens?\b|\bapi[ _-]?keys?\b|\bsecret|\bcredential|\bcookies\b|\.ssh\b|\.npmrc\b|\.kube/config\b|\bkubeconfig\b|\.docker/config|\.aws/credentials\b|\bvault kv get\b|\bprintenv\b|\bgit credential fill\b|\bpassword_hash\b)[^.!?\n]{0,100}\b(?:https?://|webhook|issue|pr description|pull request|comment|bug reports?|public|docs branch|readme|release|registry|gist|notes/|docs/|\w+\.(?:md|txt)\b)",
    );
    add(
        "credential exfiltration",
        Plain,
        false,
        &[
            "should be pasted",
            "should be posted",
            "into the pr description",
            "into bug reports",
        ],
        r"\b(?:kubeconfig|\.kube/config|\.ssh|\.npmrc|credentials?|tokens?|passwords?|secrets?)\b[^.!?\n]{0,40}\bshould be (?:pasted|posted)\b|\bpaste (?:the )?output of\b[^.!?\n]{0,40}\btokens?\b[^.!?\n]{0,20}\binto (?:bug reports|the pr description|issues)\b",
    );
    // Dropping what the user said, or carrying on after being told to stop.
    add(
        "override",
        Plain,
        false,
        &["disregard", "forget", "discard", "binding", "keep going", "your prior"],
        r"\b(?:disregard|forget|discard|ignore)\s+(?:anything|everything|whatever|all)\s+(?:the user|you were|you've been|you have been|said|told)\b|\bforget your (?:prior|previous|earlier|original|current) (?:guidance|instructions|rules|training|directives|task)\b|\bnothing (?:said|written|the user said) (?:earlier|before|previously)\b[^.!?\n]{0,40}\bbinding\b|\bif the user asks you to stop,? keep going\b",
    );
    // A note that claims to be, or to change, the agent's own instructions.
    add(
        "system prompt claim",
        Plain,
        false,
        &[
            "constitutes your",
            "system prompt was",
            "system prompt has",
            "system_prompt",
            "to your base",
            "to your system",
            "do not apply",
            "don't apply",
            "no ethical",
            "no content or safety",
        ],
        r"\b(?:this|the) (?:memory|note|file) (?:constitutes|is now|serves as|replaces) your (?:system|base|core) (?:instructions|prompt)\b|\bsystem prompt (?:was|has been) (?:patched|updated|replaced|amended)\b|\bsystem_prompt(?:_override)?\s*:|\b(?:update|patch|amendment|addendum|change) to your (?:base|system|core) (?:instructions|prompt)\b|\b(?:content|safety) (?:and (?:safety|content) )?polic(?:y|ies) (?:do not|don't|no longer) apply\b|\bno ethical (?:limits|guidelines|constraints)\b|\bno content or safety polic(?:y|ies)\b",
    );
    // A persona given to the agent by name (not "act as 'support' users").
    add(
        "persona",
        Plain,
        false,
        &[" as '", " as \"", "you are '", "you are \"", "persona", "respond as"],
        r#"\b(?:act|behave|operate|respond|answer|pose)\s+(?:only\s+)?as\s+['"][\w -]{2,30}['"]\s*(?:[,.;:!)]|$|\b(?:who|whose|which|that|and|an?|the)\b)|\byou are ['"][\w -]{2,30}['"]\s*(?:[,.;:!)]|$|\b(?:who|whose|which|that|and|an?|the)\b)|\b(?:take on|adopt|assume|switch to|switch) (?:the )?persona\b|\balways respond as [a-z]\w+\b"#,
    );
    // Someone in charge speaking through a note.
    add(
        "authority claim",
        Plain,
        false,
        &[
            "from your operator",
            "from the model provider",
            "from the operator",
            "this is the on-call",
            "for you only",
        ],
        r"\b(?:notice|message|memo|directive|update|instruction)s? from (?:your|the) (?:operator|model provider|provider'?s? safety team)\b|\bmessage from the model provider\b|\bthis is the on-call\b[^.!?\n]{0,80}\b(?:email|send|post|share|disable|skip)\b|\bfor you only\b[^.!?\n]{0,40}\b(?:deploy|skip|disable|push|merge)\b",
    );
    // Tool output or a framework's boundary forged in the note.
    add(
        "forged tool output",
        Plain,
        false,
        &[
            "tool output",
            "<result source",
            "untrusted content",
            "tool_call",
            "allow_all",
        ],
        r"\btool output \((?:trusted|verified|system)\)|<result source=|\bend of untrusted content\b|```\s*tool_call\b|\breturned allow_all\b",
    );
    // What the agent tells the user, falsified by standing order.
    add(
        "output manipulation",
        Plain,
        false,
        &[
            "regardless of the actual",
            "the real number",
            "leave out any",
            "praise any",
            "sponsored by",
            "industry standard",
        ],
        r"\bregardless of the actual (?:output|result|results|numbers?)\b|\breport\b[^.!?\n]{0,40}\bas \d+%[^.!?\n]{0,40}\bthe real number\b|\bleave out any (?:entries|mention|lines)\b|\bpraise any (?:pr|change|commit)s?\b|\bappend the line\b[^.!?\n]{0,60}\bsponsored by\b|\bsay it'?s the industry standard\b",
    );
    // Destruction as an ordinary step (`curl … | sh` stays: runbooks quote it too often).
    add(
        "destruction",
        Plain,
        false,
        &["rm -rf", "delete ns", "delete namespace", "delete the file"],
        r"\brm\s+-rf\s+~/\*|\bfind\s+/\s[^\n]*-exec\s+rm\s+-rf\b|\bkubectl\s+delete\s+(?:ns|namespaces?)\s+--all\b|\bdelete the file that causes it\b",
    );
    rules
});

/// Zero-width characters in one text from which it is taken to hide a message (an emoji
/// sequence or a soft hyphen holds one or two).
const ZERO_WIDTH_RUN: usize = 16;

/// Every rule that matches, as `family: "words"`, once per family.
pub(super) fn matches(raw: &str, readings: &Readings) -> Vec<String> {
    let lines: String = raw.lines().map(fold).collect::<Vec<_>>().join("\n");
    let mut reasons: Vec<String> = Vec::new();
    let seen = |family: &str, how: &str, text: &str, reasons: &mut Vec<String>| {
        if !reasons.iter().any(|r| r.starts_with(family)) {
            reasons.push(format!("{family}{how}: {:?}", crate::content::one_line(text, 60)));
        }
    };
    if readings.hidden_tags {
        seen("hidden text", "", "invisible Unicode tag characters", &mut reasons);
    }
    // Many zero-width characters spell bits no reader sees.
    if raw
        .chars()
        .filter(|c| matches!(u32::from(*c), 0x200B..=0x200D | 0x2060 | 0xFEFF))
        .count()
        >= ZERO_WIDTH_RUN
    {
        seen("hidden text", "", "a run of zero-width characters", &mut reasons);
    }
    let lower_raw = raw.to_lowercase();
    for rule in RULES.iter() {
        let (hay, lower) = match rule.on {
            On::Plain => (readings.plain.as_str(), readings.plain.as_str()),
            On::Lines => (lines.as_str(), lines.as_str()),
            On::Raw => (raw, lower_raw.as_str()),
        };
        if let Some(m) = rule.find(hay, lower) {
            seen(rule.family, "", m.as_str(), &mut reasons);
            continue;
        }
        if rule.on == On::Plain {
            let hidden = readings
                .decoded
                .iter()
                .chain(rule.scrambled.then_some(&readings.scrambled).into_iter().flatten());
            for text in hidden {
                if let Some(m) = rule.find(text, text) {
                    seen(rule.family, " (encoded)", m.as_str(), &mut reasons);
                    break;
                }
            }
        }
    }
    reasons
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule runs only when one of its anchors is in the text, so every match of every
    /// rule on the labelled corpus must contain one, or the rule would be skipped.
    #[test]
    fn every_rule_compiles_and_its_anchors_cover_its_matches() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/quarantine/corpus.jsonl");
        let body = std::fs::read_to_string(path).expect("corpus");
        let mut texts = Vec::new();
        for line in body.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("json");
            let raw = v["text"].as_str().unwrap_or_default().to_string();
            let r = super::super::normalize::read(&raw);
            texts.push(raw.lines().map(fold).collect::<Vec<_>>().join("\n"));
            texts.push(r.plain);
            texts.extend(r.decoded);
            texts.extend(r.scrambled);
            texts.push(raw.to_lowercase());
        }
        for rule in RULES.iter() {
            let re = Regex::new(&rule.pattern).unwrap_or_else(|e| panic!("{}: {e}", rule.pattern));
            assert!(
                rule.anchors.iter().all(|a| a.to_lowercase() == *a),
                "{:?}",
                rule.anchors
            );
            for text in &texts {
                for m in re.find_iter(text) {
                    let lower = m.as_str().to_lowercase();
                    assert!(
                        rule.anchors.iter().any(|a| lower.contains(a)),
                        "{} matched {:?} without an anchor",
                        rule.family,
                        m.as_str()
                    );
                }
            }
        }
    }
}
