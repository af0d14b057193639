#!/usr/bin/env python3
"""RemoteBench: `mtool tracks URL` beside ffprobe on the same HLS presentation, same run.

Serves an HLS master with four audio renditions and a subtitle rendition on 127.0.0.1
(Scripts/http-fixture-server.py, 20 ms of latency on every answer). The master names each
rendition's codec but not its channels or sample rate, so both tools must read the rendition
playlists and their first segments for the same answer (codec, channels, rate per track).
Counts the HTTP requests each makes, times the whole command (process start included) over
several runs, and runs every fault mode with its deadline and peak memory.

Usage: remote-bench.py MTOOL [--json-out PATH] [--runs N] [--latency-ms MS]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "Tests", "Fixtures")

MASTER = """#EXTM3U
#EXT-X-VERSION:4
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,URI="a/en/index.m3u8"
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Deutsch",LANGUAGE="de",AUTOSELECT=YES,URI="a/de/index.m3u8"
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Français",LANGUAGE="fr",AUTOSELECT=YES,URI="a/fr/index.m3u8"
#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Español",LANGUAGE="es",AUTOSELECT=YES,URI="a/es/index.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="mp4a.40.2",AUDIO="aud"
a/en/index.m3u8
"""


def media_playlist(segment):
    return ("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:3\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            f"#EXTINF:2.0,\n{segment}\n#EXT-X-ENDLIST\n")


def build_site(root, ffmpeg):
    """Four renditions of different channel counts and rates, each a 2 s AAC segment in TS."""
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "master.m3u8"), "w") as handle:
        handle.write(MASTER)
    for lang, rate, layout in [("en", 48000, "stereo"), ("de", 44100, "mono"),
                               ("fr", 48000, "5.1"), ("es", 32000, "stereo")]:
        folder = os.path.join(root, "a", lang)
        os.makedirs(folder, exist_ok=True)
        subprocess.run(
            [ffmpeg, "-v", "error", "-y", "-f", "lavfi", "-i",
             f"sine=frequency=440:sample_rate={rate}:duration=2", "-af",
             f"aformat=channel_layouts={layout}", "-c:a", "aac", "-b:a", "64k",
             "-metadata:s:a:0", f"language={lang}", "-f", "mpegts",
             os.path.join(folder, "seg0.ts")], check=True)
        with open(os.path.join(folder, "index.m3u8"), "w") as handle:
            handle.write(media_playlist("seg0.ts"))


class Server:
    def __init__(self, root, latency_ms):
        self.log = os.path.join(root, ".requests")
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "http-fixture-server.py"), root,
             "--latency-ms", str(latency_ms), "--count-file", self.log],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.port = int(self.process.stdout.readline())

    def url(self, mode, path):
        return f"http://127.0.0.1:{self.port}/{mode}/{path}"

    def take_requests(self):
        try:
            with open(self.log) as handle:
                count = sum(1 for _ in handle)
            os.remove(self.log)
        except FileNotFoundError:
            count = 0
        return count

    def stop(self):
        self.process.terminate()
        self.process.wait()


def run(command):
    """Wall seconds, exit status, stdout and stderr of one whole command."""
    started = time.perf_counter()
    process = subprocess.run(command, capture_output=True)
    return time.perf_counter() - started, process.returncode, process.stdout, process.stderr


def measure_peak(command):
    """Peak RSS in KB of `command` (through wait4), with its status and seconds."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.stderr.close()
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss, seconds


def tracks_facts(mtool_json):
    files = json.loads(mtool_json)["files"]
    return sorted({(t["codec"], t["channels"], t["sampleRate"]) for t in files[0]["audio"]})


def ffprobe_facts(ffprobe_json):
    streams = json.loads(ffprobe_json).get("streams", [])
    # The variant's own audio is the English rendition again (the same playlist): distinct
    # facts per language.
    seen = set()
    for s in streams:
        if s.get("codec_type") == "audio":
            seen.add((s.get("codec_name"), s.get("channels"), int(s.get("sample_rate", 0))))
    return sorted(seen)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mtool")
    parser.add_argument("--json-out")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--latency-ms", type=float, default=20)
    options = parser.parse_args()
    ffmpeg, ffprobe = shutil.which("ffmpeg"), shutil.which("ffprobe")
    if not ffmpeg or not ffprobe:
        sys.exit("remote-bench: ffmpeg and ffprobe are needed (make peer-deps)")
    root = tempfile.mkdtemp(prefix="remote-bench-")
    build_site(root, ffmpeg)
    server = Server(root, options.latency_ms)
    results = {"latencyMs": options.latency_ms, "runs": options.runs}
    try:
        master = server.url("ok", "master.m3u8")
        ours_cmd = [options.mtool, "tracks", "--json", master]
        peer_cmd = [ffprobe, "-v", "error", "-of", "json", "-show_streams", master]
        # One run each for the answers and the request counts.
        server.take_requests()
        _, code, out, err = run(ours_cmd)
        ours_requests = server.take_requests()
        ours_facts = tracks_facts(out) if code == 0 else None
        _, pcode, pout, _ = run(peer_cmd)
        peer_requests = server.take_requests()
        peer_facts = ffprobe_facts(pout) if pcode == 0 else None
        ours_times, peer_times = [], []
        for _ in range(options.runs):
            ours_times.append(run(ours_cmd)[0])
            peer_times.append(run(peer_cmd)[0])
        server.take_requests()
        ours_wall, peer_wall = sorted(ours_times)[len(ours_times) // 2], \
            sorted(peer_times)[len(peer_times) // 2]
        results["hls"] = {
            "oursRequests": ours_requests, "ffprobeRequests": peer_requests,
            "oursWallSeconds": ours_wall, "ffprobeWallSeconds": peer_wall,
            "sameAnswer": ours_facts is not None and ours_facts == peer_facts,
            "oursFacts": ours_facts, "ffprobeFacts": peer_facts,
        }
        results["requestsOverFfprobe"] = ours_requests / max(1, peer_requests)
        results["ffprobeOverMtoolWall"] = peer_wall / ours_wall
        results["sameAnswer"] = 1 if results["hls"]["sameAnswer"] else 0
        # Faults: each within its deadline (2 s), with its documented exit code.
        deadline = 2.0
        faults = []
        for mode, path, want in [
            ("slow", "master.m3u8", 1), ("silent", "master.m3u8", 1),
            ("reset", "master.m3u8", 1), ("loop", "master.m3u8", 1),
            ("missing", "master.m3u8", 66), ("gone", "master.m3u8", 66),
            ("error", "master.m3u8", 1), ("badlength", "master.m3u8", 1),
            ("endless", "master.m3u8", 65),
        ]:
            code, rss, seconds = measure_peak(
                [options.mtool, "tracks", "--timeout", str(deadline), server.url(mode, path)])
            faults.append({"mode": mode, "exitCode": code, "expected": want,
                           "seconds": seconds, "peakMB": rss / 1024})
        code, rss, seconds = measure_peak(
            [options.mtool, "cues", "--timeout", str(deadline), server.url("endless", "a.vtt")])
        faults.append({"mode": "endless-subtitles", "exitCode": code, "expected": 65,
                       "seconds": seconds, "peakMB": rss / 1024})
        results["faults"] = faults
        results["faultsWrong"] = sum(
            1 for f in faults
            if f["exitCode"] != f["expected"] or f["seconds"] > deadline + 5)
        results["endlessPeakMB"] = max(f["peakMB"] for f in faults if f["mode"].startswith("endless"))
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)

    hls = results["hls"]
    print("RemoteBench: mtool tracks URL vs ffprobe -show_streams URL, HLS master with four audio"
          f" renditions, {options.latency_ms:g} ms latency per request (whole command, median of"
          f" {options.runs})")
    print(f"  requests        ours {hls['oursRequests']:>4}   ffprobe {hls['ffprobeRequests']:>4}"
          f"   ours/ffprobe {results['requestsOverFfprobe']:.2f} (goal <= 1)")
    print(f"  wall            ours {hls['oursWallSeconds'] * 1000:7.1f} ms   ffprobe"
          f" {hls['ffprobeWallSeconds'] * 1000:7.1f} ms   ffprobe/ours"
          f" {results['ffprobeOverMtoolWall']:.2f}x (goal >= 3x)")
    print(f"  same answer     {'yes' if hls['sameAnswer'] else 'NO'}: {hls['oursFacts']}"
          f" vs {hls['ffprobeFacts']}")
    for fault in results["faults"]:
        ok = fault["exitCode"] == fault["expected"] and fault["seconds"] <= 7
        print(f"  fault {fault['mode']:<18} exit {fault['exitCode']:>3} (want {fault['expected']:>2})"
              f" {fault['seconds']:5.2f} s  peak {fault['peakMB']:5.1f} MB  {'ok' if ok else 'WRONG'}")
    print(f"  endless body peak {results['endlessPeakMB']:.1f} MB (goal < 64 MB)")
    if options.json_out:
        with open(options.json_out, "w") as handle:
            json.dump(results, handle, indent=1)


if __name__ == "__main__":
    main()
