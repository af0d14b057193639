#!/usr/bin/env python3
"""Writes a copy of an MP4 file with an iTunes gapless tag, as iTunes and Apple's encoders
write it: moov/udta/meta/ilst/'----' named iTunSMPB, whose value states the encoder priming,
the padding and the sample count in hex.

    add-itunes-gapless.py IN OUT PRIMING PADDING SAMPLES

IN's moov box must be its last box (as FFmpeg writes files without +faststart); its udta, if
any, is replaced.
"""
import struct
import sys


def box(kind: bytes, payload: bytes) -> bytes:
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def main() -> None:
    source, target, priming, padding, samples = sys.argv[1:6]
    data = open(source, "rb").read()
    at = 0
    while at < len(data):
        size, kind = struct.unpack(">I4s", data[at : at + 8])
        if kind == b"moov":
            break
        at += size
    if at + size != len(data):
        sys.exit("add-itunes-gapless: the moov box must be the file's last")
    body = data[at + 8 : at + size]
    kept = b""
    inner = 0
    while inner < len(body):
        child_size, child_kind = struct.unpack(">I4s", body[inner : inner + 8])
        if child_kind != b"udta":
            kept += body[inner : inner + child_size]
        inner += child_size
    value = " 00000000 %08X %08X %016X" % (int(priming), int(padding), int(samples))
    value += " 00000000" * 8
    item = box(
        b"----",
        box(b"mean", b"\0\0\0\0com.apple.iTunes")
        + box(b"name", b"\0\0\0\0iTunSMPB")
        + box(b"data", struct.pack(">II", 1, 0) + value.encode()),
    )
    handler = box(b"hdlr", b"\0\0\0\0" + b"\0\0\0\0mdirappl" + b"\0" * 9)
    meta = box(b"meta", b"\0\0\0\0" + handler + box(b"ilst", item))
    with open(target, "wb") as out:
        out.write(data[:at] + box(b"moov", kept + box(b"udta", meta)))


if __name__ == "__main__":
    main()
