#!/usr/bin/env python3
"""Writes the small SSA/ASS fixtures in Tests/Fixtures/ass (committed), and with --reference
prints what two other readers make of them: Python's pysubs2 (event times in ms and
`plaintext`) and FFmpeg's ASS demuxer and WebVTT muxer (`ffmpeg -i X -f webvtt -`).

Usage: Scripts/make-ass-fixtures.py [OUTDIR]
       Scripts/make-ass-fixtures.py --reference [OUTDIR]   (needs pysubs2 and ffmpeg)

The reference output is what the constants in Tests/SubtitleParserTests/SSAReferenceTests
were copied from.
"""
import os
import subprocess
import sys

STYLES_V4PLUS = (
    "[V4+ Styles]\n"
    "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, "
    "BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, "
    "BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n"
    "Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,"
    "1,2,2,2,10,10,10,1\n"
    "Style: Sign,Arial,20,&H0000FFFF,&H000000FF,&H00000000,&H00000000,-1,-1,0,0,100,100,0,0,"
    "1,2,2,8,10,10,10,1\n"
)

FILES = {
    # Commas in text, \N \n \h, a comment, layers and overlapping events, a style's look.
    "basic.ass": (
        "[Script Info]\n"
        "; a comment line\n"
        "Title: basic\n"
        "ScriptType: v4.00+\n"
        "PlayResX: 640\n"
        "PlayResY: 480\n"
        "\n" + STYLES_V4PLUS + "\n"
        "[Events]\n"
        "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
        "Dialogue: 0,0:00:01.00,0:00:03.50,Default,,0,0,0,,Hello, world, with commas\\Nsecond line\n"
        "Comment: 0,0:00:01.50,0:00:02.00,Default,,0,0,0,,not shown\n"
        "Dialogue: 1,0:00:02.00,0:00:04.25,Sign,,0,0,0,,A sign\\hon top\n"
        "Dialogue: 0,0:00:03.00,0:00:05.00,Default,Bob,0,0,0,,soft\\nbreak\n"
        "Dialogue: 0,1:02:03.04,1:02:05.60,Default,,0,0,0,,late\n"
    ),
    # Override blocks.
    "override.ass": (
        "[Script Info]\n"
        "ScriptType: v4.00+\n"
        "PlayResX: 1280\n"
        "PlayResY: 720\n"
        "\n" + STYLES_V4PLUS + "\n"
        "[Events]\n"
        "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
        "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\i1}italic{\\i0} {\\b1}bold{\\b0} {\\u1}under{\\u0}\n"
        "Dialogue: 0,0:00:02.00,0:00:03.00,Default,,0,0,0,,{\\c&H0000FF&}red{\\c} {\\1c&H00FF00&}lime\n"
        "Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,{\\an8}top centre\n"
        "Dialogue: 0,0:00:04.00,0:00:05.00,Default,,0,0,0,,{\\an7\\pos(128,72)}placed\n"
        "Dialogue: 0,0:00:05.00,0:00:06.00,Default,,0,0,0,,{\\move(640,360,0,0)\\fnCourier\\fs40}moving\n"
        "Dialogue: 0,0:00:06.00,0:00:07.00,Default,,0,0,0,,{\\k20}ka{\\k30}ra{\\kf40}o{\\s1}ke\n"
        "Dialogue: 0,0:00:07.00,0:00:08.00,Default,,0,0,0,,{\\p1}m 0 0 l 10 0 10 10{\\p0}after drawing\n"
        "Dialogue: 0,0:00:08.00,0:00:09.00,Default,,0,0,0,,{\\t(0,500,\\fs40\\b1)\\bord3}kept {comment}text\n"
    ),
    # SSA v4: [V4 Styles], Marked, legacy \\a alignment, decimal colours, columns reordered.
    "legacy.ssa": (
        "[Script Info]\n"
        "ScriptType: v4.00\n"
        "\n"
        "[V4 Styles]\n"
        "Format: Name, Alignment, Fontname, Fontsize, PrimaryColour, SecondaryColour, "
        "TertiaryColour, BackColour, Bold, Italic, BorderStyle, Outline, Shadow, MarginL, "
        "MarginR, MarginV, AlphaLevel, Encoding\n"
        "Style: Default,6,Arial,20,16777215,255,0,0,0,-1,1,2,2,10,10,10,0,0\n"
        "\n"
        "[Events]\n"
        "Format: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
        "Dialogue: Marked=0,0:00:01.00,0:00:02.00,Default,,0000,0000,0000,,top centre italic\n"
        "Dialogue: Marked=0,0:00:02.00,0:00:03.00,Default,,0000,0000,0000,,{\\a1}bottom left\n"
    ),
    # Event columns in another order (Text still last).
    "reordered.ass": (
        "[Script Info]\n"
        "ScriptType: v4.00+\n"
        "WrapStyle: 2\n"
        "\n" + STYLES_V4PLUS + "\n"
        "[Events]\n"
        "Format: Start, End, Style, Layer, Name, Effect, MarginV, MarginR, MarginL, Text\n"
        "Dialogue: 0:00:01.00,0:00:02.50,Default,0,,,0,0,0,hard\\nbreak under WrapStyle 2\n"
        "Dialogue: 0:00:03.5,0:00:04.123,Default,0,,,0,0,0,short and long fractions\n"
    ),
}


def reference(outdir):
    import pysubs2

    for name in sorted(FILES):
        path = os.path.join(outdir, name)
        print("==", name, "pysubs2")
        try:
            events = pysubs2.load(path)
        except Exception as error:  # pysubs2 reads styles in its own column order only
            print("pysubs2 cannot read it:", repr(error))
            events = []
        for event in events:
            if event.is_comment:
                continue
            print(repr((event.start, event.end, event.plaintext)))
        print("==", name, "ffmpeg -f webvtt")
        result = subprocess.run(
            ["ffmpeg", "-v", "error", "-i", path, "-f", "webvtt", "-"],
            capture_output=True, text=True)
        print(result.stdout + result.stderr)


def main():
    args = sys.argv[1:]
    wants_reference = "--reference" in args
    args = [a for a in args if a != "--reference"]
    outdir = args[0] if args else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "ass")
    os.makedirs(outdir, exist_ok=True)
    for name, text in FILES.items():
        with open(os.path.join(outdir, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    if wants_reference:
        reference(outdir)


if __name__ == "__main__":
    main()
