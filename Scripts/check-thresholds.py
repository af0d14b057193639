#!/usr/bin/env python3
"""Compares a benchmark's JSON results with its reference thresholds.

Usage: check-thresholds.py Benchmarks/Thresholds/NAME.json RESULTS.json

The thresholds file lists checks: {"checks": [{"path": ..., "min"|"max": ..., "why": ...}]}.
A path names a value in the results: keys joined by '.', and `list[key=value&key=value]` picks
the object of a list whose fields match. Thresholds sit well below the goals (they catch large
regressions, not noise on a shared machine); the goals themselves are judged in the benchmark's
own table. Exits 1 if a check fails or its value is missing.
"""
import json
import math
import re
import sys


def load_results(path):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    # Swift prints non-finite doubles as nan/inf, which JSON lacks.
    text = re.sub(r"(?<=[:\[,])\s*-?(nan|inf)\b", "null", text)
    return json.loads(text)


def lookup(value, path):
    for part in re.findall(r"[^.\[]+(?:\[[^\]]*\])?", path):
        match = re.fullmatch(r"([^\[]+)(?:\[([^\]]*)\])?", part)
        key, selector = match.group(1), match.group(2)
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
        if selector is not None:
            wanted = dict(item.split("=", 1) for item in selector.split("&"))
            found = [
                item for item in value
                if isinstance(item, dict)
                and all(str(item.get(k)) == v for k, v in wanted.items())
            ]
            if len(found) != 1:
                return None
            value = found[0]
    return value


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 64
    with open(sys.argv[1], encoding="utf-8") as handle:
        checks = json.load(handle)["checks"]
    results = load_results(sys.argv[2])
    failed = 0
    for check in checks:
        value = lookup(results, check["path"])
        ok = isinstance(value, (int, float)) and math.isfinite(value)
        if ok and "min" in check:
            ok = value >= check["min"]
        if ok and "max" in check:
            ok = value <= check["max"]
        bound = " and ".join(
            ("%s %g" % (sign, check[key]))
            for key, sign in (("min", ">="), ("max", "<="))
            if key in check
        )
        shown = "missing" if value is None else ("%.4g" % value if isinstance(value, float) else value)
        print("  %-6s %s = %s (threshold %s)" % ("ok" if ok else "FAILED", check["path"], shown, bound))
        failed += 0 if ok else 1
    name = sys.argv[1].rsplit("/", 1)[-1]
    if failed:
        print("%s: %d of %d thresholds failed (a large regression)" % (name, failed, len(checks)))
        return 1
    print("%s: all %d thresholds hold" % (name, len(checks)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
