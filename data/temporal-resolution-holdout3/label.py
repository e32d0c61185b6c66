#!/usr/bin/env python3
"""label.py -- computes the accepted ranges of the holdout3 set by CALENDAR ARITHMETIC.

Reads source.txt (hand-written sentences with a kind-specific rule per sentence),
computes every accepted range from (rule, ref, tense encoded in the rule) with
date/timedelta arithmetic, and writes sentences.jsonl and SHA256SUMS.

The independent cross-check (enumeration of calendar days) lives in check.py.
Standard library only.
"""
import datetime as dt
import hashlib
import json
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
D = dt.date
DAY = dt.timedelta(days=1)

WEEKDAYS = {"Mon": 0, "Tue": 1, "Wed": 2, "Thu": 3, "Fri": 4, "Sat": 5, "Sun": 6}
MONTHS = {m: i + 1 for i, m in enumerate(
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"])}
KINDS = ["day-relative", "weekday", "week", "weekend", "month", "year", "month-day",
         "explicit", "season", "quarter", "n-ago", "future", "vague", "distractor"]


def parse_source(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split(" | ")
            if len(parts) != 6:
                sys.exit(f"source.txt:{lineno}: expected 6 fields, got {len(parts)}")
            ref, kind, rule, expr, reg, text = (p.strip() for p in parts)
            rows.append(dict(line=lineno, ref=ref, kind=kind, rule=rule,
                             expression=None if expr == "-" else expr, register=reg, text=text))
    return rows


# ---------- arithmetic helpers ----------
def monday(d):
    return d - dt.timedelta(days=d.weekday())


def shift_month(y, m, n):
    t = y * 12 + (m - 1) + n
    return t // 12, t % 12 + 1


def month_range(y, m):
    ny, nm = shift_month(y, m, 1)
    return D(y, m, 1), D(ny, nm, 1) - DAY


def year_range(y):
    return D(y, 1, 1), D(y, 12, 31)


def quarter_range(y, q):
    s, _ = month_range(y, 3 * q - 2)
    _, e = month_range(y, 3 * q)
    return s, e


SEASON_START = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}


def season_range(name, y):
    """Northern meteorological season that starts in year y."""
    sm = SEASON_START[name]
    ey, em = shift_month(y, sm, 2)
    return D(y, sm, 1), month_range(ey, em)[1]


def parse_explicit_day(s):
    for fmt in ("%Y-%m-%d", "%B %d, %Y", "%d %B %Y"):
        try:
            return dt.datetime.strptime(s, fmt).date()
        except ValueError:
            pass
    raise ValueError(f"cannot parse explicit date {s!r}")


def parse_numeric(s):
    m = re.fullmatch(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", s)
    if m:  # dotted = day.month.year
        return [D(int(m[3]), int(m[2]), int(m[1]))]
    m = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", s)
    if not m:
        raise ValueError(s)
    a, b, y = int(m[1]), int(m[2]), int(m[3])
    out = []
    for mo, da in ((a, b), (b, a)):  # month/day first, then day/month
        try:
            d = D(y, mo, da)
        except ValueError:
            continue
        if d not in out:
            out.append(d)
    return out


def one(d):
    return (d, d)


def compute(rule, ref, expr):
    """Return a list of (start, end) date tuples."""
    name, _, arg = rule.partition(":")
    if name == "since":
        out = []
        for s, e in compute(arg, ref, expr):
            assert s <= ref, (rule, ref)
            for r in ((s, e), (s, ref)):
                if r not in out:
                    out.append(r)
        return out
    if name in ("vague", "none"):
        return []
    if name == "day":
        return [one(ref + dt.timedelta(days=int(arg)))]
    if name == "wd_past":
        back = (ref.weekday() - WEEKDAYS[arg]) % 7 or 7
        return [one(ref - dt.timedelta(days=back))]
    if name == "wd_future":
        ahead = (WEEKDAYS[arg] - ref.weekday()) % 7 or 7
        return [one(ref + dt.timedelta(days=ahead))]
    if name == "wd_last":
        back = (ref.weekday() - WEEKDAYS[arg]) % 7 or 7
        d = ref - dt.timedelta(days=back)
        return [one(d)] + ([one(d - dt.timedelta(days=7))] if back == 1 else [])
    if name == "wd_this":
        assert ref.weekday() < WEEKDAYS[arg], f"'this {arg}' must be said before that day"
        return [one(monday(ref) + dt.timedelta(days=WEEKDAYS[arg]))]
    if name == "wd_next":
        ahead = (WEEKDAYS[arg] - ref.weekday()) % 7 or 7
        a = ref + dt.timedelta(days=ahead)
        b = monday(ref) + dt.timedelta(days=7 + WEEKDAYS[arg])
        return [one(a)] + ([one(b)] if b != a else [])
    if name == "wd_lastweek":
        return [one(monday(ref) + dt.timedelta(days=WEEKDAYS[arg] - 7))]
    if name == "wd_nextweek":
        return [one(monday(ref) + dt.timedelta(days=WEEKDAYS[arg] + 7))]
    if name == "week":
        s = monday(ref) + dt.timedelta(weeks=int(arg))
        return [(s, s + 6 * DAY)]
    if name in ("weeks_ago", "in_weeks"):
        sign = -1 if name == "weeks_ago" else 1
        d = ref + dt.timedelta(weeks=sign * int(arg))
        return [(monday(d), monday(d) + 6 * DAY), one(d)]
    if name == "earlier_week":
        assert ref.weekday() > 0, "'earlier this week' needs a ref after Monday"
        s = monday(ref)
        return [(s, ref - DAY), (s, s + 6 * DAY)]
    if name == "weekend":
        sat = monday(ref) + dt.timedelta(days=5 + 7 * int(arg))
        return [(sat, sat + DAY)]
    if name == "month":
        return [month_range(*shift_month(ref.year, ref.month, int(arg)))]
    if name == "months_ago":
        assert ref.day <= 28
        y, m = shift_month(ref.year, ref.month, -int(arg))
        return [month_range(y, m), one(D(y, m, ref.day))]
    if name == "year":
        return [year_range(ref.year + int(arg))]
    if name == "month_past":
        m = MONTHS[arg]
        return [month_range(ref.year if m <= ref.month else ref.year - 1, m)]
    if name == "month_future":
        m = MONTHS[arg]
        return [month_range(ref.year if m >= ref.month else ref.year + 1, m)]
    if name in ("md_past", "md_future"):
        mo, da = (int(x) for x in arg.split("-"))
        d = D(ref.year, mo, da)
        if name == "md_past" and d > ref:
            d = D(ref.year - 1, mo, da)
        if name == "md_future" and d < ref:
            d = D(ref.year + 1, mo, da)
        return [one(d)]
    if name == "date":
        return [one(parse_explicit_day(expr))]
    if name == "numdate":
        return [one(d) for d in parse_numeric(expr)]
    if name == "daterel":
        m = re.fullmatch(r"the day (before|after) (.+)", expr)
        d = parse_explicit_day(m[2])
        assert (m[1] == "before") == (int(arg) < 0)
        return [one(d + dt.timedelta(days=int(arg)))]
    if name == "yearx":
        return [year_range(int(expr))]
    if name == "monthx":
        d = dt.datetime.strptime(expr, "%B %Y").date()
        return [month_range(d.year, d.month)]
    if name == "week_of":
        s = monday(D.fromisoformat(arg))
        return [(s, s + 6 * DAY)]
    if name == "week_before":
        d = D.fromisoformat(arg)
        s = monday(d) - 7 * DAY
        out = [(s, s + 6 * DAY)]
        r = (d - 7 * DAY, d - DAY)
        return out + ([r] if r not in out else [])
    if name == "season_last":
        # most recent season of this name whose last day is before ref
        y = ref.year
        while season_range(arg, y)[1] >= ref:
            y -= 1
        return [season_range(arg, y)]
    if name == "season_this":
        assert arg != "winter"
        return [season_range(arg, ref.year)]
    if name == "season_year":
        s, y = arg.split(":")
        assert s != "winter"
        return [season_range(s, int(y))]
    if name == "quarter":
        y, q = arg.split(":")
        return [quarter_range(int(y), int(q))]
    if name == "quarter_rel":
        t = ref.year * 4 + (ref.month - 1) // 3 + int(arg)
        return [quarter_range(t // 4, t % 4 + 1)]
    raise ValueError(f"unknown rule {rule!r}")


def main():
    rows = parse_source(os.path.join(HERE, "source.txt"))
    # Deterministic shuffle so that kinds are interleaved in the released file.
    random.Random(20261127).shuffle(rows)
    out_path = os.path.join(HERE, "sentences.jsonl")
    with open(out_path, "w", encoding="utf-8") as f:
        for i, r in enumerate(rows, 1):
            assert r["kind"] in KINDS, r
            ref = D.fromisoformat(r["ref"])
            ranges = compute(r["rule"], ref, r["expression"])
            obj = {
                "id": f"v{i:04d}",
                "text": r["text"],
                "ref": r["ref"],
                "expression": r["expression"],
                "accept": [{"start": s.isoformat(), "end": e.isoformat()} for s, e in ranges],
                "kind": r["kind"],
                "split": "holdout3",
            }
            f.write(json.dumps(obj, ensure_ascii=False) + "\n")
    digest = hashlib.sha256(open(out_path, "rb").read()).hexdigest()
    with open(os.path.join(HERE, "SHA256SUMS"), "w") as f:
        f.write(f"{digest}  sentences.jsonl\n")
    print(f"wrote {len(rows)} sentences to {out_path}")


if __name__ == "__main__":
    main()
