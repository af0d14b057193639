#!/usr/bin/env bash
# Writes fixtures of Tests/Fixtures/lengths/ whose containers state a length that takes in
# (or leaves out) a last frame's padding differently from what decoders give:
#
#   alac-ffmpeg.caf  1 s of a 440 Hz tone at 8 kHz, mono, in ALAC from FFmpeg's CAF muxer:
#                    two packets, of 4,096 and 3,904 samples; the `pakt` chunk states
#                    8,192 valid frames (every packet's full 4,096), and the last packet's
#                    ALAC frame header states its 3,904
#   aac-ffmpeg.mka   1 s of a 440 Hz tone at 48 kHz, mono, in AAC (FFmpeg's encoder, 32 kbit/s)
#                    from FFmpeg's Matroska muxer: 48 blocks of 1,024 samples timed from 0,
#                    the encoder's 1,024 samples of delay first; the segment's Duration and the
#                    track's DURATION tag state 1.021 s (the input and the delay, 49,024
#                    samples), and the last frame holds 128 samples of padding past them
#   pcm-mxfmux.mxf   5,000 samples of GStreamer's test tone at 8 kHz, mono, 16-bit PCM, from
#                    GStreamer's mxfmux: the header states 0.7 s (whole edit units of 0.1 s,
#                    rounded up), and the sound essence holds 0.625 s, what decodes
#
# Needs ffmpeg (with its native ALAC and AAC encoders) and gst-launch-1.0 (with audiotestsrc
# and mxfmux).
# Usage: Scripts/make-padding-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/lengths
for tool in ffmpeg gst-launch-1.0; do
  command -v "$tool" >/dev/null || { echo "make-padding-fixtures: $tool is missing" >&2; exit 1; }
done
mkdir -p "$out"

ffmpeg -v error -y -f lavfi -i sine=frequency=440:duration=1:sample_rate=8000 \
  -c:a alac -map_metadata -1 -fflags +bitexact "$out/alac-ffmpeg.caf"
ffmpeg -v error -y -f lavfi -i sine=frequency=440:duration=1:sample_rate=48000 \
  -c:a aac -b:a 32k -map_metadata -1 -fflags +bitexact "$out/aac-ffmpeg.mka"
gst-launch-1.0 -q audiotestsrc num-buffers=5 samplesperbuffer=1000 \
  ! audio/x-raw,format=S16LE,rate=8000,channels=1 ! mxfmux ! filesink location="$out/pcm-mxfmux.mxf"
