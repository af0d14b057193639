"""Scripts/bench-report.py drawn from the committed sample (Tests/Fixtures/bench-sample).

Run with the report's virtualenv (make report-test):
    .build/venv-report/bin/python -B -m unittest discover -s Tests/BenchReportTests

The sample holds the four benchmarks' JSON from one real run, trimmed; the audio for the
spectrograms is made here (short tones and clicks), as StretchQuality --audio-out names it.
"""
import base64
import contextlib
import html.parser
import importlib.util
import io
import json
import os
import re
import shutil
import struct
import sys
import tempfile
import unittest
import wave

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "Scripts", "bench-report.py")
_spec = importlib.util.spec_from_file_location("bench_report", SCRIPT)
REPORT = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(REPORT)
SAMPLE = os.path.join(ROOT, "Tests", "Fixtures", "bench-sample")
BENCHMARKS = ["SubtitleBench", "TracksBench", "StretchQuality", "ResourceBench"]
# Throughput: 3; StretchQuality heat maps: 6; spectrograms: 3; ResourceBench: 2; history: 1.
FULL_FIGURES = 15
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class StrictHTML(html.parser.HTMLParser):
    """Fails on a closing tag that does not close the innermost open element; collects the
    figures and images."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.images, self.figures, self.doctype = [], [], [], 0, False
        self.captions, self.notes, self.in_caption, self.in_note = [], [], False, False

    def handle_decl(self, decl):
        self.doctype = self.doctype or decl.lower() == "doctype html"

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "img":
            self.images.append(attributes)
        if tag == "figure":
            self.figures += 1
        if tag == "figcaption":
            self.in_caption = True
            self.captions.append("")
        if tag == "p" and attributes.get("class") == "note":
            self.in_note = True
            self.notes.append("")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes %s" % (tag, self.stack[-1:] or "nothing"))
            return
        self.stack.pop()
        self.in_caption = self.in_caption and tag != "figcaption"
        self.in_note = self.in_note and tag != "p"

    def handle_data(self, data):
        if self.in_caption:
            self.captions[-1] += data
        if self.in_note:
            self.notes[-1] += data


def png_size(data):
    """Width and height from a PNG's IHDR chunk, or None when `data` is not a PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


def write_float_wav(path, samples, rate):
    data = np.asarray(samples, dtype="<f4").tobytes()
    header = b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " + struct.pack(
        "<IHHIIHH", 16, 3, 1, rate, rate * 4, 4, 32) + b"data" + struct.pack("<I", len(data))
    with open(path, "wb") as handle:
        handle.write(header + data)


def write_pcm_wav(path, samples, rate):
    with wave.open(path, "wb") as handle:
        handle.setnchannels(1)
        handle.setsampwidth(2)
        handle.setframerate(rate)
        handle.writeframes((np.clip(samples, -1, 1) * 32767).astype("<i2").tobytes())


def make_audio(folder):
    """Short stand-ins for StretchQuality's files: the three signals, each input, ideal, ours
    and two peers, in both the float and the 16-bit format."""
    os.makedirs(folder)
    rate = 8000
    for signal, speed in (("clicks", 0.5), ("music", 1.5), ("white", 0.5)):
        for who in ("input", "ideal", "mtool--ours-", "SoundTouch", "Rubber-Band-R3",
                    "scaletempo2"):
            frames = int(rate * 0.5 / (1 if who == "input" else speed))
            t = np.arange(frames) / rate
            if signal == "clicks":
                x = np.zeros(frames)
                x[::400] = 0.9
            elif signal == "music":
                x = 0.3 * np.sin(2 * np.pi * 440 * t) + 0.2 * np.sin(2 * np.pi * 660 * t)
            else:
                x = 0.2 * np.random.default_rng(7).standard_normal(frames)
            writer = write_pcm_wav if who == "SoundTouch" else write_float_wav
            writer(os.path.join(folder, "%s-%gx-%s.wav" % (signal, speed, who)), x, rate)


class BenchReportTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="bench-report-test-")
        self.bench = os.path.join(self.folder, "bench")
        shutil.copytree(SAMPLE, self.bench)

    def tearDown(self):
        shutil.rmtree(self.folder)

    def render(self, *extra):
        """Runs the script's main() in this process (one import of matplotlib for all tests)."""
        out = os.path.join(self.folder, "report.html")
        printed = io.StringIO()
        saved = sys.argv
        sys.argv = [SCRIPT, "--bench-dir", self.bench, "--out", out, *extra]
        try:
            with contextlib.redirect_stdout(printed):
                status = REPORT.main()
        finally:
            sys.argv = saved
        self.assertEqual(status, 0)
        self.assertIn("benchmark report: ", printed.getvalue())
        with open(out, encoding="utf-8") as handle:
            text = handle.read()
        page = StrictHTML()
        page.feed(text)
        page.close()
        self.assertTrue(page.doctype, "no <!DOCTYPE html>")
        self.assertEqual(page.errors, [])
        self.assertEqual(page.stack, [], "elements left open")
        self.assertEqual(len(page.images), page.figures, "one image per figure")
        for image in page.images:
            match = re.fullmatch(r"data:image/png;base64,([A-Za-z0-9+/=]+)", image["src"])
            self.assertIsNotNone(match, "an image not inlined as PNG")
            size = png_size(base64.b64decode(match.group(1)))
            self.assertIsNotNone(size, "an inlined image is not a PNG")
            self.assertGreater(min(size), 100)
            self.assertTrue(image.get("alt"))
        return page, text

    def test_every_figure_from_the_sample(self):
        make_audio(os.path.join(self.bench, "audio"))
        page, text = self.render()
        self.assertEqual(page.figures, FULL_FIGURES, page.notes)
        self.assertEqual(page.notes, [])
        for name in BENCHMARKS:
            self.assertIn(name, text)
        for what in ("commit", "cores", "report written", "load average"):
            self.assertIn(what, text)
        captions = " ".join(page.captions).lower()
        for what in ("in process", "whole process", "click train at 0.5x", "music mix at 1.5x",
                     "white noise at 0.5x", "log-log", "regression"):
            self.assertIn(what, captions)

    def test_missing_and_broken_benchmarks_are_notes(self):
        os.remove(os.path.join(self.bench, "StretchQuality.json"))
        os.remove(os.path.join(self.bench, "ResourceBench.json"))
        with open(os.path.join(self.bench, "TracksBench.json"), "w") as handle:
            handle.write('{"files": 1000, "timings": [')
        page, text = self.render()
        # SubtitleBench's bars and the history.
        self.assertEqual(page.figures, 2)
        notes = " ".join(page.notes)
        self.assertIn("StretchQuality: not run", notes)
        self.assertIn("ResourceBench: not run", notes)
        self.assertIn("TracksBench: unreadable", notes)

    def test_nothing_run(self):
        for name in BENCHMARKS:
            os.remove(os.path.join(self.bench, name + ".json"))
        page, _ = self.render()
        self.assertEqual(page.figures, 0)
        self.assertGreaterEqual(len(page.notes), 5)

    def test_rows_and_audio_missing_inside_benchmarks(self):
        # No audio; in StretchQuality two tables alone, a peer that failed at every speed and
        # no throughput; ResourceBench's JSON without its scaling rows (as before it had them).
        for name in ("SubtitleBench", "TracksBench"):
            os.remove(os.path.join(self.bench, name + ".json"))
        path = os.path.join(self.bench, "StretchQuality.json")
        with open(path) as handle:
            data = json.load(handle)
        for tool in data["tools"]:
            for row in tool["bySpeed"]:
                for key in list(row):
                    if key not in ("speed", "snr220", "scClicks"):
                        del row[key]
                    elif key != "speed" and tool is data["tools"][1]:
                        row[key] = None
        del data["throughput"]
        with open(path, "w") as handle:
            json.dump(data, handle)
        path = os.path.join(self.bench, "ResourceBench.json")
        with open(path) as handle:
            data = json.load(handle)
        del data["scaling"]
        with open(path, "w") as handle:
            json.dump(data, handle)
        page, text = self.render()
        # Two heat maps (tones, spectral convergence) and the history.
        self.assertEqual(page.figures, 3, page.notes)
        notes = " ".join(page.notes)
        self.assertIn("no throughput rows", notes)
        self.assertIn("no scaling rows", notes)
        self.assertIn("no audio", notes)
        self.assertEqual(notes.count("StretchQuality: no figures for"), 4)

    def test_history_grows_by_one_file_per_recorded_run(self):
        # SubtitleBench alone keeps the three renders short.
        for name in BENCHMARKS[1:]:
            os.remove(os.path.join(self.bench, name + ".json"))
        history = os.path.join(self.folder, "history")
        self.render("--record", "--history", history)
        self.render("--record", "--history", history)
        self.assertEqual(len(os.listdir(history)), 1, "the same run recorded twice")
        path = os.path.join(self.bench, "SubtitleBench.json")
        with open(path) as handle:
            data = json.load(handle)
        for row in data["results"]:
            row["cpu_MBps"] = row["cpu_MBps"] / 2 if row["cpu_MBps"] else None
        with open(path, "w") as handle:
            json.dump(data, handle)
        later = os.path.getmtime(path) + 3600
        os.utime(path, (later, later))
        page, _ = self.render("--record", "--history", history)
        names = sorted(os.listdir(history))
        self.assertEqual(len(names), 2)
        for name in names:
            self.assertRegex(name, r"^\d{8}T\d{6}Z-[0-9a-f]{10}(-dirty)?\.json$|^\d{8}T\d{6}Z-"
                             r"unknown\.json$")
            with open(os.path.join(history, name)) as handle:
                run = json.load(handle)
            self.assertEqual(list(run["benchmarks"]), ["SubtitleBench"])
            self.assertIn("cpu", run["machine"])
        self.assertIn("over the last 2 runs", " ".join(page.captions))


if __name__ == "__main__":
    unittest.main()
