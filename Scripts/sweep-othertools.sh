#!/usr/bin/env bash
# A sweep over media written by tools other than FFmpeg (sox, lame, flac, oggenc, opusenc,
# wavpack, mkvmerge, GStreamer's muxers) and over hand-built headers: each file is probed with
# `mtool tracks --json` and stretched at speed 1, every call under a timeout, and its codec,
# rate, channels and duration are printed beside ffprobe's and beside the length of the audio
# `mtool stretch` decoded. Rows where the figures disagree, or a call crashed, hung or failed,
# are marked. Nothing here is committed: the files go to OUT (default .build/sweep).
#
# Usage: Scripts/sweep-othertools.sh [OUT]   (after `swift build --product mtool`)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-.build/sweep}
mtool=${MTOOL:-$root/.build/debug/mtool}
rm -rf "$out" && mkdir -p "$out/src" "$out/media"
src=$out/src
m=$out/media
have() { command -v "$1" >/dev/null; }
gst() { timeout 60 gst-launch-1.0 -q "$@" >/dev/null 2>&1 || echo "sweep: gst failed: $*" >&2; }

sox -q -n -r 44100 -c 2 -b 16 "$src/s44.wav" synth 2.0 sine 440 sine 660
sox -q -n -r 48000 -c 2 -b 16 "$src/s48.wav" synth 1.5 sine 440 sine 660
sox -q -n -r 22050 -c 1 -b 16 "$src/m22.wav" synth 1.2 sine 330
sox -q -n -r 8000 -c 1 -b 16 "$src/m8.wav" synth 1.0 sine 330
sox -q -n -r 48000 -c 6 -b 16 "$src/s51.wav" synth 1.0 sine 200 sine 300 sine 400 sine 500 \
  sine 60 sine 700

# sox: WAVE encodings, other containers.
for spec in u8:-e:unsigned-integer:-b:8 s24:-b:24 f32:-e:floating-point:-b:32 \
  f64:-e:floating-point:-b:64 ima:-e:ima-adpcm ms:-e:ms-adpcm alaw:-e:a-law ulaw:-e:u-law \
  gsm:-e:gsm-full-rate; do
  name=${spec%%:*}
  IFS=: read -r -a opts <<<"${spec#*:}"
  rate=44100
  [ "$name" = gsm ] && rate=8000
  sox -q "$src/m22.wav" -r $rate "${opts[@]}" "$m/sox-$name.wav" 2>/dev/null
done
sox -q "$src/s44.wav" "$m/sox.aiff"
sox -q "$src/s44.wav" -e floating-point "$m/sox.aifc" 2>/dev/null
sox -q "$src/s44.wav" "$m/sox.caf" 2>/dev/null
sox -q "$src/s44.wav" "$m/sox.au"
sox -q "$src/s44.wav" -B "$m/sox-rifx.wav"
sox -q "$src/s44.wav" -B -b 24 "$m/sox-rifx24.wav"
sox -q "$src/m8.wav" "$m/sox.amr-nb" 2>/dev/null || true
sox -q "$src/s44.wav" -r 5512 "$m/sox-5512.wav"
sox -q "$src/s44.wav" -r 96000 -b 24 "$m/sox-96k.wav"
sox -q "$src/s44.wav" -t wav - 2>/dev/null | cat >"$m/sox-pipe.wav"
sox -q "$src/s44.wav" -t w64 "$m/sox.w64"
sox -q "$src/s51.wav" "$m/sox-5.1.wav"

# Hand-built WAVE: trailing chunks, a chunk before fmt, RF64, odd-sized chunks, ID3 chunk.
python3 - "$m" <<'PY'
import math, struct, sys
out = sys.argv[1]
def pcm(frames, rate, channels):
    return b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * i / rate))) * channels
                    for i in range(frames))
def fmt(rate, channels):
    return b"fmt " + struct.pack("<IHHIIHH", 16, 1, channels, rate, rate * 2 * channels, 2 * channels, 16)
def chunk(tag, body):
    return tag + struct.pack("<I", len(body)) + body + (b"\0" if len(body) & 1 else b"")
def riff(chunks):
    body = b"WAVE" + b"".join(chunks)
    return b"RIFF" + struct.pack("<I", len(body)) + body
data = pcm(16000, 16000, 1)
info = chunk(b"LIST", b"INFOISFT" + struct.pack("<I", 6) + b"sweep\0")
open(f"{out}/hand-trailing-list.wav", "wb").write(riff([fmt(16000, 1), chunk(b"data", data), info]))
open(f"{out}/hand-list-first.wav", "wb").write(riff([info, fmt(16000, 1), chunk(b"data", data)]))
open(f"{out}/hand-id3-chunk.wav", "wb").write(
    riff([fmt(16000, 1), chunk(b"data", data), chunk(b"id3 ", b"ID3\x03\0\0\0\0\0\x05hello")]))
odd = pcm(8001, 8000, 1)[:-1]  # an odd data size: one byte short of a frame, then a pad byte
open(f"{out}/hand-odd-data.wav", "wb").write(riff([fmt(8000, 1), chunk(b"data", odd)]))
# RF64: ds64 states the sizes, RIFF and data sizes are 0xFFFFFFFF.
ds64 = chunk(b"ds64", struct.pack("<QQQI", 0, len(data), len(data) // 2, 0))
body = b"WAVE" + ds64 + fmt(16000, 1) + b"data" + struct.pack("<I", 0xFFFFFFFF) + data
open(f"{out}/hand-rf64.wav", "wb").write(b"RF64" + struct.pack("<I", 0xFFFFFFFF) + body)
# Streamed: sizes 0 and 0xFFFFFFFF.
for name, size in (("zero", 0), ("ffff", 0xFFFFFFFF)):
    body = b"WAVE" + fmt(16000, 1) + b"data" + struct.pack("<I", size) + data
    open(f"{out}/hand-streamed-{name}.wav", "wb").write(b"RIFF" + struct.pack("<I", size) + body)
PY

if have lame; then
  lame --quiet -b 128 "$src/s44.wav" "$m/lame-cbr.mp3"
  lame --quiet -V 4 "$src/s44.wav" "$m/lame-vbr-xing.mp3"
  lame --quiet -V 4 -t "$src/s44.wav" "$m/lame-vbr-noxing.mp3"
  lame --quiet -b 32 -m m --resample 8 "$src/m22.wav" "$m/lame-8k-mono.mp3"
  lame --quiet -b 64 --resample 22.05 --add-id3v2 --tt Title --ta Artist "$src/s44.wav" \
    "$m/lame-id3v2.mp3"
  lame --quiet -b 128 --id3v1-only --tt Title "$src/s44.wav" "$m/lame-id3v1.mp3"
  python3 - "$m/lame-cbr.mp3" "$m/lame-big-id3.mp3" <<'PY'
import sys
audio = open(sys.argv[1], "rb").read()
body = b"TIT2" + (1 + 20000).to_bytes(4, "big") + b"\0\0" + b"\0" + b"x" * 20000
size = len(body)
syncsafe = bytes([(size >> 21) & 0x7F, (size >> 14) & 0x7F, (size >> 7) & 0x7F, size & 0x7F])
open(sys.argv[2], "wb").write(b"ID3\x03\x00\x00" + syncsafe + body + audio)
PY
fi
if have flac; then
  flac -s -f -o "$m/flac.flac" "$src/s44.wav"
  flac -s -f --ogg -o "$m/flac.oga" "$src/s44.wav"
  flac -s -f -o "$m/flac-5.1.flac" "$src/s51.wav"
  sox -q "$src/s44.wav" -b 24 "$src/s44-24.wav" && flac -s -f -o "$m/flac-24.flac" "$src/s44-24.wav"
  python3 - "$m/flac.flac" "$m/flac-id3.flac" <<'PY'
import sys
audio = open(sys.argv[1], "rb").read()
body = b"TIT2" + (6).to_bytes(4, "big") + b"\0\0" + b"\0hello"
size = len(body)
open(sys.argv[2], "wb").write(b"ID3\x03\x00\x00" + bytes([0, 0, size >> 7, size & 0x7F]) + body + audio)
PY
fi
if have oggenc; then
  oggenc --quiet -q 1 -o "$m/oggenc.ogg" "$src/s44.wav"
  oggenc --quiet -q 1 -o "$src/second.ogg" "$src/m22.wav"
  cat "$m/oggenc.ogg" "$src/second.ogg" >"$m/oggenc-chained.ogg"
fi
if have opusenc; then
  opusenc --quiet "$src/s44.wav" "$m/opusenc.opus"
  opusenc --quiet "$src/m8.wav" "$m/opusenc-8k.opus"
  opusenc --quiet "$src/s51.wav" "$m/opusenc-5.1.opus"
fi
have wavpack && wavpack -q -y "$src/s44.wav" -o "$m/wavpack.wv" 2>/dev/null

if have gst-launch-1.0; then
  w44="filesrc location=$src/s44.wav ! wavparse ! audioconvert ! audioresample"
  gst $w44 ! avenc_aac ! aacparse ! audio/mpeg,stream-format=adts ! filesink location="$m/gst.aac"
  gst $w44 ! avenc_ac3 ! ac3parse ! filesink location="$m/gst.ac3"
  gst $w44 ! avenc_eac3 ! ac3parse ! filesink location="$m/gst.eac3"
  gst $w44 ! avenc_aac ! aacparse ! mp4mux ! filesink location="$m/gst-aac.m4a"
  gst $w44 ! avenc_aac ! aacparse ! mp4mux fragment-duration=500 ! filesink location="$m/gst-aac-frag.mp4"
  gst $w44 ! avenc_ac3 ! ac3parse ! mp4mux ! filesink location="$m/gst-ac3.mp4"
  gst $w44 ! opusenc ! mp4mux fragment-duration=500 ! filesink location="$m/gst-opus-frag.mp4"
  gst $w44 ! flacenc ! flacparse ! mp4mux ! filesink location="$m/gst-flac.mp4"
  gst $w44 ! avenc_aac ! aacparse ! matroskamux ! filesink location="$m/gst-aac.mka"
  gst $w44 ! avenc_ac3 ! ac3parse ! matroskamux ! filesink location="$m/gst-ac3.mka"
  gst $w44 ! opusenc ! webmmux ! filesink location="$m/gst-opus.webm"
  gst $w44 ! vorbisenc ! oggmux ! filesink location="$m/gst-vorbis.ogg"
  gst $w44 ! opusenc ! oggmux ! filesink location="$m/gst-opus.ogg"
  gst $w44 ! speexenc ! oggmux ! filesink location="$m/gst-speex.ogg"
  gst $w44 ! lamemp3enc ! mpegaudioparse ! flvmux ! filesink location="$m/gst-mp3.flv"
  gst $w44 ! avenc_aac ! aacparse ! flvmux ! filesink location="$m/gst-aac.flv"
  gst $w44 ! avenc_aac ! aacparse ! mpegtsmux ! filesink location="$m/gst-aac.ts"
  gst $w44 ! avenc_ac3 ! ac3parse ! mpegtsmux ! filesink location="$m/gst-ac3.ts"
  gst $w44 ! lamemp3enc ! mpegaudioparse ! mpegtsmux ! filesink location="$m/gst-mp3.ts"
  gst $w44 ! avenc_aac ! aacparse ! mpegpsmux ! filesink location="$m/gst-aac.mpg"
  gst $w44 ! lamemp3enc ! mpegaudioparse ! mpegpsmux ! filesink location="$m/gst-mp3.mpg"
  gst $w44 ! avenc_ac3 ! ac3parse ! avimux ! filesink location="$m/gst-ac3.avi"
  gst $w44 ! lamemp3enc ! mpegaudioparse ! avimux ! filesink location="$m/gst-mp3.avi"
  gst $w44 ! audioconvert ! avimux ! filesink location="$m/gst-pcm.avi"
  gst $w44 ! avenc_wmav2 ! asfmux ! filesink location="$m/gst-wma.wma"
  gst $w44 ! wavenc ! filesink location="$m/gst.wav"
  gst "filesrc location=$src/m8.wav" ! wavparse ! amrnbenc ! 3gppmux ! filesink location="$m/gst-amr.3gp"
  gst audiotestsrc num-buffers=50 samplesperbuffer=320 ! audio/x-raw,rate=16000,channels=1 \
    ! voamrwbenc ! 3gppmux ! filesink location="$m/gst-amrwb.3gp"
  gst $w44 ! avenc_aac ! aacparse ! 3gppmux ! filesink location="$m/gst-aac.3gp"
fi
if have mkvmerge; then
  for f in "$m/gst.aac" "$m/gst.ac3" "$m/lame-cbr.mp3" "$m/flac.flac" "$m/oggenc.ogg" \
    "$m/opusenc.opus" "$src/s44.wav"; do
    [ -f "$f" ] && mkvmerge -q -o "$m/mkvmerge-$(basename "$f" | tr . -).mka" "$f" >/dev/null 2>&1
  done
  [ -f "$m/opusenc.opus" ] && mkvmerge -q --webm -o "$m/mkvmerge-opus.webm" "$m/opusenc.opus" \
    >/dev/null 2>&1
fi
find "$m" -type f -size -40c -delete

# The table: ours, ffprobe's, decoded.
printf '%-32s %-10s %-10s %6s %3s %9s %9s %9s %s\n' file codec ffprobe rate ch ours ffprobe decoded note
for f in "$m"/*; do
  name=$(basename "$f")
  json=$(timeout 30 "$mtool" tracks --json "$f" 2>/dev/null)
  status=$?
  st=$(timeout 60 "$mtool" stretch "$f" "$out/o.wav" --speed 1 --json 2>"$out/err")
  sstatus=$?
  probe=$(ffprobe -v error -select_streams a:0 -show_entries stream=codec_name,duration \
    -show_entries format=duration -of json "$f" 2>/dev/null)
  python3 - "$name" "$status" "$sstatus" "$json" "$st" "$probe" "$(head -c 200 "$out/err")" <<'PY'
import json, sys
name, status, sstatus, ours, st, probe, err = sys.argv[1:]
note = []
def num(x):
    try: return float(x)
    except (TypeError, ValueError): return None
try:
    f = json.loads(ours)["files"][0]
    a = (f.get("audio") or [{}])[0]
except Exception:
    f, a = {}, {}
    note.append(f"tracks exit {status}")
try:
    p = json.loads(probe)
    ps = (p.get("streams") or [{}])[0]
    pd = num(ps.get("duration")) or num(p.get("format", {}).get("duration"))
    pc = ps.get("codec_name")
except Exception:
    pd, pc = None, None
try:
    s = json.loads(st)
    dec = num(s.get("input", {}).get("duration") if isinstance(s.get("input"), dict) else s.get("inputDuration"))
except Exception:
    dec = None
    note.append(f"stretch exit {sstatus}: {err.strip()[:90]}")
ours_d = num(a.get("duration"))
if status not in ("0",): note.append(f"tracks exit {status}")
if status in ("124", "137") or sstatus in ("124", "137"): note.append("HANG")
if int(status) > 128 or int(sstatus) > 128: note.append("CRASH")
if dec and ours_d is None: note.append("duration null")
if dec and ours_d and abs(ours_d - dec) > max(0.05, 0.01 * dec): note.append("DURATION")
def fmt(x): return "-" if x is None else f"{x:.3f}"
print(f"{name:32s} {str(a.get('codec'))[:10]:10s} {str(pc)[:10]:10s} {str(a.get('sampleRate')):>6s} "
      f"{str(a.get('channels')):>3s} {fmt(ours_d):>9s} {fmt(pd):>9s} {fmt(dec):>9s} {'; '.join(note)}")
PY
done
