#!/usr/bin/env bash
# Runs an AddressSanitizer build of mtool over the fixtures with LeakSanitizer on, and fails
# when any run reports a leak. Exit codes of the commands themselves are not checked here
# (several fixtures are bad on purpose); only the sanitizer's verdict is.
#
# usage: Scripts/leak-check.sh PATH/TO/mtool
set -uo pipefail
cd "$(dirname "$0")/.."
mtool=${1:?usage: Scripts/leak-check.sh PATH/TO/mtool}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export ASAN_OPTIONS=detect_leaks=1:exitcode=99
fx=Tests/Fixtures
runs=(
  "tracks $fx/*"
  "tracks --json --jobs 2 $fx/*"
  "tracks --jsonl $fx/master.m3u8 $fx/manifest.mpd"
  "cues --json --tree $fx/sample.vtt"
  "cues --json --tree $fx/sample.srt"
  "cues --to vtt -o $out/c.vtt $fx/sample.srt"
  "cues $fx/clip.wav"
  "stretch $fx/clip.wav $out/a.wav --speed 1.5"
  "stretch $fx/multitrack.mkv $out/b.ogg --speed 0.75 --track fr"
  "stretch $fx/clip.wav $out/c.m4a --speed-map 0:1,1:2"
  "stretch $fx/truncated.mp4 $out/d.wav --speed 2"
  "stretch $fx/video-only.mp4 $out/e.wav --speed 2"
)
failed=0
for run in "${runs[@]}"; do
  # shellcheck disable=SC2086
  $mtool $run > /dev/null 2> "$out/stderr"
  if [ $? -eq 99 ] || grep -q "LeakSanitizer" "$out/stderr"; then
    echo "leak-check: LEAK in 'mtool $run'"
    grep -A12 "LeakSanitizer" "$out/stderr" | head -30
    failed=1
  fi
done
if [ $failed -eq 0 ]; then echo "leak-check: ${#runs[@]} runs, no leaks"; fi
exit $failed
