//! subcog-core: persistent memory for AI coding agents, as a library.
//!
//! Holds every behaviour of subcog — the memory model, stores, capture, recall, import and
//! export, configuration and secret redaction — behind plain structs and traits. It never
//! prints, reads stdin, exits or reads the user's environment: the `subcog` binary does
//! that and passes configuration and paths in. See `docs/ARCHITECTURE.md` for the map.

pub mod activity;
pub mod bm25;
pub mod capture;
pub mod clock;
pub mod config;
pub mod consolidate;
pub mod content;
pub mod context;
pub mod conversation;
pub mod copy;
pub mod doctor;
pub mod embed;
pub mod entities;
pub mod error;
pub mod eval;
pub mod events;
pub mod explain;
pub mod heal;
pub mod hooks;
pub(crate) mod journal;
pub mod llm;
pub mod location;
pub mod manage;
pub mod metrics;
pub mod model;
pub mod notes;
pub mod persist;
pub mod perspective;
pub mod private;
pub mod quarantine;
pub mod reason;
pub mod recall;
pub mod reindex;
pub mod retention;
pub mod schedule;
pub mod screen;
pub mod search;
pub mod secrets;
pub mod service;
pub mod store;
pub mod sync;
pub mod temporal;
pub mod timestamp;
pub mod transfer;
pub mod vector;
pub mod verify;
pub mod withhold;

pub use error::{Error, Result, ValidationError};
pub use service::{ScopeKind, Subcog};

#[cfg(test)]
mod outside_input_tests;
