#!/usr/bin/env python3
"""Writes the small subtitle fixtures in Tests/Fixtures/subtitles (committed).

Usage: Scripts/make-subtitle-fixtures.py [OUTDIR]
Each file exercises one thing the SRT reader, the encoding detection or the writers must
handle; the tests state what each must parse to.
"""
import os
import sys

MESSY = (
    "1\n"
    "00:00:01,000 --> 00:00:02,500\n"
    "<i>Plain</i> & <font color=\"#FF0000\">red</font>\n"
    "\n"
    "\n"
    "\n"
    "00:00:03.5 --> 00:00:04.25 X1:100 X2:500 Y1:20 Y2:80\n"
    "no number, dot separators, short milliseconds\n"
    "3\n"
    "00:00:05,000 --> 00:00:06,000\n"
    "{\\an8}top, after a missing blank line\n"
    "\n"
    "stray text between cues\n"
    "\n"
    "9\n"
    "1:02:03,004 --> 1:02:04,005\n"
    "{\\an1}{\\b1}bottom left{\\b0}\n"
    "two lines\n"
    "\n"
    "5\n"
    "99999999999999999999:00:00,000 --> 99999999999999999999:00:01,000\n"
    "absurd hours\n"
)

BASIC = (
    "1\n00:00:00,500 --> 00:00:01,500\nGrüße, <b>Welt</b>!\n\n"
    "2\n00:00:02,000 --> 00:00:03,000\nZweite Zeile\nmit Umbruch\n"
)

STYLED_VTT = (
    "WEBVTT\n\n"
    "top\n00:00:01.000 --> 00:00:02.000 line:0 align:left\n<i>top left</i> &amp; more\n\n"
    "00:00:03.000 --> 00:00:04.000 line:50% line:50%,center align:right\n<c.yellow>middle right</c>\n\n"
    "00:00:05.000 --> 00:00:06.000 position:20% size:50%\n<v Ann>no SRT equivalent</v>\n"
)


def utf16(text, big_endian):
    return (b"\xfe\xff" if big_endian else b"\xff\xfe") + text.encode(
        "utf-16-be" if big_endian else "utf-16-le"
    )


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join("Tests", "Fixtures", "subtitles")
    os.makedirs(out, exist_ok=True)
    files = {
        "messy.srt": MESSY.encode("utf-8"),
        "basic-crlf-bom.srt": b"\xef\xbb\xbf" + BASIC.replace("\n", "\r\n").encode("utf-8"),
        "basic-cr.srt": BASIC.replace("\n", "\r").encode("utf-8"),
        "basic-utf16le.srt": utf16(BASIC.replace("\n", "\r\n"), False),
        "basic-utf16be.srt": utf16(BASIC, True),
        "basic-windows-1252.srt": BASIC.encode("cp1252"),
        "euro-latin9.srt": "1\n00:00:01,000 --> 00:00:02,000\nPreis: 5 €\n".encode("iso-8859-15"),
        "styled.vtt": STYLED_VTT.encode("utf-8"),
        "not-subtitles.txt": b"Just a note.\nNothing timed here.\n",
    }
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
