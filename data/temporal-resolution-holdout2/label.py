#!/usr/bin/env python3
"""label.py - compute accepted ranges for the holdout2 set by CALENDAR ARITHMETIC.

Reads items.txt (kind | ref | rule | expression | text), resolves every rule with
direct date arithmetic (weekday offsets, month/year/quarter index arithmetic) and
writes sentences.jsonl.  Standard library only.

check.py contains a second, independent implementation of the same rules that
enumerates calendar days and tests each day against the rule.

Usage:  python3 label.py            # writes sentences.jsonl next to this file
"""
import calendar
import datetime as dt
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ONE = dt.timedelta(days=1)

WEEKDAYS = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}
MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_abbr) if m}
SEASON_START = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}


class RuleError(Exception):
    pass


def D(s):
    return dt.date.fromisoformat(s)


def days(n):
    return dt.timedelta(days=n)


# ---------------------------------------------------------------- primitives
def monday_of(d):
    return d - days(d.weekday())


def week_range(monday):
    return (monday, monday + days(6))


def add_months(y, m, k):
    """(y, m) shifted by k months."""
    idx = y * 12 + (m - 1) + k
    return idx // 12, idx % 12 + 1


def month_range(y, m):
    return (dt.date(y, m, 1), dt.date(y, m, calendar.monthrange(y, m)[1]))


def year_range(y):
    return (dt.date(y, 1, 1), dt.date(y, 12, 31))


def quarter_range(y, q):
    first_month = 3 * (q - 1) + 1
    start = dt.date(y, first_month, 1)
    ey, em = add_months(y, first_month, 2)
    return (start, month_range(ey, em)[1])


def season_range(name, y):
    """Season `name` starting in year y (winter y = Dec y .. end of Feb y+1)."""
    sm = SEASON_START[name]
    start = dt.date(y, sm, 1)
    ey, em = add_months(y, sm, 2)
    return (start, month_range(ey, em)[1])


def prev_weekday_strict(ref, w):
    """Most recent weekday w strictly before ref."""
    back = (ref.weekday() - w - 1) % 7 + 1  # 1..7
    return ref - days(back)


def next_weekday_strict(ref, w):
    """First weekday w strictly after ref."""
    fwd = (w - ref.weekday() - 1) % 7 + 1  # 1..7
    return ref + days(fwd)


def safe_date(y, m, d):
    try:
        return dt.date(y, m, d)
    except ValueError:
        return None


def md_past(ref, m, d):
    y = ref.year
    while True:
        c = safe_date(y, m, d)
        if c is not None and c <= ref:
            return c
        y -= 1
        if y < ref.year - 8:
            raise RuleError("no past month-day")


def md_future(ref, m, d):
    y = ref.year
    while True:
        c = safe_date(y, m, d)
        if c is not None and c >= ref:
            return c
        y += 1
        if y > ref.year + 8:
            raise RuleError("no future month-day")


def single(d):
    return (d, d)


# ---------------------------------------------------------------- rules
def resolve(rule, ref):
    """Return the list of accepted (start, end) date pairs for `rule` at `ref`."""
    name, _, arg = rule.partition(":")

    if name == "none":
        return []

    if name == "since":
        inner = resolve(arg, ref)
        out = list(inner)
        for s, _e in inner:
            if s > ref:
                raise RuleError("since: start after ref")
            out.append((s, ref))
        return out

    if name == "day":
        return [single(ref + days(int(arg)))]

    if name in ("wd_past", "wd_future", "wd_last", "wd_this", "wd_next"):
        w = WEEKDAYS[arg]
        if name == "wd_past":
            return [single(prev_weekday_strict(ref, w))]
        if name == "wd_future":
            return [single(next_weekday_strict(ref, w))]
        if name == "wd_last":
            d = prev_weekday_strict(ref, w)
            out = [single(d)]
            if ref - d == ONE:
                out.append(single(d - days(7)))
            return out
        if name == "wd_this":
            if not ref.weekday() < w:
                raise RuleError("'this <weekday>' only used before that weekday")
            return [single(monday_of(ref) + days(w))]
        if name == "wd_next":
            return [single(next_weekday_strict(ref, w)),
                    single(monday_of(ref) + days(7 + w))]

    if name == "week":
        return [week_range(monday_of(ref) + days(7 * int(arg)))]
    if name == "weeks_ago":
        t = ref - days(7 * int(arg))
        return [week_range(monday_of(t)), single(t)]
    if name == "in_weeks":
        t = ref + days(7 * int(arg))
        return [week_range(monday_of(t)), single(t)]
    if name == "week_earlier":
        if ref.weekday() == 0:
            raise RuleError("'earlier this week' not used on a Monday")
        mon = monday_of(ref)
        return [(mon, ref - ONE), week_range(mon)]
    if name == "week_of_date":
        return [week_range(monday_of(D(arg)))]
    if name == "week_before_date":
        x = D(arg)
        return [week_range(monday_of(x) - days(7)), (x - days(7), x - ONE)]
    if name == "week_after_date":
        x = D(arg)
        return [week_range(monday_of(x) + days(7)), (x + ONE, x + days(7))]

    if name == "day_rel":
        s, n = arg.rsplit(":", 1)
        return [single(D(s) + days(int(n)))]

    if name == "wkend":
        sat = monday_of(ref) + days(7 * int(arg) + 5)
        return [(sat, sat + ONE)]
    if name == "wkend_past":
        if ref.weekday() >= 5:
            raise RuleError("bare past 'the weekend' only used on Mon-Fri refs")
        sat = monday_of(ref) - days(2)
        return [(sat, sat + ONE)]
    if name == "wkend_future":
        if ref.weekday() >= 5:
            raise RuleError("bare future 'the weekend' only used on Mon-Fri refs")
        sat = monday_of(ref) + days(5)
        return [(sat, sat + ONE)]

    if name == "month":
        return [month_range(*add_months(ref.year, ref.month, int(arg)))]
    if name == "months_ago":
        if ref.day > 28:
            raise RuleError("months_ago only with ref day 1..28")
        y, m = add_months(ref.year, ref.month, -int(arg))
        return [month_range(y, m), single(dt.date(y, m, ref.day))]
    if name == "month_earlier":
        if ref.day == 1:
            raise RuleError("'earlier this month' not used on day 1")
        first = ref.replace(day=1)
        return [(first, ref - ONE), month_range(ref.year, ref.month)]
    if name == "mname_past":
        m = MONTHS[arg]
        y = ref.year if m <= ref.month else ref.year - 1
        return [month_range(y, m)]
    if name == "mname_future":
        m = MONTHS[arg]
        y = ref.year if m >= ref.month else ref.year + 1
        return [month_range(y, m)]

    if name == "year":
        return [year_range(ref.year + int(arg))]
    if name == "year_earlier":
        if (ref.month, ref.day) == (1, 1):
            raise RuleError("'earlier this year' not used on 1 January")
        return [(dt.date(ref.year, 1, 1), ref - ONE), year_range(ref.year)]

    if name in ("md_past", "md_future"):
        m, d = (int(x) for x in arg.split("-"))
        f = md_past if name == "md_past" else md_future
        return [single(f(ref, m, d))]

    if name == "date":
        return [single(D(arg))]
    if name == "ym":
        y, m = (int(x) for x in arg.split("-"))
        return [month_range(y, m)]
    if name == "y":
        return [year_range(int(arg))]
    if name == "slash":  # a/b/yyyy: month/day and day/month, whichever are valid
        a, b, y = (int(x) for x in arg.split("/"))
        out = []
        for m, d in ((a, b), (b, a)):
            c = safe_date(y, m, d)
            if c is not None and single(c) not in out:
                out.append(single(c))
        if not out:
            raise RuleError("invalid numeric date")
        return out
    if name == "dot":  # dd.mm.yyyy
        d, m, y = (int(x) for x in arg.split("."))
        return [single(dt.date(y, m, d))]

    if name == "season_last":
        y = ref.year
        while season_range(arg, y)[1] >= ref:
            y -= 1
        return [season_range(arg, y)]
    if name == "season_this":
        if arg == "winter":
            raise RuleError("'this winter' is not used")
        return [season_range(arg, ref.year)]
    if name == "season_year":
        s, y = arg.split(":")
        if s == "winter":
            raise RuleError("'winter YYYY' is not used")
        return [season_range(s, int(y))]

    if name == "q":
        y, q = (int(x) for x in arg.split(":"))
        return [quarter_range(y, q)]
    if name == "qrel":
        idx = ref.year * 4 + (ref.month - 1) // 3 + int(arg)
        return [quarter_range(idx // 4, idx % 4 + 1)]

    raise RuleError("unknown rule " + rule)


def dedupe(ranges):
    out = []
    for r in ranges:
        if r not in out:
            out.append(r)
    return out


# ---------------------------------------------------------------- io
def read_items(path=os.path.join(HERE, "items.txt")):
    items = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split(" | ")
            if len(parts) != 5:
                raise SystemExit(f"items.txt:{lineno}: expected 5 fields, got {len(parts)}")
            kind, ref, rule, expr, text = (p.strip() for p in parts)
            items.append({
                "id": "u%04d" % (len(items) + 1),
                "kind": kind, "ref": ref, "rule": rule,
                "expression": None if expr == "-" else expr,
                "text": text, "lineno": lineno,
            })
    return items


def label_item(it):
    ranges = dedupe(resolve(it["rule"], D(it["ref"])))
    return [{"start": s.isoformat(), "end": e.isoformat()} for s, e in ranges]


def main():
    items = read_items()
    out_path = os.path.join(HERE, "sentences.jsonl")
    with open(out_path, "w", encoding="utf-8") as fh:
        for it in items:
            try:
                accept = label_item(it)
            except (RuleError, ValueError, KeyError) as e:
                raise SystemExit(f"items.txt:{it['lineno']}: {it['rule']} @ {it['ref']}: {e}")
            rec = {
                "id": it["id"], "text": it["text"], "ref": it["ref"],
                "expression": it["expression"], "accept": accept,
                "kind": it["kind"], "split": "holdout2",
            }
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(f"wrote {len(items)} sentences to {out_path}", file=sys.stderr)


if __name__ == "__main__":
    main()
