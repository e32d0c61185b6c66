//! `subcog llm`

use clap::{Args, Subcommand};
use subcog_core::llm::{ChatRequest, LlmClient};

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// LLM providers for consolidation.
#[derive(Debug, Args)]
pub struct LlmArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: LlmAction,
}

/// LLM actions.
#[derive(Debug, Subcommand)]
pub enum LlmAction {
    /// Send one tiny request to each configured provider; report latency and model.
    Check {
        /// A provider instead of the configured chain: openai, lmstudio, ollama, anthropic
        #[arg(long)]
        provider: Option<String>,
    },
}

/// Runs `llm`.
pub fn run(app: &App, args: LlmArgs) -> CommandResult {
    let LlmAction::Check { provider } = args.action;
    let subcog = app.subcog()?;
    let chain = subcog.llm_chain(provider.as_deref().unwrap_or("auto"))?;
    let Some(chain) = chain else {
        let (requested, checks) = subcog.llm_providers(provider.as_deref().unwrap_or("auto"))?;
        if app.json() {
            return output::print_json(&serde_json::json!({"providers": [], "provider": requested, "why": checks}));
        }
        let mut out = String::from(
            "no LLM provider available (consolidation runs offline without one). Start LM Studio or \
             Ollama, or name a cloud provider: SUBCOG_LLM_PROVIDER=openai|anthropic, or [llm] provider / chain \
             in the config file (an API key alone is not enough)\n",
        );
        for c in checks {
            out.push_str(&format!("  {}: {}\n", c.name, c.reason));
        }
        return output::print(&out);
    };
    let req = ChatRequest {
        system: "You check connectivity. Answer with the JSON object {\"ok\": true} and nothing else.".into(),
        user: "ping".into(),
        max_tokens: 20,
        json: true,
    };
    let mut rows = Vec::new();
    let mut ok_any = false;
    for p in chain.providers() {
        let started = std::time::Instant::now();
        let result = p.complete(&req);
        let ms = started.elapsed().as_millis() as u64;
        match result {
            Ok(r) => {
                ok_any = true;
                rows.push(serde_json::json!({"provider": p.name(), "ok": true, "model": r.model, "latency_ms": ms, "tokens": r.input_tokens + r.output_tokens}));
            }
            Err(e) => rows.push(serde_json::json!({"provider": p.name(), "ok": false, "model": p.model(), "latency_ms": ms, "error": e.to_string()})),
        }
    }
    if app.json() {
        output::print_json(&serde_json::json!({"providers": rows}))?;
    } else {
        let mut out = String::new();
        for r in &rows {
            out.push_str(&format!(
                "{:<10} {:<6} {:>6} ms  {}{}\n",
                r["provider"].as_str().unwrap_or_default(),
                if r["ok"] == true { "ok" } else { "FAILED" },
                r["latency_ms"],
                r["model"].as_str().unwrap_or_default(),
                r["error"].as_str().map(|e| format!("  ({e})")).unwrap_or_default()
            ));
        }
        output::print(&out)?;
    }
    if ok_any {
        Ok(())
    } else {
        Err(CommandError::silent(crate::command_error::ErrorKind::Internal))
    }
}
