#!/usr/bin/env python3
"""sectors.py - what storage could save on a file cdm wrote (docs/method.md,
"Offsets and data"; the format is include/cdm/model/stamp.h).

    tests/tools/sectors.py [--xz] FILE
    tests/tools/sectors.py --sample START STEP FILE

Prints one line of key=value figures:

    sectors     512-byte sectors in FILE
    repeated    sectors that are a copy of an earlier sector (what
                deduplication in 512-byte units would not store)
    written     sectors whose stamp says a test's write wrote them (seq != 0),
                the rest being the preparation's
    misplaced   sectors whose stamp offset is not where the sector is
    gzip, zstd, xz
                compressed size / size in %: DEFLATE (gzip's, 32 KiB window);
                zstd --long with a window as large as the file, so a repeat
                anywhere in it is found, when the zstd command is installed;
                LZMA2 (xz's) over the first 8 MiB with a dictionary as large,
                when zstd is not installed or with --xz

With --sample, only the sector at START and every STEP bytes after it
(byte counts) is read, for a file too large to read whole (the 3 GiB
files of tests/slow/build.bats): sampled, written and misplaced as above.
"""
import hashlib
import lzma
import shutil
import struct
import subprocess
import sys
import zlib

SECTOR = 512
ZERO16 = bytes(16)
MASK64 = (1 << 64) - 1
XZ_MAX = 8 << 20        # xz is slow (about 5 MB/s on random data): a part


def stamp(s):
    """The (offset, seq) of sector s, decoded as stamp.h says."""
    # E and O: the XOR of the 16-byte pairs (w2, w3) .. (w62, w63),
    # folded as one 4096-bit number (the stamp's own pair zeroed)
    v = int.from_bytes(ZERO16 + s[16:], "little")
    for half in (2048, 1024, 512, 256, 128):
        v = (v & ((1 << half) - 1)) ^ (v >> half)
    off, seq = struct.unpack_from("<QQ", s)
    return off ^ (v & MASK64), seq ^ (v >> 64)


def sample(path, start, step):
    n = written = misplaced = 0
    with open(path, "rb") as f:
        size = f.seek(0, 2)
        for at in range(start, size - SECTOR + 1, step):
            f.seek(at)
            off, seq = stamp(f.read(SECTOR))
            n += 1
            misplaced += off != at
            written += seq != 0
    print("sampled=%d written=%d misplaced=%d" % (n, written, misplaced))


def main():
    path = sys.argv[-1]
    if sys.argv[1] == "--sample":
        sample(path, int(sys.argv[2]), int(sys.argv[3]))
        return
    with open(path, "rb") as f:
        data = f.read()
    n = len(data) // SECTOR
    seen = set()
    repeated = written = misplaced = 0
    for i in range(n):
        s = data[i * SECTOR:(i + 1) * SECTOR]
        h = hashlib.blake2b(s, digest_size=16).digest()
        if h in seen:
            repeated += 1
        seen.add(h)
        off, seq = stamp(s)
        if off != i * SECTOR:
            misplaced += 1
        if seq:
            written += 1
    out = {
        "sectors": n, "repeated": repeated, "written": written, "misplaced": misplaced,
        "gzip": "%.2f" % (100.0 * len(zlib.compress(data, 6)) / len(data)),
    }
    if shutil.which("zstd"):
        wlog = max(20, min(30, (len(data) - 1).bit_length()))
        z = subprocess.run(["zstd", "-q", "-c", "-3", "--long=%d" % wlog, path],
                           stdout=subprocess.PIPE, check=True).stdout
        out["zstd"] = "%.2f" % (100.0 * len(z) / len(data))
    if "zstd" not in out or "--xz" in sys.argv:
        part = data[:XZ_MAX]
        xz = lzma.compress(part, format=lzma.FORMAT_XZ, filters=[
            {"id": lzma.FILTER_LZMA2, "preset": 0, "dict_size": max(1 << 20, len(part))}])
        out["xz"] = "%.2f" % (100.0 * len(xz) / len(part))
    print(" ".join("%s=%s" % kv for kv in out.items()))


if __name__ == "__main__":
    main()
