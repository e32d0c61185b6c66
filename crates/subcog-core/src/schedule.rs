//! Cron schedules for consolidation in long-running processes (`consolidation.schedule`).
//!
//! A thin wrapper over the `croner` crate: five fields (minute hour day month weekday),
//! evaluated in UTC.

use chrono::{DateTime, Utc};

/// A parsed cron expression.
#[derive(Debug, Clone)]
pub struct Schedule(croner::Cron);

impl Schedule {
    /// Parses a cron expression; the error is meant for users.
    pub fn parse(expr: &str) -> Result<Self, String> {
        expr.trim()
            .parse::<croner::Cron>()
            .map(Schedule)
            .map_err(|e| format!("invalid cron expression {expr:?}: {e}"))
    }

    /// The first fire time strictly after `after`.
    pub fn next_after(&self, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.0.find_next_occurrence(&after, false).ok()
    }

    /// The last fire time at or before `at`.
    pub fn last_at_or_before(&self, at: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.0.find_previous_occurrence(&at, true).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn daily_at_midnight() {
        let s = Schedule::parse("0 0 * * *").expect("parse");
        let at = Utc.with_ymd_and_hms(2024, 5, 8, 14, 30, 0).single().expect("date");
        assert_eq!(s.next_after(at), Utc.with_ymd_and_hms(2024, 5, 9, 0, 0, 0).single());
        assert_eq!(
            s.last_at_or_before(at),
            Utc.with_ymd_and_hms(2024, 5, 8, 0, 0, 0).single()
        );
        assert!(Schedule::parse("every day").is_err());
    }
}
