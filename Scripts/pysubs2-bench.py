#!/usr/bin/env python3
"""The pysubs2 peer of SubtitleBench's ASS row: parses a file with pysubs2 SAMPLES times
(after one warm-up) and prints one JSON line: the fastest CPU time of the process for one
parse (time.process_time), every wall-clock time (sorted), the byte count and the events.

Usage: Scripts/pysubs2-bench.py FILE [SAMPLES]   (needs pysubs2; `make bench` uses the
virtual environment .build/venv-subs when it exists)
"""
import json
import os
import sys
import time

import pysubs2


def main():
    path = sys.argv[1]
    samples = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with open(path, "rb") as f:
        data = f.read()
    text = data.decode("utf-8")
    events = len(pysubs2.SSAFile.from_string(text, format_="ass").events)
    cpu = float("inf")
    wall = []
    for _ in range(samples):
        c0, w0 = time.process_time(), time.perf_counter()
        subs = pysubs2.SSAFile.from_string(text, format_="ass")
        c1, w1 = time.process_time(), time.perf_counter()
        cpu = min(cpu, c1 - c0)
        wall.append(w1 - w0)
        del subs
    print(json.dumps({"cpu_s": cpu, "wall_s": sorted(wall), "bytes": len(data),
                      "events": events, "version": pysubs2.VERSION}))


if __name__ == "__main__":
    main()
