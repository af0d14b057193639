#!/usr/bin/env python3
"""Writes SRT files as they are found in the wild to Tests/Fixtures/subtitles-wild (committed).

Usage: Scripts/make-wild-srt.py [OUTDIR]

Each named file shows one way real SRT files stray from the common form (field widths, missing
numbers or blank lines, separators, spaces, line ends, encodings, text that only looks like a
timing line); `mixed-NN.srt` files combine several of them per cue, from a fixed seed.
Tests/mtoolTests/RealWorldCuesTests.swift reads every file with `mtool cues --json` and with
FFmpeg (`ffprobe -f srt -show_packets`) and compares cue counts and times; the few files on
which the two readers differ by design are listed there with the reason.
The output is the same on every run.
"""
import os
import random
import sys


def stamp(ms, h=2, m=2, s=2, f=3, sep=",", inner=""):
    """`ms` as H:M:S<sep>F with the given field widths (0 leaves a field out)."""
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, millis = divmod(rest, 1000)
    parts = []
    if h:
        parts.append(str(hours).zfill(h))
    parts.append(str(minutes).zfill(m))
    parts.append(str(seconds).zfill(s))
    text = (":" + inner).join(parts)
    if f:
        if f == 3:
            frac = str(millis).zfill(3)
        elif f < 3:
            # A short field is a count of milliseconds: keep the value readable as one.
            frac = str(millis % (10**f))
        else:
            frac = str(millis).zfill(f)
        text += sep + inner + frac
    return text


def cue(number, start, end, text, **kw):
    line = stamp(start, **kw) + " --> " + stamp(end, **kw)
    head = "" if number is None else str(number) + "\n"
    return head + line + "\n" + text + "\n"


def plain(n, step=2000, first=1000, text="Line {}"):
    return "\n".join(cue(i + 1, first + i * step, first + i * step + 1500, text.format(i + 1))
                     for i in range(n))


NAMED = {
    "canonical.srt": plain(4),
    # The Media3 sample's class: three-digit seconds, and the other fields alike.
    "three-digit-seconds.srt": "".join(
        cue(i + 1, 13_567 + i * 1000, 14_000 + i * 1000, "Three-digit seconds", s=3) + "\n"
        for i in range(5)),
    "three-digit-minutes.srt": "".join(
        cue(i + 1, 61_000 + i * 60_000, 62_000 + i * 60_000, "Three-digit minutes", m=3) + "\n"
        for i in range(3)),
    "one-digit-fields.srt": "".join(
        cue(i + 1, 1000 + i * 3000, 2500 + i * 3000, "One-digit fields", h=1, m=1, s=1) + "\n"
        for i in range(3)),
    "three-digit-hours.srt": cue(1, 360_000_000, 360_001_000, "Hour 100", h=3) + "\n"
    + cue(2, 360_002_000, 360_003_000, "Hour 100 again", h=3),
    "short-millis.srt": cue(1, 1005, 2025, "One and two digits", f=1) + "\n"
    + cue(2, 3025, 4050, "Two digits", f=2),
    "long-millis.srt": "1\n00:00:01,0000 --> 00:00:02,1234\nFour digits\n\n"
    "2\n00:00:03,000000 --> 00:00:04,000500\nSix digits\n",
    "dot-separator.srt": "".join(
        cue(i + 1, 1000 + i * 2000, 2000 + i * 2000, "Dot", sep=".") + "\n" for i in range(3)),
    "mixed-separators.srt": "1\n00:00:01.000 --> 00:00:02,000\nMixed\n\n"
    "2\n00:00:03,000 --> 00:00:04.000\nMixed again\n",
    "no-numbers.srt": "\n".join(
        cue(None, 1000 + i * 2000, 2000 + i * 2000, "No number {}".format(i)) for i in range(4)),
    "wrong-numbers.srt": cue(5, 1000, 2000, "Five") + "\n" + cue(5, 3000, 4000, "Five again")
    + "\n" + cue(0, 5000, 6000, "Zero") + "\n" + cue(100, 7000, 8000, "Hundred"),
    "no-blank-lines.srt": "".join(
        cue(i + 1, 1000 + i * 2000, 2000 + i * 2000, "Packed {}".format(i)) for i in range(4)),
    "no-blank-no-numbers.srt": "".join(
        cue(None, 1000 + i * 2000, 2000 + i * 2000, "Bare {}".format(i)) for i in range(4)),
    "extra-blank-lines.srt": "\n\n\n".join(
        cue(i + 1, 1000 + i * 2000, 2000 + i * 2000, "Spaced {}".format(i)) for i in range(3))
    + "\n\n\n",
    "arrow-spacing.srt": "1\n00:00:01,000-->00:00:02,000\nNo spaces\n\n"
    "2\n00:00:03,000   -->   00:00:04,000\nThree spaces\n\n"
    "3\n00:00:05,000\t-->\t00:00:06,000\nTabs\n\n"
    "4\n00:00:07,000 -->00:00:08,000\nOne side\n",
    "leading-trailing-spaces.srt": "1\n  00:00:01,000 --> 00:00:02,000\nLeading\n\n"
    "2\n00:00:03,000 --> 00:00:04,000   \nTrailing\n\n"
    "3\n\t00:00:05,000 --> 00:00:06,000\t\nTabs\n",
    "coordinates.srt": "1\n00:00:01,000 --> 00:00:02,000 X1:100 X2:600 Y1:50 Y2:80\nBoxed\n\n"
    "2\n00:00:03,000 --> 00:00:04,000  X1:1 X2:2 Y1:3 Y2:4\nBoxed again\n",
    "trailing-text.srt": "1\n00:00:01,000 --> 00:00:02,000 position:10%\nStray setting\n\n"
    "2\n00:00:03,000 --> 00:00:04,000 !!\nNoise\n",
    "inner-spaces.srt": "1\n00: 00: 01, 000 --> 00: 00: 02, 500\nMachine translated\n\n"
    "2\n00:00:03, 000 --> 00:00:04, 000\nAfter the comma\n",
    "seconds-over-59.srt": "1\n00:00:75,000 --> 00:00:76,000\nSeventy-five seconds\n\n"
    "2\n00:01:59,000 --> 00:01:60,000\nSixty\n",
    "minutes-over-59.srt": "1\n00:75:00,000 --> 00:75:01,000\nSeventy-five minutes\n",
    "crlf.srt": plain(3).replace("\n", "\r\n"),
    "bom-crlf.srt": "\ufeff" + plain(3).replace("\n", "\r\n"),
    "no-final-newline.srt": plain(3).rstrip("\n"),
    "number-lines-in-text.srt": "1\n00:00:01,000 --> 00:00:02,000\nThe answer is\n42\n\n"
    "2\n00:00:03,000 --> 00:00:04,000\n1984\n\n"
    "3\n00:00:05,000 --> 00:00:06,000\nLast\n\n2024\n",
    "end-before-start.srt": cue(1, 5000, 4000, "Backwards") + "\n" + cue(2, 6000, 7000, "Fine"),
    "header-garbage.srt": "Subtitles by somebody\nwww.example.com\n\n" + plain(2),
    "timing-lookalikes.srt": "1\n00:00:01,000 --> 00:00:02,000\nLook-alikes follow\n"
    "00:00:03,000 -> 00:00:04,000\n"
    "00:00:03:000 --> 00:00:04:000\n"
    "00.00.03,000 --> 00.00.04,000\n"
    "00 :00:03,000 --> 00:00:04,000\n"
    "00:00:03,000 --> \n"
    "--> 00:00:04,000\n"
    "0x:00:03,000 --> 00:00:04,000\n"
    "00:00:03,000 => 00:00:04,000\n"
    "10:30 --> 11:45 at the station\n"
    "\n"
    "2\n00:00:05,000 --> 00:00:06,000\nAfter them\n",
    "whitespace-lines.srt": "1\n00:00:01,000 --> 00:00:02,000\nBefore a spaced line\n  \n"
    "2\n00:00:03,000 --> 00:00:04,000\nAfter\n",
    "number-without-timing.srt": "1\nNo timing here\n\n" + plain(2),
    # Cues 2, 4 and 6 lost their timing lines (2 its text too): each number is the one the
    # next cue should have, one less than the next cue's. Not text of the cue before them.
    "lost-timing-lines.srt": "1\n00:00:01,000 --> 00:00:02,000\nFirst\n\n"
    "2\nThis cue lost its timing line\n\n"
    "3\n00:00:05,000 --> 00:00:06,000\nThird\n4\n\n"
    "5\n00:00:09,000 --> 00:00:10,000\nFifth\n6\n"
    "7\n00:00:13,000 --> 00:00:14,000\nSeventh\n",
    "long-text.srt": cue(1, 1000, 9000, "\n".join("Line {} of a long cue".format(i)
                                                    for i in range(12))),
}

# Files on which FFmpeg and this reader differ by design (see RealWorldCuesTests.swift).
DIFFERING = {
    # Media3 reads these forms; FFmpeg's demuxer needs hours and milliseconds.
    "no-hours.srt": "1\n01:02,500 --> 01:03,000\nNo hours\n\n2\n00:00:05,000 --> 00:00:06,000\nx\n",
    "no-millis.srt": "1\n00:00:01 --> 00:00:02\nNo milliseconds\n\n"
    "2\n00:00:05,000 --> 00:00:06,000\nx\n",
    # A sign: FFmpeg's `%d` takes it; a negative time is no time here.
    "signed.srt": "1\n00:00:01,000 --> -00:00:02,000\nSigned\n\n"
    "2\n00:00:05,000 --> 00:00:06,000\nx\n",
    # More than 9 digits in a field: FFmpeg's `%d` overflows; here the cue is skipped.
    "absurd-fields.srt": "1\n99999999999999999999:00:00,000 --> 99999999999999999999:00:01,000\n"
    "Absurd hours\n\n2\n00:00:01234567890,000 --> 00:00:01234567891,000\nAbsurd seconds\n\n"
    "3\n00:00:05,000 --> 00:00:06,000\nx\n",
}

# Traits a mixed file's cues draw from: each gives (number line, timing keywords, text).
TRAITS = ["number", "nonumber", "s3", "m3", "one", "dot", "short", "arrow", "lead", "coords",
          "inner", "crlf", "noblank", "blank2", "over59"]


def mixed(seed):
    rng = random.Random(seed)
    out = []
    t = rng.randrange(0, 5000)
    crlf = rng.random() < 0.3
    for i in range(rng.randrange(3, 12)):
        traits = set(rng.sample(TRAITS, rng.randrange(0, 4)))
        start = t + rng.randrange(0, 3000)
        end = start + rng.randrange(500, 4000)
        t = end
        kw = {}
        if "s3" in traits:
            kw["s"] = 3
        if "m3" in traits:
            kw["m"] = 3
        if "one" in traits:
            kw.update(h=1, m=1, s=1)
        if "dot" in traits:
            kw["sep"] = "."
        if "inner" in traits:
            kw["inner"] = " "
        if "short" in traits:
            kw["f"] = rng.choice([1, 2])
        a, b = stamp(start, **kw), stamp(end, **kw)
        if "over59" in traits:
            # The start time with its seconds written past 59 (one minute fewer).
            h, rest = divmod(start, 3_600_000)
            m, rest = divmod(rest, 60_000)
            sec, ms = divmod(rest, 1000)
            if m >= 1:
                a = "{:02d}:{:02d}:{:02d},{:03d}".format(h, m - 1, sec + 60, ms)
        arrow = rng.choice(["-->", "  -->  ", "\t-->\t", "--> "]) if "arrow" in traits else " --> "
        line = a + arrow + b
        if "lead" in traits:
            line = " " + line + " "
        if "coords" in traits:
            line += " X1:10 X2:20 Y1:30 Y2:40"
        if "nonumber" not in traits:
            out.append(str(i + 1 if rng.random() < 0.9 else rng.randrange(0, 99)) + "\n")
        out.append(line + "\n")
        for k in range(rng.randrange(1, 4)):
            out.append(rng.choice(["Hello", "<i>Styled</i> text", "{\\an8}Top", "Two words",
                                   "Ünïcödé", "- Dash line", "Numbers 12 and 13"]) + "\n")
        if "noblank" not in traits:
            out.append("\n")
            if "blank2" in traits:
                out.append("\n\n")
    text = "".join(out)
    return text.replace("\n", "\r\n") if crlf else text


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join("Tests", "Fixtures",
                                                                "subtitles-wild")
    os.makedirs(out, exist_ok=True)
    files = {name: text.encode("utf-8") for name, text in {**NAMED, **DIFFERING}.items()}
    files["utf16le-bom.srt"] = b"\xff\xfe" + plain(3).replace("\n", "\r\n").encode("utf-16-le")
    files["windows-1252.srt"] = cue(1, 1000, 2000, "Grüße, déjà vu").encode("cp1252")
    for seed in range(30):
        files["mixed-{:02d}.srt".format(seed)] = mixed(seed).encode("utf-8")
    for name, data in sorted(files.items()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
