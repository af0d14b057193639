#!/usr/bin/env bash
# Writes Tests/Fixtures/inmedia-text/: SRT, ASS and mov_text subtitle streams muxed by mkvmerge
# and FFmpeg from the sources committed beside them (cues.srt, styled.ass, tx3g.srt), which are
# the expected cues: `mtool cues` reads each stream as it reads its source file.
#
#   srt-mkvmerge.mks        cues.srt in Matroska (S_TEXT/UTF8) by mkvmerge: each block one
#                           cue's text, `{\an8}` and `<i>` included
#   srt-zlib-mkvmerge.mks   the same with mkvmerge's zlib compression (ContentEncoding)
#   ass-mkvmerge.mks        styled.ass in Matroska (S_TEXT/ASS) by mkvmerge: the script header
#                           (PlayResX/PlayResY 1920x1080, WrapStyle 2, the styles) is the
#                           track's CodecPrivate, each block `ReadOrder,Layer,Style,Name,
#                           MarginL,MarginR,MarginV,Effect,Text`
#   ass-ffmpeg.mks          the same by FFmpeg's Matroska muxer
#   tx3g-ffmpeg.mp4         tx3g.srt as mov_text (tx3g) by FFmpeg: each sample the text then a
#                           `styl` box of bold, italic and underline runs, offsets in
#                           characters (a two-byte `ß` and `é` before some)
#
# Needs mkvmerge (mkvtoolnix) and ffmpeg.
# Usage: Scripts/make-inmedia-text-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/inmedia-text
for tool in mkvmerge ffmpeg; do
  command -v "$tool" >/dev/null || { echo "make-inmedia-text-fixtures: $tool is missing" >&2; exit 1; }
done
mkdir -p "$out"

cat >"$out/cues.srt" <<'SRT'
1
00:00:01,000 --> 00:00:02,500
<i>Hello</i> world
second line

2
00:00:03,000 --> 00:00:04,000
{\an8}top

3
00:00:05,000 --> 00:00:06,000
{\an7}{\i1}left{\i0} <b>third</b>
SRT

cat >"$out/styled.ass" <<'ASS'
[Script Info]
ScriptType: v4.00+
PlayResX: 1920
PlayResY: 1080
WrapStyle: 2

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1
Style: Top,Arial,20,&H0000FFFF,&H000000FF,&H00000000,&H00000000,-1,-1,0,0,100,100,0,0,1,2,2,8,10,10,10,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,plain
Dialogue: 0,0:00:03.00,0:00:04.00,Top,,0,0,0,,top yellow bold italic
Dialogue: 0,0:00:05.00,0:00:06.00,Default,,0,0,0,,{\pos(960,540)}centre
Dialogue: 0,0:00:07.00,0:00:08.00,Default,,0,0,0,,soft\nbreak under WrapStyle 2
Dialogue: 0,0:00:09.00,0:00:10.00,Missing,,0,0,0,,{\u1}no such style{\u0}, commas, kept
ASS

cat >"$out/tx3g.srt" <<'SRT'
1
00:00:00,500 --> 00:00:01,500
<i>Große</i> and <b>bold</b> é <u>under</u>

2
00:00:02,000 --> 00:00:03,000
plain <b><i>both</i></b>
line two
SRT

mkv() { mkvmerge -q --no-date --disable-track-statistics-tags "$@"; }
mkv -o "$out/srt-mkvmerge.mks" "$out/cues.srt"
mkv -o "$out/srt-zlib-mkvmerge.mks" --compression 0:zlib "$out/cues.srt"
mkv -o "$out/ass-mkvmerge.mks" "$out/styled.ass"
ffmpeg -v error -y -fflags +bitexact -i "$out/styled.ass" -c:s copy -map_metadata -1 \
  -flags +bitexact -f matroska "$out/ass-ffmpeg.mks"
ffmpeg -v error -y -fflags +bitexact -i "$out/tx3g.srt" -c:s mov_text -map_metadata -1 \
  -flags +bitexact "$out/tx3g-ffmpeg.mp4"
ls -l "$out"
