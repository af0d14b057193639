#!/usr/bin/env python3
"""Opens the benchmark report in headless Chromium and checks that every image shows.

Usage: bench-report-check.py REPORT.html [--screenshot PNG] [--small PNG] [--width PX]

Loads the page once to read what its own script finds after loading (how many images there are
and how many the browser decoded) and the page's height, then takes a screenshot of the whole
page at --width (default 1280) pixels. --small also writes a reduced copy for the README (half
the width, as few colours as keep it under 300 kB). Exits 1 if an image is broken or the page
has none, 2 when Chromium cannot be run.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from PIL import Image

# The README's copy stays under this size.
SMALL_LIMIT = 300 * 1000
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                  "--force-device-scale-factor=1", "--virtual-time-budget=10000"]


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run(browser, args, profile):
    return subprocess.run([browser, *CHROMIUM_FLAGS, "--user-data-dir=" + profile, *args],
                          capture_output=True, text=True, timeout=180)


def main():
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("report")
    parser.add_argument("--screenshot")
    parser.add_argument("--small")
    parser.add_argument("--width", type=int, default=1280)
    args = parser.parse_args()
    browser = chromium()
    if browser is None:
        print("bench-report-check: no chromium (apt-get install chromium)", file=sys.stderr)
        return 2
    if not os.path.exists(args.report):
        print("bench-report-check: no %s (make bench-report writes it)" % args.report,
              file=sys.stderr)
        return 2
    url = "file://" + os.path.abspath(args.report)
    with open(args.report, encoding="utf-8") as handle:
        expected = len(re.findall(r"<img\b", handle.read()))
    with tempfile.TemporaryDirectory() as profile:
        dom = run(browser, ["--window-size=%d,1000" % args.width, "--dump-dom", url], profile)
        found = re.search(r'data-images="(\d+) loaded (\d+)"', dom.stdout)
        height = re.search(r'data-height="(\d+)"', dom.stdout)
        if dom.returncode != 0 or not found:
            print("bench-report-check: Chromium did not run the page's check (exit %d): %s"
                  % (dom.returncode, dom.stderr.strip()[-400:]), file=sys.stderr)
            return 2
        total, loaded = int(found.group(1)), int(found.group(2))
        print("%s: %d images in the page, %d in the file, %d decoded by Chromium"
              % (args.report, total, expected, loaded))
        ok = total == expected and loaded == total and total > 0
        if args.screenshot:
            page_height = int(height.group(1)) if height else 4000
            shot = run(browser, ["--window-size=%d,%d" % (args.width, page_height),
                                 "--screenshot=" + os.path.abspath(args.screenshot), url],
                       profile)
            if shot.returncode != 0 or not os.path.exists(args.screenshot):
                print("bench-report-check: no screenshot: %s" % shot.stderr.strip()[-400:],
                      file=sys.stderr)
                return 2
            image = Image.open(args.screenshot)
            print("screenshot: %s (%dx%d)" % (args.screenshot, image.width, image.height))
            if args.small:
                halved = image.convert("RGB").resize((image.width // 2, image.height // 2),
                                                     Image.LANCZOS)
                # The fewest colours needed to stay under SMALL_LIMIT bytes, from 256 down.
                for colours in (256, 192, 128, 96, 64, 48, 32):
                    small = halved.quantize(colors=colours, method=Image.Quantize.MEDIANCUT)
                    small.save(args.small, optimize=True)
                    if os.path.getsize(args.small) <= SMALL_LIMIT:
                        break
                print("small copy: %s (%dx%d, %d colours, %d KB)"
                      % (args.small, small.width, small.height, colours,
                         os.path.getsize(args.small) // 1024))
    if not ok:
        print("bench-report-check: FAILED: %d of %d images decoded" % (loaded, total))
        return 1
    print("bench-report-check: every image shows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
