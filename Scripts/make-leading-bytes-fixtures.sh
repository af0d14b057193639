#!/usr/bin/env bash
# Writes into Tests/Fixtures/othertools/ small files of kinds a player SDK's test collection
# holds and FFmpeg 5.1 misreads, made with lame, opusenc and sox (not FFmpeg):
#
#   mp3-lame-garbage-prefix.mp3    40,000 pseudo-random bytes (a fixed linear congruential
#                                  sequence), then a VBR MP3 from lame with its Xing/LAME
#                                  header: 0.5 s of a tone, mono at 22050 Hz. FFmpeg 5.1 does
#                                  not see the LAME tag after the prefix (no gapless trim) and
#                                  parses the prefix as frames
#   mp3-lame-zeros-after-id3.mp3   the same lame file after an ID3v2.4 tag and 2,000 zero bytes
#                                  (padding left outside the tag): FFmpeg 5.1 looks for the
#                                  LAME tag where the ID3v2 tag ends, finds zeros, and decodes
#                                  the encoder delay and padding (and the Xing frame) as audio
#   aac-adts-garbage-prefix.aac    40,000 other pseudo-random bytes (the sequence from 2), then
#                                  ADTS AAC-LC from GStreamer's voaacenc: 15 frames (0.96 s),
#                                  mono at 16 kHz. FFmpeg 5.1 parses the prefix as frames and
#                                  loses its way: 0.512 s decoded (other prefixes: the decode
#                                  failed, or no sample rate was found)
#   mp3-lame-one-frame.mp3         one frame (the sixth, 418 bytes: 1,152 samples of stereo at
#                                  44.1 kHz) cut from a CBR MP3 lame wrote at 128 kb/s without
#                                  its Info frame (-t): FFmpeg 5.1's demuxer finds no next frame
#                                  to check the first by, and refuses the file
#   opus-chained-same-serial.opus  two opusenc files one after the other that share one serial
#                                  number (--serial 4660): 0.3 s then 0.2 s of stereo at 48 kHz.
#                                  FFmpeg 5.1 takes the second link's OpusHead and OpusTags
#                                  pages for packets of the first link's stream
#   ogg-chained-opus-vorbis-opus.ogg  three links in two codecs: the first file above (Opus,
#                                  0.3 s), the second as Vorbis from oggenc (0.2 s), then as
#                                  Opus (0.2 s), stereo at 48 kHz; FFmpeg 5.1's demuxer refuses
#                                  a link in another codec ("Invalid argument")
#   opus-duplicate-header.opus     the first of those (0.3 s) with its OpusHead and OpusTags
#                                  pages written twice (as some muxers did), page sequence
#                                  numbers and CRCs rewritten: the copies reach the decoder
#   vorbis-missing-page.ogg        3 s of noise from oggenc (mono, 22050 Hz) with its second
#                                  audio page left out, as a damaged copy loses one: FFmpeg 5.1
#                                  decodes on after the gap, the rest early, and says nothing
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/othertools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sox -R -n -r 22050 -c 1 -b 16 "$work/tone.wav" synth 0.5 sine 440 vol 0.5
lame --quiet -V 6 "$work/tone.wav" "$work/tone.mp3"
python3 - "$work/tone.mp3" "$out" "$work" <<'PY'
import sys
tone = open(sys.argv[1], "rb").read()
out = sys.argv[2]
def pseudo_random(count, state):
    prefix = bytearray()
    for _ in range(count):
        state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        prefix.append((state >> 33) & 0xFF)
    return bytes(prefix)
open(out + "/mp3-lame-garbage-prefix.mp3", "wb").write(pseudo_random(40000, 0x2545F4914F6CDD1D) + tone)
open(sys.argv[3] + "/prefix.bin", "wb").write(pseudo_random(40000, 2))
# ID3v2.4: one TIT2 frame (UTF-8 "Hello"), its size syncsafe, then zeros outside the tag.
frame = b"TIT2" + bytes([0, 0, 0, 6, 0, 0, 3]) + b"Hello"
tag = b"ID3" + bytes([4, 0, 0, 0, 0, 0, len(frame)]) + frame
open(out + "/mp3-lame-zeros-after-id3.mp3", "wb").write(tag + bytes(2000) + tone)
PY

sox -R -n -r 44100 -c 2 -b 16 "$work/stereo.wav" synth 0.3 sine 440 sine 660 vol 0.5
lame --quiet -t -b 128 "$work/stereo.wav" "$work/cbr.mp3"
python3 - "$work/cbr.mp3" "$out/mp3-lame-one-frame.mp3" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
# MPEG-1 layer III frames: 144 * bit rate / sample rate bytes, plus the padding bit's byte.
rates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
at, frames = 0, []
while at + 4 <= len(data) and data[at] == 0xFF:
    size = 144000 * rates[data[at + 2] >> 4] // 44100 + ((data[at + 2] >> 1) & 1)
    frames.append(data[at : at + size])
    at += size
open(sys.argv[2], "wb").write(frames[5])
PY

sox -R -n -r 16000 -c 1 -b 16 "$work/adts.wav" synth 1 sine 440 vol 0.5
gst-launch-1.0 -q filesrc location="$work/adts.wav" ! wavparse ! audioconvert ! voaacenc \
  ! audio/mpeg,stream-format=adts ! filesink location="$work/tone.aac"
cat "$work/prefix.bin" "$work/tone.aac" >"$out/aac-adts-garbage-prefix.aac"

sox -R -n -r 48000 -c 2 -b 16 "$work/a.wav" synth 0.3 sine 300 sine 400 vol 0.5
sox -R -n -r 48000 -c 2 -b 16 "$work/b.wav" synth 0.2 sine 500 sine 600 vol 0.5
opusenc --quiet --bitrate 24 --serial 4660 "$work/a.wav" "$work/a.opus"
opusenc --quiet --bitrate 24 --serial 4660 "$work/b.wav" "$work/b.opus"
cat "$work/a.opus" "$work/b.opus" >"$out/opus-chained-same-serial.opus"
oggenc -Q -q 0 --serial 4661 -o "$work/b.ogg" "$work/b.wav"
opusenc --quiet --bitrate 24 --serial 4662 "$work/b.wav" "$work/b2.opus"
cat "$work/a.opus" "$work/b.ogg" "$work/b2.opus" >"$out/ogg-chained-opus-vorbis-opus.ogg"

# The header pages again after the first two: sequence numbers and CRCs rewritten (the CRC of
# RFC 3533: polynomial 0x04C11DB7, no reflection, initial 0, over the page with its CRC 0).
python3 - "$work/a.opus" "$out/opus-duplicate-header.opus" <<'PY'
import struct, sys
table = []
for i in range(256):
    r = i << 24
    for _ in range(8):
        r = ((r << 1) ^ 0x04C11DB7) if r & 0x80000000 else r << 1
    table.append(r & 0xFFFFFFFF)
def crc(page):
    c = 0
    for byte in page:
        c = ((c << 8) ^ table[((c >> 24) ^ byte) & 0xFF]) & 0xFFFFFFFF
    return c
data, pages, at = open(sys.argv[1], "rb").read(), [], 0
while at < len(data):
    count = data[at + 26]
    size = 27 + count + sum(data[at + 27 : at + 27 + count])
    pages.append(bytearray(data[at : at + size]))
    at += size
pages = pages[:2] + [bytearray(pages[0]), bytearray(pages[1])] + pages[2:]
pages[2][5] = 0  # the copy is not a beginning of stream
out = bytearray()
for number, page in enumerate(pages):
    page[18:22] = struct.pack("<I", number)
    page[22:26] = bytes(4)
    page[22:26] = struct.pack("<I", crc(page))
    out += page
open(sys.argv[2], "wb").write(out)
PY

sox -R -n -r 22050 -c 1 -b 16 "$work/long.wav" synth 3 pinknoise vol 0.3
oggenc -Q -q 0 --serial 4663 -o "$work/long.ogg" "$work/long.wav"
python3 - "$work/long.ogg" "$out/vorbis-missing-page.ogg" <<'PY'
import sys
data, pages, at = open(sys.argv[1], "rb").read(), [], 0
while at < len(data):
    count = data[at + 26]
    size = 27 + count + sum(data[at + 27 : at + 27 + count])
    pages.append(data[at : at + size])
    at += size
# Pages 0 and 1 hold the three header packets; page 3 is the second page of audio.
assert len(pages) >= 5, len(pages)
open(sys.argv[2], "wb").write(b"".join(pages[:3] + pages[4:]))
PY
