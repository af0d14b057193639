#!/usr/bin/env bash
# Writes more files of Tests/Fixtures/othertools/, from encoders and muxers that are neither
# FFmpeg's nor those of Scripts/make-othertool-fixtures.sh and Scripts/make-vlc-fixtures.sh:
#
#   mpcenc-sv8.mpc        1.9 s of mono Musepack SV8 at 44100 Hz from mpcenc (musepack-tools):
#                         its stream header states 83,790 samples; FFmpeg 5.1 divides them by
#                         the samples of one audio packet (73,728) in integers and states
#                         1.67 s
#   ogmmerge-mp3-22k.ogm  1.0 s of mono MP3 at 22050 Hz (lame, MPEG-2 Layer III: 576 samples a
#                         frame) in OGM from ogmmerge (ogmtools), whose granules count 1,152
#                         samples a frame: FFmpeg 5.1 states twice the length; the decoder gives
#                         the frames' samples, lame's Info frame included (42 frames)
#   tx3g-empty-edit.3gp   GStreamer's 3gppmux: 3 s of AMR-NB and a 3GPP timed-text (tx3g) track
#                         whose cues are 1.2-2.0 s ("First cue") and 2.5-3.0 s ("Last cue"):
#                         the muxer starts the text track with a 1.2 s empty edit, which FFmpeg
#                         5.1 leaves out of the last sample's end, so that cue lasts no time
#
# Needs sox, mpcenc, lame, ogmmerge and GStreamer (gst-launch-1.0 with 3gppmux, amrnbenc and subparse).
# Usage: Scripts/make-moremuxer-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/othertools
for tool in sox mpcenc lame ogmmerge gst-launch-1.0; do
  command -v "$tool" >/dev/null || { echo "make-moremuxer-fixtures: $tool is missing" >&2; exit 1; }
done
for element in 3gppmux amrnbenc subparse; do
  gst-inspect-1.0 "$element" >/dev/null 2>&1 ||
    { echo "make-moremuxer-fixtures: GStreamer element $element is missing" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

sox -R -q -n -r 44100 -c 1 -b 16 "$work/m44.wav" synth 1.9 sine 440 vol 0.5
mpcenc --silent --overwrite --quality 0 "$work/m44.wav" "$out/mpcenc-sv8.mpc"

sox -R -q -n -r 22050 -c 1 -b 16 "$work/m22.wav" synth 1.0 sine 440 vol 0.5
lame --quiet -b 64 "$work/m22.wav" "$work/m22.mp3"
ogmmerge -q -o "$out/ogmmerge-mp3-22k.ogm" "$work/m22.mp3" >/dev/null

printf '1\n00:00:01,200 --> 00:00:02,000\nFirst cue\n\n2\n00:00:02,500 --> 00:00:03,000\nLast cue\n' \
  >"$work/late.srt"
timeout 60 gst-launch-1.0 -q 3gppmux name=mux ! filesink location="$out/tx3g-empty-edit.3gp" \
  audiotestsrc num-buffers=15 samplesperbuffer=1600 ! audio/x-raw,rate=8000,channels=1 \
  ! amrnbenc ! mux. filesrc location="$work/late.srt" ! subparse ! mux.subtitle_0 >/dev/null
