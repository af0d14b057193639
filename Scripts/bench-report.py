#!/usr/bin/env python3
"""Draws the benchmark results as one self-contained HTML page.

Usage: bench-report.py [--bench-dir DIR] [--out PATH] [--history DIR] [--audio DIR]
                       [--record] [--runs N]

Reads the JSON that `make bench` writes into DIR (default .build/bench): SubtitleBench.json,
TracksBench.json, StretchQuality.json and ResourceBench.json, and the WAV files StretchQuality
writes with --audio-out (default DIR/audio). Writes PATH (default DIR/report.html): every figure
is a PNG drawn with matplotlib and inlined as base64, so the page opens on its own.

--record first copies this run's JSON into the history folder (default DIR/history) as one file
named after the run's date and the commit; the history figure draws each headline figure over the
last N runs (default 20) found there, and this run. A benchmark whose JSON is missing or unreadable
gets a note on the page instead of its figures. Exits 0 when the page was written.
"""
import argparse
import base64
import datetime
import glob
import html
import io
import json
import math
import os
import platform
import re
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402

BENCHMARKS = ["SubtitleBench", "TracksBench", "StretchQuality", "ResourceBench"]
OURS_COLOUR = "#1f77b4"
PEER_COLOUR = "#b0b0b0"
GOAL_COLOUR = "#d62728"
DPI = 100


# MARK: - Reading


def load_json(path):
    """The JSON document at `path`; Swift's nan/inf (which JSON lacks) become null."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    text = re.sub(r"(?<=[:\[,])\s*-?(nan|inf)\b", "null", text)
    return json.loads(text)


def number(value):
    """`value` as a finite float, or None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def read_wav(path):
    """Mono samples (the first channel) as float64 in [-1, 1], and the sample rate.

    Reads 16-bit PCM and 32-bit float WAV (the formats StretchQuality writes)."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise ValueError("%s: not a RIFF/WAVE file" % path)
    pos, fmt = 12, None
    while pos + 8 <= len(data):
        chunk, size = data[pos:pos + 4], int.from_bytes(data[pos + 4:pos + 8], "little")
        body = data[pos + 8:pos + 8 + size]
        if chunk == b"fmt ":
            tag, channels, rate = (int.from_bytes(body[0:2], "little"),
                                   int.from_bytes(body[2:4], "little"),
                                   int.from_bytes(body[4:8], "little"))
            bits = int.from_bytes(body[14:16], "little")
            if tag == 0xFFFE and len(body) >= 26:
                tag = int.from_bytes(body[24:26], "little")
            fmt = (tag, channels, rate, bits)
        elif chunk == b"data":
            if fmt is None:
                raise ValueError("%s: data before fmt" % path)
            tag, channels, rate, bits = fmt
            if size == 0 or pos + 8 + size > len(data):
                body = data[pos + 8:]
            if (tag, bits) == (3, 32):
                samples = np.frombuffer(body[:len(body) // 4 * 4], dtype="<f4").astype(np.float64)
            elif (tag, bits) == (1, 16):
                samples = np.frombuffer(body[:len(body) // 2 * 2], dtype="<i2") / 32768.0
            else:
                raise ValueError("%s: format %d with %d bits" % (path, tag, bits))
            frames = len(samples) // channels
            return samples[:frames * channels].reshape(frames, channels)[:, 0], rate
        pos += 8 + size + (size & 1)
    raise ValueError("%s: no data chunk" % path)


# MARK: - Page


class Page:
    """The report's HTML, section by section; every figure inlined as a PNG."""

    def __init__(self):
        self.parts = []
        self.figures = 0
        self.notes = 0

    def heading(self, text, level=2, anchor=None):
        ident = ' id="%s"' % anchor if anchor else ""
        self.parts.append("<h%d%s>%s</h%d>" % (level, ident, html.escape(text), level))

    def paragraph(self, text):
        self.parts.append("<p>%s</p>" % html.escape(text))

    def note(self, text):
        self.notes += 1
        self.parts.append('<p class="note">%s</p>' % html.escape(text))

    def table(self, header, rows):
        """A table of text; no header row when `header` is None."""
        lines = ["<table>"]
        if header:
            cells = "".join("<th>%s</th>" % html.escape(str(h)) for h in header)
            lines.append("<thead><tr>%s</tr></thead>" % cells)
        lines.append("<tbody>")
        for row in rows:
            lines.append("<tr>%s</tr>" % "".join(
                "<td>%s</td>" % html.escape(str(c)) for c in row))
        lines.append("</tbody></table>")
        self.parts.append("".join(lines))

    def figure(self, fig, caption):
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=DPI)
        plt.close(fig)
        encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
        self.figures += 1
        self.parts.append(
            '<figure><img alt="%s" src="data:image/png;base64,%s"><figcaption>%s</figcaption>'
            "</figure>" % (html.escape(caption, quote=True), encoded, html.escape(caption)))

    def attempt(self, what, draw):
        """Runs `draw`; a failure becomes a note on the page, not a crash."""
        try:
            draw()
        except Exception as error:  # a figure that cannot be drawn must not lose the page
            plt.close("all")
            self.note("%s: could not be drawn (%s: %s)" % (what, type(error).__name__, error))

    def html(self, title):
        style = """
body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; margin: 0 auto; max-width: 1240px;
       padding: 0 16px 40px; color: #222; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: 4px; margin-top: 1.6em; }
figure { margin: 12px 0 24px; } figure img { max-width: 100%; height: auto; display: block; }
figcaption { font-size: 0.9em; color: #444; margin-top: 4px; }
table { border-collapse: collapse; margin: 8px 0; font-size: 0.9em; }
td, th { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
.note { background: #fff4e0; border-left: 4px solid #e0a030; padding: 6px 10px; }
"""
        # Counts the images the browser could decode and measures the page, for the headless check
        # (Scripts/bench-report-check.py).
        script = """
window.addEventListener('load', function () {
  var images = Array.prototype.slice.call(document.images);
  var broken = images.filter(function (i) { return !i.complete || i.naturalWidth === 0; });
  document.body.setAttribute('data-images', images.length + ' loaded ' + (images.length - broken.length));
  document.body.setAttribute('data-height', document.documentElement.scrollHeight);
});
"""
        return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                "<title>%s</title><style>%s</style></head><body>\n%s\n<script>%s</script>"
                "</body></html>\n" % (html.escape(title), style, "\n".join(self.parts), script))


# MARK: - Run facts


def git(*args, cwd=None):
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def commit_info():
    """(full hash, short hash with '+' when the work tree has changes, subject) or Nones."""
    full = git("rev-parse", "HEAD")
    if full is None:
        return None, "unknown", None
    dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    return full, full[:10] + ("+" if dirty else ""), git("log", "-1", "--format=%s")


def machine_info():
    """Facts about this machine: kernel, CPU model, cores, memory."""
    facts = {"system": " ".join(platform.uname()[i] for i in (0, 2, 4))}
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    facts["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    facts["cores"] = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else os.cpu_count()
    try:
        with open("/proc/meminfo", encoding="utf-8") as handle:
            kb = int(handle.readline().split()[1])
            facts["memory"] = "%.1f GiB" % (kb / 1024 / 1024)
    except (OSError, ValueError, IndexError):
        pass
    return facts


# MARK: - Throughput bars


def log_axis(ax):
    """A log y axis with ticks at powers of ten only (minor ticks cost most of the drawing)."""
    ax.set_yscale("log")
    ax.minorticks_off()
    ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: "%g" % v))


def bars(ax, labels, values, ours, colours=None):
    """Vertical bars, ours coloured; values None are drawn as 'not run'. Returns the bars."""
    heights = [v if v is not None else 0 for v in values]
    colours = colours or [OURS_COLOUR if o else PEER_COLOUR for o in ours]
    drawn = ax.bar(range(len(labels)), heights, color=colours, edgecolor="#333", linewidth=0.5)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=20, ha="right", fontsize=8)
    for bar, value in zip(drawn, values):
        if value is None:
            ax.annotate("not run", (bar.get_x() + bar.get_width() / 2, 0), ha="center",
                        va="bottom", fontsize=7, xytext=(0, 3), textcoords="offset points")
    return drawn


def times(ratio):
    """A ratio as 2.66x, 25.3x or 367x."""
    return ("%.0fx" if ratio >= 100 else "%.1fx" if ratio >= 10 else "%.2fx") % ratio


def label_bar(ax, bar, text):
    """`text` just above the bar's top."""
    height = bar.get_height()
    if height <= 0:
        return
    ax.annotate(text, (bar.get_x() + bar.get_width() / 2, height), ha="center", va="bottom",
                fontsize=7.5, xytext=(0, 2), textcoords="offset points")


def goal_line(ax, value, text, bar=0, style="--"):
    """The goal for the bar at index `bar` (ours): a red line across it, named in the legend."""
    ax.hlines(value, bar - 0.45, bar + 0.45, colors=GOAL_COLOUR, linestyles=style,
              linewidth=1.8, zorder=4, label=text)


def subtitle_throughput(page, data):
    """SubtitleBench: CPU MB/s of each parser per file; goal 1000 (SRT) / 800 (WebVTT) MB/s."""
    results = data.get("results") or []
    files = list(dict.fromkeys(r["file"] for r in results))
    if not files:
        page.note("SubtitleBench: the JSON has no results.")
        return
    fig, axes = plt.subplots(1, len(files), figsize=(3.1 * len(files), 3.6), squeeze=False)
    for ax, name in zip(axes[0], files):
        rows = [r for r in results if r["file"] == name]
        ours = next((r for r in rows if r.get("name") == "ours"), None)
        values = [number(r.get("cpu_MBps")) for r in rows]
        values = [v if v and v > 0 else None for v in values]
        drawn = bars(ax, [r["name"] for r in rows], values, [r["name"] == "ours" for r in rows])
        log_axis(ax)
        for bar, row, value in zip(drawn, rows, values):
            if value is None:
                continue
            text = "%.0f" % value
            if ours is not None and row is not ours and number(ours.get("cpu_MBps")):
                text += "\nours " + times(number(ours["cpu_MBps"]) / value)
            label_bar(ax, bar, text)
        goal = 1000 if name.endswith(".srt") else 800
        goal_line(ax, goal, None, bar=rows.index(ours) if ours in rows else 0)
        ax.set_title("%s (goal %d MB/s)" % (name, goal), fontsize=9)
        ax.set_ylabel("MB/s (CPU time)" if ax is axes[0][0] else "")
        ax.margins(y=0.25)
        top = max(v for v in values if v) if any(values) else goal
        ax.set_ylim(top=max(top, goal) * 4)
    fig.suptitle("SubtitleBench: parsing throughput, MB/s of file per CPU second", fontsize=10)
    fig.tight_layout()
    page.figure(fig, "SubtitleBench, in process: each parser's CPU MB/s on the 100,000-cue files "
                "(log scale); 'ours Nx' on a peer's bar is ours over that peer; the red line on our bar is "
                "the goal.")


def tracks_throughput(page, data):
    """TracksBench: files per second of each way of listing tracks; goals 100x ffprobe's and 3x
    the in-process full probe's."""
    files = number(data.get("files"))
    timings = data.get("timings") or []
    if not files or not timings:
        page.note("TracksBench: the JSON has no timings.")
        return
    labels, values, ours, whole = [], [], [], []
    for timing in timings:
        seconds = number(timing.get("min"))
        name = timing.get("name", "?")
        labels.append(re.sub(r" \(.*\)|, once per file| -of json| -show_streams -show_format",
                             "", name))
        values.append(files / seconds if seconds and seconds > 0 else None)
        ours.append(name.startswith("mtool") or name.startswith("MediaProbe"))
        whole.append("in process" not in name)
    fig, ax = plt.subplots(figsize=(11, 3.8))
    colours = [OURS_COLOUR if o else PEER_COLOUR for o in ours]
    drawn = bars(ax, labels, values, ours, colours)
    for bar, is_whole in zip(drawn, whole):
        if not is_whole:
            bar.set_hatch("//")
    log_axis(ax)
    first = values[0]
    for bar, value, is_ours in zip(drawn, values, ours):
        if value is None:
            continue
        text = "%.0f files/s" % value
        if not is_ours and first:
            text += "\nours " + times(first / value)
        label_bar(ax, bar, text)

    def find(prefix):
        return next((v for t, v in zip(timings, values) if t.get("name", "").startswith(prefix)
                     and v), None)
    ffprobe, full = find("ffprobe"), find("libavformat")
    if ffprobe:
        goal_line(ax, ffprobe * 100, "goal for mtool tracks: 100x ffprobe's files/s")
    if full:
        goal_line(ax, full * 3, "goal for mtool tracks: 3x the full probe's files/s", style=":")
    if ffprobe or full:
        ax.legend(loc="upper right", fontsize=7.5)
    top = max(v for v in values if v)
    ax.set_ylim(top=max(top, (ffprobe or 0) * 100, (full or 0) * 3) * 5)
    ax.set_ylabel("files per second (wall)")
    ax.set_title("TracksBench: listing the tracks of %d files (hatched: in process)" % files,
                 fontsize=10)
    fig.tight_layout()
    page.figure(fig, "TracksBench: files/s from the fastest wall-clock run (log scale). mtool "
                "tracks and ffprobe run as whole processes; the full probe and MediaProbe run in "
                "process (hatched). 'ours Nx' compares mtool tracks (first bar) with the peer.")


def stretch_throughput(page, data):
    """StretchQuality: times realtime of each stretcher; goal 2x SoundTouch's."""
    rows = data.get("throughput") or []
    if not rows:
        page.note("StretchQuality: the JSON has no throughput rows.")
        return
    values = [number(r.get("xRealtime")) for r in rows]
    ours_flags = [bool(r.get("ours")) for r in rows]
    labels = [r.get("name", "?") for r in rows]
    fig, ax = plt.subplots(figsize=(11, 3.8))
    drawn = bars(ax, labels, values, ours_flags)
    for bar, label in zip(drawn, labels):
        if "in process" in label:
            bar.set_hatch("//")
    log_axis(ax)
    ours = next((v for v, o, l in zip(values, ours_flags, labels) if o and "in process" in l),
                None)
    for bar, value, is_ours in zip(drawn, values, ours_flags):
        if value is None:
            continue
        text = ("%.0fx" if value >= 10 else "%.2gx") % value
        if not is_ours and ours:
            text += "\nours " + times(ours / value)
        label_bar(ax, bar, text)
    soundtouch = next((v for v, l in zip(values, labels) if l == "SoundTouch"), None)
    if soundtouch:
        mine = [index for index, is_ours in enumerate(ours_flags) if is_ours]
        for index in mine:
            goal_line(ax, 2 * soundtouch, "goal: 2x SoundTouch's" if index == mine[0] else None,
                      bar=index)
        ax.legend(loc="upper right", fontsize=7.5)
    top = max([v for v in values if v] + [2 * (soundtouch or 0)])
    ax.set_ylim(top=top * 5)
    ax.set_ylabel("x realtime (wall)")
    ax.set_title("StretchQuality: stretching %s of 44.1 kHz stereo at 1.5x (hatched: in process)"
                 % ("10 s" if data.get("quick") else "60 s"), fontsize=10)
    fig.tight_layout()
    page.figure(fig, "StretchQuality throughput, best run of each (log scale): ours in process "
                "(hatched), 'mtool stretch' and the peers as whole commands reading and writing "
                "WAV files. 'ours Nx' is ours in process over the peer.")


# MARK: - StretchQuality heat maps

# Each table: key, title, goal kind and value. Kinds: 'max' (at most), 'min' (at least), 'abs'
# (|value| at most), 'zero' (a count, goal 0), and 'best' (no absolute goal: judged against the
# best tool in the column, lower or higher as the sign says). Goals as StretchQuality prints them.
QUALITY_GROUPS = [
    ("Tones: SNR and pitch", [
        ("snr220", "SNR 220 Hz (dB, goal >= 65)", "min", 65, "%.0f"),
        ("snr1k", "SNR 1 kHz (dB, goal >= 65)", "min", 65, "%.0f"),
        ("cents220", "pitch error 220 Hz (cents, |e| <= 1)", "abs", 1, "%+.2f"),
        ("cents1k", "pitch error 1 kHz (cents, |e| <= 1)", "abs", 1, "%+.2f"),
    ]),
    ("Spectral convergence to the ideal stretch", [
        ("scVibrato", "vibrato complex (<= 0.15)", "max", 0.15, "%.3f"),
        ("scChirp", "chirp 100 Hz-4 kHz (<= 0.15)", "max", 0.15, "%.3f"),
        ("scChord", "chord C4-E4-G4 (<= 0.15)", "max", 0.15, "%.3f"),
        ("scClicks", "click train (<= 0.15)", "max", 0.15, "%.3f"),
    ]),
    ("Clicks and timing", [
        ("doubled", "clicks doubled (goal 0)", "zero", 0, "%.0f"),
        ("missed", "clicks missed (goal 0)", "zero", 0, "%.0f"),
        ("timeline", "click timeline, worst (ms; vs best)", "best-low", None, "%.2f"),
        ("timelineWorst", "timeline on noise, worst (ms, <= 2)", "max", 2, "%.2f"),
        ("lengthError", "output length error (ms, <= 1)", "max", 1, "%.2f"),
    ]),
    ("Stereo", [
        ("delayError", "inter-channel delay error (us, <= 3)", "max", 3, "%.2f"),
        ("correlation", "inter-channel correlation (vs best)", "best-high", None, "%.3f"),
        ("ildError", "ILD error, worst source (dB, |e| <= 0.1)", "abs", 0.1, "%+.2f"),
    ]),
    ("Real content: music and speech", [
        ("scMusic", "music mix spectral convergence (vs best)", "best-low", None, "%.3f"),
        ("lsdMusic", "music mix log-spectral distance (dB, vs best)", "best-low", None, "%.2f"),
        ("scSpeech", "speech-like spectral convergence (vs best)", "best-low", None, "%.3f"),
        ("envSpeech", "speech-like envelope correlation (vs best)", "best-high", None, "%.3f"),
    ]),
    ("Real content: noise", [
        ("periodicityWhite", "periodicity, white (<= 0.03)", "max", 0.03, "%.3f"),
        ("periodicityPink", "periodicity, pink (<= 0.03)", "max", 0.03, "%.3f"),
        ("periodicityApplause", "periodicity, applause (<= 0.03)", "max", 0.03, "%.3f"),
        ("levelWhite", "level change, white (dB, |e| <= 0.3)", "abs", 0.3, "%+.2f"),
        ("levelPink", "level change, pink (dB, |e| <= 0.3)", "abs", 0.3, "%+.2f"),
        ("levelApplause", "level change, applause (dB, |e| <= 0.3)", "abs", 0.3, "%+.2f"),
    ]),
]


def badness(kind, goal, value, column):
    """Distance to the goal in [-1, 1]: below 0 the goal is met (-1 far inside it), above 0
    missed (1 far off). `column` holds every tool's value at that speed, for the 'best' kinds."""
    if value is None:
        return None
    if kind == "min":
        return max(-1.0, min(1.0, (goal - value) / 20))
    if kind in ("max", "abs"):
        v = abs(value)
        if v <= 0:
            return -1.0
        return max(-1.0, min(1.0, math.log10(v / goal)))
    if kind == "zero":
        return -1.0 if value == 0 else min(1.0, 0.2 + value / 10)
    # No absolute goal: green for the best tool at that speed, red from twice its figure (lower
    # is better) or 10 % short of it (higher is better).
    known = [v for v in column if v is not None]
    if kind == "best-low":
        best = min(abs(v) for v in known)
        if abs(value) <= best:
            return -1.0
        if best <= 0:
            return 1.0
        return max(-1.0, min(1.0, -1 + 2 * math.log2(abs(value) / best)))
    best = max(known)
    if value >= best:
        return -1.0
    return max(-1.0, min(1.0, -1 + 20 * (best - value) / max(abs(best), 1e-12)))


def quality_heatmaps(page, data):
    tools = data.get("tools") or []
    if not tools:
        page.note("StretchQuality: the JSON has no quality tables.")
        return
    names = [t.get("name", "?") for t in tools]
    speeds = [s.get("speed") for s in tools[0].get("bySpeed", [])]
    norm = TwoSlopeNorm(vmin=-1, vcenter=0, vmax=1)
    cmap = plt.get_cmap("RdYlGn_r")
    for title, metrics in QUALITY_GROUPS:
        present = [m for m in metrics if any(m[0] in s for t in tools for s in t["bySpeed"])]
        if not present:
            page.note("StretchQuality: no figures for '%s' in the JSON." % title)
            continue
        columns = 2 if len(present) > 1 else 1
        rows_n = math.ceil(len(present) / columns)
        # A fixed layout in inches (tight_layout would measure every cell's text).
        cell_rows = 0.27 * len(names)
        height = 0.5 + rows_n * (cell_rows + 0.6) + 0.05
        fig, axes = plt.subplots(rows_n, columns, figsize=(12.2, height), squeeze=False)
        fig.subplots_adjust(left=1.1 / 12.2, right=0.995, top=1 - 0.5 / height,
                            bottom=0.3 / height, wspace=0.04, hspace=0.6 / cell_rows)
        for ax in axes.flat[len(present):]:
            ax.axis("off")
        for ax, (key, label, kind, goal, fmt) in zip(axes.flat, present):
            values = [[number(s.get(key)) for s in t["bySpeed"]] for t in tools]
            grid = np.full((len(tools), len(speeds)), np.nan)
            for j in range(len(speeds)):
                column = [values[i][j] if j < len(values[i]) else None for i in range(len(tools))]
                for i in range(len(tools)):
                    b = badness(kind, goal, column[i], column)
                    if b is not None:
                        grid[i, j] = b
            masked = np.ma.masked_invalid(grid)
            ax.imshow(masked, cmap=cmap, norm=norm, aspect="auto")
            ax.set_facecolor("#d9d9d9")
            for i in range(len(tools)):
                for j in range(len(speeds)):
                    v = values[i][j] if j < len(values[i]) else None
                    dark = not np.isnan(grid[i, j]) and abs(grid[i, j]) > 0.6
                    ax.text(j, i, "failed" if v is None else fmt % v, ha="center", va="center",
                            fontsize=7, color="white" if dark else "black")
            ax.set_xticks(range(len(speeds)))
            ax.set_xticklabels(["%gx" % s for s in speeds], fontsize=7.5)
            ax.set_yticks(range(len(tools)))
            ax.set_yticklabels(names if ax in axes[:, 0] else [], fontsize=7.5)
            for tick, name in zip(ax.get_yticklabels(), names):
                if any(t.get("ours") for t in tools if t.get("name") == name):
                    tick.set_fontweight("bold")
            ax.set_title(label, fontsize=8.5)
        fig.suptitle("StretchQuality: %s" % title, fontsize=10)
        page.figure(fig, "StretchQuality, %s. Rows are the stretchers, columns the speeds; green "
                    "meets the goal, red misses it, the deeper the further (for figures without "
                    "an absolute goal: against the best tool at that speed). Grey: the tool "
                    "failed." % title)


# MARK: - Spectrograms

SPECTROGRAMS = [
    # signal, speed, title, the StretchQuality figure that picks the best peer (lower is
    # better), STFT size, highest frequency shown (Hz), and how frames are merged into the
    # image's columns: the loudest (clicks stay visible) or the mean power (noise keeps its
    # level)
    ("clicks", 0.5, "click train at 0.5x", "scClicks", 256, 22050, "loudest"),
    ("music", 1.5, "music mix at 1.5x", "scMusic", 2048, 6000, "mean"),
    ("white", 0.5, "white noise at 0.5x", "periodicityWhite", 1024, 22050, "mean"),
]


def file_name(tool):
    return re.sub(r"[^0-9A-Za-z]", "-", tool)


def spectrogram(samples, size, merge, columns=600):
    """Magnitude in dB (frequency by time) of a Hann-windowed STFT, hop size/4, reduced to at
    most `columns` columns: each the loudest frame of its group (`merge` "loudest": a click one
    sample long stays visible however many frames the image leaves out) or their mean power."""
    hop = size // 4
    if len(samples) < size:
        samples = np.pad(samples, (0, size - len(samples)))
    count = 1 + (len(samples) - size) // hop
    index = np.arange(size)[None, :] + hop * np.arange(count)[:, None]
    frames = samples[index] * np.hanning(size)[None, :]
    magnitude = np.abs(np.fft.rfft(frames, axis=1))
    group = math.ceil(count / columns)
    if group > 1:
        padded = np.pad(magnitude, ((0, (-count) % group), (0, 0)))
        groups = padded.reshape(-1, group, magnitude.shape[1])
        magnitude = groups.max(axis=1) if merge == "loudest" else \
            np.sqrt((groups ** 2).mean(axis=1))
    return 20 * np.log10(magnitude.T + 1e-9)


def best_peer(data, signal, speed, key, available):
    """The peer with the lowest `key` at `speed` whose audio is there, and its figure."""
    best = None
    for tool in (data or {}).get("tools", []):
        if tool.get("ours") or file_name(tool.get("name", "")) not in available:
            continue
        row = next((s for s in tool.get("bySpeed", []) if number(s.get("speed")) == speed), {})
        value = number(row.get(key))
        if value is not None and (best is None or value < best[1]):
            best = (tool["name"], value)
    if best is None:
        peers = sorted(a for a in available if a not in ("input", "ideal", "mtool--ours-"))
        return (peers[0], None) if peers else (None, None)
    return best


def spectrograms(page, data, audio_dir):
    if not os.path.isdir(audio_dir):
        page.note("Spectrograms: no audio in %s (StretchQuality writes it with --audio-out DIR, "
                  "as make bench does)." % audio_dir)
        return
    for signal, speed, title, key, size, top, merge in SPECTROGRAMS:
        prefix = os.path.join(audio_dir, "%s-%gx-" % (signal, speed))
        available = {p[len(prefix):-4] for p in glob.glob(glob.escape(prefix) + "*.wav")}
        if not {"input", "ideal", "mtool--ours-"} <= available:
            page.note("Spectrograms, %s: the input, ideal or our output is missing in %s."
                      % (title, audio_dir))
            continue

        def draw(signal=signal, speed=speed, title=title, key=key, size=size, top=top,
                 merge=merge, prefix=prefix, available=available):
            peer, figure = best_peer(data, signal, speed, key, available)
            panels = [("input", "input"), ("ideal", "ideal stretch"), ("mtool--ours-", "ours")]
            if peer:
                shown = "best peer: %s" % peer
                if figure is not None:
                    shown += " (%s %.3g)" % (key, figure)
                panels.append((file_name(peer), shown))
            fig, axes = plt.subplots(1, len(panels), figsize=(12.2, 3.0), squeeze=False,
                                     layout="constrained")
            images = []
            for ax, (who, label) in zip(axes[0], panels):
                samples, rate = read_wav(prefix + who + ".wav")
                db = spectrogram(samples, size, merge)
                images.append((ax, db, rate, len(samples), label))
            peak = max(float(np.max(db)) for _, db, _, _, _ in images)
            for ax, db, rate, frames, label in images:
                extent = [0, frames / rate, 0, rate / 2]
                image = ax.imshow(db, origin="lower", aspect="auto", extent=extent,
                                  cmap="magma", vmin=peak - 90, vmax=peak,
                                  interpolation="nearest")
                ax.set_ylim(0, min(top, rate / 2))
                ax.set_title(label, fontsize=8.5)
                ax.set_xlabel("s", fontsize=8)
                ax.tick_params(labelsize=7)
            axes[0][0].set_ylabel("Hz", fontsize=8)
            fig.colorbar(image, ax=axes[0].tolist(), fraction=0.02, pad=0.01, label="dB")
            fig.get_layout_engine().set(w_pad=0.02, h_pad=0.02)
            fig.suptitle("Spectrograms: %s" % title, fontsize=10)
            page.figure(fig, "%s: the input, the ideal stretch, ours and the peer with the best "
                        "%s at that speed; STFT of %d samples, same colour scale in all four."
                        % (title[0].upper() + title[1:], key, size))
        page.attempt("Spectrograms, " + title, draw)


# MARK: - ResourceBench scaling


def loglog_reference(ax, xs, ys, colour="#888"):
    """The linear reference through the first point: y proportional to x."""
    if xs and ys:
        x0, y0 = xs[0], ys[0]
        line = np.array([min(xs), max(xs)])
        ax.plot(line, y0 * line / x0, ls=":", color=colour, lw=1.2, zorder=3)


def plain_log_ticks(ax):
    """Log axes labelled 1, 30, 0.01 rather than 10^0, 3x10^1."""
    formatter = matplotlib.ticker.FuncFormatter(lambda v, _: "%g" % v)
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
        axis.set_major_formatter(formatter)
        axis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.minorticks_off()


def resource_scaling(page, data):
    scaling = data.get("scaling")
    if not scaling:
        page.note("ResourceBench: the JSON has no scaling rows (ResourceBench writes them since "
                  "its JSON has a 'scaling' list; rerun make bench).")
        return
    parse = [s for s in scaling if s.get("part") == "parse"]
    if parse:
        shapes = list(dict.fromkeys(s["label"].split(".")[0] for s in parse))
        fig, axes = plt.subplots(1, len(shapes), figsize=(12.2, 3.4), squeeze=False)
        for ax, shape in zip(axes[0], shapes):
            memchr = []
            for row in (s for s in parse if s["label"].split(".")[0] == shape):
                points = [(x, number(c)) for x, c in zip(row["x"], row.get("cpuSeconds", []))
                          if number(c)]
                if not points:
                    continue
                xs = [p[0] / 1e6 for p in points]
                ys = [p[1] for p in points]
                label = row["label"].split(" ", 1)
                fmt = row["label"].split(".")[1].split(" ")[0]
                line = ax.plot(xs, ys, marker="o", ms=3, label="%s %s" % (fmt, label[1]))
                loglog_reference(ax, xs, ys, colour=line[0].get_color())
                memchr = [(x / 1e6, number(c)) for x, c in
                          zip(row["x"], row.get("memchrCpuSeconds", [])) if number(c)]
            if memchr:
                ax.plot([m[0] for m in memchr], [m[1] for m in memchr], color="#555", lw=0.8,
                        ls="--", label="memchr scan")
            ax.set_xscale("log")
            ax.set_yscale("log")
            plain_log_ticks(ax)
            ax.set_title(shape, fontsize=9)
            ax.set_xlabel("input MB", fontsize=8)
            ax.tick_params(labelsize=7)
            ax.legend(fontsize=6)
        axes[0][0].set_ylabel("CPU seconds (fastest)", fontsize=8)
        fig.suptitle("ResourceBench: parse time against input size (dotted: linear from the "
                     "first point)", fontsize=10)
        fig.tight_layout()
        page.figure(fig, "ResourceBench part 1, in process: the fastest thread CPU time of each "
                    "parser against the input size, log-log; a row on the dotted line is linear.")
    others = [s for s in scaling if s.get("part") in ("stretch", "tracks") and len(s.get("x", []))]
    if others:
        fig, axes = plt.subplots(1, 2 * len(others), figsize=(12.2, 3.2), squeeze=False)
        for k, row in enumerate(others):
            xs = [float(x) for x in row["x"]]
            for ax, key, label in ((axes[0][2 * k], "seconds", "wall seconds (fastest)"),
                                   (axes[0][2 * k + 1], "peakMB", "peak RSS (MiB)")):
                points = [(x, number(v)) for x, v in zip(xs, row.get(key, [])) if number(v)]
                if points:
                    ax.plot([p[0] for p in points], [p[1] for p in points], marker="o",
                            color=OURS_COLOUR, label=row["label"])
                    loglog_reference(ax, [p[0] for p in points], [p[1] for p in points])
                    if key == "peakMB":
                        ax.axhline(points[0][1], color="#2ca02c", lw=0.8, ls="--",
                                   label="flat")
                        if row.get("part") == "stretch":
                            ax.axhline(64, color=GOAL_COLOUR, lw=1, ls="--", label="goal 64")
                ax.set_xscale("log")
                ax.set_yscale("log")
                plain_log_ticks(ax)
                ax.set_xlabel(row.get("xUnit", ""), fontsize=8)
                ax.set_ylabel(label, fontsize=8)
                ax.set_title("%s: %s" % (row["label"], "time" if key == "seconds" else "memory"),
                             fontsize=9)
                ax.tick_params(labelsize=7)
                ax.legend(fontsize=6)
        fig.suptitle("ResourceBench: mtool stretch and mtool tracks against input size "
                     "(dotted: linear)", fontsize=10)
        fig.tight_layout()
        page.figure(fig, "ResourceBench parts 2 and 3, whole processes: the fastest run's wall "
                    "time and the peak RSS against the input's length (seconds of audio) or "
                    "file count, log-log. Time should follow the dotted linear line, memory the "
                    "flat one.")


# MARK: - History

def headline_figures(benchmarks):
    """The figures the history draws: name, unit, value (or None) for one run."""
    sub = benchmarks.get("SubtitleBench") or {}
    tracks = benchmarks.get("TracksBench") or {}
    quality = benchmarks.get("StretchQuality") or {}
    resource = benchmarks.get("ResourceBench") or {}

    def subtitle(file):
        row = next((r for r in sub.get("results", []) if r.get("file") == file
                    and r.get("name") == "ours"), {})
        return number(row.get("cpu_MBps"))

    def quality_figure(key, speed):
        ours = next((t for t in quality.get("tools", []) if t.get("ours")), {})
        row = next((s for s in ours.get("bySpeed", []) if number(s.get("speed")) == speed), {})
        return number(row.get(key))

    throughput = next((r for r in quality.get("throughput", []) if r.get("ours")
                       and "in process" in r.get("name", "")), {})
    ratios = [number(v) for k, v in (resource.get("figures") or {}).items()
              if k.endswith("_cpuRatio")]
    ratios = [r for r in ratios if r is not None]
    return [
        ("SRT parse, ours (CPU MB/s)", subtitle("bench.srt")),
        ("WebVTT parse, ours (CPU MB/s)", subtitle("bench.vtt")),
        ("ffprobe loop / mtool tracks (x)", number(tracks.get("ffprobeOverMtool"))),
        ("full probe / mtool tracks, CPU (x)", number(tracks.get("fullProbeOverMtoolCPU"))),
        ("stretch, ours / SoundTouch (x)", number(throughput.get("overSoundTouch"))),
        ("music mix SC at 1.5x, ours", quality_figure("scMusic", 1.5)),
        ("stretch long input, peak MiB", number((resource.get("figures") or {})
                                                 .get("stretch_long_peakMB"))),
        ("parse, worst time/byte growth (x)", max(ratios) if ratios else None),
    ]


def history(page, runs):
    """One small plot per headline figure over the runs, oldest first."""
    if not runs:
        page.note("History: no runs recorded yet.")
        return
    series = [headline_figures(run.get("benchmarks", {})) for run in runs]
    names = [name for name, _ in series[0]]
    labels = [("%s\n%s" % (run.get("date", "?")[:10], run.get("commitShort", "?")[:7]))
              for run in runs]
    fig, axes = plt.subplots(2, 4, figsize=(12.2, 5.4), squeeze=False)
    for k, (ax, name) in enumerate(zip(axes.flat, names)):
        values = [s[k][1] for s in series]
        xs = [i for i, v in enumerate(values) if v is not None]
        ys = [v for v in values if v is not None]
        if ys:
            ax.plot(xs, ys, marker="o", ms=4, color=OURS_COLOUR, drawstyle="steps-mid"
                    if len(ys) > 1 else "default")
            ax.annotate("%.4g" % ys[-1], (xs[-1], ys[-1]), fontsize=7, xytext=(3, 3),
                        textcoords="offset points")
        else:
            ax.text(0.5, 0.5, "not measured", ha="center", va="center", transform=ax.transAxes,
                    fontsize=8)
        ax.set_title(name, fontsize=8.5)
        ticks = list(range(len(runs)))
        step = max(1, len(ticks) // 6)
        ax.set_xticks(ticks[::-1][::step][::-1])
        ax.set_xticklabels([labels[i] for i in ticks[::-1][::step][::-1]], fontsize=6)
        ax.set_xlim(-0.5, len(runs) - 0.5)
        ax.tick_params(axis="y", labelsize=7)
    fig.suptitle("History: the headline figures over the last %d run%s (rightmost: the newest)"
                 % (len(runs), "" if len(runs) == 1 else "s"), fontsize=10)
    fig.tight_layout()
    page.figure(fig, "The headline figures over the last %d run%s (the history folder and this "
                "run), oldest left, by date and commit: a regression shows as a step."
                % (len(runs), "" if len(runs) == 1 else "s"))


def history_name(date, commit):
    return "%s-%s.json" % (date.strftime("%Y%m%dT%H%M%SZ"), commit.replace("+", "-dirty"))


def load_history(folder, limit):
    runs = []
    for path in sorted(glob.glob(os.path.join(folder, "*.json")))[-limit:]:
        try:
            runs.append(load_json(path))
        except (OSError, ValueError):
            continue
    return runs


# MARK: - Main


def shorten(text, limit):
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def main():
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--bench-dir", default=".build/bench")
    parser.add_argument("--out")
    parser.add_argument("--history")
    parser.add_argument("--audio")
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    bench_dir = args.bench_dir
    out = args.out or os.path.join(bench_dir, "report.html")
    history_dir = args.history or os.path.join(bench_dir, "history")
    audio_dir = args.audio or os.path.join(bench_dir, "audio")

    benchmarks, problems, dates = {}, {}, {}
    for name in BENCHMARKS:
        path = os.path.join(bench_dir, name + ".json")
        if not os.path.exists(path):
            problems[name] = "not run: no %s" % path
            continue
        try:
            benchmarks[name] = load_json(path)
            dates[name] = datetime.datetime.fromtimestamp(os.path.getmtime(path),
                                                          datetime.timezone.utc)
        except (OSError, ValueError) as error:
            problems[name] = "unreadable %s: %s" % (path, error)

    full, short, subject = commit_info()
    machine = machine_info()
    now = datetime.datetime.now(datetime.timezone.utc)
    run_date = max(dates.values()) if dates else now
    this_run = {"date": run_date.strftime("%Y-%m-%dT%H:%M:%SZ"), "commit": full,
                "commitShort": short, "machine": machine, "benchmarks": benchmarks}
    if args.record and benchmarks:
        os.makedirs(history_dir, exist_ok=True)
        path = os.path.join(history_dir, history_name(run_date, short))
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(this_run, handle, sort_keys=True)
    runs = load_history(history_dir, args.runs)
    if benchmarks and (not runs or runs[-1].get("benchmarks") != benchmarks):
        runs = (runs + [this_run])[-args.runs:]

    page = Page()
    page.heading("mtool benchmark report", level=1)
    page.table(None, [
        ("commit", "%s%s%s" % (short.rstrip("+"), " with uncommitted changes"
                               if short.endswith("+") else "",
                               " (%s)" % shorten(subject, 100) if subject else "")),
        ("report written", now.strftime("%Y-%m-%d %H:%M UTC")),
        ("machine", "%s; %s; %s cores; %s" % (machine.get("system", "?"),
                                              machine.get("cpu", "unknown CPU"),
                                              machine.get("cores", "?"),
                                              machine.get("memory", "? memory"))),
    ] + [(name, "run %s, load average before: %s" % (
        dates[name].strftime("%Y-%m-%d %H:%M UTC"),
        " ".join(str(benchmarks[name].get("loadavg", "?")).split()[:3]))
        if name in benchmarks else problems[name]) for name in BENCHMARKS])
    page.paragraph("Whole-process figures include starting the program, reading and writing "
                   "its files; in-process figures time the library call alone, in the "
                   "benchmark's own process. Each figure's caption says which it is.")
    page.table(["benchmark", "in process", "whole process"], [
        ("SubtitleBench", "every row (CPU time of the parsing thread; FFmpeg's demuxer through "
         "libavformat)", "-"),
        ("TracksBench", "full probe (libavformat), MediaProbe", "mtool tracks, ffprobe loop"),
        ("StretchQuality", "ours, throughput row 'in process'; quality tables compare outputs, "
         "not time", "mtool stretch (command), SoundTouch, FFmpeg, Rubber Band, scaletempo2"),
        ("ResourceBench", "part 1 parse time", "part 1 peak memory (child process), parts 2 "
         "and 3 (mtool stretch, mtool tracks)"),
    ])

    sections = [
        ("SubtitleBench", "Subtitle parsing throughput", subtitle_throughput),
        ("TracksBench", "Track listing throughput", tracks_throughput),
        ("StretchQuality", "Time-stretching throughput", stretch_throughput),
    ]
    for name, title, draw in sections:
        page.heading(title)
        if name not in benchmarks:
            page.note("%s: %s." % (name, problems[name]))
            continue
        page.attempt(name, lambda draw=draw, name=name: draw(page, benchmarks[name]))

    page.heading("Time-stretching quality")
    if "StretchQuality" in benchmarks:
        page.attempt("StretchQuality tables",
                     lambda: quality_heatmaps(page, benchmarks["StretchQuality"]))
    else:
        page.note("StretchQuality: %s." % problems["StretchQuality"])
    page.heading("Spectrograms")
    page.attempt("Spectrograms",
                 lambda: spectrograms(page, benchmarks.get("StretchQuality"), audio_dir))

    page.heading("Time and memory against input size")
    if "ResourceBench" in benchmarks:
        page.attempt("ResourceBench", lambda: resource_scaling(page, benchmarks["ResourceBench"]))
    else:
        page.note("ResourceBench: %s." % problems["ResourceBench"])

    page.heading("History")
    page.attempt("History", lambda: history(page, runs))

    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as handle:
        handle.write(page.html("mtool benchmark report, %s" % short))
    print("benchmark report: %s (%d figures, %d notes); open it in a browser"
          % (os.path.abspath(out), page.figures, page.notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
