#!/usr/bin/env bash
# Makes small media files with muxers and encoders other than FFmpeg's (sox, lame, flac,
# opusenc, mkvmerge, GStreamer), so that tests compare mtool with ffprobe and with each
# container's own declarations on files FFmpeg did not write. A file whose tool is missing is
# not made (the tests that need it say so and skip). Usage: make-othermuxer-media.sh OUTDIR
set -u
out=${1:?usage: make-othermuxer-media.sh OUTDIR}
mkdir -p "$out"
cd "$out" || exit 1
has() { command -v "$1" >/dev/null 2>&1; }

# A 1.5 s two-tone stereo WAVE at 22050 Hz, the source of the encoders below.
if has sox; then
  sox -n -r 22050 -c 2 -b 16 sox.wav synth 1.5 sine 440 sine 660 || rm -f sox.wav
fi
if [ -f sox.wav ]; then
  has lame && { lame --quiet -b 64 sox.wav lame.mp3 || rm -f lame.mp3; }
  has flac && { flac --silent -f -o flac.flac sox.wav || rm -f flac.flac; }
  # Opus keeps the input's 22050 Hz in its header; decoders give 48 kHz.
  has opusenc && { opusenc --quiet sox.wav opusenc.opus || rm -f opusenc.opus; }
fi

printf '1\n00:00:00,100 --> 00:00:01,000\nHallo\n' >subs.srt
printf 'WEBVTT\n\n00:00:00.100 --> 00:00:01.000\nHello\n' >subs.vtt

# mkvmerge: MP3 (French), Opus (English), SRT (German), WebVTT (English; mkvmerge writes the
# CodecID D_WEBVTT/SUBTITLES, which FFmpeg 5.1 does not name) and per-track DURATION tags.
if has mkvmerge && [ -f lame.mp3 ] && [ -f opusenc.opus ]; then
  mkvmerge -q -o mkvmerge.mkv --language 0:fr lame.mp3 --language 0:en opusenc.opus \
    --language 0:de subs.srt --language 0:en subs.vtt || rm -f mkvmerge.mkv
fi

# GStreamer's muxers and encoders.
if has gst-launch-1.0; then
  gst() { gst-launch-1.0 -q "$@" >/dev/null 2>&1; }
  src='audiotestsrc num-buffers=30'
  gst $src ! audio/x-raw,rate=32000,channels=2 ! audioconvert ! vorbisenc ! oggmux \
    ! filesink location=gst-vorbis.ogg || rm -f gst-vorbis.ogg
  gst $src ! audio/x-raw,rate=48000,channels=1 ! audioconvert ! opusenc ! matroskamux \
    ! filesink location=gst-opus.mka || rm -f gst-opus.mka
  gst $src ! audioconvert ! flacenc ! filesink location=gst.flac || rm -f gst.flac
  gst $src ! audioconvert ! wavenc ! filesink location=gst.wav || rm -f gst.wav
  # A fragmented MP4 (moof fragments of 200 ms) with Opus.
  gst $src ! audioconvert ! opusenc ! mp4mux fragment-duration=200 \
    ! filesink location=gst-fragmented-opus.mp4 || rm -f gst-fragmented-opus.mp4
  gst $src ! audioconvert ! lamemp3enc ! mp4mux ! filesink location=gst-mp3.mp4 \
    || rm -f gst-mp3.mp4
fi
# Remove what a failed tool may have left empty.
find . -maxdepth 1 -type f -size 0 -delete
exit 0
