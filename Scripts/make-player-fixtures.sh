#!/usr/bin/env bash
# Regenerates the player fixtures in Tests/Fixtures/player with the ffmpeg CLI: a 12 s Matroska
# file with English and French mono AAC audio and three SRT subtitle streams, plus a side-loaded
# WebVTT file. The generated files are committed, so the tests do not need ffmpeg.
set -euo pipefail
cd "$(dirname "$0")/../Tests/Fixtures/player"
ff=(ffmpeg -hide_banner -loglevel error -y -nostdin)
bitexact=(-fflags +bitexact -flags:a +bitexact)

# Full English subtitles: five cues spread over the 12 s.
cat > en.srt <<'SRT'
1
00:00:01,000 --> 00:00:02,500
One.

2
00:00:03,000 --> 00:00:04,000
Two.

3
00:00:05,500 --> 00:00:07,500
Three,
on two lines.

4
00:00:08,000 --> 00:00:09,000
Four.

5
00:00:10,000 --> 00:00:11,000
Five.
SRT

# French forced subtitles (signs only): two cues.
cat > fr-forced.srt <<'SRT'
1
00:00:02,000 --> 00:00:03,000
PANNEAU : Sortie

2
00:00:09,500 --> 00:00:10,500
PANNEAU : Gare
SRT

# Full French subtitles.
cat > fr.srt <<'SRT'
1
00:00:01,000 --> 00:00:02,500
Un.

2
00:00:05,500 --> 00:00:07,500
Trois.
SRT

# The side-loaded file: four cues, one overlapping another.
cat > side.vtt <<'VTT'
WEBVTT

00:00:00.500 --> 00:00:01.500
Side one

00:00:02.000 --> 00:00:06.000
Side two

00:00:04.000 --> 00:00:05.000
Side three, overlapping

00:00:09.000 --> 00:00:11.500
Side four
VTT

# Two 12 s mono voices at 16 kHz (AAC, a low rate keeps stretching in debug-built tests quick), amplitude-modulated tones so that the stretcher has
# something to align: English (default) and French.
"${ff[@]}" \
  -f lavfi -i "sine=frequency=330:sample_rate=16000:duration=12" \
  -f lavfi -i "sine=frequency=247:sample_rate=16000:duration=12" \
  -i en.srt -i fr-forced.srt -i fr.srt \
  -filter_complex "[0:a]volume='0.4+0.3*sin(2*PI*3*t)':eval=frame[en];[1:a]volume='0.4+0.3*sin(2*PI*2*t)':eval=frame[fr]" \
  -map "[en]" -map "[fr]" -map 2:s -map 3:s -map 4:s \
  -c:a aac -b:a 16k -ac 1 -c:s subrip \
  -metadata:s:a:0 language=eng -metadata:s:a:1 language=fre \
  -metadata:s:s:0 language=eng -metadata:s:s:1 language=fre -metadata:s:s:2 language=fre \
  -disposition:a:0 default -disposition:a:1 0 \
  -disposition:s:0 0 -disposition:s:1 forced -disposition:s:2 0 \
  -avoid_negative_ts disabled "${bitexact[@]}" two-voices.mkv

# The English cues as MP4 mov_text and as Matroska ASS; the side-loaded cues as WebM WebVTT
# (subtitle-only files, for the in-media subtitle reader).
"${ff[@]}" -i en.srt -c:s mov_text -metadata:s:s:0 language=eng "${bitexact[@]}" en-movtext.mp4
"${ff[@]}" -i en.srt -c:s ass -metadata:s:s:0 language=eng "${bitexact[@]}" en-ass.mkv
"${ff[@]}" -i side.vtt -c:s webvtt "${bitexact[@]}" side-webvtt.webm

rm -f en.srt fr-forced.srt fr.srt
ls -l
