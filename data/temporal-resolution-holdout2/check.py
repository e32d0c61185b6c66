#!/usr/bin/env python3
"""check.py - independent verification of the holdout2 set.

1. Validates sentences.jsonl (fields, ids unique, split, kinds, expression occurs
   exactly once in text, dates valid, start <= end, vague/distractor have accept []).
2. Recomputes every accepted range a SECOND way: by enumerating every calendar day
   in a window (2008-01-01 .. 2034-12-31) and testing each day against the rule
   (ISO-week keys, month keys, season and quarter look-up tables, "latest/earliest
   matching day" selection).  No weekday-offset or month-index arithmetic from
   label.py is reused.
3. Confirms that the enumeration result, label.py's arithmetic result and the
   accept field in sentences.jsonl are identical for every sentence.
4. Verifies SHA256SUMS.

Exit status 0 and "ALL CHECKS PASSED" on success.
"""
import datetime as dt
import hashlib
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import label  # noqa: E402  (used only for reading items.txt and for the comparison)

KINDS = {"day-relative", "weekday", "week", "weekend", "month", "year", "month-day",
         "explicit", "season", "quarter", "n-ago", "future", "vague", "distractor"}
WD_NAMES = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
MONTH_NAMES = ["jan", "feb", "mar", "apr", "may", "jun",
               "jul", "aug", "sep", "oct", "nov", "dec"]
# meteorological seasons by month number (winter handled via season-year below)
SEASON_OF_MONTH = {1: "winter", 2: "winter", 3: "spring", 4: "spring", 5: "spring",
                   6: "summer", 7: "summer", 8: "summer", 9: "fall", 10: "fall",
                   11: "fall", 12: "winter"}
QUARTER_OF_MONTH = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4, 11: 4, 12: 4}

WIN_START = dt.date(2008, 1, 1)
WIN_END = dt.date(2034, 12, 31)


def build_calendar():
    cal = []
    d = WIN_START
    while d <= WIN_END:
        iso = d.isocalendar()
        season = SEASON_OF_MONTH[d.month]
        season_year = d.year - 1 if (season == "winter" and d.month <= 2) else d.year
        cal.append({
            "date": d,
            "wd": WD_NAMES[d.weekday()],
            "week": (iso[0], iso[1]),
            "month": (d.year, d.month),
            "year": d.year,
            "season": (season, season_year),
            "quarter": (d.year, QUARTER_OF_MONTH[d.month]),
        })
        d = d + dt.timedelta(days=1)
    return cal


CAL = build_calendar()
POS = {c["date"]: i for i, c in enumerate(CAL)}


def keys_in_order(field):
    seen = []
    for c in CAL:
        if not seen or seen[-1] != c[field]:
            seen.append(c[field])
    return seen


ORDERED = {f: keys_in_order(f) for f in ("week", "month", "year", "quarter")}


def key_shift(field, key, k):
    lst = ORDERED[field]
    return lst[lst.index(key) + k]


def days_where(pred):
    return [c["date"] for c in CAL if pred(c)]


def to_range(ds):
    """A non-empty set of days that must be contiguous -> (start, end)."""
    if not ds:
        raise AssertionError("empty day set")
    ds = sorted(ds)
    i0 = POS[ds[0]]
    if [CAL[i]["date"] for i in range(i0, i0 + len(ds))] != ds:
        raise AssertionError("day set not contiguous")
    if ds[0] == WIN_START or ds[-1] == WIN_END:
        raise AssertionError("range touches enumeration window edge")
    return (ds[0], ds[-1])


def nth_from(ref, n):
    """The calendar day n positions after ref in the enumerated calendar."""
    return CAL[POS[ref] + n]["date"]


def latest(pred):
    ds = days_where(pred)
    return max(ds)


def earliest(pred):
    ds = days_where(pred)
    return min(ds)


def cell(d):
    return CAL[POS[d]]


# ---------------------------------------------------------------- rules by enumeration
def enum_sets(rule, ref):
    """Return a list of day-sets (one per acceptable reading)."""
    name, _, arg = rule.partition(":")
    R = cell(ref)

    if name == "none":
        return []

    if name == "since":
        out = []
        for ds in enum_sets(arg, ref):
            out.append(ds)
            first = min(ds)
            out.append(days_where(lambda c, f=first: f <= c["date"] <= ref))
        return out

    if name == "day":
        t = nth_from(ref, int(arg))
        return [days_where(lambda c: c["date"] == t)]

    if name == "wd_past":
        return [[latest(lambda c: c["wd"] == arg and c["date"] < ref)]]
    if name == "wd_future":
        return [[earliest(lambda c: c["wd"] == arg and c["date"] > ref)]]
    if name == "wd_last":
        first = latest(lambda c: c["wd"] == arg and c["date"] < ref)
        out = [[first]]
        if nth_from(first, 1) == ref:
            out.append([latest(lambda c: c["wd"] == arg and c["date"] < first)])
        return out
    if name == "wd_this":
        if not WD_NAMES.index(R["wd"]) < WD_NAMES.index(arg):
            raise AssertionError("this-weekday precondition")
        return [days_where(lambda c: c["wd"] == arg and c["week"] == R["week"])]
    if name == "wd_next":
        a = earliest(lambda c: c["wd"] == arg and c["date"] > ref)
        nxt = key_shift("week", R["week"], 1)
        return [[a], days_where(lambda c: c["wd"] == arg and c["week"] == nxt)]

    if name == "week":
        wk = key_shift("week", R["week"], int(arg))
        return [days_where(lambda c: c["week"] == wk)]
    if name in ("weeks_ago", "in_weeks"):
        n = 7 * int(arg) * (-1 if name == "weeks_ago" else 1)
        t = nth_from(ref, n)
        return [days_where(lambda c: c["week"] == cell(t)["week"]), [t]]
    if name == "week_earlier":
        return [days_where(lambda c: c["week"] == R["week"] and c["date"] < ref),
                days_where(lambda c: c["week"] == R["week"])]
    if name in ("week_of_date", "week_before_date", "week_after_date"):
        x = dt.date.fromisoformat(arg)
        k = {"week_of_date": 0, "week_before_date": -1, "week_after_date": 1}[name]
        wk = key_shift("week", cell(x)["week"], k)
        out = [days_where(lambda c: c["week"] == wk)]
        if k == -1:
            out.append(days_where(lambda c: x > c["date"] >= nth_from(x, -7)))
        if k == 1:
            out.append(days_where(lambda c: x < c["date"] <= nth_from(x, 7)))
        return out
    if name == "day_rel":
        s, n = arg.rsplit(":", 1)
        t = nth_from(dt.date.fromisoformat(s), int(n))
        return [[t]]

    if name in ("wkend", "wkend_past", "wkend_future"):
        if name == "wkend_past" or (name == "wkend" and int(arg) < 0):
            # weekend(s) whose Sunday is strictly before ref; take the latest (or 2nd latest)
            back = 1 if name == "wkend_past" else -int(arg)
            if name == "wkend_past" and R["wd"] in ("sat", "sun"):
                raise AssertionError("bare past weekend on weekend ref")
            suns = sorted(days_where(lambda c: c["wd"] == "sun" and c["date"] < ref))
            sun = suns[-back]
            return [days_where(lambda c: c["wd"] in ("sat", "sun") and c["week"] == cell(sun)["week"])]
        if name == "wkend_future":
            if R["wd"] in ("sat", "sun"):
                raise AssertionError("bare future weekend on weekend ref")
            sat = earliest(lambda c: c["wd"] == "sat" and c["date"] > ref)
            return [days_where(lambda c: c["wd"] in ("sat", "sun") and c["week"] == cell(sat)["week"])]
        wk = key_shift("week", R["week"], int(arg))  # this (0) / next (+1) weekend
        return [days_where(lambda c: c["wd"] in ("sat", "sun") and c["week"] == wk)]

    if name == "month":
        mk = key_shift("month", R["month"], int(arg))
        return [days_where(lambda c: c["month"] == mk)]
    if name == "months_ago":
        mk = key_shift("month", R["month"], -int(arg))
        return [days_where(lambda c: c["month"] == mk),
                days_where(lambda c: c["month"] == mk and c["date"].day == ref.day)]
    if name == "month_earlier":
        return [days_where(lambda c: c["month"] == R["month"] and c["date"] < ref),
                days_where(lambda c: c["month"] == R["month"])]
    if name in ("mname_past", "mname_future"):
        m = MONTH_NAMES.index(arg) + 1
        if name == "mname_past":
            cands = [mk for mk in ORDERED["month"] if mk[1] == m and mk <= R["month"]]
            mk = max(cands)
        else:
            cands = [mk for mk in ORDERED["month"] if mk[1] == m and mk >= R["month"]]
            mk = min(cands)
        return [days_where(lambda c: c["month"] == mk)]

    if name == "year":
        yk = key_shift("year", R["year"], int(arg))
        return [days_where(lambda c: c["year"] == yk)]
    if name == "year_earlier":
        return [days_where(lambda c: c["year"] == R["year"] and c["date"] < ref),
                days_where(lambda c: c["year"] == R["year"])]

    if name in ("md_past", "md_future"):
        m, d = (int(x) for x in arg.split("-"))
        hit = lambda c: c["date"].month == m and c["date"].day == d  # noqa: E731
        if name == "md_past":
            return [[latest(lambda c: hit(c) and c["date"] <= ref)]]
        return [[earliest(lambda c: hit(c) and c["date"] >= ref)]]

    if name == "date":
        return [days_where(lambda c: c["date"].isoformat() == arg)]
    if name == "ym":
        return [days_where(lambda c: "%04d-%02d" % c["month"] == arg)]
    if name == "y":
        return [days_where(lambda c: str(c["year"]) == arg)]
    if name == "slash":
        a, b, y = arg.split("/")
        mdy = days_where(lambda c: c["year"] == int(y) and c["date"].month == int(a) and c["date"].day == int(b))
        dmy = days_where(lambda c: c["year"] == int(y) and c["date"].month == int(b) and c["date"].day == int(a))
        return [s for s in (mdy, dmy) if s]
    if name == "dot":
        dd, mm, yy = arg.split(".")
        return [days_where(lambda c: c["date"].strftime("%d.%m.%Y") == arg)]

    if name in ("season_last", "season_this", "season_year"):
        if name == "season_year":
            s, y = arg.split(":")
            key = (("fall" if s == "autumn" else s), int(y))
        else:
            s = "fall" if arg == "autumn" else arg
            if name == "season_this":
                key = (s, ref.year)
            else:
                # most recent instance of season s whose every day is before ref
                insts = {}
                for c in CAL:
                    if c["season"][0] == s:
                        insts.setdefault(c["season"], []).append(c["date"])
                done = [k for k, ds in insts.items() if max(ds) < ref]
                key = max(done, key=lambda k: max(insts[k]))
        return [days_where(lambda c: c["season"] == key)]

    if name == "q":
        y, q = (int(x) for x in arg.split(":"))
        return [days_where(lambda c: c["quarter"] == (y, q))]
    if name == "qrel":
        qk = key_shift("quarter", R["quarter"], int(arg))
        return [days_where(lambda c: c["quarter"] == qk)]

    raise AssertionError("unknown rule " + rule)


def enum_ranges(rule, ref):
    out = []
    for ds in enum_sets(rule, ref):
        r = to_range(ds)
        if r not in out:
            out.append(r)
    return out


# ---------------------------------------------------------------- validation
ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def valid_iso(s):
    if not isinstance(s, str) or not ISO.match(s):
        return False
    try:
        dt.date.fromisoformat(s)
        return True
    except ValueError:
        return False


def main():
    errors = []

    def err(msg):
        errors.append(msg)

    items = label.read_items()
    path = os.path.join(HERE, "sentences.jsonl")
    with open(path, encoding="utf-8") as fh:
        raw_lines = fh.read().split("\n")
    if raw_lines and raw_lines[-1] == "":
        raw_lines = raw_lines[:-1]
    recs = []
    for i, line in enumerate(raw_lines, 1):
        try:
            recs.append(json.loads(line))
        except json.JSONDecodeError as e:
            err(f"line {i}: invalid JSON: {e}")
    if len(recs) != len(items):
        err(f"sentences.jsonl has {len(recs)} records but items.txt has {len(items)}")

    ids, texts = set(), set()
    fields = {"id", "text", "ref", "expression", "accept", "kind", "split"}
    n_ok = 0
    for rec, it in zip(recs, items):
        rid = rec.get("id")
        where = f"{rid}"
        if set(rec) != fields:
            err(f"{where}: fields {sorted(rec)}")
            continue
        if not (isinstance(rid, str) and re.match(r"^u\d{4}$", rid)):
            err(f"{where}: bad id")
        if rid in ids:
            err(f"{where}: duplicate id")
        ids.add(rid)
        if rec["text"] in texts:
            err(f"{where}: duplicate text")
        texts.add(rec["text"])
        if rec["split"] != "holdout2":
            err(f"{where}: split")
        if rec["kind"] not in KINDS:
            err(f"{where}: kind {rec['kind']}")
        if not valid_iso(rec["ref"]):
            err(f"{where}: bad ref {rec['ref']}")
            continue
        # consistency with the source
        for k in ("id", "text", "ref", "expression", "kind"):
            if rec[k] != it[k]:
                err(f"{where}: {k} differs from items.txt")
        expr, text = rec["expression"], rec["text"]
        if rec["kind"] == "distractor":
            if expr is not None:
                err(f"{where}: distractor with expression")
        else:
            if not isinstance(expr, str) or not expr:
                err(f"{where}: missing expression")
            elif text.count(expr) != 1:
                err(f"{where}: expression {expr!r} occurs {text.count(expr)} times in text")
        acc = rec["accept"]
        if not isinstance(acc, list):
            err(f"{where}: accept not a list")
            continue
        if rec["kind"] in ("vague", "distractor") and acc:
            err(f"{where}: vague/distractor must have accept []")
        if rec["kind"] not in ("vague", "distractor") and not acc:
            err(f"{where}: dated kind with empty accept")
        file_ranges = []
        bad = False
        for r in acc:
            if set(r) != {"start", "end"} or not valid_iso(r["start"]) or not valid_iso(r["end"]):
                err(f"{where}: bad range {r}")
                bad = True
                continue
            if r["start"] > r["end"]:
                err(f"{where}: start > end in {r}")
                bad = True
            file_ranges.append((r["start"], r["end"]))
        if len(set(file_ranges)) != len(file_ranges):
            err(f"{where}: duplicate ranges in accept")
        if bad:
            continue
        ref = dt.date.fromisoformat(rec["ref"])
        try:
            enum = {(s.isoformat(), e.isoformat()) for s, e in enum_ranges(it["rule"], ref)}
        except (AssertionError, ValueError, IndexError) as e:
            err(f"{where}: enumeration failed for {it['rule']}: {e}")
            continue
        try:
            arith = {(s.isoformat(), e.isoformat()) for s, e in label.resolve(it["rule"], ref)}
        except Exception as e:  # noqa: BLE001
            err(f"{where}: label.py failed for {it['rule']}: {e}")
            continue
        if enum != arith:
            err(f"{where}: enumeration {sorted(enum)} != arithmetic {sorted(arith)} ({it['rule']} @ {rec['ref']})")
        elif enum != set(file_ranges):
            err(f"{where}: sentences.jsonl accept {sorted(file_ranges)} != computed {sorted(enum)}")
        else:
            n_ok += 1

    # SHA256SUMS
    sums = os.path.join(HERE, "SHA256SUMS")
    if not os.path.exists(sums):
        err("SHA256SUMS missing")
    else:
        with open(path, "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()
        with open(sums, encoding="utf-8") as fh:
            listed = {ln.split()[1].lstrip("*"): ln.split()[0] for ln in fh if ln.strip()}
        if listed.get("sentences.jsonl") != digest:
            err("SHA256SUMS does not match sentences.jsonl")

    for e in errors:
        print("ERROR:", e)
    print(f"{len(recs)} sentences, {n_ok} with enumeration == arithmetic == file")
    if errors:
        print(f"{len(errors)} ERRORS")
        sys.exit(1)
    print("ALL CHECKS PASSED")


if __name__ == "__main__":
    main()
