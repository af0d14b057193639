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
#   vorbis-late-start.ogg 1 s of Theora (32x32, 5 frames/s) and 1 s of a mono 440 Hz tone at
#                         44.1 kHz in Vorbis (oggenc, quality 0, pages of 0.1 s), cut by
#                         oggz-chop at 0.5 s: the Vorbis stream's pages keep their granule
#                         positions, so it starts at sample 21,184 (its first audio page's
#                         granule, 25,280, less the 4,096 samples its packets decode to) and
#                         decodes 22,916 samples up to its last granule, 44,100; FFmpeg states
#                         the whole 44,100 less its start as it reads it, 0.543 s
#
# Needs ffmpeg (with its native AAC encoder, mpeg4 and libtheora), gst-launch-1.0 (with
# audiotestsrc, lamemp3enc and xingmux), oggenc (vorbis-tools) and oggz (oggz-tools).
# Usage: Scripts/make-length-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/lengths
for tool in ffmpeg gst-launch-1.0 oggenc oggz; do
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

ffmpeg -v error -y -f lavfi -i sine=frequency=440:duration=1:sample_rate=44100 \
  -fflags +bitexact "$work/tone.wav"
oggenc -Q -q 0 --serial 1234 -o "$work/tone.ogg" "$work/tone.wav"
ffmpeg -v error -y -f lavfi -i testsrc=size=32x32:rate=5:duration=1 -i "$work/tone.ogg" \
  -map 0:v -map 1:a -c:v libtheora -q:v 0 -c:a copy -map_metadata -1 -fflags +bitexact \
  -page_duration 100000 "$work/tone-video.ogg"
oggz chop -k -s 0.5 -o "$out/vorbis-late-start.ogg" "$work/tone-video.ogg"
