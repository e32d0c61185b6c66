//! The calendar of named days: which date "Boxing Day", "Good Friday", "Labor Day" or
//! "Thanksgiving" is in a given year. Fixed days have a month and a day; movable ones a
//! rule (the nth weekday of a month, or an offset from Easter, computed by the Gregorian
//! computus). A name shared by several countries takes the reading most writers mean:
//! "Thanksgiving" and "Mother's Day" are the US ones, "Mothering Sunday" the UK's.
//!
//! Pure functions; placing the day before or after a memory is `resolve`'s job.

use chrono::{Datelike, Duration, NaiveDate, Weekday};

/// How a named day is found in a year.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// The same month and day every year.
    Fixed(u32, u32),
    /// The nth (1-based) weekday of a month; 0 is the last.
    Nth(u32, Weekday, u32),
    /// Days from Easter Sunday.
    Easter(i64),
}

/// Named days by a word their name contains, the first that matches. Longer names come
/// before the shorter ones they contain ("christmas eve" before "christmas").
const DAYS: &[(&str, Rule)] = &[
    ("christmas eve", Rule::Fixed(12, 24)),
    ("christmas", Rule::Fixed(12, 25)),
    ("boxing", Rule::Fixed(12, 26)),
    ("new year's eve", Rule::Fixed(12, 31)),
    ("new years eve", Rule::Fixed(12, 31)),
    ("hogmanay", Rule::Fixed(12, 31)),
    ("new year", Rule::Fixed(1, 1)),
    ("halloween", Rule::Fixed(10, 31)),
    ("valentine", Rule::Fixed(2, 14)),
    ("bonfire", Rule::Fixed(11, 5)),
    ("guy fawkes", Rule::Fixed(11, 5)),
    ("patrick", Rule::Fixed(3, 17)),
    ("independence day", Rule::Fixed(7, 4)),
    ("juneteenth", Rule::Fixed(6, 19)),
    ("veterans day", Rule::Fixed(11, 11)),
    ("good friday", Rule::Easter(-2)),
    ("holy saturday", Rule::Easter(-1)),
    ("maundy thursday", Rule::Easter(-3)),
    ("palm sunday", Rule::Easter(-7)),
    ("ash wednesday", Rule::Easter(-46)),
    ("shrove tuesday", Rule::Easter(-47)),
    ("pancake day", Rule::Easter(-47)),
    ("mothering sunday", Rule::Easter(-21)),
    ("easter monday", Rule::Easter(1)),
    ("whit", Rule::Easter(49)),
    ("pentecost", Rule::Easter(49)),
    ("easter", Rule::Easter(0)),
    ("martin luther king", Rule::Nth(1, Weekday::Mon, 3)),
    ("mlk", Rule::Nth(1, Weekday::Mon, 3)),
    ("president", Rule::Nth(2, Weekday::Mon, 3)),
    ("mother", Rule::Nth(5, Weekday::Sun, 2)),
    ("memorial day", Rule::Nth(5, Weekday::Mon, 0)),
    ("spring bank holiday", Rule::Nth(5, Weekday::Mon, 0)),
    ("early may bank holiday", Rule::Nth(5, Weekday::Mon, 1)),
    ("may bank holiday", Rule::Nth(5, Weekday::Mon, 1)),
    ("father", Rule::Nth(6, Weekday::Sun, 3)),
    ("summer bank holiday", Rule::Nth(8, Weekday::Mon, 0)),
    ("august bank holiday", Rule::Nth(8, Weekday::Mon, 0)),
    ("labor day", Rule::Nth(9, Weekday::Mon, 1)),
    ("labour day", Rule::Nth(9, Weekday::Mon, 1)),
    ("columbus day", Rule::Nth(10, Weekday::Mon, 2)),
    ("remembrance sunday", Rule::Nth(11, Weekday::Sun, 2)),
    ("thanksgiving", Rule::Nth(11, Weekday::Thu, 4)),
];

/// The UK's movable bank holidays, for a bare "bank holiday Monday".
const BANK_HOLIDAYS: &[&str] = &[
    "easter monday",
    "early may bank holiday",
    "spring bank holiday",
    "summer bank holiday",
];

/// The date of the named day `name` (lower case, as written) in `year`.
pub fn in_year(name: &str, year: i32) -> Option<NaiveDate> {
    let (_, rule) = DAYS.iter().find(|(word, _)| name.contains(word))?;
    date_of(*rule, year)
}

/// The dates a "bank holiday" may mean in `year`, in calendar order.
pub fn bank_holidays(year: i32) -> Vec<NaiveDate> {
    BANK_HOLIDAYS.iter().filter_map(|name| in_year(name, year)).collect()
}

fn date_of(rule: Rule, year: i32) -> Option<NaiveDate> {
    match rule {
        Rule::Fixed(m, d) => NaiveDate::from_ymd_opt(year, m, d),
        Rule::Nth(m, wd, 0) => {
            let next = if m == 12 {
                NaiveDate::from_ymd_opt(year + 1, 1, 1)
            } else {
                NaiveDate::from_ymd_opt(year, m + 1, 1)
            }?;
            let last = next.pred_opt()?;
            let back = (7 + last.weekday().num_days_from_monday() - wd.num_days_from_monday()) % 7;
            last.checked_sub_signed(Duration::days(i64::from(back)))
        }
        Rule::Nth(m, wd, n) => NaiveDate::from_weekday_of_month_opt(year, m, wd, u8::try_from(n).ok()?),
        Rule::Easter(offset) => easter(year)?.checked_add_signed(Duration::days(offset)),
    }
}

/// Easter Sunday of `year` (Gregorian; the anonymous algorithm of 1876).
fn easter(year: i32) -> Option<NaiveDate> {
    let a = year.rem_euclid(19);
    let (b, c) = (year.div_euclid(100), year.rem_euclid(100));
    let (d, e) = (b / 4, b % 4);
    let f = (b + 8) / 25;
    let g = (b - f + 1) / 3;
    let h = (19 * a + b - d - g + 15).rem_euclid(30);
    let (i, k) = (c / 4, c % 4);
    let l = (32 + 2 * e + 2 * i - h - k).rem_euclid(7);
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    NaiveDate::from_ymd_opt(year, u32::try_from(month).ok()?, u32::try_from(day).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> Option<NaiveDate> {
        NaiveDate::from_ymd_opt(y, m, day)
    }

    #[test]
    fn easter_and_the_days_it_moves() {
        // Published dates of Easter Sunday.
        for (y, m, day) in [
            (2019, 4, 21),
            (2022, 4, 17),
            (2023, 4, 9),
            (2024, 3, 31),
            (2025, 4, 20),
            (2038, 4, 25),
        ] {
            assert_eq!(easter(y), d(y, m, day), "{y}");
        }
        assert_eq!(in_year("good friday", 2025), d(2025, 4, 18));
        assert_eq!(in_year("holy saturday", 2025), d(2025, 4, 19));
        assert_eq!(in_year("easter monday", 2026), d(2026, 4, 6));
        assert_eq!(in_year("mothering sunday", 2024), d(2024, 3, 10));
        assert_eq!(in_year("easter", 2024), d(2024, 3, 31));
    }

    #[test]
    fn nth_and_last_weekdays() {
        assert_eq!(in_year("memorial day", 2023), d(2023, 5, 29));
        assert_eq!(in_year("memorial day", 2022), d(2022, 5, 30));
        assert_eq!(in_year("labor day", 2021), d(2021, 9, 6));
        assert_eq!(in_year("thanksgiving", 2022), d(2022, 11, 24));
        assert_eq!(in_year("thanksgiving", 2024), d(2024, 11, 28));
        assert_eq!(in_year("mlk day", 2024), d(2024, 1, 15));
        assert_eq!(in_year("presidents' day", 2023), d(2023, 2, 20));
        assert_eq!(in_year("mother's day", 2023), d(2023, 5, 14));
        assert_eq!(in_year("father's day", 2023), d(2023, 6, 18));
        assert_eq!(in_year("summer bank holiday", 2023), d(2023, 8, 28));
        assert_eq!(in_year("early may bank holiday", 2023), d(2023, 5, 1));
        assert_eq!(
            bank_holidays(2024),
            vec![
                d(2024, 4, 1).unwrap_or_default(),
                d(2024, 5, 6).unwrap_or_default(),
                d(2024, 5, 27).unwrap_or_default(),
                d(2024, 8, 26).unwrap_or_default()
            ]
        );
        assert_eq!(in_year("christmas eve", 2022), d(2022, 12, 24));
        assert_eq!(in_year("no such day", 2022), None);
    }
}
