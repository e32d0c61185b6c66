# SPDX-License-Identifier: Apache-2.0
"""label.py - compute the accepted ranges of holdout4 from source.txt.

Implementation 1 of 2: plain calendar arithmetic with datetime.date and
timedelta.  Reads source.txt (ref | kind | rule | expression | register | text),
computes the ranges for each reading rule, shuffles the sentences with a fixed
seed, writes sentences.jsonl and SHA256SUMS.  Python standard library only.
"""
import hashlib
import json
import os
import random
import sys
from datetime import date, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "source.txt")
OUT = os.path.join(HERE, "sentences.jsonl")
SUMS = os.path.join(HERE, "SHA256SUMS")
SEED = 20261128
SPLIT = "holdout4"

WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
DAY = timedelta(days=1)


class RuleError(Exception):
    pass


def parse_source(path=SOURCE):
    rows = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split(" | ")]
            if len(parts) != 6:
                raise RuleError("line %d: expected 6 fields, got %d" % (lineno, len(parts)))
            ref, kind, rule, expr, register, text = parts
            rows.append({
                "lineno": lineno, "ref": ref, "kind": kind, "rule": rule,
                "expression": None if expr == "-" else expr,
                "register": register, "text": text,
            })
    return rows


# ---------------------------------------------------------------- helpers
def d(s):
    return date.fromisoformat(s)


def monday_of(x):
    return x - timedelta(days=x.weekday())


def week_range(x):
    m = monday_of(x)
    return (m, m + timedelta(days=6))


def shift_month(y, m, k):
    idx = y * 12 + (m - 1) + k
    return idx // 12, idx % 12 + 1


def month_range(y, m):
    start = date(y, m, 1)
    ny, nm = shift_month(y, m, 1)
    return (start, date(ny, nm, 1) - DAY)


def year_range(y):
    return (date(y, 1, 1), date(y, 12, 31))


def quarter_range(y, q):
    start = date(y, 3 * (q - 1) + 1, 1)
    end = month_range(y, 3 * q)[1]
    return (start, end)


SEASON_MONTHS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}


def season_range(name, y):
    """Season `name` whose first month lies in year y (winter: Dec y - Feb y+1)."""
    first = SEASON_MONTHS[name]
    start = date(y, first, 1)
    ly, lm = shift_month(y, first, 2)
    return (start, month_range(ly, lm)[1])


def wd_index(name):
    return WEEKDAYS.index(name)


def mon_index(name):
    return MONTHS.index(name) + 1


def one(x):
    return (x, x)


def parse_num_date(s):
    a, b, y = s.split("/")
    a, b, y = int(a), int(b), int(y)
    out = []
    for m, dd in ((a, b), (b, a)):  # month-first reading, then day-first
        try:
            out.append(one(date(y, m, dd)))
        except ValueError:
            pass
    if not out:
        raise RuleError("no valid reading of %s" % s)
    return out


# ---------------------------------------------------------------- rules
def resolve(rule, ref):
    """Return the list of accepted (start, end) date pairs."""
    if rule in ("vague", "distractor"):
        return []
    if rule.startswith("since/"):
        inner = resolve(rule[len("since/"):], ref)
        if not inner:
            raise RuleError("since/ needs a dated rule")
        start = inner[0][0]
        if start > ref:
            raise RuleError("since/: start after ref")
        return inner + [(start, ref)]

    name, _, arg = rule.partition(":")
    wd = ref.weekday()

    if name in ("rel_day", "in_days"):
        return [one(ref + timedelta(days=int(arg)))]
    if name == "nago_days":
        return [one(ref - timedelta(days=int(arg)))]
    if name in ("nago_weeks", "in_weeks"):
        n = int(arg) * (-1 if name == "nago_weeks" else 1)
        x = ref + timedelta(days=7 * n)
        return [week_range(x), one(x)]
    if name == "nago_months":
        if ref.day > 28:
            raise RuleError("nago_months needs ref day <= 28")
        y, m = shift_month(ref.year, ref.month, -int(arg))
        return [month_range(y, m), one(date(y, m, ref.day))]
    if name == "nago_years":
        if int(arg) < 2:
            raise RuleError("N years ago needs N >= 2")
        return [year_range(ref.year - int(arg))]

    # weekdays
    if name == "wd_past":
        back = (wd - wd_index(arg)) % 7 or 7
        return [one(ref - timedelta(days=back))]
    if name == "wd_future":
        ahead = (wd_index(arg) - wd) % 7 or 7
        return [one(ref + timedelta(days=ahead))]
    if name == "wd_last":
        back = (wd - wd_index(arg)) % 7 or 7
        x = ref - timedelta(days=back)
        if back == 1:
            return [one(x), one(x - timedelta(days=7))]
        return [one(x)]
    if name == "wd_this":
        if wd_index(arg) <= wd:
            raise RuleError("this <weekday> must be said before that weekday")
        return [one(monday_of(ref) + timedelta(days=wd_index(arg)))]
    if name == "wd_next":
        ahead = (wd_index(arg) - wd) % 7 or 7
        a = ref + timedelta(days=ahead)
        b = monday_of(ref) + timedelta(days=7 + wd_index(arg))
        return [one(a)] if a == b else [one(a), one(b)]
    if name == "wd_lastweek":
        return [one(monday_of(ref) + timedelta(days=-7 + wd_index(arg)))]
    if name == "wd_nextweek":
        return [one(monday_of(ref) + timedelta(days=7 + wd_index(arg)))]

    # weeks
    weeks = {"week_this": 0, "week_last": -1, "week_before_last": -2, "week_next": 1}
    if name in weeks:
        return [week_range(ref + timedelta(days=7 * weeks[name]))]
    if name == "week_earlier_this":
        if wd == 0:
            raise RuleError("earlier this week needs a ref after Monday")
        return [(monday_of(ref), ref - DAY), week_range(ref)]
    if name == "week_of":
        return [week_range(d(arg))]
    if name == "week_before":
        x = d(arg)
        return [week_range(x - timedelta(days=7)), (x - timedelta(days=7), x - DAY)]

    # weekends (Saturday-Sunday of a Monday-Sunday week)
    weekends = {"we_this": 0, "we_last": -1, "we_this_past": -1,
                "we_before_last": -2, "we_next": 1}
    if name in weekends:
        if name == "we_this_past" and wd >= 5:
            raise RuleError("this past weekend only with Monday-Friday refs")
        m = monday_of(ref) + timedelta(days=7 * weekends[name])
        return [(m + timedelta(days=5), m + timedelta(days=6))]

    # months
    months = {"mon_this": 0, "mon_last": -1, "mon_end_last": -1,
              "mon_before_last": -2, "mon_next": 1}
    if name in months:
        return [month_range(*shift_month(ref.year, ref.month, months[name]))]
    if name == "mon_past":
        m = mon_index(arg)
        return [month_range(ref.year if m <= ref.month else ref.year - 1, m)]
    if name == "mon_future":
        m = mon_index(arg)
        return [month_range(ref.year if m >= ref.month else ref.year + 1, m)]

    # years
    years = {"yr_this": 0, "yr_last": -1, "yr_before_last": -2, "yr_next": 1}
    if name in years:
        return [year_range(ref.year + years[name])]

    # month-day without a year
    if name in ("md_past", "md_future"):
        mm, dd = (int(v) for v in arg.split("-"))
        x = date(ref.year, mm, dd)
        if name == "md_past" and x > ref:
            x = date(ref.year - 1, mm, dd)
        if name == "md_future" and x < ref:
            x = date(ref.year + 1, mm, dd)
        return [one(x)]

    # explicit
    if name == "date":
        return [one(d(arg))]
    if name == "ym":
        y, m = arg.split("-")
        return [month_range(int(y), int(m))]
    if name == "y":
        return [year_range(int(arg))]
    if name == "num":
        return parse_num_date(arg)
    if name == "dot":
        dd, mm, yy = (int(v) for v in arg.split("."))
        return [one(date(yy, mm, dd))]
    if name == "day_before":
        return [one(d(arg) - DAY)]
    if name == "day_after":
        return [one(d(arg) + DAY)]

    # seasons
    if name == "season_last":
        for y in (ref.year, ref.year - 1, ref.year - 2):
            s, e = season_range(arg, y)
            if e < ref:
                return [(s, e)]
        raise RuleError("no completed season")
    if name == "season_this":
        if arg == "winter":
            raise RuleError("'this winter' is not used")
        return [season_range(arg, ref.year)]
    if name == "season_year":
        sname, y = arg.split(":")
        if sname == "winter":
            raise RuleError("winter with a year is not used")
        return [season_range(sname, int(y))]

    # quarters
    if name == "q":
        y, q = arg.split(":")
        return [quarter_range(int(y), int(q))]
    if name in ("q_this", "q_last"):
        q = (ref.month - 1) // 3 + 1
        y = ref.year
        if name == "q_last":
            q -= 1
            if q == 0:
                y, q = y - 1, 4
        return [quarter_range(y, q)]

    raise RuleError("unknown rule %r" % rule)


def dedupe(ranges):
    out = []
    for r in ranges:
        if r not in out:
            out.append(r)
    return out


def main():
    rows = parse_source()
    records = []
    for row in rows:
        try:
            ranges = dedupe(resolve(row["rule"], d(row["ref"])))
        except (RuleError, ValueError) as exc:
            sys.exit("source.txt line %d: %s" % (row["lineno"], exc))
        records.append({
            "text": row["text"], "ref": row["ref"], "expression": row["expression"],
            "accept": [{"start": s.isoformat(), "end": e.isoformat()} for s, e in ranges],
            "kind": row["kind"], "split": SPLIT,
        })
    random.Random(SEED).shuffle(records)
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for i, rec in enumerate(records, 1):
            rec = {"id": "r%04d" % i, **rec}
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    digest = hashlib.sha256(open(OUT, "rb").read()).hexdigest()
    with open(SUMS, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("%s  sentences.jsonl\n" % digest)
    print("label.py: wrote %d sentences to sentences.jsonl" % len(records))


if __name__ == "__main__":
    main()
