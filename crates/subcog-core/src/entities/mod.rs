//! Names of technologies developers write in lower case ("switched from mysql to
//! postgres", "jest is flaky"), which capitalization alone does not reveal as names. Used
//! wherever subcog reads what a memory names: the values supersession compares.
//!
//! The list is ours, written from common knowledge of the ecosystem: databases, queues,
//! languages, frameworks, build and test tools, clouds and services. A word that is also an
//! everyday English word ("rust", "go", "swift", "spark") is left out on purpose: it would
//! make ordinary prose look like a technology.

pub mod kinds;
pub mod names;

/// Lower-case technology names (sorted, for binary search).
const TECHNOLOGIES: &[&str] = &[
    "airflow",
    "akka",
    "alembic",
    "algolia",
    "amplitude",
    "angular",
    "ansible",
    "argocd",
    "astro",
    "auth0",
    "avro",
    "axios",
    "axum",
    "babel",
    "bazel",
    "bigquery",
    "bitbucket",
    "boto3",
    "buildkite",
    "bullmq",
    "bun",
    "caddy",
    "cassandra",
    "celery",
    "circleci",
    "clickhouse",
    "cloudflare",
    "cloudformation",
    "cloudfront",
    "cloudwatch",
    "cockroachdb",
    "consul",
    "cypress",
    "dagster",
    "datadog",
    "dbt",
    "deno",
    "django",
    "docker",
    "dotnet",
    "dynamodb",
    "elasticsearch",
    "elixir",
    "envoy",
    "esbuild",
    "eslint",
    "etcd",
    "express",
    "fastapi",
    "fastify",
    "firebase",
    "firestore",
    "flask",
    "fluentd",
    "flutter",
    "flyway",
    "gatsby",
    "gcs",
    "gitlab",
    "golang",
    "gradle",
    "grafana",
    "graphite",
    "graphql",
    "grpc",
    "gunicorn",
    "haproxy",
    "helm",
    "heroku",
    "hibernate",
    "honeycomb",
    "hugo",
    "influxdb",
    "istio",
    "jaeger",
    "java",
    "javascript",
    "jenkins",
    "jest",
    "jira",
    "jquery",
    "junit",
    "k8s",
    "kafka",
    "keycloak",
    "kibana",
    "kinesis",
    "kotlin",
    "kubectl",
    "kubernetes",
    "lambda",
    "laravel",
    "launchdarkly",
    "linkerd",
    "liquibase",
    "logstash",
    "loki",
    "lua",
    "mailchimp",
    "mariadb",
    "maven",
    "memcached",
    "minio",
    "mixpanel",
    "mocha",
    "moment",
    "mongo",
    "mongodb",
    "mypy",
    "mysql",
    "nats",
    "neo4j",
    "nestjs",
    "netlify",
    "nextjs",
    "nginx",
    "node",
    "nodejs",
    "npm",
    "nuxt",
    "okta",
    "openai",
    "opensearch",
    "opentelemetry",
    "otel",
    "pagerduty",
    "pandas",
    "parcel",
    "php",
    "pip",
    "playwright",
    "pnpm",
    "podman",
    "poetry",
    "postgres",
    "postgresql",
    "posthog",
    "prettier",
    "prisma",
    "prometheus",
    "protobuf",
    "pulsar",
    "pulumi",
    "puppeteer",
    "pydantic",
    "pytest",
    "python",
    "pytorch",
    "rabbitmq",
    "rails",
    "react",
    "redis",
    "redshift",
    "remix",
    "rollbar",
    "rollup",
    "rspec",
    "ruby",
    "s3",
    "sass",
    "scala",
    "selenium",
    "sendgrid",
    "sentry",
    "sidekiq",
    "snowflake",
    "sns",
    "solr",
    "spring",
    "sqlalchemy",
    "sqlite",
    "sqs",
    "stripe",
    "svelte",
    "tailwind",
    "tensorflow",
    "terraform",
    "tokio",
    "traefik",
    "trivy",
    "turborepo",
    "twilio",
    "typescript",
    "vault",
    "vercel",
    "vite",
    "vitest",
    "vue",
    "webpack",
    "yarn",
    "zipkin",
    "zookeeper",
    "zustand",
];

/// Whether a lower-case word names a technology of the list.
pub fn is_technology(word: &str) -> bool {
    TECHNOLOGIES.binary_search(&word).is_ok()
}

/// What kind of thing a technology is, by the words people ask with ("which database did
/// we pick?" is about PostgreSQL): category, then the technologies in it.
const CATEGORIES: &[(&str, &[&str])] = &[
    (
        "database",
        &[
            "bigquery",
            "cassandra",
            "clickhouse",
            "cockroachdb",
            "dynamodb",
            "firestore",
            "mariadb",
            "mongo",
            "mongodb",
            "mysql",
            "neo4j",
            "postgres",
            "postgresql",
            "redshift",
            "snowflake",
            "sqlite",
        ],
    ),
    ("cache", &["memcached", "redis"]),
    (
        "queue",
        &[
            "bullmq", "celery", "kafka", "kinesis", "nats", "pulsar", "rabbitmq", "sidekiq", "sns", "sqs",
        ],
    ),
    ("ci", &["buildkite", "circleci", "gitlab", "jenkins"]),
    (
        "test",
        &[
            "cypress",
            "jest",
            "junit",
            "mocha",
            "playwright",
            "puppeteer",
            "pytest",
            "rspec",
            "selenium",
            "vitest",
        ],
    ),
    ("orm", &["alembic", "hibernate", "prisma", "sqlalchemy"]),
    (
        "framework",
        &[
            "angular", "axum", "django", "express", "fastapi", "fastify", "flask", "laravel", "nestjs", "nextjs",
            "nuxt", "rails", "react", "remix", "spring", "svelte", "vue",
        ],
    ),
    (
        "build",
        &[
            "babel",
            "bazel",
            "esbuild",
            "gradle",
            "maven",
            "parcel",
            "rollup",
            "turborepo",
            "vite",
            "webpack",
        ],
    ),
    ("hosting", &["cloudflare", "heroku", "netlify", "vercel"]),
    (
        "monitoring",
        &[
            "datadog",
            "grafana",
            "graphite",
            "honeycomb",
            "jaeger",
            "kibana",
            "loki",
            "opentelemetry",
            "otel",
            "prometheus",
            "rollbar",
            "sentry",
            "zipkin",
        ],
    ),
    (
        "deploy",
        &[
            "argocd",
            "docker",
            "helm",
            "k8s",
            "kubernetes",
            "podman",
            "terraform",
            "pulumi",
        ],
    ),
    ("search", &["algolia", "elasticsearch", "opensearch", "solr"]),
    ("auth", &["auth0", "keycloak", "okta"]),
    ("payments", &["stripe"]),
    ("email", &["mailchimp", "sendgrid"]),
    ("analytics", &["amplitude", "mixpanel", "posthog"]),
    (
        "language",
        &[
            "elixir",
            "golang",
            "java",
            "javascript",
            "kotlin",
            "lua",
            "php",
            "python",
            "ruby",
            "scala",
            "typescript",
        ],
    ),
    ("packages", &["bun", "npm", "pip", "pnpm", "poetry", "yarn"]),
];

/// The words that ask for a category (stemmed by hand: "databases", "db").
const CATEGORY_WORDS: &[(&str, &str)] = &[
    ("database", "database"),
    ("databases", "database"),
    ("db", "database"),
    ("datastore", "database"),
    ("cache", "cache"),
    ("caching", "cache"),
    ("queue", "queue"),
    ("queues", "queue"),
    ("broker", "queue"),
    ("messaging", "queue"),
    ("streaming", "queue"),
    ("ci", "ci"),
    ("pipeline", "ci"),
    ("pipelines", "ci"),
    ("test", "test"),
    ("tests", "test"),
    ("testing", "test"),
    ("e2e", "test"),
    ("orm", "orm"),
    ("framework", "framework"),
    ("frontend", "framework"),
    ("backend", "framework"),
    ("bundler", "build"),
    ("build", "build"),
    ("builds", "build"),
    ("hosting", "hosting"),
    ("hosted", "hosting"),
    ("monitoring", "monitoring"),
    ("observability", "monitoring"),
    ("metrics", "monitoring"),
    ("logging", "monitoring"),
    ("logs", "monitoring"),
    ("tracing", "monitoring"),
    ("errors", "monitoring"),
    ("alerting", "monitoring"),
    ("deploy", "deploy"),
    ("deploys", "deploy"),
    ("deployment", "deploy"),
    ("container", "deploy"),
    ("containers", "deploy"),
    ("infrastructure", "deploy"),
    ("search", "search"),
    ("auth", "auth"),
    ("login", "auth"),
    ("authentication", "auth"),
    ("sso", "auth"),
    ("payments", "payments"),
    ("payment", "payments"),
    ("billing", "payments"),
    ("email", "email"),
    ("emails", "email"),
    ("analytics", "analytics"),
    ("language", "language"),
    ("languages", "language"),
    ("packages", "packages"),
    ("dependencies", "packages"),
];

/// The technologies a text names (lower case, each once, in order of appearance).
pub fn technologies_in(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in text.split(|c: char| !(c.is_alphanumeric() || c == '.')) {
        let w = w.trim_end_matches('.').to_lowercase();
        if is_technology(&w) && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// The categories a question asks about by kind: "which database did we pick?", "what
/// do we use for caching?", "our CI" → database, cache, ci. Only in a question or after
/// "our": "run the tests" names no choice.
pub fn categories_asked(text: &str) -> Vec<&'static str> {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let asking = |i: usize| {
        let before = &words[i.saturating_sub(4)..i];
        before
            .iter()
            .any(|w| matches!(w.as_str(), "which" | "what" | "whats" | "our" | "for"))
    };
    let mut out: Vec<&'static str> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if let Some((_, c)) = CATEGORY_WORDS.iter().find(|(word, _)| word == w)
            && asking(i)
            && !out.contains(c)
        {
            out.push(c);
        }
    }
    out
}

/// Whether a technology belongs to a category.
pub fn in_category(technology: &str, category: &str) -> bool {
    CATEGORIES
        .iter()
        .any(|(c, members)| *c == category && members.contains(&technology))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted_and_lower_case() {
        assert!(TECHNOLOGIES.windows(2).all(|w| w[0] < w[1]), "sorted, no duplicates");
        assert!(TECHNOLOGIES.iter().all(|t| *t == t.to_lowercase()));
        assert!(is_technology("mysql") && is_technology("postgres") && !is_technology("database"));
    }

    #[test]
    fn categories_connect_questions_to_technologies() {
        assert_eq!(categories_asked("Which database did we pick?"), vec!["database"]);
        assert_eq!(categories_asked("what do we use for caching"), vec!["cache"]);
        assert!(categories_asked("run the tests").is_empty());
        assert_eq!(
            technologies_in("Use PostgreSQL (and Redis) for storage"),
            vec!["postgresql", "redis"]
        );
        assert!(in_category("postgresql", "database") && in_category("redis", "cache"));
        assert!(!in_category("redis", "ci"));
        for (_, members) in CATEGORIES {
            assert!(members.iter().all(|m| is_technology(m)), "{members:?}");
        }
    }
}
