#!/usr/bin/env bash
# Writes the VLC-made files of Tests/Fixtures/othertools/: tiny files from VLC 3's own muxers
# (its `std` stream output with mux=ogg, avi, asf, mp4), which are not FFmpeg's, each showing a
# way VLC's headers differ from what the file holds:
#
#   vlc-opus.ogg        0.5 s of mono Opus: VLC ends the stream with an end-of-stream page
#                       holding one empty packet, which FFmpeg 5.1's Ogg Opus reader rejects
#                       ("Invalid data found when processing input") after the last audio
#   vlc-mp2.avi         0.5 s of mono MPEG-1 Layer II at 32000 Hz, 64 kb/s: its stream header
#                       counts bytes (sample size 1) but states the count of chunks as its
#                       length (about 0.002 s), and a rate measured while muxing
#   vlc-aac.asf         2.5 s of mono AAC at 16000 Hz: the file header's play duration leaves
#                       out the 2 s preroll the timestamps carry, so FFmpeg 5.1, which takes the
#                       preroll off, states 0.5 s
#   vlc-pcm.asf         0.5 s of mono 16-bit PCM at 8000 Hz in ASF: a play duration below the
#                       preroll (FFmpeg states none), and packets padded to 4,096 bytes
#   vlc-ac3-5.1.mp4     0.2 s of 5.1 AC-3 at 48000 Hz: its dac3 box is wrong (it reads as
#                       acmod 0, two channels, at 44.1 kHz); the sample entry and the frames say
#                       six channels at 48 kHz
#   vlc-lpcm.ps         0.1 s of mono 16-bit DVD LPCM at 32000 Hz in MPEG-PS (private stream 1,
#                       substream 0xA0): VLC's program stream map names the stream AC-3 (stream
#                       type 0x81), so FFmpeg 5.1 lists it as AC-3 with no rate; the substream
#                       id and the LPCM header say LPCM at 32 kHz, mono
#   vlc-lpcm.ts         0.2 s of mono 16-bit DVD LPCM at 32000 Hz in MPEG-TS (of 0.3 s given:
#                       VLC's TS muxer holds back the end): stream type 0x83 in private
#                       stream 1, each PES payload DVD LPCM's without the substream id; FFmpeg
#                       5.1 names no codec for it (0x83 is TrueHD only on Blu-ray), and
#                       probing the payloads takes it for MP3
#   vlc-lpcm-44k.ts     the same at 44100 Hz, which FFmpeg 5.1 lists as a stream of unknown
#                       type with no codec (no audio track at all)
#   vlc-vorbis-two.ogg  two mono Vorbis streams at 22050 Hz (with a Skeleton stream), from a
#                       Matroska file (mkvmerge) whose second PCM track starts 0.1 s in: VLC
#                       starts the second stream at granule 2076 (0.094 s), and its Skeleton
#                       bone states a start of 0, so FFmpeg 5.1 states it from 0 to its last
#                       granule, 11164 (0.506 s), for 8,832 samples (0.401 s) decoded
#
# Needs sox, mkvmerge and VLC 3 (cvlc, from vlc-bin and vlc-plugin-base). VLC refuses to run as root:
# as root, it runs as `nobody`, writing into a temporary directory it may write to.
# Usage: Scripts/make-vlc-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=$PWD/Tests/Fixtures/othertools
for tool in sox mkvmerge cvlc; do
  command -v "$tool" >/dev/null || { echo "make-vlc-fixtures: $tool is missing" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 777 "$work"
mkdir -p "$out"
as_user=()
[ "$(id -u)" = 0 ] && as_user=(runuser -u nobody --)

# vlc NAME SOURCE TRANSCODE MUX [OPTION...]: transcodes SOURCE (in $work) into $out/NAME with
# VLC's muxer, with VLC's OPTIONs.
vlc() {
  local name=$1 source=$2 transcode=$3 mux=$4
  shift 4
  timeout 60 "${as_user[@]}" env HOME="$work" cvlc -q --no-sout-video "$@" "$work/$source" \
    --sout "#transcode{$transcode}:std{access=file,mux=$mux,dst=$work/out-$name}" vlc://quit \
    >/dev/null 2>&1 || true
  [ -s "$work/out-$name" ] || { echo "make-vlc-fixtures: VLC wrote no $name" >&2; exit 1; }
  cp "$work/out-$name" "$out/$name"
}

sox -R -q -n -r 48000 -c 1 -b 16 "$work/m48.wav" synth 0.5 sine 440 vol 0.5
sox -R -q -n -r 32000 -c 1 -b 16 "$work/m32.wav" synth 0.5 sine 440 vol 0.5
sox -R -q -n -r 16000 -c 1 -b 16 "$work/m16.wav" synth 2.5 sine 440 vol 0.5
sox -R -q -n -r 8000 -c 1 -b 16 "$work/m8.wav" synth 0.5 sine 440 vol 0.5
sox -R -q -n -r 32000 -c 1 -b 16 "$work/m32s.wav" synth 0.1 sine 440 vol 0.5
sox -R -q -n -r 48000 -c 6 -b 16 "$work/s51.wav" synth 0.2 sine 200 sine 300 sine 400 \
  sine 500 sine 60 sine 700 vol 0.5
sox -R -q -n -r 32000 -c 1 -b 16 "$work/m32t.wav" synth 0.3 sine 440 vol 0.5
sox -R -q -n -r 44100 -c 1 -b 16 "$work/m44t.wav" synth 0.3 sine 440 vol 0.5
sox -R -q -n -r 22050 -c 1 -b 16 "$work/a22.wav" synth 0.6 sine 440 vol 0.5
sox -R -q -n -r 22050 -c 1 -b 16 "$work/b22.wav" synth 0.5 sine 660 vol 0.5
mkvmerge -q -o "$work/two.mka" "$work/a22.wav" --sync 0:100 "$work/b22.wav"
chmod 644 "$work"/*.wav "$work"/*.mka

vlc vlc-opus.ogg m48.wav acodec=opus,ab=16,channels=1,samplerate=48000 ogg
vlc vlc-mp2.avi m32.wav acodec=mpga,ab=64,channels=1,samplerate=32000 avi
vlc vlc-aac.asf m16.wav acodec=mp4a,ab=16,channels=1,samplerate=16000 asf
vlc vlc-pcm.asf m8.wav acodec=s16l,channels=1,samplerate=8000 asf
vlc vlc-ac3-5.1.mp4 s51.wav acodec=a52,ab=192,channels=6,samplerate=48000 mp4
vlc vlc-lpcm.ps m32s.wav acodec=lpcm,channels=1,samplerate=32000 ps
vlc vlc-lpcm.ts m32t.wav acodec=lpcm,channels=1,samplerate=32000 ts
vlc vlc-lpcm-44k.ts m44t.wav acodec=lpcm,channels=1,samplerate=44100 ts
# (Every track transcoded; no Skeleton index, which VLC otherwise reserves 46 KB a stream for.)
vlc vlc-vorbis-two.ogg two.mka acodec=vorb,channels=1,samplerate=22050 ogg --sout-all \
  --sout-ogg-indexintvl=0 --sout-vorbis-quality=1
ls -l "$out"/vlc-*
