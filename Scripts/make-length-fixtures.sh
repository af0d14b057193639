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
#   xingmux.mp3           20 buffers of 1,024 samples of GStreamer's test tone at 44.1 kHz, mono,
#                         from lamemp3enc through xingmux: a Xing header with no LAME tag,
#                         whose frame count includes its own frame (one more than the frames
#                         of audio after it, which are what decoders give)
#
# Needs ffmpeg (with its native AAC encoder and mpeg4) and gst-launch-1.0 (with audiotestsrc,
# lamemp3enc and xingmux).
# Usage: Scripts/make-length-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/lengths
for tool in ffmpeg gst-launch-1.0; do
  command -v "$tool" >/dev/null || { echo "make-length-fixtures: $tool is missing" >&2; exit 1; }
done
for element in audiotestsrc lamemp3enc xingmux; do
  gst-inspect-1.0 "$element" >/dev/null 2>&1 ||
    { echo "make-length-fixtures: GStreamer element $element is missing" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

ffmpeg -v error -y -f lavfi -i sine=frequency=440:duration=1:sample_rate=48000 \
  -c:a aac -b:a 32k -map_metadata -1 -fflags +bitexact "$work/sine.m4a"
ffmpeg -v error -y -f lavfi -i testsrc=size=16x16:rate=5:duration=1.2 -itsoffset 0.1 \
  -i "$work/sine.m4a" -map 0:v -map 1:a -c:v mpeg4 -q:v 31 -c:a copy -map_metadata -1 \
  -fflags +bitexact "$out/avi-empty-chunks.avi"

gst-launch-1.0 -q audiotestsrc num-buffers=20 ! audio/x-raw,rate=44100,channels=1 \
  ! lamemp3enc ! xingmux ! filesink location="$out/xingmux.mp3"
