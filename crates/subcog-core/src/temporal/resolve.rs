//! Time expressions in memory text resolved against the memory's own date: "yesterday" in a
//! memory of 8 May 2023 is 7 May 2023.
//!
//! Each reference keeps its original text, an inclusive date range, a granularity and a
//! confidence. Nothing is invented: a vague phrase ("recently", "the other day") is kept as
//! text with no dates and a low confidence ("a few days ago" names no day either), and approximate ones carry
//! a low confidence. Weeks run Monday–Sunday; a bare weekday ("on Friday") is the most
//! recent one before the memory; seasons are the northern meteorological ones.

use std::sync::LazyLock;

use chrono::{Datelike, Duration, Months, NaiveDate, Weekday};
use regex::Regex;
use serde::{Deserialize, Serialize};

use super::holidays;
use super::month_number;
use super::tense::Tense;

/// How precise a resolved reference is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Granularity {
    /// One day.
    Day,
    /// Monday to Sunday.
    Week,
    /// Saturday and Sunday.
    Weekend,
    /// A calendar month.
    Month,
    /// A calendar year.
    Year,
    /// An open span ("since 2019", "for 3 years", "last summer").
    Span,
    /// Kept as text only: the words name a time but no dates ("recently").
    Vague,
}

impl Granularity {
    /// The lowercase name (`day`, `week`, …).
    pub fn as_str(&self) -> &'static str {
        match self {
            Granularity::Day => "day",
            Granularity::Week => "week",
            Granularity::Weekend => "weekend",
            Granularity::Month => "month",
            Granularity::Year => "year",
            Granularity::Span => "span",
            Granularity::Vague => "vague",
        }
    }
}

/// One resolved time reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TemporalRef {
    /// The words as written.
    pub text: String,
    /// First day; `None` for a vague reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<NaiveDate>,
    /// Last day (inclusive); `None` for a vague reference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<NaiveDate>,
    /// Precision.
    pub granularity: Granularity,
    /// How sure the reading is, in `[0, 1]`.
    pub confidence: f32,
}

/// How to read `5/8/2023`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DateOrder {
    /// Month first (US).
    #[default]
    Mdy,
    /// Day first.
    Dmy,
}

const NUMBER: &str =
    r"(\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple of|a couple|a few|several)";
const MONTH: &str = r"(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)";
const WEEKDAY: &str = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
/// Weekday names and their usual abbreviations, only used after last/this/next.
const WEEKDAY_SHORT: &str =
    r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\b\.?";
/// A weekday, the weekend or the day, for "the Wednesday before".
const WEEKDAY_OR_WEEKEND_OR_DAY: &str = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|day)";
/// A weekday or the weekend, for "the first … of the month".
const WEEKDAY_OR_WEEKEND: &str = r"(monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend)";
const SEASON: &str = r"(spring|summer|fall|autumn|winter)";

static PATTERNS: LazyLock<Vec<(Kind, Regex)>> = LazyLock::new(|| {
    let p = |kind: Kind, re: String| (kind, Regex::new(&format!("(?i){re}")).expect("constant regex"));
    vec![
        p(
            Kind::Anchored,
            format!(
                r"\bthe (day|week) (before|after|of)\s+(?:(\d{{4}})-(\d{{1,2}})-(\d{{1,2}})|{MONTH}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})|(\d{{1,2}})(?:st|nd|rd|th)?(?: of)?\s+{MONTH},?\s+(\d{{4}}))\b"
            ),
        ),
        p(
            Kind::IsoSpan,
            r"\b(\d{4})-(\d{1,2})-(\d{1,2})\s*(?:to|until|through|till|–|-)\s*(\d{4})-(\d{1,2})-(\d{1,2})\b".into(),
        ),
        // "from the 14th to the 16th of September", "5-7 March 2024", "Sept 14 to 16": one
        // range of days in one month.
        p(
            Kind::DaySpan,
            format!(
                r"\b(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?\s*(?:to|until|till|through|–|-)\s*(?:the\s+)?(\d{{1,2}})(?:st|nd|rd|th)?(?: of)?\s+{MONTH}(?:,?\s+(\d{{4}}))?\b"
            ),
        ),
        p(
            Kind::MonthDaySpan,
            format!(
                r"\b{MONTH}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\s*(?:to|until|till|through|–|-)\s*(\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(\d{{4}}))?\b"
            ),
        ),
        p(Kind::Iso, r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b".into()),
        p(Kind::Numeric, r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b".into()),
        p(Kind::DotDate, r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b".into()),
        p(Kind::Quarter, r"\bQ([1-4])\s*(?:of\s+)?((?:19|20)\d{2})\b".into()),
        p(Kind::YearQuarter, r"\b((?:19|20)\d{2})\s*Q([1-4])\b".into()),
        p(
            Kind::QuarterOrdinal,
            r"\bthe (first|second|third|fourth|1st|2nd|3rd|4th) quarter of ((?:19|20)\d{2})\b".into(),
        ),
        p(Kind::RelQuarter, r"\b(last|this|next|past|previous)\s+quarter\b".into()),
        p(
            Kind::DayMonthYear,
            format!(r"\b(\d{{1,2}})(?:st|nd|rd|th)?(?: of)?\s+{MONTH},?\s+(\d{{4}})\b"),
        ),
        p(
            Kind::MonthDayYear,
            format!(r"\b{MONTH}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b"),
        ),
        // "the 14th of September next year": the year is said in words.
        p(
            Kind::MonthDay,
            format!(r"\b{MONTH}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(next|last|this) year\b)?"),
        ),
        p(
            Kind::DayMonth,
            format!(r"\b(\d{{1,2}})(?:st|nd|rd|th)?(?: of)?\s+{MONTH}\b(?:,?\s+(next|last|this) year\b)?"),
        ),
        // "early May", "mid-June", "the end of March 2024": the month.
        p(
            Kind::MonthPart,
            format!(
                r"\b(?:(?:early|mid|late)[\s-]+|(?:the\s+)?(?:start|beginning|middle|end)\s+of\s+){MONTH}\b(?:,?\s+(\d{{4}}))?"
            ),
        ),
        p(Kind::MonthYear, format!(r"\b{MONTH},?\s+(\d{{4}})\b")),
        // "in '82": a year written with two digits.
        p(Kind::ShortYear, r"\b(?:in|since|from|of|back in|around)\s+['’](\d{2})\b".into()),
        // "since September" is read like "in September": "since" looks back.
        p(Kind::RelMonth, format!(r"\b(last|this|next|in|during|since|from)\s+{MONTH}\b")),
        p(Kind::Since, r"\bsince\s+((?:19|20)\d{2})\b".into()),
        p(
            Kind::InYear,
            r"\b(?:in|during|back in|throughout|early|late|mid)[\s-]+((?:19|20)\d{2})\b".into(),
        ),
        p(
            Kind::YearsNow,
            format!(r"\b{NUMBER}\s+(day|week|month|year)s?\s+now\b"),
        ),
        p(
            Kind::For,
            format!(r"\bfor\s+(?:the\s+(?:last|past)\s+)?{NUMBER}\s+(day|week|month|year)s?\b"),
        ),
        // Before "today", which it holds.
        p(
            Kind::FromNow,
            format!(r"\b{NUMBER}\s+(day|week|weekend|fortnight|month|year)s?\s+from\s+(?:now|today)\b"),
        ),
        p(
            Kind::Holiday,
            r"\b(christmas day|christmas eve|boxing day|new year['’]?s eve|new year['’]?s day|hogmanay|halloween|valentine['’]?s day|bonfire night|guy fawkes night|st\.? patrick['’]?s day|independence day|juneteenth|veterans['’]? day|good friday|holy saturday|maundy thursday|palm sunday|ash wednesday|shrove tuesday|pancake day|mothering sunday|easter (?:sunday|monday|day)|whit (?:sunday|monday)|whitsun|pentecost|martin luther king(?: jr\.?)? day|mlk day|presidents['’]? day|president['’]s day|mother['’]?s day|father['’]?s day|memorial day|(?:early may|may|spring|summer|august) bank holiday|bank holiday monday|labou?r day|columbus day|remembrance sunday|thanksgiving|(?:(?:over|at|for|on|before|after|since|until|by|this|last|next)\s+)(?:christmas|easter)(?:\s+(?:eve|day|sunday|monday))?)\b".into(),
        ),
        // "Tuesday last week", "Monday next week", "next week Friday": that day of that
        // Monday-to-Sunday week (before "last week" and "Tuesday week" take their words).
        p(
            Kind::WeekdayOfWeek,
            format!(r"\b{WEEKDAY}\s+(?:of\s+)?(last|next|this)\s+week\b"),
        ),
        p(
            Kind::WeekdayOfWeek,
            format!(r"\b(last|next|this)\s+week(?:\s+on|,)?\s+{WEEKDAY}\b"),
        ),
        // "Tuesday week", "a week on Tuesday": the Tuesday after the coming one (British).
        p(
            Kind::WeekOn,
            format!(r"\b(?:a week (?:on\s+)?{WEEKDAY}|{WEEKDAY}\s+week)\b"),
        ),
        // "a week today" is seven days ahead; "a week ago yesterday", "a week yesterday"
        // eight days back.
        p(
            Kind::WeekFromDay,
            r"\ba week (ago\s+)?(today|tonight|tomorrow|yesterday)\b".into(),
        ),
        // "the first Wednesday of the month", "the last weekend of June".
        p(
            Kind::NthOf,
            format!(
                r"\bthe (first|1st|second|2nd|third|3rd|fourth|4th|last) {WEEKDAY_OR_WEEKEND} of (?:(the|this|next|last) month|{MONTH})\b"
            ),
        ),
        // "the 1st of next month", "the 17th of last month".
        p(
            Kind::OrdinalOfMonth,
            r"\bthe (\d{1,2})(?:st|nd|rd|th) of (next|last|this) month\b".into(),
        ),
        p(Kind::DayBeforeYesterday, r"\bthe day before yesterday\b".into()),
        p(Kind::DayAfterTomorrow, r"\bthe day after tomorrow\b".into()),
        p(
            Kind::Yesterday,
            // "yday", "tmrw": as people text.
            r"\b(?:yesterday|yday)(?:\s+(?:morning|afternoon|evening|night))?\b".into(),
        ),
        p(
            Kind::Tomorrow,
            r"\b(?:tomorrow|tmrw|2morrow|2moro)(?:\s+(?:morning|afternoon|evening|night))?\b".into(),
        ),
        p(Kind::LastNight, r"\blast\s+(?:night|evening)\b".into()),
        p(Kind::NextMorning, r"\bnext\s+(?:morning|afternoon|evening)\b".into()),
        p(
            Kind::Today,
            r"\b(?:today|tonight|this\s+(?:morning|afternoon|evening|night))\b".into(),
        ),
        p(
            Kind::Ago,
            format!(r"\b{NUMBER}\s+(day|week|weekend|fortnight|month|year)s?\s+ago\b"),
        ),
        // "we know since two weeks", "ready since a week": "since" for "for" (as in
        // German or Polish), said of a start that many weeks back.
        p(
            Kind::Ago,
            format!(r"\bsince\s+{NUMBER}\s+(day|week|fortnight|month|year)s?\b"),
        ),
        p(
            Kind::In,
            format!(r"\bin\s+{NUMBER}\s+(day|week|weekend|fortnight|month|year)s?(?:'?\s+time)?\b"),
        ),
        p(Kind::AfterNext, r"\bthe (week|weekend|month|year) after next\b".into()),
        p(Kind::WeekBefore, r"\bthe (week|weekend|month|year) before(\s+last)?\b".into()),
        p(
            Kind::Rel,
            r"\b(?:earlier\s+|later\s+)?(last|this past|this|next|past)\s+(week|weekend|wknd|month|year)\b".into(),
        ),
        p(Kind::SeasonYear, format!(r"\b{SEASON}\s+(?:of\s+)?((?:19|20)\d{{2}})\b")),
        p(Kind::Season, format!(r"\b(last|this past|this|next|in|during)\s+(?:the\s+)?{SEASON}\b")),
        p(Kind::RelWeekday, format!(r"\b(last|this past|this coming|this|next|coming)\s+{WEEKDAY_SHORT}")),
        p(Kind::BareWeekday, format!(r"\b(?:on\s+)?{WEEKDAY}\b")),
        // "on Fri", "by Thurs", "Wed: paired with Ana": abbreviations only where they
        // cannot be a word ("the sun", "sat down", "we wed"; see `resolve_all`).
        p(
            Kind::BareWeekday,
            r"\b(?:on|by|until|till|since|before|after)\s+(mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\b\.?".into(),
        ),
        p(Kind::BareWeekday, r"(?m)^\s*(mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\.?\s*:".into()),
        // "over the weekend": the last one in a sentence that looks back, the coming one
        // in one that looks ahead.
        p(Kind::OverWeekend, r"\bover the (?:weekend|wknd)\b".into()),
        // "on the 21st": a day of a month the sentence leaves to its tense (checked in
        // `resolve_all`: not "on the 2nd floor").
        p(
            Kind::Ordinal,
            r"\b(?:on|by|until|till|from|before|after|for|since)\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b".into(),
        ),
        // "move in is the 26th" (a reply that is only "26th!" may be a ranking: left).
        p(
            Kind::Ordinal,
            r"\b(?:is|was|it's|it’s|that's|that’s)\s+the\s+(\d{1,2})(?:st|nd|rd|th)\b".into(),
        ),
        p(
            Kind::Edge,
            r"\b(?:the\s+)?(start|beginning|end)\s+of\s+(?:the\s+)?(this|last|next|the)?\s*(year|month|week)\b".into(),
        ),
        // "I just got accepted": done on the memory's day (used only when nothing else dates it).
        p(
            Kind::JustDid,
            r"\bjust\s+(got|finished|started|launched|opened|signed|joined|moved|bought|made|won|passed|took|went|adopted|received|met|found|became|began|completed|released|shipped|merged|deployed|fixed|[a-z]+ed)\b".into(),
        ),
        p(
            Kind::Vague,
            r"\b(?:recently|lately|the other day|a while (?:ago|back)|some time ago|not long ago|the other week|soon|these days|(?:a few|several|some) (?:days|weeks|months|years) (?:ago|back)|years ago|back in the day|in the coming (?:days|weeks|months)|in the near future|down the road|any day now)\b".into(),
        ),
    ]
});

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Anchored,
    IsoSpan,
    DaySpan,
    MonthDaySpan,
    Iso,
    Numeric,
    DotDate,
    Quarter,
    YearQuarter,
    QuarterOrdinal,
    RelQuarter,
    DayMonthYear,
    MonthDayYear,
    MonthDay,
    DayMonth,
    MonthYear,
    RelMonth,
    Since,
    InYear,
    YearsNow,
    For,
    DayBeforeYesterday,
    DayAfterTomorrow,
    Yesterday,
    Tomorrow,
    LastNight,
    NextMorning,
    Today,
    Ago,
    In,
    FromNow,
    AfterNext,
    WeekBefore,
    Rel,
    SeasonYear,
    Season,
    RelWeekday,
    BareWeekday,
    OverWeekend,
    Ordinal,
    Holiday,
    NthOf,
    OrdinalOfMonth,
    WeekOn,
    WeekdayOfWeek,
    WeekFromDay,
    MonthPart,
    ShortYear,
    Edge,
    JustDid,
    Vague,
}

/// Every time reference in `text`, resolved against `anchor` (the memory's date), in
/// text order. Overlapping matches keep the earliest-listed, longest pattern.
pub fn resolve_all(text: &str, anchor: NaiveDate, order: DateOrder) -> Vec<TemporalRef> {
    let mut taken: Vec<(usize, usize)> = Vec::new();
    let mut found: Vec<(usize, TemporalRef)> = Vec::new();
    for (kind, re) in PATTERNS.iter() {
        for caps in re.captures_iter(text) {
            let Some(whole) = caps.get(0) else { continue };
            let (s, e) = (whole.start(), whole.end());
            if taken.iter().any(|&(a, b)| s < b && a < e) {
                continue;
            }
            let groups: Vec<String> = (1..caps.len())
                .map(|i| caps.get(i).map(|m| m.as_str().to_lowercase()).unwrap_or_default())
                .collect();
            // "Steps 3-5 may fail": the verb, not the month; "sat on the sun deck": words, not
            // days (the unambiguous abbreviations may be lower-case, as people text).
            let written = whole.as_str();
            let yearless = written.chars().filter(char::is_ascii_digit).count() < 4;
            if (groups.iter().any(|g| g == "may") && written.contains("may") && yearless)
                || ["wed", "sat", "sun"]
                    .iter()
                    .any(|w| groups.iter().any(|g| g.trim_end_matches('.') == *w) && written.contains(w))
            {
                continue;
            }
            // "since October 14" looks back, whatever the verb ("has been open since"); a
            // deadline with no verb to tell ("forms to the office by Monday") looks ahead.
            let told = super::tense::around_expression(text, s, e);
            if ruled_out(
                *kind,
                written,
                text.get(..s).unwrap_or_default(),
                text.get(e..).unwrap_or_default(),
                told,
            ) {
                continue;
            }
            let lead = match next_word(written).as_str() {
                w @ ("since" | "by" | "until" | "till") => w.to_string(),
                _ => last_word(text.get(..s).unwrap_or_default()),
            };
            let tense = match lead.as_str() {
                "since" => Tense::Past,
                "by" | "until" | "till" if told == Tense::Unknown => Tense::Future,
                _ => told,
            };
            let before = text.get(..s).unwrap_or_default();
            let text = whole.as_str().to_string();
            let resolved = if *kind == Kind::Vague {
                // Named but not placeable: kept as words, never given invented dates.
                Some(TemporalRef {
                    text,
                    start: None,
                    end: None,
                    granularity: Granularity::Vague,
                    confidence: 0.2,
                })
            } else {
                resolve(*kind, &groups, anchor, order, tense)
                    .map(|r| refine(*kind, &groups, before, r, anchor, tense))
                    .map(|(start, end, granularity, confidence)| TemporalRef {
                        text,
                        start: Some(start),
                        end: Some(end),
                        granularity,
                        confidence,
                    })
            };
            if let Some(r) = resolved {
                taken.push((s, e));
                found.push((s, r));
            }
        }
    }
    found.sort_by_key(|(s, _)| *s);
    relative_to_named(text, &mut found);
    counted_from_named(text, &mut found);
    // "just <did>" only dates a text that names no time of its own.
    let dated = found
        .iter()
        .filter(|(_, r)| r.start.is_some() && !is_just(&r.text))
        .count();
    found
        .into_iter()
        .map(|(_, r)| r)
        .filter(|r| dated == 0 || !is_just(&r.text))
        .collect()
}

type Resolved = (NaiveDate, NaiveDate, Granularity, f32);

/// "two weeks before Halloween", "a week after Valentine's Day", "three days after the
/// 14th": a count of days or weeks from the day named right after it, in place of that
/// day's own reading. Without such a day ("two days before the deadline"), left.
fn counted_from_named(text: &str, found: &mut Vec<(usize, TemporalRef)>) {
    static COUNTED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(&format!(r"(?i)\b{NUMBER}\s+(day|week|fortnight)s?\s+(before|after)\b")).expect("constant regex")
    });
    for caps in COUNTED.captures_iter(text) {
        let (Some(whole), Some(n), Some(unit), Some(dir)) = (caps.get(0), caps.get(1), caps.get(2), caps.get(3)) else {
            continue;
        };
        let Some((count, exact)) = count(&n.as_str().to_lowercase()) else {
            continue;
        };
        // The day named right after "before"/"after" (a holiday's reading may hold the
        // word itself: "before Christmas").
        let Some((at, base)) = found
            .iter()
            .find(|(at, r)| {
                let between = text.get(whole.end()..*at).unwrap_or("x").trim().to_lowercase();
                *at >= dir.start()
                    && (*at <= whole.end() || between.is_empty() || between == "the")
                    && r.start.is_some()
                    && r.granularity == Granularity::Day
            })
            .map(|(at, r)| (*at, r.clone()))
        else {
            continue;
        };
        let Some(day0) = base.start else {
            continue;
        };
        let days = match unit.as_str().to_lowercase().as_str() {
            "day" => count,
            "week" => count * 7,
            _ => count * 14,
        };
        let sign = if dir.as_str().eq_ignore_ascii_case("before") {
            -1
        } else {
            1
        };
        let Some((start, end, granularity, confidence)) = day(
            day0 + Duration::days(sign * days),
            base.confidence.min(if exact >= 0.9 { 0.8 } else { 0.5 }),
        ) else {
            continue;
        };
        let (s, e) = (whole.start(), at + base.text.len());
        found.retain(|(a, r)| *a >= e || *a + r.text.len() <= s);
        found.push((
            s,
            TemporalRef {
                text: text.get(s..e).unwrap_or_default().to_string(),
                start: Some(start),
                end: Some(end),
                granularity,
                confidence,
            },
        ));
        found.sort_by_key(|(s, _)| *s);
    }
}

/// "the Wednesday before", "the weekend before", "the day after" counted from the date the
/// text named just before ("I start on the 5th of July, moving the weekend before"), in
/// place of any reading counted from the memory's own day. Without such a date, left.
fn relative_to_named(text: &str, found: &mut Vec<(usize, TemporalRef)>) {
    static RELATIVE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(&format!(r"(?i)\bthe {WEEKDAY_OR_WEEKEND_OR_DAY} (before|after)\b")).expect("constant regex")
    });
    for caps in RELATIVE.captures_iter(text) {
        let (Some(whole), Some(unit), Some(dir)) = (caps.get(0), caps.get(1), caps.get(2)) else {
            continue;
        };
        let after = text.get(whole.end()..).unwrap_or_default();
        // "the weekend before last" and "the day before yesterday" are read as they are.
        if matches!(
            next_word(after).as_str(),
            "last" | "next" | "yesterday" | "tomorrow" | "that" | "this"
        ) || after.trim_start().starts_with(|c: char| c.is_ascii_digit())
        {
            continue;
        }
        let (s, e) = (whole.start(), whole.end());
        // "the day before Christmas Eve" names its own date.
        if found.iter().any(|(at, _)| *at >= e && *at <= e + 2) {
            continue;
        }
        // The date named last before it, within the same stretch of text.
        let Some(base) = found
            .iter()
            .rev()
            .find(|(at, r)| {
                let words = r.text.to_lowercase();
                *at < s
                    && s - at < 200
                    && r.start.is_some()
                    && r.granularity == Granularity::Day
                    && !(words.contains(" before") || words.contains(" after"))
            })
            .and_then(|(_, r)| r.start)
        else {
            continue;
        };
        let unit = unit.as_str().to_lowercase();
        let before = dir.as_str().eq_ignore_ascii_case("before");
        let resolved = match unit.as_str() {
            "day" => day(base + Duration::days(if before { -1 } else { 1 }), 0.75),
            "weekend" => {
                let sat = if before {
                    most_recent_before(base, Weekday::Sat)
                } else {
                    first_after(base, Weekday::Sat)
                };
                weekend(sat, 0.75)
            }
            name => {
                let wd = weekday(name);
                wd.map(|wd| {
                    if before {
                        most_recent_before(base, wd)
                    } else {
                        first_after(base, wd)
                    }
                })
                .and_then(|d| day(d, 0.75))
            }
        };
        let Some((start, end, granularity, confidence)) = resolved else {
            continue;
        };
        // Any reading that overlaps its words gives way.
        found.retain(|(at, r)| *at >= e || *at + r.text.len() <= s);
        found.push((
            s,
            TemporalRef {
                text: whole.as_str().to_string(),
                start: Some(start),
                end: Some(end),
                granularity,
                confidence,
            },
        ));
    }
    found.sort_by_key(|(s, _)| *s);
}

/// A reading corrected by the words just before it: "Saturday the 12th of November" is
/// the 12th of November that falls on a Saturday; "in June, on the 8th" is the 8th of June.
fn refine(kind: Kind, g: &[String], before: &str, found: Resolved, anchor: NaiveDate, tense: Tense) -> Resolved {
    static WEEKDAY_BEFORE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(&format!(r"(?i)\b{WEEKDAY},?\s+(?:the\s+)?$")).expect("constant regex"));
    static MONTH_BEFORE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(&format!(r"(?i)\b{MONTH}\b[,.]?\s*$")).expect("constant regex"));
    let (start, _, granularity, confidence) = found;
    let better = match kind {
        Kind::DayMonth | Kind::MonthDay if g.get(2).is_none_or(String::is_empty) => {
            WEEKDAY_BEFORE.captures(before).and_then(|c| {
                let wd = weekday(&c.get(1)?.as_str().to_lowercase())?;
                let dates: Vec<NaiveDate> = [-1, 0, 1]
                    .iter()
                    .filter_map(|dy| NaiveDate::from_ymd_opt(start.year() + dy, start.month(), start.day()))
                    .filter(|d| d.weekday() == wd)
                    .collect();
                placed(anchor, &dates, Tense::Unknown)
            })
        }
        // "My rotation is in February. It starts on the first Wednesday of the month."
        Kind::NthOf if matches!(g.get(2).map(String::as_str), Some("the" | "this")) => named_month_before(before)
            .and_then(|m| nth_of_placed(anchor, m, g.first()?, g.get(1)?, tense))
            .map(|r| r.0),
        // "She's coming back in January. She lands on the 14th."
        Kind::Ordinal if tense == Tense::Future && !MONTH_BEFORE.is_match(before) => named_month_before(before)
            .and_then(|m| month_day(anchor, m, start.day(), Tense::Future))
            .filter(|d| d.month() != anchor.month()),
        Kind::Ordinal => MONTH_BEFORE.captures(before).and_then(|c| {
            month_day(
                anchor,
                month_of(&c.get(1)?.as_str().to_lowercase())?,
                start.day(),
                tense,
            )
        }),
        _ => None,
    };
    match better {
        Some(d) if granularity == Granularity::Weekend => weekend(d, confidence).unwrap_or(found),
        Some(d) => (d, d, granularity, confidence),
        None => found,
    }
}

/// The month last named with "in", "from", "during" or "until" in the ~200 bytes before.
fn named_month_before(before: &str) -> Option<u32> {
    static NAMED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(&format!(r"(?i)\b(?:in|from|during|until|since)\s+{MONTH}\b")).expect("constant regex")
    });
    let mut from = before.len().saturating_sub(200);
    while !before.is_char_boundary(from) {
        from += 1;
    }
    let near = before.get(from..)?;
    NAMED
        .captures_iter(near)
        .last()
        .and_then(|c| month_of(&c.get(1)?.as_str().to_lowercase()))
}

fn day(d: NaiveDate, confidence: f32) -> Option<Resolved> {
    Some((d, d, Granularity::Day, confidence))
}

fn week_of(d: NaiveDate) -> NaiveDate {
    d - Duration::days(i64::from(d.weekday().num_days_from_monday()))
}

fn week(d: NaiveDate, confidence: f32) -> Option<Resolved> {
    let monday = week_of(d);
    Some((monday, monday + Duration::days(6), Granularity::Week, confidence))
}

fn weekend(d: NaiveDate, confidence: f32) -> Option<Resolved> {
    let saturday = week_of(d) + Duration::days(5);
    Some((saturday, saturday + Duration::days(1), Granularity::Weekend, confidence))
}

fn month(y: i32, m: u32, confidence: f32) -> Option<Resolved> {
    let first = NaiveDate::from_ymd_opt(y, m, 1)?;
    let last = first.checked_add_months(Months::new(1))? - Duration::days(1);
    Some((first, last, Granularity::Month, confidence))
}

fn year(y: i32, confidence: f32) -> Option<Resolved> {
    Some((
        NaiveDate::from_ymd_opt(y, 1, 1)?,
        NaiveDate::from_ymd_opt(y, 12, 31)?,
        Granularity::Year,
        confidence,
    ))
}

fn count(word: &str) -> Option<(i64, f32)> {
    let n = match word.trim() {
        "a" | "an" | "one" => 1,
        "two" | "a couple of" | "a couple" => 2,
        "three" | "a few" => 3,
        "several" => 4,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "eight" => 8,
        "nine" => 9,
        "ten" => 10,
        "eleven" => 11,
        "twelve" => 12,
        digits => digits.parse().ok()?,
    };
    let vague = matches!(word.trim(), "a couple of" | "a couple" | "a few" | "several");
    Some((n, if vague { 0.5 } else { 0.9 }))
}

fn weekday(name: &str) -> Option<Weekday> {
    let name = name.trim_end_matches('.');
    let short = match name {
        "tues" => "tue",
        "thur" | "thurs" => "thu",
        other => other,
    };
    short.parse().ok()
}

/// The first and last day of `season` in the year `y` (winter starts in December of `y`).
fn season_of(season: &str, y: i32) -> Option<(NaiveDate, NaiveDate)> {
    let (m1, y2, m2) = match season {
        "spring" => (3, y, 5),
        "summer" => (6, y, 8),
        "fall" | "autumn" => (9, y, 11),
        _ => (12, y + 1, 2),
    };
    let first = NaiveDate::from_ymd_opt(y, m1, 1)?;
    let last = NaiveDate::from_ymd_opt(y2, m2, 1)?.checked_add_months(Months::new(1))? - Duration::days(1);
    Some((first, last))
}

fn season(dir: &str, name: &str, anchor: NaiveDate) -> Option<Resolved> {
    let candidates: Vec<(NaiveDate, NaiveDate)> = (anchor.year() - 2..=anchor.year() + 1)
        .filter_map(|y| season_of(name, y))
        .collect();
    let (first, last) = match dir {
        // The most recent one that is over.
        "last" | "this past" => candidates.iter().rev().find(|(_, e)| *e < anchor)?,
        "next" => candidates.iter().find(|(s, _)| *s > anchor)?,
        // "this summer" / "in the summer": the one under way, else the nearest.
        _ => candidates.iter().min_by_key(|(s, e)| {
            if *s <= anchor && anchor <= *e {
                0
            } else {
                (*s - anchor).num_days().abs().min((*e - anchor).num_days().abs())
            }
        })?,
    };
    Some((*first, *last, Granularity::Span, 0.6))
}

fn month_of(name: &str) -> Option<u32> {
    month_number(name).or_else(|| {
        let short = [
            "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
        ];
        let n = if name == "sept" { "sep" } else { name };
        short.iter().position(|s| *s == n).map(|i| i as u32 + 1)
    })
}

fn resolve(kind: Kind, g: &[String], anchor: NaiveDate, order: DateOrder, tense: Tense) -> Option<Resolved> {
    let num = |i: usize| g.get(i).and_then(|s| s.parse::<u32>().ok());
    let int = |i: usize| g.get(i).and_then(|s| s.parse::<i32>().ok());
    match kind {
        Kind::Anchored => {
            // Groups: unit, direction, then one of (year, month, day), (month name, day,
            // year), (day, month name, year).
            let at = match (int(2), int(7), int(10)) {
                (Some(y), _, _) => NaiveDate::from_ymd_opt(y, num(3)?, num(4)?)?,
                (_, Some(y), _) => NaiveDate::from_ymd_opt(y, month_of(g.get(5)?)?, num(6)?)?,
                (_, _, Some(y)) => NaiveDate::from_ymd_opt(y, month_of(g.get(9)?)?, num(8)?)?,
                _ => return None,
            };
            let step = match g.get(1)?.as_str() {
                "before" => -1,
                "after" => 1,
                _ => 0,
            };
            if g.first()? == "day" {
                day(at.checked_add_signed(Duration::days(step))?, 0.95)
            } else {
                week(at.checked_add_signed(Duration::weeks(step))?, 0.9)
            }
        }
        Kind::IsoSpan => {
            let a = NaiveDate::from_ymd_opt(int(0)?, num(1)?, num(2)?)?;
            let b = NaiveDate::from_ymd_opt(int(3)?, num(4)?, num(5)?)?;
            (a <= b).then_some((a, b, Granularity::Span, 0.95))
        }
        Kind::DaySpan => day_span(anchor, month_of(g.get(2)?)?, num(0)?, num(1)?, g.get(3), tense),
        Kind::MonthDaySpan => day_span(anchor, month_of(g.first()?)?, num(1)?, num(2)?, g.get(3), tense),
        Kind::DotDate => day(NaiveDate::from_ymd_opt(int(2)?, num(1)?, num(0)?)?, 0.9),
        Kind::Quarter => quarter(int(1)?, num(0)?, 0.95),
        Kind::YearQuarter => quarter(int(0)?, num(1)?, 0.95),
        Kind::QuarterOrdinal => {
            let q = match g.first()?.as_str() {
                "first" | "1st" => 1,
                "second" | "2nd" => 2,
                "third" | "3rd" => 3,
                _ => 4,
            };
            quarter(int(1)?, q, 0.95)
        }
        Kind::RelQuarter => {
            let current = (anchor.month() - 1) / 3 + 1;
            let index = anchor.year() * 4 + i32::try_from(current).ok()? - 1
                + match g.first()?.as_str() {
                    "last" | "past" | "previous" => -1,
                    "next" => 1,
                    _ => 0,
                };
            quarter(index.div_euclid(4), u32::try_from(index.rem_euclid(4)).ok()? + 1, 0.85)
        }
        Kind::Iso => day(NaiveDate::from_ymd_opt(int(0)?, num(1)?, num(2)?)?, 0.99),
        Kind::Numeric => {
            let (a, b, y) = (num(0)?, num(1)?, int(2)?);
            // A field above 12 can only be the day ("20/05/2021"), whatever the order.
            let (m, d) = match order {
                _ if a > 12 => (b, a),
                _ if b > 12 => (a, b),
                DateOrder::Mdy => (a, b),
                DateOrder::Dmy => (b, a),
            };
            // Both readings valid and different: say so through the confidence.
            let ambiguous = a <= 12 && b <= 12 && a != b;
            day(NaiveDate::from_ymd_opt(y, m, d)?, if ambiguous { 0.7 } else { 0.95 })
        }
        Kind::DayMonthYear => day(NaiveDate::from_ymd_opt(int(2)?, month_of(g.get(1)?)?, num(0)?)?, 0.98),
        Kind::MonthDayYear => day(NaiveDate::from_ymd_opt(int(2)?, month_of(g.first()?)?, num(1)?)?, 0.98),
        Kind::MonthDay => day(said_year(anchor, month_of(g.first()?)?, num(1)?, g.get(2), tense)?, 0.8),
        Kind::DayMonth => day(said_year(anchor, month_of(g.get(1)?)?, num(0)?, g.get(2), tense)?, 0.8),
        Kind::MonthPart => {
            let m = month_of(g.first()?)?;
            match int(1) {
                Some(y) => month(y, m, 0.85),
                None => {
                    let y = anchor.year();
                    match tense {
                        Tense::Future => month(if m >= anchor.month() { y } else { y + 1 }, m, 0.7),
                        Tense::Past => month(if m <= anchor.month() { y } else { y - 1 }, m, 0.7),
                        // No verb to tell: the nearest such month.
                        Tense::Unknown => {
                            let (ahead, back) = ((m + 12 - anchor.month()) % 12, (anchor.month() + 12 - m) % 12);
                            month(
                                if ahead < back && m < anchor.month() {
                                    y + 1
                                } else if back < ahead && m > anchor.month() {
                                    y - 1
                                } else {
                                    y
                                },
                                m,
                                0.6,
                            )
                        }
                    }
                }
            }
        }
        Kind::ShortYear => {
            let yy = int(0)?;
            // '82 is 1982; '19 is 2019 (no more than a year ahead of the memory).
            let y = if 2000 + yy <= anchor.year() + 1 {
                2000 + yy
            } else {
                1900 + yy
            };
            year(y, 0.85)
        }
        Kind::NthOf => {
            let (which, unit) = (g.first()?.as_str(), g.get(1)?.as_str());
            let (y, m) = match (g.get(2).map(String::as_str), g.get(3).and_then(|n| month_of(n))) {
                (_, Some(m)) => return nth_of_placed(anchor, m, which, unit, tense),
                (Some("next"), _) => shift(anchor, "month", 1).map(|d| (d.year(), d.month()))?,
                (Some("last"), _) => shift(anchor, "month", -1).map(|d| (d.year(), d.month()))?,
                _ => (anchor.year(), anchor.month()),
            };
            nth_of(y, m, which, unit)
        }
        Kind::OrdinalOfMonth => {
            let step = match g.get(1)?.as_str() {
                "next" => 1,
                "last" => -1,
                _ => 0,
            };
            let at = shift(anchor, "month", step)?;
            day(NaiveDate::from_ymd_opt(at.year(), at.month(), num(0)?)?, 0.85)
        }
        Kind::WeekOn => {
            let wd = weekday(g.first().filter(|w| !w.is_empty()).or(g.get(1))?)?;
            day(first_after(anchor, wd) + Duration::days(7), 0.75)
        }
        Kind::WeekdayOfWeek => {
            let wd = g.iter().find_map(|w| weekday(w))?;
            let weeks = match g
                .iter()
                .find(|w| matches!(w.as_str(), "last" | "next" | "this"))?
                .as_str()
            {
                "last" => -7,
                "next" => 7,
                _ => 0,
            };
            let monday = week_of(anchor) + Duration::days(weeks);
            day(monday + Duration::days(i64::from(wd.num_days_from_monday())), 0.85)
        }
        Kind::WeekFromDay => {
            let ago = g.first().is_some_and(|a| !a.is_empty());
            let days = match g.get(1)?.as_str() {
                "yesterday" => -8,
                "tomorrow" if !ago => 8,
                "tomorrow" => -6,
                _ if ago => -7,
                _ => 7,
            };
            day(anchor + Duration::days(days), 0.8)
        }
        Kind::MonthYear => month(int(1)?, month_of(g.first()?)?, 0.95),
        Kind::RelMonth => {
            let m = month_of(g.get(1)?)?;
            let y = anchor.year();
            match g.first()?.as_str() {
                "last" => month(if m < anchor.month() { y } else { y - 1 }, m, 0.85),
                "next" => month(if m > anchor.month() { y } else { y + 1 }, m, 0.8),
                "this" => month(y, m, 0.8),
                // "we will migrate in May": the next May, this one included; "on nights from
                // August" too, unless the sentence looks back.
                _ if tense == Tense::Future || (g.first()? == "from" && tense != Tense::Past) => {
                    month(if m >= anchor.month() { y } else { y + 1 }, m, 0.7)
                }
                // "in May": the most recent May, this one included.
                _ => month(if m <= anchor.month() { y } else { y - 1 }, m, 0.7),
            }
        }
        Kind::Since => {
            let y = int(0)?;
            let start = NaiveDate::from_ymd_opt(y, 1, 1)?;
            (start <= anchor).then_some((start, anchor, Granularity::Span, 0.9))
        }
        Kind::InYear => year(int(0)?, 0.9),
        Kind::For | Kind::YearsNow => {
            let (n, c) = count(g.first()?)?;
            let start = shift(anchor, g.get(1)?, -n)?;
            Some((start, anchor, Granularity::Span, c * 0.7))
        }
        Kind::DayBeforeYesterday => day(anchor - Duration::days(2), 0.95),
        Kind::DayAfterTomorrow => day(anchor + Duration::days(2), 0.9),
        Kind::Yesterday | Kind::LastNight => day(anchor - Duration::days(1), 0.95),
        Kind::Tomorrow => day(anchor + Duration::days(1), 0.9),
        // "next morning" in a story is the morning after the story's day, not the memory's.
        Kind::NextMorning => day(anchor + Duration::days(1), 0.5),
        Kind::Today => day(anchor, 0.95),
        Kind::Ago => {
            let (n, c) = count(g.first()?)?;
            // "a few days ago" names no day: left to the vague reading.
            if matches!(g.first()?.as_str(), "a few" | "several") {
                return None;
            }
            let (unit, n) = match g.get(1)?.as_str() {
                // A fortnight is two weeks.
                "fortnight" => ("week", n * 2),
                other => (other, n),
            };
            let at = shift(anchor, unit, -n)?;
            match unit {
                "day" => day(at, c),
                // Weeks counted exactly ("two weeks ago", "a fortnight ago") land on a day,
                // inside the week a looser reading names; "a couple of weeks" stays a week.
                "week" if c >= 0.9 => day(at, c * 0.8),
                "week" => week(at, c),
                "weekend" => weekend(at, c),
                "month" => month(at.year(), at.month(), c),
                // "a year ago" is said of a point twelve months back ("around August
                // 2022" in LoCoMo's answers), not of last calendar year: its month is the
                // honest estimate. Further back, the year is as precise as it gets.
                _ if n == 1 => month(at.year(), at.month(), c * 0.8),
                _ => year(at.year(), c),
            }
        }
        Kind::In | Kind::FromNow => {
            // "in two weeks": a date ahead unless the sentence looks back ("finished three
            // in six weeks" is a duration). "Three days from now" always looks ahead.
            if (kind == Kind::In && tense == Tense::Past) || matches!(g.first()?.as_str(), "a few" | "several") {
                return None;
            }
            let (n, exact) = count(g.first()?)?;
            let (unit, n) = match g.get(1)?.as_str() {
                "fortnight" => ("week", n * 2),
                other => (other, n),
            };
            let at = shift(anchor, unit, n)?;
            match unit {
                "day" => day(at, 0.6),
                // "in a fortnight": the day fourteen days on, as "two weeks ago" (above).
                "week" if exact >= 0.9 => day(at, 0.55),
                "week" => week(at, 0.6),
                "weekend" => weekend(at, 0.6),
                "month" => month(at.year(), at.month(), 0.6),
                // "in two years", like "two years ago": the calendar year.
                _ => year(at.year(), 0.5),
            }
        }
        Kind::AfterNext => {
            let unit = g.first()?.as_str();
            let at = shift(anchor, unit, 2)?;
            match unit {
                "week" => week(at, 0.8),
                "weekend" => weekend(at, 0.8),
                "month" => month(at.year(), at.month(), 0.8),
                _ => year(at.year(), 0.8),
            }
        }
        Kind::WeekBefore => {
            let unit = g.first()?.as_str();
            // "the week before last": two back; "the week before" (in a story): one.
            let back = if g.get(1).is_some_and(|l| !l.is_empty()) {
                -2
            } else {
                -1
            };
            let at = shift(anchor, unit, back)?;
            match unit {
                "week" => week(at, 0.75),
                "weekend" => weekend(at, 0.75),
                "month" => month(at.year(), at.month(), 0.75),
                _ => year(at.year(), 0.75),
            }
        }
        Kind::Rel => {
            let dir = match g.first()?.as_str() {
                "last" | "past" | "this past" => -1,
                "next" => 1,
                _ => 0,
            };
            let unit = match g.get(1)?.as_str() {
                "wknd" => "weekend",
                other => other,
            };
            let at = shift(anchor, unit, dir)?;
            match unit {
                "week" => week(at, 0.9),
                "weekend" => weekend(at, 0.85),
                "month" => month(at.year(), at.month(), 0.9),
                _ => year(at.year(), 0.9),
            }
        }
        Kind::RelWeekday => {
            let wd = weekday(g.get(1)?)?;
            let this = week_of(anchor) + Duration::days(i64::from(wd.num_days_from_monday()));
            match g.first()?.as_str() {
                // "last Friday": the most recent Friday before the memory's day.
                "last" | "this past" => day(most_recent_before(anchor, wd), 0.85),
                // "this coming Friday": the first one after it.
                "this coming" | "coming" => day(first_after(anchor, wd), 0.85),
                "next" => day(this + Duration::days(7), 0.75),
                _ => day(this, 0.8),
            }
        }
        Kind::BareWeekday => {
            let wd = weekday(g.first()?)?;
            if tense == Tense::Future {
                day(first_after(anchor, wd), 0.7)
            } else {
                day(most_recent_before(anchor, wd), 0.7)
            }
        }
        Kind::OverWeekend => {
            // This week's Saturday, or the one before (looking back) or after (ahead) when
            // it is on the wrong side of the memory's day.
            let saturday = week_of(anchor) + Duration::days(5);
            let week = Duration::days(7);
            match tense {
                Tense::Past => weekend(if saturday < anchor { saturday } else { saturday - week }, 0.7),
                Tense::Future => weekend(if saturday >= anchor { saturday } else { saturday + week }, 0.7),
                Tense::Unknown => None,
            }
        }
        Kind::Ordinal => {
            // The day in this month, the last or the next, placed by the tense.
            let d = num(0)?;
            let months = [
                anchor.checked_sub_months(Months::new(1))?,
                anchor,
                anchor.checked_add_months(Months::new(1))?,
            ];
            let dates = months
                .iter()
                .filter_map(|m| NaiveDate::from_ymd_opt(m.year(), m.month(), d));
            let at = match tense {
                Tense::Past => dates.filter(|c| *c <= anchor).max(),
                Tense::Future => dates.filter(|c| *c >= anchor).min(),
                Tense::Unknown => dates.min_by_key(|c| (*c - anchor).num_days().abs()),
            }?;
            day(at, 0.7)
        }
        Kind::Holiday => {
            let name = g.first()?.replace('’', "'");
            let years = [anchor.year() - 1, anchor.year(), anchor.year() + 1];
            let dates: Vec<NaiveDate> = if name == "bank holiday monday" {
                years.iter().flat_map(|y| holidays::bank_holidays(*y)).collect()
            } else {
                years.iter().filter_map(|y| holidays::in_year(&name, *y)).collect()
            };
            let tense = if name.starts_with("last ") {
                Tense::Past
            } else if name.starts_with("next ") {
                Tense::Future
            } else {
                tense
            };
            day(placed(anchor, &dates, tense)?, 0.75)
        }
        Kind::Edge => {
            let (edge, dir, unit) = (g.first()?.as_str(), g.get(1)?.as_str(), g.get(2)?.as_str());
            let step = match dir {
                "last" => -1,
                "next" => 1,
                _ => 0,
            };
            let part = |at: NaiveDate| -> Option<Resolved> {
                if unit == "week" {
                    // "by the end of next week": that week.
                    week(at, 0.6)
                } else if unit == "year" {
                    // The first or last month of the year.
                    month(at.year(), if edge == "end" { 12 } else { 1 }, 0.6)
                } else {
                    let (first, last, _, _) = month(at.year(), at.month(), 0.6)?;
                    let (a, b) = if edge == "end" {
                        (last - Duration::days(9), last)
                    } else {
                        (first, first + Duration::days(9))
                    };
                    Some((a, b, Granularity::Span, 0.6))
                }
            };
            let found = part(shift(anchor, unit, step)?)?;
            // "the start of the year" said in November of a plan is the next one; "the end
            // of the year" said in February of something done is the last one.
            match (step, tense) {
                (0, Tense::Future) if found.1 < anchor => part(shift(anchor, unit, 1)?),
                (0, Tense::Past) if found.0 > anchor => part(shift(anchor, unit, -1)?),
                _ => Some(found),
            }
        }
        Kind::Season => season(g.first()?, g.get(1)?, anchor),
        Kind::SeasonYear => {
            let (first, last) = season_of(g.first()?, int(1)?)?;
            Some((first, last, Granularity::Span, 0.85))
        }
        Kind::JustDid => {
            // Feelings and wishes are not events: "I just wanted to say".
            let verb = g.first()?.as_str();
            let not_events = [
                "wanted", "needed", "wondered", "loved", "liked", "hoped", "noticed", "realized", "realised", "checked",
            ];
            (!not_events.contains(&verb)).then_some(())?;
            day(anchor, 0.6)
        }
        Kind::Vague => None,
    }
}

/// Of the candidate `dates`, the most recent one (the memory's day included) when the
/// sentence looks back, the next one when it looks ahead, else the nearest.
fn placed(anchor: NaiveDate, dates: &[NaiveDate], tense: Tense) -> Option<NaiveDate> {
    let dates = dates.iter().copied();
    match tense {
        Tense::Past => dates.filter(|c| *c <= anchor).max(),
        Tense::Future => dates.filter(|c| *c >= anchor).min(),
        Tense::Unknown => dates.min_by_key(|c| (*c - anchor).num_days().abs()),
    }
}

/// Whether the words around a match say it is no date after all.
fn ruled_out(kind: Kind, written: &str, before: &str, after: &str, tense: Tense) -> bool {
    let (prev, next) = (last_word(before), next_word(after));
    match kind {
        // "on the 2nd floor", "for the 3rd time": an ordinal that counts something.
        Kind::Ordinal => {
            let rest = after.trim_start();
            !(rest.is_empty()
                || rest.starts_with(|c: char| ".,;:!?)–-\"'".contains(c))
                || PHRASE_ENDS.contains(&next.as_str()))
        }
        // "the Christmas party" is not on Christmas Day.
        Kind::Holiday => NAMED_AFTER_HOLIDAYS.contains(&next.as_str()),
        // "for a week from Saturday" counts forward from a date the text names; "retained
        // for 90 days" is a rule, not a span that ends now ("I've had him for 10 years").
        // "It rained for four days" (in a story) is how long, not which days: only "for
        // the past four days" or a perfect ("I've been ill for four days") ends now.
        Kind::For => {
            let recent = written.to_lowercase().contains(" the ");
            ["from", "starting", "beginning", "after"].contains(&next.as_str())
                || (!perfect(before) && (stative(before) || (!recent && tense == Tense::Past)))
        }
        // "by the end of the month" is a deadline, not when anything happened.
        Kind::Edge => prev == "by",
        // "in two weeks" is a date ahead; "finish it in six weeks" a duration.
        Kind::In => {
            DURATION_BEFORE.contains(&prev.as_str())
                || (tense != Tense::Future && DURATION_VERB.is_match(sentence_end(before)))
        }
        // "every Monday", "each Friday", "every Tuesday and Thursday": a schedule, not a date.
        // "Monday.com" is a product.
        // "Tuesday, 12 September 2023": the date says which Tuesday.
        // "Tuesday nights at the hall": a schedule.
        Kind::BareWeekday => {
            prev == "every"
                || prev == "each"
                || SCHEDULE_BEFORE.is_match(sentence_end(before))
                || ["nights", "mornings", "evenings", "afternoons"].contains(&next.as_str())
                || DATE_AFTER_WEEKDAY.is_match(after)
                || after
                    .strip_prefix('.')
                    .is_some_and(|r| r.starts_with(|c: char| c.is_alphanumeric()))
        }
        _ => false,
    }
}

/// A schedule's earlier days right before a weekday: "every Tuesday and", "each Monday,
/// Wednesday or".
static SCHEDULE_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)\b(?:every|each)\s+{WEEKDAY}(?:\s*,\s*{WEEKDAY})*\s*(?:,|and|or|&)\s*(?:on\s+)?$"
    ))
    .expect("constant regex")
});

/// A calendar date right after a weekday ("Tuesday, 12 September 2023", "Fri, March 3").
static DATE_AFTER_WEEKDAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?i)^,?\s+(?:the\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?(?: of)?\s+{MONTH}\b|{MONTH}\.?\s+\d{{1,2}}\b)"
    ))
    .expect("constant regex")
});

/// The part of the sentence that `before` ends in.
fn sentence_end(before: &str) -> &str {
    let start = before.rfind(['.', '!', '?', '\n']).map_or(0, |p| p + 1);
    before.get(start..).unwrap_or(before)
}

/// Whether the sentence that `before` ends in has a perfect ("I've had", "has been").
fn perfect(before: &str) -> bool {
    static PERFECT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?i)\b(have|has|had|been)\b|['’]ve\b").expect("constant regex"));
    PERFECT.is_match(sentence_end(before))
}

/// Whether the sentence that `before` ends in states a rule or plan ("are retained", "will
/// run"), which "for 30 days" measures rather than dates.
fn stative(before: &str) -> bool {
    static STATIVE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(is|are|be|was|were|will|can|must|should|may|might)\b|['’]ll\b").expect("constant regex")
    });
    STATIVE.is_match(sentence_end(before))
}

/// Verbs that make "in six weeks" how long something took ("finishing three in six weeks").
static DURATION_VERB: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\b(finish\w*|complet\w*|done|took|takes?)\b").expect("constant regex"));

/// The first word of `text`, lower-cased.
fn next_word(text: &str) -> String {
    text.trim_start()
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect::<String>()
        .to_lowercase()
}

/// The last word of `text`, lower-cased ("wedding's" ends in "s").
pub(super) fn last_word(text: &str) -> String {
    text.trim_end()
        .rsplit(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or_default()
        .to_lowercase()
}

/// Words after an ordinal that end its phrase ("on the 21st, …", "on the 21st and").
const PHRASE_ENDS: &[&str] = &[
    "and",
    "at",
    "so",
    "too",
    "but",
    "because",
    "as",
    "when",
    "while",
    "to",
    "with",
    "which",
    "though",
    "if",
    "or",
    "then",
    "in",
    "this",
    "next",
    "last",
    "of",
    "by",
    "until",
    "instead",
    "already",
    "again",
    "i",
    "we",
    "right",
    "yeah",
    "yes",
    "yep",
    "ok",
    "okay",
    "lol",
    "works",
    "supposedly",
    "hopefully",
    "probably",
];

/// Things named after a holiday ("Christmas party"), which need not fall on it.
const NAMED_AFTER_HOLIDAYS: &[&str] = &[
    "party",
    "parties",
    "market",
    "markets",
    "tree",
    "trees",
    "card",
    "cards",
    "shopping",
    "lights",
    "jumper",
    "sweater",
    "list",
    "song",
    "songs",
    "music",
    "movie",
    "film",
    "break",
    "holiday",
    "holidays",
    "season",
    "period",
    "rush",
    "sale",
    "sales",
    "costume",
    "costumes",
    "decorations",
    "present",
    "presents",
    "gift",
    "gifts",
    "fair",
    "concert",
    "show",
];

/// Words before "in N weeks" that make it a duration ("finish it in six weeks").
const DURATION_BEFORE: &[&str] = &[
    "it",
    "them",
    "this",
    "that",
    "done",
    "finish",
    "finished",
    "complete",
    "completed",
    "ready",
    "only",
    "just",
];

fn is_just(text: &str) -> bool {
    text.get(..4).is_some_and(|w| w.eq_ignore_ascii_case("just"))
}

fn first_after(anchor: NaiveDate, wd: Weekday) -> NaiveDate {
    let ahead = (7 + wd.num_days_from_monday() - anchor.weekday().num_days_from_monday()) % 7;
    anchor + Duration::days(i64::from(if ahead == 0 { 7 } else { ahead }))
}

/// Quarter `q` (1–4) of year `y`.
fn quarter(y: i32, q: u32, confidence: f32) -> Option<Resolved> {
    let first = NaiveDate::from_ymd_opt(y, 3 * q.checked_sub(1)? + 1, 1)?;
    let last = first.checked_add_months(Months::new(3))? - Duration::days(1);
    Some((first, last, Granularity::Span, confidence))
}

/// Days `from..=to` of month `m`, in the year written or, without one, placed by the
/// tense like a month and day.
fn day_span(anchor: NaiveDate, m: u32, from: u32, to: u32, year: Option<&String>, tense: Tense) -> Option<Resolved> {
    // Placed by its last day: a span under way on the memory's day is this one.
    let end = match year.filter(|y| !y.is_empty()) {
        Some(y) => NaiveDate::from_ymd_opt(y.parse().ok()?, m, to)?,
        None => month_day(anchor, m, to, tense)?,
    };
    let start = NaiveDate::from_ymd_opt(end.year(), m, from)?;
    (start < end).then_some((start, end, Granularity::Span, 0.9))
}

/// The first (…, last) weekday or weekend of month `m` in the year the tense places it:
/// the most recent one when the sentence looks back, else the next one.
fn nth_of_placed(anchor: NaiveDate, m: u32, which: &str, unit: &str, tense: Tense) -> Option<Resolved> {
    let dates: Vec<NaiveDate> = [anchor.year() - 1, anchor.year(), anchor.year() + 1]
        .iter()
        .filter_map(|y| nth_of(*y, m, which, unit).map(|r| r.0))
        .collect();
    let tense = if tense == Tense::Past {
        Tense::Past
    } else {
        Tense::Future
    };
    let at = placed(anchor, &dates, tense)?;
    nth_of(at.year(), m, which, unit)
}

/// The first (…, fourth, last) weekday or weekend of month `m` of year `y`.
fn nth_of(y: i32, m: u32, which: &str, unit: &str) -> Option<Resolved> {
    let wd = weekday(if unit == "weekend" { "saturday" } else { unit })?;
    let at = match which {
        "last" => {
            let next = NaiveDate::from_ymd_opt(y, m, 1)?.checked_add_months(Months::new(1))?;
            most_recent_before(next, wd)
        }
        _ => {
            let n = match which {
                "first" | "1st" => 1,
                "second" | "2nd" => 2,
                "third" | "3rd" => 3,
                _ => 4,
            };
            NaiveDate::from_weekday_of_month_opt(y, m, wd, n)?
        }
    };
    if unit == "weekend" {
        weekend(at, 0.8)
    } else {
        day(at, 0.8)
    }
}

/// A month and day with the year said in words ("next year"), or placed by the tense.
fn said_year(anchor: NaiveDate, m: u32, d: u32, year_word: Option<&String>, tense: Tense) -> Option<NaiveDate> {
    let shift = match year_word.map(String::as_str) {
        Some("next") => 1,
        Some("last") => -1,
        Some("this") => 0,
        _ => return month_day(anchor, m, d, tense),
    };
    NaiveDate::from_ymd_opt(anchor.year() + shift, m, d)
}

/// A month and day without a year: the most recent one (the memory's day included) when
/// the sentence looks back, the next one when it looks ahead, else the nearest.
fn month_day(anchor: NaiveDate, m: u32, d: u32, tense: Tense) -> Option<NaiveDate> {
    let dates: Vec<NaiveDate> = [anchor.year() - 1, anchor.year(), anchor.year() + 1]
        .iter()
        .filter_map(|y| NaiveDate::from_ymd_opt(*y, m, d))
        .collect();
    placed(anchor, &dates, tense)
}

fn most_recent_before(anchor: NaiveDate, wd: Weekday) -> NaiveDate {
    let back = (7 + anchor.weekday().num_days_from_monday() - wd.num_days_from_monday()) % 7;
    anchor - Duration::days(i64::from(if back == 0 { 7 } else { back }))
}

fn shift(anchor: NaiveDate, unit: &str, n: i64) -> Option<NaiveDate> {
    match unit {
        "day" => anchor.checked_add_signed(Duration::days(n)),
        "week" | "weekend" => anchor.checked_add_signed(Duration::weeks(n)),
        "month" | "year" => {
            let per = if unit == "year" { 12 } else { 1 };
            let months = Months::new(u32::try_from(n.unsigned_abs().checked_mul(per)?).ok()?);
            if n < 0 {
                anchor.checked_sub_months(months)
            } else {
                anchor.checked_add_months(months)
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
