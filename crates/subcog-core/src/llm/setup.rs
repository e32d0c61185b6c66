//! Building the provider chain from the configuration: which providers, which models,
//! which keys. Cloud providers (OpenAI, Anthropic) are opt-in: they are used only when
//! subcog's own configuration names them (`[llm] provider`, `[llm] chain`,
//! `SUBCOG_LLM_PROVIDER`, `MEMORY_CONSOLIDATION_LLM_PROVIDER`) and their key is set — an
//! API key inherited from another tool's environment is never enough. Local ones (LM
//! Studio, Ollama) join `auto` when something answers on their port.

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

/// Providers that send memory text off the machine.
pub const CLOUD: &[&str] = &["openai", "anthropic"];

/// Why a provider is or is not used (`subcog status`, `subcog llm check`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ProviderCheck {
    /// The provider.
    pub name: String,
    /// Whether the chain uses it.
    pub used: bool,
    /// Why (or why not), in words.
    pub reason: String,
}

/// Which providers a run with `requested` would use, and why each is or is not: the same
/// decisions as [`providers`], without building clients. Cloud providers that are not
/// named but whose key is set are listed too, as not used.
pub fn describe(config: &Config, requested: &str, key: KeyLookup<'_>) -> Result<Vec<ProviderCheck>, String> {
    let mut checks: Vec<ProviderCheck> = candidates(config, requested, key)?
        .into_iter()
        .map(|(name, outcome)| match outcome {
            Ok((_, reason)) => ProviderCheck {
                name,
                used: true,
                reason,
            },
            Err(reason) => ProviderCheck {
                name,
                used: false,
                reason,
            },
        })
        .collect();
    let c = &config.llm;
    for (cloud, env) in [
        ("openai", &c.openai_api_key_env),
        ("anthropic", &c.anthropic_api_key_env),
    ] {
        let named = checks.iter().any(|p| p.name == cloud);
        if !named && key(env).is_some_and(|k| !k.trim().is_empty()) {
            checks.push(ProviderCheck {
                name: cloud.to_string(),
                used: false,
                reason: format!(
                    "{env} is set, but cloud providers are used only when subcog's configuration names them ([llm] chain, or SUBCOG_LLM_PROVIDER={cloud})"
                ),
            });
        }
    }
    Ok(checks)
}

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
    let explicit = !matches!(requested.trim().to_ascii_lowercase().as_str(), "auto" | "none" | "off");
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for (name, outcome) in candidates(config, requested, key)? {
        match outcome {
            Ok((client, _)) => out.push(ProviderSpec {
                client,
                breaker_failures: c.breaker_failures,
                breaker_cooldown: Duration::from_millis(c.breaker_cooldown_ms),
                per_minute: c.requests_per_minute,
                retry: RetryPolicy {
                    max_retries: c.max_retries,
                    base: Duration::from_millis(c.retry_base_ms),
                    max_wait: Duration::from_secs(60),
                },
            }),
            Err(why) => skipped.push(format!("{name}: {why}")),
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

/// A provider's client with why it is used, or why it is not.
type Candidate = (String, Result<(Box<dyn LlmClient>, String), String>);

/// Every provider the request names (one, or the chain for `auto`), each with its client
/// or the reason it has none.
fn candidates(config: &Config, requested: &str, key: KeyLookup<'_>) -> Result<Vec<Candidate>, String> {
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
    let how = if explicit {
        format!("named as the provider ({requested})")
    } else {
        "listed in [llm] chain".to_string()
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
    let mut out: Vec<Candidate> = Vec::new();
    for name in names {
        let outcome: Result<(Box<dyn LlmClient>, String), String> = match name.as_str() {
            "openai" => match key(&c.openai_api_key_env).filter(|k| !k.trim().is_empty()) {
                Some(k) => {
                    let models = if explicit && !c.model.is_empty() {
                        vec![c.model.clone()]
                    } else {
                        c.openai_models.clone()
                    };
                    let url = pick(&c.openai_base_url);
                    Ok((
                        Box::new(OpenAiCompatible::new("openai", &url, Some(k), models, timeout)),
                        format!("{how}, {} set; {url}", c.openai_api_key_env),
                    ))
                }
                None => Err(format!("{how}, but {} is not set", c.openai_api_key_env)),
            },
            "lmstudio" => {
                let url = pick(&c.lmstudio_base_url);
                if explicit || reachable(&url) {
                    Ok((
                        Box::new(OpenAiCompatible::new(
                            "lmstudio",
                            &url,
                            None,
                            vec![model(&c.lmstudio_model)],
                            timeout,
                        )),
                        format!("{how}, local at {url}"),
                    ))
                } else {
                    Err(format!("nothing answers at {url}"))
                }
            }
            "ollama" => {
                let url = pick(&c.ollama_base_url);
                if explicit || reachable(&url) {
                    Ok((
                        Box::new(Ollama::new(&url, &model(&c.ollama_model), timeout)),
                        format!("{how}, local at {url}"),
                    ))
                } else {
                    Err(format!("nothing answers at {url}"))
                }
            }
            "anthropic" => match key(&c.anthropic_api_key_env).filter(|k| !k.trim().is_empty()) {
                Some(k) => {
                    let url = pick(&c.anthropic_base_url);
                    Ok((
                        Box::new(Anthropic::new(&url, k, &model(&c.anthropic_model), timeout)),
                        format!("{how}, {} set; {url}", c.anthropic_api_key_env),
                    ))
                }
                None => Err(format!("{how}, but {} is not set", c.anthropic_api_key_env)),
            },
            other => Err(format!("{other}: unknown provider")),
        };
        out.push((name, outcome));
    }
    Ok(out)
}
