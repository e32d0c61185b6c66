#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Labeller #1 — calendar arithmetic.

Reads items.txt (kind | rule | ref | expression | text) and writes sentences.jsonl.
Every accepted range is computed here from (rule, ref) with date arithmetic only
(timedelta, weekday offsets, month/year/quarter index arithmetic).  check.py contains an
independent implementation that enumerates calendar days instead.

Usage:  python3 label.py            (writes sentences.jsonl)
        from label import compute   (compute(rule, ref) -> list of (start, end) dates)
"""
import calendar
import json
import sys
from datetime import date, timedelta

DOW = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
D1 = timedelta(days=1)


# ------------------------------------------------------------------ helpers
def days(n):
    return timedelta(days=n)


def monday_of(d):
    return d - days(d.weekday())


def week_range(d, k=0):
    """Mon-Sun week containing d, shifted by k weeks."""
    m = monday_of(d) + days(7 * k)
    return (m, m + days(6))


def month_shift(y, m, k):
    t = y * 12 + (m - 1) + k
    return t // 12, t % 12 + 1


def month_range(y, m):
    return (date(y, m, 1), date(y, m, calendar.monthrange(y, m)[1]))


def year_range(y):
    return (date(y, 1, 1), date(y, 12, 31))


def quarter_range(y, q):
    m0 = 3 * (q - 1) + 1
    return (date(y, m0, 1), month_range(y, m0 + 2)[1])


def season_range(season, y):
    """Northern meteorological seasons; winter Y = Dec Y .. end of Feb Y+1."""
    if season == "spring":
        return (date(y, 3, 1), date(y, 5, 31))
    if season == "summer":
        return (date(y, 6, 1), date(y, 8, 31))
    if season in ("fall", "autumn"):
        return (date(y, 9, 1), date(y, 11, 30))
    if season == "winter":
        return (date(y, 12, 1), month_range(y + 1, 2)[1])
    raise ValueError(season)


def safe_date(y, m, d):
    try:
        return date(y, m, d)
    except ValueError:
        return None


def prev_weekday(ref, w):
    """Most recent weekday w strictly before ref."""
    back = (ref.weekday() - w) % 7 or 7
    return ref - days(back)


def next_weekday(ref, w):
    """First weekday w strictly after ref."""
    ahead = (w - ref.weekday()) % 7 or 7
    return ref + days(ahead)


def one(d):
    return (d, d)


# ------------------------------------------------------------------ rules
def compute(rule, ref):
    """Return the list of accepted (start, end) ranges, primary reading first, deduplicated."""
    out = _compute(rule, ref)
    seen, res = set(), []
    for r in out:
        assert r[0] <= r[1], (rule, ref, r)
        if r not in seen:
            seen.add(r)
            res.append(r)
    return res


def _compute(rule, ref):
    if rule == "none":
        return []
    if rule.startswith("since:"):
        inner = compute(rule[len("since:"):], ref)
        out = []
        for s, e in inner:
            assert s <= ref, "since: X must start before ref"
            out += [(s, e), (s, ref)]
        return out

    head, _, arg = rule.partition(":")

    if head == "day":                       # yesterday, today, N days ago, in N days ...
        return [one(ref + days(int(arg)))]
    if head == "weeks":                     # N weeks ago / in N weeks: the week and the day
        x = ref + days(7 * int(arg))
        return [week_range(x), one(x)]
    if head == "months":                    # N months ago / in N months: the month and the day
        assert ref.day <= 28
        y, m = month_shift(ref.year, ref.month, int(arg))
        return [month_range(y, m), one(date(y, m, ref.day))]
    if head == "years":
        return [year_range(ref.year + int(arg))]

    if head == "week":
        return [week_range(ref, int(arg))]
    if head == "week_earlier":
        assert ref.weekday() > 0
        mon, sun = week_range(ref)
        return [(mon, ref - D1), (mon, sun)]
    if head == "week_later":
        assert ref.weekday() < 6
        mon, sun = week_range(ref)
        return [(ref + D1, sun), (mon, sun)]
    if head == "week_of":
        return [week_range(date.fromisoformat(arg))]
    if head == "week_before":
        x = date.fromisoformat(arg)
        return [week_range(x, -1), (x - days(7), x - D1)]
    if head == "week_after":
        x = date.fromisoformat(arg)
        return [week_range(x, 1), (x + D1, x + days(7))]

    if head in ("wd_past", "wd_future", "wd_last", "wd_this", "wd_next"):
        w = DOW.index(arg)
        if head == "wd_past":
            return [one(prev_weekday(ref, w))]
        if head == "wd_future":
            return [one(next_weekday(ref, w))]
        if head == "wd_last":
            x = prev_weekday(ref, w)
            out = [one(x)]
            if x == ref - D1:
                out.append(one(x - days(7)))
            return out
        if head == "wd_this":
            assert ref.weekday() < w
            return [one(monday_of(ref) + days(w))]
        if head == "wd_next":
            return [one(next_weekday(ref, w)), one(monday_of(ref) + days(7 + w))]

    if head in ("we_last", "we_before_last"):
        sun = prev_weekday(ref, 6)          # latest Sunday strictly before ref
        if head == "we_before_last":
            sun -= days(7)
        return [(sun - D1, sun)]
    if head == "we_this":
        m = monday_of(ref)
        return [(m + days(5), m + days(6))]
    if head == "we_next":
        m = monday_of(ref)
        return [(m + days(12), m + days(13))]

    if head == "mon":
        return [month_range(*month_shift(ref.year, ref.month, int(arg)))]
    if head == "mon_earlier":
        assert ref.day > 1
        s, e = month_range(ref.year, ref.month)
        return [(s, ref - D1), (s, e)]
    if head == "mon_past":
        m = int(arg)
        y = ref.year if m <= ref.month else ref.year - 1
        return [month_range(y, m)]
    if head == "mon_future":
        m = int(arg)
        y = ref.year if m >= ref.month else ref.year + 1
        return [month_range(y, m)]

    if head == "yr":
        return [year_range(ref.year + int(arg))]
    if head == "yr_earlier":
        s, e = year_range(ref.year)
        assert ref > s
        return [(s, ref - D1), (s, e)]
    if head == "yr_later":
        s, e = year_range(ref.year)
        assert ref < e
        return [(ref + D1, e), (s, e)]

    if head in ("md_past", "md_future"):
        m, d = map(int, arg.split("-"))
        y = ref.year
        step = -1 if head == "md_past" else 1
        while True:
            x = safe_date(y, m, d)
            if x is not None and (x <= ref if step < 0 else x >= ref):
                return [one(x)]
            y += step
    if head == "dom_past":
        d = int(arg)
        assert d <= 28
        if ref.day >= d:
            return [one(date(ref.year, ref.month, d))]
        y, m = month_shift(ref.year, ref.month, -1)
        return [one(date(y, m, d))]
    if head == "dom_future":
        d = int(arg)
        assert d <= 28
        if ref.day <= d:
            return [one(date(ref.year, ref.month, d))]
        y, m = month_shift(ref.year, ref.month, 1)
        return [one(date(y, m, d))]

    if head == "date":
        return [one(date.fromisoformat(arg))]
    if head == "date_pm":
        ds, n = arg.rsplit(":", 1)
        return [one(date.fromisoformat(ds) + days(int(n)))]
    if head == "numamb":
        return [one(date.fromisoformat(x)) for x in arg.split(",")]
    if head == "ym":
        y, m = map(int, arg.split("-"))
        return [month_range(y, m)]
    if head == "y":
        return [year_range(int(arg))]

    if head == "sea_last":
        y = ref.year
        while season_range(arg, y)[1] >= ref:
            y -= 1
        return [season_range(arg, y)]
    if head == "sea_this":
        assert arg != "winter"
        return [season_range(arg, ref.year)]
    if head == "sea_year":
        s, y = arg.split(":")
        return [season_range(s, int(y))]

    if head == "q":
        q, y = map(int, arg.split(":"))
        return [quarter_range(y, q)]
    if head == "q_rel":
        t = ref.year * 4 + (ref.month - 1) // 3 + int(arg)
        return [quarter_range(t // 4, t % 4 + 1)]

    raise ValueError("unknown rule %r" % rule)


# ------------------------------------------------------------------ items.txt
def read_items(path="items.txt"):
    items = []
    for line in open(path, encoding="utf-8").read().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        kind, rule, refspec, expr, text = [p.strip() for p in line.split(" | ")]
        ref = refspec.split(";")[0]
        items.append(dict(kind=kind, rule=rule, ref=ref, refspec=refspec,
                          expression=None if expr == "-" else expr, text=text))
    for i, it in enumerate(items, 1):
        it["id"] = "h%04d" % i
    return items


def main():
    items = read_items()
    with open("sentences.jsonl", "w", encoding="utf-8") as f:
        for it in items:
            ref = date.fromisoformat(it["ref"])
            acc = [{"start": s.isoformat(), "end": e.isoformat()} for s, e in compute(it["rule"], ref)]
            rec = {"id": it["id"], "text": it["text"], "ref": it["ref"], "expression": it["expression"],
                   "accept": acc, "kind": it["kind"], "split": "holdout"}
            f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print("wrote %d sentences to sentences.jsonl" % len(items), file=sys.stderr)


if __name__ == "__main__":
    main()
