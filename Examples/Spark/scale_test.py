#!/usr/bin/env python3
"""The Spark recipe's test: both jobs on Spark local[2] over the fixtures plus a generated
catalogue, checked against mtool run directly on the same files.

    scale_test.py --mtool .build/release/mtool --fixtures Tests/Fixtures --work .build/scale
                  [--count 10000]

Checks, for `tracks_job.py`: the Parquet table holds exactly the rows made from
`mtool tracks --json` run directly over the same list (every field, one row per track, one
row per trackless or failed file), each failed file's exit code is the one `mtool tracks` gives
for it alone. For `stretch_job.py`: one row per path; written exactly when `mtool stretch` on
the file alone succeeds, with the same output frames, and the output is a WAVE file of that
many frames; a failed file has the exit code mtool alone gives. A second run of the stretch
job skips every written output and writes nothing (the resume). Exits 1 on any difference.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import struct
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_catalogue import FIXTURE_MEDIA  # noqa: E402

TRACK_COLUMNS = [
    "path", "format", "file_duration", "track_type", "track_index", "codec", "ffmpeg_codec",
    "codec_tag", "language", "language_tag", "title", "kind", "label", "dispositions",
    "is_default", "channels", "channel_layout", "sample_rate", "bit_rate", "track_duration",
    "decodable", "encrypted", "error", "exit_code",
]
SPEED = "1.5"


def spark_submit(work, script, *args):
    """Runs a job on local[2]; returns its wall-clock seconds."""
    submit = os.path.join(os.path.dirname(sys.executable), "spark-submit")
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, SPARK_LOCAL_IP="127.0.0.1")
    started = time.monotonic()
    with open(os.path.join(work, os.path.basename(script) + ".log"), "w") as log:
        subprocess.run(
            [submit, "--master", "local[2]", "--driver-memory", "1g",
             "--conf", "spark.ui.enabled=false", "--conf", "spark.ui.showConsoleProgress=false",
             os.path.join(HERE, script), *args],
            check=True, env=env, stdout=log, stderr=subprocess.STDOUT)
    return time.monotonic() - started


def expected_track_rows(obj, code):
    """The table rows `tracks_job.py` should make from one file's `mtool tracks --json` object."""
    base = {c: None for c in TRACK_COLUMNS}
    base.update(path=obj["path"], format=obj["format"], file_duration=obj["duration"],
                error=obj["error"], exit_code=code)
    rows = []
    for kind, array, default in (("audio", "audio", "defaultAudio"),
                                 ("subtitle", "subtitles", "defaultSubtitle")):
        for t in obj[array]:
            row = dict(base, track_type=kind, track_index=t["index"], codec=t["codec"],
                       ffmpeg_codec=t["ffmpegCodec"], codec_tag=t["codecTag"],
                       language=t["language"], language_tag=t["languageTag"], title=t["title"],
                       kind=t["kind"], label=t["label"], dispositions=tuple(t["dispositions"]),
                       is_default=t["index"] == obj[default])
            if kind == "audio":
                row.update(channels=t["channels"], channel_layout=t["channelLayout"],
                           sample_rate=t["sampleRate"], bit_rate=t["bitRate"],
                           track_duration=t["duration"], decodable=t["decodable"],
                           encrypted=t["encrypted"])
            rows.append(row)
    return rows or [base]


def as_tuple(row):
    return tuple(tuple(row[c]) if c == "dispositions" and row[c] is not None else row[c]
                 for c in TRACK_COLUMNS)


def wave_frames(path):
    """The frames of a WAVE file (PCM or WAVE_FORMAT_EXTENSIBLE): data bytes / block align."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        return None
    offset, block = 12, None
    while offset + 8 <= len(data):
        kind, size = data[offset:offset + 4], struct.unpack("<I", data[offset + 4:offset + 8])[0]
        if kind == b"fmt ":
            block = struct.unpack("<H", data[offset + 20:offset + 22])[0]
        if kind == b"data" and block:
            return min(size, len(data) - offset - 8) // block
        offset += 8 + size + (size & 1)
    return None


def alone(mtool, args):
    """Exit code and stdout of mtool run on one file."""
    done = subprocess.run([mtool, *args], capture_output=True, text=True)
    return done.returncode, done.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mtool", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--count", type=int, default=10000)
    args = parser.parse_args()
    mtool = os.path.abspath(args.mtool)
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    started = time.monotonic()
    subprocess.run([sys.executable, os.path.join(HERE, "make_catalogue.py"), args.fixtures,
                    work, str(args.count)], check=True)
    sources = {}
    with open(os.path.join(work, "sources.tsv"), encoding="utf-8") as table:
        for line in table:
            path, source = line.rstrip("\n").split("\t")
            sources[path] = source
    for name in FIXTURE_MEDIA:
        path = os.path.abspath(os.path.join(args.fixtures, name))
        sources[path] = path
    paths = list(sources)
    with open(os.path.join(work, "all.txt"), "w", encoding="utf-8") as listing:
        listing.writelines(p + "\n" for p in paths)
    print(f"catalogue: {len(paths)} paths in {time.monotonic() - started:.1f} s", flush=True)

    failures = []

    # --- tracks -----------------------------------------------------------------------------
    seconds = spark_submit(work, "tracks_job.py", "--list", os.path.join(work, "all.txt"),
                           "--out", os.path.join(work, "tracks.parquet"), "--mtool", mtool,
                           "--files-per-partition", "2500")
    print(f"tracks job: {len(paths)} files in {seconds:.1f} s on local[2]", flush=True)
    codes = {}
    for source in set(sources.values()):
        probe = source if source != "-" else os.path.join(work, "no such file.wav")
        codes[source] = alone(mtool, ["tracks", probe])[0]
    expected = []
    for start in range(0, len(paths), 1000):
        chunk = paths[start:start + 1000]
        done = subprocess.run([mtool, "tracks", "--json", "--jobs", "2", *chunk],
                              capture_output=True, text=True)
        for obj in json.loads(done.stdout)["files"]:
            code = codes[sources[obj["path"]]]
            expected += [as_tuple(r) for r in expected_track_rows(obj, code)]

    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    got = [as_tuple(r.asDict()) for r in spark.read.parquet(os.path.join(work, "tracks.parquet"))
           .select(*TRACK_COLUMNS).collect()]
    if sorted(got, key=repr) != sorted(expected, key=repr):
        extra = set(got) - set(expected)
        missing = set(expected) - set(got)
        failures.append(f"tracks table differs: {len(got)} rows, {len(expected)} expected; "
                        f"unexpected {sorted(extra, key=repr)[:3]}, missing "
                        f"{sorted(missing, key=repr)[:3]}")
    else:
        print(f"tracks table: {len(got)} rows, equal to mtool tracks --json run directly")

    # --- stretch ----------------------------------------------------------------------------
    out_dir = os.path.join(work, "stretched")
    os.makedirs(out_dir)
    template = out_dir + "/{stem}.{ext}.1_5x.wav"
    stretch_args = ["--list", os.path.join(work, "all.txt"), "--template", template,
                    "--speed", SPEED, "--mtool", mtool, "--files-per-partition", "500"]
    seconds = spark_submit(work, "stretch_job.py", *stretch_args,
                           "--out", os.path.join(work, "stretch.parquet"))
    print(f"stretch job: {len(paths)} files in {seconds:.1f} s on local[2]", flush=True)
    alone_dir = os.path.join(work, "alone")
    os.makedirs(alone_dir)
    by_source = {}
    for k, source in enumerate(set(sources.values())):
        probe = source if source != "-" else os.path.join(work, "no such file.wav")
        code, out = alone(mtool, ["stretch", probe, os.path.join(alone_dir, f"{k}.wav"),
                                  "--speed", SPEED, "--json"])
        by_source[source] = (code, json.loads(out)["outputFrames"] if code == 0 else None)
    rows = {r["input"]: r for r in (
        x.asDict() for x in spark.read.parquet(os.path.join(work, "stretch.parquet")).collect())}
    if len(rows) != len(paths):
        failures.append(f"stretch table has {len(rows)} inputs, {len(paths)} listed")
    written = 0
    for path in paths:
        row = rows.get(path)
        code, frames = by_source[sources[path]]
        if row is None:
            failures.append(f"stretch: no row for {path}")
            continue
        if row["exit_code"] != code or (row["status"] == "written") != (code == 0):
            failures.append(f"stretch: {path}: {row['status']} exit {row['exit_code']}, "
                            f"mtool alone gives {code}")
            continue
        if code == 0:
            written += 1
            in_file = wave_frames(row["output"])
            if row["output_frames"] != frames or in_file != frames:
                failures.append(f"stretch: {path}: {row['output_frames']} frames, file "
                                f"{in_file}, mtool alone {frames}")
    print(f"stretch table: {len(rows)} rows, {written} written, as mtool stretch alone gives")

    seconds = spark_submit(work, "stretch_job.py", *stretch_args,
                           "--out", os.path.join(work, "stretch-again.parquet"))
    again = [x.asDict() for x in
             spark.read.parquet(os.path.join(work, "stretch-again.parquet")).collect()]
    statuses = {}
    for row in again:
        statuses[row["status"]] = statuses.get(row["status"], 0) + 1
    if statuses.get("skipped", 0) != written or statuses.get("written", 0) != 0:
        failures.append(f"stretch resume: {statuses}, expected {written} skipped, none written")
    else:
        print(f"stretch resume: {written} skipped, nothing rewritten, in {seconds:.1f} s")
    spark.stop()

    for failure in failures[:20]:
        print("FAIL:", failure)
    if failures:
        sys.exit(1)
    print(f"scale-test passed in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
