#!/usr/bin/env python3
"""Makes a catalogue of small media files for the Spark recipe's scale test and benchmark.

    make_catalogue.py FIXTURES OUT_DIR COUNT

Writes COUNT listed paths under OUT_DIR/media (100 files per folder), made quickly: a pool of
tiny WAVE files written here (0.05 to 0.3 s of a tone, 8 to 44.1 kHz, mono or stereo) and the
small media fixtures, hard-linked under varied names (spaces, accents, CJK, quotes, brackets).
About 1 in 20 paths is a fixture (Matroska, MP4, MPEG-TS, FLAC, MP3, Ogg, manifests, and the
broken ones, which give error rows), and 1 in 500 is listed but does not exist.

Also writes OUT_DIR/list.txt (the paths, one per line) and OUT_DIR/sources.tsv (each path and
the file it is a link of, or "-" for a missing one), which the checks read.
"""

import math
import os
import shutil
import struct
import sys

FIXTURE_MEDIA = [
    "aac-movtext.mp4", "accessibility.mkv", "clip.wav", "manifest.mpd", "master.m3u8",
    "mp2-aac.ts", "multitrack.mkv", "opus-vtt.webm", "stereo-surround.ts", "subtitles-only.mkv",
    "timestamp-jump.ts", "tone.aac", "tone.flac", "tone.mp3", "truncated-48k.m4a",
    "truncated-header.wav", "truncated.mp4", "video-only.mp4", "vorbis.ogg", "sample.srt",
]
NAMES = ["clip", "talk show", "épisode", "日本語の音声", "it's live", "a&b", "[1] intro", "naïve"]


def tiny_wave(rate, channels, seconds, freq):
    """A 16-bit PCM WAVE file's bytes: a tone of `freq` Hz."""
    frames = int(rate * seconds)
    samples = bytearray()
    for n in range(frames):
        value = int(8000 * math.sin(2 * math.pi * freq * n / rate))
        samples += struct.pack("<h", value) * channels
    block = 2 * channels
    header = b"RIFF" + struct.pack("<I", 36 + len(samples)) + b"WAVE"
    header += b"fmt " + struct.pack("<IHHIIHH", 16, 1, channels, rate, rate * block, block, 16)
    return header + b"data" + struct.pack("<I", len(samples)) + bytes(samples)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    fixtures, out, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    pool = os.path.join(out, "pool")
    media = os.path.join(out, "media")
    os.makedirs(pool, exist_ok=True)
    os.makedirs(media, exist_ok=True)
    sources = []
    for k in range(48):
        rate = [8000, 16000, 22050, 44100][k % 4]
        channels = 1 + (k // 4) % 2
        seconds = 0.05 + 0.25 * ((k * 7) % 12) / 11
        path = os.path.join(pool, f"tone{k:02d}.wav")
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(tiny_wave(rate, channels, seconds, 220 + 20 * k))
        sources.append(path)
    fixture_paths = [os.path.abspath(os.path.join(fixtures, name)) for name in FIXTURE_MEDIA]
    with open(os.path.join(out, "list.txt"), "w", encoding="utf-8") as listing, \
            open(os.path.join(out, "sources.tsv"), "w", encoding="utf-8") as table:
        for i in range(count):
            folder = os.path.join(media, f"d{i // 100:04d}")
            if i % 100 == 0:
                os.makedirs(folder, exist_ok=True)
            name = NAMES[i % len(NAMES)]
            if i % 500 == 499:
                path, source = os.path.join(folder, f"{i:06d} {name} (missing).wav"), "-"
            elif i % 20 == 7:
                source = fixture_paths[(i // 20) % len(fixture_paths)]
                ext = os.path.splitext(source)[1]
                path = os.path.join(folder, f"{i:06d} {name}{ext}")
            else:
                source = sources[i % len(sources)]
                path = os.path.join(folder, f"{i:06d} {name}.wav")
            path = os.path.abspath(path)
            if source != "-" and not os.path.exists(path):
                try:
                    os.link(source, path)
                except OSError:  # another file system, or no hard links there
                    shutil.copyfile(source, path)
            listing.write(path + "\n")
            table.write(f"{path}\t{source}\n")


if __name__ == "__main__":
    main()
