#!/usr/bin/env python3
"""Writes a copy of an MP4 file whose first AAC track has no AudioSpecificConfig.

Usage: strip-aac-config.py IN.mp4 OUT.mp4

The DecoderSpecificInfo (tag 0x05) inside the first `esds` box's DecoderConfigDescriptor is
removed, and the sizes of the descriptors and of every box around it are made smaller by as
much. The file's `moov` must follow its `mdat` (as GStreamer's mp4mux writes it), so no chunk
offset moves. Descriptor sizes must fit in one byte, as mp4mux writes them.
"""
import struct
import sys

data = bytearray(open(sys.argv[1], "rb").read())
# The boxes descended into, and the bytes of their own fields before their children.
CONTAINERS = {b"moov": 0, b"trak": 0, b"mdia": 0, b"minf": 0, b"stbl": 0, b"stsd": 8, b"mp4a": 28}


def path_to_esds(start, end, path):
    """The offsets of the boxes from the top down to the first esds box, or None."""
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"esds":
            return path + [at]
        if kind in CONTAINERS:
            found = path_to_esds(at + 8 + CONTAINERS[kind], at + size, path + [at])
            if found:
                return found
        at += size
    return None


boxes = path_to_esds(0, len(data), [])
if boxes is None:
    sys.exit("strip-aac-config: no esds box")
mdat = data.find(b"mdat")
if not 0 <= mdat - 4 < boxes[0]:
    sys.exit("strip-aac-config: moov comes before mdat")
es = boxes[-1] + 12  # after the box header and its version and flags
if data[es] != 0x03 or data[es + 1] & 0x80:
    sys.exit("strip-aac-config: unexpected ES_Descriptor")
flags = data[es + 4]
if flags & 0xE0:
    sys.exit("strip-aac-config: ES_Descriptor with optional fields")
config = es + 5
if data[config] != 0x04 or data[config + 1] & 0x80:
    sys.exit("strip-aac-config: unexpected DecoderConfigDescriptor")
info = config + 2 + 13
if data[info] != 0x05 or data[info + 1] & 0x80:
    sys.exit("strip-aac-config: no DecoderSpecificInfo")
cut = 2 + data[info + 1]
del data[info:info + cut]
data[config + 1] -= cut
data[es + 1] -= cut
for box in boxes:
    size = struct.unpack(">I", data[box:box + 4])[0]
    data[box:box + 4] = struct.pack(">I", size - cut)
open(sys.argv[2], "wb").write(data)
