#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""One-off helper: turn every `auto` refspec in items.src into a concrete reference
date and write items.txt.

Refs are chosen deterministically (seeded) so that, over the whole set, reference dates
spread evenly over weekdays, years 2019-2026 and months, and so that within each kind
the weekdays and years are spread too.  Explicit refs in items.src are kept as written.
Constraints after ';' are kept in items.txt so that check.py can re-verify them.

Usage:  python3 assign_refs.py  (reads items.src, writes items.txt)
"""
import random
from datetime import date, timedelta

FIRST, LAST = date(2019, 1, 1), date(2026, 11, 27)
DOW = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def parse_line(line):
    parts = [p.strip() for p in line.split(" | ")]
    if len(parts) != 5:
        raise SystemExit("bad line: %r" % line)
    return parts


def parse_constraints(spec):
    out = {}
    for c in spec.split(";"):
        c = c.strip()
        if not c:
            continue
        k, v = c.split("=", 1)
        out[k] = v
    return out


def implied(rule):
    """Constraints implied by the rule itself (same list as in check.py)."""
    r = rule[len("since:"):] if rule.startswith("since:") else rule
    head, _, arg = r.partition(":")
    tests = []
    if head == "wd_this":
        w = DOW.index(arg)
        tests.append(lambda d: d.weekday() < w)
    if head == "week_earlier":
        tests.append(lambda d: d.weekday() != 0)
    if head == "week_later":
        tests.append(lambda d: d.weekday() != 6)
    if head == "mon_earlier":
        tests.append(lambda d: d.day != 1)
    if head == "yr_earlier":
        tests.append(lambda d: (d.month, d.day) != (1, 1))
    if head == "yr_later":
        tests.append(lambda d: (d.month, d.day) != (12, 31))
    if head == "months":
        tests.append(lambda d: d.day <= 28)
    if head in ("md_past", "md_future"):
        m, dd = map(int, arg.split("-"))
        tests.append(lambda d: (d.month, d.day) != (m, dd))
    if head in ("dom_past", "dom_future"):
        dd = int(arg)
        tests.append(lambda d: d.day != dd)
    return tests


def satisfies(d, cons, rule):
    if not (FIRST <= d <= LAST):
        return False
    if "dow" in cons and DOW[d.weekday()] not in cons["dow"].split(","):
        return False
    if "mon" in cons and d.month not in [int(x) for x in cons["mon"].split(",")]:
        return False
    if "dom" in cons:
        lo, hi = map(int, cons["dom"].split("-"))
        if not lo <= d.day <= hi:
            return False
    if "win" in cons:
        ds, lo, hi = cons["win"].split(":")
        base = date.fromisoformat(ds)
        if not base + timedelta(int(lo)) <= d <= base + timedelta(int(hi)):
            return False
    return all(t(d) for t in implied(rule))


def main():
    rng = random.Random(20261127)
    lines = open("items.src", encoding="utf-8").read().splitlines()
    items = []
    for i, line in enumerate(lines):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        kind, rule, refspec, expr, text = parse_line(line)
        first, _, cons = refspec.partition(";")
        items.append(dict(line=i, kind=kind, rule=rule, first=first, cons=cons, expr=expr, text=text))

    alldays = [FIRST + timedelta(n) for n in range((LAST - FIRST).days + 1)]
    cw, cy, cm, ckw, cky, used = {}, {}, {}, {}, {}, set()
    kind_n = {}
    for it in items:
        kind_n[it["kind"]] = kind_n.get(it["kind"], 0) + 1
    n = len(items)

    def count(d, kind):
        cw[d.weekday()] = cw.get(d.weekday(), 0) + 1
        cy[d.year] = cy.get(d.year, 0) + 1
        cm[d.month] = cm.get(d.month, 0) + 1
        ckw[(kind, d.weekday())] = ckw.get((kind, d.weekday()), 0) + 1
        cky[(kind, d.year)] = cky.get((kind, d.year), 0) + 1
        used.add(d)

    for it in items:
        if it["first"] != "auto":
            d = date.fromisoformat(it["first"])
            if not satisfies(d, parse_constraints(it["cons"]), it["rule"]):
                raise SystemExit("explicit ref violates constraints: %r" % it)
            it["ref"] = d
            count(d, it["kind"])

    todo = [it for it in items if it["first"] == "auto"]
    for it in todo:
        c = parse_constraints(it["cons"])
        it["cands"] = [d for d in alldays if satisfies(d, c, it["rule"])]
        if not it["cands"]:
            raise SystemExit("no candidate ref for %r" % it)
    todo.sort(key=lambda it: (len(it["cands"]), it["line"]))
    for it in todo:
        k = it["kind"]
        kn = kind_n[k]

        def score(d):
            return (cw.get(d.weekday(), 0) / (n / 7) * 3
                    + cy.get(d.year, 0) / (n / 8) * 2
                    + cm.get(d.month, 0) / (n / 12) * 2
                    + ckw.get((k, d.weekday()), 0) / (kn / 7) * 2
                    + cky.get((k, d.year), 0) / (kn / 8)
                    + (100 if d in used else 0)
                    + rng.random() * 0.05)
        best = min(it["cands"], key=score)
        it["ref"] = best
        count(best, k)

    out = []
    by_line = {it["line"]: it for it in items}
    for i, line in enumerate(lines):
        if i in by_line:
            it = by_line[i]
            refspec = it["ref"].isoformat() + (";" + it["cons"] if it["cons"] else "")
            out.append(" | ".join([it["kind"], it["rule"], refspec, it["expr"], it["text"]]))
        else:
            out.append(line.replace("assign_refs.py turns every \"auto\" into a concrete date",
                                    "refs below were made concrete by assign_refs.py from items.src"))
    open("items.txt", "w", encoding="utf-8").write("\n".join(out) + "\n")
    print("assigned", len(todo), "auto refs;", len(items), "items")
    print("weekday:", [cw.get(i, 0) for i in range(7)])
    print("year:", sorted(cy.items()))
    print("month:", sorted(cm.items()))


if __name__ == "__main__":
    main()
