#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checker / labeller #2 — day enumeration.

For every sentence this script enumerates the calendar days in a wide window around the
reference date (about 12 years back, 6 years ahead), groups them into weeks (ISO week keys),
months, quarters, years, weekends and seasons, and selects the accepted days by testing each
day against the rule.  The selected day sets are turned into ranges (and must be contiguous).
It shares no date logic with label.py.

It then verifies:
  * sentences.jsonl is well formed (fields, unique sequential ids, valid dates, start <= end,
    split == "holdout", expression occurs exactly once in text, null expression only for
    distractors, empty accept exactly for vague/distractor items);
  * each record matches its source line in items.txt;
  * accept in the file == label.py's arithmetic result == this enumeration result;
  * the reference-date constraints written in items.txt hold;
  * the rule agrees with the wording of the expression (weekday/month names, numbers, years);
  * outside the labelled expression no other time word appears (vague and labelled items);
  * SHA256SUMS matches sentences.jsonl.
Exit status 0 only if everything passes.
"""
import hashlib
import json
import re
import sys
from collections import Counter, OrderedDict
from datetime import date, timedelta

import label  # only used to compare against the arithmetic implementation

NAMES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]   # index = isoweekday - 1
KINDS = ["day-relative", "weekday", "week", "weekend", "month", "year", "month-day", "explicit",
         "season", "quarter", "n-ago", "future", "vague", "distractor"]
errors = []


def err(msg):
    errors.append(msg)


# ====================================================================== enumeration
def name(d):
    return NAMES[d.isoweekday() - 1]


def season_key(d):
    m = d.month
    if m in (3, 4, 5):
        return ("spring", d.year)
    if m in (6, 7, 8):
        return ("summer", d.year)
    if m in (9, 10, 11):
        return ("fall", d.year)
    return ("winter", d.year if m == 12 else d.year - 1)


def group(days, key):
    g = OrderedDict()
    for d in days:
        g.setdefault(key(d), []).append(d)
    return g


def span(ds):
    ds = sorted(ds)
    if not ds:
        raise AssertionError("empty day set")
    for a, b in zip(ds, ds[1:]):
        if b.toordinal() - a.toordinal() != 1:
            raise AssertionError("non-contiguous day set")
    return (ds[0], ds[-1])


def shifted(groups, k0, n):
    keys = list(groups)
    return groups[keys[keys.index(k0) + n]]


def enumerate_ranges(rule, ref):
    days = [ref + timedelta(n) for n in range(-4400, 2401)]
    R = ref.toordinal()
    weeks = group(days, lambda d: d.isocalendar()[:2])
    months = group(days, lambda d: (d.year, d.month))
    years = group(days, lambda d: d.year)
    quarters = group(days, lambda d: (d.year, (d.month + 2) // 3))
    weekends = group([d for d in days if name(d) in ("Sat", "Sun")], lambda d: d.isocalendar()[:2])
    seasons = group(days, season_key)
    wk = lambda d: d.isocalendar()[:2]

    def find(iso):
        hit = [d for d in days if d.isoformat() == iso]
        assert len(hit) == 1, iso
        return hit[0]

    if rule == "none":
        return []
    if rule.startswith("since:"):
        out = []
        for s, e in enumerate_ranges(rule[6:], ref):
            out.append([d for d in days if s <= d <= e])
            out.append([d for d in days if s <= d <= ref])
        return [span(x) for x in out]

    head, _, arg = rule.partition(":")
    readings = []
    if head == "day":
        readings = [[d for d in days if d.toordinal() - R == int(arg)]]
    elif head == "weeks":
        x = [d for d in days if d.toordinal() - R == 7 * int(arg)][0]
        readings = [weeks[wk(x)], [x]]
    elif head == "months":
        g = shifted(months, (ref.year, ref.month), int(arg))
        readings = [g, [d for d in g if d.day == ref.day]]
    elif head == "years":
        readings = [shifted(years, ref.year, int(arg))]
    elif head == "week":
        readings = [shifted(weeks, wk(ref), int(arg))]
    elif head == "week_earlier":
        g = weeks[wk(ref)]
        readings = [[d for d in g if d < ref], g]
    elif head == "week_later":
        g = weeks[wk(ref)]
        readings = [[d for d in g if d > ref], g]
    elif head in ("week_of", "week_before", "week_after"):
        x = find(arg)
        X = x.toordinal()
        if head == "week_of":
            readings = [weeks[wk(x)]]
        elif head == "week_before":
            readings = [shifted(weeks, wk(x), -1), [d for d in days if 1 <= X - d.toordinal() <= 7]]
        else:
            readings = [shifted(weeks, wk(x), 1), [d for d in days if 1 <= d.toordinal() - X <= 7]]
    elif head == "wd_past":
        readings = [[max(d for d in days if d < ref and name(d) == arg)]]
    elif head == "wd_future":
        readings = [[min(d for d in days if d > ref and name(d) == arg)]]
    elif head == "wd_last":
        c = sorted(d for d in days if d < ref and name(d) == arg)
        readings = [[c[-1]]]
        if R - c[-1].toordinal() == 1:
            readings.append([c[-2]])
    elif head == "wd_this":
        c = [d for d in weeks[wk(ref)] if name(d) == arg]
        assert c[0] > ref
        readings = [c]
    elif head == "wd_next":
        readings = [[min(d for d in days if d > ref and name(d) == arg)],
                    [d for d in shifted(weeks, wk(ref), 1) if name(d) == arg]]
    elif head in ("we_last", "we_before_last"):
        done = [g for g in weekends.values() if max(g) < ref]
        readings = [done[-1] if head == "we_last" else done[-2]]
    elif head == "we_this":
        readings = [weekends[wk(ref)]]
    elif head == "we_next":
        readings = [weekends[wk(shifted(weeks, wk(ref), 1)[0])]]
    elif head == "mon":
        readings = [shifted(months, (ref.year, ref.month), int(arg))]
    elif head == "mon_earlier":
        g = months[(ref.year, ref.month)]
        readings = [[d for d in g if d < ref], g]
    elif head == "mon_past":
        ks = [k for k in months if k[1] == int(arg) and k <= (ref.year, ref.month)]
        readings = [months[max(ks)]]
    elif head == "mon_future":
        ks = [k for k in months if k[1] == int(arg) and k >= (ref.year, ref.month)]
        readings = [months[min(ks)]]
    elif head == "yr":
        readings = [shifted(years, ref.year, int(arg))]
    elif head == "yr_earlier":
        g = years[ref.year]
        readings = [[d for d in g if d < ref], g]
    elif head == "yr_later":
        g = years[ref.year]
        readings = [[d for d in g if d > ref], g]
    elif head in ("md_past", "md_future"):
        m, dd = map(int, arg.split("-"))
        c = [d for d in days if d.month == m and d.day == dd]
        readings = [[max(d for d in c if d <= ref)]] if head == "md_past" else [[min(d for d in c if d >= ref)]]
    elif head == "dom_past":
        readings = [[max(d for d in days if d <= ref and d.day == int(arg))]]
    elif head == "dom_future":
        readings = [[min(d for d in days if d >= ref and d.day == int(arg))]]
    elif head == "date":
        readings = [[find(arg)]]
    elif head == "date_pm":
        ds, n = arg.rsplit(":", 1)
        i = days.index(find(ds))
        readings = [[days[i + int(n)]]]
    elif head == "numamb":
        readings = [[find(x)] for x in arg.split(",")]
    elif head == "ym":
        readings = [[d for d in days if d.strftime("%Y-%m") == arg]]
    elif head == "y":
        readings = [[d for d in days if str(d.year) == arg]]
    elif head == "sea_last":
        s = "fall" if arg == "autumn" else arg
        done = [g for k, g in seasons.items() if k[0] == s and max(g) < ref]
        readings = [done[-1]]
    elif head == "sea_this":
        readings = [seasons[(arg, ref.year)]]
    elif head == "sea_year":
        s, y = arg.split(":")
        readings = [seasons[("fall" if s == "autumn" else s, int(y))]]
    elif head == "q":
        q, y = map(int, arg.split(":"))
        readings = [quarters[(y, q)]]
    elif head == "q_rel":
        readings = [shifted(quarters, (ref.year, (ref.month + 2) // 3), int(arg))]
    else:
        raise ValueError("unknown rule " + rule)
    return [span(r) for r in readings]


# ====================================================================== constraints
def implied_ok(rule, d):
    r = rule[6:] if rule.startswith("since:") else rule
    head, _, arg = r.partition(":")
    if head == "wd_this":
        return NAMES.index(name(d)) < NAMES.index(arg)
    if head == "week_earlier":
        return name(d) != "Mon"
    if head == "week_later":
        return name(d) != "Sun"
    if head == "mon_earlier":
        return d.day != 1
    if head == "yr_earlier":
        return d.strftime("%m-%d") != "01-01"
    if head == "yr_later":
        return d.strftime("%m-%d") != "12-31"
    if head == "months":
        return d.day <= 28
    if head in ("md_past", "md_future"):
        m, dd = map(int, arg.split("-"))
        return (d.month, d.day) != (m, dd)
    if head in ("dom_past", "dom_future"):
        return d.day != int(arg)
    return True


def constraints_ok(refspec, rule, d):
    problems = []
    for c in refspec.split(";")[1:]:
        k, v = c.split("=", 1)
        if k == "dow" and name(d) not in v.split(","):
            problems.append(c)
        elif k == "mon" and str(d.month) not in v.split(","):
            problems.append(c)
        elif k == "dom":
            lo, hi = map(int, v.split("-"))
            if not lo <= d.day <= hi:
                problems.append(c)
        elif k == "win":
            ds, lo, hi = v.split(":")
            diff = d.toordinal() - date.fromisoformat(ds).toordinal()
            if not int(lo) <= diff <= int(hi):
                problems.append(c)
    if not implied_ok(rule, d):
        problems.append("implied by " + rule)
    if not date(2019, 1, 1) <= d <= date(2026, 11, 27):
        problems.append("ref outside 2019-01-01..2026-11-27")
    return problems


# ====================================================================== wording lint
MONTH_WORDS = {1: ["jan"], 2: ["feb"], 3: ["mar"], 4: ["apr"], 5: ["may"], 6: ["jun"], 7: ["jul"],
               8: ["aug"], 9: ["sep"], 10: ["oct"], 11: ["nov"], 12: ["dec"]}
DAY_WORDS = {"Mon": "mon", "Tue": "tue", "Wed": "wed", "Thu": "thu", "Fri": "fri", "Sat": "sat", "Sun": "sun"}
NUMWORDS = {"one": 1, "a": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "fourteen": 14, "couple": 2, "fortnight": 2}


def expr_numbers(e):
    """Numbers stated in an expression (digits or words)."""
    out = [int(x) for x in re.findall(r"\d+", e)]
    for w in re.findall(r"[a-z]+", e.lower()):
        if w in NUMWORDS:
            out.append(NUMWORDS[w])
    return out


def wording_ok(rule, expr):
    e = expr.lower()
    r = rule[6:] if rule.startswith("since:") else rule
    head, _, arg = r.partition(":")
    has_month = lambda m: any(re.search(r"\b" + w, e) for w in MONTH_WORDS[m])
    if head == "day":
        n = int(arg)
        table = {0: ("today", "tonight", "this morning", "this afternoon"), -1: ("yesterday", "last night"),
                 1: ("tomorrow",), -2: ("day before yesterday", "couple"), 2: ("day after tomorrow", "two days")}
        if n in table and any(w in e for w in table[n]):
            return True
        return abs(n) in expr_numbers(e) and (("ago" in e) == (n < 0))
    if head in ("weeks", "months", "years"):
        n = int(arg)
        unit = {"weeks": ("week", "fortnight"), "months": ("month",), "years": ("year",)}[head]
        return any(u in e for u in unit) and abs(n) in expr_numbers(e) and (("ago" in e) == (n < 0))
    if head in ("week", "mon", "yr", "q_rel"):
        n = int(arg)
        unit = {"week": "week", "mon": "month", "yr": "year", "q_rel": "quarter"}[head]
        word = {0: "this", -1: "last", 1: "next", -2: "before last", 2: "after next"}[n]
        return unit in e and word in e
    if head in ("week_earlier", "mon_earlier", "yr_earlier"):
        return "earlier this" in e
    if head in ("week_later", "yr_later"):
        return "later this" in e
    if head in ("week_of", "week_before", "week_after", "date", "date_pm"):
        ds = arg.split(":")[0]
        y, m, d = map(int, ds.split("-"))
        ok = str(y) in e and d in [int(x) for x in re.findall(r"\d+", e.replace(str(y), " "))]
        ok = ok and (has_month(m) or "%02d" % m in e)
        if head == "date_pm":
            ok = ok and (("before" in e) == (int(arg.split(":")[1]) < 0))
        if head in ("week_before", "week_after", "week_of"):
            ok = ok and head.split("_")[1] in e
        return ok
    if head.startswith("wd_"):
        if DAY_WORDS[arg] not in e:
            return False
        need = {"wd_last": "last", "wd_this": "this", "wd_next": "next"}.get(head)
        return need is None or (need in e and not (head == "wd_this" and ("past" in e or "coming" in e)))
    if head.startswith("we_"):
        need = {"we_last": ("last", "past", "over"), "we_this": ("this", "over"), "we_next": ("next",),
                "we_before_last": ("before last",)}[head]
        return ("weekend" in e or "wknd" in e) and any(w in e for w in need)
    if head in ("mon_past", "mon_future"):
        return has_month(int(arg))
    if head in ("md_past", "md_future"):
        m, d = map(int, arg.split("-"))
        return has_month(m) and d in expr_numbers(e)
    if head in ("dom_past", "dom_future"):
        return int(arg) in expr_numbers(e)
    if head == "numamb":
        a, b = arg.split(",")
        ya, ma, da = a.split("-")
        return e in ("%s/%s/%s" % (ma, da, ya), "%s/%s/%s" % (da, ma, ya))
    if head == "ym":
        y, m = map(int, arg.split("-"))
        return str(y) in e and has_month(m)
    if head == "y":
        return e.strip() == arg
    if head in ("sea_last", "sea_this"):
        s = {"fall": ("fall", "autumn")}.get(arg, (arg,))
        return any(w in e for w in s) and {"sea_last": "last", "sea_this": "this"}[head] in e
    if head == "sea_year":
        s, y = arg.split(":")
        s = ("fall", "autumn") if s in ("fall", "autumn") else (s,)
        return any(w in e for w in s) and y in e
    if head == "q":
        q, y = arg.split(":")
        return y in e and ("q" + q in e or ["first", "second", "third", "fourth"][int(q) - 1] in e)
    return False


TIME_WORDS = re.compile(
    r"\b(mon(day)?|tue(s|sday)?|wed(nesday)?|thu(rs|rsday)?|fri(day)?|sat(urday)?|sun(day)?|"
    r"jan(uary)?|feb(ruary)?|march|apr(il)?|may|june?|july?|aug(ust)?|sept?(ember)?|oct(ober)?|"
    r"nov(ember)?|dec(ember)?|yesterday|today|tomorrow|tonight|ago|week|weeks|weekend|month|months|"
    r"year|years|quarter|morning|afternoon|evening|night|noon|midnight|summer|winter|spring|autumn|fall|"
    r"daily|weekly|monthly|yearly|annual|nightly|every|christmas|easter|halloween|now|currently|"
    r"recently|lately|soon|later|earlier|since|until|ago|day|days|hour|hours|minute|minutes|"
    r"(19|20)\d\d|\d{1,2}[/.]\d{1,2}([/.]\d{2,4})?|q[1-4])\b", re.I)


def outside_words(text, expr, rule):
    if expr and rule.startswith("since:"):
        expr = "since " + expr      # the word "since" belongs to the labelled construction
    rest = text.replace(expr, " ", 1) if expr else text
    return [m.group(0) for m in TIME_WORDS.finditer(rest)]


# ====================================================================== main
def main():
    items = label.read_items("items.txt")
    recs = []
    for n, line in enumerate(open("sentences.jsonl", encoding="utf-8"), 1):
        try:
            recs.append(json.loads(line))
        except ValueError as ex:
            err("line %d: invalid JSON (%s)" % (n, ex))
    if len(recs) != len(items):
        err("sentences.jsonl has %d records, items.txt %d" % (len(recs), len(items)))
    if len(recs) < 420:
        err("fewer than 420 sentences")

    ids = [r.get("id") for r in recs]
    if len(set(ids)) != len(ids):
        err("duplicate ids: %s" % [k for k, v in Counter(ids).items() if v > 1])
    iso = re.compile(r"^\d{4}-\d{2}-\d{2}$")
    agree = 0
    for i, (r, it) in enumerate(zip(recs, items), 1):
        rid = r.get("id")
        where = "%s" % rid
        if set(r) != {"id", "text", "ref", "expression", "accept", "kind", "split"}:
            err("%s: wrong field set %s" % (where, sorted(r)))
            continue
        if rid != "h%04d" % i:
            err("%s: id out of sequence (expected h%04d)" % (where, i))
        if r["split"] != "holdout":
            err("%s: split is not holdout" % where)
        if r["kind"] not in KINDS:
            err("%s: unknown kind %r" % (where, r["kind"]))
        for f in ("text", "ref", "expression", "kind"):
            if r[f] != it[f if f != "expression" else "expression"]:
                err("%s: field %s differs from items.txt" % (where, f))
        try:
            assert iso.match(r["ref"])
            ref = date.fromisoformat(r["ref"])
        except Exception:
            err("%s: bad ref %r" % (where, r["ref"]))
            continue
        # expression
        e = r["expression"]
        if r["kind"] == "distractor":
            if e is not None:
                err("%s: distractor must have null expression" % where)
        else:
            if not isinstance(e, str) or not e:
                err("%s: missing expression" % where)
                continue
            if r["text"].count(e) != 1:
                err("%s: expression %r occurs %d times in text" % (where, e, r["text"].count(e)))
            if r["text"].lower().count(e.lower()) != 1:
                err("%s: expression %r occurs more than once ignoring case" % (where, e))
        # accept well-formed
        acc = []
        for a in r["accept"]:
            try:
                assert set(a) == {"start", "end"} and iso.match(a["start"]) and iso.match(a["end"])
                s, t = date.fromisoformat(a["start"]), date.fromisoformat(a["end"])
                assert s <= t
                acc.append((s, t))
            except Exception:
                err("%s: bad accept range %r" % (where, a))
        if len(set(acc)) != len(acc):
            err("%s: duplicate accept ranges" % where)
        empty_kind = r["kind"] in ("vague", "distractor")
        if empty_kind != (len(acc) == 0) or empty_kind != (it["rule"] == "none"):
            err("%s: accept must be [] exactly for vague/distractor" % where)
        # two implementations
        try:
            arith = label.compute(it["rule"], ref)
        except Exception as ex:
            err("%s: label.py failed: %r" % (where, ex))
            continue
        try:
            enum = enumerate_ranges(it["rule"], ref)
        except Exception as ex:
            err("%s: enumeration failed: %r" % (where, ex))
            continue
        if set(arith) != set(enum):
            err("%s: implementations disagree for %s @ %s: arithmetic %s vs enumeration %s"
                % (where, it["rule"], ref, arith, enum))
        elif acc != arith:
            err("%s: sentences.jsonl accept %s differs from computed %s" % (where, acc, arith))
        else:
            agree += 1
        # ref constraints
        p = constraints_ok(it["refspec"], it["rule"], ref)
        if p:
            err("%s: ref %s violates %s" % (where, ref, p))
        # wording
        if it["rule"] != "none" and not wording_ok(it["rule"], e):
            err("%s: rule %s does not match expression %r" % (where, it["rule"], e))
        if r["kind"] != "distractor":
            w = outside_words(r["text"], e, it["rule"])
            if w:
                err("%s: time word(s) outside the expression: %s" % (where, w))

    # checksum
    digest = hashlib.sha256(open("sentences.jsonl", "rb").read()).hexdigest()
    try:
        sums = open("SHA256SUMS").read().split()
        if sums[:2] != [digest, "sentences.jsonl"]:
            err("SHA256SUMS does not match sentences.jsonl")
    except OSError:
        err("SHA256SUMS missing")

    kinds = Counter(r.get("kind") for r in recs)
    wd = Counter(name(date.fromisoformat(r["ref"])) for r in recs)
    print("sentences: %d; both implementations agree on %d" % (len(recs), agree))
    print("per kind:", ", ".join("%s %d" % (k, kinds[k]) for k in KINDS))
    print("per ref weekday:", ", ".join("%s %d" % (k, wd[k]) for k in NAMES))
    if errors:
        for m in errors:
            print("ERROR:", m)
        print("FAILED (%d errors)" % len(errors))
        sys.exit(1)
    print("OK: all checks passed")


if __name__ == "__main__":
    main()
