//! Retention: how much a memory is worth keeping in view, and the tier that follows.
//!
//! `overall = clamp((wr·recency + wa·activation + wi·importance − ws·penalty)
//!                  × (1 − (1 − superseded_multiplier)·penalty), 0, 1)` where
//! - recency = 0.5^(effective_age / half_life), effective age = time since the later of
//!   capture and last access;
//! - activation = min(1, ln(1 + recalls) / ln(1 + saturation)): diminishing returns;
//! - importance = the namespace weight, averaged with the explicit importance when given;
//! - penalty = 1 for a full supersession, `partial_penalty` for a partial one, else 0.
//!
//! Seeds 000 and 003 give two parameter sets; both ship as presets (see
//! [`RetentionPreset`]). Every number is configurable under `[retention]`.

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::config::RetentionConfig;
use crate::model::{Memory, Priority, RetentionScore, SupersessionKind, Tier};

/// The named parameter sets of the seeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum RetentionPreset {
    /// Seed 003: weights 0.4/0.2/0.4, 30-day half-life, ×0.2 when superseded, tiers at
    /// 0.6 / 0.3 / 0.1. The default: a decision stays WARM however old, stale progress
    /// notes cool to COLD within months, and replaced memories drop out of standard recall.
    Conservative,
    /// Seed 000: weights 0.3/0.3/0.3 − 0.1·penalty, 14-day half-life, ×0.3 when
    /// superseded, tiers at 0.7 / 0.4 / 0.2. Reacts fast to use: what is not recalled
    /// within a few weeks goes COLD.
    Responsive,
}

impl RetentionPreset {
    /// Parses a preset name.
    pub fn parse(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "conservative" => Some(RetentionPreset::Conservative),
            "responsive" => Some(RetentionPreset::Responsive),
            _ => None,
        }
    }

    /// The preset's values as `[retention]` keys (the namespace weights are shared).
    pub fn values(self) -> &'static [(&'static str, f64)] {
        match self {
            RetentionPreset::Conservative => &[
                ("recency_weight", 0.4),
                ("activation_weight", 0.2),
                ("importance_weight", 0.4),
                ("supersession_weight", 0.0),
                ("superseded_multiplier", 0.2),
                ("recency_half_life_days", 30.0),
                ("hot_threshold", 0.6),
                ("warm_threshold", 0.3),
                ("archive_threshold", 0.1),
            ],
            RetentionPreset::Responsive => &[
                ("recency_weight", 0.3),
                ("activation_weight", 0.3),
                ("importance_weight", 0.3),
                ("supersession_weight", 0.1),
                ("superseded_multiplier", 0.3),
                ("recency_half_life_days", 14.0),
                ("hot_threshold", 0.7),
                ("warm_threshold", 0.4),
                ("archive_threshold", 0.2),
            ],
        }
    }
}

/// Tags that pin a memory (never below WARM, never consolidated away).
pub const PIN_TAGS: &[&str] = &["permanent", "protected"];

/// Whether a memory is pinned: critical priority or a pin tag.
pub fn is_pinned(m: &Memory) -> bool {
    m.priority == Priority::Critical || m.tags.iter().any(|t| PIN_TAGS.contains(&t.as_str()))
}

/// Scores memories with one configuration.
#[derive(Debug, Clone)]
pub struct Retention {
    cfg: RetentionConfig,
    weights: Vec<(String, f32)>,
}

impl Retention {
    /// A scorer for this configuration.
    pub fn new(cfg: &RetentionConfig) -> Self {
        let weights = cfg
            .namespace_weights
            .iter()
            .filter_map(|entry| {
                let (ns, w) = entry.split_once('=')?;
                Some((ns.trim().to_string(), w.trim().parse::<f32>().ok()?.clamp(0.0, 1.0)))
            })
            .collect();
        Retention {
            cfg: cfg.clone(),
            weights,
        }
    }

    /// The weight of a namespace.
    pub fn namespace_weight(&self, namespace: &str) -> f32 {
        self.weights
            .iter()
            .find(|(ns, _)| ns == namespace)
            .map(|(_, w)| *w)
            .unwrap_or(self.cfg.default_namespace_weight.clamp(0.0, 1.0))
    }

    /// The score of a memory at `now`, given whether (and how) it is superseded.
    pub fn score(&self, m: &Memory, superseded: Option<SupersessionKind>, now: DateTime<Utc>) -> RetentionScore {
        let c = &self.cfg;
        let since = m.last_accessed.map_or(m.created_at, |a| a.max(m.created_at));
        let age_days = ((now - since).num_seconds().max(0) as f64 / 86_400.0) as f32;
        let half_life = c.recency_half_life_days.max(0.01);
        let recency = finite01(0.5f32.powf(age_days / half_life));
        let saturation = c.activation_saturation.max(1.0);
        let activation = finite01(((m.activation_count as f32).ln_1p() / saturation.ln_1p()).min(1.0));
        let ns = self.namespace_weight(m.namespace.as_str());
        let importance = finite01(match m.importance {
            Some(explicit) => (explicit.clamp(0.0, 1.0) + ns) / 2.0,
            None => ns,
        });
        let penalty = match superseded {
            Some(SupersessionKind::Full) => 1.0,
            Some(SupersessionKind::Partial) => c.partial_penalty.clamp(0.0, 1.0),
            None => 0.0,
        };
        let base = c.recency_weight * recency + c.activation_weight * activation + c.importance_weight * importance
            - c.supersession_weight * penalty;
        let multiplier = 1.0 - (1.0 - c.superseded_multiplier.clamp(0.0, 1.0)) * penalty;
        RetentionScore {
            overall: finite01(base * multiplier),
            recency,
            activation,
            importance,
            supersession_penalty: finite01(penalty),
        }
    }

    /// The tier a score earns; pinned memories never fall below WARM.
    pub fn tier(&self, score: f32, pinned: bool) -> Tier {
        let c = &self.cfg;
        let tier = if score >= c.hot_threshold {
            Tier::Hot
        } else if score >= c.warm_threshold {
            Tier::Warm
        } else if score >= c.archive_threshold {
            Tier::Cold
        } else {
            Tier::Archived
        };
        if pinned && tier.rank() > Tier::Warm.rank() {
            Tier::Warm
        } else {
            tier
        }
    }
}

/// Clamps to `[0, 1]`, mapping NaN to 0.
fn finite01(x: f32) -> f32 {
    if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::model::Namespace;
    use chrono::{Duration, TimeZone};
    use proptest::prelude::*;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2024, 6, 1, 0, 0, 0).single().expect("date")
    }

    fn memory(ns: &str, days_old: i64) -> Memory {
        Memory::new("x", Namespace::parse(ns).expect("ns"), now() - Duration::days(days_old))
    }

    #[test]
    fn the_default_keeps_decisions_and_cools_stale_progress() {
        let r = Retention::new(&Config::default().retention);
        let fresh = r.score(&memory("decisions", 0), None, now());
        assert!((fresh.overall - 0.8).abs() < 1e-4, "{fresh:?}");
        assert_eq!(r.tier(fresh.overall, false), Tier::Hot);
        let old_decision = r.score(&memory("decisions", 365), None, now());
        assert_eq!(r.tier(old_decision.overall, false), Tier::Warm);
        let old_progress = r.score(&memory("progress", 120), None, now());
        assert_eq!(r.tier(old_progress.overall, false), Tier::Cold, "{old_progress:?}");
        let replaced = r.score(&memory("decisions", 10), Some(SupersessionKind::Full), now());
        assert!(
            r.tier(replaced.overall, false).rank() >= Tier::Cold.rank(),
            "{replaced:?}"
        );
        assert_eq!(r.tier(replaced.overall, true), Tier::Warm, "pinned stays WARM");
    }

    #[test]
    fn recall_keeps_a_memory_warm() {
        let r = Retention::new(&Config::default().retention);
        let mut m = memory("progress", 200);
        let cold = r.score(&m, None, now());
        m.activation_count = 20;
        m.last_accessed = Some(now() - Duration::days(1));
        let used = r.score(&m, None, now());
        assert!(used.overall > cold.overall + 0.3, "{cold:?} → {used:?}");
        assert_eq!(used.activation, 1.0);
    }

    #[test]
    fn the_responsive_preset_is_seed_000() {
        let mut cfg = Config::default().retention;
        for (key, value) in RetentionPreset::Responsive.values() {
            cfg.set(key, *value as f32);
        }
        let r = Retention::new(&cfg);
        let s = r.score(&memory("learnings", 14), None, now());
        // 0.3·0.5 + 0.3·0 + 0.3·0.9
        assert!((s.overall - 0.42).abs() < 1e-4, "{s:?}");
        assert_eq!(r.tier(s.overall, false), Tier::Warm);
    }

    proptest! {
        #[test]
        fn scores_stay_in_the_unit_interval(
            days in -1000i64..100_000,
            recalls in 0u64..u64::MAX,
            importance in proptest::option::of(-10.0f32..10.0),
            weights in proptest::collection::vec(-2.0f32..2.0, 4),
            half_life in -5.0f32..1000.0,
            multiplier in -1.0f32..2.0,
            kind in 0u8..3,
        ) {
            let mut cfg = Config::default().retention;
            cfg.recency_weight = weights[0];
            cfg.activation_weight = weights[1];
            cfg.importance_weight = weights[2];
            cfg.supersession_weight = weights[3];
            cfg.recency_half_life_days = half_life;
            cfg.superseded_multiplier = multiplier;
            let r = Retention::new(&cfg);
            let mut m = memory("decisions", days);
            m.activation_count = recalls;
            m.importance = importance;
            let kind = match kind { 0 => None, 1 => Some(SupersessionKind::Full), _ => Some(SupersessionKind::Partial) };
            let s = r.score(&m, kind, now());
            for v in [s.overall, s.recency, s.activation, s.importance, s.supersession_penalty] {
                prop_assert!((0.0..=1.0).contains(&v), "{s:?}");
            }
        }
    }
}
