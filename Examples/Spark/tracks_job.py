#!/usr/bin/env python3
"""The audio and subtitle tracks of every file of a catalogue, as a Parquet table.

    spark-submit tracks_job.py --list paths.txt --out tracks.parquet [--mtool PATH]
                               [--files-per-partition N] [--timeout S]

The list holds one path per line (as the executors see them). Each partition of it is piped
through one `mtool tracks --files-from - --jsonl` process (RDD.pipe), whose JSON lines are read
with an explicit schema and flattened to one row per track. A file that cannot be read gives
one row with `error` and `exit_code` set and no track; a file with no track at all gives one
row with `track_type` null. A path that got no line (mtool ended early: killed, out of
memory) gets a row with `exit_code` null and an error saying so. No file failure fails the job.
"""

import argparse
import shlex

from pyspark import StorageLevel
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql import types as T

# What `mtool tracks --jsonl` prints per file (see the README's field table).
COMMON = [
    ("index", T.LongType()), ("codec", T.StringType()), ("ffmpegCodec", T.StringType()),
    ("codecTag", T.StringType()),
]
NAMING = [
    ("language", T.StringType()), ("languageTag", T.StringType()), ("title", T.StringType()),
]
TAIL = [
    ("dispositions", T.ArrayType(T.StringType())), ("kind", T.StringType()),
    ("label", T.StringType()),
]
AUDIO = T.StructType([T.StructField(n, t) for n, t in COMMON + [
    ("decodable", T.BooleanType()), ("encrypted", T.BooleanType()), ("profile", T.StringType()),
] + NAMING + [
    ("channels", T.LongType()), ("channelLayout", T.StringType()), ("sampleRate", T.LongType()),
    ("bitRate", T.LongType()), ("duration", T.DoubleType()),
] + TAIL])
SUBTITLE = T.StructType([T.StructField(n, t) for n, t in COMMON + NAMING + TAIL])
FILE = T.StructType([
    T.StructField("path", T.StringType()), T.StructField("format", T.StringType()),
    T.StructField("duration", T.DoubleType()), T.StructField("audio", T.ArrayType(AUDIO)),
    T.StructField("subtitles", T.ArrayType(SUBTITLE)),
    T.StructField("defaultAudio", T.LongType()), T.StructField("defaultSubtitle", T.LongType()),
    T.StructField("error", T.StringType()), T.StructField("line", T.LongType()),
    T.StructField("exitCode", T.LongType()),
])

# The table: one row per track (columns in this order).
TRACK_COLUMNS = [
    "path", "format", "file_duration", "track_type", "track_index", "codec", "ffmpeg_codec",
    "codec_tag", "language", "language_tag", "title", "kind", "label", "dispositions",
    "is_default", "channels", "channel_layout", "sample_rate", "bit_rate", "track_duration",
    "decodable", "encrypted", "error", "exit_code",
]


def track_rows(files, kind):
    """One row per track of `kind` ("audio" or "subtitle") of each file."""
    array, default = ("audio", "defaultAudio") if kind == "audio" else ("subtitles", "defaultSubtitle")
    t = F.col("t")
    audio = kind == "audio"

    def audio_only(field, spark_type):
        return t[field] if audio else F.lit(None).cast(spark_type)

    return files.select("*", F.explode(array).alias("t")).select(
        "path", "format", F.col("duration").alias("file_duration"),
        F.lit(kind).alias("track_type"), t["index"].alias("track_index"), t["codec"].alias("codec"),
        t["ffmpegCodec"].alias("ffmpeg_codec"), t["codecTag"].alias("codec_tag"),
        t["language"].alias("language"), t["languageTag"].alias("language_tag"),
        t["title"].alias("title"), t["kind"].alias("kind"), t["label"].alias("label"),
        t["dispositions"].alias("dispositions"),
        F.coalesce(t["index"] == F.col(default), F.lit(False)).alias("is_default"),
        audio_only("channels", "long").alias("channels"),
        audio_only("channelLayout", "string").alias("channel_layout"),
        audio_only("sampleRate", "long").alias("sample_rate"),
        audio_only("bitRate", "long").alias("bit_rate"),
        audio_only("duration", "double").alias("track_duration"),
        audio_only("decodable", "boolean").alias("decodable"),
        audio_only("encrypted", "boolean").alias("encrypted"),
        "error", F.col("exitCode").alias("exit_code"))


def trackless_rows(files):
    """One row for each file with no track: the failed ones (with their error) and the rest."""
    bare = files.filter((F.size("audio") <= 0) & (F.size("subtitles") <= 0))
    columns = {
        "path": F.col("path"), "format": F.col("format"), "file_duration": F.col("duration"),
        "error": F.col("error"), "exit_code": F.col("exitCode"),
    }
    return bare.select(*[
        columns[name].alias(name) if name in columns else F.lit(None).alias(name)
        for name in TRACK_COLUMNS])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--list", required=True, help="text file of paths, one per line")
    parser.add_argument("--out", required=True, help="Parquet folder to write")
    parser.add_argument("--mtool", default="mtool", help="mtool as the executors find it")
    parser.add_argument("--files-per-partition", type=int, default=2000)
    parser.add_argument("--timeout", type=float, default=30, help="mtool --timeout, seconds")
    args = parser.parse_args()

    spark = SparkSession.builder.appName("mtool-tracks").getOrCreate()
    sc = spark.sparkContext
    paths = sc.textFile(args.list).filter(lambda line: line != "")
    count = paths.count()
    partitions = max(sc.defaultParallelism, -(-count // args.files_per_partition))
    # Kept on the executors' disks, not in their heaps: each result is used several times (so
    # mtool runs once per file), and memory per executor stays flat however long the list.
    paths = paths.repartition(partitions).persist(StorageLevel.DISK_ONLY)
    # One mtool process per partition, one file at a time in it: Spark runs one task per core.
    command = shlex.join([
        args.mtool, "tracks", "--files-from", "-", "--jsonl", "--jobs", "1",
        "--timeout", str(args.timeout)])
    lines = paths.pipe(command)
    files = spark.read.schema(FILE).json(lines).filter(F.col("path").isNotNull())
    # Kept, so each file is probed once however many times the table below reads it.
    files = files.persist(StorageLevel.DISK_ONLY)
    files.count()

    empty = trackless_rows(files)
    table = track_rows(files, "audio").unionByName(track_rows(files, "subtitle"))
    table = table.unionByName(empty.select(*[
        F.col(c).cast(table.schema[c].dataType) for c in TRACK_COLUMNS]))
    # A listed path without a result line: mtool ended before it.
    listed = spark.createDataFrame(paths.map(lambda p: (p,)), "path string")
    lost = listed.join(files.select("path"), "path", "left_anti").select(*[
        F.col("path") if c == "path"
        else F.lit("no result: mtool ended before this file").alias(c) if c == "error"
        else F.lit(None).cast(table.schema[c].dataType).alias(c)
        for c in TRACK_COLUMNS])
    table.unionByName(lost).write.mode("overwrite").parquet(args.out)
    spark.stop()


if __name__ == "__main__":
    main()
