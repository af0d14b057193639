#!/usr/bin/env python3
"""Every file of a catalogue re-rendered at another speed, with a Parquet table of the results.

    spark-submit stretch_job.py --list paths.txt --template '{dir}/{stem}.1_5x.m4a'
                                --speed 1.5 --out results.parquet [--mtool PATH]
                                [--files-per-partition N] [--timeout S] [--bitrate BPS]

Each partition of the list is piped through one `mtool stretch --files-from - --jsonl
--skip-existing` process (RDD.pipe). The outputs are written by mtool beside the inputs or
wherever the template says (a folder the executors share); each appears complete or not at
all, so running the job again after a failure or a cancel only does what is left (those rows
say "skipped"). One row per listed path: status written, skipped or failed, with mtool's error
and exit code for a failed file. No file failure fails the job.
"""

import argparse
import shlex

from pyspark import StorageLevel
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

# What `mtool stretch --files-from - --jsonl` prints per file.
RESULT = T.StructType([
    T.StructField("line", T.LongType()), T.StructField("status", T.StringType()),
    T.StructField("input", T.StringType()), T.StructField("output", T.StringType()),
    T.StructField("track", T.LongType()), T.StructField("inputDuration", T.DoubleType()),
    T.StructField("outputDuration", T.DoubleType()), T.StructField("inputFrames", T.LongType()),
    T.StructField("outputFrames", T.LongType()), T.StructField("speed", T.DoubleType()),
    T.StructField("channels", T.LongType()), T.StructField("sampleRate", T.LongType()),
    T.StructField("elapsed", T.DoubleType()), T.StructField("error", T.StringType()),
    T.StructField("exitCode", T.LongType()),
])
COLUMNS = {
    "input": "input", "output": "output", "status": "status", "track": "track",
    "input_duration": "inputDuration", "output_duration": "outputDuration",
    "input_frames": "inputFrames", "output_frames": "outputFrames", "speed": "speed",
    "channels": "channels", "sample_rate": "sampleRate", "seconds": "elapsed", "error": "error",
    "exit_code": "exitCode",
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--list", required=True, help="text file of input paths, one per line")
    parser.add_argument("--template", required=True, help="mtool --output-template")
    parser.add_argument("--speed", required=True, help="mtool --speed")
    parser.add_argument("--out", required=True, help="Parquet folder for the results table")
    parser.add_argument("--mtool", default="mtool", help="mtool as the executors find it")
    parser.add_argument("--files-per-partition", type=int, default=200)
    parser.add_argument("--timeout", type=float, default=30, help="mtool --timeout, seconds")
    parser.add_argument("--bitrate", help="mtool --bitrate, bits per second")
    args = parser.parse_args()

    spark = SparkSession.builder.appName("mtool-stretch").getOrCreate()
    sc = spark.sparkContext
    paths = sc.textFile(args.list).filter(lambda line: line != "")
    count = paths.count()
    partitions = max(sc.defaultParallelism, -(-count // args.files_per_partition))
    # Kept on the executors' disks, not in their heaps: each result is used several times (so
    # mtool runs once per file), and memory per executor stays flat however long the list.
    paths = paths.repartition(partitions).persist(StorageLevel.DISK_ONLY)
    command = [
        args.mtool, "stretch", "--files-from", "-", "--jsonl", "--skip-existing",
        "--output-template", args.template, "--speed", args.speed, "--timeout", str(args.timeout)]
    if args.bitrate:
        command += ["--bitrate", args.bitrate]
    results = spark.read.schema(RESULT).json(paths.pipe(shlex.join(command)))
    results = results.filter(F.col("input").isNotNull()).persist(StorageLevel.DISK_ONLY)
    results.count()  # stretches every file, once
    table = results.select(*[F.col(source).alias(name) for name, source in COLUMNS.items()])
    listed = spark.createDataFrame(paths.map(lambda p: (p,)), "input string")
    lost = listed.join(results.select("input"), "input", "left_anti").select(*[
        F.col("input") if name == "input"
        else F.lit("failed").alias(name) if name == "status"
        else F.lit("no result: mtool ended before this file").alias(name) if name == "error"
        else F.lit(None).cast(table.schema[name].dataType).alias(name)
        for name in COLUMNS])
    table.unionByName(lost).write.mode("overwrite").parquet(args.out)
    spark.stop()


if __name__ == "__main__":
    main()
