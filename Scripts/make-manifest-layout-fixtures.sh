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

# A DASH manifest whose audio sets state their channels and rates per representation: English
# stereo and 5.1 (different counts: the set has none), French stereo twice under two schemes
# (one count), German 48 kHz and 44.1 kHz (different rates). Each representation's
# initialization segment is a copy of the committed aac-movtext.mp4 (AAC mono, 8 kHz, 3 KB):
# what it says fills in only what the representations leave out, not what they state
# differently.
dash="$out/dash-per-representation"
mkdir -p "$dash"
for id in en2 en6 fr-a fr-b de48 de44; do
  mkdir -p "$dash/$id"
  cp aac-movtext.mp4 "$dash/$id/init.mp4"
done
cat > "$dash/manifest.mpd" <<'MPD'
<?xml version="1.0" encoding="UTF-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT8S"
     profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" minBufferTime="PT2S">
  <Period>
    <AdaptationSet mimeType="audio/mp4" codecs="mp4a.40.2" lang="en" audioSamplingRate="48000">
      <SegmentTemplate initialization="$RepresentationID$/init.mp4" media="$RepresentationID$/$Number$.m4s"/>
      <Representation id="en2" bandwidth="128000">
        <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
      </Representation>
      <Representation id="en6" bandwidth="384000">
        <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="6"/>
      </Representation>
    </AdaptationSet>
    <AdaptationSet mimeType="audio/mp4" codecs="mp4a.40.2" lang="fr" audioSamplingRate="48000">
      <SegmentTemplate initialization="$RepresentationID$/init.mp4" media="$RepresentationID$/$Number$.m4s"/>
      <Representation id="fr-a" bandwidth="96000">
        <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
      </Representation>
      <Representation id="fr-b" bandwidth="128000">
        <AudioChannelConfiguration schemeIdUri="urn:mpeg:mpegB:cicp:ChannelConfiguration" value="2"/>
      </Representation>
    </AdaptationSet>
    <AdaptationSet mimeType="audio/mp4" codecs="mp4a.40.2" lang="de">
      <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
      <SegmentTemplate initialization="$RepresentationID$/init.mp4" media="$RepresentationID$/$Number$.m4s"/>
      <Representation id="de48" bandwidth="128000" audioSamplingRate="48000"/>
      <Representation id="de44" bandwidth="192000" audioSamplingRate="44100"/>
    </AdaptationSet>
  </Period>
</MPD>
MPD

# Media playlists that list no segment: a complete (VOD) one and a live one.
mkdir -p "$out/empty"
cat > "$out/empty/vod.m3u8" <<'M3U8'
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-TARGETDURATION:4
#EXT-X-PLAYLIST-TYPE:VOD
#EXT-X-ENDLIST
M3U8
cat > "$out/empty/live.m3u8" <<'M3U8'
#EXTM3U
#EXT-X-VERSION:3
#EXT-X-TARGETDURATION:4
#EXT-X-MEDIA-SEQUENCE:0
M3U8
