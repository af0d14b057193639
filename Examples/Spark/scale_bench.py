#!/usr/bin/env python3
"""Throughput of `mtool tracks` over a catalogue, directly and through Spark local[2].

    scale_bench.py --mtool .build/release/mtool --fixtures Tests/Fixtures --work .build/scale-bench
                   [--sizes 1000,10000,100000] [--json-out FILE]

For each size N (the first N paths of one generated catalogue, see make_catalogue.py):
- direct: `mtool tracks --files-from LIST --jsonl --jobs 1`, one process on one core: wall
  seconds, CPU seconds, peak RSS; files per second per core = N / wall.
- Spark: tracks_job.py on local[2] (one executor, the driver JVM, two task slots; one Python
  worker and one mtool per running task): wall seconds of the job, files per second per core =
  N / (2 x wall), and the peak RSS of the JVM, of one Python worker, and of one mtool; and,
  from the JVM's GC log, its heap in use right after each collection (the live set: RSS
  follows the heap's committed size, which the JVM grows lazily up to --driver-memory).
Spark's overhead per file is the extra core time per file at scale, from the difference
between the two largest sizes (the fixed start-up cancels): 2 x (T_spark(b) - T_spark(a)) /
(b - a) minus the direct cost per file. The machine's load average is recorded with each run:
on a shared machine the wall times are noisy, the CPU times less so.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def loadavg():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


class PeakRSS(threading.Thread):
    """Samples the RSS of a process tree every 0.2 s; keeps the peak per kind of process."""

    def __init__(self, root):
        super().__init__(daemon=True)
        self.root, self.peaks, self.running = root, {}, True

    def run(self):
        while self.running:
            for pid, kind, rss in self.tree():
                self.peaks[kind] = max(self.peaks.get(kind, 0), rss)
            time.sleep(0.2)

    def tree(self):
        children = {}
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(pid))
            except OSError:
                continue
        todo, found = [self.root], []
        while todo:
            pid = todo.pop()
            todo += children.get(pid, [])
            try:
                with open(f"/proc/{pid}/status") as f:
                    status = dict(line.split(":", 1) for line in f if ":" in line)
                name = status["Name"].strip()
                rss = int(status.get("VmRSS", "0 kB").split()[0]) // 1024
            except (OSError, KeyError, ValueError):
                continue
            kind = "jvm" if name == "java" else "mtool" if name == "mtool" else \
                "python" if name.startswith("python") and pid != self.root else None
            if kind:
                found.append((pid, kind, rss))
        return found


def direct(mtool, listing, count):
    load = loadavg()
    started = time.monotonic()
    with open(os.devnull, "w") as sink:
        process = subprocess.Popen(
            [mtool, "tracks", "--files-from", listing, "--jsonl", "--jobs", "1"],
            stdout=sink, stderr=sink)
        # wait4 gives this child's own peak RSS (RUSAGE_CHILDREN would be the largest child so
        # far, a Spark JVM included).
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - started
    cpu = usage.ru_utime + usage.ru_stime
    return {"files": count, "wall": wall, "cpu": cpu, "filesPerSecondPerCore": count / wall,
            "peakRSSMB": usage.ru_maxrss // 1024, "load": load}


def spark(mtool, listing, count, work, driver_memory):
    gc_log = os.path.join(work, f"gc-{count}.log")
    submit = os.path.join(os.path.dirname(sys.executable), "spark-submit")
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, SPARK_LOCAL_IP="127.0.0.1")
    out = os.path.join(work, f"tracks-{count}.parquet")
    load = loadavg()
    started = time.monotonic()
    with open(os.path.join(work, f"spark-{count}.log"), "w") as log:
        process = subprocess.Popen(
            [submit, "--master", "local[2]", "--driver-memory", driver_memory,
             "--conf", f"spark.driver.extraJavaOptions=-Xlog:gc:file={gc_log}",
             "--conf", "spark.ui.enabled=false", "--conf", "spark.ui.showConsoleProgress=false",
             os.path.join(HERE, "tracks_job.py"), "--list", listing, "--out", out,
             "--mtool", mtool, "--files-per-partition", "5000"],
            env=env, stdout=log, stderr=subprocess.STDOUT)
        sampler = PeakRSS(process.pid)
        sampler.start()
        process.wait()
        sampler.running = False
    wall = time.monotonic() - started
    if process.returncode != 0:
        sys.exit(f"spark job failed: see {log.name}")
    return {"files": count, "wall": wall, "filesPerSecondPerCore": count / (2 * wall),
            "peakRSSMB": sampler.peaks, "load": load, "driverMemory": driver_memory,
            **heap_after_gc(gc_log)}


def heap_after_gc(path):
    """The JVM heap in use right after each collection (the live set, in MB), from its GC log:
    the largest such figure over the run, the last one, and how many collections there were.
    A heap that is flat in the number of files has the same live set at 1,000 and at 100,000
    files, whatever the RSS (which follows the heap's committed size, not its use)."""
    after = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.search(r"Pause.* (\d+)M->(\d+)M\((\d+)M\)", line)
                if m:
                    after.append(int(m.group(2)))
    except OSError:
        pass
    return {"heapAfterGCMaxMB": max(after) if after else None,
            "heapAfterGCLastMB": after[-1] if after else None, "collections": len(after)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mtool", required=True)
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--json-out")
    parser.add_argument("--driver-memory", default="512m",
                        help="the driver JVM's heap (in local mode it is the executor too)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    mtool = os.path.abspath(args.mtool)
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    if not os.path.exists(os.path.join(work, "list.txt")) or \
            sum(1 for _ in open(os.path.join(work, "list.txt"))) < max(sizes):
        subprocess.run([sys.executable, os.path.join(HERE, "make_catalogue.py"), args.fixtures,
                        work, str(max(sizes))], check=True)
    with open(os.path.join(work, "list.txt"), encoding="utf-8") as f:
        lines = f.readlines()
    results = {"direct": [], "spark": [], "cpus": os.cpu_count()}
    for size in sizes:
        listing = os.path.join(work, f"list-{size}.txt")
        with open(listing, "w", encoding="utf-8") as f:
            f.writelines(lines[:size])
        d = direct(mtool, listing, size)
        results["direct"].append(d)
        print(f"direct  {size:>7} files: {d['wall']:7.1f} s wall, {d['cpu']:7.1f} s CPU, "
              f"{d['filesPerSecondPerCore']:6.0f} files/s/core, peak RSS {d['peakRSSMB']} MB "
              f"(load {d['load']:.1f})", flush=True)
        s = spark(mtool, listing, size, work, args.driver_memory)
        results["spark"].append(s)
        print(f"spark   {size:>7} files: {s['wall']:7.1f} s wall, "
              f"{s['filesPerSecondPerCore']:6.0f} files/s/core, peak RSS MB {s['peakRSSMB']}, "
              f"JVM heap after GC max {s['heapAfterGCMaxMB']} MB, last {s['heapAfterGCLastMB']} MB "
              f"of {s['driverMemory']} ({s['collections']} collections) (load {s['load']:.1f})", flush=True)
    if len(sizes) >= 2:
        a, b = results["spark"][-2], results["spark"][-1]
        da, db = results["direct"][-2], results["direct"][-1]
        direct_per_file = (db["wall"] - da["wall"]) / (b["files"] - a["files"])
        spark_per_file = 2 * (b["wall"] - a["wall"]) / (b["files"] - a["files"])
        results["overheadPerFileMs"] = 1000 * (spark_per_file - direct_per_file)
        results["directPerFileMs"] = 1000 * direct_per_file
        print(f"per file at scale: direct {1000 * direct_per_file:.2f} ms of a core, through "
              f"Spark {1000 * spark_per_file:.2f} ms: Spark overhead "
              f"{results['overheadPerFileMs']:.2f} ms per file")
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
