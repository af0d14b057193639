#!/usr/bin/env bash
# Builds the real-world corpus that Tests/mtoolTests/RealWorldCorpusTests.swift reads: media
# that nobody on this project wrote, and media made by muxers other than FFmpeg's.
#
#   debian/<package>/   sample and test media shipped by Debian packages (fetched with
#                       `apt-get download` and unpacked with `dpkg-deb -x`: nothing is installed),
#                       each folder with the package's copyright file
#   muxers/<tool>/      files written by mkvmerge, GStreamer, sox, flac, lame, opusenc, oggenc
#                       and wavpack from sources made by sox (FFmpeg writes none of them); each
#                       Matroska file made by mkvmerge has a NAME.declared.json beside it with
#                       what the command line declared (track order, codec IDs, languages,
#                       names, flags)
#
# Usage: Scripts/make-realworld-corpus.sh [OUTPUT]   (default .build/realworld-corpus)
#        Scripts/make-realworld-corpus.sh --update-fixtures
# The second form refreshes the small, permissively licensed files committed under
# Tests/Fixtures/realworld-debian/ instead.
#
# The command-line tools it needs are installed with apt when missing and running as root
# ($APT_CORPUS, set by the Makefile). A package that cannot be fetched is reported and skipped;
# the corpus is then smaller, never wrong. Skips the work when the corpus is already complete.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

apt_tools=${APT_CORPUS:-mkvtoolnix sox libsox-fmt-base flac lame opus-tools vorbis-tools wavpack \
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good}
version=2

update_fixtures=0
out=.build/realworld-corpus
case "${1:-}" in
  --update-fixtures) update_fixtures=1 ;;
  "") ;;
  *) out=$1 ;;
esac

# The tools, through apt when one is missing (only as root; otherwise the muxer part shrinks).
need_tools() {
  local missing=()
  for pair in mkvmerge:mkvtoolnix sox:sox flac:flac lame:lame opusenc:opus-tools \
    oggenc:vorbis-tools wavpack:wavpack gst-launch-1.0:gstreamer1.0-tools \
    dpkg-deb:dpkg apt-get:apt; do
    command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
  done
  if [ ${#missing[@]} -gt 0 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "realworld corpus: installing $apt_tools"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      $apt_tools >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null 2>&1 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
          $apt_tools >/dev/null 2>&1; } ||
      echo "realworld corpus: could not install every tool; continuing with what is there" >&2
  fi
}

# fetch PACKAGE DIR: the package's files unpacked into DIR (from a cached .deb when present).
fetch() {
  local package=$1 dir=$2 debs=$3
  mkdir -p "$debs"
  if ! ls "$debs/${package}"_*.deb >/dev/null 2>&1; then
    (cd "$debs" && apt-get download -qq "$package" >/dev/null 2>&1) ||
      { apt-get update -qq >/dev/null 2>&1 &&
        (cd "$debs" && apt-get download -qq "$package" >/dev/null 2>&1); } ||
      { echo "realworld corpus: cannot fetch $package; skipped" >&2; return 1; }
  fi
  rm -rf "$dir" && mkdir -p "$dir"
  dpkg-deb -x "$(ls "$debs/${package}"_*.deb | head -n 1)" "$dir"
}

# take PACKAGE FROM_PREFIX FILE...: copies the named files of the unpacked PACKAGE, and its
# copyright file, to $dest/PACKAGE/.
take() {
  local package=$1 prefix=$2
  shift 2
  local unpacked=$work/unpacked/$package target=$dest/$package
  fetch "$package" "$unpacked" "$work/debs" || return 0
  mkdir -p "$target"
  cp "$unpacked/usr/share/doc/$package/copyright" "$target/copyright" 2>/dev/null || true
  for file in "$@"; do
    if [ -f "$unpacked$prefix/$file" ]; then
      cp "$unpacked$prefix/$file" "$target/$(basename "$file")"
    else
      echo "realworld corpus: $package no longer ships $file" >&2
    fi
  done
}

if [ $update_fixtures -eq 1 ]; then
  # Committed: BSD-3-Clause (SciPy) and PSF-2.0 (Python) test media, a few kB each.
  need_tools
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  dest=$work/take
  take python3-scipy /usr/lib/python3/dist-packages/scipy/io/tests/data \
    test-44100Hz-2ch-32bit-float-be.wav test-44100Hz-2ch-32bit-float-le.wav \
    test-44100Hz-be-1ch-4bytes.wav test-44100Hz-le-1ch-4bytes-early-eof-no-data.wav \
    test-44100Hz-le-1ch-4bytes-early-eof.wav test-44100Hz-le-1ch-4bytes-incomplete-chunk.wav \
    test-48000Hz-2ch-64bit-float-le-wavex.wav test-8000Hz-be-3ch-5S-24bit.wav \
    test-8000Hz-le-1ch-10S-20bit-extra.wav test-8000Hz-le-1ch-1byte-ulaw.wav \
    test-8000Hz-le-2ch-1byteu.wav test-8000Hz-le-3ch-5S-24bit-inconsistent.wav \
    test-8000Hz-le-3ch-5S-24bit.wav test-8000Hz-le-3ch-5S-36bit.wav \
    test-8000Hz-le-3ch-5S-45bit.wav test-8000Hz-le-3ch-5S-53bit.wav \
    test-8000Hz-le-3ch-5S-64bit.wav test-8000Hz-le-4ch-9S-12bit.wav \
    test-8000Hz-le-5ch-9S-5bit.wav
  take libpython3.11-testsuite /usr/lib/python3.11/test \
    audiodata/pluck-alaw.aifc audiodata/pluck-pcm16.aiff audiodata/pluck-pcm16.au \
    audiodata/pluck-pcm16.wav audiodata/pluck-pcm24.aiff audiodata/pluck-pcm24.au \
    audiodata/pluck-pcm24.wav audiodata/pluck-pcm32.aiff audiodata/pluck-pcm32.au \
    audiodata/pluck-pcm32.wav audiodata/pluck-pcm8.aiff audiodata/pluck-pcm8.au \
    audiodata/pluck-pcm8.wav audiodata/pluck-ulaw.aifc audiodata/pluck-ulaw.au \
    sndhdrdata/sndhdr.aifc sndhdrdata/sndhdr.voc Sine-1000Hz-300ms.aif audiotest.au
  # The test suite's doc folder is a link to the interpreter's: the same source package, whose
  # copyright file the minimal library package carries.
  if fetch libpython3.11-minimal "$work/unpacked/libpython3.11-minimal" "$work/debs"; then
    cp "$work/unpacked/libpython3.11-minimal/usr/share/doc/libpython3.11-minimal/copyright" \
      "$dest/libpython3.11-testsuite/copyright"
  fi
  fixtures=Tests/Fixtures/realworld-debian
  for package in python3-scipy libpython3.11-testsuite; do
    [ -d "$dest/$package" ] || continue
    rm -rf "${fixtures:?}/$package"
    mkdir -p "$fixtures/$package"
    cp "$dest/$package"/* "$fixtures/$package/"
  done
  du -sh "$fixtures"
  exit 0
fi

if [ -f "$out/.complete" ] && [ "$(cat "$out/.complete")" = "$version" ]; then
  echo "realworld corpus: $out is complete"
  exit 0
fi
need_tools
rm -rf "$out"
mkdir -p "$out"
work=$out/.work
dest=$out/debian

# --- Media shipped by Debian packages --------------------------------------------------------

# Desktop sound themes: Ogg Vorbis from several authors and encoders, 8 to 96 kHz.
take sound-theme-freedesktop /usr/share/sounds/freedesktop/stereo \
  alarm-clock-elapsed.oga audio-channel-front-left.oga bell.oga camera-shutter.oga \
  complete.oga phone-outgoing-busy.oga service-login.oga dialog-warning.oga
take oxygen-sounds /usr/share/sounds \
  Oxygen-Im-Phone-Ring.ogg Oxygen-Window-Close.ogg Oxygen-Sys-Log-In-Short.ogg
# ALSA's speaker-test samples.
take alsa-utils /usr/share/sounds/alsa Front_Center.wav Noise.wav
# Telephony prompts: raw GSM 06.10, recognised by extension only.
take asterisk-core-sounds-en-gsm /usr/share/asterisk/sounds/en_US_f_Allison \
  beep.gsm hello-world.gsm tt-monkeys.gsm
# A file-type detector's test data: nine containers from nine different writers (3GP with
# AMR-NB, ASF with WMA, FLV with MP3, Matroska with 5.1 AAC, QuickTime, MP4, Ogg Theora+Vorbis
# with a skeleton stream, RealMedia with AC-3, WebM).
take golang-github-gabriel-vasile-mimetype-dev \
  /usr/share/gocode/src/github.com/gabriel-vasile/mimetype/testdata \
  3gp.3gp asf.asf flv.flv mkv.mkv mov.mov mp4.mp4 ogg.ogv rmvb.rmvb webm.webm
# A forensics course's originals: a phone's own MP4, one clip in five containers, and
# recordings in MP3, Ogg and WAVE.
take forensics-samples-files /usr/share/forensics-samples/original-files \
  movie1/VID_20191220_170832.mp4 movie2/movie-hello.avi movie2/movie-hello.mp4 \
  movie2/movie-hello.mpeg movie2/movie-hello.ogg audio1/debian.mp3 audio1/debian.ogg \
  audio1/debian.wav
# A CD ripper's test track (FLAC with tags), a tag library's ID3-tagged MP3s, a fuzzer's
# seed MP4 (video only, 1.2 kB).
take whipper /usr/lib/python3/dist-packages/whipper/test track.flac
take libmp3-tag-perl /usr/share/doc/libmp3-tag-perl/examples empty.mp3 empty_10sec.mp3
take afl++-doc /usr/share/doc/afl++-doc/afl/testcases/multimedia/h264 small_movie.mp4

# --- Files from other muxers -------------------------------------------------------------------

m=$out/muxers
src=$work/src
mkdir -p "$src" "$m"
have() { command -v "$1" >/dev/null; }

# Sources, all from sox: speech-like tones of different lengths, rates and channel counts.
if have sox; then
  sox -q -n -r 48000 -c 2 -b 16 "$src/a48-2s.wav" synth 2.0 sine 440 sine 660 tremolo 3 60
  sox -q -n -r 44100 -c 2 -b 16 "$src/a44-1s.wav" synth 1.0 sine 300 sine 500
  sox -q -n -r 22050 -c 1 -b 16 "$src/a22-3s.wav" synth 3.0 sine 220 tremolo 5 80
  sox -q -n -r 48000 -c 6 -b 24 "$src/a48-6ch.wav" synth 1.5 sine 200 sine 300 sine 400 \
    sine 500 sine 60 sine 700

  mkdir -p "$m/sox"
  sox -q "$src/a48-6ch.wav" "$m/sox/tone-5.1-24bit.wav"
  sox -q "$src/a44-1s.wav" "$m/sox/tone.aiff"
  sox -q "$src/a44-1s.wav" -e u-law -r 8000 -c 1 "$m/sox/tone-ulaw.au"
  sox -q "$src/a22-3s.wav" "$m/sox/tone.voc"
  sox -q "$src/a22-3s.wav" "$m/sox/tone.w64"
  sox -q "$src/a48-2s.wav" "$m/sox/tone.flac"
  sox -q "$src/a48-2s.wav" -C 3 "$m/sox/tone.ogg"
  sox -q "$src/a44-1s.wav" -e floating-point -b 32 "$m/sox/tone-float.wav"
  sox -q "$src/a22-3s.wav" -r 8000 "$m/sox/tone.gsm" 2>/dev/null || rm -f "$m/sox/tone.gsm"
fi

if have flac; then
  mkdir -p "$m/flac"
  flac -s -f --best --keep-foreign-metadata-if-present --tag=TITLE=Surround --tag=LANGUAGE=de -o "$m/flac/surround-5.1.flac" \
    "$src/a48-6ch.wav" 2>/dev/null
  flac -s -f -0 -o "$m/flac/mono-22k.flac" "$src/a22-3s.wav"
fi
if have lame; then
  mkdir -p "$m/lame"
  lame --quiet -V 5 --tt "Variable" --ta "Nobody" --add-id3v2 "$src/a48-2s.wav" \
    "$m/lame/vbr-xing.mp3"
  lame --quiet -b 64 -m m --resample 22.05 "$src/a44-1s.wav" "$m/lame/cbr-mono.mp3"
  lame --quiet -b 96 --resample 48 "$src/a48-2s.wav" "$src/a48-2s.mp3"
fi
if have opusenc; then
  mkdir -p "$m/opusenc"
  opusenc --quiet --bitrate 32 --title "Parole" --comment LANGUAGE=fr "$src/a44-1s.wav" \
    "$m/opusenc/stated-44k.opus"
  opusenc --quiet --bitrate 24 "$src/a48-2s.wav" "$src/a48-2s.opus"
fi
if have oggenc; then
  mkdir -p "$m/oggenc"
  oggenc --quiet -q 2 -t "Rehearsal" -c LANGUAGE=es -o "$m/oggenc/tagged.ogg" "$src/a22-3s.wav"
  oggenc --quiet -q 1 -o "$src/a44-1s.ogg" "$src/a44-1s.wav"
fi
if have wavpack; then
  mkdir -p "$m/wavpack"
  wavpack -q -y "$src/a48-6ch.wav" -o "$m/wavpack/surround.wv" 2>/dev/null
fi

# GStreamer's muxers: MP4 (qtmux family), Matroska, WebM, Ogg, WAVE.
if have gst-launch-1.0; then
  mkdir -p "$m/gst"
  gst() { gst-launch-1.0 -q "$@" >/dev/null 2>&1 || echo "realworld corpus: gst failed: $*" >&2; }
  wav48="filesrc location=$src/a48-2s.wav ! wavparse ! audioconvert ! audioresample"
  gst $wav48 ! lamemp3enc ! mpegaudioparse ! mp4mux ! filesink location="$m/gst/mp3.mp4"
  gst $wav48 ! opusenc ! matroskamux ! filesink location="$m/gst/opus.mkv"
  gst $wav48 ! vorbisenc ! webmmux ! filesink location="$m/gst/vorbis.webm"
  gst $wav48 ! flacenc ! oggmux ! filesink location="$m/gst/flac.ogg"
  gst $wav48 ! audio/x-raw,format=S24LE ! wavenc ! filesink location="$m/gst/s24.wav"
  gst $wav48 ! twolamemp2enc ! mpegaudioparse ! mp4mux ! filesink location="$m/gst/mp2.mp4"
  gst $wav48 ! opusenc ! mp4mux ! filesink location="$m/gst/opus.mp4"
  find "$m/gst" -type f -size -100c -delete
fi

# mkvmerge: several audio tracks in different languages, names, flags, text tracks. Each file
# gets NAME.declared.json: the tracks in file order as the command line declares them.
if have mkvmerge && [ -f "$src/a48-2s.opus" ] && [ -f "$src/a44-1s.ogg" ]; then
  mkdir -p "$m/mkvmerge"
  # mkvmerge exits 1 for warnings (the file is written) and 2 for errors.
  mkv() {
    local status=0
    mkvmerge -q "$@" || status=$?
    [ $status -le 1 ] || echo "realworld corpus: mkvmerge failed: $*" >&2
  }
  cat >"$src/de.srt" <<'SRT'
1
00:00:00,200 --> 00:00:00,900
Schilder: Ausgang

2
00:00:01,000 --> 00:00:01,800
Achtung!
SRT
  cat >"$src/en-sdh.srt" <<'SRT'
1
00:00:00,100 --> 00:00:01,000
[door creaks]

2
00:00:01,100 --> 00:00:01,900
Who's there?
SRT
  cat >"$src/es.vtt" <<'VTT'
WEBVTT

00:00.100 --> 00:01.000
Hola.

00:01.100 --> 00:01.900
¿Quién es?
VTT

  # Two audio tracks (Opus 2 s, Vorbis 1 s), the second a commentary in Canadian French and
  # not default; two SubRip tracks, German forced, English for the hard of hearing.
  mkv -o "$m/mkvmerge/two-languages-srt.mkv" \
    --language 0:en --track-name "0:English" --default-track-flag 0:yes "$src/a48-2s.opus" \
    --language 0:fr-CA --track-name "0:Commentaire du réalisateur" --default-track-flag 0:no \
    --commentary-flag 0:yes "$src/a44-1s.ogg" \
    --language 0:de --track-name "0:Deutsch (Schilder)" --default-track-flag 0:no \
    --forced-display-flag 0:yes "$src/de.srt" \
    --language 0:en --track-name "0:English SDH" --default-track-flag 0:no \
    --hearing-impaired-flag 0:yes "$src/en-sdh.srt"
  cat >"$m/mkvmerge/two-languages-srt.mkv.declared.json" <<'JSON'
{"tracks": [
 {"type": "audio", "codecID": "A_OPUS", "language": "en", "name": "English",
  "default": true, "flags": [], "sampleRate": 48000, "channels": 2, "duration": 2.0},
 {"type": "audio", "codecID": "A_VORBIS", "language": "fr-CA",
  "name": "Commentaire du réalisateur", "default": false, "flags": ["comment"],
  "sampleRate": 44100, "channels": 2, "duration": 1.0},
 {"type": "subtitle", "codecID": "S_TEXT/UTF8", "language": "de", "name": "Deutsch (Schilder)",
  "default": false, "flags": ["forced"]},
 {"type": "subtitle", "codecID": "S_TEXT/UTF8", "language": "en", "name": "English SDH",
  "default": false, "flags": ["hearing_impaired"]}
]}
JSON

  # Audio only, MP3 and FLAC: the second track is the default one, the first has no language.
  if [ -f "$src/a48-2s.mp3" ] && [ -f "$m/flac/mono-22k.flac" ]; then
    mkv -o "$m/mkvmerge/mp3-flac.mka" \
      --language 0:und --default-track-flag 0:no "$src/a48-2s.mp3" \
      --language 0:ja --track-name "0:日本語" --default-track-flag 0:yes "$m/flac/mono-22k.flac"
    cat >"$m/mkvmerge/mp3-flac.mka.declared.json" <<'JSON'
{"tracks": [
 {"type": "audio", "codecID": "A_MPEG/L3", "language": "und", "name": null, "default": false,
  "flags": [], "sampleRate": 48000, "channels": 2, "duration": 2.0},
 {"type": "audio", "codecID": "A_FLAC", "language": "ja", "name": "日本語", "default": true,
  "flags": [], "sampleRate": 22050, "channels": 1, "duration": 3.0}
]}
JSON
  fi

  # Opus with a WebVTT track in Spanish (S_TEXT/WEBVTT: Matroska, not WebM).
  mkv -o "$m/mkvmerge/opus-webvtt.mkv" \
    --language 0:pt-BR --track-name "0:Português" "$src/a48-2s.opus" \
    --language 0:es --track-name "0:Español" --default-track-flag 0:no "$src/es.vtt"
  cat >"$m/mkvmerge/opus-webvtt.mkv.declared.json" <<'JSON'
{"tracks": [
 {"type": "audio", "codecID": "A_OPUS", "language": "pt-BR", "name": "Português",
  "default": true, "flags": [], "sampleRate": 48000, "channels": 2, "duration": 2.0},
 {"type": "subtitle", "codecID": "S_TEXT/WEBVTT", "language": "es", "name": "Español",
  "default": false, "flags": []}
]}
JSON

  # PCM from WAVE and a 5.1 24-bit track, remuxed: no encoder at all between sox and the file.
  mkv -o "$m/mkvmerge/pcm-5.1.mka" \
    --language 0:it --track-name "0:Italiano 5.1" "$src/a48-6ch.wav" \
    --language 0:it --track-name "0:Italiano stereo" --default-track-flag 0:no \
    "$src/a44-1s.wav"
  cat >"$m/mkvmerge/pcm-5.1.mka.declared.json" <<'JSON'
{"tracks": [
 {"type": "audio", "codecID": "A_PCM/INT/LIT", "language": "it", "name": "Italiano 5.1",
  "default": true, "flags": [], "sampleRate": 48000, "channels": 6, "duration": 1.5},
 {"type": "audio", "codecID": "A_PCM/INT/LIT", "language": "it", "name": "Italiano stereo",
  "default": false, "flags": [], "sampleRate": 44100, "channels": 2, "duration": 1.0}
]}
JSON
fi

rm -rf "$work"
echo "$version" >"$out/.complete"
echo "realworld corpus: $(find "$out" -type f ! -name '.*' ! -name copyright \
  ! -name '*.declared.json' | wc -l) files in $out"
