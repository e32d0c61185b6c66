//! Building the provider chain from the configuration: which providers, which models,
//! which keys. Cloud providers join `auto` only when their API key is set; local ones
//! (LM Studio, Ollama) only when something answers on their port.

use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use super::LlmClient;
use super::chain::ProviderSpec;
use super::providers::{Anthropic, Ollama, OpenAiCompatible};
use super::resilience::RetryPolicy;
use crate::config::Config;

/// Looks up a secret (an API key) by environment variable name.
pub type KeyLookup<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The provider names subcog knows.
pub const PROVIDERS: &[&str] = &["openai", "lmstudio", "ollama", "anthropic"];

/// Whether something accepts connections at `url`'s host and port (within 300 ms).
fn reachable(url: &str) -> bool {
    let rest = url.split("://").nth(1).unwrap_or(url);
    let authority = rest.split('/').next().unwrap_or(rest);
    let with_port = if authority.contains(':') {
        authority.to_string()
    } else if url.starts_with("https") {
        format!("{authority}:443")
    } else {
        format!("{authority}:80")
    };
    with_port
        .to_socket_addrs()
        .ok()
        .and_then(|mut addrs| addrs.next())
        .is_some_and(|addr| TcpStream::connect_timeout(&addr, Duration::from_millis(300)).is_ok())
}

/// The providers to use, in order, or why there are none. `requested` is `auto`, `none`
/// or a provider name.
pub fn providers(config: &Config, requested: &str, key: KeyLookup<'_>) -> Result<Vec<ProviderSpec>, String> {
    let c = &config.llm;
    let requested = requested.trim().to_ascii_lowercase();
    if requested == "none" || requested == "off" {
        return Ok(Vec::new());
    }
    let explicit = requested != "auto";
    if explicit && !PROVIDERS.contains(&requested.as_str()) {
        return Err(format!(
            "unknown LLM provider {requested:?}: expected auto, none, {}",
            PROVIDERS.join(", ")
        ));
    }
    let names: Vec<String> = if explicit {
        vec![requested.clone()]
    } else {
        c.chain.clone()
    };
    let timeout = Duration::from_millis(c.timeout_ms.max(1));
    let pick = |default: &str| -> String {
        if explicit && !c.base_url.is_empty() {
            c.base_url.clone()
        } else {
            default.to_string()
        }
    };
    let model = |default: &str| -> String {
        if explicit && !c.model.is_empty() {
            c.model.clone()
        } else {
            default.to_string()
        }
    };
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for name in names {
        let client: Option<Box<dyn LlmClient>> = match name.as_str() {
            "openai" => match key(&c.openai_api_key_env).filter(|k| !k.trim().is_empty()) {
                Some(k) => {
                    let models = if explicit && !c.model.is_empty() {
                        vec![c.model.clone()]
                    } else {
                        c.openai_models.clone()
                    };
                    Some(Box::new(OpenAiCompatible::new(
                        "openai",
                        &pick(&c.openai_base_url),
                        Some(k),
                        models,
                        timeout,
                    )))
                }
                None => {
                    skipped.push(format!("openai: {} is not set", c.openai_api_key_env));
                    None
                }
            },
            "lmstudio" => {
                let url = pick(&c.lmstudio_base_url);
                if explicit || reachable(&url) {
                    Some(Box::new(OpenAiCompatible::new(
                        "lmstudio",
                        &url,
                        None,
                        vec![model(&c.lmstudio_model)],
                        timeout,
                    )))
                } else {
                    skipped.push(format!("lmstudio: nothing answers at {url}"));
                    None
                }
            }
            "ollama" => {
                let url = pick(&c.ollama_base_url);
                if explicit || reachable(&url) {
                    Some(Box::new(Ollama::new(&url, &model(&c.ollama_model), timeout)))
                } else {
                    skipped.push(format!("ollama: nothing answers at {url}"));
                    None
                }
            }
            "anthropic" => match key(&c.anthropic_api_key_env).filter(|k| !k.trim().is_empty()) {
                Some(k) => Some(Box::new(Anthropic::new(
                    &pick(&c.anthropic_base_url),
                    k,
                    &model(&c.anthropic_model),
                    timeout,
                ))),
                None => {
                    skipped.push(format!("anthropic: {} is not set", c.anthropic_api_key_env));
                    None
                }
            },
            other => {
                skipped.push(format!("{other}: unknown provider"));
                None
            }
        };
        if let Some(client) = client {
            out.push(ProviderSpec {
                client,
                breaker_failures: c.breaker_failures,
                breaker_cooldown: Duration::from_millis(c.breaker_cooldown_ms),
                per_minute: c.requests_per_minute,
                retry: RetryPolicy {
                    max_retries: c.max_retries,
                    base: Duration::from_millis(c.retry_base_ms),
                    max_wait: Duration::from_secs(60),
                },
            });
        }
    }
    if out.is_empty() && explicit {
        return Err(skipped.join("; "));
    }
    if out.is_empty() {
        tracing::info!(reasons = %skipped.join("; "), "no LLM provider available");
    }
    Ok(out)
}
