#!/usr/bin/env bash
# Writes fixtures of Tests/Fixtures/lengths/, files whose stated audio length and decoded audio
# differ by the way their muxer writes them:
#
#   avi-empty-chunks.avi  1 s of MPEG-4 video (16x16, 5 frames/s) and 1 s of mono AAC at
#                         48 kHz (48 frames of 1,024 samples, the encoder delay included:
#                         AVI has no edit list to drop it; 32 kbit/s) from FFmpeg's AVI
#                         muxer, the audio starting 0.1 s after the video: the muxer fills the
#                         gap with empty audio chunks, which the stream header's length counts
#                         (frames that hold no audio) and FFmpeg's demuxer skips
#
# Needs ffmpeg (with its native AAC encoder and mpeg4).
# Usage: Scripts/make-length-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/lengths
command -v ffmpeg >/dev/null || { echo "make-length-fixtures: ffmpeg is missing" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

ffmpeg -v error -y -f lavfi -i sine=frequency=440:duration=1:sample_rate=48000 \
  -c:a aac -b:a 32k -map_metadata -1 -fflags +bitexact "$work/sine.m4a"
ffmpeg -v error -y -f lavfi -i testsrc=size=16x16:rate=5:duration=1.2 -itsoffset 0.1 \
  -i "$work/sine.m4a" -map 0:v -map 1:a -c:v mpeg4 -q:v 31 -c:a copy -map_metadata -1 \
  -fflags +bitexact "$out/avi-empty-chunks.avi"
