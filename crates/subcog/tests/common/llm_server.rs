//! A real HTTP server on 127.0.0.1 standing in for an LLM provider: it records every
//! request and answers from a script (status, headers, body, delay, or no answer at all).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One request as received.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What to answer.
pub enum Reply {
    /// Status, extra headers, body.
    Http(u16, Vec<(&'static str, String)>, String),
    /// Wait, then answer.
    After(Duration, Box<Reply>),
    /// Never answer (the client must time out).
    Hang,
}

type Script = dyn Fn(&Recorded, usize) -> Reply + Send + Sync;

pub struct ScriptedServer {
    pub base: String,
    pub requests: Arc<Mutex<Vec<Recorded>>>,
    stop: Arc<AtomicBool>,
    port: u16,
}

impl ScriptedServer {
    pub fn start(script: impl Fn(&Recorded, usize) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let script: Arc<Script> = Arc::new(script);
        let (reqs, stopped) = (requests.clone(), stop.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if stopped.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let (reqs, script, stopped) = (reqs.clone(), script.clone(), stopped.clone());
                std::thread::spawn(move || serve(conn, &reqs, &*script, &stopped));
            }
        });
        ScriptedServer {
            base: format!("http://127.0.0.1:{port}"),
            requests,
            stop,
            port,
        }
    }

    pub fn received(&self) -> Vec<Recorded> {
        self.requests.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

impl Drop for ScriptedServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn serve(conn: TcpStream, reqs: &Mutex<Vec<Recorded>>, script: &Script, stop: &AtomicBool) {
    let mut reader = BufReader::new(conn.try_clone().expect("clone"));
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or_default().to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" {
            break;
        }
        if let Some((k, v)) = h.trim_end().split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let len: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; len];
    let _ = reader.read_exact(&mut body);
    let rec = Recorded {
        path,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    };
    let index = {
        let mut r = reqs.lock().expect("lock");
        r.push(rec.clone());
        r.len() - 1
    };
    let mut reply = script(&rec, index);
    loop {
        match reply {
            Reply::After(d, next) => {
                std::thread::sleep(d);
                reply = *next;
            }
            Reply::Hang => {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(50));
                }
                return;
            }
            Reply::Http(status, extra, body) => {
                let mut out = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
                    body.len()
                );
                for (k, v) in extra {
                    out.push_str(&format!("{k}: {v}\r\n"));
                }
                out.push_str("\r\n");
                out.push_str(&body);
                let mut conn = conn;
                let _ = conn.write_all(out.as_bytes());
                return;
            }
        }
    }
}

/// An OpenAI chat-completions answer carrying `content`.
pub fn openai_answer(model: &str, content: &str) -> Reply {
    Reply::Http(
        200,
        vec![],
        serde_json::json!({
            "model": model,
            "choices": [{"message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 120, "completion_tokens": 30}
        })
        .to_string(),
    )
}
