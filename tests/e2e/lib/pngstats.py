#!/usr/bin/env python3
"""pngstats.py FILE.png [RRGGBB]: width, height, distinct colours, non-white pixels and the
pixels of colour RRGGBB (0 without it) of an 8-bit PNG, decoded with zlib alone."""
import struct
import sys
import zlib

data = open(sys.argv[1], "rb").read()
want = bytes.fromhex(sys.argv[2]) if len(sys.argv) > 2 else None
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w, h, ct = 8, b"", 0, 0, 0
while pos < len(data):
    n, typ = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if typ == b"IHDR":
        w, h, depth, ct = struct.unpack(">IIBB", body[:10])
    elif typ == b"IDAT":
        idat += body
    pos += 12 + n
bpp = {2: 3, 6: 4, 0: 1, 4: 2}[ct]
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
colours, ink, hits = set(), 0, 0
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1:
            line[x] = (line[x] + a) & 255
        elif f == 2:
            line[x] = (line[x] + b) & 255
        elif f == 3:
            line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = line
    for x in range(0, stride, bpp):
        px = bytes(line[x:x + 3])
        colours.add(px)
        ink += px != b"\xff\xff\xff"
        hits += px == want
print(w, h, len(colours), ink, hits)
