#!/usr/bin/env python3
"""check.py -- independent verification of sentences.jsonl for the holdout3 set.

1. Validates the file: JSON per line, required fields, unique ids, split, kind,
   expression occurs exactly once in text, valid dates, start <= end,
   accept == [] for vague/distractor, expression null only for distractors,
   SHA256SUMS matches.
2. Recomputes every accepted range WITHOUT calendar arithmetic: it enumerates
   all calendar days from 2000-01-01 to 2035-12-31, groups them into
   consecutive periods (ISO weeks, weekends, months, quarters, years, seasons),
   and tests each day / period against the rule written in source.txt.
   The result must equal the accept list produced by label.py (as a set).
3. Checks that the rule's argument agrees with the expression text
   (weekday name, month name, month+day, holiday, year, N).
Exit status 0 only if everything passes. Standard library only.
"""
import datetime as dt
import hashlib
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
KINDS = {"day-relative", "weekday", "week", "weekend", "month", "year", "month-day",
         "explicit", "season", "quarter", "n-ago", "future", "vague", "distractor"}

# ---------------- the calendar, enumerated ----------------
DAYS = []
_d = dt.date(2000, 1, 1)
while _d <= dt.date(2035, 12, 31):
    DAYS.append(_d)
    _d = _d + dt.timedelta(days=1)
POS = {d: i for i, d in enumerate(DAYS)}


def blocks(key):
    """Consecutive runs of days sharing key(day) (None = not part of any block)."""
    out, cur, cur_key = [], [], object()
    for d in DAYS:
        k = key(d)
        if k != cur_key:
            if cur and cur_key is not None:
                out.append((cur_key, cur[0], cur[-1]))
            cur, cur_key = [], k
        cur.append(d)
    if cur and cur_key is not None:
        out.append((cur_key, cur[0], cur[-1]))
    # drop truncated first/last block (window edges)
    return out[1:-1]


def season_key(d):
    m = int(d.strftime("%m"))
    if m in (3, 4, 5):
        return ("spring", d.year)
    if m in (6, 7, 8):
        return ("summer", d.year)
    if m in (9, 10, 11):
        return ("fall", d.year)
    return ("winter", d.year if m == 12 else d.year - 1)


WEEKS = blocks(lambda d: d.isocalendar()[:2])
WEEKENDS = blocks(lambda d: d.isocalendar()[:2] if d.strftime("%a") in ("Sat", "Sun") else None)
MONTHS = blocks(lambda d: d.strftime("%Y-%m"))
QUARTERS = blocks(lambda d: (d.year, "Q%d" % ((int(d.strftime("%m")) + 2) // 3)))
YEARS = blocks(lambda d: d.strftime("%Y"))
SEASONS = blocks(season_key)


def find_block(bl, day):
    for i, (_, s, e) in enumerate(bl):
        if s <= day <= e:
            return i
    raise LookupError(day)


def span(bl, i):
    return (bl[i][1], bl[i][2])


def nth_step(ref, n):
    """The day n positions away from ref in the enumerated calendar."""
    return DAYS[POS[ref] + n]


def same_weekday(ref, n):
    """n-th occurrence (n>0 forward, n<0 backward) of ref's weekday name, counted day by day."""
    name = ref.strftime("%A")
    step = 1 if n > 0 else -1
    i, seen = POS[ref], 0
    while seen < abs(n):
        i += step
        if DAYS[i].strftime("%A") == name:
            seen += 1
    return DAYS[i]


def days_matching(pred):
    return [d for d in DAYS if pred(d)]


def as_range(days):
    days = sorted(days)
    assert days, "empty day set"
    for a, b in zip(days, days[1:]):
        assert POS[b] == POS[a] + 1, "non-contiguous day set"
    return (days[0], days[-1])


HOLIDAYS = {"Valentine's Day": "02-14", "Halloween": "10-31", "Christmas Day": "12-25",
            "New Year's Eve": "12-31", "New Year's Day": "01-01"}
SEASON_ALIASES = {"autumn": "fall"}


def explicit_day(text):
    hits = [d for d in DAYS if text in (d.strftime("%Y-%m-%d"),
                                        "%s %d, %d" % (d.strftime("%B"), d.day, d.year),
                                        "%d %s %d" % (d.day, d.strftime("%B"), d.year))]
    assert len(hits) == 1, text
    return hits[0]


def enumerate_rule(rule, ref, expr):
    name, _, arg = rule.partition(":")
    if name == "since":
        out = set()
        for s, e in enumerate_rule(arg, ref, expr):
            out.add((s, e))
            out.add(as_range(days_matching(lambda d: s <= d <= ref)))
        return out
    if name in ("vague", "none"):
        return set()
    if name == "day":
        return {(nth_step(ref, int(arg)),) * 2}
    if name in ("wd_past", "wd_last"):
        c = days_matching(lambda d: d < ref and d.strftime("%a") == arg)
        out = {(c[-1], c[-1])}
        if name == "wd_last" and nth_step(c[-1], 1) == ref:
            out.add((c[-2], c[-2]))
        return out
    if name in ("wd_future", "wd_next"):
        c = days_matching(lambda d: d > ref and d.strftime("%a") == arg)
        out = {(c[0], c[0])}
        if name == "wd_next":
            wk = span(WEEKS, find_block(WEEKS, ref) + 1)
            x = days_matching(lambda d: wk[0] <= d <= wk[1] and d.strftime("%a") == arg)
            out.add((x[0], x[0]))
        return out
    if name in ("wd_this", "wd_lastweek", "wd_nextweek"):
        off = {"wd_this": 0, "wd_lastweek": -1, "wd_nextweek": 1}[name]
        wk = span(WEEKS, find_block(WEEKS, ref) + off)
        x = days_matching(lambda d: wk[0] <= d <= wk[1] and d.strftime("%a") == arg)
        assert len(x) == 1
        if name == "wd_this":
            assert x[0] > ref
        return {(x[0], x[0])}
    if name == "week":
        return {span(WEEKS, find_block(WEEKS, ref) + int(arg))}
    if name in ("weeks_ago", "in_weeks"):
        n = int(arg) * (-1 if name == "weeks_ago" else 1)
        d = same_weekday(ref, n)
        return {span(WEEKS, find_block(WEEKS, d)), (d, d)}
    if name == "earlier_week":
        wk = span(WEEKS, find_block(WEEKS, ref))
        return {as_range(days_matching(lambda d: wk[0] <= d < ref)), wk}
    if name == "weekend":
        n = int(arg)
        if n < 0:  # "last weekend": most recent weekend ending strictly before ref, then further back
            ended = [i for i, (_, s, e) in enumerate(WEEKENDS) if e < ref]
            i = ended[-1] + (n + 1)
        else:  # "this weekend": the Sat-Sun in ref's Monday-Sunday week
            wk = WEEKS[find_block(WEEKS, ref)][0]
            i = [j for j, b in enumerate(WEEKENDS) if b[0] == wk][0] + n
        return {span(WEEKENDS, i)}
    if name == "month":
        return {span(MONTHS, find_block(MONTHS, ref) + int(arg))}
    if name == "months_ago":
        mo = span(MONTHS, find_block(MONTHS, ref) - int(arg))
        x = days_matching(lambda d: mo[0] <= d <= mo[1] and d.day == ref.day)
        return {mo, (x[0], x[0])}
    if name == "year":
        return {span(YEARS, find_block(YEARS, ref) + int(arg))}
    if name == "month_past":
        c = [b for b in MONTHS if b[1].strftime("%b") == arg and b[1] <= ref]
        return {(c[-1][1], c[-1][2])}
    if name == "month_future":
        c = [b for b in MONTHS if b[1].strftime("%b") == arg and b[2] >= ref]
        return {(c[0][1], c[0][2])}
    if name == "md_past":
        c = days_matching(lambda d: d.strftime("%m-%d") == arg and d <= ref)
        return {(c[-1], c[-1])}
    if name == "md_future":
        c = days_matching(lambda d: d.strftime("%m-%d") == arg and d >= ref)
        return {(c[0], c[0])}
    if name == "date":
        d = explicit_day(expr)
        return {(d, d)}
    if name == "numdate":
        hits = days_matching(lambda d: expr in (d.strftime("%m/%d/%Y"), d.strftime("%d/%m/%Y"),
                                                d.strftime("%d.%m.%Y")))
        return {(d, d) for d in hits}
    if name == "daterel":
        m = re.fullmatch(r"the day (before|after) (.+)", expr)
        d = nth_step(explicit_day(m[2]), -1 if m[1] == "before" else 1)
        return {(d, d)}
    if name == "yearx":
        return {as_range(days_matching(lambda d: d.strftime("%Y") == expr))}
    if name == "monthx":
        return {as_range(days_matching(lambda d: d.strftime("%B %Y") == expr))}
    if name == "week_of":
        tail = re.fullmatch(r"the week of (.+)", expr)[1]
        d = explicit_day(tail)
        assert d.isoformat() == arg, (expr, arg)
        return {span(WEEKS, find_block(WEEKS, d))}
    if name == "week_before":
        tail = re.fullmatch(r"the week before (.+)", expr)[1]
        d = explicit_day(tail)
        assert d.isoformat() == arg, (expr, arg)
        prev = span(WEEKS, find_block(WEEKS, d) - 1)
        seven = as_range([nth_step(d, -k) for k in range(1, 8)])
        return {prev, seven}
    if name == "season_last":
        s = SEASON_ALIASES.get(arg, arg)
        c = [b for b in SEASONS if b[0][0] == s and b[2] < ref]
        return {(c[-1][1], c[-1][2])}
    if name == "season_this":
        s = SEASON_ALIASES.get(arg, arg)
        c = [b for b in SEASONS if b[0] == (s, ref.year)]
        return {(c[0][1], c[0][2])}
    if name == "season_year":
        s, y = arg.split(":")
        s = SEASON_ALIASES.get(s, s)
        c = [b for b in SEASONS if b[0] == (s, int(y))]
        return {(c[0][1], c[0][2])}
    if name == "quarter":
        y, q = arg.split(":")
        c = [b for b in QUARTERS if b[0] == (int(y), "Q" + q)]
        return {(c[0][1], c[0][2])}
    if name == "quarter_rel":
        return {span(QUARTERS, find_block(QUARTERS, ref) + int(arg))}
    raise ValueError(rule)


# ---------------- rule argument vs. expression text ----------------
NUMWORDS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a fortnight": 2}
MONTH_FULL = {dt.date(2001, m, 1).strftime("%B").lower(): m for m in range(1, 13)}
MONTH_FULL.update({dt.date(2001, m, 1).strftime("%b").lower(): m for m in range(1, 13)})


def rule_matches_expression(rule, expr):
    name, _, arg = rule.partition(":")
    if name == "since":
        return rule_matches_expression(arg, expr)
    e = (expr or "").lower()
    if name.startswith("wd_"):
        full = [d for d in DAYS[:7] if d.strftime("%a") == arg][0].strftime("%A").lower()
        prefix = {"wd_last": "last ", "wd_this": "this ", "wd_next": "next "}.get(name, "")
        suffix = {"wd_lastweek": " last week", "wd_nextweek": " next week"}.get(name, "")
        return e == prefix + full + suffix
    if name in ("month_past", "month_future"):
        return MONTH_FULL.get(e) == int(dt.datetime.strptime(arg, "%b").month)
    if name in ("md_past", "md_future"):
        if expr in HOLIDAYS:
            return HOLIDAYS[expr] == arg
        mo = [v for k, v in MONTH_FULL.items() if re.search(r"\b%s\b" % k, e)]
        da = re.search(r"\b(\d{1,2})(st|nd|rd|th)?\b", e)
        return len(set(mo)) == 1 and da and "%02d-%02d" % (mo[0], int(da[1])) == arg
    if name in ("weeks_ago", "months_ago", "in_weeks") or (name in ("day", "year") and re.search(r"ago|^in ", e)):
        m = re.fullmatch(r"(?:in )?(\d+|[a-z ]+?)(?: days?| weeks?| months?| years?)?(?: ago)?", e)
        tok = m[1].strip()
        n = int(tok) if tok.isdigit() else NUMWORDS[tok]
        return abs(int(arg)) == n
    return True


def main():
    errors = []
    src_rows = []
    with open(os.path.join(HERE, "source.txt"), encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                ref, kind, rule, expr, reg, text = (p.strip() for p in line.rstrip("\n").split(" | "))
                src_rows.append(dict(ref=ref, kind=kind, rule=rule,
                                     expression=None if expr == "-" else expr, text=text))
    src_by_text = {}
    for r in src_rows:
        if r["text"] in src_by_text:
            errors.append("duplicate text in source: " + r["text"])
        src_by_text[r["text"]] = r

    path = os.path.join(HERE, "sentences.jsonl")
    raw = open(path, "rb").read()
    sums = open(os.path.join(HERE, "SHA256SUMS")).read().split()
    if sums[:2] != [hashlib.sha256(raw).hexdigest(), "sentences.jsonl"]:
        errors.append("SHA256SUMS does not match sentences.jsonl")

    items = [json.loads(l) for l in raw.decode("utf-8").splitlines() if l.strip()]
    ids = Counter(o.get("id") for o in items)
    for i, c in ids.items():
        if c > 1:
            errors.append(f"duplicate id {i}")
    seen_src = set()
    agree = 0
    for o in items:
        oid = o.get("id")
        if set(o) != {"id", "text", "ref", "expression", "accept", "kind", "split"}:
            errors.append(f"{oid}: wrong field set {sorted(o)}")
            continue
        if not re.fullmatch(r"v\d{4}", oid):
            errors.append(f"{oid}: bad id")
        if o["split"] != "holdout3":
            errors.append(f"{oid}: bad split")
        if o["kind"] not in KINDS:
            errors.append(f"{oid}: bad kind")
        try:
            ref = dt.date.fromisoformat(o["ref"])
            assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", o["ref"])
        except Exception:
            errors.append(f"{oid}: bad ref")
            continue
        expr, text = o["expression"], o["text"]
        if o["kind"] == "distractor":
            if expr is not None or o["accept"] != []:
                errors.append(f"{oid}: distractor must have expression null and accept []")
        else:
            if not isinstance(expr, str) or text.count(expr) != 1:
                errors.append(f"{oid}: expression {expr!r} does not occur exactly once")
            elif text.lower().count(expr.lower()) != 1:
                errors.append(f"{oid}: expression {expr!r} occurs more than once ignoring case")
        if o["kind"] == "vague" and o["accept"] != []:
            errors.append(f"{oid}: vague must have accept []")
        got = set()
        for r in o["accept"]:
            try:
                s, e = dt.date.fromisoformat(r["start"]), dt.date.fromisoformat(r["end"])
                assert set(r) == {"start", "end"}
                assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", r["start"]) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", r["end"])
            except Exception:
                errors.append(f"{oid}: invalid range {r}")
                continue
            if s > e:
                errors.append(f"{oid}: start > end in {r}")
            got.add((s, e))
        if len(got) != len(o["accept"]):
            errors.append(f"{oid}: duplicate ranges in accept")
        src = src_by_text.get(text)
        if src is None:
            errors.append(f"{oid}: text not found in source.txt")
            continue
        seen_src.add(text)
        if (src["ref"], src["kind"], src["expression"]) != (o["ref"], o["kind"], expr):
            errors.append(f"{oid}: ref/kind/expression differ from source.txt")
        if not rule_matches_expression(src["rule"], expr):
            errors.append(f"{oid}: rule {src['rule']} does not match expression {expr!r}")
        try:
            want = enumerate_rule(src["rule"], ref, expr)
        except Exception as ex:  # noqa
            errors.append(f"{oid}: enumeration failed for {src['rule']}: {ex!r}")
            continue
        if want != got:
            errors.append(f"{oid}: label.py {sorted(got)} != enumeration {sorted(want)}")
        else:
            agree += 1
    missing = set(src_by_text) - seen_src
    if missing:
        errors.append(f"{len(missing)} source sentences missing from sentences.jsonl")

    kinds = Counter(o["kind"] for o in items)
    print(f"{len(items)} sentences; label.py and enumeration agree on {agree}")
    for k in sorted(kinds):
        print(f"  {k:13s} {kinds[k]}")
    if errors:
        print(f"FAILED with {len(errors)} error(s):")
        for e in errors:
            print("  " + e)
        sys.exit(1)
    print("OK: all checks passed")


if __name__ == "__main__":
    main()
