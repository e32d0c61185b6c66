//! Namespaces: the built-in kinds of memory and the rule for custom ones.
//!
//! Rule: a namespace name is 1–32 characters of lowercase ASCII letters, digits, `-` or `_`,
//! starting with a letter. The twelve built-ins are always accepted; a custom name is
//! accepted when it is listed in `[namespaces] custom` in the config, already used in the
//! store, or the caller explicitly allows a new one (`--allow-new-namespace`).

use serde::{Deserialize, Serialize};
use std::fmt;

use crate::model::ValidationError;

/// The namespaces every store knows, in the order the docs list them.
pub const BUILTIN_NAMESPACES: &[&str] = &[
    "decisions",
    "learnings",
    "patterns",
    "blockers",
    "context",
    "observations",
    "retrospective",
    "inception",
    "research",
    "elicitation",
    "progress",
    "reviews",
];

/// A validated namespace name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Namespace(String);

impl Namespace {
    /// Parses a namespace name (case-insensitive) against the naming rule.
    pub fn parse(name: &str) -> Result<Self, ValidationError> {
        let lower = name.trim().to_ascii_lowercase();
        let mut chars = lower.chars();
        let valid = match chars.next() {
            Some(first) if first.is_ascii_lowercase() => {
                lower.len() <= 32 && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
            }
            _ => false,
        };
        if valid {
            Ok(Namespace(lower))
        } else {
            Err(ValidationError::InvalidNamespace { name: name.to_string() })
        }
    }

    /// The namespace name.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this is one of the twelve built-in namespaces.
    pub fn is_builtin(&self) -> bool {
        BUILTIN_NAMESPACES.contains(&self.0.as_str())
    }
}

impl fmt::Display for Namespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for Namespace {
    type Error = ValidationError;
    fn try_from(value: String) -> Result<Self, Self::Error> {
        Namespace::parse(&value)
    }
}

impl From<Namespace> for String {
    fn from(value: Namespace) -> Self {
        value.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_parse_and_are_builtin() {
        for name in BUILTIN_NAMESPACES {
            let ns = Namespace::parse(name).expect("builtin parses");
            assert!(ns.is_builtin());
        }
    }

    #[test]
    fn naming_rule() {
        assert_eq!(
            Namespace::parse("Decisions").map(|n| n.0).ok(),
            Some("decisions".into())
        );
        assert!(Namespace::parse("team-notes_2").is_ok());
        assert!(!Namespace::parse("team-notes_2").map(|n| n.is_builtin()).unwrap_or(true));
        for bad in ["", "1abc", "has space", "ünï", "a/b", &"x".repeat(33)] {
            assert!(Namespace::parse(bad).is_err(), "{bad:?} should be rejected");
        }
    }
}
