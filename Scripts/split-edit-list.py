#!/usr/bin/env python3
"""Splits the one edit of an MP4 file's first edit list into two that follow each other.

usage: Scripts/split-edit-list.py IN OUT FIRST

IN must hold `moov` after `mdat` (so no chunk offset moves) and one version-0 edit list with one
edit. OUT gets two edits: the first FIRST movie-timescale ticks of the span, then the rest,
starting in the media where the first ends (at the media timescale MEDIA_RATE / MOVIE_RATE,
read from the file). Players play the same span; a reader that takes only single edits does not
recognise it.
"""
import struct
import sys


def box(data, name):
    at = data.find(name)
    if at < 4:
        sys.exit(f"split-edit-list: no {name.decode()} box")
    return at - 4


def main():
    source, target, first = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = bytearray(open(source, "rb").read())
    if data.find(b"moov") < data.find(b"mdat"):
        sys.exit("split-edit-list: moov must come after mdat")
    mvhd = box(data, b"mvhd")
    movie_rate = struct.unpack(">I", data[mvhd + 20:mvhd + 24])[0]
    mdhd = box(data, b"mdhd")
    media_rate = struct.unpack(">I", data[mdhd + 20:mdhd + 24])[0]
    elst = box(data, b"elst")
    size, _, version, count = struct.unpack(">I4sB3xI", data[elst:elst + 16])
    if size != 28 or version != 0 or count != 1:
        sys.exit("split-edit-list: expected one version-0 edit")
    duration, media_time, rate = struct.unpack(">IiI", data[elst + 16:elst + 28])
    if not 0 < first < duration:
        sys.exit("split-edit-list: FIRST must fall inside the edit")
    second_time = media_time + first * media_rate // movie_rate
    edits = struct.pack(">IiI", first, media_time, rate)
    edits += struct.pack(">IiI", duration - first, second_time, rate)
    data[elst:elst + 28] = struct.pack(">I4sB3xI", 40, b"elst", 0, 2) + edits
    for name in (b"edts", b"trak", b"moov"):
        at = box(data, name)
        data[at:at + 4] = struct.pack(">I", struct.unpack(">I", data[at:at + 4])[0] + 12)
    open(target, "wb").write(data)


if __name__ == "__main__":
    main()
