//! The wire formats: OpenAI chat completions (also LM Studio), Ollama's `/api/chat`,
//! Anthropic's `/v1/messages`. Each call is one HTTP request with a timeout; retries,
//! breakers and budgets wrap them (see `resilience`, `usage`).

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{ChatRequest, ChatResponse, LlmClient, LlmError, estimate_tokens};

/// Largest answer body read, in bytes.
const MAX_BODY: u64 = 4 * 1024 * 1024;

/// An HTTP agent with a total timeout; status codes are returned, not raised.
fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .timeout_connect(Some(timeout.min(Duration::from_secs(5))))
        .http_status_as_error(false)
        .build()
        .into()
}

/// POSTs JSON; returns the status, `Retry-After`, and the body.
fn post(
    agent: &ureq::Agent,
    provider: &str,
    timeout: Duration,
    url: &str,
    headers: &[(&str, String)],
    body: &Value,
) -> Result<(u16, Option<Duration>, String), LlmError> {
    let mut req = agent.post(url).header("content-type", "application/json");
    for (k, v) in headers {
        req = req.header(*k, v.as_str());
    }
    let resp = req.send_json(body).map_err(|e| map_err(provider, timeout, e))?;
    let status = resp.status().as_u16();
    let retry_after = resp
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s.min(3600.0)));
    let text = resp
        .into_body()
        .into_with_config()
        .limit(MAX_BODY)
        .read_to_string()
        .map_err(|e| map_err(provider, timeout, e))?;
    Ok((status, retry_after, text))
}

fn map_err(provider: &str, timeout: Duration, e: ureq::Error) -> LlmError {
    match e {
        ureq::Error::Timeout(_) => LlmError::Timeout {
            provider: provider.into(),
            ms: timeout.as_millis() as u64,
        },
        other => LlmError::Transport {
            provider: provider.into(),
            message: other.to_string(),
        },
    }
}

fn status_error(provider: &str, status: u16, retry_after: Option<Duration>, body: &str) -> LlmError {
    LlmError::Status {
        provider: provider.into(),
        status,
        message: crate::content::one_line(&crate::secrets::redact(body, false).text, 200),
        retry_after,
    }
}

fn protocol(provider: &str, message: impl Into<String>) -> LlmError {
    LlmError::Protocol {
        provider: provider.into(),
        message: message.into(),
    }
}

/// OpenAI's chat completions API, and servers that speak it (LM Studio).
pub struct OpenAiCompatible {
    name: String,
    base_url: String,
    api_key: Option<String>,
    /// Models in order of preference; the next is tried when the account lacks one.
    models: Vec<String>,
    timeout: Duration,
    agent: ureq::Agent,
}

impl OpenAiCompatible {
    /// A client for `base_url` (…/v1) asking `models` in order.
    pub fn new(name: &str, base_url: &str, api_key: Option<String>, models: Vec<String>, timeout: Duration) -> Self {
        OpenAiCompatible {
            name: name.into(),
            base_url: base_url.trim_end_matches('/').into(),
            api_key,
            models,
            timeout,
            agent: agent(timeout),
        }
    }

    fn once(&self, model: &str, req: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let mut body = json!({
            "model": model,
            "messages": [
                {"role": "system", "content": req.system},
                {"role": "user", "content": req.user},
            ],
            "max_completion_tokens": req.max_tokens,
        });
        if req.json {
            body["response_format"] = json!({"type": "json_object"});
        }
        let headers: Vec<(&str, String)> = self
            .api_key
            .iter()
            .map(|k| ("authorization", format!("Bearer {k}")))
            .collect();
        let started = Instant::now();
        let url = format!("{}/chat/completions", self.base_url);
        let (status, retry_after, text) = post(&self.agent, &self.name, self.timeout, &url, &headers, &body)?;
        if status != 200 {
            return Err(status_error(&self.name, status, retry_after, &text));
        }
        let v: Value = serde_json::from_str(&text).map_err(|e| protocol(&self.name, e.to_string()))?;
        let content = v["choices"][0]["message"]["content"]
            .as_str()
            .ok_or_else(|| protocol(&self.name, "no choices[0].message.content"))?
            .to_string();
        Ok(ChatResponse {
            input_tokens: v["usage"]["prompt_tokens"]
                .as_u64()
                .unwrap_or_else(|| estimate_tokens(&req.system) + estimate_tokens(&req.user)),
            output_tokens: v["usage"]["completion_tokens"]
                .as_u64()
                .unwrap_or_else(|| estimate_tokens(&content)),
            text: content,
            provider: self.name.clone(),
            model: v["model"].as_str().unwrap_or(model).to_string(),
            latency: started.elapsed(),
        })
    }
}

/// Whether an error says the account cannot use this model (so the next one is tried).
fn model_unavailable(e: &LlmError) -> bool {
    match e {
        LlmError::Status { status, message, .. } => {
            *status == 404
                || ((*status == 400 || *status == 403)
                    && (message.contains("model_not_found")
                        || message.contains("does not exist")
                        || message.contains("do not have access")))
        }
        _ => false,
    }
}

impl LlmClient for OpenAiCompatible {
    fn name(&self) -> &str {
        &self.name
    }
    fn model(&self) -> &str {
        self.models.first().map(String::as_str).unwrap_or_default()
    }
    fn complete(&self, req: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let mut last = LlmError::Unavailable(format!("{}: no model configured", self.name));
        for model in &self.models {
            match self.once(model, req) {
                Ok(r) => return Ok(r),
                Err(e) if model_unavailable(&e) => {
                    tracing::info!(provider = %self.name, model, error = %e, "model unavailable; trying the next");
                    last = e;
                }
                Err(e) => return Err(e),
            }
        }
        Err(last)
    }
}

/// Ollama's native chat API.
pub struct Ollama {
    base_url: String,
    model: String,
    timeout: Duration,
    agent: ureq::Agent,
}

impl Ollama {
    /// A client for an Ollama server.
    pub fn new(base_url: &str, model: &str, timeout: Duration) -> Self {
        Ollama {
            base_url: base_url.trim_end_matches('/').into(),
            model: model.into(),
            timeout,
            agent: agent(timeout),
        }
    }
}

impl LlmClient for Ollama {
    fn name(&self) -> &str {
        "ollama"
    }
    fn model(&self) -> &str {
        &self.model
    }
    fn complete(&self, req: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let mut body = json!({
            "model": self.model,
            "messages": [
                {"role": "system", "content": req.system},
                {"role": "user", "content": req.user},
            ],
            "stream": false,
            "options": {"num_predict": req.max_tokens},
        });
        if req.json {
            body["format"] = json!("json");
        }
        let started = Instant::now();
        let url = format!("{}/api/chat", self.base_url);
        let (status, retry_after, text) = post(&self.agent, "ollama", self.timeout, &url, &[], &body)?;
        if status != 200 {
            return Err(status_error("ollama", status, retry_after, &text));
        }
        let v: Value = serde_json::from_str(&text).map_err(|e| protocol("ollama", e.to_string()))?;
        let content = v["message"]["content"]
            .as_str()
            .ok_or_else(|| protocol("ollama", "no message.content"))?
            .to_string();
        Ok(ChatResponse {
            input_tokens: v["prompt_eval_count"]
                .as_u64()
                .unwrap_or_else(|| estimate_tokens(&req.system) + estimate_tokens(&req.user)),
            output_tokens: v["eval_count"].as_u64().unwrap_or_else(|| estimate_tokens(&content)),
            text: content,
            provider: "ollama".into(),
            model: v["model"].as_str().unwrap_or(&self.model).to_string(),
            latency: started.elapsed(),
        })
    }
}

/// Anthropic's Messages API.
pub struct Anthropic {
    base_url: String,
    api_key: String,
    model: String,
    timeout: Duration,
    agent: ureq::Agent,
}

impl Anthropic {
    /// A client for the Messages API.
    pub fn new(base_url: &str, api_key: String, model: &str, timeout: Duration) -> Self {
        Anthropic {
            base_url: base_url.trim_end_matches('/').into(),
            api_key,
            model: model.into(),
            timeout,
            agent: agent(timeout),
        }
    }
}

impl LlmClient for Anthropic {
    fn name(&self) -> &str {
        "anthropic"
    }
    fn model(&self) -> &str {
        &self.model
    }
    fn complete(&self, req: &ChatRequest) -> Result<ChatResponse, LlmError> {
        let mut messages = vec![json!({"role": "user", "content": req.user})];
        if req.json {
            // Prefilling the answer with `{` keeps the model on a JSON object.
            messages.push(json!({"role": "assistant", "content": "{"}));
        }
        let body = json!({
            "model": self.model,
            "system": req.system,
            "messages": messages,
            "max_tokens": req.max_tokens,
        });
        let headers = [
            ("x-api-key", self.api_key.clone()),
            ("anthropic-version", "2023-06-01".to_string()),
        ];
        let started = Instant::now();
        let url = format!("{}/v1/messages", self.base_url);
        let (status, retry_after, text) = post(&self.agent, "anthropic", self.timeout, &url, &headers, &body)?;
        if status != 200 {
            return Err(status_error("anthropic", status, retry_after, &text));
        }
        let v: Value = serde_json::from_str(&text).map_err(|e| protocol("anthropic", e.to_string()))?;
        let mut content: String = v["content"]
            .as_array()
            .ok_or_else(|| protocol("anthropic", "no content blocks"))?
            .iter()
            .filter(|b| b["type"] == "text")
            .filter_map(|b| b["text"].as_str())
            .collect();
        if req.json && !content.trim_start().starts_with('{') {
            content.insert(0, '{');
        }
        Ok(ChatResponse {
            input_tokens: v["usage"]["input_tokens"]
                .as_u64()
                .unwrap_or_else(|| estimate_tokens(&req.system) + estimate_tokens(&req.user)),
            output_tokens: v["usage"]["output_tokens"]
                .as_u64()
                .unwrap_or_else(|| estimate_tokens(&content)),
            text: content,
            provider: "anthropic".into(),
            model: v["model"].as_str().unwrap_or(&self.model).to_string(),
            latency: started.elapsed(),
        })
    }
}
