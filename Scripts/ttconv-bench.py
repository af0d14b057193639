#!/usr/bin/env python3
"""The ttconv peer of SubtitleBench's TTML row: reads a file into ttconv's model (its IMSC
reader, after the XML parse) SAMPLES times after one warm-up, and prints one JSON line: the
fastest CPU time of the process for one read (time.process_time), every wall-clock time
(sorted), the byte count and the paragraphs.

Usage: Scripts/ttconv-bench.py FILE [SAMPLES]   (needs ttconv; `make bench` uses the virtual
environment .build/venv-subs when it exists)
"""
import json
import logging
import sys
import time
import xml.etree.ElementTree as et

import ttconv.imsc.reader as imsc_reader
import ttconv.model as model


def read(data):
    return imsc_reader.to_model(et.ElementTree(et.fromstring(data)))


def paragraphs(document):
    count = 0
    stack = [document.get_body()]
    while stack:
        element = stack.pop()
        if element is None:
            continue
        if isinstance(element, model.P):
            count += 1
            continue
        stack.extend(element)
    return count


def main():
    logging.disable(logging.WARNING)
    path = sys.argv[1]
    samples = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with open(path, "rb") as f:
        data = f.read()
    count = paragraphs(read(data))
    cpu = float("inf")
    wall = []
    for _ in range(samples):
        c0, w0 = time.process_time(), time.perf_counter()
        document = read(data)
        c1, w1 = time.process_time(), time.perf_counter()
        cpu = min(cpu, c1 - c0)
        wall.append(w1 - w0)
        del document
    print(json.dumps({"cpu_s": cpu, "wall_s": sorted(wall), "bytes": len(data),
                      "events": count}))


if __name__ == "__main__":
    main()
