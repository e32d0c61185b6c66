//! Trace export over OTLP (feature `otlp`): a tiny collector on 127.0.0.1 receives the span
//! tree of one real consolidation run, in both HTTP encodings, and no planted secret
//! reaches a span or a log line at trace level.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::common::TestEnv;

/// One request the collector received.
struct Received {
    path: String,
    content_type: String,
    body: Vec<u8>,
}

/// A collector that answers every POST with 200 and keeps what it got.
struct Collector {
    url: String,
    received: Arc<Mutex<Vec<Received>>>,
}

impl Collector {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let received = Arc::new(Mutex::new(Vec::new()));
        let sink = received.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let sink = sink.clone();
                std::thread::spawn(move || serve(stream, &sink));
            }
        });
        Collector { url, received }
    }

    fn take(&self) -> Vec<Received> {
        std::mem::take(&mut *self.received.lock().expect("lock"))
    }
}

/// Serves requests on one (keep-alive) connection until the client closes it.
fn serve(stream: std::net::TcpStream, sink: &Mutex<Vec<Received>>) {
    let mut writer = stream.try_clone().expect("clone");
    let mut reader = BufReader::new(stream);
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let path = request_line.split_whitespace().nth(1).unwrap_or("").to_string();
        let (mut length, mut content_type) = (0usize, String::new());
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':') {
                match k.trim().to_ascii_lowercase().as_str() {
                    "content-length" => length = v.trim().parse().unwrap_or(0),
                    "content-type" => content_type = v.trim().to_string(),
                    _ => {}
                }
            }
        }
        let mut body = vec![0u8; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        sink.lock().expect("lock").push(Received {
            path,
            content_type,
            body,
        });
        let _ = writer.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
    }
}

/// Every span of OTLP/JSON export requests: (name, trace id, span id, parent span id).
fn spans(received: &[Received]) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    for r in received {
        let v: Value = serde_json::from_slice(&r.body).expect("OTLP/JSON body");
        for rs in v["resourceSpans"].as_array().into_iter().flatten() {
            assert_eq!(
                rs["resource"]["attributes"]
                    .as_array()
                    .and_then(|a| a.iter().find(|kv| kv["key"] == "service.name"))
                    .map(|kv| kv["value"]["stringValue"].clone()),
                Some(Value::from("subcog")),
                "{rs}"
            );
            for ss in rs["scopeSpans"].as_array().into_iter().flatten() {
                for s in ss["spans"].as_array().into_iter().flatten() {
                    let text = |k: &str| s[k].as_str().unwrap_or("").to_string();
                    out.push((text("name"), text("traceId"), text("spanId"), text("parentSpanId")));
                }
            }
        }
    }
    out
}

#[test]
fn one_consolidation_run_arrives_as_a_span_tree_and_no_secret_does() {
    let collector = Collector::start();
    let env = TestEnv::new();
    let secret = "ghp_Qw83JfLs0Zm5Nx7Bv2Kc9Hd4Tg6Yp1Ra8Eu3";
    for text in [
        "Use PostgreSQL for the orders service",
        "Use PostgreSQL for the billing service",
        "The flaky upload test was a race in the queue",
    ] {
        env.capture("decisions", text);
    }
    let with_export = |args: &[&str], protocol: &str| {
        let out = env
            .command(args)
            .env("OTEL_EXPORTER_OTLP_ENDPOINT", &collector.url)
            .env("OTEL_EXPORTER_OTLP_PROTOCOL", protocol)
            .env("SUBCOG_LOG", "trace")
            .output()
            .expect("run");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let mut logs = with_export(
        &["capture", "-n", "decisions", &format!("deploy token {secret}")],
        "http/json",
    );
    logs.push_str(&with_export(
        &["recall", &format!("where is {secret} used")],
        "http/json",
    ));
    let planted = collector.take();
    assert!(!planted.is_empty(), "capture and recall exported spans");
    for r in &planted {
        assert!(
            !String::from_utf8_lossy(&r.body).contains(secret),
            "a span carried the secret"
        );
    }
    assert!(!logs.contains(secret), "a log line at trace level carried the secret");

    logs = with_export(&["consolidate", "--llm", "off"], "http/json");
    assert!(!logs.contains(secret));
    let received = collector.take();
    assert!(received.iter().all(|r| r.path == "/v1/traces"), "OTLP/HTTP traces path");
    assert!(received.iter().all(|r| r.content_type.starts_with("application/json")));
    let all = spans(&received);
    let run = all.iter().find(|s| s.0 == "consolidation.run").unwrap_or_else(|| {
        panic!(
            "no consolidation.run among {:?}",
            all.iter().map(|s| &s.0).collect::<Vec<_>>()
        )
    });
    let parent_of = |id: &str| all.iter().find(|s| s.2 == id).map(|s| s.3.clone());
    for stage in [
        "consolidation.scan",
        "consolidation.cluster",
        "consolidation.tier",
        "retention.compute",
        "consolidation.persist",
    ] {
        let span = all
            .iter()
            .find(|s| s.0 == stage)
            .unwrap_or_else(|| panic!("no {stage}"));
        assert_eq!(span.1, run.1, "{stage} is in the run's trace");
        // Walk up: the run is an ancestor.
        let mut at = span.3.clone();
        let mut hops = 0;
        while at != run.2 {
            at = parent_of(&at).unwrap_or_else(|| panic!("{stage}: broken parent chain"));
            hops += 1;
            assert!(hops < 10, "{stage}: no path to the run");
        }
    }
    assert!(run.3.is_empty(), "the run is the root of its trace");

    // The default encoding is protobuf.
    with_export(&["consolidate", "--llm", "off"], "http/protobuf");
    let received = collector.take();
    assert!(!received.is_empty());
    assert!(
        received.iter().all(|r| r.content_type == "application/x-protobuf"),
        "protobuf"
    );
    assert!(
        received
            .iter()
            .any(|r| r.body.windows(17).any(|w| w == b"consolidation.run")),
        "the run's span name is in the protobuf body"
    );
}
