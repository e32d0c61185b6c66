//! Trace export over OTLP/HTTP (feature `otlp`): the tracing spans of this process, as
//! OpenTelemetry spans, batched to a collector. Configured the standard way
//! (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`,
//! `OTEL_EXPORTER_OTLP_PROTOCOL` `http/protobuf` (default) or `http/json`,
//! `OTEL_SERVICE_NAME`), or `telemetry.otlp_endpoint` / `otlp_protocol` in the config.
//! Spans carry field values (ids, counts, scores), never memory text.

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{Protocol, WithExportConfig};
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing::Subscriber;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::{EnvFilter, Layer};

use crate::telemetry::Settings;

/// The exporter of this process; shut down (and so flushed) when the process ends.
pub struct Exporter {
    provider: SdkTracerProvider,
}

/// A boxed layer for any registry.
type BoxedLayer<S> = Box<dyn Layer<S> + Send + Sync + 'static>;

impl Exporter {
    /// The tracing layer and its exporter, when an endpoint is configured; `None` (after a
    /// warning on stderr for a bad setting) otherwise.
    pub fn from_settings<S>(settings: &Settings) -> Option<(BoxedLayer<S>, Exporter)>
    where
        S: Subscriber + for<'a> LookupSpan<'a> + Send + Sync,
    {
        // The traces-specific variable is the full URL; the general one and the config's
        // value are the collector's base URL, to which the traces path is added.
        let endpoint = match (&settings.otlp_endpoint, settings.config.otlp_endpoint.trim()) {
            (Some(url), _) if std::env::var_os("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").is_some() => url.clone(),
            (Some(base), _) => traces_url(base),
            (None, "") => return None,
            (None, base) => traces_url(base),
        };
        let protocol_name = settings
            .otlp_protocol
            .clone()
            .unwrap_or_else(|| settings.config.otlp_protocol.clone());
        let protocol = match protocol_name.trim() {
            "" | "http/protobuf" => Protocol::HttpBinary,
            "http/json" => Protocol::HttpJson,
            other => {
                eprintln!(
                    "subcog: OTLP protocol {other:?} is not supported (use http/protobuf or http/json); exporting http/protobuf"
                );
                Protocol::HttpBinary
            }
        };
        let exporter = match opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_protocol(protocol)
            .with_endpoint(endpoint.clone())
            .build()
        {
            Ok(e) => e,
            Err(e) => {
                eprintln!("subcog: traces are not exported to {endpoint}: {e}");
                return None;
            }
        };
        let service = settings.service_name.clone().unwrap_or_else(|| "subcog".into());
        let provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(
                opentelemetry_sdk::Resource::builder()
                    .with_service_name(service)
                    .with_attribute(opentelemetry::KeyValue::new(
                        "service.version",
                        env!("CARGO_PKG_VERSION"),
                    ))
                    .build(),
            )
            .build();
        let tracer = provider.tracer("subcog");
        // Spans at info and above (seed 002's names); SUBCOG_LOG narrows or widens it.
        let filter = settings
            .filter
            .as_deref()
            .and_then(|f| EnvFilter::try_new(f).ok())
            .unwrap_or_else(|| EnvFilter::new("info"));
        let layer = tracing_opentelemetry::layer()
            .with_tracer(tracer)
            .with_filter(filter)
            .boxed();
        Some((layer, Exporter { provider }))
    }

    /// Sends what is still batched and stops the exporter.
    pub fn shutdown(self) {
        if let Err(e) = self.provider.shutdown() {
            tracing::debug!(error = %e, "OTLP exporter shutdown");
        }
    }
}

/// `<base>/v1/traces`, as the OTLP spec builds it from a base URL.
fn traces_url(base: &str) -> String {
    format!("{}/v1/traces", base.trim().trim_end_matches('/'))
}
