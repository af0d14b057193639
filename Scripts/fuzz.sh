#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/<Name>/main.swift) with AddressSanitizer and runs each for
# a bounded time, seeded from the committed fixtures. Exits non-zero on the first crash; the
# crashing input is kept in .build-fuzz/crashes/<Name>/ and should become a regression test.
#
# usage: Scripts/fuzz.sh [SECONDS_PER_TARGET|short] [TARGET...]
#
# `short` (what CI runs) is a fixed number of runs per target from a fixed seed, so the same
# commit explores the same inputs every time: a green run stays green, a crash is reproducible.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true

# Runs per target in `short` mode: about 30 s each on one core of the CI machine, with the
# coverage-instrumented build (measured: WebVTT 930 runs/s, SRT 2,500, CueText 8,300,
# Incremental 470, RoundTrip 1,200, Manifest 500, Probe 245; Stretch 10, with its speed-map
# mode and scheduled changes: 700 runs took 67 s of CPU).
short_runs() {
  case $1 in
    WebVTT) echo 28000 ;;
    SRT) echo 75000 ;;
    CueText) echo 250000 ;;
    Incremental) echo 14000 ;;
    RoundTrip) echo 35000 ;;
    Manifest) echo 15000 ;;
    Stretch) echo 350 ;;
    Probe) echo 7500 ;;
    SSA) echo 35000 ;;
    TTML) echo 35000 ;;
    MP4Text) echo 35000 ;;
    *) echo 5000 ;;
  esac
}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(WebVTT SRT CueText Incremental RoundTrip Manifest Stretch Probe SSA TTML MP4Text)
fi
scratch=.build-fuzz
export MTOOL_FUZZ=1

# Per-input limits: an input that runs longer, or a process that holds or asks for more memory,
# is a finding (libFuzzer writes it to crashes/ as timeout-* or oom-*, and the run fails).
# - timeout: 10 s for one input. The slowest legitimate inputs take about 1 s with the
#   ASan+coverage build on the 2-core CI machine under load (Stretch bounds its input to 2^15
#   samples, 1.3 s at 0.1x with 8 channels and a load of 4; the subtitle targets parse 64 KiB
#   in well under 1 s), so anything ten times slower is a hang or a quadratic path. libFuzzer
#   checks every timeout/2 + 1 s, so an input is caught once it has run 10 to 16 s.
# - rss_limit_mb: 2048 for the process. AddressSanitizer keeps up to 256 MB of freed blocks in
#   quarantine and adds shadow memory to what the targets use: one Stretch input at its bound
#   takes 180 MB, and a whole short Stretch run peaks at 470 MB, far from 2 GB.
# - malloc_limit_mb: 512 for one allocation: no target asks for more than a few MB at once for
#   a 64 KiB input, so a single huge request (a size read from the input, an overflowed count)
#   fails at once instead of when the process's memory is next sampled.
resource_limits=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512)

seed() {
  local name=$1 dir=$2
  mkdir -p "$dir"
  case $name in
    WebVTT | Incremental | CueText)
      cp Tests/Fixtures/wpt-webvtt/inputs/file-parsing/*.vtt Tests/Fixtures/*.vtt "$dir"/ ;;
    SRT | RoundTrip)
      cp Tests/Fixtures/*.srt Tests/Fixtures/*.vtt "$dir"/
      if [ -d Tests/Fixtures/subtitles ]; then cp Tests/Fixtures/subtitles/* "$dir"/; fi
      if [ "$name" = RoundTrip ]; then cp Tests/Fixtures/ass/* "$dir"/; fi ;;
    Manifest) cp Tests/Fixtures/*.m3u8 Tests/Fixtures/*.mpd "$dir"/ ;;
    SSA) cp Tests/Fixtures/ass/* "$dir"/ ;;
    TTML) find Tests/Fixtures/imsc-tests -name '*.ttml' -exec cp {} "$dir"/ \; ;;
    MP4Text)
      # The samples of the MP4 fixtures' text tracks (their mdat boxes), joined by 0xFF.
      python3 - "$dir" Tests/Fixtures/mp4-text/*.mp4 <<'PY'
import struct, sys
for path in sys.argv[2:]:
    data, at, samples = open(path, "rb").read(), 0, []
    while at + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        if size < 8: break
        if kind == b"mdat": samples.append(data[at + 8:at + size])
        at += size
    name = path.rsplit("/", 1)[-1]
    open(f"{sys.argv[1]}/{name}.samples", "wb").write(b"\xff".join(samples))
PY
      ;;
    Probe)
      for f in Tests/Fixtures/*; do
        # Small media files only: the fuzzer mutates them in memory.
        if [ -f "$f" ] && [ "$(stat -c %s "$f")" -lt 65536 ]; then cp "$f" "$dir"/; fi
      done ;;
    Stretch)
      printf '\x03\x01\x40\x10\x20\x30\xf0\x55' > "$dir/seed"
      # Speed-map mode (bit 7 of byte 1): changes a few frames apart, checked against the map.
      printf '\x04\x81\x30\xc8\x10\xc4\xf0\x40\xc1\x80\xdf\x05\x60\xc2\x33\x70' > "$dir/seed-map" ;;
  esac
}

status=0
for name in "${targets[@]}"; do
  # swiftc keeps only the last `-sanitize=` it is given, so SwiftPM's two flags would build
  # with AddressSanitizer alone (no coverage, so libFuzzer mutates blind); the combined flag
  # after them instruments for both.
  swift build --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address \
    --scratch-path "$scratch" --product "Fuzz$name" 2>&1 | grep -E "error|warning: var|Compiling|Build of" | tail -1
  corpus=$scratch/corpus/$name
  crashes=$scratch/crashes/$name
  mkdir -p "$crashes"
  [ -d "$corpus" ] || seed "$name" "$corpus"
  if [ "$seconds" = short ]; then
    # A fresh corpus from the fixtures, so the run depends on the commit alone.
    rm -rf "$corpus"
    seed "$name" "$corpus"
    limits=(-seed=1 -runs="$(short_runs "$name")")
    echo "fuzz $name: ${limits[*]}"
  else
    limits=(-max_total_time="$seconds")
    echo "fuzz $name: ${seconds}s"
  fi
  # The Swift runtime's backtracer reads the stack in a way AddressSanitizer reports as a
  # second error, hiding the first; libFuzzer prints its own report.
  if ! SWIFT_BACKTRACE=enable=no "$scratch/debug/Fuzz$name" "$corpus" "${limits[@]}" -max_len=65536 \
    "${resource_limits[@]}" -artifact_prefix="$crashes/" -print_final_stats=1 \
    > "$scratch/fuzz-$name.log" 2>&1; then
    echo "fuzz $name: FAILED (see $scratch/fuzz-$name.log; inputs in $crashes/)"
    grep -E "ERROR|Fatal|precondition|SUMMARY" "$scratch/fuzz-$name.log" | head -5
    status=1
  else
    grep -E "stat::number_of_executed_units" "$scratch/fuzz-$name.log" | sed "s/^/fuzz $name: /"
  fi
done
exit $status
