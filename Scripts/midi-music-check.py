#!/usr/bin/env python3
"""Stretchers on music played by real instrument samples, against an ideal played at the speed.

A check beside StretchQuality's music mix, whose instruments are synthesised from a score:
here a few short songs are written as MIDI (piano, strings, guitar, organ, bass, flute and a
General MIDI drum kit, chosen by a seeded random progression), rendered by TiMidity++ with the
FluidR3 General MIDI sound font (sampled instruments, with its reverb), once as written and once
at each speed with the tempo changed (the ideal: every note where it belongs, at its pitch).
The rendering as written is stretched by mtool (standard and fine), Rubber Band R3, Chrome's
WSOLA (scaletempo2, through mpv), SoundTouch and FFmpeg's atempo, and each output's spectral
convergence against the ideal is printed (mono, 2,048-point Hann frames 512 apart, magnitudes;
each output aligned by the shift within 50 ms that suits it best, so latency is not counted).

An ideal rendered from the score stretches the notes but not the instruments' own attacks and
decays, which every stretcher does: all of them pay for it alike.

usage: Scripts/midi-music-check.py MTOOL [--songs N] [--seconds S] [--keep DIR] [--tools A,B]
needs: timidity, fluid-soundfont-gm, rubberband-cli, mpv, soundstretch, ffmpeg, numpy
"""

import argparse
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np

RATE = 44100
SPEEDS = [0.5, 1.5, 2.0, 3.0]
SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"


def var_len(n):
    out = [n & 0x7F]
    n >>= 7
    while n:
        out.append(0x80 | (n & 0x7F))
        n >>= 7
    return bytes(reversed(out))


def midi_file(events, tempo_us):
    """A format-0 MIDI file from (tick, bytes) events, 480 ticks per quarter."""
    events = sorted(events, key=lambda e: (e[0], e[1][0] & 0xF0 == 0x90))
    body = b"\x00\xff\x51\x03" + struct.pack(">I", tempo_us)[1:]
    last = 0
    for tick, data in events:
        body += var_len(tick - last) + data
        last = tick
    body += b"\x00\xff\x2f\x00"
    return b"MThd" + struct.pack(">IHHH", 6, 0, 1, 480) + b"MTrk" + struct.pack(">I", len(body)) + body


def song(seed, seconds):
    """Events of one song: a chord progression on a pad or keyboard, a bass line, a melody or
    arpeggio, and drums, at 100 to 130 beats per minute."""
    rng = random.Random(seed)
    bpm = rng.choice([100, 110, 120, 130])
    beats = int(seconds * bpm / 60)
    keys = rng.choice([0, 2, 5, 7, 9])
    chords_lib = [[0, 4, 7], [9, -3, 4], [5, 9, 12], [7, 11, 14], [2, 5, 9], [4, 7, 11]]
    programs = rng.sample([0, 4, 19, 24, 48, 52, 16, 73, 56], 3)  # keys, pad, lead
    events = [(0, bytes([0xC0 | ch, p])) for ch, p in enumerate(programs)]
    events.append((0, bytes([0xC3, rng.choice([32, 33, 34])])))  # bass
    t = 480
    for bar in range(0, beats, 4):
        root = 48 + keys + rng.choice([0, 0, 5, 7, -3])
        chord = rng.choice(chords_lib)
        for n in chord:  # sustained chord, a bar long
            events.append((bar * t, bytes([0x90, root + 12 + n, 70])))
            events.append(((bar + 4) * t - 20, bytes([0x80, root + 12 + n, 0])))
        for b in range(4):  # bass on the beat
            note = root - 12 + (0 if b % 2 == 0 else 7)
            events.append(((bar + b) * t, bytes([0x93, note, 90])))
            events.append(((bar + b) * t + 400, bytes([0x83, note, 0])))
        for e in range(8):  # lead: eighths from the chord, some rests
            if rng.random() < 0.25:
                continue
            note = root + 24 + rng.choice(chord) + rng.choice([0, 0, 12])
            events.append(((bar * 2 + e) * t // 2, bytes([0x92, note, 80])))
            events.append(((bar * 2 + e + 1) * t // 2 - 30, bytes([0x82, note, 0])))
        for b in range(4):  # drums: kick, snare, hi-hat
            events.append(((bar + b) * t, bytes([0x99, 36 if b % 2 == 0 else 38, 100])))
            events.append(((bar + b) * t + 100, bytes([0x89, 36 if b % 2 == 0 else 38, 0])))
            for h in range(2):
                tick = (bar + b) * t + h * t // 2
                events.append((tick, bytes([0x99, 42, 60])))
                events.append((tick + 60, bytes([0x89, 42, 0])))
    return events, 60_000_000 // bpm


def render(mid, wav):
    subprocess.run(
        ["timidity", "-x", f"soundfont {SOUNDFONT}", "-Ow", "-o", wav, "-s", str(RATE),
         "--output-mono", "-A100", mid],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def read_wav(path):
    data = open(path, "rb").read()
    pos = 12
    fmt = None
    while pos + 8 <= len(data):
        cid, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        body = data[pos + 8:pos + 8 + size]
        if cid == b"fmt ":
            fmt = struct.unpack("<HHIIHH", body[:16])
        if cid == b"data":
            tag, ch, _, _, _, bits = fmt
            if tag == 3 or (tag == 0xFFFE and bits == 32 and body and False):
                x = np.frombuffer(body[:len(body) // 4 * 4], dtype="<f4").astype(float)
            elif bits == 32 and tag == 0xFFFE:
                x = np.frombuffer(body[:len(body) // 4 * 4], dtype="<f4").astype(float)
            elif bits == 16:
                x = np.frombuffer(body[:len(body) // 2 * 2], dtype="<i2") / 32768.0
            else:
                x = np.frombuffer(body[:len(body) // 4 * 4], dtype="<f4").astype(float)
            return x.reshape(-1, ch).mean(axis=1)
        pos += 8 + size + (size & 1)
    raise ValueError(f"no data in {path}")


def spectra(x):
    n, hop = 2048, 512
    w = np.hanning(n + 1)[:n]
    frames = [x[i:i + n] * w for i in range(0, len(x) - n + 1, hop)]
    return np.abs(np.fft.rfft(np.array(frames), axis=1)) if frames else np.zeros((0, n // 2 + 1))


def convergence(out, ideal):
    """Spectral convergence at the best shift of `out` within 50 ms (in 64-frame steps, then
    single frames around the best)."""
    b = spectra(ideal)
    den = np.sum(b * b)

    def at(shift):
        o = out[shift:] if shift >= 0 else np.concatenate([np.zeros(-shift), out])
        o = np.concatenate([o, np.zeros(max(0, len(ideal) - len(o)))])[:len(ideal)]
        a = spectra(o)
        return float(np.sqrt(np.sum((a - b) ** 2) / den))

    reach = int(0.05 * RATE)
    coarse = min(range(-reach, reach + 1, 64), key=at)
    return min(at(s) for s in range(coarse - 64, coarse + 65, 4))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mtool")
    parser.add_argument("--songs", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--keep")
    parser.add_argument("--tools", help="comma-separated names to run (default: all)")
    args = parser.parse_args()
    for tool in ["timidity", "rubberband", "mpv", "soundstretch", "ffmpeg"]:
        if not shutil.which(tool):
            sys.exit(f"midi-music-check: {tool} is missing")
    if not os.path.exists(SOUNDFONT):
        sys.exit(f"midi-music-check: {SOUNDFONT} is missing (fluid-soundfont-gm)")
    temp = args.keep or tempfile.mkdtemp(prefix="midi-music-")
    os.makedirs(temp, exist_ok=True)
    tools = {
        "mtool": lambda i, o, s: [args.mtool, "stretch", i, o, "--speed", str(s)],
        "mtool fine": lambda i, o, s: [args.mtool, "stretch", i, o, "--speed", str(s), "--quality", "fine"],
        "Rubber Band R3": lambda i, o, s: ["rubberband", "-q", "--fine", f"-T{s}", i, o],
        "scaletempo2": lambda i, o, s: [
            "mpv", "--no-config", "--really-quiet", "--vo=null", "--no-video", "--ao=pcm",
            f"--ao-pcm-file={o}", "--ao-pcm-waveheader=yes", "--audio-format=float",
            f"--audio-samplerate={RATE}", "--af=scaletempo2", f"--speed={s}", i],
        "SoundTouch": lambda i, o, s: ["soundstretch", i, o, f"-tempo={(s - 1) * 100:.4f}"],
        "ffmpeg atempo": lambda i, o, s: [
            "ffmpeg", "-v", "error", "-y", "-i", i, "-af", f"atempo={s}", "-c:a", "pcm_f32le", o],
    }
    if args.tools:
        wanted = args.tools.split(",")
        tools = {name: c for name, c in tools.items() if name in wanted}
    totals = {name: {s: [] for s in SPEEDS} for name in tools}
    for k in range(args.songs):
        events, tempo = song(1000 + k, args.seconds)
        src = f"{temp}/song{k}.wav"
        open(f"{temp}/song{k}.mid", "wb").write(midi_file(events, tempo))
        render(f"{temp}/song{k}.mid", src)
        for s in SPEEDS:
            ideal_path = f"{temp}/song{k}-ideal-{s}.wav"
            open(f"{temp}/song{k}-{s}.mid", "wb").write(midi_file(events, int(round(tempo / s))))
            render(f"{temp}/song{k}-{s}.mid", ideal_path)
            ideal = read_wav(ideal_path)
            expected = len(read_wav(src)) / s
            ideal = ideal[:int(expected)]
            for name, command in tools.items():
                out = f"{temp}/song{k}-{name.replace(' ', '_')}-{s}.wav"
                subprocess.run(command(src, out, s), check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                totals[name][s].append(convergence(read_wav(out), ideal))
    print(f"Spectral convergence against the ideal, mean of {args.songs} songs "
          f"({args.seconds:g} s each; lower is better)")
    print("tool".ljust(16) + "".join(f"{s:>9}x" for s in SPEEDS))
    for name in tools:
        print(name.ljust(16) + "".join(f"{np.mean(totals[name][s]):10.3f}" for s in SPEEDS))
    for name in ["mtool", "mtool fine"]:
        if name not in tools or "Rubber Band R3" not in tools or "scaletempo2" not in tools:
            continue
        wins = [s for s in SPEEDS
                if np.mean(totals[name][s]) < min(np.mean(totals["Rubber Band R3"][s]),
                                                  np.mean(totals["scaletempo2"][s]))]
        print(f"{name}: below both Rubber Band R3 and scaletempo2 at "
              + (", ".join(f"{s}x" for s in wins) or "no speed"))
    if not args.keep:
        shutil.rmtree(temp)


if __name__ == "__main__":
    main()
