#!/usr/bin/env bash
# Regenerates the small media and subtitle fixtures in Tests/Fixtures with the ffmpeg CLI.
# The generated files are committed, so tests and `make demo` do not need ffmpeg.
# Deterministic: fixed sources, bit-exact encoders, no timestamps in the container metadata.
set -euo pipefail
cd "$(dirname "$0")/../Tests/Fixtures"
ff=(ffmpeg -hide_banner -loglevel error -y -nostdin)
bitexact=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact)

# Subtitle source used as a subtitle stream inside media.
cat > sample.srt <<'SRT'
1
00:00:00,500 --> 00:00:01,500
Hello, <i>world</i>.

2
00:00:01,800 --> 00:00:02,900
{\an8}Second cue,
two lines.
SRT

cat > sample.vtt <<'VTT'
WEBVTT - sample

STYLE
::cue(.loud) { color: red }

REGION
id:top
width:40%
lines:3
regionanchor:0%,100%
viewportanchor:10%,90%
scroll:up

NOTE a comment

intro
00:00:00.500 --> 00:00:01.500 align:start position:10%
Hello, <c.loud>world</c> &amp; <v Roger>friends</v>.

00:00:01.800 --> 00:00:02.900 region:top line:0
Second cue
two lines.
VTT

# 2 s of stereo audio at 22.05 kHz: a 440 Hz tone with a 220 Hz tone beneath.
"${ff[@]}" -f lavfi -i "sine=frequency=440:sample_rate=22050:duration=2" \
  -f lavfi -i "sine=frequency=220:sample_rate=22050:duration=2" \
  -filter_complex "[0:a][1:a]amerge=inputs=2,volume=0.5[a]" -map "[a]" \
  "${bitexact[@]}" -c:a pcm_s16le clip.wav

# Multi-track Matroska: English stereo (default), French 5.1, an English commentary,
# and two subtitle tracks (English, French forced).
"${ff[@]}" -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=2" \
  -f lavfi -i "sine=frequency=330:sample_rate=48000:duration=2" \
  -f lavfi -i "sine=frequency=550:sample_rate=48000:duration=2" \
  -i sample.srt -i sample.srt \
  -filter_complex "[0:a]pan=stereo|c0=c0|c1=c0[en];[1:a]pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0[fr];[2:a]pan=stereo|c0=c0|c1=c0[com]" \
  -map "[en]" -map "[fr]" -map "[com]" -map 3:s -map 4:s \
  -c:a libopus -b:a 32k -c:s subrip \
  -metadata:s:a:0 language=eng -metadata:s:a:0 title="" \
  -metadata:s:a:1 language=fre \
  -metadata:s:a:2 language=eng -metadata:s:a:2 title="Director's Commentary" \
  -metadata:s:s:0 language=eng -metadata:s:s:1 language=fre \
  -disposition:a:0 default -disposition:a:1 0 -disposition:a:2 comment \
  -disposition:s:0 0 -disposition:s:1 forced \
  "${bitexact[@]}" multitrack.mkv

# One short source tone used by the small per-container fixtures below.
tone=(-f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.5")
tone48=(-f lavfi -i "sine=frequency=440:sample_rate=48000:duration=0.5")

# MP4: AAC audio (English, default) and a mov_text subtitle (Spanish).
"${ff[@]}" "${tone[@]}" -i sample.srt -map 0:a -map 1:s -c:a aac -b:a 16k -c:s mov_text \
  -metadata:s:a:0 language=eng -metadata:s:s:0 language=spa -t 0.5 "${bitexact[@]}" aac-movtext.mp4

# WebM: Opus audio (German) and a WebVTT subtitle (German).
"${ff[@]}" "${tone48[@]}" -i sample.vtt -map 0:a -map 1:s -c:a libopus -b:a 12k -c:s webvtt \
  -metadata:s:a:0 language=ger -metadata:s:s:0 language=ger "${bitexact[@]}" opus-vtt.webm

# Ogg: Vorbis audio (Italian).
"${ff[@]}" -f lavfi -i "sine=frequency=440:sample_rate=22050:duration=0.5" -c:a libvorbis -q:a 0 \
  -metadata:s:a:0 language=ita "${bitexact[@]}" vorbis.ogg

# MPEG-TS: MP2 (Polish) and AAC (English) audio; the headers alone do not give full facts.
"${ff[@]}" "${tone[@]}" -f lavfi -i "sine=frequency=660:sample_rate=8000:duration=0.5" \
  -map 0:a -map 1:a -c:a:0 mp2 -b:a:0 32k -ar:a:0 16000 -c:a:1 aac -b:a:1 16k \
  -metadata:s:a:0 language=pol -metadata:s:a:1 language=eng "${bitexact[@]}" mp2-aac.ts

# MPEG-TS: stereo MP2 (English) first, 5.1 AC-3 (French) second, no default flag: which is the
# default depends on channel counts, which only the stream facts (not the TS headers) tell.
"${ff[@]}" -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=0.3" \
  -f lavfi -i "sine=frequency=550:sample_rate=48000:duration=0.3" \
  -filter_complex "[0:a]pan=stereo|c0=c0|c1=c0[s];[1:a]pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0[m]" \
  -map "[s]" -map "[m]" -c:a:0 mp2 -b:a:0 64k -c:a:1 ac3 -b:a:1 192k \
  -metadata:s:a:0 language=eng -metadata:s:a:1 language=fre "${bitexact[@]}" \
  stereo-surround.ts

# MPEG-TS with a timestamp jump: two 0.3 s AAC pieces 100 s apart, complete though its
# duration from the last timestamps is about 100 s.
jump=$(mktemp -d)
"${ff[@]}" -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=0.3" -c:a aac -b:a 16k \
  "${bitexact[@]}" "$jump/a.ts"
"${ff[@]}" -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=0.3" -c:a aac -b:a 16k \
  -output_ts_offset 100 "${bitexact[@]}" "$jump/b.ts"
cat "$jump/a.ts" "$jump/b.ts" > timestamp-jump.ts
rm -rf "$jump"

# Raw streams: FLAC, ADTS AAC and (when this FFmpeg has an MP3 encoder) MP3.
"${ff[@]}" "${tone[@]}" -c:a flac "${bitexact[@]}" tone.flac
"${ff[@]}" "${tone[@]}" -c:a aac -b:a 16k "${bitexact[@]}" tone.aac
if ffmpeg -hide_banner -encoders 2>/dev/null | grep libmp3lame >/dev/null; then
  "${ff[@]}" "${tone[@]}" -c:a libmp3lame -b:a 8k "${bitexact[@]}" tone.mp3
fi

# Accessibility in Matroska: English main (default), English audio description, English
# captions (hearing impaired) and English subtitles.
"${ff[@]}" "${tone48[@]}" -f lavfi -i "sine=frequency=550:sample_rate=48000:duration=0.5" \
  -i sample.srt -i sample.srt -map 0:a -map 1:a -map 2:s -map 3:s \
  -c:a libopus -b:a 12k -c:s subrip \
  -metadata:s:a:0 language=eng -metadata:s:a:1 language=eng \
  -metadata:s:s:0 language=eng -metadata:s:s:1 language=eng \
  -disposition:a:0 default -disposition:a:1 visual_impaired \
  -disposition:s:0 hearing_impaired -disposition:s:1 0 "${bitexact[@]}" accessibility.mkv

# Video only: five 16x16 frames, no audio.
"${ff[@]}" -f lavfi -i "color=c=gray:s=16x16:r=10:d=0.5" -c:v mpeg4 -q:v 31 "${bitexact[@]}" \
  video-only.mp4

# A file with a subtitle track and no audio.
"${ff[@]}" -i sample.srt -c:s subrip -metadata:s:s:0 language=eng "${bitexact[@]}" \
  subtitles-only.mkv

# Truncated copies: a WAVE cut inside its header, an MP4 (index first) cut inside its media data.
head -c 30 clip.wav > truncated-header.wav
full=$(mktemp --suffix=.mp4)
"${ff[@]}" -i clip.wav -ac 1 -c:a aac -b:a 16k -movflags +faststart "${bitexact[@]}" "$full"
head -c 2500 "$full" > truncated.mp4
# 48 kHz AAC, whose headers need no stream-info pass: 10 s cut to its first 3 s or so.
"${ff[@]}" -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=10" -c:a aac -b:a 16k \
  -movflags +faststart "${bitexact[@]}" "$full"
head -c 7000 "$full" > truncated-48k.m4a
rm -f "$full"

# AAC LD from FFmpeg's encoder, whose configuration (epConfig 1) FFmpeg 5.1's decoder does not
# implement: listed, not decodable.
"${ff[@]}" -f lavfi -i "sine=frequency=440:sample_rate=16000:duration=0.2" -c:a aac \
  -profile:a aac_ld -b:a 24k "${bitexact[@]}" aac-ld.m4a

ls -l
