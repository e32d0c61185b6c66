//! A seeded generator of realistic project memories for scale runs (10k, 100k, 1M): each
//! memory names a service, a technology, a person or a file, carries numbers and versions,
//! and varies in length and wording, so keyword postings are not the handful of huge
//! lists the repetitive corpus of [`crate::memory`] makes.

/// Namespaces in the proportions agents write them.
const NAMESPACES: &[(&str, u32)] = &[
    ("decisions", 25),
    ("learnings", 25),
    ("patterns", 15),
    ("blockers", 10),
    ("progress", 15),
    ("context", 10),
];
const SERVICES: &[&str] = &[
    "orders",
    "billing",
    "checkout",
    "search",
    "auth",
    "notifications",
    "inventory",
    "payments",
    "gateway",
    "reporting",
    "ingest",
    "scheduler",
    "profile",
    "catalog",
    "shipping",
    "analytics",
    "export",
    "webhooks",
    "media",
    "onboarding",
    "ledger",
    "pricing",
    "recommendations",
    "audit",
];
const TECH: &[&str] = &[
    "PostgreSQL",
    "Redis",
    "Kafka",
    "gRPC",
    "GraphQL",
    "Terraform",
    "Kubernetes",
    "Helm",
    "Playwright",
    "Vitest",
    "Jest",
    "React",
    "Next.js",
    "Django",
    "FastAPI",
    "Rust",
    "Go",
    "SQLite",
    "S3",
    "CloudFront",
    "Nginx",
    "Envoy",
    "Prometheus",
    "Grafana",
    "Sentry",
    "OpenTelemetry",
    "RabbitMQ",
    "Elasticsearch",
    "DynamoDB",
    "Celery",
    "Sidekiq",
    "Docker",
    "GitHub Actions",
    "Argo CD",
    "Vault",
    "Auth0",
    "Stripe",
    "Twilio",
];
const PEOPLE: &[&str] = &[
    "Priya", "Marcus", "Lena", "Tomás", "Aiko", "Femi", "Olga", "Ravi", "Chen", "Sofia", "Dmitri", "Amara",
];
const FILES: &[&str] = &[
    "src/db/pool.rs",
    "api/handlers/orders.py",
    "web/app/layout.tsx",
    "deploy/values.yaml",
    "Makefile",
    "infra/main.tf",
    "src/cache/mod.rs",
    "tests/e2e/checkout.spec.ts",
    "config/settings.toml",
    "scripts/migrate.sh",
    "lib/retry.go",
    "docker-compose.yml",
];
const REASONS: &[&str] = &[
    "because p99 latency doubled under load",
    "after the outage on the last release",
    "to keep the monthly bill predictable",
    "since the vendor deprecated the old API",
    "so retries stay idempotent",
    "which halved the CI time",
    "until the data migration is finished",
    "as agreed in the architecture review",
    "because connection counts hit the limit at peak",
    "to unblock the mobile release",
    "after a customer reported duplicate charges",
    "since the old client leaked file handles",
];

/// A small deterministic generator (splitmix64): the same seed gives the same corpus.
pub struct Rng(u64);

impl Rng {
    /// A generator for one seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// One element of a list.
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// One generated memory: namespace, content, tags.
#[derive(Debug, Clone)]
pub struct Generated {
    /// Namespace name.
    pub namespace: &'static str,
    /// The text.
    pub content: String,
    /// Tags.
    pub tags: Vec<String>,
}

/// The `i`-th memory of the corpus of `seed`.
pub fn realistic(seed: u64, i: usize) -> Generated {
    let mut r = Rng::new(seed ^ (i as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93));
    let total: u32 = NAMESPACES.iter().map(|(_, w)| w).sum();
    let mut roll = (r.next_u64() % u64::from(total)) as u32;
    let mut namespace = NAMESPACES[0].0;
    for (ns, w) in NAMESPACES {
        if roll < *w {
            namespace = ns;
            break;
        }
        roll -= w;
    }
    let (svc, tech, other) = (r.pick(SERVICES), r.pick(TECH), r.pick(TECH));
    let (who, file, why) = (r.pick(PEOPLE), r.pick(FILES), r.pick(REASONS));
    let n = 2 + r.below(98);
    let version = format!("{}.{}", 1 + r.below(20), r.below(30));
    let content = match namespace {
        "decisions" => match r.below(4) {
            0 => format!("Use {tech} for the {svc} service {why}."),
            1 => format!("The {svc} service moves from {other} to {tech} {why}; {who} owns the rollout."),
            2 => format!("Pin {tech} to {version} in {file} {why}."),
            _ => format!("Cap the {svc} worker pool at {n} connections {why}."),
        },
        "learnings" => match r.below(4) {
            0 => format!("{tech} drops idle connections after {n} seconds; the {svc} client must send keepalives."),
            1 => format!("The flaky {svc} test was a race in {file}, not a timezone issue."),
            2 => format!("{who} found that {tech} {version} changed the default timeout to {n} ms."),
            _ => format!("Retries in the {svc} service doubled load on {tech} {why}."),
        },
        "patterns" => match r.below(3) {
            0 => format!("Every {svc} handler validates input before calling {tech}."),
            1 => format!("Wrap {tech} calls in the retry helper from {file} with jittered backoff."),
            _ => format!("Feature flags for {svc} live in {file}; name them {svc}_<feature>."),
        },
        "blockers" => match r.below(3) {
            0 => format!("The {svc} deploy is blocked: {tech} {version} fails the health check after {n} s."),
            1 => format!("Waiting on {who} for {tech} credentials before the {svc} migration can start."),
            _ => format!("{file} breaks the build on {other}; the {svc} release waits for a fix."),
        },
        "progress" => format!("Migrated {n}% of the {svc} traffic to {tech}; {who} watches the error rate."),
        _ => format!("The {svc} service is owned by {who}'s team and runs on {tech} behind {other}."),
    };
    let tags = vec![svc.to_string(), tech.to_ascii_lowercase().replace(' ', "-")];
    Generated {
        namespace,
        content,
        tags,
    }
}

/// `n` memories as `subcog import` JSON Lines (each one distinct: a serial number is
/// appended where the template repeats).
pub fn jsonl(seed: u64, n: usize) -> String {
    let mut out = String::with_capacity(n * 160);
    let mut seen = std::collections::HashSet::new();
    for i in 0..n {
        let g = realistic(seed, i);
        let content = if seen.insert(g.content.clone()) {
            g.content
        } else {
            format!("{} (ticket {})", g.content, 1000 + i)
        };
        let line = serde_json::json!({"content": content, "namespace": g.namespace, "tags": g.tags});
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}
