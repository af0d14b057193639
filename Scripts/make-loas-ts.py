#!/usr/bin/env python3
"""Packs a LOAS stream (AAC in LATM with its 0x56E0 sync layer, ISO/IEC 14496-3 1.7.3) into a
small MPEG-TS file as broadcasters write it: stream type 0x11, several frames in each PES packet
(seven by default), one PTS per PES packet. FFmpeg 5.1 then takes the track's end for its last
PES packet's timestamp plus one frame.

Usage: make-loas-ts.py IN.loas OUT.ts [--core-rate HZ] [--frames-per-pes N]
The core rate (the AudioSpecificConfig's, before SBR) sets the timestamps: 1,024 samples a frame.
"""
import sys

from importlib import util
from pathlib import Path

spec = util.spec_from_file_location("declared", Path(__file__).with_name("make-declared-ts.py"))
declared = util.module_from_spec(spec)
spec.loader.exec_module(declared)


def loas_frames(data):
    """The AudioSyncStream's frames, each with its 3-byte sync header."""
    frames, at = [], 0
    while at + 3 <= len(data):
        if data[at] != 0x56 or data[at + 1] & 0xE0 != 0xE0:
            raise SystemExit(f"make-loas-ts: no LOAS sync word at byte {at}")
        length = (data[at + 1] & 0x1F) << 8 | data[at + 2]
        frames.append(data[at:at + 3 + length])
        at += 3 + length
    return frames


def pes_packets(pid, pes, counter):
    """The TS packets carrying one PES packet (payload_unit_start on the first)."""
    packets = []
    for start in range(0, len(pes), 184):
        chunk = pes[start:start + 184]
        first = 0x40 if start == 0 else 0
        stuffing = 184 - len(chunk)
        if stuffing > 0:
            adaptation = bytes([stuffing - 1])
            if stuffing > 1:
                adaptation += bytes([0]) + b"\xff" * (stuffing - 2)
            header = bytes([0x47, first | (pid >> 8), pid & 0xFF, 0x30 | (counter & 0xF)])
            packets.append(header + adaptation + chunk)
        else:
            header = bytes([0x47, first | (pid >> 8), pid & 0xFF, 0x10 | (counter & 0xF)])
            packets.append(header + chunk)
        counter += 1
    return packets, counter


def main():
    args = sys.argv[1:]
    rate, per_pes = 22050, 7
    if "--core-rate" in args:
        i = args.index("--core-rate")
        rate = int(args[i + 1])
        del args[i:i + 2]
    if "--frames-per-pes" in args:
        i = args.index("--frames-per-pes")
        per_pes = int(args[i + 1])
        del args[i:i + 2]
    source, target = args
    frames = loas_frames(Path(source).read_bytes())
    pid = 0x101
    pat = declared.psi(0x00, 1, bytes([0, 1, 0xE1, 0x00]))
    es = bytes([0x11, 0xE0 | (pid >> 8), pid & 0xFF, 0xF0, 0])
    pmt = declared.psi(0x02, 1, bytes([0xE0 | (pid >> 8), pid & 0xFF, 0xF0, 0]) + es)
    out = [declared.section_packet(0, pat), declared.section_packet(0x100, pmt)]
    counter = 0
    for first in range(0, len(frames), per_pes):
        pts = 90000 + round(first * 1024 * 90000 / rate)
        payload = b"".join(frames[first:first + per_pes])
        length = 8 + len(payload)
        header = bytes([0, 0, 1, 0xC0, length >> 8, length & 0xFF, 0x80, 0x80, 5,
                        0x21 | ((pts >> 29) & 0x0E), (pts >> 22) & 0xFF,
                        0x01 | ((pts >> 14) & 0xFE), (pts >> 7) & 0xFF,
                        0x01 | ((pts << 1) & 0xFE)])
        packets, counter = pes_packets(pid, header + payload, counter)
        out += packets
    Path(target).write_bytes(b"".join(out))


if __name__ == "__main__":
    main()
