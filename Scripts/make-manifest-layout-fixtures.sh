#!/usr/bin/env bash
# Writes Tests/Fixtures/manifest-layouts: HLS playlists and DASH manifests laid out as
# packagers write them, around a copy of the committed stereo-surround.ts (MP2 stereo and
# AC-3 5.1, 12 KB). The output is the same on every run; no tool but bash and cp is needed.
set -euo pipefail
cd "$(dirname "$0")/../Tests/Fixtures"
out=manifest-layouts
rm -rf "$out"
mkdir -p "$out/packager/video" "$out/packager/segments"

# A media playlist in its own folder whose segments sit in a sibling folder, named
# `../segments/...` (Shaka Packager's and Bento4's layouts with --segment-template paths).
cp stereo-surround.ts "$out/packager/segments/seg1.ts"
cat > "$out/packager/video/index.m3u8" <<'M3U8'
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-TARGETDURATION:4
#EXT-X-PLAYLIST-TYPE:VOD
#EXTINF:4.000,
../segments/seg1.ts
#EXTINF:4.000,
../segments/seg2.ts
#EXT-X-ENDLIST
M3U8
