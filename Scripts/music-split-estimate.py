#!/usr/bin/env python3
"""What a band-split stretcher would score on StretchQuality's music mix, before building one.

The music mix (chords over a bass, a kick, hi-hats and a reverberant cloud of partials) is
where our splicing stretcher trails Rubber Band R3 and, at 2x and 3x, scaletempo2. This script
measures, offline and against the same ideal, how far a different design would get: the band
below a crossover stretched by a phase-locked phase vocoder (2048-frame Hann windows, 256-frame
synthesis hop, the phases of the bins around each spectral peak locked to the peak's), the band
above it by mtool itself, with its similarity search still seeing the whole signal (the two
bands go in as a stereo pair, whose channel sum the search follows, and the upper band's
channel is taken from the output).

Input: folders written by `StretchQuality --audio-out DIR` (optionally with --music-variant N
for another mix), holding
music-{0.5,1.5,2,3}x-{input,ideal,mtool--ours-}.wav. For each folder and speed it prints the
spectral convergence and log-spectral distance (the benchmark's definitions: 2048-frame Hann
frames 512 apart, no time shift, as for our output, whose clicks land on time) of ours, of the
vocoder on the whole band, and of the band-split estimate; then each one's share of the
squared spectral convergence by octave band. The peers' figures are the benchmark's own table
(it takes out each peer's delay, measured on its click train, which these files do not hold).

    python3 Scripts/music-split-estimate.py --mtool .build/release/mtool DIR [DIR ...]
        [--crossover HZ]

Needs numpy only. Nothing here is part of mtool: it is a measurement to decide what to build.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

SPEEDS = ("0.5", "1.5", "2.0", "3.0")
FRAME = 2048
STEP = 512
OCTAVES = ((0, 70), (70, 140), (140, 280), (280, 560), (560, 1120), (1120, 4000), (4000, 1e9))


def read_wav(path, channel=0):
    """One channel of a 16-bit PCM or 32-bit float WAV file as float64, and its rate."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise ValueError("%s: not a RIFF/WAVE file" % path)
    pos, fmt = 12, None
    while pos + 8 <= len(data):
        name, size = data[pos:pos + 4], int.from_bytes(data[pos + 4:pos + 8], "little")
        body = data[pos + 8:pos + 8 + size]
        if name == b"fmt ":
            tag = int.from_bytes(body[0:2], "little")
            if tag == 0xFFFE and len(body) >= 26:
                tag = int.from_bytes(body[24:26], "little")
            fmt = (tag, int.from_bytes(body[2:4], "little"), int.from_bytes(body[4:8], "little"),
                   int.from_bytes(body[14:16], "little"))
        elif name == b"data" and fmt is not None:
            tag, channels, rate, bits = fmt
            if (tag, bits) == (3, 32):
                x = np.frombuffer(body[:len(body) // 4 * 4], dtype="<f4").astype(np.float64)
            elif (tag, bits) == (1, 16):
                x = np.frombuffer(body[:len(body) // 2 * 2], dtype="<i2") / 32768.0
            else:
                raise ValueError("%s: format %d with %d bits" % (path, tag, bits))
            frames = len(x) // channels
            return x[:frames * channels].reshape(frames, channels)[:, channel], rate
        pos += 8 + size + (size & 1)
    raise ValueError("%s: no data chunk" % path)


def write_float_wav(path, channels, rate):
    """Interleaved 32-bit float WAV of equal-length channels."""
    x = np.stack(channels, 1).astype("<f4")
    data = x.tobytes()
    n = len(channels)
    fmt = (3).to_bytes(2, "little") + n.to_bytes(2, "little") + rate.to_bytes(4, "little") \
        + (rate * 4 * n).to_bytes(4, "little") + (4 * n).to_bytes(2, "little") \
        + (32).to_bytes(2, "little")
    with open(path, "wb") as handle:
        handle.write(b"RIFF" + (4 + 8 + len(fmt) + 8 + len(data)).to_bytes(4, "little") + b"WAVE")
        handle.write(b"fmt " + len(fmt).to_bytes(4, "little") + fmt)
        handle.write(b"data" + len(data).to_bytes(4, "little") + data)


def fit(x, n):
    return np.pad(x, (0, max(0, n - len(x))))[:n]


def magnitudes(x):
    window = np.hanning(FRAME + 1)[:-1]
    starts = range(0, len(x) - FRAME + 1, STEP)
    return np.array([np.abs(np.fft.rfft(x[i:i + FRAME] * window)) for i in starts])


def measures(output, ideal, rate):
    """Spectral convergence, log-spectral distance (dB) and each octave band's share of the
    squared convergence."""
    a = magnitudes(fit(output, len(ideal)))
    b = magnitudes(ideal)
    den = (b ** 2).sum()
    sc = np.sqrt(((a - b) ** 2).sum() / den)
    floor = max((b ** 2).max() * 1e-8, 1e-30)
    d = 10 * np.log10(np.maximum(a ** 2, floor) / np.maximum(b ** 2, floor))
    lsd = np.mean(np.sqrt(np.mean(d * d, axis=1)))
    f = np.fft.rfftfreq(FRAME, 1 / rate)
    shares = [((a - b) ** 2)[:, (f >= lo) & (f < hi)].sum() / den for lo, hi in OCTAVES]
    return sc, lsd, shares


def vocoder(x, speed, size=FRAME, hop=256):
    """Phase-locked phase vocoder: analysis hop `hop`·speed, synthesis hop `hop`; each bin takes
    the phase advance of the spectral peak whose region it is in (identity phase locking)."""
    window = np.hanning(size + 1)[:-1]
    padded = np.concatenate([np.zeros(size), x, np.zeros(2 * size)])
    out_len = int((len(x) + 3 * size) / speed) + 2 * size
    y = np.zeros(out_len)
    norm = np.zeros(out_len)
    omega = 2 * np.pi * np.arange(size // 2 + 1) / size
    analysis_hop = hop * speed
    previous = None
    m = 0
    while True:
        at = int(round(m * analysis_hop))
        if at + size > len(padded) or m * hop + size > out_len:
            break
        spectrum = np.fft.rfft(padded[at:at + size] * window)
        mag, phase = np.abs(spectrum), np.angle(spectrum)
        if previous is None:
            synth = phase.copy()
        else:
            last_at, last_phase, last_synth = previous
            step = at - last_at
            deviation = phase - last_phase - omega * step
            deviation = (deviation + np.pi) % (2 * np.pi) - np.pi
            advanced = last_synth + (omega + deviation / step) * hop
            peaks = np.where((mag[1:-1] > mag[:-2]) & (mag[1:-1] >= mag[2:]))[0] + 1
            if len(peaks) == 0:
                synth = advanced
            else:
                synth = np.empty_like(phase)
                bounds = np.concatenate([[0], (peaks[:-1] + peaks[1:]) // 2 + 1, [len(mag)]])
                for k, p in enumerate(peaks):
                    lo, hi = bounds[k], bounds[k + 1]
                    synth[lo:hi] = advanced[p] + phase[lo:hi] - phase[p]
        previous = (at, phase, synth)
        frame = np.fft.irfft(mag * np.exp(1j * synth)) * window
        y[m * hop:m * hop + size] += frame
        norm[m * hop:m * hop + size] += window * window
        m += 1
    y /= np.maximum(norm, 1e-3 * norm.max())
    # Input frame 0 sits at padded frame `size`, the centre of analysis frame size/(2·ha), whose
    # synthesis centre is that many hops plus size/2 into the output.
    start = int(round(size / (2 * analysis_hop) * hop + size / 2))
    return y[start:start + int(round(len(x) / speed))]


def split(x, rate, crossover):
    """Zero-phase complementary split: below and above `crossover` (Hz), a raised-cosine
    transition over the octave around it; the two add up to `x` exactly."""
    f = np.fft.rfftfreq(len(x), 1 / rate)
    position = np.clip((np.log2(np.maximum(f, 1e-9) / crossover) + 0.5), 0, 1)
    gain = 0.5 + 0.5 * np.cos(np.pi * position)
    low = np.fft.irfft(np.fft.rfft(x) * gain, len(x))
    return low, x - low


def band_split(x, rate, speed, crossover, mtool, folder):
    low, high = split(x, rate, crossover)
    n = int(round(len(x) / speed))
    source = os.path.join(folder, "pair.wav")
    target = os.path.join(folder, "pair-out.wav")
    write_float_wav(source, [low, high], rate)
    subprocess.run([mtool, "stretch", source, target, "--speed", str(speed)], check=True,
                   capture_output=True)
    upper, _ = read_wav(target, channel=1)
    return fit(vocoder(low, speed), n) + fit(upper, n)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="+")
    parser.add_argument("--mtool", required=True)
    parser.add_argument("--crossover", type=float, default=1200.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        for folder in args.folders:
            print("== %s (crossover %.0f Hz)" % (folder, args.crossover))
            shares = {}
            for speed in SPEEDS:
                prefix = os.path.join(folder, "music-%sx-" % speed)
                try:
                    ideal, rate = read_wav(prefix + "ideal.wav")
                    x, _ = read_wav(prefix + "input.wav")
                except (OSError, ValueError) as error:
                    print("  %sx: %s" % (speed, error), file=sys.stderr)
                    continue
                row = []
                estimate = band_split(x, rate, float(speed), args.crossover, args.mtool, scratch)
                for who, output in (("ours", read_wav(prefix + "mtool--ours-.wav")[0]),
                                    ("vocoder", vocoder(x, float(speed))),
                                    ("band-split", estimate)):
                    sc, lsd, share = measures(output, ideal, rate)
                    row.append("%s %.3f/%.2f" % (who, sc, lsd))
                    shares.setdefault(who, []).append((speed, share))
                print("  %sx SC/LSD: %s" % (speed, ", ".join(row)))
            print("  share of SC^2 by band (Hz: %s)" % " ".join(
                "%d-%d" % (lo, hi) if hi < 1e9 else "%d-" % lo for lo, hi in OCTAVES))
            for who, rows in shares.items():
                for speed, share in rows:
                    print("    %-10s %sx %s" % (who, speed,
                                                " ".join("%.4f" % s for s in share)))


if __name__ == "__main__":
    main()
