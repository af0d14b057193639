#!/usr/bin/env bash
# Writes fixtures of Tests/Fixtures/lengths/ whose containers state a length that takes in
# (or leaves out) a last frame's padding differently from what decoders give:
#
#   alac-ffmpeg.caf  1 s of a 440 Hz tone at 8 kHz, mono, in ALAC from FFmpeg's CAF muxer:
#                    two packets, of 4,096 and 3,904 samples; the `pakt` chunk states
#                    8,192 valid frames (every packet's full 4,096), and the last packet's
#                    ALAC frame header states its 3,904
#
# Needs ffmpeg (with its native ALAC encoder).
# Usage: Scripts/make-padding-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/lengths
command -v ffmpeg >/dev/null || { echo "make-padding-fixtures: ffmpeg is missing" >&2; exit 1; }
mkdir -p "$out"

ffmpeg -v error -y -f lavfi -i sine=frequency=440:duration=1:sample_rate=8000 \
  -c:a alac -map_metadata -1 -fflags +bitexact "$out/alac-ffmpeg.caf"
