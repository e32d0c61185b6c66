//! Timestamps: the one canonical stored form, and parsing of user-given instants.
//!
//! Every timestamp subcog keeps is UTC with microsecond precision, so a value written to
//! SQLite, exported to JSONL and imported again compares equal.

use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, SubsecRound, Utc};

use crate::model::ValidationError;

/// Truncates a timestamp to microseconds, the precision subcog stores.
pub fn canonical(ts: DateTime<Utc>) -> DateTime<Utc> {
    ts.trunc_subsecs(6)
}

/// The fixed-width text form used in storage: sorts lexicographically in time order.
pub fn to_storage(ts: DateTime<Utc>) -> String {
    ts.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}

/// Parses the storage form (or any RFC 3339 text) back to a canonical timestamp.
pub fn from_storage(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| canonical(t.with_timezone(&Utc)))
}

/// Parses a user-given instant: RFC 3339 (any offset), `YYYY-MM-DD HH:MM[:SS]` or
/// `YYYY-MM-DDTHH:MM[:SS]` taken as UTC, or a bare `YYYY-MM-DD` (midnight UTC).
pub fn parse_instant(text: &str) -> Result<DateTime<Utc>, ValidationError> {
    let parsed = parse_any(text.trim())?;
    // The stored form has four-digit years; anything else could never be read back.
    if (0..=9999).contains(&parsed.year()) {
        Ok(parsed)
    } else {
        Err(ValidationError::InvalidTimestamp {
            value: text.to_string(),
        })
    }
}

fn parse_any(t: &str) -> Result<DateTime<Utc>, ValidationError> {
    let text = t;
    if let Ok(dt) = DateTime::parse_from_rfc3339(t) {
        return Ok(canonical(dt.with_timezone(&Utc)));
    }
    for fmt in [
        "%Y-%m-%d %H:%M:%S%.f",
        "%Y-%m-%d %H:%M",
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
    ] {
        if let Ok(naive) = NaiveDateTime::parse_from_str(t, fmt) {
            return Ok(canonical(naive.and_utc()));
        }
    }
    if let Ok(date) = NaiveDate::parse_from_str(t, "%Y-%m-%d")
        && let Some(naive) = date.and_hms_opt(0, 0, 0)
    {
        return Ok(naive.and_utc());
    }
    Err(ValidationError::InvalidTimestamp {
        value: text.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn storage_form_round_trips_and_sorts() {
        let a = canonical(Utc::now());
        assert_eq!(from_storage(&to_storage(a)), Some(a));
        let early = to_storage(Utc.with_ymd_and_hms(999, 1, 1, 0, 0, 0).single().expect("date"));
        let late = to_storage(Utc.with_ymd_and_hms(2023, 5, 8, 0, 0, 0).single().expect("date"));
        assert!(early < late);
        assert_eq!(late, "2023-05-08T00:00:00.000000Z");
    }

    #[test]
    fn user_instants() {
        let want = Utc.with_ymd_and_hms(2023, 5, 8, 14, 30, 0).single().expect("date");
        for text in [
            "2023-05-08T14:30:00Z",
            "2023-05-08T16:30:00+02:00",
            "2023-05-08 14:30",
            "2023-05-08 14:30:00",
            "2023-05-08T14:30",
        ] {
            assert_eq!(parse_instant(text).ok(), Some(want), "{text}");
        }
        assert_eq!(
            parse_instant("2023-05-08").ok(),
            Utc.with_ymd_and_hms(2023, 5, 8, 0, 0, 0).single()
        );
        assert!(parse_instant("yesterday-ish").is_err());
        assert!(parse_instant("2023-13-40").is_err());
        assert!(parse_instant("+12345-01-01").is_err());
        assert!(parse_instant("-0001-01-01").is_err());
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn storage_form_round_trips(secs in 0i64..32_503_680_000, nanos in 0u32..1_000_000_000) {
            let ts = canonical(DateTime::from_timestamp(secs, nanos).unwrap_or_default());
            prop_assert_eq!(from_storage(&to_storage(ts)), Some(ts));
        }
    }
}
