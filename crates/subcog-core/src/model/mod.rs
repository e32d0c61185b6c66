//! The memory model: what a memory is, and the small value types it is made of.
//!
//! This module owns the in-memory shape of a memory and the validation of its parts
//! (namespaces, tags, importance). It knows nothing about storage or presentation.

mod memory;
mod namespace;
mod validation;

pub use memory::{HANDLE_LEN, Memory, MemoryId, RetentionScore, SearchHit};
pub use namespace::{BUILTIN_NAMESPACES, Namespace};
pub use validation::ValidationError;

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Declares a string-backed enum with `as_str`, `Display`, `FromStr` and serde, all with one name.
macro_rules! string_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The lowercase name used in storage, JSON and the CLI.
            pub const fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        // JSON and git notes carry the same name as storage and the CLI (`relates_to`).
        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }

        impl FromStr for $name {
            type Err = ValidationError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let lower = s.trim().to_ascii_lowercase();
                $(if lower == $text { return Ok($name::$variant); })+
                // Earlier builds wrote multi-word names in JSON and notes without the
                // underscore (`relatesto`); such notes still read.
                $(if lower == $text.replace('_', "") { return Ok($name::$variant); })+
                Err(ValidationError::UnknownValue {
                    what: stringify!($name),
                    value: s.to_string(),
                    expected: [$($text),+].join(", "),
                })
            }
        }
    };
}

string_enum! {
    /// Who a memory belongs to: this project, the user across projects, or the organisation.
    Domain {
        /// Tied to the current project (git root).
        #[default]
        Project => "project",
        /// The user's own, recalled in every project.
        User => "user",
        /// Shared by an organisation; stored with user memories until org sync exists.
        Org => "org",
    }
}

string_enum! {
    /// How urgently a memory must be kept; critical memories are never demoted below WARM.
    Priority {
        /// The default.
        #[default]
        Normal => "normal",
        /// Never archived or consolidated away.
        Critical => "critical",
    }
}

string_enum! {
    /// Lifecycle state of a memory. Consolidation never deletes; only users do.
    Status {
        /// Current and recalled normally.
        #[default]
        Active => "active",
        /// Replaced by a newer memory (see `superseded_by`).
        Superseded => "superseded",
        /// Kept but excluded from normal recall.
        Archived => "archived",
        /// Soft-deleted by a user; excluded everywhere but export.
        Deleted => "deleted",
        /// Held back: its text reads as an instruction to the agent (see `quarantine`).
        /// Never injected, recalled only when asked for; a user releases it.
        Quarantined => "quarantined",
    }
}

string_enum! {
    /// Retrieval tier derived from the retention score (seed 000).
    Tier {
        /// Active, recent or frequently used: always in context.
        /// The default (seed 003): a fresh memory is HOT until consolidation scores it.
        #[default]
        Hot => "hot",
        /// Moderately important: included when relevant.
        Warm => "warm",
        /// Aging: only on direct query.
        Cold => "cold",
        /// Superseded or very old: excluded from normal search.
        Archived => "archived",
    }
}

impl Tier {
    /// Share of the context token budget a memory of this tier gets (seed 000).
    pub const fn budget_multiplier(self) -> f32 {
        match self {
            Tier::Hot => 1.0,
            Tier::Warm => 0.7,
            Tier::Cold => 0.4,
            Tier::Archived => 0.1,
        }
    }

    /// Lower is more retrievable (HOT = 0).
    pub const fn rank(self) -> u8 {
        match self {
            Tier::Hot => 0,
            Tier::Warm => 1,
            Tier::Cold => 2,
            Tier::Archived => 3,
        }
    }
}

mod enrichment;
pub use enrichment::{
    ConsolidationResult, EdgeType, LlmMode, LlmRun, MemoryEdge, MemorySummary, Phase, RunAction, SummaryDecision,
    SupersededFact, Supersession, SupersessionKind, TierTransition, UsageReport,
};

/// Validates and normalizes one tag: trimmed, lowercased, 1–64 characters, no whitespace
/// or commas (commas separate tags on the command line).
pub fn normalize_tag(tag: &str) -> Result<String, ValidationError> {
    let t = tag.trim().to_lowercase();
    if t.is_empty() {
        return Err(ValidationError::InvalidTag {
            tag: tag.to_string(),
            reason: "is empty",
        });
    }
    if t.chars().count() > 64 {
        return Err(ValidationError::InvalidTag {
            tag: tag.to_string(),
            reason: "is longer than 64 characters",
        });
    }
    if t.chars().any(|c| c.is_whitespace() || c == ',' || c.is_control()) {
        return Err(ValidationError::InvalidTag {
            tag: tag.to_string(),
            reason: "contains whitespace, a comma or a control character",
        });
    }
    Ok(t)
}

/// Normalizes a tag list: each tag validated, duplicates removed, order of first use kept.
pub fn normalize_tags<S: AsRef<str>>(tags: &[S]) -> Result<Vec<String>, ValidationError> {
    let mut out: Vec<String> = Vec::with_capacity(tags.len());
    for tag in tags {
        let t = normalize_tag(tag.as_ref())?;
        if !out.contains(&t) {
            out.push(t);
        }
    }
    Ok(out)
}

/// Checks that an importance value is a finite number in `[0, 1]`.
pub fn validate_importance(value: f32) -> Result<f32, ValidationError> {
    if value.is_finite() && (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(ValidationError::OutOfRange {
            what: "importance",
            value: value.to_string(),
            range: "0.0..=1.0",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enums_round_trip_through_strings() {
        for d in Domain::ALL {
            assert_eq!(d.as_str().parse::<Domain>().ok(), Some(*d));
        }
        for s in Status::ALL {
            assert_eq!(s.to_string().parse::<Status>().ok(), Some(*s));
        }
        assert_eq!("HOT".parse::<Tier>().ok(), Some(Tier::Hot));
        assert!("lukewarm".parse::<Tier>().is_err());
    }

    #[test]
    fn json_uses_the_storage_name_and_reads_the_old_spelling() {
        use crate::model::EdgeType;
        for e in EdgeType::ALL {
            let json = serde_json::to_string(e).expect("serialize");
            assert_eq!(json, format!("\"{}\"", e.as_str()));
            assert_eq!(serde_json::from_str::<EdgeType>(&json).ok(), Some(*e));
        }
        // Notes written before the names were unified.
        assert_eq!(
            serde_json::from_str::<EdgeType>("\"relatesto\"").ok(),
            Some(EdgeType::RelatesTo)
        );
        assert_eq!(
            serde_json::from_str::<EdgeType>("\"dependson\"").ok(),
            Some(EdgeType::DependsOn)
        );
        assert_eq!(serde_json::to_string(&Tier::Hot).ok().as_deref(), Some("\"hot\""));
        assert!(serde_json::from_str::<EdgeType>("\"relates\"").is_err());
        assert!(serde_json::from_str::<EdgeType>("3").is_err());
    }

    #[test]
    fn tags_are_normalized_and_deduplicated() {
        let tags = normalize_tags(&["DB", " db ", "postgres"]).expect("valid tags");
        assert_eq!(tags, vec!["db", "postgres"]);
        assert!(normalize_tag("two words").is_err());
        assert!(normalize_tag("a,b").is_err());
        assert!(normalize_tag("  ").is_err());
    }

    #[test]
    fn importance_must_be_in_unit_range() {
        assert!(validate_importance(0.5).is_ok());
        assert!(validate_importance(1.5).is_err());
        assert!(validate_importance(f32::NAN).is_err());
    }
}
