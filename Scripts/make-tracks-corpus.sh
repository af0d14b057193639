#!/usr/bin/env bash
# Builds the TracksBench corpus: 1,000 small media files of mixed containers in
# Benchmarks/corpus/tracks/, made by remuxing a few generated sources with varied stream
# metadata (languages, titles, dispositions) and copying the results. Deterministic: fixed
# sources, bit-exact muxing, metadata chosen by file number. Skips the work when the corpus
# is already complete.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Benchmarks/corpus/tracks
count=1000
if [ -f "$out/.complete" ] && [ "$(find "$out" -maxdepth 1 -type f ! -name '.*' | wc -l)" -eq "$count" ]; then
  echo "corpus: $out already has $count files"
  exit 0
fi
rm -rf "$out"
mkdir -p "$out/.src"
src="$out/.src"
ff=(ffmpeg -hide_banner -loglevel error -y -nostdin)
bitexact=(-fflags +bitexact -flags:a +bitexact -flags:v +bitexact)
a48=(-f lavfi -i "sine=frequency=440:sample_rate=48000:duration=1")
a22=(-f lavfi -i "sine=frequency=330:sample_rate=22050:duration=1")
a8=(-f lavfi -i "sine=frequency=550:sample_rate=8000:duration=1")

cat > "$src/sub.srt" <<'SRT'
1
00:00:00,100 --> 00:00:00,900
Hello.
SRT

# Sources: one per container, each a second long at low rates.
"${ff[@]}" "${a48[@]}" "${a48[@]}" -i "$src/sub.srt" \
  -filter_complex "[1:a]pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0[s]" \
  -map 0:a -map "[s]" -map 2:s -c:a libopus -b:a 16k -c:s subrip "${bitexact[@]}" "$src/opus.mkv"
"${ff[@]}" "${a48[@]}" -i "$src/sub.srt" \
  -filter_complex "[0:a]pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0[s]" \
  -map "[s]" -map 0:a -map 1:s -c:a:0 ac3 -b:a:0 96k -c:a:1 flac -c:s ass "${bitexact[@]}" \
  "$src/ac3-flac.mkv"
"${ff[@]}" "${a22[@]}" "${a8[@]}" -i "$src/sub.srt" -map 0:a -map 1:a -map 2:s \
  -c:a aac -b:a 24k -c:s mov_text "${bitexact[@]}" "$src/aac.mp4"
"${ff[@]}" "${a48[@]}" -i "$src/sub.srt" -map 0:a -map 1:s -c:a libopus -b:a 12k -c:s webvtt \
  "${bitexact[@]}" "$src/opus.webm"
"${ff[@]}" "${a22[@]}" -c:a libvorbis -q:a 0 "${bitexact[@]}" "$src/vorbis.ogg"
"${ff[@]}" "${a48[@]}" -c:a libopus -b:a 12k "${bitexact[@]}" "$src/opus.ogg"
"${ff[@]}" "${a22[@]}" "${a8[@]}" -map 0:a -map 1:a -c:a:0 mp2 -b:a:0 64k -c:a:1 aac -b:a:1 16k \
  "${bitexact[@]}" "$src/mp2-aac.ts"
"${ff[@]}" "${a8[@]}" -c:a flac "${bitexact[@]}" "$src/tone.flac"
"${ff[@]}" "${a8[@]}" -c:a pcm_s16le "${bitexact[@]}" "$src/tone.wav"
"${ff[@]}" "${a22[@]}" -c:a aac -b:a 24k "${bitexact[@]}" "$src/tone.m4a"
if ffmpeg -hide_banner -encoders 2>/dev/null | grep libmp3lame >/dev/null; then
  "${ff[@]}" "${a22[@]}" -c:a libmp3lame -b:a 16k "${bitexact[@]}" "$src/tone.mp3"
else
  cp "$src/tone.flac" "$src/tone.mp3.flac"
fi

langs=(eng fre ger spa ita jpn por rus chi kor dut swe pol fra deu und hin ara tur fin)
titles=("" "Main" "Director's Commentary" "Audio Description" "Stereo" "Surround")
dispositions=(default 0 comment visual_impaired dub original)
sources=()
for f in "$src"/*; do
  case "$f" in *.srt) ;; *) sources+=("$f") ;; esac
done

# 250 remuxed variants with varied metadata, each copied to 4 files.
variants=$((count / 4))
for ((i = 0; i < variants; i++)); do
  s=${sources[$((i % ${#sources[@]}))]}
  ext=${s##*.}
  base=$(printf "%04d" "$i")
  l0=${langs[$((i % ${#langs[@]}))]}
  l1=${langs[$(((i * 7 + 3) % ${#langs[@]}))]}
  t=${titles[$((i % ${#titles[@]}))]}
  d=${dispositions[$(((i / 3) % ${#dispositions[@]}))]}
  meta=(-metadata:s:a:0 "language=$l0" -metadata:s:a:1 "language=$l1" -metadata:s:s:0 "language=$l1")
  [ -n "$t" ] && meta+=(-metadata:s:a:1 "title=$t")
  case "$ext" in
    mkv) meta+=(-disposition:a:0 default -disposition:a:1 "$d" -disposition:s:0 "$( ((i % 2)) && echo forced || echo hearing_impaired)") ;;
    flac | wav | mp3 | ogg) meta=() ;;
  esac
  "${ff[@]}" -i "$s" -map 0 -c copy "${meta[@]}" "${bitexact[@]}" "$out/v$base-0.$ext"
  for k in 1 2 3; do cp "$out/v$base-0.$ext" "$out/v$base-$k.$ext"; done
done
rm -rf "$src"
touch "$out/.complete"
echo "corpus: $(find "$out" -maxdepth 1 -type f ! -name '.*' | wc -l) files, $(du -sh "$out" | cut -f1)"
