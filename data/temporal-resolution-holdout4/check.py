# SPDX-License-Identifier: Apache-2.0
"""check.py - independent check of holdout4/sentences.jsonl.

Implementation 2 of 2.  It does no date arithmetic with timedelta: it builds
its own calendar of every day from 2000-01-01 to 2035-12-31 (month lengths and
leap years computed here, weekdays counted from the known weekday of
2000-01-01), groups the days into Monday-Sunday weeks, Saturday-Sunday
weekends, months, quarters, years and meteorological seasons, and resolves
every reading rule in source.txt by scanning those days and periods.

It then validates sentences.jsonl (format, ids, expressions, kinds, shuffling),
checks that each rule's argument matches its expression text, compares its
own ranges with the file, and exits non-zero on any disagreement.
Python standard library only.
"""
import collections
import datetime
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "source.txt")
JSONL = os.path.join(HERE, "sentences.jsonl")

WEEKDAY_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WD_ABBR = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july",
               "august", "september", "october", "november", "december"]
MON_ABBR = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
KINDS = ["day-relative", "weekday", "week", "weekend", "month", "year", "month-day",
         "explicit", "season", "quarter", "n-ago", "future", "vague", "distractor"]
REGISTERS = ["family", "club", "software", "student"]
WRITTEN = (2026, 11, 28)

errors = []


def fail(msg):
    errors.append(msg)


# ------------------------------------------------------------------ calendar
def is_leap(y):
    return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)


def month_len(y, m):
    if m == 2:
        return 29 if is_leap(y) else 28
    return 30 if m in (4, 6, 9, 11) else 31


DAYS = []          # list of (y, m, d, weekday) ; weekday 0 = Monday
INDEX = {}         # "YYYY-MM-DD" -> position in DAYS
wd = 5             # 2000-01-01 was a Saturday
for y in range(2000, 2036):
    for m in range(1, 13):
        for dd in range(1, month_len(y, m) + 1):
            INDEX["%04d-%02d-%02d" % (y, m, dd)] = len(DAYS)
            DAYS.append((y, m, dd, wd))
            wd = (wd + 1) % 7
# sanity: agree with a few independently known weekdays
for iso, expect in (("2024-01-01", 0), ("2020-02-29", 5), ("2035-12-31", 0), ("2019-01-01", 1)):
    assert DAYS[INDEX[iso]][3] == expect, iso


def iso(i):
    y, m, dd, _ = DAYS[i]
    return "%04d-%02d-%02d" % (y, m, dd)


def season_key(m, y):
    if m in (3, 4, 5):
        return ("spring", y)
    if m in (6, 7, 8):
        return ("summer", y)
    if m in (9, 10, 11):
        return ("fall", y)
    return ("winter", y if m == 12 else y - 1)


def build_groups():
    weeks, weekends = [], []
    months, quarters, years, seasons = (collections.OrderedDict() for _ in range(4))
    week_of, weekend_of = {}, {}
    for i, (y, m, dd, w) in enumerate(DAYS):
        if w == 0 or not weeks:
            weeks.append([])
        weeks[-1].append(i)
        week_of[i] = len(weeks) - 1
        if w == 5:
            weekends.append([i])
            weekend_of[i] = len(weekends) - 1
        elif w == 6 and weekends and weekends[-1][-1] == i - 1:
            weekends[-1].append(i)
            weekend_of[i] = len(weekends) - 1
        months.setdefault((y, m), []).append(i)
        quarters.setdefault((y, (m - 1) // 3 + 1), []).append(i)
        years.setdefault(y, []).append(i)
        seasons.setdefault(season_key(m, y), []).append(i)
    return weeks, week_of, weekends, weekend_of, months, quarters, years, seasons


WEEKS, WEEK_OF, WEEKENDS, WEEKEND_OF, MONTHS, QUARTERS, YEARS, SEASONS = build_groups()
MONTH_KEYS = list(MONTHS.keys())
QUARTER_KEYS = list(QUARTERS.keys())


def span(indices):
    return (iso(indices[0]), iso(indices[-1]))


def day(i):
    return (iso(i), iso(i))


def scan(start, step, pred, include_start=False):
    i = start if include_start else start + step
    while 0 <= i < len(DAYS):
        if pred(DAYS[i]):
            return i
        i += step
    raise ValueError("scan ran off the calendar")


def weekday_in_week(week_idx, w):
    for i in WEEKS[week_idx]:
        if DAYS[i][3] == w:
            return i
    raise ValueError("weekday not in week")


# ------------------------------------------------------------------ rules
def resolve(rule, r):
    """r is the index of ref in DAYS; returns a list of (start, end) ISO pairs."""
    if rule in ("vague", "distractor"):
        return []
    if rule.startswith("since/"):
        inner = resolve(rule[6:], r)
        return inner + [(inner[0][0], iso(r))]
    name, _, arg = rule.partition(":")
    ry, rm, rd, rw = DAYS[r]

    if name in ("rel_day", "in_days"):
        return [day(r + int(arg))]
    if name == "nago_days":
        return [day(r - int(arg))]
    if name in ("nago_weeks", "in_weeks"):
        t = r + (7 if name == "in_weeks" else -7) * int(arg)
        return [span(WEEKS[WEEK_OF[t]]), day(t)]
    if name == "nago_months":
        k = MONTH_KEYS.index((ry, rm)) - int(arg)
        members = MONTHS[MONTH_KEYS[k]]
        same = [i for i in members if DAYS[i][2] == rd]
        return [span(members), day(same[0])]
    if name == "nago_years":
        return [span(YEARS[ry - int(arg)])]

    if name.startswith("wd_"):
        w = WD_ABBR.index(arg)
        is_w = lambda t: t[3] == w
        if name == "wd_past":
            return [day(scan(r, -1, is_w))]
        if name == "wd_future":
            return [day(scan(r, 1, is_w))]
        if name == "wd_last":
            a = scan(r, -1, is_w)
            out = [day(a)]
            if a == r - 1:
                out.append(day(scan(a, -1, is_w)))
            return out
        if name == "wd_this":
            t = weekday_in_week(WEEK_OF[r], w)
            if t <= r:
                raise ValueError("this <weekday> said on or after that weekday")
            return [day(t)]
        if name == "wd_next":
            a = scan(r, 1, is_w)
            b = weekday_in_week(WEEK_OF[r] + 1, w)
            return [day(a)] if a == b else [day(a), day(b)]
        if name == "wd_lastweek":
            return [day(weekday_in_week(WEEK_OF[r] - 1, w))]
        if name == "wd_nextweek":
            return [day(weekday_in_week(WEEK_OF[r] + 1, w))]

    offsets = {"week_this": 0, "week_last": -1, "week_before_last": -2, "week_next": 1}
    if name in offsets:
        return [span(WEEKS[WEEK_OF[r] + offsets[name]])]
    if name == "week_earlier_this":
        before = [i for i in WEEKS[WEEK_OF[r]] if i < r]
        if not before:
            raise ValueError("earlier this week on a Monday")
        return [span(before), span(WEEKS[WEEK_OF[r]])]
    if name == "week_of":
        return [span(WEEKS[WEEK_OF[INDEX[arg]]])]
    if name == "week_before":
        t = INDEX[arg]
        return [span(WEEKS[WEEK_OF[t] - 1]), (iso(t - 7), iso(t - 1))]

    if name.startswith("we_"):
        if name in ("we_last", "we_this_past", "we_before_last"):
            if name == "we_this_past" and rw >= 5:
                raise ValueError("this past weekend with a weekend ref")
            ended = [k for k, wk in enumerate(WEEKENDS) if wk[-1] < r]
            k = ended[-1] - (1 if name == "we_before_last" else 0)
            return [span(WEEKENDS[k])]
        if name in ("we_this", "we_next"):
            wk = WEEK_OF[r] + (1 if name == "we_next" else 0)
            sat = weekday_in_week(wk, 5)
            return [span(WEEKENDS[WEEKEND_OF[sat]])]

    moffsets = {"mon_this": 0, "mon_last": -1, "mon_end_last": -1, "mon_before_last": -2, "mon_next": 1}
    if name in moffsets:
        return [span(MONTHS[MONTH_KEYS[MONTH_KEYS.index((ry, rm)) + moffsets[name]]])]
    if name in ("mon_past", "mon_future"):
        target = MON_ABBR.index(arg) + 1
        k = MONTH_KEYS.index((ry, rm))
        step = -1 if name == "mon_past" else 1
        while MONTH_KEYS[k][1] != target:
            k += step
        return [span(MONTHS[MONTH_KEYS[k]])]

    yoffsets = {"yr_this": 0, "yr_last": -1, "yr_before_last": -2, "yr_next": 1}
    if name in yoffsets:
        return [span(YEARS[ry + yoffsets[name]])]

    if name in ("md_past", "md_future"):
        mm, dd = (int(v) for v in arg.split("-"))
        hit = lambda t: t[1] == mm and t[2] == dd
        return [day(scan(r, -1 if name == "md_past" else 1, hit, include_start=True))]

    if name == "date":
        return [day(INDEX[arg])]
    if name == "ym":
        y, m = arg.split("-")
        return [span(MONTHS[(int(y), int(m))])]
    if name == "y":
        return [span(YEARS[int(arg)])]
    if name == "num":
        a, b, y = arg.split("/")
        out = []
        for key in ("%s-%s-%s" % (y, a, b), "%s-%s-%s" % (y, b, a)):
            if key in INDEX and day(INDEX[key]) not in out:
                out.append(day(INDEX[key]))
        return out
    if name == "dot":
        dd, mm, y = arg.split(".")
        return [day(INDEX["%s-%s-%s" % (y, mm, dd)])]
    if name == "day_before":
        return [day(INDEX[arg] - 1)]
    if name == "day_after":
        return [day(INDEX[arg] + 1)]

    if name.startswith("season_"):
        parts = arg.split(":")
        sname = "fall" if parts[0] == "autumn" else parts[0]
        if name == "season_last":
            done = [k for k, members in SEASONS.items() if k[0] == sname and members[-1] < r]
            return [span(SEASONS[done[-1]])]
        if name == "season_this":
            return [span(SEASONS[(sname, ry)])]
        if name == "season_year":
            return [span(SEASONS[(sname, int(parts[1]))])]

    if name == "q":
        y, q = arg.split(":")
        return [span(QUARTERS[(int(y), int(q))])]
    if name in ("q_this", "q_last"):
        k = QUARTER_KEYS.index((ry, (rm - 1) // 3 + 1)) - (1 if name == "q_last" else 0)
        return [span(QUARTERS[QUARTER_KEYS[k]])]

    raise ValueError("unknown rule %r" % rule)


# ------------------------------------------------------------------ rule vs expression
NUMWORDS = {1: ["one", "a", "an"], 2: ["two", "couple"], 3: ["three"], 4: ["four"], 5: ["five"],
            6: ["six"], 7: ["seven"], 8: ["eight"], 9: ["nine"], 10: ["ten"], 11: ["eleven"],
            12: ["twelve"], 14: ["fourteen"], 30: ["thirty"]}
REL_WORDS = {-2: ["day before yesterday"], -1: ["yesterday", "yday", "last night"],
             0: ["today", "this morning", "tonight", "this afternoon", "this evening"],
             1: ["tomorrow", "tmrw"], 2: ["day after tomorrow"]}
HOLIDAYS = {"02-14": "valentine's day", "10-31": "halloween", "12-25": "christmas day",
            "12-31": "new year's eve", "01-01": "new year's day"}
VAGUE = ["recently", "the other day", "a while back", "soon", "a few days ago", "a few weeks ago",
         "lately", "not long ago", "years ago", "previously", "eventually", "in the coming weeks",
         "in the near future", "some time ago", "one of these days", "at some point"]
BANNED = [r"\ba year ago\b", r"\bone year ago\b", r"\bthis coming\b", r"\bover christmas\b",
          r"\bmid-", r"\bthis winter\b", r"\blast (%s)\b" % "|".join(MONTH_NAMES)]


def words(s):
    return re.findall(r"[a-z0-9']+", s.lower())


def has_number(expr, n):
    w = words(expr)
    return str(n) in w or any(x in w for x in NUMWORDS.get(n, []))


def has_month(expr, m):
    e = expr.lower()
    return re.search(r"\b(%s|%s)\b" % (MONTH_NAMES[m - 1], MON_ABBR[m - 1].lower()), e) is not None


def has_day_number(expr, dd):
    return re.search(r"(?<!\d)0?%d(st|nd|rd|th)?(?!\d)" % dd, expr.lower()) is not None


def has_date(expr, isodate):
    y, m, dd = (int(v) for v in isodate.split("-"))
    e = expr.lower()
    if isodate in e:
        return True
    return str(y) in e and has_month(expr, m) and has_day_number(e.replace(str(y), ""), dd)


def arg_matches(rule, expr):
    """True when the rule's argument is visible in the expression text."""
    if rule == "distractor":
        return expr is None
    if expr is None:
        return False
    e = expr.lower()
    if rule == "vague":
        return e in VAGUE
    if rule.startswith("since/"):
        rule = rule[6:]
    name, _, arg = rule.partition(":")
    if name == "rel_day":
        n = int(arg)
        ok = any(k in e for k in REL_WORDS[n])
        if n == -1:
            ok = ok and "day before" not in e
        if n == 1:
            ok = ok and "day after" not in e
        return ok
    if name == "nago_days":
        return "ago" in e and "day" in e and has_number(e, int(arg))
    if name == "in_days":
        n = int(arg)
        if n == 7 and e == "a week from today":
            return True
        return ("from now" in e or e.startswith("in ")) and "day" in e and has_number(e, n)
    if name in ("nago_weeks", "in_weeks"):
        n = int(arg)
        dir_ok = ("ago" in e) if name == "nago_weeks" else e.startswith("in ")
        return dir_ok and (("week" in e and has_number(e, n)) or (n == 2 and "fortnight" in e))
    if name == "nago_months":
        return "ago" in e and "month" in e and has_number(e, int(arg))
    if name == "nago_years":
        return "ago" in e and "year" in e and has_number(e, int(arg))
    if name.startswith("wd_"):
        full = WEEKDAY_NAMES[WD_ABBR.index(arg)]
        if full not in words(e):
            return False
        need = {"wd_last": "last", "wd_this": "this", "wd_next": "next",
                "wd_lastweek": "last week", "wd_nextweek": "next week"}.get(name)
        if need:
            return need in e
        return not any(x in words(e) for x in ("last", "next", "this"))
    table = {"week_this": "this week", "week_last": "last week", "week_before_last": "week before last",
             "week_next": "next week", "week_earlier_this": "earlier this week",
             "we_this": "this weekend", "we_last": "last weekend", "we_next": "next weekend",
             "we_before_last": "weekend before last", "we_this_past": "this past weekend",
             "mon_this": "this month", "mon_last": "last month", "mon_end_last": "end of last month",
             "mon_before_last": "month before last", "mon_next": "next month",
             "yr_this": "this year", "yr_last": "last year", "yr_before_last": "year before last",
             "yr_next": "next year", "q_this": "this quarter", "q_last": "last quarter"}
    if name in table:
        return table[name] in e
    if name in ("week_of", "week_before"):
        return ("week of" if name == "week_of" else "week before") in e and has_date(e, arg)
    if name in ("mon_past", "mon_future"):
        return words(e) == [MONTH_NAMES[MON_ABBR.index(arg)]]
    if name in ("md_past", "md_future"):
        if arg in HOLIDAYS:
            return e == HOLIDAYS[arg]
        mm, dd = (int(v) for v in arg.split("-"))
        return has_month(e, mm) and has_day_number(e, dd)
    if name == "date":
        return has_date(e, arg)
    if name in ("day_before", "day_after"):
        return ("day before" if name == "day_before" else "day after") in e and has_date(e, arg)
    if name in ("num", "dot"):
        return e == arg
    if name == "ym":
        y, m = arg.split("-")
        return y in e and has_month(e, int(m))
    if name == "y":
        return e == arg
    if name.startswith("season_"):
        parts = arg.split(":")
        if parts[0] not in words(e):
            return False
        if name == "season_last":
            return "last" in words(e)
        if name == "season_this":
            return "this" in words(e)
        return parts[1] in e
    if name == "q":
        y, q = arg.split(":")
        return e == ("q%s %s" % (q, y))
    return False


def kind_of(rule):
    if rule.startswith("since/"):
        rule = rule[6:]
    name, _, arg = rule.partition(":")
    if rule in ("vague", "distractor"):
        return rule
    if name == "rel_day":
        return "future" if int(arg) > 0 else "day-relative"
    if name in ("in_days", "in_weeks", "week_next", "mon_next", "yr_next"):
        return "future"
    if name.startswith("nago_"):
        return "n-ago"
    if name.startswith("wd_"):
        return "weekday"
    if name.startswith("week_"):
        return "week"
    if name.startswith("we_"):
        return "weekend"
    if name.startswith("mon_"):
        return "month"
    if name.startswith("yr_"):
        return "year"
    if name.startswith("md_"):
        return "month-day"
    if name in ("date", "ym", "y", "num", "dot", "day_before", "day_after"):
        return "explicit"
    if name.startswith("season_"):
        return "season"
    if name.startswith("q"):
        return "quarter"
    return None


# ------------------------------------------------------------------ main
def main():
    src = []
    with open(SOURCE, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            f = [x.strip() for x in line.split(" | ")]
            if len(f) != 6:
                fail("source line %d: %d fields" % (n, len(f)))
                continue
            src.append((n, f))

    recs = []
    with open(JSONL, encoding="utf-8") as fh:
        raw = fh.read()
    if not raw.endswith("\n"):
        fail("sentences.jsonl does not end with a newline")
    for n, line in enumerate(raw.splitlines(), 1):
        try:
            recs.append(json.loads(line))
        except ValueError as exc:
            fail("jsonl line %d: bad JSON (%s)" % (n, exc))

    # ---- file validation
    keys = ["id", "text", "ref", "expression", "accept", "kind", "split"]
    for n, rec in enumerate(recs, 1):
        if sorted(rec) != sorted(keys):
            fail("line %d: keys %s" % (n, sorted(rec)))
            continue
        if rec["id"] != "r%04d" % n:
            fail("line %d: id %s out of sequence" % (n, rec["id"]))
        if rec["split"] != "holdout4":
            fail("%s: split" % rec["id"])
        if rec["kind"] not in KINDS:
            fail("%s: kind %s" % (rec["id"], rec["kind"]))
        if rec["ref"] not in INDEX:
            fail("%s: bad ref" % rec["id"])
        else:
            y, m, dd, _ = DAYS[INDEX[rec["ref"]]]
            if not (2019 <= y <= 2026) or (y, m, dd) > WRITTEN:
                fail("%s: ref %s outside 2019..2026-11-28" % (rec["id"], rec["ref"]))
        text, expr = rec["text"], rec["expression"]
        if rec["kind"] == "distractor":
            if expr is not None or rec["accept"] != []:
                fail("%s: distractor needs expression null and accept []" % rec["id"])
        else:
            if not isinstance(expr, str) or not expr:
                fail("%s: expression missing" % rec["id"])
            elif text.count(expr) != 1 or text.lower().count(expr.lower()) != 1:
                fail("%s: expression %r does not occur exactly once" % (rec["id"], expr))
        if rec["kind"] == "vague" and rec["accept"] != []:
            fail("%s: vague needs accept []" % rec["id"])
        if rec["kind"] not in ("vague", "distractor") and not rec["accept"]:
            fail("%s: dated kind with empty accept" % rec["id"])
        for a in rec["accept"]:
            if sorted(a) != ["end", "start"] or a["start"] not in INDEX or a["end"] not in INDEX \
                    or INDEX[a["start"]] > INDEX[a["end"]]:
                fail("%s: bad range %r" % (rec["id"], a))
        for pat in BANNED:
            if re.search(pat, text.lower()):
                fail("%s: disallowed phrase %s" % (rec["id"], pat))
    ids = [r.get("id") for r in recs]
    if len(set(ids)) != len(ids):
        fail("duplicate ids")
    texts = [r.get("text") for r in recs]
    if len(set(texts)) != len(texts):
        fail("duplicate texts")
    if len(recs) < 400:
        fail("only %d sentences" % len(recs))
    # shuffled: consecutive kinds should change often
    changes = sum(1 for a, b in zip(recs, recs[1:]) if a.get("kind") != b.get("kind"))
    if changes < 0.75 * (len(recs) - 1):
        fail("ids look grouped by kind (%d kind changes)" % changes)

    # ---- compare with source + independent resolution
    by_key = {(r["text"], r["ref"]): r for r in recs if "text" in r}
    seen = set()
    disagreements = 0
    for n, (ref, kind, rule, expr, register, text) in src:
        expr = None if expr == "-" else expr
        rec = by_key.get((text, ref))
        if rec is None:
            fail("source line %d not in sentences.jsonl" % n)
            continue
        seen.add((text, ref))
        if rec["kind"] != kind or rec["expression"] != expr:
            fail("source line %d: kind/expression differ from jsonl" % n)
        if register not in REGISTERS:
            fail("source line %d: register %s" % (n, register))
        if kind_of(rule) != kind:
            fail("source line %d: rule %s does not belong to kind %s" % (n, rule, kind))
        if not arg_matches(rule, expr):
            fail("source line %d: rule %s does not match expression %r" % (n, rule, expr))
        r = INDEX[ref]
        base = rule[6:] if rule.startswith("since/") else rule
        bname, _, barg = base.partition(":")
        if bname in ("wd_past", "wd_future", "wd_last", "wd_next") and WD_ABBR[DAYS[r][3]] == barg:
            fail("source line %d: %s said on a %s" % (n, rule, barg))
        if bname == "nago_months" and DAYS[r][2] > 28:
            fail("source line %d: N months ago needs ref day <= 28" % n)
        if bname == "nago_years" and int(barg) < 2:
            fail("source line %d: N years ago needs N >= 2" % n)
        if bname == "season_last" and barg == "winter" and DAYS[r][1] in (12, 1, 2):
            fail("source line %d: last winter said in winter" % n)
        try:
            mine = resolve(rule, r)
        except (ValueError, KeyError, IndexError) as exc:
            fail("source line %d: cannot resolve %s (%s)" % (n, rule, exc))
            continue
        theirs = [(a["start"], a["end"]) for a in rec["accept"]]
        if sorted(set(mine)) != sorted(set(theirs)) or len(theirs) != len(set(theirs)):
            disagreements += 1
            fail("source line %d (%s, %s, ref %s): check.py %s vs label.py %s"
                 % (n, rec["id"], rule, ref, mine, theirs))
    for key in by_key:
        if key not in seen:
            fail("jsonl sentence not in source.txt: %r" % (key,))

    if errors:
        for e in errors:
            print("FAIL:", e)
        print("check.py: %d problem(s), %d label disagreement(s)" % (len(errors), disagreements))
        sys.exit(1)
    n_acc = collections.Counter(len(r["accept"]) for r in recs)
    print("check.py: OK - %d sentences, all labels agree; accept ranges: %s"
          % (len(recs), dict(sorted(n_acc.items()))))


if __name__ == "__main__":
    main()
