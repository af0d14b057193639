#!/usr/bin/env bash
# Regenerates Tests/Fixtures/bench-sample: the JSON of one shortened run of the four benchmarks
# (fewer rounds and samples, ResourceBench --quick), which the benchmark report's test draws.
# Needs the release build and the corpora, as `make bench` makes them.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/bench-sample
mkdir -p "$out"
.build/release/SubtitleBench --rounds 1 --samples 5 --min-time 0.3 --json-out "$out/SubtitleBench.json"
.build/release/TracksBench --samples 3 --json-out "$out/TracksBench.json"
.build/release/StretchQuality --json-out "$out/StretchQuality.json"
.build/release/ResourceBench --quick --json-out "$out/ResourceBench.json"
