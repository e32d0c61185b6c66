//! The service container: configuration, clock and the stores of one invocation, wired once.
//!
//! Operations live beside the concept they implement (`capture`, `recall`, `transfer`,
//! `manage`) as methods on [`Subcog`]. Stores open lazily: a read of a scope that has no
//! database yet answers "nothing" without creating files.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crate::clock::Clock;
use crate::config::Config;
use crate::embed::{Embedder, install::default_model_dir};
use crate::error::{Error, Result, ValidationError};
use crate::location::DataLocation;
use crate::model::{BUILTIN_NAMESPACES, Domain, Memory, MemoryId, Namespace};
use crate::store::Store;
use crate::store::sqlite::SqliteStore;

/// Looks up an API key by environment variable name (supplied by the caller).
pub type Keys = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// Which database a memory lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScopeKind {
    /// The current project's database.
    Project,
    /// The user's database (user and org domains).
    User,
}

impl ScopeKind {
    /// The scope that stores memories of a domain.
    pub fn for_domain(domain: Domain) -> Self {
        match domain {
            Domain::Project => ScopeKind::Project,
            Domain::User | Domain::Org => ScopeKind::User,
        }
    }

    /// Lowercase name.
    pub fn as_str(self) -> &'static str {
        match self {
            ScopeKind::Project => "project",
            ScopeKind::User => "user",
        }
    }
}

struct Scope {
    kind: ScopeKind,
    path: PathBuf,
    store: OnceLock<Arc<dyn Store>>,
}

/// Whether recall by meaning is available, and why not.
#[derive(Clone)]
pub enum EmbedderState {
    /// Loaded and ready.
    Ready(Arc<dyn Embedder>),
    /// Not available; the reason is meant for users.
    Unavailable(String),
}

/// subcog's services for one working directory.
pub struct Subcog {
    pub(crate) config: Config,
    pub(crate) location: DataLocation,
    pub(crate) clock: Arc<dyn Clock>,
    scopes: [Scope; 2],
    notes: [OnceLock<Arc<crate::notes::NotesRepo>>; 2],
    embedder: OnceLock<EmbedderState>,
    events: crate::events::EventBus,
    keys: Option<Keys>,
    /// What this process should tell the user once (an index rebuilt from notes).
    notices: std::sync::Mutex<Vec<String>>,
    /// Vectors computed to screen arriving text, kept (by content hash) until the index
    /// stores them, so a sync or a completion embeds each arrival once.
    pub(crate) screened: std::sync::Mutex<std::collections::HashMap<String, Vec<f32>>>,
    /// Injections and recalls on this machine (`activity.db`).
    activity: crate::activity::ActivityLog,
}

impl std::fmt::Debug for Subcog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subcog").field("location", &self.location).finish()
    }
}

impl Subcog {
    /// Wires the services for a resolved location.
    pub fn new(config: Config, location: DataLocation, clock: Arc<dyn Clock>) -> Self {
        let scope = |kind, path: &PathBuf| Scope {
            kind,
            path: path.clone(),
            store: OnceLock::new(),
        };
        let scopes = [
            scope(ScopeKind::Project, &location.project_db),
            scope(ScopeKind::User, &location.user_db),
        ];
        let activity = crate::activity::ActivityLog::new(&location.data_dir);
        Subcog {
            config,
            location,
            clock,
            scopes,
            notes: [OnceLock::new(), OnceLock::new()],
            embedder: OnceLock::new(),
            events: crate::events::EventBus::default(),
            keys: None,
            notices: std::sync::Mutex::new(Vec::new()),
            screened: std::sync::Mutex::new(std::collections::HashMap::new()),
            activity,
        }
    }

    /// Uses this embedder instead of loading the configured model (tests, benchmarks,
    /// long-running processes that already hold one).
    pub fn with_embedder(self, embedder: Option<Arc<dyn Embedder>>) -> Self {
        let state = match embedder {
            Some(e) => EmbedderState::Ready(e),
            None => EmbedderState::Unavailable("no embedding model configured".into()),
        };
        let _ = self.embedder.set(state);
        self
    }

    /// The embedding model's directory.
    pub fn model_dir(&self) -> PathBuf {
        if self.config.embedding.model_dir.is_empty() {
            default_model_dir(&self.location.data_dir)
        } else {
            PathBuf::from(&self.config.embedding.model_dir)
        }
    }

    /// The embedder, loading the model on first use.
    pub fn embedder_state(&self) -> &EmbedderState {
        self.embedder.get_or_init(|| {
            if !self.config.embedding.enabled {
                return EmbedderState::Unavailable("embedding.enabled is false".into());
            }
            match crate::embed::load_default(&self.model_dir()) {
                Ok(e) => EmbedderState::Ready(Arc::from(e)),
                Err(e) => {
                    tracing::info!(error = %e, "recall by meaning unavailable");
                    EmbedderState::Unavailable(e.to_string())
                }
            }
        })
    }

    /// Embeds texts in chunks, reporting `(done, total)` after each; `None` when no
    /// embedder is available. An inference failure is returned, so callers decide whether
    /// to go on without vectors.
    pub fn embed_texts(
        &self,
        texts: &[&str],
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Option<(crate::embed::EmbeddingModel, Vec<Vec<f32>>)>> {
        let Some(embedder) = self.embedder() else {
            return Ok(None);
        };
        let mut vectors = Vec::with_capacity(texts.len());
        // Chunks of 512: a progress tick every two seconds or so, and enough batches in
        // each that the two threads finish it together.
        for chunk in texts.chunks(512) {
            vectors.extend(embedder.embed(chunk)?);
            progress(vectors.len(), texts.len());
        }
        Ok(Some((embedder.model().clone(), vectors)))
    }

    /// Whether loading the embedder was tried and failed (without trying it).
    pub(crate) fn embedder_known_missing(&self) -> bool {
        matches!(self.embedder.get(), Some(EmbedderState::Unavailable(_)))
    }

    /// The embedder when one is available.
    pub fn embedder(&self) -> Option<Arc<dyn Embedder>> {
        match self.embedder_state() {
            EmbedderState::Ready(e) => Some(e.clone()),
            EmbedderState::Unavailable(_) => None,
        }
    }

    /// Lets the library look up API keys (by environment variable name) through the
    /// caller; without it no cloud LLM provider is configured.
    pub fn with_keys(mut self, keys: Keys) -> Self {
        self.keys = Some(keys);
        self
    }

    /// How time expressions in memories are read, from the `[temporal]` settings.
    pub fn temporal_options(&self) -> crate::temporal::TemporalOptions {
        self.config.temporal.options()
    }

    /// What `requested` (`auto`, `none`, a provider) means for a run: `auto` follows
    /// `consolidation.llm_provider`, then `llm.provider`.
    fn llm_request(&self, requested: &str) -> String {
        match requested.trim() {
            "" | "auto" => match self.config.consolidation.llm_provider.trim() {
                "" | "auto" => self.config.llm.provider.clone(),
                other => other.to_string(),
            },
            other => other.to_string(),
        }
    }

    /// Which LLM providers a consolidation run with `requested` would use, and why each is
    /// or is not used (`subcog status`); the request as resolved comes first.
    pub fn llm_providers(&self, requested: &str) -> Result<(String, Vec<crate::llm::setup::ProviderCheck>)> {
        let requested = self.llm_request(requested);
        let lookup = |name: &str| self.keys.as_ref().and_then(|k| k(name));
        let checks = crate::llm::setup::describe(&self.config, &requested, &lookup).map_err(|e| {
            Error::Validation(ValidationError::UnknownValue {
                what: "LLM provider",
                value: requested.clone(),
                expected: e,
            })
        })?;
        Ok((requested, checks))
    }

    /// The LLM provider chain for one run: `requested` is `auto` (follow the config),
    /// `none`, or a provider name. `Ok(None)` when no provider is available.
    pub fn llm_chain(&self, requested: &str) -> Result<Option<crate::llm::chain::Chain>> {
        self.llm_chain_with(requested, &self.config)
    }

    /// The chain a `--llm off|auto|required` request gets: none, the configured one when
    /// available, or the configured one or an error.
    pub fn llm_chain_for(&self, mode: crate::model::LlmMode) -> Result<Option<crate::llm::chain::Chain>> {
        match mode {
            crate::model::LlmMode::Off => Ok(None),
            crate::model::LlmMode::Auto => self.llm_chain("auto"),
            crate::model::LlmMode::Required => Ok(Some(self.llm_chain("auto")?.ok_or(Error::Disabled {
                what: "an LLM provider (--llm required)",
                key: "llm.provider / an API key",
            })?)),
        }
    }

    /// [`Self::llm_chain`] with other provider settings (a shorter timeout for a request
    /// a user waits on).
    pub(crate) fn llm_chain_with(&self, requested: &str, config: &Config) -> Result<Option<crate::llm::chain::Chain>> {
        use crate::llm::{chain, setup, usage};
        let requested = self.llm_request(requested);
        let lookup = |name: &str| self.keys.as_ref().and_then(|k| k(name));
        let specs = setup::providers(config, &requested, &lookup).map_err(|e| {
            Error::Validation(ValidationError::UnknownValue {
                what: "LLM provider",
                value: requested.clone(),
                expected: e,
            })
        })?;
        if specs.is_empty() {
            return Ok(None);
        }
        let c = &config.llm;
        let tracker = usage::UsageTracker::new(
            usage::Caps {
                run_tokens: c.run_token_cap,
                run_cost: c.run_cost_cap_usd,
                day_tokens: c.day_token_cap,
                day_cost: c.day_cost_cap_usd,
            },
            usage::price_table(&c.prices),
            Some(self.location.data_dir.join("llm-usage.json")),
        );
        let clock = self.clock.clone();
        Ok(Some(chain::Chain::new(
            chain::resilient(specs),
            Arc::new(tracker),
            Arc::new(move || clock.now()),
        )))
    }

    /// The in-process event bus (consolidation and other services publish on it).
    pub fn events(&self) -> &crate::events::EventBus {
        &self.events
    }

    /// The clock every "now" comes from.
    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }

    /// The effective configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Where data lives.
    pub fn location(&self) -> &DataLocation {
        &self.location
    }

    fn scope(&self, kind: ScopeKind) -> &Scope {
        match kind {
            ScopeKind::Project => &self.scopes[0],
            ScopeKind::User => &self.scopes[1],
        }
    }

    pub(crate) fn notes_cell(&self, kind: ScopeKind) -> &OnceLock<Arc<crate::notes::NotesRepo>> {
        match kind {
            ScopeKind::Project => &self.notes[0],
            ScopeKind::User => &self.notes[1],
        }
    }

    /// The store of a scope, opening (and creating) it on first use.
    pub fn store_for_write(&self, kind: ScopeKind) -> Result<Arc<dyn Store>> {
        let scope = self.scope(kind);
        if let Some(store) = scope.store.get() {
            return Ok(store.clone());
        }
        let store: Arc<dyn Store> = match self.config.storage.postgres_url() {
            Some(url) => self.open_postgres(url, kind)?,
            None => {
                if let Some(dir) = scope.path.parent() {
                    // Not fatal here: opening reports a directory it cannot create.
                    if let Err(e) = crate::private::create_dir_within(&self.location.data_dir, dir) {
                        tracing::warn!(dir = %dir.display(), error = %e, "cannot make the data directory private (mode 0700)");
                    }
                }
                let sqlite = match SqliteStore::open(&scope.path, self.busy_timeout()) {
                    // The notes are the record: an unreadable index is moved aside and rebuilt.
                    Err(e @ crate::store::StoreError::Corrupt { .. }) => return self.heal(kind, &e),
                    other => other?,
                };
                if kind == ScopeKind::Project && sqlite.meta("project_root")?.is_none() {
                    sqlite.set_meta("project_root", &self.location.project_root.display().to_string())?;
                }
                Arc::new(sqlite)
            }
        };
        let cached = scope.store.get_or_init(|| store).clone();
        // A writer killed between its note and its index row left a journal entry.
        self.complete_journal(kind);
        Ok(cached)
    }

    /// Caches `store` as the scope's store (the first one cached wins) and returns it.
    pub(crate) fn cache_store(&self, kind: ScopeKind, store: Arc<dyn Store>) -> Arc<dyn Store> {
        self.scope(kind).store.get_or_init(|| store).clone()
    }

    /// Whether the scope's store is already open in this process.
    pub(crate) fn store_is_open(&self, kind: ScopeKind) -> bool {
        self.scope(kind).store.get().is_some()
    }

    /// Records something to tell the user once (see [`Subcog::take_notices`]).
    pub(crate) fn notify(&self, notice: String) {
        if let Ok(mut n) = self.notices.lock() {
            n.push(notice);
        }
    }

    /// What happened that the user should hear about (an unreadable index rebuilt from
    /// notes), each returned once: the CLI prints them, hooks show them in Claude Code.
    pub fn take_notices(&self) -> Vec<String> {
        self.notices
            .lock()
            .map(|mut n| std::mem::take(&mut *n))
            .unwrap_or_default()
    }

    /// The key of a scope on a shared database (see `[storage] project_key`, `user_key`).
    pub fn scope_key(&self, kind: ScopeKind) -> String {
        let storage = &self.config.storage;
        match kind {
            ScopeKind::Project if !storage.project_key.trim().is_empty() => storage.project_key.trim().to_string(),
            ScopeKind::Project => crate::location::project_key(&self.location.project_root),
            ScopeKind::User => storage.user_key.trim().to_string(),
        }
    }

    #[cfg(feature = "postgres")]
    fn open_postgres(&self, url: &str, kind: ScopeKind) -> Result<Arc<dyn Store>> {
        use crate::store::postgres::{PgOptions, PgStore};
        let options = PgOptions {
            statement_timeout_ms: self.config.storage.statement_timeout_ms,
            ..PgOptions::default()
        };
        let store = PgStore::open(url, &self.scope_key(kind), &options)?;
        if kind == ScopeKind::Project && store.meta("project_root")?.is_none() {
            store.set_meta("project_root", &self.location.project_root.display().to_string())?;
        }
        Ok(Arc::new(store))
    }

    #[cfg(not(feature = "postgres"))]
    fn open_postgres(&self, url: &str, _kind: ScopeKind) -> Result<Arc<dyn Store>> {
        Err(Error::Store(crate::store::StoreError::Open {
            path: crate::config::url_without_password(url),
            message: "this subcog was built without PostgreSQL support: install it with \
                      `cargo install --path crates/subcog --features postgres` (or `install.sh --postgres`), \
                      or unset SUBCOG_DATABASE_URL / [storage] url to use SQLite"
                .into(),
        }))
    }

    /// Whether the stores are in a shared PostgreSQL database rather than files.
    pub fn shared_database(&self) -> bool {
        self.config.storage.postgres_url().is_some()
    }

    /// The store of a scope if its database exists; `None` means the scope is empty.
    pub fn store_for_read(&self, kind: ScopeKind) -> Result<Option<Arc<dyn Store>>> {
        let scope = self.scope(kind);
        if let Some(store) = scope.store.get() {
            return Ok(Some(store.clone()));
        }
        // A shared database always exists; a scope's file may not yet.
        if !self.shared_database() && !scope.path.exists() {
            return Ok(None);
        }
        self.store_for_write(kind).map(Some)
    }

    /// Every scope whose database exists, project first.
    pub fn existing_stores(&self) -> Result<Vec<(ScopeKind, Arc<dyn Store>)>> {
        let mut out = Vec::new();
        for scope in &self.scopes {
            if let Some(store) = self.store_for_read(scope.kind)? {
                out.push((scope.kind, store));
            }
        }
        Ok(out)
    }

    /// Injections and recalls on this machine, and the rolling metrics summary.
    pub fn activity(&self) -> &crate::activity::ActivityLog {
        &self.activity
    }

    /// Records what happened to memories; a failure is logged, never returned (the
    /// activity log only explains, it must not fail a recall or a hook).
    pub(crate) fn record_activity(&self, records: &[crate::activity::ActivityRecord]) {
        if let Err(e) = self.activity.record(records) {
            tracing::warn!(error = %e, "could not record activity");
        }
    }

    /// The database path of a scope.
    pub fn scope_path(&self, kind: ScopeKind) -> &std::path::Path {
        &self.scope(kind).path
    }

    fn busy_timeout(&self) -> Duration {
        Duration::from_millis(self.config.storage.busy_timeout_ms)
    }

    /// Finds a memory by id in any scope.
    pub fn find(&self, id: &MemoryId) -> Result<Option<(ScopeKind, Memory)>> {
        for (kind, store) in self.existing_stores()? {
            if let Some(m) = store.get(id)? {
                return Ok(Some((kind, m)));
            }
        }
        Ok(None)
    }

    /// Like [`Subcog::find`], but a missing memory is an error.
    pub fn find_required(&self, id: &MemoryId) -> Result<(ScopeKind, Memory)> {
        self.find(id)?.ok_or_else(|| Error::NotFound { id: id.to_string() })
    }

    /// Parses a namespace and checks that it is known: built in, configured, already in use
    /// in the target scope, or explicitly allowed.
    pub fn resolve_namespace(&self, name: &str, scope: ScopeKind, allow_new: bool) -> Result<Namespace> {
        let ns = Namespace::parse(name)?;
        if ns.is_builtin()
            || allow_new
            || self
                .config
                .namespaces
                .custom
                .iter()
                .any(|c| c.eq_ignore_ascii_case(name))
        {
            return Ok(ns);
        }
        if let Some(store) = self.store_for_read(scope)?
            && store.namespaces()?.iter().any(|n| n == ns.as_str())
        {
            return Ok(ns);
        }
        Err(ValidationError::UnknownNamespace {
            name: ns.to_string(),
            builtin: BUILTIN_NAMESPACES.join(", "),
        }
        .into())
    }
}
