//! Time: what a memory's words say about when things happened, and what a query asks about.
//!
//! - [`resolve`]: time expressions in text resolved against a date (granularity, confidence).
//! - [`annotate`]: a memory's references, resolved against its own capture day in the
//!   configured time zone, stored with it (SQLite and note) so recall ranks by event time.
//! - [`query_range`] / [`bound`]: the period a query or a `--since/--until` value names.
//! - [`holidays`]: the date of a named day ("Good Friday", "Labor Day") in a year.
//! - [`answer`]: reasoned answers to "when did …" questions, offline or through an LLM.
//!
//! Pure functions over text and instants; nothing here reads the clock or the environment.

pub mod answer;
pub mod holidays;
pub mod resolve;
pub mod tense;

use std::sync::LazyLock;

use chrono::{DateTime, Datelike, Duration, FixedOffset, Local, NaiveDate, Offset, TimeZone, Utc};
use regex::Regex;

use crate::model::Memory;

const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// Whose calendar a memory's "yesterday" is counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zone {
    /// UTC.
    Utc,
    /// The machine's zone at the memory's instant.
    Local,
    /// A fixed offset.
    Fixed(FixedOffset),
}

impl Zone {
    /// `local`, `utc`, or an offset (`+02:00`, `-0530`).
    pub fn parse(text: &str) -> Result<Zone, String> {
        let t = text.trim();
        match t.to_ascii_lowercase().as_str() {
            "" | "local" => return Ok(Zone::Local),
            "utc" | "z" | "gmt" => return Ok(Zone::Utc),
            _ => {}
        }
        let (sign, rest) = match t.as_bytes().first() {
            Some(b'+') => (1, &t[1..]),
            Some(b'-') => (-1, &t[1..]),
            _ => return Err(format!("{text:?} is not local, utc or an offset like +02:00")),
        };
        let digits: String = rest.chars().filter(|c| *c != ':').collect();
        let parsed = match digits.len() {
            2 => digits.parse::<i32>().ok().map(|h| h * 3600),
            4 => match (digits.get(..2), digits.get(2..)) {
                (Some(h), Some(m)) => h
                    .parse::<i32>()
                    .ok()
                    .zip(m.parse::<i32>().ok())
                    .map(|(h, m)| h * 3600 + m * 60),
                _ => None,
            },
            _ => None,
        };
        parsed
            .and_then(|secs| FixedOffset::east_opt(sign * secs))
            .map(Zone::Fixed)
            .ok_or_else(|| format!("{text:?} is not local, utc or an offset like +02:00"))
    }

    /// The calendar day of `at` in this zone.
    pub fn day(&self, at: DateTime<Utc>) -> NaiveDate {
        match self {
            Zone::Utc => at.date_naive(),
            Zone::Local => at.with_timezone(&Local).date_naive(),
            Zone::Fixed(off) => at.with_timezone(&off.fix()).date_naive(),
        }
    }
}

/// How memory text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TemporalOptions {
    /// Order of numeric dates.
    pub order: resolve::DateOrder,
    /// Whose calendar day anchors relative words.
    pub zone: Zone,
}

impl Default for TemporalOptions {
    /// UTC and month-first: what a memory gets before the configuration is known.
    fn default() -> Self {
        TemporalOptions {
            order: resolve::DateOrder::Mdy,
            zone: Zone::Utc,
        }
    }
}

/// Resolves the time references in a memory's content against its capture day and stores
/// them on the memory (replacing what was there).
pub fn annotate(m: &mut Memory, opts: &TemporalOptions) {
    m.time_refs = resolve::resolve_all(&m.content, opts.zone.day(m.created_at), opts.order);
}

/// Which end of a range a bound is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// `--since`: the first instant.
    Start,
    /// `--until`: the instant after the last day.
    End,
}

/// A `--since`/`--until` value: a timestamp (see [`crate::timestamp::parse_instant`]) or a
/// natural expression resolved against `now` ("last week", "yesterday", "in May",
/// "3 days ago"); the whole value must be one expression.
pub fn bound(text: &str, now: DateTime<Utc>, which: Bound) -> Result<DateTime<Utc>, crate::model::ValidationError> {
    if let Ok(at) = crate::timestamp::parse_instant(text) {
        return Ok(at);
    }
    let (start, end) = whole_expression(text, now).ok_or_else(|| crate::model::ValidationError::InvalidTimestamp {
        value: text.to_string(),
    })?;
    let day = match which {
        Bound::Start => start,
        Bound::End => end.succ_opt().unwrap_or(end),
    };
    Ok(Utc.from_utc_datetime(&day.and_hms_opt(0, 0, 0).unwrap_or_default()))
}

/// A `--happened` value as the instant range `[start, end)`: a date or natural expression
/// ("2023-05-07", "last week", "in May 2023") covers its whole days; a timestamp with a
/// time of day covers that day.
pub fn period(text: &str, now: DateTime<Utc>) -> Result<(DateTime<Utc>, DateTime<Utc>), crate::model::ValidationError> {
    if crate::timestamp::parse_instant(text).is_err()
        && let Some((start, end)) = resolve::resolve_all(text.trim(), now.date_naive(), resolve::DateOrder::Mdy)
            .iter()
            .find(|r| r.text.trim().len() + 3 >= text.trim().len())
            .and_then(loose)
    {
        let at = |d: NaiveDate| Utc.from_utc_datetime(&d.and_hms_opt(0, 0, 0).unwrap_or_default());
        return Ok((at(start), at(end) + Duration::days(1)));
    }
    let start = bound(text, now, Bound::Start)?;
    let end = bound(text, now, Bound::End)?;
    if end > start {
        return Ok((start, end));
    }
    let day = Utc.from_utc_datetime(&start.date_naive().and_hms_opt(0, 0, 0).unwrap_or_default());
    Ok((day, day + Duration::days(1)))
}

/// The whole of `text` as one time expression, as the days it names.
fn whole_expression(text: &str, now: DateTime<Utc>) -> Option<(NaiveDate, NaiveDate)> {
    let trimmed = text.trim();
    let r = resolve::resolve_all(trimmed, now.date_naive(), resolve::DateOrder::Mdy)
        .into_iter()
        // The expression must be (nearly) the whole value: "last week", not "build 5 last".
        .find(|r| r.text.trim().len() + 3 >= trimmed.len())?;
    Some((r.start?, r.end?))
}

/// The days a reference names when a person asks with it: "two weeks ago" in a question
/// is said loosely, so its week, although a memory that says it is read as the day.
fn loose(r: &resolve::TemporalRef) -> Option<(NaiveDate, NaiveDate)> {
    let (start, end) = (r.start?, r.end?);
    let words = r.text.to_lowercase();
    // Only weeks counted from now ("two weeks ago", "in a fortnight"): "Tuesday week", "a
    // week today" and "a week ago yesterday" name one day however they are asked.
    let counted = (words.contains("week") || words.contains("fortnight"))
        && !words.contains("day")
        && !["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
            .iter()
            .any(|d| words.contains(d));
    if r.granularity == resolve::Granularity::Day && counted {
        let monday = start - Duration::days(i64::from(start.weekday().num_days_from_monday()));
        return Some((monday, monday + Duration::days(6)));
    }
    Some((start, end))
}

/// Which side of an event a query asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// "before the move", "until the launch".
    Before,
    /// "after the move", "since the launch".
    After,
}

#[allow(clippy::expect_used)]
static RELATIVE_EVENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(before|prior to|until|after|since|following)\s+(?:(?:the|our|my|their|his|her|we|i|a|an)\s+)?([a-z][a-z0-9-]*(?:\s+[a-z][a-z0-9-]*){0,3})")
        .expect("constant regex")
});

/// An event a query places itself against ("what did we decide before the move"): the
/// side and the words naming the event. `None` when the words are a time expression
/// themselves ("before May 2023" is a period, handled by [`query_range`]).
pub fn relative_event(query: &str) -> Option<(Side, String)> {
    let c = RELATIVE_EVENT.captures(query)?;
    let side = match c.get(1)?.as_str().to_lowercase().as_str() {
        "before" | "prior to" | "until" => Side::Before,
        _ => Side::After,
    };
    let words = c.get(2)?;
    let phrase = words.as_str().trim().to_string();
    // "before May 2023", "until Friday", "after yesterday": a time, not an event.
    let rest = query.get(words.start()..).unwrap_or("").to_lowercase();
    let anchor = NaiveDate::from_ymd_opt(2000, 6, 15)?;
    let is_time = resolve::resolve_all(&rest, anchor, resolve::DateOrder::Mdy)
        .iter()
        .any(|r| rest.starts_with(&r.text.to_lowercase()))
        || phrase.split_whitespace().next().and_then(month_number).is_some();
    (!is_time).then_some((side, phrase))
}

/// The window next to an event dated `at`: the 30 days before it or after it.
pub fn window(side: Side, at: NaiveDate) -> (DateTime<Utc>, DateTime<Utc>) {
    let day = Utc.from_utc_datetime(&at.and_hms_opt(0, 0, 0).unwrap_or_default());
    match side {
        Side::Before => (day - Duration::days(30), day),
        Side::After => (day + Duration::days(1), day + Duration::days(31)),
    }
}

/// The range `[start, end)` a query talks about, if it names one: the first confident
/// time expression in it, resolved against `now` ("in May 2023", "last week", "since 2021"
/// up to today).
pub fn query_range(query: &str, now: DateTime<Utc>) -> Option<(DateTime<Utc>, DateTime<Utc>)> {
    resolve::resolve_all(query, now.date_naive(), resolve::DateOrder::Mdy)
        .into_iter()
        .filter(|r| r.confidence >= 0.5)
        .find_map(|r| {
            let (start, end) = loose(&r)?;
            let at = |d: NaiveDate| Utc.from_utc_datetime(&d.and_hms_opt(0, 0, 0).unwrap_or_default());
            Some((at(start), at(end) + Duration::days(1)))
        })
}

/// The month number (1–12) of an English month name, any case.
pub fn month_number(name: &str) -> Option<u32> {
    month(name)
}

fn month(name: &str) -> Option<u32> {
    MONTHS
        .iter()
        .position(|m| *m == name.to_lowercase())
        .map(|i| i as u32 + 1)
}

#[cfg(test)]
mod bound_tests {
    use super::*;

    #[test]
    fn since_and_until_take_natural_expressions() {
        let now = Utc.with_ymd_and_hms(2023, 5, 10, 15, 0, 0).single().expect("date");
        let at = |y, m, d| Utc.with_ymd_and_hms(y, m, d, 0, 0, 0).single().expect("date");
        assert_eq!(bound("last week", now, Bound::Start), Ok(at(2023, 5, 1)));
        assert_eq!(bound("last week", now, Bound::End), Ok(at(2023, 5, 8)));
        assert_eq!(bound("yesterday", now, Bound::Start), Ok(at(2023, 5, 9)));
        assert_eq!(bound("3 days ago", now, Bound::Start), Ok(at(2023, 5, 7)));
        assert_eq!(bound("2023-04-01", now, Bound::Start), Ok(at(2023, 4, 1)));
        assert!(bound("whenever", now, Bound::Start).is_err());
        assert!(bound("build 5 was fixed last week sometime", now, Bound::Start).is_err());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(q: &str) -> Option<(String, String)> {
        let now = Utc.with_ymd_and_hms(2023, 5, 17, 12, 0, 0).single().expect("date");
        query_range(q, now).map(|(a, b)| (a.format("%Y-%m-%d").to_string(), b.format("%Y-%m-%d").to_string()))
    }

    #[test]
    fn absolute_dates() {
        let r = |a: &str, b: &str| Some((a.to_string(), b.to_string()));
        assert_eq!(range("what happened on 2023-05-08"), r("2023-05-08", "2023-05-09"));
        assert_eq!(range("the talk on 8 May 2023"), r("2023-05-08", "2023-05-09"));
        assert_eq!(range("on May 8th, 2023"), r("2023-05-08", "2023-05-09"));
        assert_eq!(range("decisions in December 2022"), r("2022-12-01", "2023-01-01"));
        assert_eq!(range("what did we ship in 2021"), r("2021-01-01", "2022-01-01"));
        assert_eq!(range("2023-02-30 is not a day"), None);
        assert_eq!(range("2023-02-30 or rather 8 May 2023"), r("2023-05-08", "2023-05-09"));
        // "Since 2021" runs through today.
        assert_eq!(range("what changed since 2021"), r("2021-01-01", "2023-05-18"));
        assert_eq!(range("a batch of 2048 tokens"), None);
        assert_eq!(range("one of 2000 rows"), None);
    }

    #[test]
    fn relative_to_now() {
        let r = |a: &str, b: &str| Some((a.to_string(), b.to_string()));
        assert_eq!(range("what broke yesterday"), r("2023-05-16", "2023-05-17"));
        assert_eq!(range("decisions from last week"), r("2023-05-08", "2023-05-15"));
        assert_eq!(range("anything last month"), r("2023-04-01", "2023-05-01"));
        assert_eq!(range("decisions from last  week"), r("2023-05-08", "2023-05-15"));
        assert_eq!(range("the database choice"), None);
        // 2023-05-17 is a Wednesday.
        assert_eq!(range("what did we decide last Friday"), r("2023-05-12", "2023-05-13"));
        assert_eq!(range("the outage two weeks ago"), r("2023-05-01", "2023-05-08"));
        // Weeks counted from now are asked loosely; a day they name is a day.
        assert_eq!(range("what is due a week today"), r("2023-05-24", "2023-05-25"));
        assert_eq!(range("what happened recently"), None);
    }

    #[test]
    fn events_a_query_places_itself_against() {
        assert_eq!(
            relative_event("what did we decide before the move?"),
            Some((Side::Before, "move".into()))
        );
        assert_eq!(
            relative_event("bugs since the Postgres migration"),
            Some((Side::After, "Postgres migration".into()))
        );
        assert_eq!(
            relative_event("errors after an upgrade"),
            Some((Side::After, "upgrade".into()))
        );
        assert_eq!(
            relative_event("slow since installing redis"),
            Some((Side::After, "installing redis".into()))
        );
        assert_eq!(relative_event("what happened before May 2023"), None);
        assert_eq!(relative_event("before yesterday"), None);
        assert_eq!(relative_event("the database choice"), None);
        let d = NaiveDate::from_ymd_opt(2023, 3, 10).expect("date");
        let (a, b) = window(Side::Before, d);
        assert_eq!(
            (a.date_naive().to_string(), b.date_naive().to_string()),
            ("2023-02-08".into(), "2023-03-10".into())
        );
        assert_eq!(range("mayday alerts"), None);
    }
}
