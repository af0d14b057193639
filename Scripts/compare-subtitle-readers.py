#!/usr/bin/env python3
"""What `mtool cues` shows against what another mature reader shows, file by file.

TTML files go to ttconv (its SRT writer: one cue per change of what is shown), SSA/ASS files
to pysubs2. For each file, at the middle of every interval between two cue boundaries of
either reader, the words shown by both are compared (markup and override blocks removed,
white space collapsed). A file differs when any interval shows other words. Some differences
are the peer's, named in the summary: ttconv's SRT writer keeps text hidden by
tts:visibility or a set element and drops ruby and paragraphs without an end.

usage: compare-subtitle-readers.py MTOOL FILE... [--json-out PATH]
Run with the Python that has pysubs2 and ttconv (make bench makes .build/venv-subs).
"""
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as et


def words(text):
    text = re.sub(r"</?(?:i|b|u|s|c|v|font|ruby|rt|lang|span)\b[^>]*>", "", text)
    text = re.sub(r"\{[^}]*\}", "", text)
    for escape in ("\\N", "\\n", "\\h"):
        text = text.replace(escape, " ")
    text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return sorted(text.split())


def srt_cues(text):
    cues = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.split("\n")
        m = re.match(r"(\d+):(\d+):(\d+),(\d+) --> (\d+):(\d+):(\d+),(\d+)", lines[1] if len(lines) > 1 else "")
        if not m:
            continue
        g = list(map(int, m.groups()))
        start = g[0] * 3600 + g[1] * 60 + g[2] + g[3] / 1000
        end = g[4] * 3600 + g[5] * 60 + g[6] + g[7] / 1000
        cues.append((start, end, " ".join(lines[2:])))
    return cues


def peer_cues(path):
    if path.lower().endswith((".ass", ".ssa")):
        import pysubs2
        subs = pysubs2.load(path)
        return [(e.start / 1000, e.end / 1000, e.plaintext) for e in subs if not e.is_comment]
    import logging
    logging.disable(logging.CRITICAL)
    from ttconv.imsc import reader
    from ttconv.srt import writer
    return srt_cues(writer.from_model(reader.to_model(et.parse(path))))


def peer_limit(path):
    """The peer's known limit that explains a difference in `path`, or None."""
    if not path.lower().endswith((".ttml", ".xml", ".dfxp")):
        return None
    text = open(path, encoding="utf-8", errors="replace").read()
    if "ruby=" in text:
        return "ruby (ttconv's SRT drops it)"
    if 'visibility="hidden"' in text or "<set " in text:
        return "visibility and set (ttconv's SRT ignores them)"
    return None


def main():
    args = sys.argv[1:]
    json_out = None
    if "--json-out" in args:
        i = args.index("--json-out")
        json_out = args[i + 1]
        del args[i:i + 2]
    mtool, files = args[0], args[1:]
    same, differing, explained, unreadable = 0, [], {}, []
    for path in files:
        try:
            peer = peer_cues(path)
        except Exception as error:  # the peer cannot read it: not compared
            unreadable.append(f"{path}: {error}")
            continue
        run = subprocess.run([mtool, "cues", path, "--json"], capture_output=True, text=True)
        if run.returncode != 0:
            differing.append(f"{path}: mtool exit {run.returncode}: {run.stderr.strip()}")
            continue
        ours = [(c["startTime"], c["endTime"], c["text"]) for c in json.loads(run.stdout)["cues"]]
        # Cues that never end (ours) are cut where the peer's last cue ends.
        horizon = max([c[1] for c in peer] + [c[0] + 1 for c in ours] + [0])
        ours = [(s, min(e, horizon), t) for s, e, t in ours]
        bounds = sorted({round(x, 3) for c in ours + peer for x in c[:2]})
        mismatch = None
        for a, b in zip(bounds, bounds[1:]):
            if b - a < 0.002:  # a millisecond's rounding apart
                continue
            t = (a + b) / 2
            shown = lambda cues: sorted(w for c in cues if c[0] <= t < c[1] for w in words(c[2]))
            if shown(ours) != shown(peer):
                mismatch = (t, " ".join(shown(ours))[:60], " ".join(shown(peer))[:60])
                break
        if mismatch is None:
            same += 1
        elif (limit := peer_limit(path)) is not None:
            explained.setdefault(limit, []).append(path)
        else:
            differing.append(f"{path}: at {mismatch[0]:.3f} s ours '{mismatch[1]}' peer '{mismatch[2]}'")
    compared = same + len(differing) + sum(len(v) for v in explained.values())
    print(f"{compared} files compared: {same} show the same words at every time")
    for limit, paths in explained.items():
        print(f"  {len(paths)} differ by the peer's limit: {limit}")
    for line in differing:
        print(f"  DIFFERS {line}")
    for line in unreadable:
        print(f"  (peer could not read {line})")
    if json_out:
        with open(json_out, "w") as f:
            json.dump({"compared": compared, "same": same, "differing": differing,
                       "explained": explained, "peerUnreadable": unreadable}, f, indent=1)
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
