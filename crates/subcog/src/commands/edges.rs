//! `subcog edges`

use clap::Args;
use subcog_core::ScopeKind;
use subcog_core::model::MemoryEdge;

use crate::app::App;
use crate::command_error::{CommandError, CommandResult};
use crate::output;

/// The memory graph around a memory (or summary): what it supersedes, relates to, depends
/// on, implements, contradicts, and which summaries consolidate it.
#[derive(Debug, Args)]
pub struct EdgesArgs {
    /// A memory id or summary id (sum_…)
    pub id: String,
    /// Print Graphviz DOT (pipe to `dot -Tsvg`)
    #[arg(long, conflicts_with = "json")]
    pub dot: bool,
}

/// Runs `edges`.
pub fn run(app: &App, args: EdgesArgs) -> CommandResult {
    let subcog = app.subcog()?;
    // A short memory id is resolved; anything else (a cluster id) is taken as it is.
    let id = subcog
        .resolve_id(&args.id)
        .map(|m| m.to_string())
        .unwrap_or_else(|_| args.id.trim().to_string());
    let edges = collect(subcog, &id)?;
    let label = |node: &str| -> String {
        match node.parse() {
            Ok(mid) => subcog
                .find(&mid)
                .ok()
                .flatten()
                .map(|(_, m)| subcog_core::content::one_line(&m.summary, 60))
                .unwrap_or_default(),
            Err(_) => String::new(),
        }
    };
    if args.dot {
        let mut out = String::from("digraph subcog {\n  rankdir=LR;\n  node [shape=box, fontsize=10];\n");
        let mut nodes = std::collections::BTreeSet::new();
        for e in &edges {
            nodes.insert(e.source_id.clone());
            nodes.insert(e.target_id.clone());
        }
        for n in &nodes {
            out.push_str(&format!("  \"{}\" [label=\"{}\\n{}\"];\n", n, n, dot_escape(&label(n))));
        }
        for e in &edges {
            out.push_str(&format!(
                "  \"{}\" -> \"{}\" [label=\"{} {:.2}\"];\n",
                e.source_id, e.target_id, e.edge_type, e.weight
            ));
        }
        out.push_str("}\n");
        return output::print(&out);
    }
    if app.json() {
        return output::print_json(&serde_json::to_value(&edges).map_err(CommandError::internal)?);
    }
    if edges.is_empty() {
        return output::print(&format!("no edges touch {id} (run `subcog consolidate`)\n"));
    }
    let mut out = String::new();
    for e in &edges {
        let (dir, other) = if e.source_id == id {
            ("→", &e.target_id)
        } else {
            ("←", &e.source_id)
        };
        out.push_str(&format!(
            "{dir} {:<13} {:.2}  {}  {}\n      {}\n",
            e.edge_type.as_str(),
            e.weight,
            output::paint(output::ID, other),
            label(other),
            e.reason
        ));
    }
    output::print(&out)
}

/// Every edge that touches `id`, in any scope.
pub fn collect(subcog: &subcog_core::Subcog, id: &str) -> Result<Vec<MemoryEdge>, CommandError> {
    let mut edges: Vec<MemoryEdge> = Vec::new();
    for scope in [ScopeKind::Project, ScopeKind::User] {
        if let Some(store) = subcog.store_for_read(scope)? {
            edges.extend(store.edges(Some(id))?);
        }
    }
    Ok(edges)
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
