#!/usr/bin/env bash
# Writes Tests/Fixtures/othertools/: tiny files whose headers state less than the decoder
# gives, written by GStreamer's muxers (mp4mux, matroskamux, mpegtsmux), not FFmpeg's:
#
#   he-aac-implicit.{aac,mp4,mka}  HE-AAC with implicit SBR: the ADTS header, the MP4 esds and
#                                  the Matroska track state AAC-LC at 22050 Hz; decoders give
#                                  44100 Hz (Scripts/inject-implicit-sbr.py adds the SBR data)
#   he-aacv2-implicit-mono.mp4     the same in mono: decoders assume implicit PS and give stereo
#   aac-lc-22k.mp4                 the stereo core alone: AAC-LC at 22050 Hz, as stated
#   he-aac-no-config.mp4           he-aac-implicit.mp4 without its AudioSpecificConfig (the esds
#                                  box's DecoderSpecificInfo taken out by
#                                  Scripts/strip-aac-config.py): only the sample entry states
#                                  22050 Hz stereo
#   mp2-gstreamer.ts               MPEG-1 Layer II (twolame) under stream type 0x03, which FFmpeg
#                                  5.1 takes for MP3
#   amr-nb.amr, amr-wb.amr         AMR in the RFC 4867 storage format (GStreamer's amrnbenc and
#                                  voamrwbenc frames after the magic): 1 s, 50 frames of 20 ms,
#                                  which FFmpeg 5.1 states no length for
#   opus-le-dops.mp4               0.5 s of Opus from GStreamer 1.22's opusenc and mp4mux, whose
#                                  dOps box holds its fields little-endian (the format says
#                                  big-endian): FFmpeg 5.1 then skips 14,337 samples, not 312
#   pcm-24in32.wav                 WAVE_FORMAT_EXTENSIBLE integer PCM, 24 valid bits in 32-bit
#                                  containers (written here byte by byte), which FFmpeg 5.1 takes
#                                  for 24-bit float: 800 mono frames at 8000 Hz, frame i holding
#                                  ((i * 997) % 65536 - 32768) << 16
#   wave-streamed-sox.wav          WAVE written to a pipe by sox: 0.5 s mono at 8000 Hz, its
#                                  sizes left at sox's placeholder (data 0x7FFFF000)
#   wave-streamed-gst.wav          the same from GStreamer's wavenc (data 0x7FFF0000): 4 buffers
#                                  of 800 frames at 8000 Hz
#   wave-rifx-7999.wav             big-endian WAVE (RIFX) from sox: 0.25 s of stereo 16-bit at
#                                  7999 Hz, which FFmpeg 5.1 decodes as little-endian (noise)
#   loas-he-aac.ts                 he-aac-implicit.aac as LOAS/LATM (GStreamer's avmux_latm) in
#                                  MPEG-TS, seven frames to a PES packet (Scripts/make-loas-ts.py):
#                                  12 frames of 2,048 samples at 44100 Hz after SBR
#   vorbis-chained.ogg             two oggenc files one after the other (a chained Ogg stream):
#                                  0.5 s at 44100 Hz, then 0.3 s at 22050 Hz, both stereo
#   vorbis-chained-mono.ogg        the same with a stereo link then a mono one (0.3 s each at
#                                  44100 Hz, one 440 Hz tone at one level in every channel)
#   flac-32bit.flac                32-bit FLAC from the reference encoder (flac 1.4): 0.1 s mono at
#                                  8000 Hz, which FFmpeg 5.1's decoder opens and gives nothing for
#   mp3-lame-freeformat.mp3        free-format MP3 (bit-rate index 0) from lame --freeformat at
#                                  400 kb/s: 0.2 s of stereo at 44100 Hz, its LAME tag stating the
#                                  length; FFmpeg 5.1 decodes none of it
#   aac-itunes-gapless.m4a         0.5 s of AAC (24,000 samples at 48 kHz) from FFmpeg without an
#                                  edit list, given iTunes' gapless tag (iTunSMPB: priming 1,024,
#                                  padding 576, 24,000 samples) by Scripts/add-itunes-gapless.py
#   aac-damaged-ffmpeg.mka         2 s of AAC in Matroska (no block durations) whose packets
#                                  FFmpeg's noise filter damaged (1 byte in 20): the decoder gives
#                                  about a sixth of the audio
#   aac-fragmented-sidx-ffmpeg.m4a 1 s of AAC at 32 kb/s in 0.25 s fragments with a global
#                                  sidx (FFmpeg 5.1 states 7.8 kb/s: the first fragment's bytes
#                                  over the whole length)
#   ac3-spdif-sox.wav              AC-3 (FFmpeg's encoder: 0.2 s of 440 Hz left, 660 Hz right)
#                                  as IEC 61937 (S/PDIF) bursts, written by sox as 16-bit stereo
#                                  PCM at 48000 Hz: compressed audio a WAVE file carries as PCM
#   ac3-ffmpeg.vob                 AC-3 in MPEG-PS (VOB) from FFmpeg's muxer, five 384-byte frames
#                                  to a PES packet: 16 frames at 48000 Hz, of which FFmpeg 5.1 states
#                                  0.384 s of 0.512 (one frame after the last PES packet's timestamp)
#   wave-rifx-24bit.wav            big-endian WAVE_FORMAT_EXTENSIBLE from sox: 0.1 s of stereo
#                                  24-bit at 8000 Hz, which FFmpeg 5.1 refuses to open
#   aac-streamable.flv             AAC in FLV from GStreamer's flvmux in streamable mode (no
#                                  onMetaData duration): 0.5 s at 22050 Hz, whose track FFmpeg 5.1
#                                  states no duration for
#   ac3-gstreamer.avi              AC-3 in AVI from GStreamer's avimux: its stream header counts
#                                  bytes (sample size 1, 12000 bytes/s at 96 kb/s) and FFmpeg 5.1
#                                  states no duration for it; 0.5 s at 48000 Hz
#   aac-mp3-gstreamer.avi          AAC (16 frames at 48000 Hz, mono) and MP3 (22 frames at 16000
#                                  Hz) in AVI from GStreamer's avimux: no index (idx1), and the
#                                  AAC stream header states 15 frames where 16 are written
#   webvtt-mkvmerge.mks            WebVTT in Matroska from mkvmerge (CodecID S_TEXT/WEBVTT, which
#                                  FFmpeg 5.1 does not name): two cues, 0.1-1.0 s ("A <b>bold</b>
#                                  line" over two lines; identifier id1, settings align:start,
#                                  which mkvmerge stores in the block's BlockAdditional) and
#                                  1.2-1.9 s ("&amp; two")
#   webvtt-zlib-mkvmerge.mks       the same with mkvmerge's zlib compression (ContentEncoding):
#                                  the BlockAdditional is compressed too, which FFmpeg 5.1 passes
#                                  on as stored
#   disabled-default-mkvmerge.mka  Matroska from mkvmerge whose first audio and first subtitle
#                                  tracks are flagged default but disabled (FlagEnabled 0, which
#                                  FFmpeg 5.1 does not read): English stereo (disabled), English
#                                  mono, then two English SubRip tracks (the first disabled);
#                                  0.02 s of 16-bit PCM at 8000 Hz each
#   flac-32bit-mkvmerge.mka        flac-32bit.flac in Matroska from mkvmerge: its CodecPrivate
#                                  states the 32 bits, FFmpeg 5.1's demuxer does not pass them on
#   opus-streamable.mka            Opus from GStreamer's matroskamux in streamable mode (as live
#                                  recorders write Matroska and WebM): no Duration, no Cues, six
#                                  clusters of unknown size; 0.5 s at 48000 Hz, mono
#   aiff-streamed-sox.aiff         AIFF written to a pipe by sox: 0.25 s mono at 8000 Hz, its SSND
#                                  size left at sox's placeholder (0x7F000008) and its COMM frame
#                                  count at what that would hold (3.7 hours)
#   aiff-streamed-gst.aiff         the same from GStreamer's aiffmux (SSND 0x7FFF0008): 4 buffers
#                                  of 500 frames at 8000 Hz
#   opus-chained-2to8.ogg          two opusenc files one after the other: 0.5 s of stereo, then
#                                  0.7 s of 8 channels at 384 kb/s, whose link FFmpeg 5.1's
#                                  decoder does not read (every packet of it fails)
#   mp3-vbr-no-xing.mp3            variable-bit-rate MP3 from lame without its Xing header (-t):
#                                  1 s of a quiet tone, then 1 s of noise, mono at 22050 Hz,
#                                  whose length FFmpeg 5.1 estimates from the first frames' bit
#                                  rate (2.81 s for 2.06)
#   aac-vbr.aac                    the same kind of stream in ADTS (FFmpeg's AAC encoder, -q:a 2):
#                                  1.5 s of a quiet tone, then 0.5 s of noise, stereo at 44100 Hz
#                                  (estimated 5.08 s for 2.04)
#   flac-no-total.flac             FLAC from the reference encoder reading raw samples from a pipe,
#                                  so its STREAMINFO states 0 samples in all (never written
#                                  back): 0.7 s of mono at 8000 Hz in 1152-sample blocks, for
#                                  which FFmpeg 5.1 states no length
#   opus-chained-2to8to2.ogg       the same followed by a third link, 0.4 s of stereo again, which
#                                  FFmpeg 5.1 decodes: the failure is in the middle, not at the end
#   sndfile-pcm.paf,               PCM from libsndfile (sndfile-convert) in Ensoniq PARIS and IRCAM
#   sndfile-pcm.ircam              files: 0.1 s mono 16-bit at 8000 Hz, whose headers state no
#                                  length and whose bit rate FFmpeg 5.1 leaves unset until it
#                                  reads packets
#   mp3-in-wave.wav                variable-bit-rate MP3 from lame (with its Info header frame)
#                                  in WAVE, format tag 0x0055 and a byte rate of 0, as some
#                                  Windows tools write it (the header written here): 0.5 s of a
#                                  quiet tone, then 0.5 s of noise, mono at 22050 Hz, which
#                                  FFmpeg 5.1 states no length for
#   mp3-in-wave-list.wav           mp3-in-wave.wav with a 70,000-byte LIST chunk before its
#                                  `data` chunk, which then starts past the first 64 KiB
#   opus-preskip.opus              0.37 s of mono Opus from opusenc (16 kb/s): its OpusHead's
#                                  pre-skip is 312 samples, which FFmpeg 5.1 counts in the
#                                  stream's length (0.3765 s) and its decoder drops (0.37 s)
#   opus-mkvmerge.mka              opus-preskip.opus remuxed by mkvmerge: CodecDelay 6.5 ms, and a
#                                  Duration of 0.3765 s (its blocks timed from the pre-skip's
#                                  start) for 0.37 s decoded
#   aac-raw-frames.aac             AAC-LC access units from GStreamer's voaacenc (1 s mono at
#                                  8000 Hz) written one after another, with no ADTS header and
#                                  no decoder configuration: nothing states their rate or
#                                  channels, and no decoder reads them; FFmpeg 5.1 probes the
#                                  file as ADTS and reads no rate
#   wavpack-hybrid.wv,             a hybrid WavPack encoding (wavpack -b3.0c: 3 bits a sample)
#   wavpack-hybrid.wvc             of 0.25 s mono at 8000 Hz and its correction file, whose
#                                  blocks hold only the correction to lossless: decodable only
#                                  with the .wv file; FFmpeg 5.1 lists it alone as WavPack, and
#                                  its decoder fails on every block
#   opus-ffmpeg.mp4,               0.5 s of mono at 48 kHz (24,000 samples) as Opus from FFmpeg's
#   aac-ffmpeg.m4a                 libopus in MP4 and as AAC (44.1 kHz, 22,050 samples) from its
#                                  own encoder: an edit list states the encoder's delay (312 and
#                                  1,024 samples) and the length, and the last frame's padding
#                                  (648 and 478 samples) is trimmed by nothing else
#   opus-ffmpeg-fragmented.mp4     the same Opus fragmented (empty moov): no edit list; its
#                                  fragments' 24,312 samples count the pre-skip's 312 (the first
#                                  sample lasts its whole packet)
#   opus-ffmpeg.mka,               the same Opus from FFmpeg's Matroska muxer (a CRC-32 in each
#   opus-gstreamer.mka             cluster, 1 ms timestamps 0.5 ms late) and from GStreamer's
#                                  opusenc and matroskamux: a CodecDelay of 6.5 ms and the last
#                                  block's DiscardPadding of 13.5 ms; FFmpeg's Duration says
#                                  0.508 s, GStreamer's 0.5 s
#   aac-gstreamer.mp4              the same 0.5 s as AAC from GStreamer's voaacenc and mp4mux: 23
#                                  frames (23,552 samples; no delay stated), whose edit list
#                                  states 883 ticks of 1/1800 s, the media's length rounded
#   opus-22k-ffmpeg.webm,          0.3 s of Opus from input at 22,050 Hz (14,400 samples at
#   opus-22k-mkvmerge.mka          48 kHz) from FFmpeg's WebM muxer (which states 24 kHz and a
#                                  CodecDelay of 3.25 ms for a pre-skip of 6.5) and from opusenc
#                                  and mkvmerge (22,050 Hz): FFmpeg 5.1's demuxer times the
#                                  packets and converts the DiscardPadding at the stated rate
#   vorbis-one-page.ogg,           oggenc's Vorbis whose audio is all on one page (0.5 s stereo
#   vorbis-one-page-short.ogg      and 0.2 s mono at 44.1 kHz): its granule position is the
#                                  length (oggdec gives 22,050 and 8,820 samples); FFmpeg 5.1's
#                                  end trimming gives 21,922 and 9,792
#   speex-gstreamer.flv,           0.5 s of Speex (16 kHz, one 20 ms frame a packet) in FLV from
#   speex-ffmpeg.flv               GStreamer's speexenc and flvmux (which writes Speex's header
#                                  and comment packets as audio tags and times the audio 9 ms
#                                  early: last tag at 0.471 s, 0.52 s decoded, the comment
#                                  packet as one frame of noise) and from FFmpeg's libspeex
#                                  (last tag at 0.48 s); FFmpeg 5.1 states no track length
#   speex-2frames-gstreamer.flv    the same from speexenc nframes=2: two frames a packet, which
#                                  FFmpeg 5.1's decoder reads only the first of without a header
#   ac3-ffmpeg-piped.wav           AC-3 in WAVE (format tag 0x2000) from FFmpeg writing to a pipe:
#                                  no `fact` chunk and the `data` size left unset; 0.2 s of
#                                  stereo at 48 kHz, 96 kb/s (7 frames), for which FFmpeg 5.1
#                                  states no length
#   amr-wb-raw-gstreamer.amr       AMR-WB frames from GStreamer's voamrwbenc written to a file as
#                                  they come, without the storage format's magic (FFmpeg's
#                                  `amrwb` demuxer, which needs about 100 frames to know it):
#                                  3 s, 150 frames, for which FFmpeg 5.1 states no length
#   wave-mask0-sox.wav             sox's WAVE_FORMAT_EXTENSIBLE header for 6 channels (0.02 s of
#                                  16-bit at 8000 Hz) with its dwChannelMask set to 0 here (no
#                                  speaker positions, as some tools write it): FFmpeg 5.1
#                                  leaves the layout unspecified and names its default, 5.1
#   vorbis-native-mkvmerge.webm    0.25 s of stereo at 48 kHz from FFmpeg's own Vorbis encoder
#                                  (long blocks only) remuxed by mkvmerge: its Duration counts a
#                                  quarter of the first packet's block (10.7 ms), which decodes
#                                  to nothing (0.2667 s stated, 0.256 s decoded)
#   vorbis-gstreamer.webm          0.25 s of mono at 48 kHz from GStreamer's vorbisenc and
#                                  webmmux: its Duration is the input's length, and Matroska
#                                  has no granule to trim the last packet (0.268 s decoded)
#   opus-streamable-cut.webm       GStreamer's streamable WebM (as opus-streamable.mka: no
#                                  Duration, no Cues) cut three fifths into its second-last
#                                  cluster, inside a block: FFmpeg gives none of that block
#   adpcm-ima-sox.wav,             sox's IMA and Microsoft ADPCM: 0.3 s mono at 8000 Hz, whose
#   adpcm-ms-sox.wav               `fact` chunk states 2,400 samples; the last block is padded
#                                  (FFmpeg 5.1 lists 2,400 and decodes whole blocks: 2,525 and
#                                  2,500 samples)
#   aac-two-edits.m4a              0.5 s of AAC from FFmpeg whose one edit is split into two that
#                                  follow each other (Scripts/split-edit-list.py): 0.25 s each
#   opus-gstreamer.ts,             0.5 s of Opus (48 kHz mono) in MPEG-TS from GStreamer's
#   opus-ffmpeg.ts                 mpegtsmux and from FFmpeg: the first access unit's control
#                                  header states the pre-skip as its start trim, the last its end
#                                  trim; FFmpeg 5.1 strips both (0.52 s decoded). GStreamer times
#                                  the first unit by what it presents, FFmpeg by its whole length
#   pcm-gstreamer.flv              16-bit PCM in FLV from GStreamer's flvmux: three tags of 0.2 s
#                                  (11025 Hz mono), each a whole buffer
#   wma-asfmux-gstreamer.wma       WMA 2 from GStreamer's asfmux: 1 s mono at 22,050 Hz; its last
#                                  packet states its length without the padding after it, which
#                                  FFmpeg 5.1 refuses, dropping the packet (GStreamer's own
#                                  demuxer and decoder give 22,528 samples)
#
# Needs sox, ffmpeg (the AAC-LC core; libopus, libspeex), python3, gst-launch-1.0 with
# plugins-good (mp4mux, matroskamux, speexenc), -bad (mpegtsmux, voamrwbenc) and -ugly
# (twolamemp2enc, amrnbenc), mkvmerge (mkvtoolnix), lame, sndfile-convert (sndfile-programs) and
# wavpack; stops at the first missing one.
# Usage: Scripts/make-othertool-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/othertools
for tool in sox ffmpeg python3 gst-launch-1.0 flac oggenc mkvmerge opusenc lame sndfile-convert \
  wavpack; do
  command -v "$tool" >/dev/null || { echo "make-othertool-fixtures: $tool is missing" >&2; exit 1; }
done
for element in mp4mux matroskamux mpegtsmux twolamemp2enc aacparse amrnbenc voamrwbenc opusenc \
  wavenc aiffmux avimux avenc_ac3 ac3parse avmux_latm flvmux avenc_aac voaacenc avenc_wmav2 \
  asfmux vorbisenc webmmux speexenc; do
  gst-inspect-1.0 "$element" >/dev/null 2>&1 ||
    { echo "make-othertool-fixtures: GStreamer element $element is missing" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
gst() { timeout 60 gst-launch-1.0 -q "$@" >/dev/null; }

sox -R -q -n -r 22050 -c 2 -b 16 "$work/stereo.wav" synth 0.5 sine 440 sine 660
sox -R -q -n -r 22050 -c 1 -b 16 "$work/mono.wav" synth 0.5 sine 330
ffmpeg -v error -y -i "$work/stereo.wav" -c:a aac -b:a 24k "$work/stereo.aac"
ffmpeg -v error -y -i "$work/mono.wav" -c:a aac -b:a 16k "$work/mono.aac"
python3 Scripts/inject-implicit-sbr.py "$work/stereo.aac" "$out/he-aac-implicit.aac"
python3 Scripts/inject-implicit-sbr.py "$work/mono.aac" "$work/he-mono.aac"
gst filesrc location="$out/he-aac-implicit.aac" ! aacparse ! mp4mux \
  ! filesink location="$out/he-aac-implicit.mp4"
gst filesrc location="$out/he-aac-implicit.aac" ! aacparse ! matroskamux \
  ! filesink location="$out/he-aac-implicit.mka"
gst filesrc location="$out/he-aac-implicit.aac" ! aacparse ! avmux_latm \
  ! filesink location="$work/he-aac-implicit.loas"
python3 Scripts/make-loas-ts.py "$work/he-aac-implicit.loas" "$out/loas-he-aac.ts"
gst filesrc location="$work/he-mono.aac" ! aacparse ! mp4mux \
  ! filesink location="$out/he-aacv2-implicit-mono.mp4"
gst filesrc location="$work/stereo.aac" ! aacparse ! mp4mux \
  ! filesink location="$out/aac-lc-22k.mp4"
python3 Scripts/strip-aac-config.py "$out/he-aac-implicit.mp4" "$out/he-aac-no-config.mp4"

sox -R -q -n -r 48000 -c 2 -b 16 "$work/s48.wav" synth 0.5 sine 440 sine 660
gst filesrc location="$work/s48.wav" ! wavparse ! audioconvert ! twolamemp2enc bitrate=64 \
  ! mpegaudioparse ! mpegtsmux ! filesink location="$out/mp2-gstreamer.ts"
for kind in nb:amrnbenc:8000:'#!AMR\n' wb:voamrwbenc:16000:'#!AMR-WB\n'; do
  IFS=: read -r name encoder rate magic <<<"$kind"
  gst audiotestsrc num-buffers=10 samplesperbuffer=$((rate / 10)) ! audio/x-raw,rate=$rate,channels=1 \
    ! audioconvert ! "$encoder" ! filesink location="$work/$name.frames"
  { printf "$magic"; cat "$work/$name.frames"; } >"$out/amr-$name.amr"
done

gst filesrc location="$work/s48.wav" ! wavparse ! audioconvert ! opusenc ! mp4mux \
  ! filesink location="$out/opus-le-dops.mp4"

python3 - "$out/pcm-24in32.wav" <<'PY'
import struct, sys
frames = [(((i * 997) % 65536) - 32768) << 16 for i in range(800)]
data = b"".join(struct.pack("<i", value) for value in frames)
pcm = b"\x01\x00\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"
fmt = struct.pack("<HHIIHHHHI", 0xFFFE, 1, 8000, 32000, 4, 32, 22, 24, 0x4) + pcm
body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
body += b"data" + struct.pack("<I", len(data)) + data
open(sys.argv[1], "wb").write(b"RIFF" + struct.pack("<I", len(body)) + body)
PY
# Streamed WAVE: each writer sees a pipe and cannot go back to fill in the sizes. (GStreamer
# reports its failed seek at the end; the file is what a pipe gets.)
sox -R -q -n -r 8000 -c 1 -b 16 -t wav - synth 0.5 sine 440 2>/dev/null \
  | cat >"$out/wave-streamed-sox.wav"
{ timeout 60 gst-launch-1.0 -q audiotestsrc num-buffers=4 samplesperbuffer=800 \
  ! audio/x-raw,format=S16LE,rate=8000,channels=1 ! wavenc ! fdsink fd=1 2>/dev/null || true; } \
  | cat >"$out/wave-streamed-gst.wav"
sox -R -q -n -r 7999 -c 2 -b 16 -B "$out/wave-rifx-7999.wav" synth 0.25 sine 440 sine 660
sox -R -q -n -r 8000 -c 2 -b 24 -B "$out/wave-rifx-24bit.wav" synth 0.1 sine 440 sine 660
gst filesrc location="$work/mono.wav" ! wavparse ! audioconvert ! avenc_aac bitrate=32000 \
  ! aacparse ! flvmux streamable=true ! filesink location="$out/aac-streamable.flv"
sox -R -q -n -r 48000 -c 2 -b 16 "$work/ac3-src.wav" synth 0.5 sine 440 sine 660
sox -R -q -n -r 44100 -c 2 -b 16 "$work/link1.wav" synth 0.5 sine 440
sox -R -q -n -r 22050 -c 2 -b 16 "$work/link2.wav" synth 0.3 sine 660
oggenc --quiet -q 0 -o "$work/link1.ogg" "$work/link1.wav"
oggenc --quiet -q 0 -o "$work/link2.ogg" "$work/link2.wav"
cat "$work/link1.ogg" "$work/link2.ogg" >"$out/vorbis-chained.ogg"
sox -R -q -n -r 44100 -c 2 -b 16 "$work/stereo-link.wav" synth 0.3 sine 440 vol 0.5
sox -R -q -n -r 44100 -c 1 -b 16 "$work/mono-link.wav" synth 0.3 sine 440 vol 0.5
oggenc --quiet -q 2 -o "$work/stereo-link.ogg" "$work/stereo-link.wav"
oggenc --quiet -q 2 -o "$work/mono-link.ogg" "$work/mono-link.wav"
cat "$work/stereo-link.ogg" "$work/mono-link.ogg" >"$out/vorbis-chained-mono.ogg"
sox -R -q -n -r 8000 -c 1 -b 32 "$work/s32.wav" synth 0.1 sine 440
flac -s -f --no-padding "$work/s32.wav" -o "$out/flac-32bit.flac" 2>/dev/null
ffmpeg -v error -y -i "$work/ac3-src.wav" -c:a ac3 -b:a 96k -f vob "$out/ac3-ffmpeg.vob"
gst filesrc location="$work/ac3-src.wav" ! wavparse ! audioconvert ! avenc_ac3 bitrate=96000 \
  ! ac3parse ! avimux ! filesink location="$out/ac3-gstreamer.avi"
gst avimux name=m ! filesink location="$out/aac-mp3-gstreamer.avi" \
  audiotestsrc num-buffers=16 ! audio/x-raw,rate=48000,channels=1 ! voaacenc bitrate=16000 \
  ! aacparse ! m. \
  audiotestsrc num-buffers=10 samplesperbuffer=1152 ! audio/x-raw,rate=16000,channels=1 \
  ! lamemp3enc target=bitrate bitrate=16 ! mpegaudioparse ! m.

printf '%s\n' WEBVTT '' id1 '00:00.100 --> 00:01.000 align:start' 'A <b>bold</b>' line '' \
  '00:01.200 --> 00:01.900' '&amp; two' >"$work/cues.vtt"
mkvmerge -q --no-date --disable-track-statistics-tags -o "$out/webvtt-mkvmerge.mks" \
  --language 0:es "$work/cues.vtt"
mkvmerge -q --no-date --disable-track-statistics-tags -o "$out/webvtt-zlib-mkvmerge.mks" \
  --language 0:es --compression 0:zlib "$work/cues.vtt"
mkvmerge -q --no-date --disable-track-statistics-tags -o "$out/flac-32bit-mkvmerge.mka" \
  "$out/flac-32bit.flac"
# Default but disabled: players skip such a track (FlagEnabled 0), whatever its default flag.
sox -R -q -n -r 8000 -c 2 -b 16 "$work/dis-stereo.wav" synth 0.02 sine 440 sine 660
sox -R -q -n -r 8000 -c 1 -b 16 "$work/dis-mono.wav" synth 0.02 sine 440
printf '%s\n' 1 '00:00:00,000 --> 00:00:00,010' 'Text' >"$work/dis.srt"
mkvmerge -q --no-date --disable-track-statistics-tags -o "$out/disabled-default-mkvmerge.mka" \
  --language 0:en --default-track-flag 0:1 --track-enabled-flag 0:0 "$work/dis-stereo.wav" \
  --language 0:en --default-track-flag 0:0 "$work/dis-mono.wav" \
  --language 0:en --default-track-flag 0:1 --track-enabled-flag 0:0 "$work/dis.srt" \
  --language 0:en --default-track-flag 0:1 "$work/dis.srt"
gst audiotestsrc num-buffers=25 samplesperbuffer=960 ! audio/x-raw,rate=48000,channels=1 \
  ! audioconvert ! opusenc bitrate=16000 \
  ! matroskamux streamable=true min-cluster-duration=100000000 \
  ! filesink location="$out/opus-streamable.mka"

# Streamed AIFF: as the streamed WAVE above, each writer sees a pipe.
sox -R -q -n -r 8000 -c 1 -b 16 -t aiff - synth 0.25 sine 440 2>/dev/null \
  | cat >"$out/aiff-streamed-sox.aiff"
{ timeout 60 gst-launch-1.0 -q audiotestsrc num-buffers=4 samplesperbuffer=500 \
  ! audio/x-raw,format=S16BE,rate=8000,channels=1 ! aiffmux ! fdsink fd=1 2>/dev/null || true; } \
  | cat >"$out/aiff-streamed-gst.aiff"

# A chained Ogg Opus stream whose second link has more channels than the first.
sox -R -q -n -r 48000 -c 2 -b 16 "$work/two.wav" synth 0.5 sine 440 vol 0.3
sox -R -q -n -r 48000 -c 8 -b 16 "$work/eight.wav" synth 0.7 sine 330 vol 0.3
opusenc --quiet --bitrate 16 "$work/two.wav" "$work/two.opus"
# (FFmpeg 5.1 reads the second link at 256 kb/s and below, not at 384: its packets are larger
# than the first link's decoder takes. Below 128 kb/s opusenc mixes 8 channels down to two.)
opusenc --quiet --bitrate 384 "$work/eight.wav" "$work/eight.opus"
cat "$work/two.opus" "$work/eight.opus" >"$out/opus-chained-2to8.ogg"
# (Each opusenc run picks its own stream serial number, as the links of a chain need.)
sox -R -q -n -r 48000 -c 2 -b 16 "$work/again.wav" synth 0.4 sine 550 vol 0.3
opusenc --quiet --bitrate 16 "$work/again.wav" "$work/again.opus"
cat "$work/two.opus" "$work/eight.opus" "$work/again.opus" >"$out/opus-chained-2to8to2.ogg"

# FLAC whose encoder never learnt the length.
sox -R -q -n -r 8000 -c 1 -b 16 -t raw - synth 0.7 sine 440 vol 0.3 \
  | flac --silent --force-raw-format --endian=little --sign=signed --channels=1 --bps=16 \
    --sample-rate=8000 --blocksize=1152 -c - | cat >"$out/flac-no-total.flac"

# Variable-bit-rate raw streams without a length: quiet, then loud (sox's 32-bit default).
sox -q -n -r 22050 -c 1 "$work/quiet1.wav" synth 1 sine 440 vol 0.01
sox -q -n -r 22050 -c 1 "$work/loud1.wav" synth 1 whitenoise vol 0.5
sox "$work/quiet1.wav" "$work/loud1.wav" "$work/quiet-loud1.wav"
lame --quiet -V 4 -t "$work/quiet-loud1.wav" "$out/mp3-vbr-no-xing.mp3"
sox -q -n -r 44100 -c 2 "$work/quiet2.wav" synth 1.5 sine 440 vol 0.01
sox -q -n -r 44100 -c 2 "$work/loud2.wav" synth 0.5 whitenoise vol 0.5
sox "$work/quiet2.wav" "$work/loud2.wav" "$work/quiet-loud2.wav"
ffmpeg -v error -y -i "$work/quiet-loud2.wav" -c:a aac -q:a 2 "$out/aac-vbr.aac"

# MP3 in WAVE (MPEGLAYER3WAVEFORMAT) with a byte rate of 0: the header is written here.
sox -q -n -r 22050 -c 1 "$work/quiet3.wav" synth 0.5 sine 440 vol 0.01
sox -q -n -r 22050 -c 1 "$work/loud3.wav" synth 0.5 whitenoise vol 0.5
sox "$work/quiet3.wav" "$work/loud3.wav" "$work/quiet-loud3.wav"
lame --quiet -V 4 "$work/quiet-loud3.wav" "$work/quiet-loud3.mp3"
python3 - "$work/quiet-loud3.mp3" "$out/mp3-in-wave.wav" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
# wFormatTag 0x0055, mono, 22050 Hz, 0 bytes/s, block align 1, 0 bits; then wID 1 (MPEG),
# fdwFlags 2, nBlockSize 0, nFramesPerBlock 1, nCodecDelay 1393.
fmt = struct.pack("<HHIIHHH", 0x0055, 1, 22050, 0, 1, 0, 12)
fmt += struct.pack("<HIHHH", 1, 2, 0, 1, 1393)
body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
body += b"data" + struct.pack("<I", len(data)) + data + b"\0" * (len(data) & 1)
open(sys.argv[2], "wb").write(b"RIFF" + struct.pack("<I", len(body)) + body)
PY

# The same with a 70,000-byte LIST chunk (an INFO comment) between `fmt ` and `data`, as
# tagging tools write one: the `data` chunk starts past the first 64 KiB.
python3 - "$out/mp3-in-wave.wav" "$out/mp3-in-wave-list.wav" <<'PY'
import struct, sys
wave = open(sys.argv[1], "rb").read()
data = wave.index(b"data")
text = b"mtool fixture: a long comment. " * 2258 + b"\0\0"
info = b"INFO" + b"ICMT" + struct.pack("<I", len(text)) + text
chunk = b"LIST" + struct.pack("<I", len(info)) + info
body = wave[8:data] + chunk + wave[data:]
open(sys.argv[2], "wb").write(b"RIFF" + struct.pack("<I", len(body)) + body)
PY

# A single Opus stream whose pre-skip the decoder drops: 17,760 samples at 48 kHz.
sox -R -q -n -r 48000 -c 1 -b 16 "$work/m48.wav" synth 0.37 sine 440 vol 0.3
opusenc --quiet --bitrate 16 "$work/m48.wav" "$out/opus-preskip.opus"
mkvmerge -q --no-date --disable-track-statistics-tags -o "$out/opus-mkvmerge.mka" \
  "$out/opus-preskip.opus"

# AAC access units with nothing around them, and a WavPack correction file.
gst audiotestsrc num-buffers=8 samplesperbuffer=1000 ! audio/x-raw,rate=8000,channels=1 \
  ! voaacenc ! audio/mpeg,stream-format=raw ! filesink location="$out/aac-raw-frames.aac"
sox -R -q -n -r 8000 -c 1 -b 16 "$work/wv8.wav" synth 0.25 sine 440 vol 0.5
wavpack -q -y -b3.0c "$work/wv8.wav" -o "$out/wavpack-hybrid.wv"

# PCM in headers that state no length (libsndfile's PARIS and IRCAM writers).
sox -R -q -n -r 8000 -c 1 -b 16 "$work/m8.wav" synth 0.1 sine 440 vol 0.5
sndfile-convert -pcm16 "$work/m8.wav" "$out/sndfile-pcm.paf"
sndfile-convert -pcm16 "$work/m8.wav" "$out/sndfile-pcm.ircam"

# Encoder padding that only the container trims: 0.5 s (24,000 samples at 48 kHz, 22,050 at
# 44.1 kHz) in each, which the decoder gives whole frames of.
sox -R -q -n -r 48000 -c 1 -b 16 "$work/pad48.wav" synth 0.5 sine 440 vol 0.3
sox -R -q -n -r 44100 -c 1 -b 16 "$work/pad44.wav" synth 0.5 sine 440 vol 0.3
ffmpeg -v error -y -i "$work/pad48.wav" -c:a libopus -b:a 16k -map_metadata -1 \
  "$out/opus-ffmpeg.mp4"
ffmpeg -v error -y -i "$work/pad44.wav" -c:a aac -b:a 24k -map_metadata -1 \
  "$out/aac-ffmpeg.m4a"
ffmpeg -v error -y -i "$work/pad48.wav" -c:a libopus -b:a 16k -map_metadata -1 \
  -movflags frag_keyframe+empty_moov "$out/opus-ffmpeg-fragmented.mp4"
ffmpeg -v error -y -i "$work/pad48.wav" -c:a libopus -b:a 16k -map_metadata -1 \
  "$out/opus-ffmpeg.mka"
gst filesrc location="$work/pad48.wav" ! wavparse ! audioconvert ! opusenc bitrate=16000 \
  ! matroskamux ! filesink location="$out/opus-gstreamer.mka"
gst filesrc location="$work/pad48.wav" ! wavparse ! audioconvert ! voaacenc ! aacparse ! mp4mux \
  ! filesink location="$out/aac-gstreamer.mp4"
# Opus from input at 22,050 Hz in Matroska: 0.3 s (14,400 samples at 48 kHz).
sox -R -q -n -r 22050 -c 1 -b 16 "$work/low22.wav" synth 0.3 sine 440 vol 0.3
ffmpeg -v error -y -i "$work/low22.wav" -c:a libopus -b:a 16k -map_metadata -1 \
  "$out/opus-22k-ffmpeg.webm"
opusenc --quiet --bitrate 16 "$work/low22.wav" "$work/low22.opus"
mkvmerge -q --no-date --disable-track-statistics-tags -o "$out/opus-22k-mkvmerge.mka" \
  "$work/low22.opus"
# Vorbis whose audio is all on one page (oggenc): 0.5 s and 0.2 s at 44.1 kHz.
sox -R -q -n -r 44100 -c 2 -b 16 "$work/page05.wav" synth 0.5 sine 440 sine 660
sox -R -q -n -r 44100 -c 1 -b 16 "$work/page02.wav" synth 0.2 sine 440
oggenc --quiet -q 0 -o "$out/vorbis-one-page.ogg" "$work/page05.wav"
oggenc --quiet -q 0 -o "$out/vorbis-one-page-short.ogg" "$work/page02.wav"
# Vorbis in WebM, whose last packet nothing trims, and a live recording cut off.
sox -R -q -n -r 48000 -c 2 -b 16 "$work/v025s.wav" synth 0.25 sine 440 sine 660 vol 0.3
ffmpeg -v error -y -i "$work/v025s.wav" -c:a vorbis -strict -2 -q:a 0 -map_metadata -1 \
  -fflags +bitexact "$work/native.ogg"
mkvmerge -q --no-date --disable-track-statistics-tags -o "$out/vorbis-native-mkvmerge.webm" \
  --webm "$work/native.ogg"
sox -R -q -n -r 48000 -c 1 -b 16 "$work/v025.wav" synth 0.25 sine 440 vol 0.3
gst filesrc location="$work/v025.wav" ! wavparse ! audioconvert ! vorbisenc quality=0 \
  ! webmmux ! filesink location="$out/vorbis-gstreamer.webm"
gst audiotestsrc num-buffers=25 samplesperbuffer=960 ! audio/x-raw,rate=48000,channels=1 \
  ! audioconvert ! opusenc bitrate=16000 \
  ! webmmux streamable=true min-cluster-duration=100000000 \
  ! filesink location="$work/streamable.webm"
python3 - "$work/streamable.webm" "$out/opus-streamable-cut.webm" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
starts = [at for at in range(len(data)) if data.startswith(b"\x1f\x43\xb6\x75", at)]
first, second = starts[-2], starts[-1]
open(sys.argv[2], "wb").write(data[: first + (second - first) * 3 // 5])
PY

# Speex in FLV, whose frame length FFmpeg 5.1 leaves unset.
sox -R -q -n -r 16000 -c 1 -b 16 "$work/sp05.wav" synth 0.5 sine 440 vol 0.3
gst filesrc location="$work/sp05.wav" ! wavparse ! audioconvert ! speexenc ! flvmux \
  ! filesink location="$out/speex-gstreamer.flv"
ffmpeg -v error -y -i "$work/sp05.wav" -c:a libspeex -map_metadata -1 -fflags +bitexact -f flv \
  "$out/speex-ffmpeg.flv"
gst filesrc location="$work/sp05.wav" ! wavparse ! audioconvert ! speexenc nframes=2 ! flvmux \
  ! filesink location="$out/speex-2frames-gstreamer.flv"

# AC-3 in WAVE written to a pipe, and AMR-WB frames without a header.
sox -R -q -n -r 48000 -c 2 -b 16 "$work/ac3-02.wav" synth 0.2 sine 440 sine 660 vol 0.3
ffmpeg -v error -y -i "$work/ac3-02.wav" -c:a ac3 -b:a 96k -map_metadata -1 -fflags +bitexact \
  -f wav - | cat >"$out/ac3-ffmpeg-piped.wav"
gst audiotestsrc num-buffers=30 samplesperbuffer=1600 ! audio/x-raw,rate=16000,channels=1 \
  ! audioconvert ! voamrwbenc ! filesink location="$out/amr-wb-raw-gstreamer.amr"

# Six channels with no speaker positions: sox's EXTENSIBLE header, its channel mask zeroed.
sox -R -q -n -r 8000 -c 6 -b 16 "$work/six.wav" synth 0.02 sine 440
python3 - "$work/six.wav" "$out/wave-mask0-sox.wav" <<'PY'
import struct, sys
wave = bytearray(open(sys.argv[1], "rb").read())
fmt = wave.index(b"fmt ") + 8
assert struct.unpack_from("<HH", wave, fmt) == (0xFFFE, 6)
struct.pack_into("<I", wave, fmt + 20, 0)
open(sys.argv[2], "wb").write(wave)
PY
sox -R -q -n -r 8000 -c 1 -e ima-adpcm "$out/adpcm-ima-sox.wav" synth 0.3 sine 440
sox -R -q -n -r 8000 -c 1 -e ms-adpcm "$out/adpcm-ms-sox.wav" synth 0.3 sine 440
sox -R -q -n -r 48000 -c 2 -b 16 "$work/spdif-src.wav" synth 0.2 sine 440 sine 660 vol 0.5
ffmpeg -v error -y -i "$work/spdif-src.wav" -c:a ac3 -b:a 192k "$work/spdif.ac3"
ffmpeg -v error -y -i "$work/spdif.ac3" -c copy -f spdif "$work/spdif.raw"
sox -t raw -r 48000 -c 2 -e signed -b 16 "$work/spdif.raw" "$out/ac3-spdif-sox.wav"
sox -R -q -n -r 44100 -c 2 -b 16 "$work/free-src.wav" synth 0.2 sine 440 sine 660 vol 0.5
lame --quiet --freeformat -b 400 "$work/free-src.wav" "$out/mp3-lame-freeformat.mp3"
sox -R -q -n -r 48000 -c 1 -b 16 "$work/itunes.wav" synth 0.5 sine 440 vol 0.3
ffmpeg -v error -y -i "$work/itunes.wav" -c:a aac -b:a 24k -map_metadata -1 -use_editlist 0 \
  "$work/itunes.m4a"
python3 Scripts/add-itunes-gapless.py "$work/itunes.m4a" "$out/aac-itunes-gapless.m4a" 1024 576 \
  24000
sox -R -q -n -r 48000 -c 1 -b 16 "$work/damaged.wav" synth 2 sine 440 vol 0.3
ffmpeg -v error -y -i "$work/damaged.wav" -c:a aac -b:a 32k -map_metadata -1 \
  -bsf:a noise=amount=20 -fflags +bitexact "$out/aac-damaged-ffmpeg.mka"
sox -R -q -n -r 48000 -c 1 -b 16 "$work/fragments.wav" synth 1 sine 440 vol 0.3
ffmpeg -v error -y -i "$work/fragments.wav" -c:a aac -b:a 32k -map_metadata -1 -fflags +bitexact \
  -movflags frag_keyframe+empty_moov+default_base_moof+global_sidx -frag_duration 250000 \
  -f mp4 "$out/aac-fragmented-sidx-ffmpeg.m4a"
sox -R -q -n -r 48000 -c 1 -b 16 "$work/edits.wav" synth 0.5 sine 440 vol 0.3
ffmpeg -v error -y -i "$work/edits.wav" -c:a aac -b:a 24k -map_metadata -1 -fflags +bitexact \
  "$work/edits.m4a"
python3 Scripts/split-edit-list.py "$work/edits.m4a" "$out/aac-two-edits.m4a" 250
sox -R -q -n -r 48000 -c 1 -b 16 "$work/opus-ts.wav" synth 0.5 sine 440 vol 0.3
gst filesrc location="$work/opus-ts.wav" ! wavparse ! audioconvert ! opusenc bitrate=16000 \
  ! mpegtsmux ! filesink location="$out/opus-gstreamer.ts"
ffmpeg -v error -y -i "$work/opus-ts.wav" -c:a libopus -b:a 16k -map_metadata -1 -fflags +bitexact \
  "$out/opus-ffmpeg.ts"
gst audiotestsrc num-buffers=3 samplesperbuffer=2205 volume=0.3 \
  ! audio/x-raw,rate=11025,channels=1,format=S16LE ! flvmux \
  ! filesink location="$out/pcm-gstreamer.flv"
# WMA (version 2) in ASF from GStreamer's asfmux: 1 s mono at 22,050 Hz (50 buffers of 441
# samples). Its last, part-filled packet states the length of what it holds and the padding up
# to the packet size, which FFmpeg 5.1 refuses ("invalid padsize").
gst audiotestsrc num-buffers=50 samplesperbuffer=441 wave=sine freq=440 volume=0.3 \
  ! audio/x-raw,rate=22050,channels=1 ! audioconvert ! avenc_wmav2 bitrate=32000 ! asfmux \
  ! filesink location="$out/wma-asfmux-gstreamer.wma"

ls -l "$out"
