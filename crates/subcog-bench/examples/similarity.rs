//! Prints the cosine similarity of sentence pairs under the installed model: a tool for
//! choosing clustering and supersession thresholds. `cargo run -p subcog-bench --example similarity`
fn main() {
    let dir = subcog_bench::model_dir();
    let model = subcog_core::embed::load_default(&dir).expect("model");
    let pairs = [
        (
            "Use MySQL for the main database",
            "Switched to PostgreSQL because MySQL lacked JSON support",
        ),
        (
            "Use MySQL for the main database",
            "We decided to use MySQL as the primary data store",
        ),
        (
            "Use MySQL for the main database",
            "The CI cache key must include the lockfile hash",
        ),
        (
            "Deploy on Fridays is allowed",
            "No deploys on Fridays anymore after the outage",
        ),
        (
            "Use REST for the public API",
            "We replaced REST with GraphQL for the public API",
        ),
        (
            "Run tests with pytest -x",
            "Run the test suite with pytest -x --ff to fail fast",
        ),
        (
            "The flaky upload test needs a retry",
            "Upload test is flaky: retry twice before failing",
        ),
        (
            "Sprint 3: auth service half done",
            "Sprint 4: auth service done, billing started",
        ),
        (
            "Use tabs for indentation in Go files",
            "gofmt decides indentation, never configure it",
        ),
        (
            "Redis is the session cache",
            "Sessions are cached in Redis with a 30 minute TTL",
        ),
    ];
    for (a, b) in pairs {
        let v = model.embed(&[a, b]).expect("embed");
        println!("{:.3}  {a}  |  {b}", subcog_core::embed::dot(&v[0], &v[1]));
    }
}
