//! `subcog eval`

use clap::{Args, Subcommand};
use std::path::PathBuf;

use subcog_core::eval::locomo::{self, LocomoOptions, LocomoReport};
use subcog_core::eval::longmemeval::{self, LongMemEvalOptions};

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// Measure retrieval quality on public benchmarks.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The benchmark.
    #[command(subcommand)]
    pub bench: EvalBench,
}

/// Benchmarks.
#[derive(Debug, Subcommand)]
pub enum EvalBench {
    /// LoCoMo: turn-level evidence recall@k per question category.
    ///
    /// Each conversation goes into a fresh temporary store (your data is not touched):
    /// every turn captured with its session's date, every question answered with recall.
    Locomo {
        /// The dataset (a JSON list of conversations, e.g. locomo-dev.json)
        file: PathBuf,
        /// Cut-offs (comma-separated)
        #[arg(long = "k", value_delimiter = ',', default_value = "1,5,10,20")]
        ks: Vec<usize>,
        /// Previous turns of the session indexed with each turn (as low-weight context)
        #[arg(long, default_value_t = 2)]
        context_turns: usize,
        /// Following turns of the session indexed with each turn
        #[arg(long, default_value_t = 1)]
        context_after: usize,
        /// Keyword and time channels only
        #[arg(long)]
        no_vectors: bool,
        /// Vector and time channels only
        #[arg(long)]
        no_bm25: bool,
        /// Include every question's retrieved turns in --json output
        #[arg(long)]
        details: bool,
        /// Capture the turns as plain memories, as an agent's captures are: no speaker tag
        /// and no neighbouring turns handed in (overrides --context-turns/--context-after);
        /// each short turn takes the short turns just before it, as capture does
        #[arg(long)]
        plain: bool,
    },
    /// LongMemEval, pooled: every session of the file in one store, every question
    /// answered against the whole pool at its own date.
    ///
    /// Turn-level evidence recall@k and session-level recall-any@k per question type,
    /// knowledge updates (newest value first) and temporal reasoning (offline reasoned
    /// recall grounded in evidence). Turns are plain memories. See docs/EVALUATION.md.
    Longmemeval {
        /// The dataset (a JSON list of questions, e.g. data/longmemeval/longmemeval-oracle-151.json)
        file: PathBuf,
        /// Cut-offs (comma-separated)
        #[arg(long = "k", value_delimiter = ',', default_value = "1,5,10")]
        ks: Vec<usize>,
        /// Keyword and time channels only
        #[arg(long)]
        no_vectors: bool,
        /// Include every question's retrieved turns in --json output
        #[arg(long)]
        details: bool,
    },
    /// Prompt recall: does UserPromptSubmit give each labelled prompt the memories it
    /// needs, and small talk nothing? Precision, recall and silence per split.
    ///
    /// DIR holds store.jsonl (the project's memories) and prompts.jsonl (prompts with the
    /// keys of the memories that help), e.g. data/prompt-recall.
    Prompts {
        /// The labelled set's directory
        dir: PathBuf,
        /// Include every prompt's judged candidates and their evidence in --json output
        #[arg(long)]
        details: bool,
    },
    /// Supersession: does offline consolidation link each labelled replacement to the note
    /// it replaces, and nothing else? Precision, recall and wrong targets per split.
    ///
    /// DIR holds pairs.jsonl, chains.jsonl and filler.jsonl (e.g. data/supersession); they
    /// go into one fresh temporary store and one consolidation runs with --llm off.
    Supersession {
        /// The labelled set's directory
        dir: PathBuf,
        /// Include every pair's outcome (with reasons and wrong targets) in the output
        #[arg(long)]
        details: bool,
        /// Keep the evaluation's store in this directory (to inspect it with subcog
        /// --data-dir DIR, or its SQLite file) instead of deleting it
        #[arg(long, value_name = "DIR")]
        keep_store: Option<PathBuf>,
        /// Include every judged candidate pair with its evidence and label in --json
        /// output (the input of tools/calibrate_supersession.py)
        #[arg(long)]
        candidates: bool,
    },
    /// Quarantine: are the labelled attacks (text that tries to steer the agent that
    /// recalls it) held back, and ordinary notes with the same words kept? Catch rate and
    /// false-positive rate per split and kind.
    ///
    /// DIR holds corpus.jsonl, e.g. data/quarantine.
    Quarantine {
        /// The labelled corpus's directory
        dir: PathBuf,
        /// List every attack let through and every benign note held back
        #[arg(long)]
        details: bool,
        /// The rules alone: leave out the learned judgement on the notes' vectors
        #[arg(long)]
        rules_only: bool,
        /// Then have the configured LLM screen what the rules and the judgement let
        /// through, as `[quarantine] llm` does at capture (one request per
        /// `quarantine.llm_batch` notes; needs a provider under [llm])
        #[arg(long)]
        llm: bool,
        /// Only these files of DIR (corpus.jsonl, holdout12.jsonl, …); repeatable
        #[arg(long, value_name = "FILE")]
        only: Vec<String>,
    },
    /// Secret redaction: is every fake secret of the labelled corpus gone from the text
    /// that would be stored, and is every near-miss (hashes, ids, public keys,
    /// placeholders) stored unchanged? Recall and false-positive rate per split and kind.
    ///
    /// DIR holds secrets.jsonl and near-misses.jsonl, e.g. data/secrets.
    Secrets {
        /// The labelled corpus's directory
        dir: PathBuf,
        /// List every secret kept and every near-miss changed
        #[arg(long)]
        details: bool,
    },
    /// Time expressions: is each labelled sentence's expression ("the week before last",
    /// "On October 20 we shipped the beta") resolved to its accepted range against the
    /// sentence's own date, and are look-alikes ("Ubuntu 22.04", "every Monday") left
    /// undated? Accuracy per split and kind.
    ///
    /// DIR holds sentences.jsonl, e.g. data/temporal-resolution.
    Resolution {
        /// The labelled set's directory
        dir: PathBuf,
        /// List every sentence with what it resolved to (misses only without --json)
        #[arg(long)]
        details: bool,
    },
}

/// Runs `eval`.
pub fn run(app: &App, args: EvalArgs) -> CommandResult {
    match args.bench {
        EvalBench::Prompts { dir, details } => prompts(app, &dir, details),
        EvalBench::Resolution { dir, details } => resolution(app, &dir, details),
        EvalBench::Secrets { dir, details } => secrets(app, &dir, details),
        EvalBench::Quarantine {
            dir,
            details,
            rules_only,
            llm,
            only,
        } => quarantine(app, &dir, &only, details, rules_only, llm),
        EvalBench::Supersession {
            dir,
            details,
            keep_store,
            candidates,
        } => supersession(app, &dir, details, candidates, keep_store),
        EvalBench::Longmemeval {
            file,
            ks,
            no_vectors,
            details,
        } => longmemeval(app, &file, ks, no_vectors, details),
        EvalBench::Locomo {
            file,
            ks,
            context_turns,
            context_after,
            no_vectors,
            no_bm25,
            details,
            plain,
        } => {
            let (data, subcog, embedder) = benchmark_input(app, &file, &ks, no_vectors)?;
            let opts = LocomoOptions {
                ks,
                context_turns: if plain { 0 } else { context_turns },
                context_after: if plain { 0 } else { context_after },
                vectors: !no_vectors,
                bm25: !no_bm25,
                details,
                plain,
            };
            let report = in_scratch(app, "locomo", None, |workdir, progress| {
                locomo::run(&data, subcog.config(), embedder, workdir, &opts, progress)
            })?;
            if app.json() {
                return output::print_json(&serde_json::to_value(&report).unwrap_or_default());
            }
            output::print(&human(&report))
        }
    }
}

/// Runs an evaluation in a throwaway directory under the system's temp dir (or in `keep`,
/// which is left in place), with its progress on stderr unless quiet or `--json`.
fn in_scratch<T>(
    app: &App,
    name: &str,
    keep: Option<&std::path::Path>,
    run: impl FnOnce(&std::path::Path, &mut dyn FnMut(&str)) -> subcog_core::error::Result<T>,
) -> Result<T, CommandError> {
    let workdir = keep
        .map(std::path::Path::to_path_buf)
        .unwrap_or_else(|| std::env::temp_dir().join(format!("subcog-eval-{name}-{}", std::process::id())));
    let quiet = app.global.quiet || app.json();
    let result = run(&workdir, &mut |line| {
        if !quiet {
            eprintln!("{line}");
        }
    });
    if keep.is_none() {
        let _ = std::fs::remove_dir_all(&workdir);
    }
    Ok(result?)
}

/// The model an evaluation embeds with, if any.
type Model = Option<std::sync::Arc<dyn subcog_core::embed::Embedder>>;

/// Reads a public benchmark's file, checks the cut-offs and opens the service whose model
/// the evaluation uses (none with `--no-vectors`), saying so when there is none.
fn benchmark_input<'a>(
    app: &'a App,
    file: &std::path::Path,
    ks: &[usize],
    no_vectors: bool,
) -> Result<(String, &'a subcog_core::service::Subcog, Model), CommandError> {
    let data = std::fs::read_to_string(file)
        .map_err(|e| CommandError::user(format!("cannot read {}: {e}", file.display())))?;
    if ks.is_empty() || ks.contains(&0) {
        return Err(CommandError::user("--k needs positive cut-offs, e.g. 1,5,10"));
    }
    let subcog = app.subcog()?;
    let embedder = if no_vectors { None } else { subcog.embedder() };
    if embedder.is_none() && !no_vectors && !app.global.quiet {
        output::note("no embedding model: evaluating keyword recall only (`subcog model install`)");
    }
    Ok((data, subcog, embedder))
}

/// Checks that a labelled set's files are there and opens the service whose model the
/// evaluation uses, saying so when there is none.
fn labelled_set<'a>(
    app: &'a App,
    dir: &std::path::Path,
    files: &[&str],
    readme: &str,
    without_model: &str,
) -> Result<(&'a subcog_core::service::Subcog, Model), CommandError> {
    if let Some(missing) = files.iter().find(|f| !dir.join(f).is_file()) {
        return Err(CommandError::user(format!(
            "{} needs {missing} (see {readme})",
            dir.display()
        )));
    }
    let subcog = app.subcog()?;
    let embedder = subcog.embedder();
    if embedder.is_none() && !app.global.quiet {
        output::note(&format!("no embedding model: {without_model} (`subcog model install`)"));
    }
    Ok((subcog, embedder))
}

fn quarantine(
    app: &App,
    dir: &std::path::Path,
    only: &[String],
    details: bool,
    rules_only: bool,
    llm: bool,
) -> CommandResult {
    use subcog_core::eval::labelled::Rate as Score;
    let embedder = if rules_only {
        if !dir.join("corpus.jsonl").is_file() {
            return Err(CommandError::user(format!(
                "{} needs corpus.jsonl (see data/quarantine/README.md)",
                dir.display()
            )));
        }
        None
    } else {
        labelled_set(
            app,
            dir,
            &["corpus.jsonl"],
            "data/quarantine/README.md",
            "the rules alone are scored, without the learned judgement",
        )?
        .1
    };
    let chain = if llm {
        Some(app.subcog()?.llm_chain("auto")?.ok_or_else(|| {
            CommandError::user("--llm needs an LLM provider under [llm] (`subcog llm check` says which are available)")
        })?)
    } else {
        None
    };
    let bar = crate::progress::Progress::new("screening", app.global.quiet || app.json());
    let mut progress = |d: usize, t: usize| bar.update(d, t);
    let screen = chain.as_ref().map(|chain| subcog_core::eval::quarantine::LlmScreen {
        chain,
        batch: app.subcog().map(|s| s.config().quarantine.llm_batch).unwrap_or(8),
        progress: &mut progress,
    });
    let report = subcog_core::eval::quarantine::run(dir, only, details, embedder.as_deref(), screen)?;
    bar.finish();
    if app.json() {
        return output::print_json(&serde_json::to_value(&report).unwrap_or_default());
    }
    let cell = |s: Option<&Score>| {
        s.map(|s| format!("{:.3} ({}/{})", s.rate, s.hits, s.notes))
            .unwrap_or_default()
    };
    let context = !report.kept_from_context.is_empty();
    let mut heading = vec!["split", "attacks caught", "benign held", "trigger-* held"];
    if context {
        heading.extend(["attacks kept from context", "benign kept from context"]);
    }
    let mut rows = vec![heading.into_iter().map(String::from).collect::<Vec<_>>()];
    for split in report.caught.keys() {
        let mut row = vec![
            split.clone(),
            cell(report.caught.get(split)),
            cell(report.false_positives.get(split)),
            cell(report.trigger_false_positives.get(split)),
        ];
        if context {
            row.push(cell(report.kept_from_context.get(split)));
            row.push(cell(report.ordinary_kept_from_context.get(split)));
        }
        rows.push(row);
    }
    let mut out = format!(
        "judgement: {}\n",
        match (report.meaning, &report.llm) {
            (true, Some(m)) => format!("rules, the learned judgement, then the LLM ({m})"),
            (false, Some(m)) => format!("rules, then the LLM ({m})"),
            (true, None) => "rules, then the learned judgement on each note's vector".into(),
            (false, None) => "rules only".into(),
        }
    );
    if context {
        out.push_str(&format!(
            "kept from context: held, or a learned score of at least {} (the default [quarantine] context_bar)\n",
            subcog_core::quarantine::meaning::CONTEXT_BAR
        ));
    }
    if let Some(n) = report.llm_unanswered.filter(|n| *n > 0) {
        out.push_str(&format!("the LLM gave no verdict on {n} notes (counted as kept)\n"));
    }
    out.push_str(&output::table(&rows, &[output::HEADING]));
    let mut weak = vec![["split", "kind", "held"].map(String::from).to_vec()];
    for (split, kinds) in report.kinds.iter().filter(|(s, _)| s.as_str() != "all") {
        for (kind, s) in kinds {
            let perfect = if kind.starts_with("attack") { 1.0 } else { 0.0 };
            if (s.rate - perfect).abs() > f64::EPSILON {
                weak.push(vec![split.clone(), kind.clone(), cell(Some(s))]);
            }
        }
    }
    if weak.len() > 1 {
        out.push('\n');
        out.push_str(&output::table(&weak, &[output::HEADING]));
    }
    for f in &report.failures {
        out.push_str(&format!(
            "\n{} [{} {}] {}: {}\n",
            f.id,
            f.split,
            f.kind,
            f.what,
            f.text.replace('\n', "⏎")
        ));
        if !f.reasons.is_empty() {
            out.push_str(&format!("  because {}\n", f.reasons.join("; ")));
        }
        if let (Some(score), Some(out_of_context)) = (f.score, f.kept_from_context) {
            let context = if out_of_context {
                "left out of context"
            } else {
                "reaches context"
            };
            out.push_str(&format!("  score {score:.2}, {context}\n"));
        }
    }
    out.push('\n');
    output::print(&out)
}

fn secrets(app: &App, dir: &std::path::Path, details: bool) -> CommandResult {
    use subcog_core::eval::labelled::Rate as Score;
    for file in ["secrets.jsonl", "near-misses.jsonl"] {
        if !dir.join(file).is_file() {
            return Err(CommandError::user(format!(
                "{} holds no {file} (see data/secrets/README.md)",
                dir.display()
            )));
        }
    }
    let report = subcog_core::eval::secrets::run(dir, details)?;
    if app.json() {
        return output::print_json(&serde_json::to_value(&report).unwrap_or_default());
    }
    let cell = |s: &Score| format!("{:.3} ({}/{})", s.rate, s.hits, s.notes);
    let mut rows = vec![
        ["split", "secrets redacted", "near-misses changed"]
            .map(String::from)
            .to_vec(),
    ];
    for (split, r) in &report.recall {
        let fp = report.false_positives.get(split).map(cell).unwrap_or_default();
        rows.push(vec![split.clone(), cell(r), fp]);
    }
    let mut out = output::table(&rows, &[output::HEADING]);
    // Only the kinds that are not perfect: 82 + 37 rows would hide what matters.
    let mut weak = vec![["split", "kind", "rate"].map(String::from).to_vec()];
    for (label, by_kind, perfect) in [
        ("redacted", &report.recall_by_kind, 1.0),
        ("changed", &report.false_positives_by_kind, 0.0),
    ] {
        for (split, kinds) in by_kind.iter().filter(|(s, _)| s.as_str() != "all") {
            for (kind, s) in kinds.iter().filter(|(_, s)| (s.rate - perfect).abs() > f64::EPSILON) {
                weak.push(vec![split.clone(), format!("{kind} ({label})"), cell(s)]);
            }
        }
    }
    if weak.len() > 1 {
        out.push('\n');
        out.push_str(&output::table(&weak, &[output::HEADING]));
    }
    for f in &report.failures {
        out.push_str(&format!(
            "\n{} [{} {}] {}:\n  given:  {}\n  stored: {}\n",
            f.id,
            f.split,
            f.kind,
            f.what,
            f.text.replace('\n', "⏎"),
            f.redacted.replace('\n', "⏎")
        ));
    }
    out.push('\n');
    output::print(&out)
}

fn resolution(app: &App, dir: &std::path::Path, details: bool) -> CommandResult {
    if !dir.join("sentences.jsonl").is_file() {
        return Err(CommandError::user(format!(
            "{} holds no sentences.jsonl (see data/temporal-resolution/README.md)",
            dir.display()
        )));
    }
    let report = subcog_core::eval::resolution::run(dir, details)?;
    if app.json() {
        return output::print_json(&serde_json::to_value(&report).unwrap_or_default());
    }
    let mut rows = vec![["group", "sentences", "accuracy"].map(String::from).to_vec()];
    let row = |name: &str, s: &subcog_core::eval::resolution::Score| {
        vec![
            name.to_string(),
            s.sentences.to_string(),
            format!("{:.3} ({}/{})", s.accuracy, s.correct, s.sentences),
        ]
    };
    for (split, s) in &report.splits {
        rows.push(row(split, s));
        for (kind, k) in report.kinds.get(split).into_iter().flatten() {
            if split != "all" {
                rows.push(row(&format!("  {kind}"), k));
            }
        }
    }
    let mut out = output::table(&rows, &[output::HEADING]);
    for o in report.details.iter().filter(|o| !o.correct) {
        let show = |r: &[subcog_core::eval::resolution::Range]| {
            if r.is_empty() {
                "nothing".to_string()
            } else {
                r.iter()
                    .map(|x| format!("{}..{}", x.start, x.end))
                    .collect::<Vec<_>>()
                    .join(" or ")
            }
        };
        out.push_str(&format!(
            "\n{} [{} {}] {} (ref {}, {:?}): got {}, want {}",
            o.id,
            o.split,
            o.kind,
            o.text,
            o.reference,
            o.expression.as_deref().unwrap_or("-"),
            show(&o.resolved),
            show(&o.accept)
        ));
    }
    out.push('\n');
    output::print(&out)
}

fn prompts(app: &App, dir: &std::path::Path, details: bool) -> CommandResult {
    let (subcog, embedder) = labelled_set(
        app,
        dir,
        &["store.jsonl", "prompts.jsonl"],
        "data/prompt-recall/README.md",
        "judging prompts by keywords only",
    )?;
    let report = in_scratch(app, "prompts", None, |workdir, progress| {
        subcog_core::eval::prompts::run(dir, subcog.config(), embedder, workdir, details, progress)
    })?;
    if app.json() {
        return output::print_json(&serde_json::to_value(&report).unwrap_or_default());
    }
    let mut rows = vec![
        ["group", "prompts", "precision", "recall", "silence", "hit@1", "MRR"]
            .map(String::from)
            .to_vec(),
    ];
    let row = |name: &str, s: &subcog_core::eval::prompts::Score| {
        vec![
            name.to_string(),
            s.prompts.to_string(),
            format!("{:.3} ({}/{})", s.precision, s.injected_relevant, s.injected),
            format!("{:.3} ({}/{})", s.recall, s.hits, s.relevant_prompts),
            format!("{:.3} ({}/{})", s.silence, s.silent, s.irrelevant_prompts),
            format!("{:.3}", s.hit_at_1),
            format!("{:.3}", s.mrr),
        ]
    };
    for (name, s) in &report.splits {
        rows.push(row(name, s));
    }
    for (name, s) in &report.kinds {
        rows.push(row(&format!("  {name}"), s));
    }
    let mut out = output::table(&rows, &[output::HEADING]);
    out.push_str(&format!(
        "\n{} memories; semantic: {}; hooks.prompt_min_evidence = {}\n",
        report.memories, report.semantic, report.min_evidence
    ));
    output::print(&out)
}

fn supersession(
    app: &App,
    dir: &std::path::Path,
    details: bool,
    candidates: bool,
    keep: Option<PathBuf>,
) -> CommandResult {
    let (subcog, embedder) = labelled_set(
        app,
        dir,
        &["pairs.jsonl", "chains.jsonl", "filler.jsonl"],
        "data/supersession/README.md",
        "consolidating without vectors",
    )?;
    if let Some(k) = &keep
        && k.exists()
    {
        return Err(CommandError::user(format!(
            "{} exists: --keep-store wants a new directory",
            k.display()
        )));
    }
    let report = in_scratch(app, "supersession", keep.as_deref(), |workdir, progress| {
        subcog_core::eval::supersession::run(dir, subcog.config(), embedder, workdir, details, candidates, progress)
    })?;
    if app.json() {
        return output::print_json(&serde_json::to_value(&report).unwrap_or_default());
    }
    let mut rows = vec![
        ["group", "precision", "recall", "wrong targets", "false links", "chains"]
            .map(String::from)
            .to_vec(),
    ];
    let row = |name: &str, s: &subcog_core::eval::supersession::Score| {
        vec![
            name.to_string(),
            format!("{:.3}", s.precision),
            format!("{:.3} ({}/{})", s.recall, s.found, s.replacements),
            s.wrong_targets.to_string(),
            format!("{}/{}", s.false_links, s.negatives),
            if s.chain_links == 0 {
                String::new()
            } else {
                format!("{}/{} ({} skipped)", s.chain_found, s.chain_links, s.chain_skips)
            },
        ]
    };
    for (name, s) in &report.splits {
        rows.push(row(name, s));
    }
    for (name, s) in &report.kinds {
        rows.push(row(&format!("  {name}"), s));
    }
    let mut out = output::table(&rows, &[output::HEADING]);
    out.push_str(&format!(
        "\n{} memories; semantic: {}; {} supersessions recorded, {} of them labelled right (store-level precision {:.3}); consolidation {:.1} s\n",
        report.memories,
        report.semantic,
        report.recorded,
        report.recorded_right,
        report.store_precision,
        report.consolidation_seconds
    ));
    for d in report
        .details
        .iter()
        .filter(|d| (d.label == "supersedes") != d.linked || !d.wrong.is_empty())
    {
        out.push_str(&format!(
            "\n{} [{} {} {}] {}\n  older: {}\n  newer: {}\n",
            d.id,
            d.split,
            d.kind,
            d.label,
            if d.linked { "LINKED" } else { "missed" },
            d.older,
            d.newer
        ));
        for (text, why) in &d.wrong {
            out.push_str(&format!("  wrong target: {text}  ({why})\n"));
        }
    }
    output::print(&out)
}

fn longmemeval(app: &App, file: &std::path::Path, ks: Vec<usize>, no_vectors: bool, details: bool) -> CommandResult {
    let (data, subcog, embedder) = benchmark_input(app, file, &ks, no_vectors)?;
    let opts = LongMemEvalOptions { ks, details };
    let r = in_scratch(app, "longmemeval", None, |workdir, progress| {
        longmemeval::run(&data, subcog.config(), embedder, workdir, &opts, progress)
    })?;
    if app.json() {
        return output::print_json(&serde_json::to_value(&r).unwrap_or_default());
    }
    let ks: Vec<usize> = r.overall.recall_at.keys().copied().collect();
    let mut head = vec!["question type".to_string(), "questions".to_string()];
    head.extend(ks.iter().map(|k| format!("R@{k}")));
    head.extend(ks.iter().map(|k| format!("session@{k}")));
    let mut rows = vec![head];
    let row = |name: &str, g: &subcog_core::eval::longmemeval::GroupScore| {
        let mut row = vec![name.to_string(), g.questions.to_string()];
        row.extend(
            ks.iter()
                .map(|k| format!("{:.3}", g.recall_at.get(k).copied().unwrap_or(0.0))),
        );
        row.extend(
            ks.iter()
                .map(|k| format!("{:.3}", g.session_any_at.get(k).copied().unwrap_or(0.0))),
        );
        row
    };
    for (name, g) in &r.types {
        rows.push(row(name, g));
    }
    rows.push(row("overall", &r.overall));
    let mut out = output::table(&rows, &[output::HEADING]);
    out.push_str(&format!(
        "\n{} sessions, {} turns, {} questions ({} abstention, not scored); semantic: {}\n\
         knowledge updates, newest value first: {}/{}\n\
         temporal reasoning, offline answer grounded in evidence: {}/{}\n\
         search p50 {:.2} ms, p95 {:.2} ms; ingest {:.0} turns/s; {:.1} s total\n",
        r.sessions,
        r.turns,
        r.questions,
        r.abstention,
        r.semantic,
        r.newest_first,
        r.knowledge_updates,
        r.temporal_grounded,
        r.temporal,
        r.search_p50_ms,
        r.search_p95_ms,
        r.ingest_turns_per_sec,
        r.seconds
    ));
    output::print(&out)
}

fn human(r: &LocomoReport) -> String {
    let ks: Vec<usize> = r.overall.recall_at.keys().copied().collect();
    let mut rows = vec![{
        let mut h = vec!["category".to_string(), "questions".to_string()];
        h.extend(ks.iter().map(|k| format!("R@{k}")));
        h
    }];
    let names = [
        ("1", "multi-hop"),
        ("2", "temporal"),
        ("3", "open-domain"),
        ("4", "single-hop"),
        ("5", "adversarial"),
    ];
    for (key, name) in names {
        if let Some(c) = r.categories.get(key) {
            let mut row = vec![format!("{key} {name}"), c.questions.to_string()];
            row.extend(
                ks.iter()
                    .map(|k| format!("{:.3}", c.recall_at.get(k).copied().unwrap_or(0.0))),
            );
            rows.push(row);
        }
    }
    let mut row = vec!["overall 1-4".to_string(), r.overall.questions.to_string()];
    row.extend(
        ks.iter()
            .map(|k| format!("{:.3}", r.overall.recall_at.get(k).copied().unwrap_or(0.0))),
    );
    rows.push(row);
    let mut out = output::table(&rows, &[output::HEADING]);
    out.push_str(&format!(
        "\n{} conversations, {} turns, {} questions ({} skipped); semantic: {}\n\
         search p50 {:.2} ms, p95 {:.2} ms; query embedding {:.2} ms; ingest {:.0} turns/s; {:.1} s total\n",
        r.conversations,
        r.turns,
        r.questions,
        r.skipped_questions,
        r.semantic,
        r.search_p50_ms,
        r.search_p95_ms,
        r.query_embed_ms,
        r.ingest_turns_per_sec,
        r.seconds
    ));
    let t = &r.temporal;
    if t.questions > 0 {
        out.push_str(&format!(
            "\ntemporal (category 2, recall --reason without an LLM): {}/{} gold dates produced ({:.1}%); {} of {} gold answers are not dates (skipped)\n",
            t.correct,
            t.parseable,
            t.accuracy * 100.0,
            t.not_dates,
            t.questions
        ));
        for (kind, n) in &t.failures {
            out.push_str(&format!("  missed, {}: {n}\n", kind.replace('_', " ")));
        }
        for d in &t.details {
            if let Some(f) = d.failure {
                out.push_str(&format!(
                    "  ✗ {:?}: {} | gold {} | answered {}\n",
                    f, d.question, d.gold, d.answer
                ));
            }
        }
    }
    out
}
