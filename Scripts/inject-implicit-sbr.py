#!/usr/bin/env python3
"""Turns an AAC-LC ADTS stream into implicitly signalled HE-AAC.

Usage: inject-implicit-sbr.py IN.aac OUT.aac

Every ADTS frame gets a fill element (ID_FIL) carrying an SBR extension payload
(EXT_SBR_DATA, ISO/IEC 14496-3 4.4.2.7 and 4.5.2.8) with an SBR header, placed just before
the frame's ID_END. The ADTS header still states the core rate and the LC object type: only
a decoder that finds the SBR payload in the first frame knows the stream is HE-AAC, and then
gives twice the stated rate (and, for mono, two channels: implicit PS). That is what a header
reader alone gets wrong. The encoder that made IN.aac must end each raw data block with
ID_END followed by zero padding, as encoders do.
"""
import sys


class BitWriter:
    def __init__(self):
        self.bits = []

    def put(self, value, count):
        for shift in range(count - 1, -1, -1):
            self.bits.append((value >> shift) & 1)

    def to_bytes(self):
        bits = self.bits + [0] * ((-len(self.bits)) % 8)
        return bytes(
            int("".join(map(str, bits[at:at + 8])), 2) for at in range(0, len(bits), 8))


def sbr_fill_element():
    payload = BitWriter()
    payload.put(0xD, 4)  # extension_type: EXT_SBR_DATA
    payload.put(1, 1)  # bs_header_flag
    payload.put(1, 1)  # bs_amp_res
    payload.put(5, 4)  # bs_start_freq
    payload.put(9, 4)  # bs_stop_freq
    payload.put(0, 3)  # bs_xover_band
    payload.put(0, 2)  # bs_reserved
    payload.put(0, 1)  # bs_header_extra_1
    payload.put(0, 1)  # bs_header_extra_2
    return payload.to_bytes()


def main(source, target):
    data = open(source, "rb").read()
    out = bytearray()
    at = 0
    fill = sbr_fill_element()
    while at + 7 <= len(data):
        if data[at] != 0xFF or data[at + 1] & 0xF0 != 0xF0:
            sys.exit(f"{source}: no ADTS sync word at byte {at}")
        header_length = 7 if data[at + 1] & 1 else 9
        frame_length = ((data[at + 3] & 3) << 11) | (data[at + 4] << 3) | (data[at + 5] >> 5)
        bits = "".join(f"{byte:08b}" for byte in data[at + header_length:at + frame_length])
        last = bits.rfind("1")
        if last < 2 or bits[last - 2:last + 1] != "111":
            sys.exit(f"{source}: the frame at byte {at} does not end with ID_END")
        block = BitWriter()
        for bit in bits[:last - 2]:
            block.put(int(bit), 1)
        block.put(6, 3)  # ID_FIL
        block.put(len(fill), 4)  # count (below 15)
        for byte in fill:
            block.put(byte, 8)
        block.put(7, 3)  # ID_END
        body = block.to_bytes()
        header = bytearray(data[at:at + 7])
        header[1] |= 1  # protection_absent: the CRC of the original frame no longer holds
        length = 7 + len(body)
        header[3] = (header[3] & 0xFC) | ((length >> 11) & 3)
        header[4] = (length >> 3) & 0xFF
        header[5] = ((length & 7) << 5) | (header[5] & 0x1F)
        out += header + body
        at += frame_length
    open(target, "wb").write(out)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
