//! Logs, metrics and traces of this process. Owns the tracing subscriber: the log layer
//! (text or JSON; stderr, or a rotating file in the data directory for hooks, the MCP
//! server and the daemon, so nothing reaches a hook's stdout), the metrics layer (each
//! closed span's duration into `subcog_core::metrics`), the OTLP trace exporter (feature
//! `otlp`), the rolling summary flushed to `activity.db`, and the Prometheus text the MCP
//! HTTP server serves at `/metrics`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use subcog_core::activity::ActivityLog;
use subcog_core::config::TelemetryConfig;
use subcog_core::metrics;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer, filter::LevelFilter};

/// The log file's name under `<data dir>/logs`.
pub const LOG_FILE: &str = "subcog.log";
/// How often a long-running process adds its metrics to the rolling summary.
const FLUSH_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// What kind of process this is: where its logs belong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Process {
    /// A command a person ran: logs on stderr.
    Command,
    /// A hook, the MCP server or the daemon: logs in the file when `telemetry.log_file`.
    Background,
    /// A server a person runs in a terminal (`subcog ui`): logs on stderr, metrics flushed
    /// as it goes.
    Server,
}

/// Everything `init` needs, read from the config and the environment.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `[telemetry]`.
    pub config: TelemetryConfig,
    /// The data directory, when known.
    pub data_dir: Option<PathBuf>,
    /// `SUBCOG_LOG`.
    pub filter: Option<String>,
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` (or `..._TRACES_ENDPOINT`).
    pub otlp_endpoint: Option<String>,
    /// `OTEL_EXPORTER_OTLP_PROTOCOL`.
    pub otlp_protocol: Option<String>,
    /// `OTEL_SERVICE_NAME`.
    pub service_name: Option<String>,
}

/// Flushes metrics (and exported spans) when the process ends.
pub struct Guard {
    data_dir: Option<PathBuf>,
    #[cfg(feature = "otlp")]
    otlp: Option<crate::otlp::Exporter>,
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Some(dir) = &self.data_dir {
            flush(dir);
        }
        #[cfg(feature = "otlp")]
        if let Some(exporter) = self.otlp.take() {
            exporter.shutdown();
        }
    }
}

/// Adds this process's new metrics to the rolling summary in `activity.db`.
pub fn flush(data_dir: &Path) {
    // Only where the data directory exists: a command that failed before making it
    // (a bad flag) leaves nothing behind. `persist` writes nothing when nothing is new.
    if !data_dir.is_dir() {
        return;
    }
    let log = ActivityLog::new(data_dir);
    if let Err(e) = metrics::persist(metrics::global(), &log, chrono::Utc::now()) {
        tracing::debug!(error = %e, "metrics not persisted");
    }
}

/// Installs the subscriber. `verbose`/`quiet` are the global flags.
pub fn init(settings: &Settings, process: Process, verbose: u8, quiet: bool) -> Guard {
    let default = match (quiet, verbose) {
        (true, _) => "error",
        // rmcp logs every error it answers a client with; those are the client's business.
        (_, 0) => "warn,rmcp=error",
        (_, 1) => "info",
        (_, 2) => "debug",
        _ => "trace",
    };
    let filter = settings
        .filter
        .as_deref()
        .and_then(|v| EnvFilter::try_new(v).ok())
        .unwrap_or_else(|| EnvFilter::new(default));
    let json = settings.config.log_format.eq_ignore_ascii_case("json");
    // SUBCOG_LOG_SPANS=1 logs each span's time as it closes (where a command's time goes).
    let spans = std::env::var_os("SUBCOG_LOG_SPANS").is_some_and(|v| !v.is_empty() && v != "0");
    let file = match (process, &settings.data_dir) {
        (Process::Background, Some(dir)) if settings.config.log_file => RotatingFile::open(
            &dir.join("logs"),
            settings.config.log_max_bytes,
            settings.config.log_keep,
        ),
        _ => None,
    };
    let to_file = file.is_some();
    let writer = match file {
        Some(f) => tracing_subscriber::fmt::writer::BoxMakeWriter::new(Mutex::new(f)),
        None => tracing_subscriber::fmt::writer::BoxMakeWriter::new(std::io::stderr),
    };
    // Colour only on a terminal: a hook's stderr lands in Claude Code's debug log, where
    // escape sequences are noise.
    let ansi = !to_file
        && std::io::IsTerminal::is_terminal(&std::io::stderr())
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let span_events = if spans {
        tracing_subscriber::fmt::format::FmtSpan::CLOSE
    } else {
        tracing_subscriber::fmt::format::FmtSpan::NONE
    };
    let log_layer = if json {
        tracing_subscriber::fmt::layer()
            .json()
            .with_writer(writer)
            .with_span_events(span_events)
            .with_current_span(true)
            .boxed()
    } else if to_file || spans {
        tracing_subscriber::fmt::layer()
            .with_writer(writer)
            .with_ansi(ansi)
            .with_target(false)
            .with_span_events(span_events)
            .boxed()
    } else {
        tracing_subscriber::fmt::layer()
            .with_writer(writer)
            .with_ansi(ansi)
            .with_target(false)
            .without_time()
            .boxed()
    };
    #[cfg(feature = "otlp")]
    let (otlp_layer, otlp) = match crate::otlp::Exporter::from_settings(settings) {
        Some((layer, exporter)) => (Some(layer), Some(exporter)),
        None => (None, None),
    };
    // A background process that logs to the file still says what went wrong on stderr
    // (warnings and errors): Claude Code's debug log and MCP clients show it there.
    let stderr_layer = to_file.then(|| {
        tracing_subscriber::fmt::layer()
            .with_writer(std::io::stderr)
            .with_ansi(false)
            .with_target(false)
            .without_time()
            .with_filter(if quiet { LevelFilter::ERROR } else { LevelFilter::WARN })
    });
    let registry = tracing_subscriber::registry()
        .with(log_layer.with_filter(filter))
        .with(stderr_layer)
        .with(metrics::SpanTimer.with_filter(LevelFilter::INFO));
    #[cfg(feature = "otlp")]
    let registry = registry.with(otlp_layer);
    let _ = registry.try_init();
    #[cfg(not(feature = "otlp"))]
    if let Some(endpoint) = settings
        .otlp_endpoint
        .clone()
        .or_else(|| Some(settings.config.otlp_endpoint.clone()).filter(|e| !e.trim().is_empty()))
    {
        // Said at info, not warn: the variable may be set for every program of a shell.
        tracing::info!(
            endpoint,
            protocol = settings
                .otlp_protocol
                .as_deref()
                .unwrap_or(&settings.config.otlp_protocol),
            service = settings.service_name.as_deref().unwrap_or("subcog"),
            "an OTLP endpoint is configured, but this build has no `otlp` feature: traces are not exported \
             (install with ./install.sh, or cargo install --features otlp)"
        );
    }
    if process != Process::Command
        && let Some(dir) = settings.data_dir.clone()
    {
        // Long-lived processes add to the summary as they go; short ones at exit (Guard).
        let _ = std::thread::Builder::new().name("metrics-flush".into()).spawn(move || {
            loop {
                std::thread::sleep(FLUSH_EVERY);
                flush(&dir);
            }
        });
    }
    Guard {
        data_dir: settings.data_dir.clone(),
        #[cfg(feature = "otlp")]
        otlp,
    }
}

/// An append-only log file that moves itself to `.1` (and older ones along) past a size.
/// Several processes may append to it; each line is one write, so lines stay whole.
pub struct RotatingFile {
    path: PathBuf,
    file: std::fs::File,
    written: u64,
    max: u64,
    keep: u32,
}

impl RotatingFile {
    /// Opens (creates, mode 0600) `<dir>/subcog.log`; `None` when that fails, and the
    /// caller logs to stderr instead.
    pub fn open(dir: &Path, max: u64, keep: u32) -> Option<Self> {
        let root = dir.parent().unwrap_or(dir);
        subcog_core::private::create_dir_within(root, dir).ok()?;
        let path = dir.join(LOG_FILE);
        let file = subcog_core::private::file_options()
            .append(true)
            .create(true)
            .open(&path)
            .ok()?;
        let written = file.metadata().map(|m| m.len()).unwrap_or(0);
        Some(RotatingFile {
            path,
            file,
            written,
            max: max.max(4096),
            keep,
        })
    }

    fn rotate(&mut self, incoming: u64) -> std::io::Result<()> {
        // Another process may have rotated already: the file at `path` is then new.
        let on_disk = std::fs::metadata(&self.path).map(|m| m.len()).unwrap_or(0);
        if on_disk < self.written && on_disk + incoming <= self.max {
            self.reopen()?;
            self.written = on_disk;
            return Ok(());
        }
        for n in (1..self.keep).rev() {
            let from = numbered(&self.path, n);
            if from.exists() {
                let _ = std::fs::rename(&from, numbered(&self.path, n + 1));
            }
        }
        if self.keep == 0 {
            let _ = std::fs::remove_file(&self.path);
        } else {
            let _ = std::fs::rename(&self.path, numbered(&self.path, 1));
        }
        self.reopen()?;
        self.written = 0;
        Ok(())
    }

    fn reopen(&mut self) -> std::io::Result<()> {
        self.file = subcog_core::private::file_options()
            .append(true)
            .create(true)
            .open(&self.path)?;
        Ok(())
    }
}

fn numbered(path: &Path, n: u32) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(format!(".{n}"));
    PathBuf::from(s)
}

impl Write for RotatingFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.written + buf.len() as u64 > self.max {
            // A failed rotation keeps appending: a log must never fail the work it logs.
            let _ = self.rotate(buf.len() as u64);
        }
        let n = self.file.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// The registry in Prometheus' text format, with the live tier distribution.
pub fn prometheus(snapshot: &metrics::Snapshot, tiers: &std::collections::BTreeMap<String, u64>) -> String {
    let mut out = String::new();
    let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
    out.push_str(
        "# HELP subcog_operations_total Operations run, by span name.\n# TYPE subcog_operations_total counter\n",
    );
    for (name, op) in &snapshot.operations {
        out.push_str(&format!(
            "subcog_operations_total{{operation=\"{}\"}} {}\n",
            esc(name),
            op.count
        ));
    }
    out.push_str("# HELP subcog_operation_failures_total Operations that failed.\n# TYPE subcog_operation_failures_total counter\n");
    for (name, op) in &snapshot.operations {
        out.push_str(&format!(
            "subcog_operation_failures_total{{operation=\"{}\"}} {}\n",
            esc(name),
            op.failures
        ));
    }
    out.push_str(
        "# HELP subcog_operation_duration_seconds Operation durations.\n# TYPE subcog_operation_duration_seconds histogram\n",
    );
    for (name, op) in &snapshot.operations {
        let name = esc(name);
        let mut cumulative = 0u64;
        for (i, le) in metrics::BUCKETS_MS.iter().enumerate() {
            cumulative += op.buckets.get(i).copied().unwrap_or(0);
            out.push_str(&format!(
                "subcog_operation_duration_seconds_bucket{{operation=\"{name}\",le=\"{}\"}} {cumulative}\n",
                le / 1000.0
            ));
        }
        out.push_str(&format!(
            "subcog_operation_duration_seconds_bucket{{operation=\"{name}\",le=\"+Inf\"}} {}\n",
            op.count
        ));
        out.push_str(&format!(
            "subcog_operation_duration_seconds_sum{{operation=\"{name}\"}} {}\n",
            op.total_ms / 1000.0
        ));
        out.push_str(&format!(
            "subcog_operation_duration_seconds_count{{operation=\"{name}\"}} {}\n",
            op.count
        ));
    }
    let llm = &snapshot.llm;
    out.push_str(
        "# HELP subcog_llm_requests_total LLM requests completed.\n# TYPE subcog_llm_requests_total counter\n",
    );
    out.push_str(&format!("subcog_llm_requests_total {}\n", llm.requests));
    out.push_str("# HELP subcog_llm_tokens_total LLM tokens used.\n# TYPE subcog_llm_tokens_total counter\n");
    out.push_str(&format!(
        "subcog_llm_tokens_total{{direction=\"input\"}} {}\n",
        llm.input_tokens
    ));
    out.push_str(&format!(
        "subcog_llm_tokens_total{{direction=\"output\"}} {}\n",
        llm.output_tokens
    ));
    out.push_str("# HELP subcog_llm_cost_usd_total Estimated LLM cost.\n# TYPE subcog_llm_cost_usd_total counter\n");
    out.push_str(&format!("subcog_llm_cost_usd_total {}\n", llm.cost_usd));
    out.push_str("# HELP subcog_memories Live memories by tier.\n# TYPE subcog_memories gauge\n");
    for (tier, n) in tiers {
        out.push_str(&format!("subcog_memories{{tier=\"{}\"}} {n}\n", esc(tier)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_file_rotates_and_keeps_as_many_as_told() {
        let dir = tempfile::tempdir().expect("tmp");
        let logs = dir.path().join("logs");
        let mut f = RotatingFile::open(&logs, 4096, 2).expect("open");
        let line = vec![b'x'; 1000];
        for _ in 0..20 {
            f.write_all(&line).expect("write");
        }
        assert!(std::fs::metadata(logs.join(LOG_FILE)).expect("current").len() <= 4096);
        assert!(logs.join("subcog.log.1").exists());
        assert!(logs.join("subcog.log.2").exists());
        assert!(!logs.join("subcog.log.3").exists(), "only two old files are kept");
    }

    #[test]
    fn prometheus_text_has_cumulative_buckets() {
        let m = metrics::Metrics::default();
        m.observe("recall.search", std::time::Duration::from_millis(3));
        m.observe("recall.search", std::time::Duration::from_millis(30));
        let text = prometheus(&m.snapshot(), &[("hot".to_string(), 4u64)].into_iter().collect());
        assert!(
            text.contains("subcog_operations_total{operation=\"recall.search\"} 2"),
            "{text}"
        );
        assert!(text.contains("le=\"0.005\"} 1"), "{text}");
        assert!(text.contains("le=\"0.05\"} 2"), "{text}");
        assert!(text.contains("le=\"+Inf\"} 2"), "{text}");
        assert!(text.contains("subcog_memories{tier=\"hot\"} 4"), "{text}");
    }
}
