#!/usr/bin/env python3
"""Writes small MPEG-TS files whose program map declares audio that FFmpeg 5.1 does not know
by its stream type (AC-4 and DTS-UHD as private PES data with DVB extension descriptors and
registration descriptors), AC-3 whose packets are scrambled, and SCTE-35 splice information
(stream type 0x86, which Blu-ray uses for DTS-HD). The payloads only start with each codec's sync word: the files
test what a demuxer lists from the declaration, not decoding. Usage: make-declared-ts.py OUTDIR
"""
import os
import sys


def crc32_mpeg(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte << 24
        for _ in range(8):
            crc = ((crc << 1) ^ 0x04C11DB7) if crc & 0x80000000 else crc << 1
            crc &= 0xFFFFFFFF
    return crc


def section_packet(pid, table):
    body = table + crc32_mpeg(table).to_bytes(4, "big")
    payload = bytes([0]) + body
    header = bytes([0x47, 0x40 | (pid >> 8), pid & 0xFF, 0x10])
    return header + payload + b"\xff" * (184 - len(payload))


def psi(table_id, extension, content):
    length = 5 + len(content) + 4
    return (bytes([table_id, 0xB0 | (length >> 8), length & 0xFF])
            + extension.to_bytes(2, "big") + bytes([0xC1, 0, 0]) + content)


def pes_packets(pid, payload, count, scrambled=False):
    packets = []
    for index in range(count):
        pts = 90000 + index * 3000
        pes_header = bytes([0, 0, 1, 0xBD, 0, 0, 0x80, 0x80, 5,
                            0x21 | ((pts >> 29) & 0x0E), (pts >> 22) & 0xFF,
                            0x01 | ((pts >> 14) & 0xFE), (pts >> 7) & 0xFF,
                            0x01 | ((pts << 1) & 0xFE)])
        data = pes_header + payload
        data = data[:184]
        stuffing = 184 - len(data)
        if stuffing > 0:
            adaptation = bytes([stuffing - 1]) + (bytes([0]) + b"\xff" * (stuffing - 2) if stuffing > 1 else b"")
            header = bytes([0x47, 0x40 | (pid >> 8), pid & 0xFF,
                            (0x80 if scrambled else 0) | 0x30 | (index & 0xF)])
            packets.append(header + adaptation + data)
        else:
            header = bytes([0x47, 0x40 | (pid >> 8), pid & 0xFF,
                            (0x80 if scrambled else 0) | 0x10 | (index & 0xF)])
            packets.append(header + data)
    return packets


def transport(descriptors, sync, stream_type=0x06, scrambled=False):
    pat = psi(0x00, 1, bytes([0, 1, 0xE1, 0x00]))
    es = bytes([stream_type, 0xE1, 0x01, 0xF0, len(descriptors)]) + descriptors
    pmt = psi(0x02, 1, bytes([0xE1, 0x01, 0xF0, 0x00]) + es)
    packets = [section_packet(0, pat), section_packet(0x100, pmt)]
    packets += pes_packets(0x101, sync + bytes(range(256))[: 160 - len(sync)], 40, scrambled)
    return b"".join(packets)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    # AC-4: DVB extension descriptor (tag 0x7F, extension 0x15) and registration "AC-4";
    # sync word 0xAC40.
    ac4 = bytes([0x7F, 1, 0x15, 0x05, 4]) + b"AC-4"
    with open(os.path.join(out, "ac4-private.ts"), "wb") as file:
        file.write(transport(ac4, bytes([0xAC, 0x40, 0x00, 0x80])))
    # DTS-UHD: DVB extension descriptor 0x21; sync word 0x40411BF2.
    uhd = bytes([0x7F, 1, 0x21])
    with open(os.path.join(out, "dtsuhd-private.ts"), "wb") as file:
        file.write(transport(uhd, bytes([0x40, 0x41, 0x1B, 0xF2])))
    # Stream type 0x86 outside Blu-ray: SCTE-35 splice information, not audio.
    with open(os.path.join(out, "scte35.ts"), "wb") as file:
        file.write(transport(b"", bytes([0xFC, 0x30]), stream_type=0x86))
    # AC-3 (stream type 0x81) whose packets are scrambled (transport_scrambling_control 2).
    with open(os.path.join(out, "scrambled-ac3.ts"), "wb") as file:
        file.write(transport(b"", bytes([0x0B, 0x77]), stream_type=0x81, scrambled=True))


if __name__ == "__main__":
    main()
