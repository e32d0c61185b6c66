//! Time expressions in memory text and queries, at any reference date: the first eight
//! bytes pick the date, the rest is the text.
#![no_main]

use chrono::{Duration, NaiveDate, TimeZone, Utc};
use libfuzzer_sys::fuzz_target;
use subcog_core::temporal::{self, resolve};

fuzz_target!(|data: &[u8]| {
    let (head, rest) = data.split_at(data.len().min(8));
    let mut days = [0u8; 8];
    days[..head.len()].copy_from_slice(head);
    let offset = i64::from_le_bytes(days) % 200_000;
    let Some(base) = NaiveDate::from_ymd_opt(2000, 1, 1) else { return };
    let Some(day) = base.checked_add_signed(Duration::days(offset)) else { return };
    let text = String::from_utf8_lossy(rest);
    for order in [resolve::DateOrder::Mdy, resolve::DateOrder::Dmy] {
        let _ = resolve::resolve_all(&text, day, order);
    }
    let Some(noon) = day.and_hms_opt(12, 0, 0) else { return };
    let now = Utc.from_utc_datetime(&noon);
    let _ = temporal::query_range(&text, now);
    let _ = temporal::period(&text, now);
    let _ = temporal::bound(&text, now, temporal::Bound::Start);
    let _ = temporal::bound(&text, now, temporal::Bound::End);
});
