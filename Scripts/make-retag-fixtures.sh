#!/usr/bin/env bash
# Writes Tests/Fixtures/retagged/: tiny files as tag editors and joined encoder runs leave
# them, which FFmpeg 5.1 lists wrongly:
#
#   flac-chained-same-serial.oga   two `flac --ogg` files joined (a chained Ogg stream) whose
#                                  links share one serial number (flac takes it from the clock:
#                                  two files encoded in the same second share it): 0.3 s of
#                                  mono at 16000 Hz, then 0.5 s of mono at 8000 Hz. FFmpeg 5.1
#                                  reads the last page's granule at the first link's rate
#                                  (0.25 s)
#   vorbis-chained-same-serial.ogg the same with oggenc (`-s` sets the serial, as for a file
#                                  joined to a copy of itself): 0.4 s at 22050 Hz, then 0.3 s
#                                  at 11025 Hz, both mono (FFmpeg 5.1: 0.15 s)
#   mp3-ape-cover.mp3              1 s of LAME CBR (its Info frame and LAME tag: encoder delay
#                                  and padding) followed by an APEv2 tag holding a 4,000-byte
#                                  cover (written here byte by byte, APEv2 as foobar2000 and
#                                  Mutagen write it): the tag is more than a sixteenth of the
#                                  frames, and FFmpeg 5.1 drops the Info frame's count, states
#                                  a length from the bit rate and decodes the padding
#   mp3-id3v24-appended.mp3        the same frames with an ID3v2.4 tag appended after them
#                                  (with its footer, ID3v2.4 section 5), holding the same cover
#
# Requires sox, flac, oggenc, lame and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/retagged
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

sox -R -q -n -r 16000 -c 1 -b 16 "$work/one.wav" synth 0.3 sine 440 vol 0.3
sox -R -q -n -r 8000 -c 1 -b 16 "$work/two.wav" synth 0.5 sine 660 vol 0.3
flac -s -f --ogg --serial-number=4660 --no-padding -o "$work/one.oga" "$work/one.wav"
flac -s -f --ogg --serial-number=4660 --no-padding -o "$work/two.oga" "$work/two.wav"
cat "$work/one.oga" "$work/two.oga" >"$out/flac-chained-same-serial.oga"

sox -R -q -n -r 22050 -c 1 -b 16 "$work/three.wav" synth 0.4 sine 440 vol 0.3
sox -R -q -n -r 11025 -c 1 -b 16 "$work/four.wav" synth 0.3 sine 660 vol 0.3
oggenc --quiet -q 0 -s 4660 -o "$work/three.ogg" "$work/three.wav"
oggenc --quiet -q 0 -s 4660 -o "$work/four.ogg" "$work/four.wav"
cat "$work/three.ogg" "$work/four.ogg" >"$out/vorbis-chained-same-serial.ogg"

sox -R -q -n -r 22050 -c 1 -b 16 "$work/tone.wav" synth 1 sine 440 vol 0.3
lame --quiet -b 64 "$work/tone.wav" "$work/tone.mp3"
python3 - "$work/tone.mp3" "$out" <<'PY'
import struct, sys
frames = open(sys.argv[1], "rb").read()
out = sys.argv[2]
# A cover that is not a real picture: bytes no MPEG audio frame header can start in.
cover = bytes((i * 7) % 200 + 20 for i in range(4000))

# APEv2 (version 2000): items, then a footer; a header before them too (flag bit 31).
def ape_item(key, value, flags):
    return struct.pack("<II", len(value), flags) + key.encode() + b"\0" + value
items = ape_item("Title", b"Tone", 0) + ape_item("Cover Art (Front)", b"cover.jpg\0" + cover, 2)
size = len(items) + 32
def ape_frame(flags):
    return b"APETAGEX" + struct.pack("<IIII", 2000, size, 2, flags) + bytes(8)
ape = ape_frame(0xA0000000) + items + ape_frame(0x80000000)
open(out + "/mp3-ape-cover.mp3", "wb").write(frames + ape)

# ID3v2.4 with a footer, appended: sizes are syncsafe.
def syncsafe(n):
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])
def frame(fid, data):
    return fid + syncsafe(len(data)) + b"\0\0" + data
body = frame(b"TIT2", b"\x03Tone") + frame(b"APIC", b"\x00image/jpeg\x00\x03\x00" + cover)
flags = bytes([0x10])
tag = b"ID3\x04\x00" + flags + syncsafe(len(body)) + body + b"3DI\x04\x00" + flags + syncsafe(len(body))
open(out + "/mp3-id3v24-appended.mp3", "wb").write(frames + tag)
PY
