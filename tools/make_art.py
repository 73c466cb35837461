#!/usr/bin/env python3
"""Generate every image and sound of Slope Bros.

All art, audio and the pixel font in assets/images, assets/audio and
assets/fonts are drawn / synthesised by this script from scratch (no external
inputs), using only the Python 3 standard library.  Output is deterministic:
running it twice produces byte-identical files.

    python3 tools/make_art.py                  # regenerate everything
    python3 tools/make_art.py --preview P.png  # also write a 4x contact sheet
    python3 tools/make_art.py --only images    # or: --only audio, --only fonts
    python3 tools/make_art.py --check          # writes nothing; fails if assets/ differs (CI)

Images are RGBA8 PNGs (non-interlaced); every pixel has alpha 0 or 255.
Sounds are 22050 Hz mono 16-bit PCM WAVs.  The font is a TrueType file whose
glyphs are pixel bitmaps turned into square outlines.
"""

import math
import os
import random
import struct
import sys
import wave
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMG_DIR = os.path.join(ROOT, "assets", "images")
AUD_DIR = os.path.join(ROOT, "assets", "audio")

CLEAR = (0, 0, 0, 0)


# ---------------------------------------------------------------------------
# Image basics
# ---------------------------------------------------------------------------


def rgba(c):
    return c if len(c) == 4 else (c[0], c[1], c[2], 255)


class Img:
    def __init__(self, w, h, fill=CLEAR):
        self.w, self.h = w, h
        self.px = [rgba(fill)] * (w * h)

    def get(self, x, y):
        if 0 <= x < self.w and 0 <= y < self.h:
            return self.px[y * self.w + x]
        return CLEAR

    def set(self, x, y, c):
        if 0 <= x < self.w and 0 <= y < self.h:
            self.px[y * self.w + x] = rgba(c)

    def op(self, x, y):
        return self.get(x, y)[3] > 0

    def rect(self, x, y, w, h, c):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                self.set(xx, yy, c)

    def paste(self, src, dx, dy):
        for y in range(src.h):
            for x in range(src.w):
                self.set(dx + x, dy + y, src.px[y * src.w + x])

    def blit(self, src, dx, dy):
        for y in range(src.h):
            for x in range(src.w):
                c = src.px[y * src.w + x]
                if c[3]:
                    self.set(dx + x, dy + y, c)

    def copy(self):
        n = Img(self.w, self.h)
        n.px = list(self.px)
        return n

    def flip_h(self):
        n = Img(self.w, self.h)
        for y in range(self.h):
            for x in range(self.w):
                n.px[y * self.w + x] = self.px[y * self.w + (self.w - 1 - x)]
        return n

    def rot90(self):
        """Rotate a square image 90 degrees clockwise."""
        assert self.w == self.h
        n = self.w
        out = Img(n, n)
        for y in range(n):
            for x in range(n):
                out.px[y * n + x] = self.px[(n - 1 - x) * n + y]
        return out

    def crop(self, x0, y0, w, h):
        n = Img(w, h)
        for y in range(h):
            for x in range(w):
                n.px[y * w + x] = self.get(x0 + x, y0 + y)
        return n

    def shift(self, dx, dy):
        n = Img(self.w, self.h)
        n.blit(self, dx, dy)
        return n

    def scaled(self, kx, ky=None):
        ky = ky or kx
        n = Img(self.w * kx, self.h * ky)
        for y in range(n.h):
            for x in range(n.w):
                n.px[y * n.w + x] = self.px[(y // ky) * self.w + (x // kx)]
        return n

def add_outline(img, color):
    """Give every transparent pixel 4-adjacent to an opaque one the outline colour."""
    out = img.copy()
    nb = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    for y in range(img.h):
        for x in range(img.w):
            if img.op(x, y):
                continue
            for dx, dy in nb:
                if img.op(x + dx, y + dy):
                    out.set(x, y, color)
                    break
    return out


def hstrip(frames):
    w = sum(f.w for f in frames)
    h = max(f.h for f in frames)
    img = Img(w, h)
    x = 0
    for f in frames:
        img.paste(f, x, 0)
        x += f.w
    return img


def mix(a, b, t):
    return tuple(int(round(a[i] + (b[i] - a[i]) * t)) for i in range(3))


def mul(c, f):
    return tuple(max(0, min(255, int(round(v * f)))) for v in c[:3])


BAYER4 = [[0, 8, 2, 10], [12, 4, 14, 6], [3, 11, 1, 9], [15, 7, 13, 5]]


def dither_pick(colors, t, x, y):
    """Ordered-dither a position t in [0,1] along a list of colours."""
    t = max(0.0, min(1.0, t)) * (len(colors) - 1)
    i = int(t)
    if i >= len(colors) - 1:
        return colors[-1]
    f = t - i
    return colors[i + 1] if f * 16 > BAYER4[y & 3][x & 3] + 0.5 else colors[i]


# ---------------------------------------------------------------------------
# PNG writer / reader
# ---------------------------------------------------------------------------


def _chunk(tag, data):
    c = struct.pack(">I", len(data)) + tag + data
    return c + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)


def png_bytes(img):
    for c in img.px:
        assert c[3] in (0, 255), "alpha must be 0 or 255"
    raw = bytearray()
    stride = img.w * 4
    prev = bytearray(stride)
    for y in range(img.h):
        row = bytearray()
        for x in range(img.w):
            c = img.px[y * img.w + x]
            row.extend(c if c[3] else CLEAR)
        # adaptive filter choice among None / Sub / Up (deterministic)
        sub = bytearray((row[i] - (row[i - 4] if i >= 4 else 0)) & 255 for i in range(stride))
        up = bytearray((row[i] - prev[i]) & 255 for i in range(stride))

        def cost(b):
            return sum(v if v < 128 else 256 - v for v in b)

        best = min(((cost(row), 0, row), (cost(sub), 1, sub), (cost(up), 2, up)), key=lambda t: (t[0], t[1]))
        raw.append(best[1])
        raw.extend(best[2])
        prev = row
    ihdr = struct.pack(">IIBBBBB", img.w, img.h, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", ihdr)
        + _chunk(b"IDAT", zlib.compress(bytes(raw), 9))
        + _chunk(b"IEND", b"")
    )


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(33)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    assert head[12:16] == b"IHDR", path
    w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", head[16:29])
    assert depth == 8 and ctype == 6 and interlace == 0, path
    return w, h


def png_read(path):
    """Minimal reader for the PNGs this script writes (RGBA8, filters 0-4)."""
    with open(path, "rb") as f:
        data = f.read()
    pos = 8
    idat = b""
    w = h = 0
    while pos < len(data):
        (ln,) = struct.unpack(">I", data[pos : pos + 4])
        tag = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + ln]
        if tag == b"IHDR":
            w, h = struct.unpack(">II", body[:8])
        elif tag == b"IDAT":
            idat += body
        pos += 12 + ln
    raw = zlib.decompress(idat)
    stride = w * 4
    rows = []
    prev = bytearray(stride)
    p = 0
    for _ in range(h):
        ft = raw[p]
        line = bytearray(raw[p + 1 : p + 1 + stride])
        p += 1 + stride
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        rows.append(line)
        prev = line
    img = Img(w, h)
    for y in range(h):
        for x in range(w):
            img.px[y * w + x] = tuple(rows[y][x * 4 : x * 4 + 4])
    return img


# ---------------------------------------------------------------------------
# ASCII sprites
# ---------------------------------------------------------------------------

OUT = (26, 18, 40)  # the universal dark outline

PAL = {
    "K": OUT,
    "W": (252, 252, 252),
    "w": (184, 192, 216),
    # hero
    "O": (244, 132, 48),  # fox fur
    "o": (180, 76, 28),
    "P": (252, 170, 176),  # inner ear
    "F": (255, 240, 214),  # tail tip
    "Y": (252, 208, 56),  # cap
    "H": (255, 246, 170),
    "y": (212, 140, 20),
    "S": (252, 200, 156),  # skin
    "s": (222, 142, 100),
    "N": (236, 104, 92),  # round nose
    "T": (28, 180, 170),  # teal jumpsuit
    "t": (10, 116, 124),
    "L": (128, 232, 212),
    "B": (150, 80, 40),  # boots
    "b": (98, 46, 26),
}


def sprite(rows, pal=None, outline=OUT, w=None, h=None):
    p = dict(PAL)
    if pal:
        p.update(pal)
    h = h or len(rows)
    w = w or max(len(r) for r in rows)
    img = Img(w, h)
    for y, r in enumerate(rows):
        for x, ch in enumerate(r):
            if ch in ". ":
                continue
            img.set(x, y, p[ch])
    if outline:
        img = add_outline(img, outline)
    return img


def bottom_align(img):
    """Shift content down so its lowest opaque pixel is on the last row."""
    low = -1
    for y in range(img.h):
        for x in range(img.w):
            if img.op(x, y):
                low = y
    return img.shift(0, img.h - 1 - low) if low >= 0 else img


# ---------------------------------------------------------------------------
# Tiles
# ---------------------------------------------------------------------------

GOLD_Q = dict(out=(92, 44, 12), hl=(255, 238, 150), mid=(250, 184, 44), dark=(204, 110, 20), glyph=(255, 252, 236))

THEMES = [
    dict(
        name="overworld",
        surf="grass",
        top=dict(out=(22, 78, 30), hl=(164, 236, 96), mid=(88, 196, 60), dark=(40, 140, 46)),
        fill=dict(out=(70, 34, 22), hl=(232, 164, 100), mid=(196, 116, 62), dark=(150, 78, 42), deep=(112, 54, 32)),
        stone=dict(out=(70, 50, 40), hl=(246, 236, 214), mid=(210, 194, 166), dark=(150, 130, 108)),
        brick=dict(out=(60, 22, 14), hl=(252, 160, 104), mid=(212, 92, 46), dark=(150, 54, 30), mortar=(72, 26, 18)),
        q=GOLD_Q,
        used=dict(out=(66, 40, 24), hl=(206, 158, 114), mid=(164, 112, 74), dark=(116, 74, 48)),
        plat=dict(out=(74, 40, 22), hl=(246, 198, 124), mid=(206, 142, 76), dark=(150, 90, 48)),
        lift=dict(out=(82, 38, 14), hl=(255, 214, 120), mid=(234, 150, 54), dark=(170, 86, 30)),
        hard=dict(out=(74, 40, 24), hl=(252, 222, 180), mid=(216, 160, 110), dark=(160, 100, 62)),
    ),
    dict(
        name="underground",
        surf="rock",
        top=dict(out=(18, 22, 48), hl=(172, 190, 222), mid=(118, 136, 178), dark=(76, 90, 132)),
        fill=dict(out=(18, 22, 48), hl=(102, 114, 156), mid=(70, 80, 120), dark=(50, 58, 92), deep=(34, 38, 66)),
        stone=dict(out=(20, 24, 54), hl=(180, 200, 230), mid=(122, 142, 184), dark=(78, 94, 136)),
        brick=dict(out=(10, 26, 50), hl=(124, 198, 226), mid=(48, 138, 180), dark=(26, 90, 132), mortar=(14, 44, 78)),
        q=GOLD_Q,
        used=dict(out=(26, 26, 48), hl=(146, 146, 168), mid=(104, 104, 128), dark=(70, 70, 94)),
        plat=dict(out=(20, 24, 54), hl=(164, 180, 212), mid=(112, 126, 166), dark=(72, 82, 122)),
        lift=dict(out=(30, 34, 60), hl=(224, 232, 244), mid=(152, 166, 192), dark=(98, 110, 140)),
        hard=dict(out=(18, 22, 48), hl=(154, 174, 214), mid=(98, 118, 164), dark=(60, 74, 114)),
    ),
    dict(
        name="sky",
        surf="cloud",
        top=dict(out=(110, 126, 204), hl=(255, 255, 255), mid=(238, 242, 255), dark=(196, 208, 248)),
        fill=dict(out=(110, 126, 204), hl=(240, 244, 255), mid=(218, 226, 252), dark=(194, 202, 244), deep=(176, 184, 236)),
        stone=dict(out=(94, 78, 160), hl=(250, 236, 255), mid=(218, 198, 246), dark=(168, 148, 218)),
        brick=dict(out=(116, 52, 102), hl=(255, 214, 228), mid=(244, 162, 196), dark=(204, 116, 160), mortar=(166, 84, 138)),
        q=GOLD_Q,
        used=dict(out=(86, 74, 128), hl=(222, 214, 236), mid=(188, 176, 210), dark=(148, 136, 178)),
        plat=dict(out=(110, 126, 204), hl=(255, 255, 255), mid=(238, 242, 255), dark=(196, 208, 248)),
        lift=dict(out=(118, 86, 46), hl=(255, 255, 236), mid=(244, 226, 176), dark=(208, 172, 108)),
        hard=dict(out=(36, 100, 94), hl=(222, 255, 240), mid=(158, 228, 202), dark=(100, 182, 158)),
    ),
    dict(
        name="castle",
        surf="castle",
        top=dict(out=(22, 18, 30), hl=(204, 202, 212), mid=(152, 150, 164), dark=(104, 102, 120)),
        fill=dict(out=(22, 18, 30), hl=(122, 116, 134), mid=(92, 88, 106), dark=(66, 62, 80), deep=(44, 40, 58)),
        stone=dict(out=(28, 24, 38), hl=(204, 204, 214), mid=(152, 152, 166), dark=(102, 102, 118)),
        brick=dict(out=(34, 8, 16), hl=(210, 80, 80), mid=(150, 34, 42), dark=(108, 22, 32), mortar=(58, 16, 24)),
        q=GOLD_Q,
        used=dict(out=(32, 24, 32), hl=(152, 132, 134), mid=(114, 98, 102), dark=(78, 66, 74)),
        plat=dict(out=(22, 18, 30), hl=(186, 184, 196), mid=(134, 132, 148), dark=(90, 88, 104), red=(168, 36, 44)),
        lift=dict(out=(22, 18, 30), hl=(176, 176, 192), mid=(114, 114, 130), dark=(74, 74, 90), red=(176, 40, 48)),
        hard=dict(out=(28, 20, 32), hl=(176, 162, 178), mid=(126, 112, 134), dark=(86, 72, 94), red=(200, 48, 56)),
    ),
]

# grass/crust depth variation along x (periodic in 16 px)
WAVE16 = [0, 1, 2, 2, 1, 0, 0, 0, 1, 1, 2, 3, 2, 1, 0, 0]


SPECKS = [(1, 1), (6, 2), (12, 3), (3, 6), (9, 6), (14, 8), (0, 10), (6, 11), (11, 12), (3, 14), (8, 15), (14, 14)]


def fill_tile(th, deco):
    f = th["fill"]
    t = Img(16, 16, f["mid"])
    s = th["surf"]
    if s == "grass":
        for (x, y) in SPECKS:
            t.set(x, y, f["dark"])
        if deco:
            for (px, py) in [(2, 3), (10, 1), (6, 8), (13, 10), (1, 12), (8, 13)]:
                t.set(px, py, f["hl"])
                t.set(px + 1, py, f["hl"])
                t.set(px, py + 1, f["dark"])
                t.set(px + 1, py + 1, f["deep"])
            for (px, py) in [(12, 5), (4, 6), (10, 9), (3, 15), (14, 14)]:
                t.set(px, py, f["deep"])
    elif s == "rock":
        for (x, y) in SPECKS:
            t.set(x, y, f["dark"])
            t.set(x + 1, y, f["dark"])
        if deco:
            # cracks
            for (x, y) in [(2, 2), (3, 3), (3, 4), (4, 5), (11, 8), (12, 8), (13, 9), (13, 10), (6, 12), (7, 13), (8, 13)]:
                t.set(x, y, f["deep"])
            for (x, y) in [(3, 2), (4, 4), (12, 7), (14, 9), (8, 12)]:
                t.set(x, y, f["hl"])
            for (x, y) in [(9, 2), (10, 2), (1, 9), (14, 14)]:
                t.set(x, y, f["hl"])
    elif s == "cloud":
        for y in range(16):
            for x in range(16):
                if (x + y * 2) % 8 == 0 and y % 4 == 1:
                    t.set(x, y, f["hl"])
        if deco:
            for (cx, cy, r) in [(10, 8, 3)]:
                for y in range(16):
                    for x in range(16):
                        d = math.hypot(x - cx, y - cy)
                        if d <= r:
                            t.set(x, y, f["hl"] if y - cy < 1 else f["mid"])
                        elif d <= r + 1 and y > cy:
                            t.set(x, y, f["dark"])
    elif s == "castle":
        # masonry, 8 px courses, stones 8 wide offset by 4 on odd courses
        for y in range(16):
            for x in range(16):
                course = y // 8
                xo = (x + (4 if course % 2 else 0)) % 8
                yo = y % 8
                c = f["mid"]
                if yo == 7 or xo == 7:
                    c = f["deep"]
                elif deco and (yo == 0 or xo == 0):
                    c = f["hl"]
                elif deco and (yo == 6 or xo == 6):
                    c = f["dark"]
                t.set(x, y, c)
        if deco:
            for (x, y) in [(2, 3), (13, 11), (9, 4)]:
                t.set(x, y, f["dark"])
    return t


def surface_color(th, depth, x):
    """Colour of the surface band at given depth below the top edge (None = fill)."""
    tp = th["top"]
    s = th["surf"]
    w = WAVE16[x % 16]
    if s == "grass":
        band = 5 + w
        if depth == 0:
            return tp["out"]
        if depth == 1:
            return tp["hl"]
        if depth == 2:
            return tp["hl"] if x % 4 == 1 else tp["mid"]
        if depth < band - 1:
            return tp["mid"]
        if depth == band - 1:
            return tp["dark"]
        if depth == band:
            return th["fill"]["deep"]
        return None
    if s == "rock":
        band = 4 + w // 2
        if depth == 0:
            return tp["out"]
        if depth == 1:
            return tp["hl"]
        if depth < band:
            return tp["mid"] if (x + depth) % 7 else tp["hl"]
        if depth == band:
            return tp["dark"]
        if depth == band + 1:
            return th["fill"]["deep"]
        return None
    if s == "cloud":
        band = 5 + w
        if depth == 0:
            return tp["out"]
        if depth <= 2:
            return tp["hl"]
        if depth < band - 1:
            return tp["mid"]
        if depth == band - 1:
            return tp["dark"]
        return None
    if s == "castle":
        if depth == 0:
            return tp["out"]
        if depth == 1:
            return tp["hl"]
        if depth < 5:
            return tp["mid"]
        if depth == 5:
            return tp["dark"]
        if depth == 6:
            return tp["out"]
        return None
    raise ValueError(s)


def ground_top(th):
    t = fill_tile(th, True)
    for x in range(16):
        for y in range(16):
            c = surface_color(th, y, x)
            if c is None:
                break
            t.set(x, y, c)
    if th["surf"] == "castle":  # capstone joints
        for y in range(1, 6):
            t.set(7, y, th["top"]["dark"])
        t.set(8, 1, th["top"]["hl"])
        t.set(0, 2, th["top"]["hl"])
    return t


def slope_tile(th, heights):
    """heights[x] = number of opaque pixels in column x (from the bottom)."""
    base = fill_tile(th, False)
    t = Img(16, 16)
    for x in range(16):
        top = 16 - heights[x]
        for y in range(top, 16):
            c = surface_color(th, y - top, x)
            t.set(x, y, c if c is not None else base.get(x, y))
    return t


def bevel(t, pal, x0=0, y0=0, w=16, h=16, round_corners=True):
    for y in range(y0, y0 + h):
        for x in range(x0, x0 + w):
            edge = x in (x0, x0 + w - 1) or y in (y0, y0 + h - 1)
            if edge:
                t.set(x, y, pal["out"])
            elif x == x0 + 1 or y == y0 + 1:
                t.set(x, y, pal["hl"])
            elif x == x0 + w - 2 or y == y0 + h - 2:
                t.set(x, y, pal["dark"])
            else:
                t.set(x, y, pal["mid"])
    if round_corners:
        for (x, y) in [(x0 + 1, y0 + 1), (x0 + w - 2, y0 + 1), (x0 + 1, y0 + h - 2), (x0 + w - 2, y0 + h - 2)]:
            t.set(x, y, pal["out"])


def stone_block(th):
    p = th["stone"]
    t = Img(16, 16)
    bevel(t, p)
    t.set(2, 2, p["hl"])
    t.set(3, 2, p["hl"])
    t.set(2, 3, p["hl"])
    # crack and speckles
    for (x, y) in [(9, 4), (10, 5), (10, 6), (11, 7)]:
        t.set(x, y, p["dark"])
    for (x, y) in [(5, 10), (12, 11), (4, 6), (8, 12)]:
        t.set(x, y, p["dark"])
    t.set(6, 9, p["hl"])
    return t


def brick_tile(th):
    p = th["brick"]
    t = Img(16, 16, p["mid"])
    for y in range(16):
        r = y // 4
        for x in range(16):
            xo = (x + (4 if r % 2 else 0)) % 8
            yo = y % 4
            if yo == 3 or xo == 7:
                c = p["mortar"]
            elif yo == 0:
                c = p["hl"]
            elif xo == 0:
                c = p["hl"] if yo == 1 else p["mid"]
            elif yo == 2 and xo >= 5:
                c = p["dark"]
            else:
                c = p["mid"]
            t.set(x, y, c)
    return t


QGLYPH = [
    "..XXXX..",
    ".XX..XX.",
    ".XX..XX.",
    "....XX..",
    "...XX...",
    "...XX...",
    "........",
    "...XX...",
]


def q_block(th, used=False):
    p = th["used"] if used else th["q"]
    t = Img(16, 16)
    bevel(t, p)
    # rivets
    for (x, y) in [(2, 2), (13, 2), (2, 13), (13, 13)]:
        t.set(x, y, p["out"] if not used else p["dark"])
    if used:
        # a recessed, empty socket where the glyph used to be
        for i in range(5, 11):
            t.set(i, 5, p["dark"])
            t.set(5, i, p["dark"])
            t.set(i, 10, p["hl"])
            t.set(10, i, p["hl"])
    else:
        for gy, row in enumerate(QGLYPH):
            for gx, ch in enumerate(row):
                if ch == "X":
                    t.set(4 + gx + 1, 4 + gy + 1, p["dark"])
        for gy, row in enumerate(QGLYPH):
            for gx, ch in enumerate(row):
                if ch == "X":
                    t.set(4 + gx, 4 + gy, p["glyph"])
    return t


def oneway_tile(th):
    """Only rows 0..4 are opaque (the rest of the tile is transparent)."""
    p = th["plat"]
    t = Img(16, 16)
    s = th["surf"]
    for x in range(16):
        t.set(x, 0, p["out"])
        t.set(x, 4, p["out"])
    if s == "grass":  # wooden plank with a joint at the tile edge
        for x in range(16):
            t.set(x, 1, p["hl"])
            t.set(x, 2, p["mid"] if x % 6 != 2 else p["dark"])
            t.set(x, 3, p["dark"])
        for y in range(1, 4):
            t.set(15, y, p["out"])
        t.set(7, 2, p["hl"])
        t.set(4, 2, p["out"])
        t.set(11, 2, p["out"])
    elif s == "rock":
        for x in range(16):
            t.set(x, 1, p["hl"] if x % 7 != 3 else p["mid"])
            t.set(x, 2, p["mid"] if (x * 3) % 7 else p["hl"])
            t.set(x, 3, p["dark"] if x % 5 != 1 else p["out"])
    elif s == "cloud":
        for x in range(16):
            t.set(x, 1, p["hl"])
            t.set(x, 2, p["hl"] if x % 8 not in (0, 7) else p["mid"])
            t.set(x, 3, p["dark"] if x % 8 in (0, 1, 6, 7) else p["mid"])
    else:  # castle: stone ledge with red trim
        for x in range(16):
            t.set(x, 1, p["hl"])
            t.set(x, 2, p["mid"] if x % 8 != 7 else p["dark"])
            t.set(x, 3, p["red"] if x % 4 else p["out"])
    return t


def lift_tile(th):
    p = th["lift"]
    t = Img(16, 16, p["dark"])
    for x in range(16):
        t.set(x, 0, p["out"])
        t.set(x, 1, p["hl"])
        t.set(x, 2, p["mid"])
        t.set(x, 3, p["out"])
        t.set(x, 12, p["out"])
        t.set(x, 13, p["hl"])
        t.set(x, 14, p["mid"])
        t.set(x, 15, p["out"])
    # web with a diagonal truss; darker "holes"
    hole = mul(p["dark"], 0.55)
    for y in range(4, 12):
        for x in range(16):
            t.set(x, y, hole)
    for y in range(4, 12):
        i = y - 4
        for x in (i * 2 % 16, (i * 2 + 1) % 16, (15 - i * 2) % 16, (14 - i * 2) % 16):
            t.set(x, y, p["mid"])
    for y in range(4, 12):
        t.set(0, y, p["mid"])
        t.set(15, y, p["out"])
    # rivets
    for x in (3, 8, 13):
        t.set(x, 1, p["out"] if "red" not in p else p["red"])
        t.set(x, 14, p["out"] if "red" not in p else p["red"])
    return t


def hard_block(th):
    p = th["hard"]
    t = Img(16, 16)
    for y in range(16):
        for x in range(16):
            if x in (0, 15) or y in (0, 15):
                c = p["out"]
            else:
                # pyramid facets
                dx, dy = x - 7.5, y - 7.5
                if abs(dx) <= 2 and abs(dy) <= 2:
                    c = p["mid"]
                elif abs(dy) >= abs(dx):
                    c = p["hl"] if dy < 0 else p["dark"]
                else:
                    c = mix(p["hl"], p["mid"], 0.5) if dx < 0 else mix(p["mid"], p["dark"], 0.5)
            t.set(x, y, c)
    for i in range(1, 6):
        t.set(i, i, p["hl"])
        t.set(15 - i, i, p["mid"])
        t.set(i, 15 - i, p["mid"])
        t.set(15 - i, 15 - i, p["dark"])
    if "red" in p:
        for (x, y) in [(7, 7), (8, 7), (7, 8), (8, 8)]:
            t.set(x, y, p["red"])
        t.set(7, 7, (255, 150, 150))
    else:
        t.set(7, 7, p["hl"])
    return t


def theme_tiles(th):
    h45 = [x + 1 for x in range(16)]
    low = [x // 2 + 1 for x in range(16)]
    high = [8 + x // 2 + 1 for x in range(16)]
    r45 = slope_tile(th, h45)
    glow = slope_tile(th, low)
    ghigh = slope_tile(th, high)
    return [
        ground_top(th),
        fill_tile(th, True),
        stone_block(th),
        oneway_tile(th),
        brick_tile(th),
        q_block(th),
        q_block(th, used=True),
        r45,
        slope_tile(th, h45[::-1]),
        glow,
        ghigh,
        slope_tile(th, low[::-1]),
        slope_tile(th, high[::-1]),
        fill_tile(th, False),
        lift_tile(th),
        hard_block(th),
    ]


def make_tiles():
    img = Img(256, 64)
    for row, th in enumerate(THEMES):
        for col, t in enumerate(theme_tiles(th)):
            img.paste(t, col * 16, row * 16)
    return img


# ---------------------------------------------------------------------------
# Hero
# ---------------------------------------------------------------------------

SMALL_HEAD = [
    "................",
    "...O......O.....",
    "...OP....PO.....",
    "..YYYYYYYYYY....",
    "..YHHYYYYYYYY...",
    "..YHYYYYYYyyyyy.",
    "..OOSSSSSKSS....",
    "..OSSSSSSKSSNN..",
    "...OSSSSSSSSNN..",
    "....sSSSSsss....",
]

HERO_SMALL = {
    "idle": SMALL_HEAD + [
        "..O.tTTTTTTt....",
        ".OF.TTTYTTWWW...",
        ".OF.TTTTTTWWW...",
        "....tTTTTTTt....",
        "...BBBB..BBBB...",
        "................",
    ],
    "walk_a": SMALL_HEAD + [
        "..O.tTTTTTTt....",
        ".OF.TTTYTTTWWW..",
        ".OF.TTTTTTTWWW..",
        "...tTTT..TTTt...",
        "..BBBB....BBBB..",
        "................",
    ],
    "walk_b": SMALL_HEAD + [
        "..O.tTTTTTTt....",
        ".OF.TTTYTWWT....",
        ".OF.TTTTTWWT....",
        ".....TTTTTt.....",
        ".....BBBBBB.....",
        "................",
    ],
    "walk_c": SMALL_HEAD + [
        "..O.tTTTTTTt....",
        ".OF.WWTYTTTT....",
        ".OF.WWTTTTTT....",
        "....tTT.TTt.....",
        "...BBB...BBBB...",
        "................",
    ],
    "jump": SMALL_HEAD + [
        "..O.tTTTTTTtWW..",
        ".OF.TTTYTTTTWW..",
        ".OF.TTTTTTTTTt..",
        "...TTTT...BBBB..",
        "..BBB...........",
        "................",
    ],
    "skid": SMALL_HEAD + [
        "....tTTTTTTtWW..",
        "..WWTTTYTTTtWW..",
        "..WWTTTTTTTT....",
        "..tTTT...TTt....",
        ".BBBB....BBB....",
        "................",
    ],
    "dead": [
        "................",
        "....O......O....",
        ".WW.OP....PO.WW.",
        ".WW.YYYYYYYY.WW.",
        ".TT.YHHYYYYY.TT.",
        ".TT.yyyyyyyy.TT.",
        ".TT.SKSSSSKS.TT.",
        ".TT.SKSSSSKS.TT.",
        ".TTTsSSNNSSsTTT.",
        "..TTTSSKKSSTTT..",
        "...tTTTTTTTTt...",
        "...TTTTYYTTTT...",
        "...TTTTTTTTTT...",
        "...tTTT..TTTt...",
        "...BBBB..BBBB...",
        "................",
    ],
}

HERO_SMALL["crouch"] = [
    "................",
    "................",
    "................",
    "...O......O.....",
    "...OP....PO.....",
    "..YYYYYYYYYY....",
    "..YHHYYYYYYYY...",
    "..YHYYYYYYyyyyy.",
    "..OOSSSSSKSS....",
    "..OSSSSSSKSSNN..",
    "...OSSSSSSSSNN..",
    ".O..sSSSSsss....",
    ".OFtTTTTTTTWW...",
    ".OFTTTTYTTTWW...",
    "...BBBBtTBBBB...",
    "................",
]

# sitting back on a slope: legs and boots forward, the back arm raised
HERO_SMALL["slide"] = [
    "..WW............",
    "..WW............",
    "..TT.O......O...",
    "..TT.OP....PO...",
    "...YYYYYYYYYY...",
    "...YHHYYYYYYYY..",
    "...YHYYYYYYyyyyy",
    "...OOSSSSSKSS...",
    "...OSSSSSSKSSNN.",
    "....OSSSSSSSSNN.",
    ".....sSSSSsss...",
    "....tTTTTTTWW..B",
    ".O..TTTYTTTWW.BB",
    "OF.tTTTTTTTTTTBB",
    "F...tTTTTTTTTTbb",
    "................",
]

FRAME_ORDER = ["idle", "walk_a", "walk_b", "walk_c", "jump", "skid", "dead", "crouch", "slide"]


def make_player_small():
    return hstrip([sprite(HERO_SMALL[k]) for k in FRAME_ORDER])


BIG_HEAD = [
    "................",
    "................",
    "....O.......O...",
    "....OO.....OO...",
    "....OPO...OPO...",
    "...YYYYYYYYYYY..",
    "...YHHYYYYYYYY..",
    "...YHYYYYYYYYYY.",
    "...YYYYYYYyyyyyy",
    "...OOSSSSSSKSS..",
    "...OSSSSSSSKSSN.",
    "...OSSSSSSSKSNNN",
    "...OSSSSSSSSSNNN",
    "....SSSSSSSSSSN.",
    "....sSSSSSSKKs..",
    ".....sSSSSSss...",
]

BIG_HEAD_FRONT = [
    "................",
    "................",
    "...O........O...",
    "...OO......OO...",
    "...OPO....OPO...",
    "..YYYYYYYYYYYY..",
    "..YHHYYYYYYYYY..",
    "..YHYYYYYYYYYY..",
    ".yyyyyyyyyyyyyy.",
    "..OSSSSSSSSSSO..",
    "..OSKKSSSSKKSO..",
    "..SSKKSSSSKKSS..",
    "..SSSSSNNSSSSS..",
    "..sSSSSNNSSSSs..",
    "...SSSSKKSSSS...",
    "....sSSKKSSs....",
]

BIG_BODY = {
    "idle": [
        ".....tTTTTTTt...",
        "....TTTTTTTTTT..",
        ".O..TLTTTTTTTT..",
        ".OO.TLTTYTTTTT..",
        ".OO.TLTTTTTtWWW.",
        ".OO.TTTTTTTtWWW.",
        ".FF.tTTTYTTTtW..",
        "..F.yyyyyyyyy...",
        "....TTTTTTTTT...",
        "....TTTTTTTTT...",
        "....TTTT.TTTT...",
        "....TTTT.TTTT...",
        "....tTTt.tTTt...",
        "...BBBBB.BBBBB..",
        "...bbbbb.bbbbbb.",
        "................",
    ],
    "walk_a": [
        ".....tTTTTTTt...",
        "....TTTTTTTTTT..",
        ".O..TLTTTTTTTT..",
        ".OO.TLTTYTTTTTT.",
        ".OO.TLTTTTTTtWWW",
        ".OO.TTTTTTTTtWWW",
        ".FF.tTTTYTTTT...",
        "..F.yyyyyyyyy...",
        "....TTTTTTTTTT..",
        "...TTTTT.TTTTT..",
        "..TTTT.....TTT..",
        "..TTT......TTTt.",
        ".tTTt......tTTt.",
        ".BBBB......BBBBB",
        ".bbbb......bbbbb",
        "................",
    ],
    "walk_b": [
        ".....tTTTTTTt...",
        "....TTTTTTTTTT..",
        ".O..TLTTTTTTTT..",
        ".OO.TLTTYTTTTT..",
        ".OO.TLTTTTWWTT..",
        ".OO.TTTTTTWWTT..",
        ".FF.tTTTYTTTt...",
        "..F.yyyyyyyyy...",
        "....TTTTTTTTT...",
        ".....TTTTTTT....",
        ".....TTTTTTT....",
        ".....TTTTTTT....",
        ".....tTTTTTt....",
        ".....BBBBBBBB...",
        ".....bbbbbbbbb..",
        "................",
    ],
    "walk_c": [
        ".....tTTTTTTt...",
        "....TTTTTTTTTT..",
        ".O..TLTTTTTTTT..",
        ".OO.TLTTYTTTTT..",
        ".OWWWLTTTTTTTT..",
        ".OWWWTTTTTTTTT..",
        ".FF.tTTTYTTTt...",
        "..F.yyyyyyyyy...",
        "....TTTTTTTTT...",
        "....TTTT.TTTTT..",
        "...TTTT...TTTT..",
        "...TTT.....TTT..",
        "..tTTt.....tTTt.",
        "..BBBB.....BBBBB",
        "..bbbb.....bbbbb",
        "................",
    ],
    "jump": [
        ".....tTTTTTTt...",
        "....TTTTTTTTtWW.",
        ".O..TLTTTTTTtWW.",
        ".OO.TLTTYTTTT...",
        ".OO.TLTTTTTTT...",
        ".OO.TTTTTTTTT...",
        ".FF.tTTTYTTTT...",
        "..F.yyyyyyyyy...",
        "....TTTTTTTTTTT.",
        "...TTTTTTTTTTTT.",
        "..TTTT....tTTt..",
        "..TTT.....BBBB..",
        ".tTTt.....bbbbb.",
        ".BBBB...........",
        ".bbbb...........",
        "................",
    ],
    "skid": [
        ".....tTTTTTTt...",
        "....TTTTTTTTTT..",
        "..WWTLTTTTTTtWW.",
        "..WWTLTTYTTTtWW.",
        "....TLTTTTTTT...",
        "....TTTTTTTTT...",
        "....tTTTYTTTt...",
        "....yyyyyyyyy...",
        "....TTTTTTTTT...",
        "...TTTTT.TTTT...",
        "..TTTT...TTTT...",
        "..TTT....TTTT...",
        ".tTTt....tTTt...",
        ".BBBB...BBBBB...",
        ".bbbb...bbbbbb..",
        "................",
    ],
    "dead": [
        "WW...tTTTTt...WW",
        "WWT.TTTTTTTT.TWW",
        ".TTTTTTTTTTTTTT.",
        "..TTTTTTYTTTTT..",
        "....TTTTTTTT....",
        "....TTTTTTTT....",
        "....TTTYYTTT....",
        "....yyyyyyyy....",
        "....TTTTTTTT....",
        "....TTTTTTTT....",
        "....TTT..TTT....",
        "....TTT..TTT....",
        "....tTt..tTt....",
        "...BBBB..BBBB...",
        "...bbbb..bbbb...",
        "................",
    ],
}

# ducked: head and body squeezed into the bottom 16 rows (14 rows of colour plus the outline)
BIG_CROUCH = ["................"] * 17 + [
    "....O.......O...",
    "....OPO...OPO...",
    "...YYYYYYYYYYY..",
    "...YHHYYYYYYYYY.",
    "...YYYYYYYyyyyyy",
    "...OOSSSSSSKSS..",
    "...OSSSSSSSKSNNN",
    ".O.OSSSSSSSSSNNN",
    ".OO.sSSSSSSKKs..",
    ".OOtTTTTTTTTWWW.",
    ".FFTLTTYTTTTWWW.",
    "..FTTyyyyyyyyTT.",
    "..BBBBBTTTTBBBBB",
    "..bbbbbb..bbbbbb",
    "................",
]

# sitting back on a slope, legs forward, the back arm raised
BIG_SLIDE = ["................"] * 5 + [
    "..WW............",
    ".WWW............",
    ".WWT............",
    "..TT............",
] + BIG_HEAD[2:] + [
    "....tTTTTTTt....",
    "...TLTTYTTTTT...",
    "...TLTTTTTTWWW.B",
    ".O.TTTTTTTTWWW.B",
    ".OOyyyyyyyyyyyBB",
    ".OOTTTTTTTTTTTBB",
    ".FFTTTTTTTTTTTBB",
    "..FtTTTTTTTTTTbb",
    "................",
]
assert len(BIG_CROUCH) == 32 and len(BIG_SLIDE) == 32


def big_frames(pal=None):
    frames = []
    for k in FRAME_ORDER:
        if k == "crouch":
            rows = BIG_CROUCH
        elif k == "slide":
            rows = BIG_SLIDE
        else:
            rows = (BIG_HEAD_FRONT if k == "dead" else BIG_HEAD) + BIG_BODY[k]
        frames.append(sprite(rows, pal))
    return frames


def make_player_big():
    return hstrip(big_frames())


# the fire form: white jumpsuit, red cap, flame-orange gloves and red boots
FIRE_PAL = {
    "Y": (232, 52, 44),
    "H": (255, 150, 120),
    "y": (150, 24, 30),
    "T": (246, 244, 236),
    "t": (176, 178, 196),
    "L": (255, 255, 255),
    "W": (255, 204, 72),
    "B": (196, 48, 40),
    "b": (112, 22, 26),
}


def make_player_fire():
    return hstrip(big_frames(FIRE_PAL))


# ---------------------------------------------------------------------------
# Enemies and items
# ---------------------------------------------------------------------------

WALKER_PAL = {
    "M": (172, 76, 212),
    "m": (108, 38, 150),
    "h": (228, 156, 250),
    "C": (255, 234, 196),
    "c": (222, 178, 132),
    "f": (94, 44, 78),
}
LEDGE_PAL = {
    "M": (236, 96, 40),
    "m": (164, 46, 26),
    "h": (255, 184, 104),
    "C": (255, 240, 178),
    "c": (226, 170, 96),
    "f": (112, 40, 28),
}

WALKER_TOP = [
    "................",
    ".....MMMMMM.....",
    "...MMhhMMMCCM...",
    "..MhhMMMMMCCMM..",
    "..MhMCCMMMMMMM..",
    ".MMMMCCMMMMMCCM.",
    ".MMMMMMMMMMMCCM.",
    ".mMMMMMMMMMMMMm.",
    "..mmmmmmmmmmmm..",
    "...CKWCCKWCCCC..",
    "...CKWCCKWCCCC..",
    "...CCCCCCCCCcC..",
    "....CCcccCCCc...",
]

WALKER = {
    "a": WALKER_TOP + [
        "....ccccccccc...",
        "..fff......fff..",
        "................",
    ],
    "b": WALKER_TOP + [
        "....ccccccccc...",
        "....fff..fff....",
        "................",
    ],
    "flat": [
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "................",
        "..MhhMCCMMMCCM..",
        ".mMMMMMMMMMMMMm.",
        "..CKKCCKKCCCCC..",
        ".fffcccccccfff..",
        "................",
    ],
}


def make_walker(pal):
    return hstrip([sprite(WALKER[k], pal) for k in ("a", "b", "flat")])


BEETLE_PAL = {
    "X": (56, 104, 216),
    "x": (30, 52, 140),
    "Z": (140, 186, 255),
    "V": (255, 248, 226),
    "v": (206, 196, 172),
    "Q": (248, 200, 72),
    "q": (196, 128, 32),
    "U": (255, 236, 170),
}

BEETLE_HEAD = [
    "..........",
    "...DDDD...",
    "..DJJDDD..",
    ".DJWWDDDd.",
    ".DDWKDDDd.",
    ".DDWKDDdd.",
    "..DDDDdd..",
    ".VVdDdd...",
    "..V.......",
    "..........",
]

BEETLE_LEGS = {
    "a": [
        "................",
        ".....d....d.....",
        "....dd...dd.....",
        "...dd...dd..d...",
        "...d....d..dd...",
        "..dd...dd..d....",
        "................",
    ],
    "b": [
        "................",
        "......d....d....",
        "......dd...dd...",
        ".......d....dd.d",
        ".......dd....d.d",
        ".......dd....dd.",
        "................",
    ],
}

BEETLE_PAL.update({"D": (118, 104, 176), "d": (70, 60, 118), "J": (178, 170, 228)})


def beetle_frame(k, bob):
    t = Img(16, 24)
    legs = sprite(BEETLE_LEGS[k], BEETLE_PAL)
    t.blit(legs, 0, 17)
    shell = shell_frame(0, False, cx=8.5, rx=6.0, top=3)
    t.blit(shell, 0, 3 + bob)
    head = sprite(BEETLE_HEAD, BEETLE_PAL)
    t.blit(head, 0, 9 + bob)
    return t


def make_shell_enemy():
    return hstrip([beetle_frame("a", 0), beetle_frame("b", 1)])


def shell_frame(offset, spinning, cx=7.5, rx=7.0, top=4):
    p = BEETLE_PAL
    t = Img(16, 16)
    ry = 12.5 - top + 0.5
    xl, xr = int(math.ceil(cx - rx)), int(math.floor(cx + rx))
    # dome: rows 4..12
    for y in range(top, 13):
        for x in range(xl, xr + 1):
            dx = (x - cx) / rx
            dy = (y - 12.5) / ry
            if dx * dx + dy * dy > 1.0:
                continue
            c = p["X"]
            if y >= 11:
                c = p["U"] if y == 11 else p["v"]
            elif dx > 0.55 or y == 10:
                c = p["x"]
            t.set(x, y, c)
    # highlight / stripes
    if not spinning:
        hx = xl + 2
        for (x, y) in [(hx + 1, top + 2), (hx + 2, top + 2), (hx + 1, top + 3), (hx, top + 4)]:
            t.set(x, y, p["Z"])
    else:
        for y in range(top + 1, 10):
            for x in range(xl + 1, xr):
                if t.op(x, y) and (x + offset * 2) % 6 in (0, 1) and t.get(x, y)[:3] != p["x"]:
                    t.set(x, y, p["Z"])
    # spikes along the top: sawtooth
    base_y = top
    for k in range(-1, 6):
        sx = xl + 1 + k * 3 + (offset if spinning else 1)
        if xl + 1 <= sx <= xr - 1:
            t.set(sx, base_y - 2, p["V"])
            for xx in (sx - 1, sx, sx + 1):
                if xl + 1 <= xx <= xr - 1:
                    t.set(xx, base_y - 1, p["V"] if xx != sx + 1 else p["v"])
    t = add_outline(t, OUT)
    return bottom_align(t)


def make_shell():
    return hstrip([shell_frame(0, False), shell_frame(0, True), shell_frame(1, True), shell_frame(2, True)])


GOBLIN_PAL = {
    "G": (116, 200, 76),
    "g": (56, 128, 48),
    "E": (184, 240, 128),
    "A": (188, 196, 216),
    "a": (112, 120, 150),
    "I": (244, 248, 255),
    "R": (178, 58, 50),
    "r": (118, 32, 34),
    "n": (210, 110, 60),
}

GOBLIN_HEAD = [
    "................",
    "................",
    "......aAAa......",
    ".....AIIAAa.....",
    "....AIAAAAAa....",
    "...aaaaaaaaaa...",
    "GE..GGGGGGGG..EG",
    ".GGGKWGGGGGGGGG.",
    "..GGKWGGGGGGGG..",
    ".GGGGGGGGGGGG...",
    "..gWKWKWGGGGg...",
    "...gGGGGGGgg....",
]

GOBLIN = {
    "idle": GOBLIN_HEAD + [
        "....rRRRRRRr....",
        "...GRRRRYRRRRG..",
        "..GGRRRRRRRRRGG.",
        "..GGRRRRRRRRRGG.",
        "...gYYYYYYYYYg..",
        "....RRRRRRRRR...",
        "....rRRR.RRRr...",
        "....GGG...GGG...",
        "....GGG...GGG...",
        "...BBBB..BBBB...",
        "...bbbb..bbbb...",
        "................",
    ],
    "throw": [
        "..........aAAAa.",
        "..........AIIIA.",
        "......aAAa..nn..",
        ".....AIIAAa.nn..",
        "....AIAAAAAaGGG.",
        "...aaaaaaaaaGGG.",
        "GE..GGGGGGGG.GG.",
        ".GGGKWGGGGGGGGG.",
        "..GGKWGGGGGGGG..",
        ".GGGGGGGGGGGG...",
        "..gWKWKWGGGGg...",
        "...gGGGGGGgg....",
    ] + [
        "....rRRRRRRRG...",
        "...GRRRRYRRRG...",
        "..GGRRRRRRRR....",
        "..GGRRRRRRRR....",
        "...gYYYYYYYYg...",
        "....RRRRRRRRR...",
        "....rRRR.RRRr...",
        "....GGG...GGG...",
        "....GGG...GGG...",
        "...BBBB..BBBB...",
        "...bbbb..bbbb...",
        "................",
    ],
    "jump": GOBLIN_HEAD + [
        ".GG.rRRRRRRr.GG.",
        ".GGGRRRRYRRRGGG.",
        "....RRRRRRRRR...",
        "....RRRRRRRRR...",
        "...gYYYYYYYYYg..",
        "...RRRRRRRRRRR..",
        "..GGGG.....GGGG.",
        "..BBBBB...BBBBB.",
        "..bbbb.....bbbb.",
        "................",
        "................",
        "................",
    ],
}


def make_hammer_thrower():
    frames = [sprite(GOBLIN[k], GOBLIN_PAL) for k in ("idle", "throw", "jump")]
    frames[2] = frames[2].shift(0, -1)
    return hstrip(frames)


HAMMER = [
    "................",
    "................",
    "..aAAAAAAAAAAa..",
    "..AIIIIIIIIIIA..",
    "..AAAAAAAAAAAA..",
    "..aaaaaaaaaaaa..",
    "......nBBn......",
    "......nBBn......",
    "......nBBn......",
    "......nBBn......",
    "......bbbb......",
    "......BbbB......",
    "......bbbb......",
    "......bBBb......",
    "................",
    "................",
]


def make_hammer():
    h0 = sprite(HAMMER, GOBLIN_PAL)
    frames = [h0]
    for _ in range(3):
        frames.append(frames[-1].rot90())
    return hstrip(frames)


COIN_PAL = dict(out=(92, 48, 10), hl=(255, 250, 200), mid=(252, 204, 56), dark=(216, 134, 24), deep=(160, 86, 16))


def coin_frame(rx, mirror=False):
    p = COIN_PAL
    t = Img(16, 16)
    cx, cy, ry = 7.5, 7.5, 7.0
    for y in range(16):
        for x in range(16):
            dx = (x - cx) / rx if rx > 0 else 99
            dy = (y - cy) / ry
            d = dx * dx + dy * dy
            if d <= 1.0:
                c = p["mid"]
                if rx >= 3:
                    inner = (x - cx) / (rx - 1.6) if rx > 1.6 else 9
                    dd = inner * inner + ((y - cy) / (ry - 1.6)) ** 2
                    if dd > 1.0:
                        c = p["hl"] if (x - cx) < 0 else p["dark"]
                        if (x - cx) > 0 and y > cy:
                            c = p["deep"]
                else:
                    c = p["hl"] if x < cx else p["dark"]
                t.set(x, y, c)
    if rx >= 5:
        # embossed mark: a slot with highlight
        for y in range(4, 12):
            t.set(7, y, p["dark"])
            t.set(8, y, p["hl"])
        t.set(6, 3, p["hl"])
    elif rx >= 3:
        for y in range(5, 11):
            t.set(8, y, p["dark"])
    t = add_outline(t, p["out"])
    return t.flip_h() if mirror else t


def make_coin():
    return hstrip([coin_frame(5.6), coin_frame(3.4), coin_frame(0.9), coin_frame(3.4, mirror=True)])


ACORN_PAL = {
    "C": (150, 92, 52),
    "c": (100, 58, 32),
    "L": (198, 140, 84),
    "A": (255, 178, 52),
    "a": (216, 108, 26),
    "H": (255, 244, 170),
    "s": (120, 190, 70),
    "S": (70, 140, 50),
}

ACORN = [
    "................",
    "........S.......",
    "......sSSs......",
    "...LLLLLLLLLL...",
    "..LCLCLCLCLCLC..",
    ".CCLCLCLCLCLCCc.",
    ".cCCCCCCCCCCCcc.",
    "..cccccccccccc..",
    "..AHHAAAAAAAAa..",
    "..AHAAKAAKAAaa..",
    "..AAAAKAAKAAaa..",
    "...AAAAAAAAaa...",
    "....AAAAAAaa....",
    ".....aAAAaa.....",
    ".......aa.......",
    "................",
]


def make_mushroom():
    t = sprite(ACORN, ACORN_PAL)
    # sparkles (opaque)
    for (x, y) in [(1, 2), (14, 10), (1, 12)]:
        t.set(x, y, (255, 255, 255))
    t.set(14, 1, (255, 240, 160))
    return t


def make_goal():
    """The flagpole, without its flag (`flag.png`, drawn on it by the game, comes down it)."""
    t = Img(16, 160)
    pole_l, pole_d = (232, 248, 236), (128, 172, 150)
    # ball on top; the ball and the pole are centred, over the pole's collider (6 px wide)
    for y in range(0, 8):
        for x in range(4, 12):
            dx, dy = x - 7.5, y - 3.5
            d = math.hypot(dx, dy)
            if d <= 3.2:
                c = (96, 216, 120)
                if dx + dy < -2.0:
                    c = (200, 255, 200)
                elif dx + dy > 2.2:
                    c = (40, 140, 72)
                t.set(x, y, c)
    # pole
    for y in range(7, 144):
        t.set(7, y, pole_l)
        t.set(8, y, pole_d)
    t = add_outline(t, OUT)
    # base block
    base = hard_block(THEMES[0])
    t.paste(base, 0, 144)
    return t


def make_checkpoint():
    frames = []
    for active in (False, True):
        t = Img(16, 32)
        if active:
            main, shade, emb = (252, 92, 64), (196, 48, 40), (255, 224, 80)
            knob = (255, 224, 80)
        else:
            main, shade, emb = (168, 168, 180), (120, 120, 134), (208, 208, 216)
            knob = (150, 150, 160)
        for y in range(3, 28):
            t.set(3, y, (230, 230, 236))
            t.set(4, y, (140, 140, 156))
        for y in range(0, 4):
            for x in range(2, 6):
                if (x, y) not in [(2, 0), (5, 0), (2, 3), (5, 3)]:
                    t.set(x, y, knob if (x + y) > 3 else (255, 255, 255))
        # banner with swallowtail
        for y in range(5, 16):
            for x in range(5, 15):
                if x >= 12 and 9 <= y <= 11 and x - 12 >= 2 - abs(y - 10):
                    continue
                c = main if y < 14 else shade
                if y == 5:
                    c = mix(main, (255, 255, 255), 0.4)
                t.set(x, y, c)
        # emblem: two little ears
        for (x, y) in [(7, 8), (7, 9), (8, 10), (9, 10), (10, 9), (10, 8), (8, 11), (9, 11)]:
            t.set(x, y, emb)
        # stone base
        for y in range(27, 31):
            for x in range(1, 8):
                t.set(x, y, (176, 168, 160) if y == 27 else (132, 122, 116))
        t = add_outline(t, OUT)
        frames.append(t)
    return hstrip(frames)


def make_debris():
    p = THEMES[0]["brick"]
    return sprite(
        [
            "........",
            "..HHH...",
            ".HMMMM..",
            ".HMMMMd.",
            ".MMMddd.",
            "..MdMd..",
            "...dd...",
            "........",
        ],
        {"H": p["hl"], "M": p["mid"], "d": p["dark"]},
        outline=p["out"],
    )


# ---------------------------------------------------------------------------
# Fire power, star, extra life, spring
# ---------------------------------------------------------------------------

FIRE_OUT = (92, 16, 14)

FIREBALL = [
    "........",
    "..RO....",
    ".RYYOR..",
    ".RYWWYR.",
    ".OYWWYR.",
    "..RYYOR.",
    "...RRO..",
    "........",
]
FIREBALL_PAL = {"R": (220, 48, 28), "O": (252, 128, 32), "Y": (255, 214, 72), "W": (255, 252, 220)}


def make_fireball():
    f0 = sprite(FIREBALL, FIREBALL_PAL, outline=None)
    # a flame lick trailing from the top-left, so the spin shows
    f0.set(1, 0, FIREBALL_PAL["O"])
    f0.set(0, 1, FIREBALL_PAL["R"])
    f0.set(1, 1, FIREBALL_PAL["O"])
    f0 = add_outline(f0, FIRE_OUT)
    frames = [f0]
    for _ in range(3):
        frames.append(frames[-1].rot90())
    return hstrip(frames)


# a flame tulip: three flame-tongue petals around a glowing core, on a leafy stem
FIRE_FLOWER = [
    "................",
    ".......A........",
    "......AA........",
    "..A...ABA....A..",
    "..AA.ABBA...AA..",
    "..ABAABCBA.ABA..",
    "..ABBABCCBAABA..",
    "...ABBCCWCBBA...",
    "...ABBCWWCCBA...",
    "....ABBCCCBA....",
    ".....AABBBA.....",
    ".......gG.......",
    "..EEe..gG..eEE..",
    "...EEEegGeEEE...",
    ".....eEgGEe.....",
    "................",
]

FLOWER_CYCLE = [
    # outer petal, inner petal, core, hot centre
    ((226, 44, 40), (252, 132, 40), (255, 220, 80), (255, 255, 228)),
    ((244, 96, 32), (255, 190, 60), (255, 246, 160), (255, 255, 255)),
    ((232, 64, 112), (252, 148, 72), (255, 232, 112), (255, 255, 236)),
    ((204, 36, 52), (244, 104, 40), (255, 196, 60), (255, 244, 180)),
]


def make_fire_flower():
    frames = []
    for a, b, c, w in FLOWER_CYCLE:
        pal = {"A": a, "B": b, "C": c, "W": w, "G": (96, 196, 72), "g": (44, 126, 46), "E": (124, 214, 88), "e": (60, 150, 56)}
        frames.append(bottom_align(sprite(FIRE_FLOWER, pal)))
    return hstrip(frames)


def _in_poly(px, py, pts):
    inside = False
    j = len(pts) - 1
    for i in range(len(pts)):
        xi, yi = pts[i]
        xj, yj = pts[j]
        if (yi > py) != (yj > py) and px < (xj - xi) * (py - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


STAR_CYCLE = [
    # light facet, dark facet, core, outline
    ((255, 246, 150), (246, 178, 36), (255, 255, 230), (110, 54, 10)),
    ((220, 255, 252), (96, 212, 230), (255, 255, 255), (20, 70, 110)),
    ((255, 214, 240), (240, 110, 190), (255, 250, 255), (104, 24, 80)),
    ((220, 255, 170), (110, 212, 72), (250, 255, 230), (24, 84, 30)),
]


def star_frame(k):
    """A compass-rose twinkle: four long rays and four short ones, faceted like a gem."""
    light, dark, core, out = STAR_CYCLE[k]
    cx, cy = 7.5, 7.5
    pts = []
    for i in range(16):
        ang = -math.pi / 2 + i * math.pi / 8
        r = (6.9 if i % 4 == 0 else 5.2) if i % 2 == 0 else 2.6
        pts.append((cx + r * math.cos(ang), cy + r * math.sin(ang)))
    t = Img(16, 16)
    for y in range(16):
        for x in range(16):
            dx, dy = x + 0.5 - cx, y + 0.5 - cy
            if not _in_poly(x + 0.5, y + 0.5, pts) and math.hypot(dx, dy) > 3.6:
                continue
            ang = (math.atan2(dy, dx) + math.pi / 2) % (2 * math.pi)
            seg = ang / (math.pi / 4)  # which ray (0 = up, clockwise)
            half = (seg % 1.0) >= 0.5  # ray's clockwise half
            # facets facing the upper left are lit
            lit = (int(round(seg)) % 8) in (0, 6, 7) or ((int(round(seg)) % 8) in (1, 5) and not half)
            c = light if (lit != half) or math.hypot(dx, dy) < 1.2 else dark
            if math.hypot(dx + 0.6, dy + 0.6) < 1.5:
                c = core
            t.set(x, y, c)
    t = add_outline(t, out)
    # orbiting sparkles (opaque single pixels, moving a quarter turn per frame)
    for j, (sx, sy) in enumerate([(2, 2), (13, 2), (13, 13), (2, 13)]):
        if (j + k) % 4 in (0, 2):
            if not t.op(sx, sy):
                t.set(sx, sy, (255, 255, 255))
        elif (j + k) % 4 == 1:
            for (ex, ey) in [(sx, sy), (sx - 1, sy), (sx + 1, sy), (sx, sy - 1), (sx, sy + 1)]:
                if not t.op(ex, ey):
                    t.set(ex, ey, core if (ex, ey) == (sx, sy) else light)
    return t


def make_star():
    return hstrip([star_frame(k) for k in range(4)])


ACORN_1UP_PAL = {
    "C": (58, 120, 70),
    "c": (30, 78, 50),
    "L": (112, 178, 96),
    "A": (96, 216, 96),
    "a": (34, 148, 70),
    "H": (214, 255, 190),
    "s": (176, 146, 70),
    "S": (118, 86, 40),
}


def make_one_up():
    t = sprite(ACORN, ACORN_1UP_PAL)
    for (x, y) in [(1, 2), (14, 10), (1, 12)]:
        t.set(x, y, (255, 255, 255))
    t.set(14, 1, (214, 255, 190))
    return t


SPRING_PLATE = dict(out=OUT, hl=(255, 150, 120), mid=(226, 60, 48), dark=(150, 30, 36))
SPRING_COIL = dict(hl=(240, 244, 252), mid=(164, 176, 200), dark=(88, 96, 124))


def spring_plate(t, y0, h):
    p = SPRING_PLATE
    for y in range(y0, y0 + h):
        for x in range(16):
            if y in (y0, y0 + h - 1) and x in (0, 15):
                continue  # rounded corners
            if y in (y0, y0 + h - 1) or x in (0, 15):
                c = p["out"]
            elif y == y0 + 1:
                c = p["hl"]
            elif y == y0 + h - 2 and h > 3:
                c = p["dark"]
            else:
                c = p["mid"]
            t.set(x, y, c)
    # bolts
    if h >= 4:
        t.set(3, y0 + 1 + (h - 2) // 2, p["dark"])
        t.set(12, y0 + 1 + (h - 2) // 2, p["dark"])


def spring_coil(t, y0, rings, gap):
    """Stacked wire rings from row y0 down: each ring is a dark back strand over a lit front
    strand; `gap` rows between rings show only the wire's sides (a stretched coil)."""
    c = SPRING_COIL
    coil = Img(16, 16)
    y = y0
    for i in range(rings):
        for x in range(4, 12):
            coil.set(x, y, c["dark"])
        for x in range(3, 13):
            coil.set(x, y + 1, c["hl"] if x < 7 else c["mid"] if x < 11 else c["dark"])
        y += 2
        if i < rings - 1:
            for g in range(gap):
                coil.set(4 if (g + i) % 2 == 0 else 5, y + g, c["mid"])
                coil.set(11 if (g + i) % 2 == 0 else 10, y + g, c["dark"])
            y += gap
    t.blit(add_outline(coil, OUT), 0, 0)


def make_spring():
    rest = Img(16, 16)
    spring_coil(rest, 4, 4, 0)
    spring_plate(rest, 0, 4)
    spring_plate(rest, 12, 4)
    squashed = Img(16, 16)
    spring_coil(squashed, 11, 1, 0)
    spring_plate(squashed, 8, 3)
    spring_plate(squashed, 13, 3)
    ext = Img(16, 16)
    spring_coil(ext, 3, 3, 2)
    spring_plate(ext, 0, 3)
    spring_plate(ext, 13, 3)
    return hstrip([rest, squashed, ext])


# ---------------------------------------------------------------------------
# Lava and pipes
# ---------------------------------------------------------------------------

LAVA = [(150, 24, 20), (204, 50, 24), (240, 96, 28), (252, 150, 40), (255, 206, 72), (255, 244, 170)]
TAU = 2 * math.pi


def lava_heat(x, y, k):
    """Heat in [0,1] of the molten body: periodic in x and y (16 px) and in the frame k (4)."""
    a = math.sin(TAU * (x / 16.0 + k / 4.0)) + math.sin(TAU * (y / 16.0 - k / 4.0))
    b = math.sin(TAU * ((x + y) / 16.0 + 0.25)) * 0.8 + math.sin(TAU * ((2 * x - y) / 16.0 + k / 4.0)) * 0.5
    return max(0.0, min(1.0, 0.42 + (a + b) / 6.0))


def lava_body(k):
    t = Img(16, 16)
    for y in range(16):
        for x in range(16):
            t.set(x, y, dither_pick(LAVA[1:5], lava_heat(x, y, k), x, y))
    return t


def lava_surface(k):
    t = lava_body(k)
    for x in range(16):
        # the wave: crest height 2..5 px from the top, travelling left a quarter period per frame
        top = int(round(3.2 + 1.3 * math.sin(TAU * (x / 16.0 + k / 4.0)) + 0.6 * math.sin(TAU * (2 * x / 16.0 - k / 4.0))))
        for y in range(top):
            t.set(x, y, CLEAR)
        t.set(x, top, LAVA[5])
        t.set(x, top + 1, LAVA[4])
        for y in range(top + 2, top + 5):
            t.set(x, y, LAVA[4] if (x + y + k) % 3 == 0 and y == top + 2 else LAVA[3])
        t.set(x, top + 5, dither_pick([LAVA[3], LAVA[2]], 0.5, x, top + 5))
    # bubbles: each rises, swells and pops over the four frames (two per tile, phases offset)
    hot, glow, rim = LAVA[5], LAVA[4], LAVA[1]
    for (bx, phase) in [(3, 0), (11, 2)]:
        st = (k + phase) % 4
        if st == 0:  # small, deep
            cells = [(bx, 11, rim), (bx + 1, 11, glow), (bx, 12, glow), (bx + 1, 12, rim)]
        elif st == 1:  # bigger, rising
            cells = [(bx, 7, rim), (bx + 1, 7, rim), (bx - 1, 8, rim), (bx, 8, hot), (bx + 1, 8, glow), (bx + 2, 8, rim),
                     (bx - 1, 9, rim), (bx, 9, glow), (bx + 1, 9, glow), (bx + 2, 9, rim), (bx, 10, rim), (bx + 1, 10, rim)]
        elif st == 2:  # a dome breaking the surface
            y0 = min(y for y in range(16) if t.op(bx, y) and t.op(bx + 1, y))
            cells = [(bx, y0 - 2, hot), (bx + 1, y0 - 2, hot), (bx - 1, y0 - 1, glow), (bx, y0 - 1, hot), (bx + 1, y0 - 1, glow),
                     (bx + 2, y0 - 1, glow)]
        else:  # popped: two droplets
            y0 = min(y for y in range(16) if t.op(bx, y))
            cells = [(bx - 1, max(0, y0 - 3), glow), (bx + 2, max(0, y0 - 2), hot)]
        for (x, y, c) in cells:
            t.set(x % 16, y, c)
    return t


def make_lava():
    return hstrip([lava_surface(k) for k in range(4)] + [lava_body(k) for k in range(4)])


PIPE = dict(out=(10, 52, 26), deep=(20, 96, 40), dark=(40, 140, 56), mid=(84, 196, 84), hl=(168, 240, 136), hl2=(226, 255, 204))


def pipe_shade(u, rim):
    """Colour across a pipe 32 px wide at u in 0..31 (light from the left)."""
    p = PIPE
    if u in (0, 31):
        return p["out"]
    table = [
        "deep", "mid", "hl", "hl2", "hl", "hl", "mid", "mid", "mid", "hl", "mid", "mid", "mid", "mid", "mid", "mid",
        "mid", "mid", "mid", "dark", "mid", "dark", "dark", "dark", "dark", "deep", "dark", "deep", "deep", "deep",
    ]
    c = p[table[u - 1]]
    if rim and u == 3:
        c = p["hl2"]
    return c


def pipe_vertical(half, mouth):
    """half 0 = left, 1 = right; mouth: the rim at the top of a pipe."""
    t = Img(16, 16)
    for y in range(16):
        for x in range(16):
            u = half * 16 + x
            c = pipe_shade(u, mouth)
            if mouth:
                if y in (0, 15):
                    c = PIPE["out"]
                elif y == 1 and u not in (0, 31):
                    c = mix(c, PIPE["hl2"], 0.5)
                elif y == 13 and u not in (0, 31):
                    c = mul(c, 0.8)
                elif y == 14 and u not in (0, 31):
                    c = PIPE["deep"]
            t.set(x, y, c)
    return t


def transpose(img):
    n = Img(img.h, img.w)
    for y in range(img.h):
        for x in range(img.w):
            n.set(y, x, img.get(x, y))
    return n


def make_pipe():
    v = [pipe_vertical(0, True), pipe_vertical(1, True), pipe_vertical(0, False), pipe_vertical(1, False)]
    # the side pipe: the same shading turned so the light comes from the top and the opening faces left
    h = [transpose(f) for f in v]
    return hstrip(v + h)


# ---------------------------------------------------------------------------
# The boss: the horned shell-king of the hammer goblins
# ---------------------------------------------------------------------------

BOSS_PAL = {
    "G": (112, 176, 64),  # scaly skin
    "g": (60, 116, 44),
    "E": (178, 226, 110),
    "j": (38, 76, 34),
    "V": (122, 66, 170),  # shell
    "v": (76, 38, 116),
    "U": (178, 128, 224),
    "Q": (248, 200, 72),  # gold rim and crown
    "q": (190, 120, 30),
    "Z": (255, 244, 170),
    "I": (255, 248, 226),  # horns, spikes, claws
    "i": (200, 188, 160),
    "C": (255, 230, 160),  # belly plates
    "c": (220, 170, 96),
    "R": (220, 40, 48),
    "r": (130, 20, 30),
    "A": (188, 196, 216),  # hammer
    "a": (112, 120, 150),
    "n": (150, 80, 40),
}


class Grid:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.g = [["."] * w for _ in range(h)]

    def put(self, x, y, ch):
        if 0 <= x < self.w and 0 <= y < self.h:
            self.g[y][x] = ch

    def ellipse(self, cx, cy, rx, ry, shade, clip=None):
        """shade(nx, ny) -> letter, with nx, ny the pixel's position in the unit ellipse."""
        for y in range(self.h):
            for x in range(self.w):
                nx, ny = (x + 0.5 - cx) / rx, (y + 0.5 - cy) / ry
                if nx * nx + ny * ny <= 1.0 and (clip is None or clip(x, y)):
                    self.put(x, y, shade(nx, ny))

    def line(self, pts, ch, width=1):
        for (x0, y0), (x1, y1) in zip(pts[:-1], pts[1:]):
            n = int(max(abs(x1 - x0), abs(y1 - y0)) * 2) + 1
            for i in range(n + 1):
                t = i / n
                x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
                for dy in range(width):
                    for dx in range(width):
                        self.put(int(math.floor(x)) + dx, int(math.floor(y)) + dy, ch)

    def rows(self):
        return ["".join(r) for r in self.g]


def _skin(nx, ny):
    if nx + ny < -0.9:
        return "E"
    if nx + ny > 0.7 or ny > 0.65:
        return "g"
    return "G"


def boss_leg(gr, x, lift, dark):
    """A thick leg from the hip down to the bottom row, with a clawed foot pointing left."""
    s, d = ("g", "j") if dark else ("G", "g")
    top = 22 if dark else 25
    bottom = 30 - lift
    for y in range(top, bottom - 1):
        for xx in range(x, x + 6):
            gr.put(xx, y, d if xx >= x + 4 else s)
    for xx in range(x - 2, x + 6):
        gr.put(xx, bottom - 1, s if xx < x + 4 else d)
        gr.put(xx, bottom, d)
    for cx in (x - 2, x, x + 2):
        gr.put(cx, bottom, "I")
    gr.put(x - 3, bottom, "i")


def boss_frame(pose):
    gr = Grid(32, 32)
    bob = 1 if pose == "b" else 0
    # legs: the far one first (darker), stepping opposite to the near one
    if pose == "a":
        boss_leg(gr, 20, 0, True)
        near = (9, 1)
    elif pose == "b":
        boss_leg(gr, 17, 1, True)
        near = (12, 0)
    else:
        boss_leg(gr, 19, 0, True)
        near = (10, 0)
    # tail with a spike
    gr.line([(24, 24 + bob), (28, 26 + bob), (30, 28)], "g", 2)
    gr.put(31, 28, "I")
    gr.put(31, 27, "i")
    # the shell: a high dome on the back with a gold rim and ivory spikes
    def shell(nx, ny):
        r = nx * nx + ny * ny
        if r > 0.78:
            return "Q" if nx + ny < 0.3 else "q"
        if nx + ny < -0.75:
            return "U"
        if nx + ny > 0.55:
            return "v"
        return "V"

    gr.ellipse(20.5, 15.0 + bob, 10.0, 10.5, shell, clip=lambda x, y: y <= 24 + bob)
    # plate seams on the shell
    for (x, y) in [(17, 10), (18, 9), (19, 9), (20, 10), (20, 11), (19, 12), (18, 12), (17, 11),
                   (23, 15), (24, 14), (25, 14), (26, 15), (26, 16), (25, 17), (24, 17), (23, 16),
                   (17, 18), (18, 17), (19, 17), (20, 18), (20, 19), (19, 20), (18, 20), (17, 19)]:
        if gr.g[y + bob][x] in "VUv":
            gr.put(x, y + bob, "v")
    for (x, y, h) in [(16, 4, 3), (21, 3, 3), (26, 5, 3), (29, 10, 2)]:
        for k in range(h):
            for xx in range(x - (h - 1 - k) // 2 - (1 if k == h - 1 else 0), x + 1 + (h - 1 - k) // 2):
                gr.put(xx, y + k + bob - (h - 2), "I" if xx <= x else "i")
        gr.put(x, y + bob - (h - 1), "I")
    # belly plates
    def belly(nx, ny):
        yy = int((ny + 1) * 4.5)
        if yy % 3 == 2:
            return "c"
        return "C" if nx < 0.35 else "c"

    gr.ellipse(10.5, 21.5 + bob, 6.0, 6.2, belly, clip=lambda x, y: y <= 27)
    # the near leg in front of the belly
    boss_leg(gr, near[0], near[1], False)
    # head and jaw
    gr.ellipse(9.0, 10.0 + bob, 7.0, 6.0, _skin)
    gr.ellipse(5.0, 13.5 + bob, 4.8, 3.0, _skin)
    for x in range(1, 9):  # mouth line with fangs
        gr.put(x, 14 + bob, "j")
    for (x, y, ch) in [(2, 13, "I"), (5, 13, "I"), (3, 15, "I"), (7, 15, "i")]:
        gr.put(x, y + bob, ch)
    gr.put(1, 11 + bob, "j")  # nostril
    # eye under an angry brow
    for (x, y, ch) in [(6, 8, "W"), (7, 8, "W"), (6, 9, "W"), (7, 9, "R"), (5, 7, "j"), (6, 7, "j"), (7, 6, "j"), (8, 6, "j")]:
        gr.put(x, y + bob, ch)
    # horns sweeping up and back
    gr.line([(4.5, 6 + bob), (3, 3 + bob), (3.5, 0.5 + bob)], "I", 2)
    gr.put(3, 0 + bob, "i")
    gr.line([(12, 5 + bob), (14, 2.5 + bob), (16.5, 1.5 + bob)], "i", 2)
    gr.line([(12, 4 + bob), (14, 1.5 + bob), (16, 1 + bob)], "I", 1)
    gr.put(17, 1 + bob, "I")
    # crown
    for x in range(7, 12):
        for y in range(3, 6):
            gr.put(x, y + bob, "Q" if x < 10 else "q")
    for (x, y) in [(7, 2), (9, 1), (9, 2), (11, 2)]:
        gr.put(x, y + bob, "Z" if x < 10 else "Q")
    gr.put(8, 4 + bob, "R")
    gr.put(10, 4 + bob, "R")
    # the near arm
    if pose == "throw":
        # the hammer held high over the shell
        gr.line([(18.5, 9.5), (19.5, 4.5)], "n", 2)
        for y in range(1, 5):
            for x in range(16, 24):
                gr.put(x, y, "Z" if y == 1 and x < 22 else "A" if y < 3 else "a")
        gr.line([(12, 19), (14, 16), (16, 13), (17, 10)], "E", 2)
        gr.line([(13, 20), (15, 17), (17, 14), (18, 12)], "g", 1)
        for (x, y) in [(17, 9), (18, 9), (19, 9), (19, 10), (20, 10)]:
            gr.put(x, y, "G")
        gr.put(16, 10, "I")
        gr.put(20, 11, "I")
    else:
        gr.line([(11, 18 + bob), (7, 20 + bob), (4, 20 + bob)], "G", 2)
        gr.line([(8, 21 + bob), (5, 21 + bob)], "g", 1)
        gr.put(3, 20 + bob, "I")
        gr.put(3, 22 + bob, "I")
        gr.put(2, 21 + bob, "i")
    img = sprite(gr.rows(), BOSS_PAL)
    return bottom_align(img)


def make_boss():
    return hstrip([boss_frame(k) for k in ("a", "b", "throw")])


AXE = [
    "................",
    ".........nn.....",
    "...IAa...nn.....",
    "..IAAAa..nn.....",
    ".IAAAAAaanna....",
    ".IAAAAAaannAa...",
    ".IAAAAAaanna....",
    "..IAAAa..nn.....",
    "...IAa...nn.....",
    ".........nn.....",
    ".........nn.....",
    ".........nn.....",
    ".........nn.....",
    ".........bb.....",
    ".........bb.....",
    "................",
]


def make_axe():
    pal = {"A": (176, 186, 212), "a": (92, 100, 132), "I": (244, 248, 255), "n": (176, 104, 56), "b": (100, 54, 30)}
    off = sprite(AXE, pal)
    on = off.copy()
    # a glint on the blade's edge
    for (x, y, c) in [(2, 2, (255, 255, 255)), (2, 1, (255, 255, 200)), (1, 2, (255, 255, 200)),
                      (3, 2, (255, 255, 200)), (2, 3, (255, 255, 200)), (1, 5, (255, 255, 255)), (4, 4, (255, 255, 255))]:
        on.set(x, y, c)
    return hstrip([off, on])


def make_bridge():
    """Castle chain bridge: a riveted plank in the top 8 rows, chain links hanging below."""
    p = dict(out=(34, 8, 16), hl=(222, 118, 84), mid=(168, 62, 48), dark=(108, 30, 30))
    t = Img(16, 16)
    for y in range(8):
        for x in range(16):
            c = p["mid"]
            if y in (0, 7):
                c = p["out"]
            elif y == 1:
                c = p["hl"]
            elif y == 6:
                c = p["dark"]
            elif x == 15:
                c = p["out"]
            elif x == 0:
                c = p["hl"]
            t.set(x, y, c)
    for (x, y) in [(3, 3), (12, 3)]:
        t.set(x, y, p["out"])
        t.set(x, y + 1, p["dark"])
        t.set(x - 1, y, p["hl"])
    # a chain strung along under the planks: alternating upright and flat links, 8 px period
    metal, shade, hole = (196, 200, 216), (110, 116, 140), OUT
    chain = Img(16, 16)
    for x0 in (0, 8):
        # upright oval link
        for (x, y) in [(1, 9), (2, 9), (0, 10), (3, 10), (0, 11), (3, 11), (1, 12), (2, 12)]:
            chain.set(x0 + x, y, metal if y < 11 else shade)
        # flat link joining to the next one
        for x in range(4, 8):
            chain.set(x0 + x, 10, metal)
            chain.set(x0 + x, 11, shade)
    chain = add_outline(chain, hole)
    # the outline must stay below the plank and wrap across the tile edge like the links do
    for y in range(8, 16):
        for x in range(16):
            c = chain.get(x, y)
            if c[3]:
                t.set(x, y, c)
    return t


def make_flag():
    """The pennant that slides down the flagpole: points left, the right edge rides the pole."""
    t = Img(16, 16)
    top, bot, tip = 1, 14, 1
    mid = (top + bot) / 2.0
    for y in range(top, bot + 1):
        span = 1.0 - abs(y - mid) / ((bot - top) / 2.0 + 0.5)
        x0 = int(round(15 - span * (15 - tip)))
        for x in range(x0, 16):
            c = (252, 252, 252)
            if y >= mid + 2:
                c = (208, 220, 236)
            t.set(x, y, c)
    for y in range(16):
        for x in range(16):
            if math.hypot(x - 10.5, y - 7.5) <= 2.6 and t.op(x, y):
                t.set(x, y, (28, 180, 170))
    t.set(9, 6, (252, 208, 56))
    t.set(10, 6, (252, 208, 56))
    t.set(9, 5, (255, 246, 170))
    return add_outline(t, OUT)


CASTLE_DOOR = (32, 56)  # top-left of the 16 x 24 doorway
CASTLE_DOOR_DARK = (12, 6, 16)


def make_castle_small():
    """The little castle at the end of a level: 80x80, an open door centred at the bottom."""
    W = H = 80
    stone = dict(hl=(236, 200, 160), mid=(200, 150, 110), dark=(150, 100, 70), mortar=(88, 48, 34))
    img = Img(W, H)

    def masonry(x0, y0, x1, y1):
        for y in range(y0, y1):
            for x in range(x0, x1):
                course = (y - y0) // 4
                xo = (x + (4 if course % 2 else 0)) % 8
                yo = (y - y0) % 4
                if yo == 3 or xo == 7:
                    c = stone["mortar"]
                elif yo == 0:
                    c = stone["hl"]
                elif xo == 6:
                    c = stone["dark"]
                else:
                    c = stone["mid"]
                img.set(x, y, c)

    def battlements(x0, x1, y):
        # merlons 4 wide, 4 tall, gaps of 4 on a 8 px rhythm, starting and ending with a merlon
        for x in range(x0, x1):
            if ((x - x0) % 8) < 4 or x >= x1 - 4:
                for yy in range(y - 4, y):
                    c = stone["hl"] if yy == y - 4 else stone["mid"] if (x - x0) % 8 not in (3,) else stone["dark"]
                    img.set(x, yy, c)

    # lower keep and the tower on top
    masonry(0, 44, 80, 80)
    battlements(0, 80, 44)
    masonry(20, 16, 60, 44)
    battlements(20, 60, 16)
    # tower windows (dark, arched)
    for wx in (28, 48):
        for y in range(22, 36):
            for x in range(wx - 2, wx + 2):
                if y > 22 or x in (wx - 1, wx):
                    img.set(x, y, (20, 12, 24))
    # the door: 16 x 24, dark, centred at the bottom; its round top sits inside the 24 rows,
    # under a ring of arch stones
    for y in range(46, 80):
        for x in range(28, 52):
            d = math.hypot(x + 0.5 - 40, y + 0.5 - 64)
            if y < 64 and 8 <= d < 11:
                img.set(x, y, stone["hl"] if d < 9.5 else stone["dark"])
            elif y >= 64 and x in (29, 30, 31, 48, 49, 50):
                img.set(x, y, stone["hl"] if x in (30, 31) else stone["dark"] if x in (48, 49) else stone["mortar"])
    for y in range(CASTLE_DOOR[1], 80):
        for x in range(CASTLE_DOOR[0], CASTLE_DOOR[0] + 16):
            if y >= 64 or math.hypot(x + 0.5 - 40, y + 0.5 - 64) <= 8.2:
                img.set(x, y, CASTLE_DOOR_DARK)
    # a little flag on the tower
    for y in range(2, 12):
        img.set(40, y, (232, 232, 240))
    for y in range(2, 7):
        for x in range(41, 41 + (7 - y) + 2):
            img.set(x, y, (252, 208, 56))
    img.set(41, 3, (255, 246, 170))
    # dark outline on the silhouette (not on the door)
    return add_outline(img, OUT)


# ---------------------------------------------------------------------------
# Backgrounds (512x240, seamless horizontally)
# ---------------------------------------------------------------------------

BW, BH = 512, 240


def pnoise(seed, points):
    """Smooth periodic 1D noise over x in [0, BW): returns f(x) in [0,1]."""
    rng = random.Random(seed)
    vals = [rng.random() for _ in range(points)]

    def f(x):
        t = (x % BW) / BW * points
        i = int(t)
        fr = t - i
        a, b = vals[i % points], vals[(i + 1) % points]
        s = (1 - math.cos(fr * math.pi)) / 2
        return a + (b - a) * s

    return f


def fractal(seed, base_points, octaves=3):
    fs = [pnoise(seed + i * 101, base_points * (2 ** i)) for i in range(octaves)]

    def f(x):
        tot = norm = 0.0
        amp = 1.0
        for g in fs:
            tot += g(x) * amp
            norm += amp
            amp *= 0.5
        return tot / norm

    return f


class Mask:
    def __init__(self):
        self.m = bytearray(BW * BH)

    def on(self, x, y):
        if y < 0 or y >= BH:
            return False
        return self.m[y * BW + (x % BW)] != 0

    def put(self, x, y, v=1):
        if 0 <= y < BH:
            self.m[y * BW + (x % BW)] = v


def gradient_bg(colors, t_of_y):
    img = Img(BW, BH)
    for y in range(BH):
        t = t_of_y(y)
        for x in range(BW):
            img.px[y * BW + x] = rgba(dither_pick(colors, t, x, y))
    return img


def draw_blobs(img, blobs, pal, outline=True, inner_lines=True, rim=0.28, grad=False):
    """Draw overlapping shaded circles (cx, cy, r) in order, then outline the union.

    A pixel is lit when stepping towards the light (upper left) leaves its
    circle, and shadowed when stepping away from it does.
    pal: dict(hl, mid, dark, out[, hl2]).  Everything wraps horizontally."""
    mask = Mask()
    lx, ly = -0.6, -0.8
    for (cx, cy, r) in blobs:
        ir = int(r) + 1
        k = max(2.0, r * rim)
        for y in range(int(cy) - ir, int(cy) + ir + 1):
            if y < 0 or y >= BH:
                continue
            for xx in range(int(cx) - ir, int(cx) + ir + 1):
                dx, dy = xx - cx, y - cy
                d = math.hypot(dx, dy)
                if d > r:
                    continue
                x = xx % BW
                if inner_lines and d > r - 1.2 and dy > -r * 0.3 and mask.on(x, y):
                    c = pal["out"] if outline else pal["dark"]
                else:
                    if math.hypot(dx + lx * k, dy + ly * k) > r:
                        c = pal["hl"]
                        if "hl2" in pal and math.hypot(dx + lx * k * 0.45, dy + ly * k * 0.45) > r:
                            c = pal["hl2"]
                    elif math.hypot(dx - lx * k * 0.8, dy - ly * k * 0.8) > r:
                        c = pal["dark"]
                    else:
                        c = pal["mid"]
                        if grad and dy > 0:
                            c = dither_pick([pal["mid"], pal["dark"]], dy / (r * 0.6), x, y)
                img.set(x, y, c)
                mask.put(x, y)
    if outline:
        outline_mask(img, mask, pal["out"])
    return mask


def outline_mask(img, mask, color):
    edge = []
    for y in range(BH):
        for x in range(BW):
            if not mask.on(x, y):
                continue
            if not (mask.on(x - 1, y) and mask.on(x + 1, y) and mask.on(x, y - 1) and (y == BH - 1 or mask.on(x, y + 1))):
                edge.append((x, y))
    for (x, y) in edge:
        img.set(x, y, color)


# -- overworld ---------------------------------------------------------------


def cloud_blobs(cx, cy, size, rng):
    blobs = []
    n = 3 + int(size > 1.2)
    for i in range(n):
        ox = (i - (n - 1) / 2) * 9 * size
        r = (7 + rng.random() * 4) * size
        if i in (1, n - 2):
            r *= 1.25
        blobs.append((cx + ox, cy - r * 0.35, r))
    # flat-ish bottom
    blobs.append((cx, cy + 2 * size, (n * 4.2) * size))
    return blobs


def draw_cloud(img, cx, cy, size, rng, pal):
    blobs = cloud_blobs(cx, cy, size, rng)
    bottom = cy + 4 * size
    mask = Mask()
    for (bx, by, r) in blobs[:-1]:
        ir = int(r) + 1
        for y in range(int(by) - ir, int(by) + ir + 1):
            for xx in range(int(bx) - ir, int(bx) + ir + 1):
                if math.hypot(xx - bx, y - by) <= r and y <= bottom:
                    mask.put(xx, y)
    for y in range(max(0, int(cy - 40 * size)), min(BH, int(bottom) + 1)):
        for x in range(BW):
            if mask.on(x, y):
                below = y >= bottom - 3 * size
                c = pal["shade"] if below else pal["body"]
                if not mask.on(x, y - 2) and not below:
                    c = pal["light"]
                img.set(x, y, c)
    outline_mask(img, mask, pal["edge"])


def bg_overworld():
    sky = [(72, 136, 248), (92, 156, 252), (116, 178, 252), (146, 200, 252), (180, 222, 252)]
    img = gradient_bg(sky, lambda y: (y - 10) / 150.0)
    rng = random.Random(11)
    cpal = dict(body=(248, 252, 255), light=(255, 255, 255), shade=(206, 226, 252), edge=(150, 190, 246))
    for (cx, cy, s) in [(40, 40, 1.0), (150, 78, 0.7), (236, 30, 1.3), (330, 92, 0.6), (420, 52, 1.1), (490, 100, 0.55)]:
        draw_cloud(img, cx, cy, s, rng, cpal)
    # far mountains
    f = fractal(5, 6, 3)
    mpal = [(132, 196, 214), (112, 178, 204), (96, 160, 190)]
    for x in range(BW):
        top = int(118 + f(x) * 60)
        for y in range(top, BH):
            c = mpal[0]
            if y == top:
                c = (172, 222, 236)
            elif y > top + 20:
                c = dither_pick(mpal, (y - top - 20) / 40.0, x, y)
            img.set(x, y, c)
    # snow caps on the highest peaks
    for x in range(BW):
        top = int(118 + f(x) * 60)
        if top < 140:
            for y in range(top, min(top + (140 - top) // 3 + 1, BH)):
                img.set(x, y, (236, 246, 252) if y > top else (255, 255, 255))
    # rolling green hills
    hill = dict(out=(26, 92, 52), hl=(136, 220, 104), mid=(80, 180, 76), dark=(52, 146, 64))
    blobs = []
    for i, (cx, r) in enumerate([(20, 46), (100, 64), (190, 40), (262, 72), (350, 50), (430, 60), (500, 38)]):
        blobs.append((cx, 196 + r * 0.35, r))
    for y in range(206, BH):
        for x in range(BW):
            img.set(x, y, hill["dark"] if y > 206 else hill["out"])
    draw_blobs(img, blobs, hill, inner_lines=True, rim=0.12, grad=True)
    # little dotted texture on the hills
    rng = random.Random(3)
    for _ in range(260):
        x, y = rng.randrange(BW), rng.randrange(150, BH)
        if img.get(x, y)[:3] in (hill["mid"], hill["dark"]) and img.get(x, y - 1)[:3] in (hill["mid"], hill["dark"]):
            img.set(x, y, hill["dark"] if img.get(x, y)[:3] == hill["mid"] else hill["out"])
            img.set(x + 1, y, hill["hl"] if img.get(x, y)[:3] == hill["dark"] else hill["dark"])
    return img


def near_overworld():
    img = Img(BW, BH)
    rng = random.Random(21)
    # trees
    trunk = dict(out=(52, 28, 20), hl=(176, 112, 64), mid=(138, 82, 46), dark=(98, 56, 32))
    canopy = dict(out=(14, 64, 36), hl=(112, 206, 92), mid=(60, 160, 70), dark=(34, 118, 56), hl2=(170, 236, 120))
    for tx in (70, 300, 420):
        top = 150 + rng.randrange(-8, 8)
        for y in range(top, BH):
            for x in range(tx - 5, tx + 6):
                c = trunk["mid"]
                if x == tx - 5 or x == tx + 5:
                    c = trunk["out"]
                elif x <= tx - 3:
                    c = trunk["hl"]
                elif x >= tx + 3:
                    c = trunk["dark"]
                elif (y * 7 + x * 3) % 11 == 0:
                    c = trunk["dark"]
                img.set(x, y, c)
        blobs = []
        cy = top - 18
        for (ox, oy, r) in [(-15, 6, 17), (15, 6, 17), (0, -10, 21), (0, 10, 17)]:
            blobs.append((tx + ox, cy + oy, r + rng.randrange(-2, 3)))
        draw_blobs(img, blobs, canopy)
    # bush band along the bottom
    bush = dict(out=(16, 70, 34), hl=(150, 230, 100), mid=(80, 188, 66), dark=(40, 136, 52), hl2=(196, 246, 150))
    blobs = []
    x = 0
    while x < BW:
        r = 12 + rng.randrange(0, 12)
        blobs.append((x, 232 - rng.randrange(0, 14), r))
        x += 14 + rng.randrange(0, 10)
    # blobs wrap horizontally (Mask / Img.set use x % BW), so the band is seamless
    draw_blobs(img, blobs, bush)
    for y in range(226, BH):
        for x in range(BW):
            if not img.op(x, y):
                img.set(x, y, bush["dark"])
    # flowers on the bushes
    for _ in range(40):
        x, y = rng.randrange(BW), rng.randrange(200, 236)
        if img.get(x, y)[:3] == bush["mid"] and img.get(x, y - 1)[:3] == bush["mid"]:
            img.set(x, y, (255, 255, 255) if rng.random() < 0.5 else (255, 220, 80))
    return img


# -- underground -------------------------------------------------------------


def bg_underground():
    cols = [(14, 12, 32), (20, 18, 44), (28, 26, 60), (38, 34, 76)]
    img = gradient_bg(cols, lambda y: y / 239.0)
    rng = random.Random(31)
    # distant rock formations from the bottom
    f = fractal(7, 8, 3)
    rock = [(40, 40, 82), (32, 32, 68)]
    for x in range(BW):
        top = int(130 + f(x) * 70)
        for y in range(top, BH):
            c = (58, 58, 104) if y == top else dither_pick(rock, (y - top) / 60.0, x, y)
            img.set(x, y, c)
    # stalactites from the ceiling
    for i in range(14):
        cx = i * (BW // 14) + rng.randrange(0, 20)
        w = rng.randrange(8, 20)
        ln = rng.randrange(30, 100)
        for y in range(0, ln):
            half = w * (1 - y / ln) / 2
            for xx in range(int(cx - half), int(cx + half) + 1):
                c = (52, 52, 98)
                if xx - cx < -half + 2:
                    c = (76, 76, 128)
                elif xx - cx > half - 2:
                    c = (34, 34, 70)
                img.set(xx % BW, y, c)
    # ceiling band
    g = fractal(9, 16, 2)
    for x in range(BW):
        h = int(6 + g(x) * 14)
        for y in range(0, h):
            img.set(x, y, (34, 34, 70) if y < h - 1 else (60, 60, 108))
    # crystals
    for i in range(22):
        x, y = rng.randrange(BW), rng.randrange(40, 230)
        if img.get(x, y)[:3] in rock or y > 150:
            col = [(88, 224, 240), (184, 128, 252), (120, 250, 190)][i % 3]
            for dy in range(-2, 3):
                for dx in range(-1, 2):
                    if abs(dx) + abs(dy) <= 2:
                        img.set((x + dx) % BW, y + dy, col if dx <= 0 else mul(col, 0.7))
            img.set(x % BW, y - 2, (255, 255, 255))
    # dust speckles
    for _ in range(90):
        x, y = rng.randrange(BW), rng.randrange(BH)
        if img.get(x, y)[:3] in cols:
            img.set(x, y, (60, 60, 110))
    return img


def near_underground():
    img = Img(BW, BH)
    rng = random.Random(41)
    pal = dict(out=(14, 14, 34), hl=(104, 110, 160), mid=(70, 74, 120), dark=(46, 48, 86))
    mask = Mask()
    f = fractal(13, 10, 3)
    for x in range(BW):
        top = int(206 + f(x) * 26)
        for y in range(top, BH):
            mask.put(x, y)
    # stalagmites
    for i in range(7):
        cx = i * (BW // 7) + rng.randrange(0, 30)
        w = rng.randrange(26, 44)
        h = rng.randrange(36, 80)
        for y in range(BH - h, BH):
            half = w * ((y - (BH - h)) / h) ** 0.55 / 2
            for xx in range(int(round(cx - half)), int(round(cx + half)) + 1):
                mask.put(xx, y)
    # shading by distance to the left / top edges
    for y in range(BH):
        for x in range(BW):
            if not mask.on(x, y):
                continue
            c = pal["mid"]
            if not mask.on(x - 2, y) or not mask.on(x, y - 2):
                c = pal["hl"]
            elif not mask.on(x + 2, y) or not mask.on(x + 3, y):
                c = pal["dark"]
            elif (x * 13 + y * 7) % 29 == 0:
                c = pal["dark"]
            img.set(x, y, c)
    outline_mask(img, mask, pal["out"])
    # crystal clusters
    for i in range(7):
        cx = rng.randrange(BW)
        top = min(y for y in range(BH) if mask.on(cx, y)) if any(mask.on(cx, y) for y in range(BH)) else 220
        col = [(88, 224, 240), (190, 130, 255)][i % 2]
        for (ox, h) in [(-4, 10), (0, 16), (4, 8)]:
            for y in range(top - h + 4, top + 4):
                for xx in range(cx + ox - 1, cx + ox + 2):
                    c = col if xx <= cx + ox else mul(col, 0.65)
                    if y == top - h + 4:
                        c = (255, 255, 255) if xx == cx + ox else pal["out"]
                    img.set(xx % BW, y, c)
            for y in range(top - h + 4, top + 4):
                img.set((cx + ox - 2) % BW, y, pal["out"])
                img.set((cx + ox + 2) % BW, y, pal["out"])
    return img


# -- sky ---------------------------------------------------------------------


def bg_sky():
    cols = [(104, 170, 250), (136, 192, 252), (172, 212, 252), (210, 226, 252), (246, 226, 242), (255, 212, 220)]
    img = gradient_bg(cols, lambda y: y / 239.0)
    # sun with dithered halo
    sx, sy = 380, 64
    for y in range(sy - 40, sy + 41):
        for xx in range(sx - 40, sx + 41):
            d = math.hypot(xx - sx, y - sy)
            x = xx % BW
            if d <= 16:
                img.set(x, y, (255, 250, 214) if d < 13 else (255, 236, 170))
            elif d <= 36:
                t = (36 - d) / 20.0
                if t * 16 > BAYER4[y & 3][x & 3] + 8:
                    img.set(x, y, mix(img.get(x, y), (255, 244, 214), 0.55))
    # wispy streaks
    rng = random.Random(51)
    for _ in range(12):
        y = rng.randrange(20, 110)
        x0 = rng.randrange(BW)
        ln = rng.randrange(30, 90)
        for i in range(ln):
            img.set((x0 + i) % BW, y, (236, 244, 255))
            if 6 < i < ln - 6:
                img.set((x0 + i + 3) % BW, y + 1, (214, 230, 252))
    # floating islands (distant, hazy)
    for (ix, iy, w) in [(90, 120, 40), (250, 96, 24), (470, 134, 30)]:
        depth_max = int(w * 0.55)
        for y in range(iy, iy + depth_max):
            depth = y - iy
            k = max(0.0, (depth - 3) / (depth_max - 3))
            half = w / 2 * (1 - k ** 1.5) + (1 if depth in (1, 2) else 0)
            for xx in range(int(round(ix - half)), int(round(ix + half)) + 1):
                if depth == 0:
                    c = (198, 238, 204)
                elif depth <= 3:
                    c = (156, 214, 176)
                else:
                    c = (160, 172, 222) if xx < ix + half * 0.3 else (140, 150, 208)
                img.set(xx % BW, y, c)
        # a tiny tree
        for y in range(iy - 6, iy):
            img.set(ix - w // 4, y, (136, 120, 170))
        for y in range(iy - 13, iy - 4):
            for xx in range(ix - w // 4 - 4, ix - w // 4 + 5):
                if math.hypot(xx - (ix - w // 4), y - (iy - 9)) <= 4.2:
                    img.set(xx % BW, y, (150, 206, 170) if y < iy - 9 else (128, 188, 160))
    # cloud sea at the bottom (two tones)
    back = dict(out=(226, 196, 232), hl=(255, 236, 246), mid=(244, 220, 240), dark=(228, 198, 232))
    blobs = [(x * 32 + (x % 3) * 7, 190 + (x * 7) % 13, 22 + (x * 5) % 11) for x in range(16)]
    draw_blobs(img, blobs, back, outline=False, inner_lines=False)
    front = dict(out=(200, 190, 236), hl=(252, 244, 255), mid=(236, 226, 250), dark=(214, 204, 242))
    blobs = [(x * 40 + 18, 222 + (x * 5) % 9, 20 + (x * 7) % 9) for x in range(13)]
    draw_blobs(img, blobs, front, outline=False, inner_lines=False)
    for y in range(226, BH):
        for x in range(BW):
            img.set(x, y, front["mid"] if img.get(x, y)[:3] not in (front["hl"], front["dark"]) else img.get(x, y))
    return img


def near_sky():
    img = Img(BW, BH)
    pal = dict(out=(150, 140, 212), hl=(246, 236, 255), mid=(226, 214, 248), dark=(196, 184, 236), hl2=(255, 250, 255))
    rng = random.Random(61)
    blobs = []
    x = 0
    while x < BW:
        r = 14 + rng.randrange(0, 16)
        blobs.append((x, 236 - rng.randrange(0, 16), r))
        x += 18 + rng.randrange(0, 12)
    draw_blobs(img, blobs, pal)
    for y in range(228, BH):
        for x in range(BW):
            if not img.op(x, y):
                img.set(x, y, pal["dark"])
    # a few small floating puffs
    for (cx, cy) in [(120, 150), (360, 170)]:
        draw_blobs(img, [(cx - 8, cy, 8), (cx + 6, cy - 2, 10), (cx + 18, cy + 1, 7)], pal)
    return img


# -- castle ------------------------------------------------------------------


def bg_castle():
    img = Img(BW, BH)
    brick = [(58, 50, 76), (52, 44, 70), (64, 56, 84)]
    mortar = (32, 26, 44)
    for y in range(BH):
        course = y // 8
        for x in range(BW):
            xo = (x + (8 if course % 2 else 0)) % 16
            yo = y % 8
            bi = (((x + (8 if course % 2 else 0)) % BW) // 16 * 7 + course * 13) % 3
            c = brick[bi]
            if yo == 7 or xo == 15:
                c = mortar
            elif yo == 0:
                c = mix(c, (96, 88, 120), 0.5)
            img.set(x, y, c)
    # darker vignette at top and bottom (dithered)
    for y in range(BH):
        t = max(0.0, (y - 170) / 70.0, (40 - y) / 40.0)
        for x in range(BW):
            if t * 16 > BAYER4[y & 3][x & 3] + 0.5:
                img.set(x, y, mul(img.get(x, y), 0.65))
    # arched windows
    for wx in (80, 336):
        for y in range(36, 132):
            for xx in range(wx - 14, wx + 15):
                dx = xx - wx
                inside = abs(dx) <= 10 and (y >= 56 or math.hypot(dx, y - 56) <= 10)
                frame = abs(dx) <= 14 and (y >= 56 or math.hypot(dx, y - 56) <= 14)
                if inside:
                    c = dither_pick([(20, 16, 56), (36, 26, 84), (58, 36, 104)], (y - 46) / 86.0, xx, y)
                    if y > 124:
                        c = (92, 84, 112)
                    img.set(xx, y, c)
                elif frame:
                    img.set(xx, y, (96, 88, 120) if dx < 0 else (76, 68, 98))
        # stars and a moon in the first window
        for (sx, sy) in [(-6, 60), (5, 72), (-3, 90), (7, 104), (0, 50)]:
            img.set(wx + sx, sy, (236, 232, 255))
        if wx == 80:
            for y in range(62, 72):
                for xx in range(wx - 2, wx + 9):
                    if math.hypot(xx - wx - 3, y - 67) <= 4.5 and math.hypot(xx - wx - 5, y - 65) > 3.5:
                        img.set(xx, y, (255, 246, 200))
        # window bars
        for y in range(46, 125):
            img.set(wx, y, (24, 20, 36))
        for xx in range(wx - 10, wx + 11):
            img.set(xx, 88, (24, 20, 36))
        # sill
        for xx in range(wx - 16, wx + 17):
            img.set(xx, 132, (120, 112, 144))
            img.set(xx, 133, (84, 76, 108))
            img.set(xx, 134, (24, 20, 36))
    # banners
    for bx in (208, 464):
        for y in range(0, 112):
            for xx in range(bx - 14, bx + 15):
                dx = xx - bx
                tail = y > 96 and abs(dx) < (y - 96) * 0.9
                if tail:
                    continue
                c = (150, 26, 40)
                if abs(dx) >= 12:
                    c = (232, 180, 60) if dx < 0 else (176, 120, 36)
                elif dx < -7:
                    c = (182, 44, 56)
                elif dx > 7:
                    c = (112, 16, 32)
                img.set(xx, y, c)
        # emblem: a diamond with a round eye (original crest)
        for y in range(30, 66):
            for xx in range(bx - 10, bx + 11):
                d = abs(xx - bx) + abs(y - 48) * 0.6
                if d <= 9:
                    img.set(xx, y, (244, 196, 72) if d > 6 else (150, 26, 40) if d > 4 else (255, 232, 140))
        for xx in range(bx - 16, bx + 17):
            img.set(xx, 0, (40, 30, 40))
            img.set(xx, 1, (120, 100, 80))
    # torches with glow
    for tx in (16, 144, 272, 400):
        ty = 150
        for y in range(ty - 40, ty + 30):
            for xx in range(tx - 40, tx + 41):
                d = math.hypot(xx - tx, (y - ty) * 1.2)
                x = xx % BW
                if d < 36 and (36 - d) / 36 * 16 > BAYER4[y & 3][x & 3] + 4:
                    img.set(x, y, mix(img.get(x, y), (200, 110, 60), 0.35))
        for y in range(ty, ty + 18):
            for xx in range(tx - 3, tx + 4):
                img.set(xx % BW, y, (70, 60, 66) if abs(xx - tx) < 3 else (30, 24, 34))
        for y in range(ty - 12, ty):
            w = (y - (ty - 12)) / 12 * 5
            for xx in range(int(tx - w), int(tx + w) + 1):
                d = abs(xx - tx) / max(w, 1)
                c = (255, 246, 170) if d < 0.4 else (255, 176, 64) if d < 0.8 else (232, 88, 40)
                img.set(xx % BW, y, c)
    return img


def near_castle():
    img = Img(BW, BH)
    pal = dict(out=(16, 12, 24), hl=(150, 146, 170), mid=(110, 104, 130), dark=(74, 68, 92), deep=(54, 48, 70))
    # balustrade band
    for y in range(212, BH):
        for x in range(BW):
            c = pal["mid"]
            if y == 212:
                c = pal["out"]
            elif y == 213:
                c = pal["hl"]
            elif y in (218, 219):
                c = pal["dark"]
            elif y == 220:
                c = pal["out"]
            elif y > 220:
                xo = x % 16
                if xo in (0, 15):
                    c = pal["out"]
                elif xo in (4, 11) and y < 236:
                    c = pal["deep"]
                elif 4 < xo < 11 and y < 236:
                    c = (0, 0, 0, 0)
                elif y >= 236:
                    c = pal["dark"] if y < 239 else pal["out"]
            img.set(x, y, c)
    # pillars
    for i, (px, h, broken) in enumerate([(40, 150, False), (168, 96, True), (296, 170, False), (424, 120, True)]):
        top = BH - h
        for y in range(top, BH):
            for xx in range(px - 12, px + 13):
                dx = xx - px
                c = pal["mid"]
                if abs(dx) == 12:
                    c = pal["out"]
                elif dx < -8:
                    c = pal["hl"]
                elif dx > 7:
                    c = pal["dark"]
                elif dx in (-4, 0, 4) and (y % 2 == 0 or dx == 0):
                    c = pal["dark"] if dx != -4 else pal["hl"]
                img.set(xx, y, c)
        if broken:
            # jagged top
            prof = [0, 1, 1, 2, 4, 6, 7, 7, 5, 3, 2, 2, 3, 5, 8, 10, 9, 7, 5, 4, 4, 3, 2, 1, 0]
            if i % 2:
                prof = prof[::-1]
            for xx in range(px - 12, px + 13):
                cut = prof[xx - (px - 12)] + 1
                for y in range(top, top + cut):
                    img.set(xx, y, (0, 0, 0, 0))
                img.set(xx, top + cut, pal["out"])
                img.set(xx, top + cut + 1, pal["hl"])
        else:
            # capital
            for y in range(top - 10, top):
                for xx in range(px - 16, px + 17):
                    dx = xx - px
                    c = pal["mid"]
                    if y in (top - 10, top - 1) or abs(dx) == 16:
                        c = pal["out"]
                    elif y == top - 9:
                        c = pal["hl"]
                    elif y == top - 2:
                        c = pal["dark"]
                    elif y == top - 5:
                        c = pal["deep"]
                    img.set(xx, y, c)
            # hanging chain from the capital
            for y in range(top + 10, top + 40):
                if y % 4 != 3:
                    img.set(px + 14, y, (88, 88, 100))
                    img.set(px + 15, y, pal["out"])
    return img


# -- title and icon ------------------------------------------------------------

GLYPHS = {
    "S": [".XXXX.", "XX..XX", "XX....", ".XXXX.", "....XX", "XX..XX", ".XXXX."],
    "L": ["XX....", "XX....", "XX....", "XX....", "XX....", "XX....", "XXXXXX"],
    "O": [".XXXX.", "XX..XX", "XX..XX", "XX..XX", "XX..XX", "XX..XX", ".XXXX."],
    "P": ["XXXXX.", "XX..XX", "XX..XX", "XXXXX.", "XX....", "XX....", "XX...."],
    "E": ["XXXXXX", "XX....", "XX....", "XXXXX.", "XX....", "XX....", "XXXXXX"],
    "B": ["XXXXX.", "XX..XX", "XX..XX", "XXXXX.", "XX..XX", "XX..XX", "XXXXX."],
    "R": ["XXXXX.", "XX..XX", "XX..XX", "XXXXX.", "XX.XX.", "XX..XX", "XX..XX"],
}


def make_title():
    W, H = 256, 64
    sx, sy = 4, 5
    img = Img(W, H)
    word_cols = {
        0: [(255, 250, 200), (255, 226, 92), (252, 176, 40), (232, 104, 28)],
        1: [(220, 255, 246), (120, 236, 214), (32, 184, 172), (14, 118, 128)],
    }
    text = "SLOPE BROS"
    gw, gh = 6 * sx, 7 * sy
    gap = 2
    total = sum(gw + gap if ch != " " else 10 for ch in text) - gap
    x = (W - total) // 2
    mask = [[0] * W for _ in range(H)]
    color = [[None] * W for _ in range(H)]
    word = 0
    for i, ch in enumerate(text):
        if ch == " ":
            x += 10
            word = 1
            continue
        # letters of SLOPE climb a slope; BROS sits level on top
        k = i if word == 0 else 4
        y0 = 4 + (4 - k) * 2 + 3
        if word == 1:
            y0 = 4 + 3
        cols = word_cols[word]
        for gy, row in enumerate(GLYPHS[ch]):
            for gx, c in enumerate(row):
                if c != "X":
                    continue
                for yy in range(sy):
                    for xx in range(sx):
                        px, py = x + gx * sx + xx, y0 + gy * sy + yy
                        mask[py][px] = 1
                        t = (gy * sy + yy) / (gh - 1)
                        col = dither_pick(cols[1:], t, px, py)
                        if gy * sy + yy == 0 or (gy > 0 and row and GLYPHS[ch][gy - 1][gx] != "X" and yy == 0):
                            col = cols[0]
                        elif gx > 0 and row[gx - 1] != "X" and xx == 0:
                            col = mix(col, cols[0], 0.5)
                        color[py][px] = col
        x += gw + gap
    # drop shadow, then 2px outline around text+shadow
    shadow = (70, 28, 90)
    full = [[0] * W for _ in range(H)]
    for y in range(H):
        for x in range(W):
            if mask[y][x]:
                full[y][x] = 1
                for (dx, dy) in [(1, 1), (2, 2), (2, 3), (1, 3)]:
                    if y + dy < H and x + dx < W and not mask[y + dy][x + dx]:
                        full[y + dy][x + dx] = 2
    out = (34, 16, 48)
    for y in range(H):
        for x in range(W):
            if full[y][x] == 1:
                img.set(x, y, color[y][x])
            elif full[y][x] == 2:
                img.set(x, y, shadow)
    for r in (1, 2):
        snap = [[img.op(x, y) for x in range(W)] for y in range(H)]
        for y in range(H):
            for x in range(W):
                if snap[y][x]:
                    continue
                near = False
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] + ([(1, 1), (-1, -1), (1, -1), (-1, 1)] if r == 2 else []):
                    if 0 <= x + dx < W and 0 <= y + dy < H and snap[y + dy][x + dx]:
                        near = True
                        break
                if near:
                    img.set(x, y, out)
    return img


def make_icon(player_big):
    head = player_big.crop(0, 1, 16, 16)
    return head.scaled(2)


# ---------------------------------------------------------------------------
# Audio
# ---------------------------------------------------------------------------

SR = 22050
NOTE_BASE = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}


def note_num(s):
    i = 1
    acc = 0
    while s[i] in "#b":
        acc += 1 if s[i] == "#" else -1
        i += 1
    return 12 * (int(s[i:]) + 1) + NOTE_BASE[s[0]] + acc


def freq(n):
    if isinstance(n, str):
        n = note_num(n)
    return 440.0 * 2 ** ((n - 69) / 12.0)


def parse_seq(text):
    """'E5/2 G5/2 -/2' -> [(midi or None, steps)]"""
    out = []
    for tok in text.split():
        name, steps = tok.split("/")
        out.append((None if name == "-" else note_num(name), float(steps)))
    return out


def seq_len(seq):
    return sum(s for _, s in seq)


def _polyblep(t, dt):
    if t < dt:
        t /= dt
        return t + t - t * t - 1.0
    if t > 1.0 - dt:
        t = (t - 1.0) / dt
        return t * t + t + t + 1.0
    return 0.0


class Noise:
    """NES-style 15-bit LFSR noise, deterministic."""

    def __init__(self, short=False):
        self.reg = 1
        self.short = short

    def step(self):
        bit = (self.reg ^ (self.reg >> (6 if self.short else 1))) & 1
        self.reg = (self.reg >> 1) | (bit << 14)
        return 1.0 if self.reg & 1 else -1.0


def tone(buf, start, length, f0, wave_kind="square", duty=0.5, vol=0.3, attack=0.004, release=0.03,
         decay=0.0, sustain=1.0, f1=None, vibrato=0.0, vib_rate=5.5, vib_delay=0.12, wrap=False, noise_rate=None,
         short_noise=False, pitch_env=None):
    """Render one voice into buf (list of floats).

    length in samples (the voice is silent after it).  f1: glide target.
    decay: seconds for the level to fall from 1 to `sustain` (exponential-ish).
    pitch_env: optional function(t_seconds) -> multiplier on frequency."""
    n = len(buf)
    a_n = max(1, int(attack * SR))
    r_n = max(1, int(release * SR))
    phase = 0.0
    nz = Noise(short_noise) if wave_kind == "noise" else None
    nz_val = 0.0
    nz_acc = 0.0
    for i in range(length):
        t = i / SR
        fr = i / max(1, length - 1)
        f = f0 if f1 is None else f0 * (f1 / f0) ** fr
        if pitch_env is not None:
            f *= pitch_env(t)
        if vibrato and t > vib_delay:
            f *= 2 ** (vibrato * math.sin(2 * math.pi * vib_rate * (t - vib_delay)) / 12.0)
        dt = f / SR
        if wave_kind == "square":
            s = 1.0 if phase < duty else -1.0
            s += _polyblep(phase, dt)
            s -= _polyblep((phase - duty) % 1.0, dt)
            s -= 2 * duty - 1  # remove the pulse's DC offset
        elif wave_kind == "triangle":
            # 16-step quantised triangle, like the NES
            tri = 4 * phase - 1 if phase < 0.5 else 3 - 4 * phase
            s = round(tri * 7.5 + 7.5) / 7.5 - 1.0
        elif wave_kind == "sine":
            s = math.sin(2 * math.pi * phase)
        else:  # noise: f is the clock rate of the shift register
            nz_acc += (noise_rate or f) / SR
            while nz_acc >= 1.0:
                nz_acc -= 1.0
                nz_val = nz.step()
            s = nz_val
        phase = (phase + dt) % 1.0
        env = 1.0
        if i < a_n:
            env = i / a_n
        if decay > 0:
            env *= sustain + (1 - sustain) * math.exp(-t / decay)
        if i > length - r_n:
            env *= max(0.0, (length - i) / r_n)
        j = start + i
        if wrap:
            j %= n
        elif j >= n or j < 0:
            continue
        buf[j] += s * env * vol


def render_seq(buf, seq, sps, start_step=0.0, gate=0.92, transpose=0, wrap=True, **kw):
    pos = start_step
    for note, steps in seq:
        if note is not None:
            s0 = int(round(pos * sps))
            s1 = int(round((pos + steps) * sps))
            ln = max(1, int((s1 - s0) * gate))
            tone(buf, s0, ln, freq(note + transpose), wrap=wrap, **kw)
        pos += steps


DRUM_KINDS = {
    "k": dict(wave_kind="sine", vol=0.45, attack=0.001, release=0.02, pitch_env=lambda t: max(0.35, 1.0 - t * 9), decay=0.05, sustain=0.0),
    "s": dict(wave_kind="noise", noise_rate=9000, vol=0.22, attack=0.001, release=0.02, decay=0.04, sustain=0.0),
    "h": dict(wave_kind="noise", noise_rate=20000, vol=0.08, attack=0.001, release=0.01, decay=0.012, sustain=0.0, short_noise=False),
    "t": dict(wave_kind="triangle", vol=0.35, attack=0.001, release=0.02, decay=0.06, sustain=0.0, pitch_env=lambda t: max(0.5, 1.0 - t * 5)),
}
DRUM_FREQ = {"k": 130.0, "s": 1.0, "h": 1.0, "t": 180.0}
DRUM_LEN = {"k": 0.12, "s": 0.11, "h": 0.04, "t": 0.14}


def render_drums(buf, pattern, sps, bars, steps_per_bar, wrap=True):
    """pattern: string with one char per step ('.' = nothing), repeated every bar."""
    for b in range(bars):
        for i, ch in enumerate(pattern):
            if ch == ".":
                continue
            s0 = int(round((b * steps_per_bar + i) * sps))
            tone(buf, s0, int(DRUM_LEN[ch] * SR), DRUM_FREQ[ch], wrap=wrap, **DRUM_KINDS[ch])


def chord_stabs(buf, chords, sps, steps_per_bar, hits, vol=0.07, duty=0.125, octave=4, length=1.0):
    """chords: list per bar of chord names, each covering an equal part of the bar."""
    names = {"": [0, 4, 7], "m": [0, 3, 7], "7": [0, 4, 7, 10], "dim": [0, 3, 6]}
    for b, bar in enumerate(chords):
        parts = bar.split()
        for h in hits:
            idx = int(h / steps_per_bar * len(parts))
            ch = parts[idx]
            root = ch[0] + (ch[1] if len(ch) > 1 and ch[1] in "#b" else "")
            qual = ch[len(root):]
            r = note_num(root + str(octave))
            for iv in names[qual][1:3]:
                s0 = int(round((b * steps_per_bar + h) * sps))
                tone(buf, s0, int(sps * length * 0.9), freq(r + iv), duty=duty, vol=vol, release=0.02, decay=0.08, sustain=0.4, wrap=True)


def normalise(buf, peak):
    m = max(abs(v) for v in buf) or 1.0
    g = peak / m
    return [v * g for v in buf]


def fade(buf, fin=0.003, fout=0.012):
    n = len(buf)
    a, b = int(fin * SR), int(fout * SR)
    for i in range(min(a, n)):
        buf[i] *= i / a
    for i in range(min(b, n)):
        buf[n - 1 - i] *= i / b
    return buf


def save_wav(name, buf):
    path = os.path.join(AUD_DIR, name)
    data = bytearray()
    for v in buf:
        s = int(round(max(-1.0, min(1.0, v)) * 32767))
        data += struct.pack("<h", s)
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SR)
        w.writeframes(bytes(data))
    return buf


def sfx(seconds):
    return [0.0] * int(seconds * SR)


def finish_sfx(buf, peak=0.75):
    return fade(normalise(buf, peak))


def play_notes(buf, notes, step_s, start_s=0.0, **kw):
    """notes: 'C6/1 E6/2' with step length step_s seconds."""
    render_seq(buf, parse_seq(notes), step_s * SR, start_step=start_s / step_s, wrap=False, **kw)


def make_sfx():
    out = {}
    b = sfx(0.28)
    tone(b, 0, int(0.26 * SR), 330, duty=0.25, vol=0.5, f1=880, release=0.06, decay=0.2, sustain=0.4)
    out["jump.wav"] = b

    b = sfx(0.34)
    tone(b, 0, int(0.32 * SR), 196, duty=0.5, vol=0.5, f1=620, release=0.08, decay=0.25, sustain=0.4)
    tone(b, 0, int(0.32 * SR), 98, wave_kind="triangle", vol=0.3, f1=310, release=0.08)
    out["jump_big.wav"] = b

    b = sfx(0.5)
    tone(b, 0, int(0.06 * SR), freq("C6"), duty=0.5, vol=0.45, release=0.005)
    tone(b, int(0.06 * SR), int(0.42 * SR), freq("G6"), duty=0.5, vol=0.45, release=0.1, decay=0.12, sustain=0.15)
    out["coin.wav"] = b

    b = sfx(0.18)
    tone(b, 0, int(0.16 * SR), 720, duty=0.5, vol=0.45, f1=140, release=0.04, decay=0.08, sustain=0.3)
    tone(b, 0, int(0.06 * SR), 1, wave_kind="noise", noise_rate=12000, vol=0.3, release=0.03)
    out["stomp.wav"] = b

    b = sfx(0.12)
    tone(b, 0, int(0.05 * SR), 1, wave_kind="noise", noise_rate=16000, vol=0.4, release=0.02)
    tone(b, 0, int(0.1 * SR), 1200, duty=0.25, vol=0.35, f1=600, release=0.03, decay=0.04, sustain=0.2)
    out["kick.wav"] = b

    b = sfx(0.14)
    tone(b, 0, int(0.13 * SR), 180, duty=0.5, vol=0.5, f1=80, release=0.04, decay=0.05, sustain=0.3)
    tone(b, 0, int(0.13 * SR), 120, wave_kind="triangle", vol=0.5, f1=60, release=0.04)
    out["bump.wav"] = b

    b = sfx(0.42)
    tone(b, 0, int(0.4 * SR), 1, wave_kind="noise", noise_rate=7000, vol=0.5, release=0.1, decay=0.1, sustain=0.0)
    tone(b, int(0.03 * SR), int(0.2 * SR), 1, wave_kind="noise", noise_rate=3500, vol=0.35, release=0.06, decay=0.06, sustain=0.0)
    tone(b, 0, int(0.12 * SR), 150, wave_kind="triangle", vol=0.4, f1=60, release=0.03)
    out["break.wav"] = b

    b = sfx(0.62)
    for k in range(6):
        tone(b, int(k * 0.1 * SR), int(0.1 * SR), freq("C5") * 2 ** (k / 12.0 * 2), duty=0.25, vol=0.4, f1=freq("C6") * 2 ** (k / 12.0 * 2), release=0.02)
    out["powerup_appears.wav"] = b

    b = sfx(0.9)
    play_notes(b, "C5/1 E5/1 G5/1 C6/1 D5/1 F#5/1 A5/1 D6/1 E5/1 G#5/1 B5/1 E6/3", 0.055, duty=0.5, vol=0.4, release=0.01, gate=0.95)
    play_notes(b, "-/11 E6/4", 0.055, duty=0.25, vol=0.3, release=0.08, decay=0.1, sustain=0.3)
    out["powerup.wav"] = b

    b = sfx(0.6)
    tone(b, 0, int(0.58 * SR), 880, duty=0.5, vol=0.45, f1=180, release=0.08, vibrato=1.5, vib_rate=18, vib_delay=0.0)
    out["hurt.wav"] = b

    b = sfx(1.5)
    play_notes(b, "B5/1 F6/1 -/2 F6/2 F6/2 E6/2 D6/2 C6/2 G5/2 E5/2 C5/4", 0.065, duty=0.5, vol=0.4, release=0.02)
    play_notes(b, "G3/4 -/2 G3/2 G3/2 A3/2 B3/2 C4/2 G3/2 E3/2 C3/4", 0.065, wave_kind="triangle", vol=0.45, release=0.02)
    out["die.wav"] = b

    b = sfx(1.0)
    play_notes(b, "G5/1 C6/1 E6/1 G6/2 E6/1 G6/1 C7/4", 0.075, duty=0.5, vol=0.4, release=0.02, gate=0.9)
    play_notes(b, "-/3 C6/2 -/2 E6/4", 0.075, duty=0.125, vol=0.2, release=0.05)
    out["one_up.wav"] = b

    b = sfx(0.75)
    play_notes(b, "E6/2 B6/6", 0.06, duty=0.25, vol=0.4, release=0.15, decay=0.15, sustain=0.3)
    play_notes(b, "-/1 E7/1 -/1 G#7/1 -/1 B7/2", 0.06, duty=0.125, vol=0.18, release=0.05)
    out["checkpoint.wav"] = b

    b = sfx(0.3)
    tone(b, 0, int(0.28 * SR), 1, wave_kind="noise", noise_rate=6000, vol=0.35, release=0.1,
         pitch_env=lambda t: 1.0, attack=0.12)
    tone(b, 0, int(0.26 * SR), 300, duty=0.125, vol=0.15, f1=600, release=0.08, attack=0.1)
    out["hammer.wav"] = b

    b = sfx(0.36)
    play_notes(b, "E6/1 -/1 C6/1 -/1 E6/2", 0.055, duty=0.5, vol=0.4, release=0.01)
    out["pause.wav"] = b

    b = sfx(0.13)
    tone(b, 0, int(0.12 * SR), 1, wave_kind="noise", noise_rate=10000, vol=0.35, release=0.05, decay=0.04, sustain=0.0)
    tone(b, 0, int(0.11 * SR), 1100, duty=0.25, vol=0.4, f1=260, release=0.03, decay=0.06, sustain=0.3)
    out["fireball.wav"] = b

    b = sfx(0.5)
    tone(b, 0, int(0.48 * SR), 150, wave_kind="triangle", vol=0.5, release=0.1,
         pitch_env=lambda t: (1 + 2.2 * min(t, 0.12) / 0.12) * (1 + 0.16 * math.exp(-t * 7) * math.sin(2 * math.pi * 17 * t)))
    tone(b, 0, int(0.4 * SR), 300, duty=0.25, vol=0.22, release=0.1, decay=0.12, sustain=0.2,
         pitch_env=lambda t: (1 + 2.2 * min(t, 0.12) / 0.12) * (1 + 0.16 * math.exp(-t * 7) * math.sin(2 * math.pi * 17 * t)))
    out["spring.wav"] = b

    b = sfx(0.6)
    tone(b, 0, int(0.58 * SR), 760, duty=0.5, vol=0.42, release=0.06,
         pitch_env=lambda t: 2 ** (-t * 3.2) * (1 + 0.1 * math.sin(2 * math.pi * 16 * t)))
    tone(b, 0, int(0.58 * SR), 190, wave_kind="triangle", vol=0.35, release=0.06, pitch_env=lambda t: 2 ** (-t * 3.2))
    out["pipe.wav"] = b

    b = sfx(1.0)
    # a slide whistle down the pole, in little steps
    tone(b, 0, int(0.96 * SR), freq("C7"), duty=0.25, vol=0.36, release=0.1,
         pitch_env=lambda t: 2 ** (-math.floor(t / 0.03) * 0.03 * 3.0))
    tone(b, 0, int(0.96 * SR), freq("C5"), wave_kind="triangle", vol=0.3, release=0.1, pitch_env=lambda t: 2 ** (-t * 2.0))
    out["flagpole.wav"] = b

    b = sfx(0.04)
    tone(b, 0, int(0.038 * SR), freq("A6"), duty=0.5, vol=0.4, release=0.012, decay=0.015, sustain=0.3)
    out["tick.wav"] = b

    b = sfx(1.2)
    tone(b, 0, int(1.15 * SR), 640, duty=0.5, vol=0.38, release=0.15,
         pitch_env=lambda t: 2 ** (-t * 3.0) * (1 + 0.05 * math.sin(2 * math.pi * 11 * t)))
    tone(b, int(0.05 * SR), int(1.1 * SR), 220, wave_kind="triangle", vol=0.35, release=0.15, pitch_env=lambda t: 2 ** (-t * 2.6))
    tone(b, int(0.75 * SR), int(0.44 * SR), 1, wave_kind="noise", noise_rate=2500, vol=0.4, release=0.15, decay=0.15, sustain=0.1)
    out["boss_fall.wav"] = b

    for k in list(out):
        out[k] = finish_sfx(out[k])
    # jingles
    b = sfx(2.1)
    step = 0.085
    lead = "C5/1 E5/1 G5/1 C6/2 -/1 A4/1 C5/1 F5/1 A5/2 -/1 B4/1 D5/1 G5/1 B5/2 -/1 C6/6"
    play_notes(b, lead, step, duty=0.5, vol=0.35, release=0.02)
    play_notes(b, "-/18 E6/6", step, duty=0.25, vol=0.25, release=0.1, vibrato=0.3)
    play_notes(b, "C3/3 G3/3 F2/3 C3/3 G2/3 D3/3 C3/6", step, wave_kind="triangle", vol=0.5, release=0.03)
    out["level_complete.wav"] = fade(normalise(b, 0.7), 0.003, 0.15)

    b = sfx(2.6)
    step = 0.11
    play_notes(b, "G5/2 -/1 Eb5/2 -/1 C5/3 D5/2 Bb4/2 G4/2 Ab4/3 G4/2 F#4/2 G4/4", step, duty=0.5, vol=0.35, release=0.03,
               vibrato=0.2)
    play_notes(b, "C3/3 -/3 Ab2/3 G2/2 -/2 F2/3 D2/2 G2/2 C2/4", step, wave_kind="triangle", vol=0.5, release=0.05)
    out["game_over.wav"] = fade(normalise(b, 0.7), 0.003, 0.2)

    b = sfx(1.5)
    step = 0.0625
    play_notes(b, "E5/1 G5/1 E6/1 -/1 E5/1 G5/1 E6/1 -/1 F5/1 A5/1 F6/1 -/1 F5/1 A5/1 F6/1 -/1 "
               "F#5/1 A#5/1 F#6/1 -/1 G5/1 B5/1 G6/2", step, duty=0.5, vol=0.36, release=0.01, gate=0.85)
    play_notes(b, "C3/4 C3/4 Db3/4 Db3/4 D3/4 G2/4", step, wave_kind="triangle", vol=0.5, release=0.02, gate=0.5)
    out["time_warning.wav"] = fade(normalise(b, 0.7), 0.003, 0.08)
    return out


# -- music -------------------------------------------------------------------


def make_song(bpm, steps_per_bar, bars, parts, drums=None, stabs=None):
    sps = SR * 60.0 / bpm / 4  # samples per 16th step
    total = int(round(steps_per_bar * bars * sps))
    buf = [0.0] * total
    for seq_text, kw in parts:
        seq = parse_seq(seq_text)
        assert abs(seq_len(seq) - steps_per_bar * bars) < 1e-6, (seq_len(seq), steps_per_bar * bars)
        render_seq(buf, seq, sps, **kw)
    if drums:
        render_drums(buf, drums, sps, bars, steps_per_bar)
    if stabs:
        chords, hits, skw = stabs
        chord_stabs(buf, chords, sps, steps_per_bar, hits, **skw)
    return normalise(buf, 0.62)


def song_overworld():
    lead = (
        "E5/2 G5/2 C6/2 G5/2 A5/3 G5/1 E5/2 C5/2 "
        "D5/2 E5/2 C5/2 A4/2 -/2 A4/1 C5/1 E5/2 D5/2 "
        "F5/2 A5/2 C6/3 A5/1 G5/2 F5/2 E5/2 F5/2 "
        "G5/6 -/2 D5/2 E5/2 F5/2 D5/2 "
        "E5/2 G5/2 C6/2 G5/2 E6/3 D6/1 C6/2 G5/2 "
        "A5/2 C6/2 A5/2 E5/2 G5/4 E5/2 C5/2 "
        "F5/2 A5/2 G5/2 F5/2 E5/2 D5/2 B4/2 D5/2 "
        "C5/4 E5/2 G5/2 C6/4 -/4"
    )
    bass = (
        "C3/2 C4/2 G3/2 C4/2 C3/2 C4/2 G3/2 C4/2 "
        "A2/2 A3/2 E3/2 A3/2 A2/2 A3/2 E3/2 A3/2 "
        "F2/2 F3/2 C3/2 F3/2 F2/2 F3/2 C3/2 F3/2 "
        "G2/2 G3/2 D3/2 G3/2 G2/2 G3/2 B2/2 D3/2 "
        "C3/2 C4/2 G3/2 C4/2 C3/2 C4/2 G3/2 C4/2 "
        "A2/2 A3/2 E3/2 A3/2 A2/2 A3/2 E3/2 A3/2 "
        "F2/2 F3/2 C3/2 F3/2 G2/2 G3/2 D3/2 G3/2 "
        "C3/2 C4/2 G3/2 C4/2 C3/2 G2/2 A2/2 B2/2"
    )
    chords = ["C", "Am", "F", "G", "C", "Am", "F G", "C"]
    return make_song(
        176, 16, 8,
        [
            (lead, dict(duty=0.25, vol=0.38, release=0.02, decay=0.25, sustain=0.6, vibrato=0.15, gate=0.9)),
            (bass, dict(wave_kind="triangle", vol=0.4, release=0.01, gate=0.85)),
        ],
        drums="k...h.s.k.k.h.s.",
        stabs=(chords, [2, 6, 10, 14], dict(vol=0.06, duty=0.125, octave=4, length=1.0)),
    )


def song_underground():
    bass_a = (
        "A2/2 -/1 A2/1 E3/2 A2/2 G3/2 A2/2 F3/2 E3/2 "
        "A2/2 -/1 A2/1 E3/2 A2/2 G3/2 A2/2 F3/2 E3/2 "
        "F2/2 -/1 F2/1 C3/2 F2/2 Eb3/2 F2/2 D3/2 C3/2 "
    )
    bass = (
        bass_a + "E2/2 -/1 E2/1 B2/2 E2/2 D3/2 E2/2 G#2/2 B2/2 "
        + bass_a + "E2/2 -/1 E2/1 B2/2 E2/2 G#2/2 B2/2 D3/2 E3/2"
    )
    lead = (
        "A4/1 -/1 C5/1 -/1 E5/1 -/3 D5/1 -/1 C5/1 -/1 B4/2 -/2 "
        "A4/1 -/1 C5/1 -/1 E5/1 -/1 A5/2 G5/2 E5/2 -/4 "
        "F5/1 -/1 E5/1 -/1 C5/1 -/1 A4/2 -/2 C5/1 -/1 D5/2 -/2 "
        "E5/3 -/1 D5/1 -/1 B4/2 G#4/4 -/4 "
        "A4/1 -/1 C5/1 -/1 E5/1 -/3 D5/1 -/1 C5/1 -/1 B4/2 -/2 "
        "A4/1 -/1 C5/1 -/1 E5/1 -/1 C6/2 B5/2 G5/2 -/4 "
        "F5/1 -/1 A5/1 -/1 C6/1 -/1 A5/2 F5/2 D5/2 C5/2 -/2 "
        "B4/2 C5/2 D5/2 E5/6 -/4"
    )
    return make_song(
        168, 16, 8,
        [
            (lead, dict(duty=0.5, vol=0.34, release=0.03, decay=0.09, sustain=0.25, gate=0.95)),
            (lead, dict(duty=0.5, vol=0.09, release=0.03, decay=0.09, sustain=0.25, gate=0.95, start_step=3.0)),
            (bass, dict(wave_kind="triangle", vol=0.45, release=0.01, gate=0.7)),
        ],
        drums="h...t...h.h.t...",
    )


def song_sky():
    lead = (
        "C5/4 F5/4 A5/4 "
        "G5/6 F5/2 D5/4 "
        "D5/4 F5/4 Bb5/4 "
        "A5/8 G5/4 "
        "C6/4 A5/4 F5/4 "
        "E5/6 G5/2 C6/4 "
        "D6/4 Bb5/2 C6/4 E5/2 "
        "F5/10 -/2"
    )
    bass = (
        "F2/4 -/8 D2/4 -/8 Bb1/4 -/8 C2/4 -/8 "
        "F2/4 -/8 A1/4 -/8 Bb1/4 -/2 C2/4 -/2 F2/4 -/8"
    )
    chords = ["F", "Dm", "Bb", "C", "F", "Am", "Bb C", "F"]
    return make_song(
        144, 12, 8,
        [
            (lead, dict(duty=0.25, vol=0.34, release=0.05, attack=0.02, vibrato=0.25, vib_delay=0.15, gate=0.95)),
            (lead, dict(wave_kind="triangle", vol=0.16, release=0.05, attack=0.02, gate=0.95, transpose=-12)),
            (bass, dict(wave_kind="triangle", vol=0.42, release=0.05, gate=0.95)),
        ],
        drums="....h...h...",
        stabs=(chords, [4, 6, 8, 10], dict(vol=0.06, duty=0.25, octave=4, length=1.8)),
    )


def song_castle():
    bass = (
        "D2/2 D3/2 D2/2 D3/2 D2/2 D3/2 C#3/2 D3/2 "
        "Bb1/2 Bb2/2 Bb1/2 Bb2/2 Bb1/2 Bb2/2 A2/2 Bb2/2 "
        "G2/2 G3/2 G2/2 G3/2 A2/2 A3/2 A2/2 A3/2 "
        "D2/2 D3/2 D2/2 D3/2 C#2/2 C#3/2 A2/2 C#3/2 "
        "D2/2 D3/2 D2/2 D3/2 D2/2 D3/2 C#3/2 D3/2 "
        "Bb1/2 Bb2/2 Bb1/2 Bb2/2 Bb1/2 Bb2/2 A2/2 Bb2/2 "
        "G2/2 G3/2 G2/2 G3/2 A2/2 A3/2 A2/2 A3/2 "
        "A2/2 A3/2 A2/2 A3/2 A2/2 C#3/2 E3/2 A3/2"
    )
    lead = (
        "D5/4 F5/4 A5/6 G#5/2 "
        "A5/4 F5/2 D5/2 F5/8 "
        "G5/4 Bb5/4 A5/4 E5/4 "
        "F5/6 E5/2 D5/4 C#5/4 "
        "D6/4 C6/2 A5/2 Bb5/4 A5/2 G5/2 "
        "F5/4 G5/2 A5/2 D5/8 "
        "G5/4 Bb5/4 A5/4 C#6/4 "
        "D6/8 A5/4 C#5/4"
    )
    pad = (
        "A4/16 F4/16 D4/8 E4/8 F4/8 E4/8 "
        "A4/16 F4/16 D4/8 E4/8 E4/16"
    )
    return make_song(
        176, 16, 8,
        [
            (lead, dict(duty=0.5, vol=0.34, release=0.03, decay=0.3, sustain=0.55, vibrato=0.2, gate=0.92)),
            (pad, dict(duty=0.125, vol=0.08, release=0.05, attack=0.03, gate=0.97)),
            (bass, dict(wave_kind="triangle", vol=0.45, release=0.01, gate=0.8)),
        ],
        drums="k...s...k.k.s..s",
    )


def song_star():
    """The invincibility tune: fast, bouncy, four bars in F major (4.8 s)."""
    lead = (
        "F5/1 -/1 A5/1 C6/1 -/1 A5/1 F5/1 -/1 G5/1 -/1 Bb5/1 D6/1 -/1 Bb5/1 G5/1 -/1 "
        "A5/1 -/1 C6/1 F6/1 -/1 C6/1 A5/1 -/1 G5/1 A5/1 Bb5/1 C6/1 D6/2 C6/2 "
        "F5/1 -/1 A5/1 C6/1 -/1 A5/1 F5/1 -/1 Bb5/1 -/1 D6/1 F6/1 -/1 D6/1 Bb5/1 -/1 "
        "C6/1 -/1 E6/1 G6/1 -/1 E6/1 C6/1 -/1 E6/1 D6/1 C6/1 Bb5/1 A5/1 G5/1 E5/1 C5/1"
    )
    bass = (
        "F2/2 F3/2 F2/2 F3/2 G2/2 G3/2 G2/2 G3/2 "
        "A2/2 A3/2 A2/2 A3/2 Bb2/2 Bb3/2 C3/2 C4/2 "
        "F2/2 F3/2 F2/2 F3/2 Bb2/2 Bb3/2 Bb2/2 Bb3/2 "
        "C3/2 C4/2 C3/2 C4/2 C3/2 Bb2/2 A2/2 G2/2"
    )
    return make_song(
        200, 16, 4,
        [
            (lead, dict(duty=0.25, vol=0.36, release=0.01, decay=0.08, sustain=0.5, gate=0.8)),
            (lead, dict(duty=0.5, vol=0.08, release=0.01, decay=0.08, sustain=0.5, gate=0.8, start_step=2.0, transpose=12)),
            (bass, dict(wave_kind="triangle", vol=0.45, release=0.01, gate=0.6)),
        ],
        drums="k.h.s.h.k.hks.h.",
    )


def build_audio():
    os.makedirs(AUD_DIR, exist_ok=True)
    out = make_sfx()
    out["music_overworld.wav"] = song_overworld()
    out["music_underground.wav"] = song_underground()
    out["music_sky.wav"] = song_sky()
    out["music_castle.wav"] = song_castle()
    out["music_star.wav"] = song_star()
    for name, buf in out.items():
        save_wav(name, buf)
    return out


# ---------------------------------------------------------------------------
# Pixel font (TrueType, written with struct)
# ---------------------------------------------------------------------------
#
# Every glyph is a bitmap on a grid 8 px wide (7 for most letters, the 8th column is the gap)
# and 10 rows tall: row 0 is the top of the em, rows 1-7 hold capitals and digits (7 px tall,
# baseline under row 7), rows 8-9 are descenders.  Each bitmap below lists rows from row 1
# down (7 rows, or 9 with descenders), separated by spaces.  In the font one pixel is 128
# units (unitsPerEm 1024 = 8 px), so the font draws crisp at 8, 16, 24 and 32 px.  Every
# horizontal run of pixels becomes one rectangle contour (runs repeated on the next rows are
# merged into one taller rectangle), all drawn clockwise.

FONT_PX = 128
FONT_UPM = 1024
FONT_ADVANCE = 8 * FONT_PX
FONT_ASCENT = 8 * FONT_PX
FONT_DESCENT = 2 * FONT_PX
FONT_DIR = os.path.join(ROOT, "assets", "fonts")

FONT_GLYPHS = {
    " ": "",
    "!": "..XX... ..XX... ..XX... ..XX... ..XX... ....... ..XX...",
    '"': ".XX.XX. .XX.XX. .X..X..",
    "#": ".XX.XX. .XX.XX. XXXXXXX .XX.XX. XXXXXXX .XX.XX. .XX.XX.",
    "$": "...X... .XXXXXX XX.X... .XXXXX. ...X.XX XXXXXX. ...X...",
    "%": "XX....X XX...XX ....XX. ...XX.. ..XX... .XX..XX XX...XX",
    "&": ".XXX... XX.XX.. XX.XX.. .XXX... XX.XX.X XX..XX. .XXX.XX",
    "'": "..XX... ..XX... .XX....",
    "(": "...XX.. ..XX... .XX.... .XX.... .XX.... ..XX... ...XX..",
    ")": ".XX.... ..XX... ...XX.. ...XX.. ...XX.. ..XX... .XX....",
    "*": "....... .XX.XX. ..XXX.. XXXXXXX ..XXX.. .XX.XX. .......",
    "+": "....... ..XX... ..XX... XXXXXX. ..XX... ..XX... .......",
    ",": "....... ....... ....... ....... ....... ..XX... ..XX... .XX.... .......",
    "-": "....... ....... ....... XXXXXX. ....... ....... .......",
    ".": "....... ....... ....... ....... ....... ..XX... ..XX...",
    "/": ".....XX ....XX. ...XX.. ..XX... .XX.... XX..... X......",
    "0": ".XXXXX. XX...XX XX..XXX XX.X.XX XXX..XX XX...XX .XXXXX.",
    "1": "..XX... .XXX... ..XX... ..XX... ..XX... ..XX... XXXXXX.",
    "2": ".XXXXX. XX...XX .....XX ...XXX. .XXX... XX..... XXXXXXX",
    "3": ".XXXXX. XX...XX .....XX ...XXX. .....XX XX...XX .XXXXX.",
    "4": "...XXX. ..XXXX. .XX.XX. XX..XX. XXXXXXX ....XX. ....XX.",
    "5": "XXXXXX. XX..... XXXXXX. .....XX .....XX XX...XX .XXXXX.",
    "6": "..XXXX. .XX.... XX..... XXXXXX. XX...XX XX...XX .XXXXX.",
    "7": "XXXXXXX XX...XX ....XX. ...XX.. ..XX... ..XX... ..XX...",
    "8": ".XXXXX. XX...XX XX...XX .XXXXX. XX...XX XX...XX .XXXXX.",
    "9": ".XXXXX. XX...XX XX...XX .XXXXXX .....XX ....XX. .XXXX..",
    ":": "....... ..XX... ..XX... ....... ..XX... ..XX... .......",
    ";": "....... ..XX... ..XX... ....... ..XX... ..XX... .XX....",
    "<": "....XX. ...XX.. ..XX... .XX.... ..XX... ...XX.. ....XX.",
    "=": "....... ....... XXXXXX. ....... XXXXXX. ....... .......",
    ">": ".XX.... ..XX... ...XX.. ....XX. ...XX.. ..XX... .XX....",
    "?": ".XXXXX. XX...XX .....XX ...XXX. ..XX... ....... ..XX...",
    "@": ".XXXXX. XX...XX XX.XXXX XX.X.XX XX.XXXX XX..... .XXXXX.",
    "A": "..XXX.. .XX.XX. XX...XX XX...XX XXXXXXX XX...XX XX...XX",
    "B": "XXXXXX. XX...XX XX...XX XXXXXX. XX...XX XX...XX XXXXXX.",
    "C": "..XXXX. .XX..XX XX..... XX..... XX..... .XX..XX ..XXXX.",
    "D": "XXXXX.. XX..XX. XX...XX XX...XX XX...XX XX..XX. XXXXX..",
    "E": "XXXXXXX XX..... XX..... XXXXXX. XX..... XX..... XXXXXXX",
    "F": "XXXXXXX XX..... XX..... XXXXXX. XX..... XX..... XX.....",
    "G": "..XXXXX .XX.... XX..... XX..XXX XX...XX .XX..XX ..XXXXX",
    "H": "XX...XX XX...XX XX...XX XXXXXXX XX...XX XX...XX XX...XX",
    "I": "XXXXXX. ..XX... ..XX... ..XX... ..XX... ..XX... XXXXXX.",
    "J": "....XXX .....XX .....XX .....XX XX...XX XX...XX .XXXXX.",
    "K": "XX...XX XX..XX. XX.XX.. XXXX... XXXXX.. XX.XXX. XX..XXX",
    "L": "XX..... XX..... XX..... XX..... XX..... XX..... XXXXXXX",
    "M": "XX...XX XXX.XXX XXXXXXX XXXXXXX XX.X.XX XX...XX XX...XX",
    "N": "XX...XX XXX..XX XXXX.XX XXXXXXX XX.XXXX XX..XXX XX...XX",
    "O": ".XXXXX. XX...XX XX...XX XX...XX XX...XX XX...XX .XXXXX.",
    "P": "XXXXXX. XX...XX XX...XX XX...XX XXXXXX. XX..... XX.....",
    "Q": ".XXXXX. XX...XX XX...XX XX...XX XX.XXXX XX..XX. .XXXX.X",
    "R": "XXXXXX. XX...XX XX...XX XX..XXX XXXXX.. XX.XXX. XX..XXX",
    "S": ".XXXXX. XX...XX XX..... .XXXXX. .....XX XX...XX .XXXXX.",
    "T": "XXXXXX. ..XX... ..XX... ..XX... ..XX... ..XX... ..XX...",
    "U": "XX...XX XX...XX XX...XX XX...XX XX...XX XX...XX .XXXXX.",
    "V": "XX...XX XX...XX XX...XX XXX.XXX .XXXXX. ..XXX.. ...X...",
    "W": "XX...XX XX...XX XX.X.XX XXXXXXX XXXXXXX XXX.XXX XX...XX",
    "X": "XX...XX XXX.XXX .XXXXX. ..XXX.. .XXXXX. XXX.XXX XX...XX",
    "Y": "XX..XX. XX..XX. XX..XX. .XXXX.. ..XX... ..XX... ..XX...",
    "Z": "XXXXXXX ....XXX ...XXX. ..XXX.. .XXX... XXX.... XXXXXXX",
    "[": ".XXXX.. .XX.... .XX.... .XX.... .XX.... .XX.... .XXXX..",
    "\\": "XX..... .XX.... ..XX... ...XX.. ....XX. .....XX ......X",
    "]": ".XXXX.. ...XX.. ...XX.. ...XX.. ...XX.. ...XX.. .XXXX..",
    "^": "..XX... .XXXX.. XX..XX.",
    "_": "....... ....... ....... ....... ....... ....... ....... XXXXXXX .......",
    "`": ".XX.... ..XX...",
    "a": "....... ....... .XXXXX. .....XX .XXXXXX XX...XX .XXXXXX",
    "b": "XX..... XX..... XXXXXX. XX...XX XX...XX XX...XX XXXXXX.",
    "c": "....... ....... .XXXXX. XX...XX XX..... XX...XX .XXXXX.",
    "d": ".....XX .....XX .XXXXXX XX...XX XX...XX XX...XX .XXXXXX",
    "e": "....... ....... .XXXXX. XX...XX XXXXXXX XX..... .XXXXX.",
    "f": "...XXXX ..XX... XXXXXX. ..XX... ..XX... ..XX... ..XX...",
    "g": "....... ....... .XXXXXX XX...XX XX...XX XX...XX .XXXXXX .....XX .XXXXX.",
    "h": "XX..... XX..... XXXXXX. XX...XX XX...XX XX...XX XX...XX",
    "i": "..XX... ....... .XXX... ..XX... ..XX... ..XX... .XXXX..",
    "j": "....XX. ....... ...XXX. ....XX. ....XX. ....XX. ....XX. XX..XX. .XXXX..",
    "k": "XX..... XX..... XX..XX. XX.XX.. XXXX... XX.XX.. XX..XXX",
    "l": ".XXX... ..XX... ..XX... ..XX... ..XX... ..XX... .XXXX..",
    "m": "....... ....... XXX.XX. XXXXXXX XX.X.XX XX.X.XX XX...XX",
    "n": "....... ....... XXXXXX. XX...XX XX...XX XX...XX XX...XX",
    "o": "....... ....... .XXXXX. XX...XX XX...XX XX...XX .XXXXX.",
    "p": "....... ....... XXXXXX. XX...XX XX...XX XX...XX XXXXXX. XX..... XX.....",
    "q": "....... ....... .XXXXXX XX...XX XX...XX XX...XX .XXXXXX .....XX .....XX",
    "r": "....... ....... XX.XXX. XXXX.XX XX..... XX..... XX.....",
    "s": "....... ....... .XXXXXX XX..... .XXXXX. .....XX XXXXXX.",
    "t": "..XX... ..XX... XXXXXX. ..XX... ..XX... ..XX.XX ...XXX.",
    "u": "....... ....... XX...XX XX...XX XX...XX XX...XX .XXXXXX",
    "v": "....... ....... XX...XX XX...XX XXX.XXX .XXXXX. ..XXX..",
    "w": "....... ....... XX...XX XX.X.XX XX.X.XX XXXXXXX .XX.XX.",
    "x": "....... ....... XX...XX .XX.XX. ..XXX.. .XX.XX. XX...XX",
    "y": "....... ....... XX...XX XX...XX XX...XX XX...XX .XXXXXX .....XX .XXXXX.",
    "z": "....... ....... XXXXXXX ....XX. ..XXX.. .XX.... XXXXXXX",
    "{": "...XXX. ..XX... ..XX... XXX.... ..XX... ..XX... ...XXX.",
    "|": "..XX... ..XX... ..XX... ..XX... ..XX... ..XX... ..XX... ..XX... ..XX...",
    "}": ".XXX... ...XX.. ...XX.. ....XXX ...XX.. ...XX.. .XXX...",
    "~": "....... ....... .XXX.XX XX.XXX.",
    # beyond ASCII: the characters the game's text uses, and a few more for the HUD and menus
    "\u00a9": ".XXXXX. X.....X X.XXX.X X.X...X X.XXX.X X.....X .XXXXX.",  # ©
    "\u00b0": ".XXX... XX.XX.. .XXX...",  # °
    "\u00b2": ".XXX... ...XX.. ..XX... .XXXX..",  # ²
    "\u00b7": "....... ....... ....... ..XX... ..XX... ....... .......",  # ·
    "\u00d7": "....... XX...XX .XX.XX. ..XXX.. .XX.XX. XX...XX .......",  # ×
    "\u2013": "....... ....... ....... XXXXXXX ....... ....... .......",  # –
    "\u2014": "........ ........ ........ XXXXXXXX ........ ........ ........",  # —
    "\u2026": "........ ........ ........ ........ ........ XX.XX.XX XX.XX.XX",  # …
    "\u2190": "...X... ..XX... .XXXXXX XXXXXXX .XXXXXX ..XX... ...X...",  # ←
    "\u2191": "...X... ..XXX.. .XXXXX. XXXXXXX ..XXX.. ..XXX.. ..XXX..",  # ↑
    "\u2192": "...X... ...XX.. XXXXXX. XXXXXXX XXXXXX. ...XX.. ...X...",  # →
    "\u2193": "..XXX.. ..XXX.. ..XXX.. XXXXXXX .XXXXX. ..XXX.. ...X...",  # ↓
    "\u21c4": "....X.. XXXXXX. ....X.. ..X.... .XXXXXX ..X....",  # ⇄
}

# the .notdef glyph: a hollow box
FONT_NOTDEF = "XXXXXX. X....X. X....X. X....X. X....X. X....X. XXXXXX."

# non-ASCII characters the font must have (the game's string literals use · — …)
FONT_REQUIRED_EXTRA = "\u00b7\u2014\u2026\u00d7\u2013\u2190\u2191\u2192\u2193\u00a9\u00b0\u00b2\u21c4"


def glyph_bitmap(spec):
    """spec -> list of 10 rows (row 0 = top of the em), each a list of 0/1 over 8 columns."""
    rows = spec.split() if spec else []
    assert len(rows) <= 9, spec
    grid = [[0] * 8 for _ in range(10)]
    for i, r in enumerate(rows):
        assert len(r) <= 8, spec
        for x, ch in enumerate(r):
            assert ch in ".X", spec
            grid[1 + i][x] = 1 if ch == "X" else 0
    return grid


def glyph_rects(grid):
    """Horizontal runs, merged downwards while the same run repeats: [(x0, x1, r0, r1)]."""
    done = []
    active = {}
    for r in range(len(grid) + 1):
        runs = []
        if r < len(grid):
            x = 0
            while x < 8:
                if grid[r][x]:
                    x0 = x
                    while x < 8 and grid[r][x]:
                        x += 1
                    runs.append((x0, x))
                else:
                    x += 1
        nxt = {}
        for run in runs:
            if run in active:
                nxt[run] = active.pop(run)
            else:
                nxt[run] = r
        for (x0, x1), r0 in active.items():
            done.append((x0, x1, r0, r))
        active = nxt
    return sorted(done, key=lambda t: (t[2], t[0]))


def rect_contour(x0, x1, r0, r1):
    """Font units, y up, clockwise: bottom-left, top-left, top-right, bottom-right."""
    X0, X1 = x0 * FONT_PX, x1 * FONT_PX
    top, bot = (8 - r0) * FONT_PX, (8 - r1) * FONT_PX
    return [(X0, bot), (X0, top), (X1, top), (X1, bot)]


def encode_glyph(contours):
    if not contours:
        return b"", (0, 0, 0, 0), 0
    pts = [p for c in contours for p in c]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    bbox = (min(xs), min(ys), max(xs), max(ys))
    out = struct.pack(">hhhhh", len(contours), *bbox)
    end = -1
    for c in contours:
        end += len(c)
        out += struct.pack(">H", end)
    out += struct.pack(">H", 0)  # no instructions
    flags, xb, yb = bytearray(), bytearray(), bytearray()
    px = py = 0
    for (x, y) in pts:
        dx, dy = x - px, y - py
        px, py = x, y
        f = 0x01  # on curve
        if dx == 0:
            f |= 0x10
        elif -255 <= dx <= 255:
            f |= 0x02 | (0x10 if dx > 0 else 0)
            xb.append(abs(dx))
        else:
            xb += struct.pack(">h", dx)
        if dy == 0:
            f |= 0x20
        elif -255 <= dy <= 255:
            f |= 0x04 | (0x20 if dy > 0 else 0)
            yb.append(abs(dy))
        else:
            yb += struct.pack(">h", dy)
        flags.append(f)
    out += bytes(flags) + bytes(xb) + bytes(yb)
    while len(out) % 4:
        out += b"\0"
    return out, bbox, len(pts)


def font_checksum(data):
    data = data + b"\0" * ((4 - len(data) % 4) % 4)
    return sum(struct.unpack(">%dI" % (len(data) // 4), data)) & 0xFFFFFFFF


def name_table(records):
    """records: {nameID: text}; Macintosh (1, 0, 0, ASCII) and Windows (3, 1, 0x409, UTF-16BE)."""
    entries = []
    for plat, enc, lang, codec in ((1, 0, 0, "latin-1"), (3, 1, 0x409, "utf-16-be")):
        for nid in sorted(records):
            entries.append((plat, enc, lang, nid, records[nid].encode(codec)))
    storage = b""
    recs = b""
    for plat, enc, lang, nid, raw in entries:
        recs += struct.pack(">HHHHHH", plat, enc, lang, nid, len(raw), len(storage))
        storage += raw
    return struct.pack(">HHH", 0, len(entries), 6 + 12 * len(entries)) + recs + storage


def cmap_format4(mapping):
    """mapping: {codepoint: glyph id} (BMP only) -> a format 4 subtable."""
    codes = sorted(mapping)
    segs = []
    for c in codes:
        if segs and c == segs[-1][1] + 1 and mapping[c] == mapping[segs[-1][1]] + 1:
            segs[-1][1] = c
        else:
            segs.append([c, c])
    segs.append([0xFFFF, 0xFFFF])
    n = len(segs)
    p = 1
    while p * 2 <= n:
        p *= 2
    search, selector = 2 * p, int(math.log2(p))
    ends = b"".join(struct.pack(">H", e) for _, e in segs)
    starts = b"".join(struct.pack(">H", s) for s, _ in segs)
    deltas = b"".join(struct.pack(">H", ((mapping[s] - s) if s != 0xFFFF else 1) & 0xFFFF) for s, _ in segs)
    ranges = b"\0\0" * n
    body = struct.pack(">HHH", 2 * n, search, selector) + struct.pack(">H", 2 * n - search)
    body += ends + b"\0\0" + starts + deltas + ranges
    length = 6 + len(body)
    return struct.pack(">HHH", 4, length, 0) + body


# 2024-01-01 00:00:00 in seconds since 1904-01-01 (fixed, so the file is reproducible)
FONT_DATE = (365 * 120 + 30) * 86400


def font_glyph_order():
    chars = sorted(FONT_GLYPHS, key=ord)
    return [None] + chars  # glyph 0 is .notdef


def make_font():
    order = font_glyph_order()
    glyf = b""
    loca = [0]
    metrics = []
    max_pts = max_cont = 0
    bb = [32767, 32767, -32768, -32768]
    for ch in order:
        grid = glyph_bitmap(FONT_NOTDEF if ch is None else FONT_GLYPHS[ch])
        contours = [rect_contour(*r) for r in glyph_rects(grid)]
        data, bbox, npts = encode_glyph(contours)
        glyf += data
        loca.append(len(glyf))
        metrics.append((FONT_ADVANCE, bbox[0], bbox, bool(contours)))
        max_pts = max(max_pts, npts)
        max_cont = max(max_cont, len(contours))
        if contours:
            bb = [min(bb[0], bbox[0]), min(bb[1], bbox[1]), max(bb[2], bbox[2]), max(bb[3], bbox[3])]
    n = len(order)
    inked = [m for m in metrics if m[3]]
    min_lsb = min(m[1] for m in inked)
    min_rsb = min(m[0] - m[2][2] for m in inked)
    max_extent = max(m[2][2] for m in inked)

    head = struct.pack(
        ">HHIIIHHqqhhhhHHhhh", 1, 0, 0x00010000, 0, 0x5F0F3CF5, 0x000B, FONT_UPM, FONT_DATE, FONT_DATE,
        bb[0], bb[1], bb[2], bb[3], 0, 8, 2, 1, 0,
    )
    hhea = struct.pack(
        ">HHhhhHhhhhhhhhhhhH", 1, 0, FONT_ASCENT, -FONT_DESCENT, 0, FONT_ADVANCE, min_lsb, min_rsb, max_extent,
        1, 0, 0, 0, 0, 0, 0, 0, n,
    )
    maxp = struct.pack(">IHHHHHHHHHHHHHH", 0x00010000, n, max_pts, max_cont, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0)
    codes = [ord(c) for c in order[1:]]
    os2 = struct.pack(
        ">HhHHHhhhhhhhhhhh", 4, FONT_ADVANCE, 400, 5, 0,
        4 * FONT_PX, 4 * FONT_PX, 0, FONT_PX, 4 * FONT_PX, 4 * FONT_PX, 0, 4 * FONT_PX,
        FONT_PX, 3 * FONT_PX, 0,
    )
    os2 += bytes([2, 0, 0, 9, 0, 0, 0, 0, 0, 0])  # panose: Latin text, monospaced
    # Unicode ranges: Basic Latin, Latin-1 Supplement, General Punctuation; Arrows
    os2 += struct.pack(">IIII", (1 << 0) | (1 << 1) | (1 << 31), 1 << (37 - 32), 0, 0)
    os2 += b"SLPB"
    os2 += struct.pack(">HHH", 0x00C0, min(codes), min(max(codes), 0xFFFF))
    os2 += struct.pack(">hhhHH", FONT_ASCENT, -FONT_DESCENT, 0, FONT_ASCENT, FONT_DESCENT)
    os2 += struct.pack(">II", 1, 0)  # code page: Latin 1
    os2 += struct.pack(">hhHHH", 5 * FONT_PX, 7 * FONT_PX, 0, 32, 1)
    assert len(os2) == 96
    hmtx = b"".join(struct.pack(">Hh", adv, lsb) for adv, lsb, _, _ in metrics)
    sub = cmap_format4({ord(c): i for i, c in enumerate(order) if c is not None})
    cmap = struct.pack(">HH", 0, 2) + struct.pack(">HHI", 0, 3, 20) + struct.pack(">HHI", 3, 1, 20) + sub
    loca_b = b"".join(struct.pack(">I", o) for o in loca)
    name = name_table({
        0: "Drawn for Slope Bros by tools/make_art.py; MIT OR Apache-2.0",
        1: "Slope Bros Pixel",
        2: "Regular",
        3: "Slope Bros Pixel Regular 1.000",
        4: "Slope Bros Pixel Regular",
        5: "Version 1.000",
        6: "SlopeBrosPixel-Regular",
        13: "MIT OR Apache-2.0",
    })
    post = struct.pack(">IIhhIIIII", 0x00030000, 0, -FONT_PX, FONT_PX, 1, 0, 0, 0, 0)
    tables = {
        b"OS/2": os2, b"cmap": cmap, b"glyf": glyf, b"head": head, b"hhea": hhea,
        b"hmtx": hmtx, b"loca": loca_b, b"maxp": maxp, b"name": name, b"post": post,
    }
    tags = sorted(tables)
    num = len(tags)
    p = 1
    while p * 2 <= num:
        p *= 2
    out = struct.pack(">IHHHH", 0x00010000, num, p * 16, int(math.log2(p)), num * 16 - p * 16)
    offset = 12 + 16 * num
    body = b""
    head_off = None
    for tag in tags:
        data = tables[tag]
        out += struct.pack(">4sIII", tag, font_checksum(data), offset + len(body), len(data))
        if tag == b"head":
            head_off = offset + len(body)
        body += data + b"\0" * ((4 - len(data) % 4) % 4)
    font = bytearray(out + body)
    adj = (0xB1B0AFBA - font_checksum(bytes(font))) & 0xFFFFFFFF
    font[head_off + 8 : head_off + 12] = struct.pack(">I", adj)
    return bytes(font)


def build_fonts():
    os.makedirs(FONT_DIR, exist_ok=True)
    data = make_font()
    with open(os.path.join(FONT_DIR, "pixel.ttf"), "wb") as f:
        f.write(data)
    return data


def font_read(path):
    """Parse the font back: returns (tables, {codepoint: glyph id}, [glyph contours], [advance])."""
    with open(path, "rb") as f:
        data = f.read()
    ver, num = struct.unpack(">IH", data[:6])
    assert ver == 0x00010000, "not a TrueType font"
    tables = {}
    for i in range(num):
        tag, csum, off, ln = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
        tables[tag] = (csum, off, ln)
    # table checksums, then the whole-file checksum adjustment
    for tag, (csum, off, ln) in tables.items():
        t = bytearray(data[off : off + ln])
        if tag == b"head":
            t[8:12] = b"\0\0\0\0"
        assert font_checksum(bytes(t)) == csum, "checksum of table %r" % tag
    hoff = tables[b"head"][1]
    adj = struct.unpack(">I", data[hoff + 8 : hoff + 12])[0]
    whole = bytearray(data)
    whole[hoff + 8 : hoff + 12] = b"\0\0\0\0"
    assert (0xB1B0AFBA - font_checksum(bytes(whole))) & 0xFFFFFFFF == adj, "checkSumAdjustment"

    def tab(tag):
        _, off, ln = tables[tag]
        return data[off : off + ln]

    head = tab(b"head")
    assert struct.unpack(">I", head[12:16])[0] == 0x5F0F3CF5
    upm = struct.unpack(">H", head[18:20])[0]
    loc_fmt = struct.unpack(">h", head[50:52])[0]
    n = struct.unpack(">H", tab(b"maxp")[4:6])[0]
    nh = struct.unpack(">H", tab(b"hhea")[34:36])[0]
    hm = tab(b"hmtx")
    adv = [struct.unpack(">H", hm[4 * min(i, nh - 1) : 4 * min(i, nh - 1) + 2])[0] for i in range(n)]
    lb = tab(b"loca")
    if loc_fmt == 1:
        loca = struct.unpack(">%dI" % (n + 1), lb[: 4 * (n + 1)])
    else:
        loca = [2 * v for v in struct.unpack(">%dH" % (n + 1), lb[: 2 * (n + 1)])]
    gl = tab(b"glyf")
    glyphs = []
    for g in range(n):
        a, b = loca[g], loca[g + 1]
        if a == b:
            glyphs.append([])
            continue
        nc = struct.unpack(">h", gl[a : a + 2])[0]
        assert nc >= 0, "composite glyphs are not expected"
        ends = struct.unpack(">%dH" % nc, gl[a + 10 : a + 10 + 2 * nc])
        p = a + 10 + 2 * nc
        ilen = struct.unpack(">H", gl[p : p + 2])[0]
        p += 2 + ilen
        npts = ends[-1] + 1
        flags = []
        while len(flags) < npts:
            f = gl[p]
            p += 1
            flags.append(f)
            if f & 0x08:
                r = gl[p]
                p += 1
                flags.extend([f] * r)
        coords = []
        for axis, (short, same) in enumerate(((0x02, 0x10), (0x04, 0x20))):
            v = 0
            vals = []
            for f in flags:
                if f & short:
                    d = gl[p]
                    p += 1
                    v += d if f & same else -d
                elif not f & same:
                    v += struct.unpack(">h", gl[p : p + 2])[0]
                    p += 2
                vals.append(v)
            coords.append(vals)
        assert all(f & 1 for f in flags), "only on-curve points are expected"
        pts = list(zip(coords[0], coords[1]))
        contours = []
        s = 0
        for e in ends:
            contours.append(pts[s : e + 1])
            s = e + 1
        glyphs.append(contours)
    cm = tab(b"cmap")
    mapping = {}
    nsub = struct.unpack(">H", cm[2:4])[0]
    for i in range(nsub):
        plat, enc, off = struct.unpack(">HHI", cm[4 + 8 * i : 12 + 8 * i])
        if (plat, enc) != (3, 1):
            continue
        fmt, ln = struct.unpack(">HH", cm[off : off + 4])
        assert fmt == 4
        segx2 = struct.unpack(">H", cm[off + 6 : off + 8])[0]
        seg = segx2 // 2
        q = off + 14
        ends = struct.unpack(">%dH" % seg, cm[q : q + segx2])
        starts = struct.unpack(">%dH" % seg, cm[q + segx2 + 2 : q + 2 * segx2 + 2])
        deltas = struct.unpack(">%dH" % seg, cm[q + 2 * segx2 + 2 : q + 3 * segx2 + 2])
        ranges = struct.unpack(">%dH" % seg, cm[q + 3 * segx2 + 2 : q + 4 * segx2 + 2])
        for s_, e_, d_, r_ in zip(starts, ends, deltas, ranges):
            assert r_ == 0
            for c in range(s_, e_ + 1):
                if c != 0xFFFF:
                    mapping[c] = (c + d_) & 0xFFFF
    return dict(tables=tables, upm=upm, mapping=mapping, glyphs=glyphs, advances=adv)


def contour_bitmap(contours):
    """Rasterise axis-aligned rectangle contours (font units) back onto the 8 x 10 pixel grid."""
    grid = [[0] * 8 for _ in range(10)]
    for c in contours:
        xs, ys = [p[0] for p in c], [p[1] for p in c]
        for r in range(10):
            yc = (7 - r) * FONT_PX + FONT_PX // 2
            if not min(ys) < yc < max(ys):
                continue
            for x in range(8):
                xc = x * FONT_PX + FONT_PX // 2
                if min(xs) < xc < max(xs):
                    grid[r][x] += 1
    return grid


def rust_string_chars():
    """Non-ASCII characters inside string literals of the game's Rust sources (if present)."""
    import re

    found = set()
    src = os.path.join(ROOT, "crates", "slope_bros", "src")
    lit = re.compile(r'"(?:[^"\\\n]|\\.)*"')
    for dirpath, _, files in sorted(os.walk(src)):
        for fn in sorted(files):
            if not fn.endswith(".rs"):
                continue
            with open(os.path.join(dirpath, fn), encoding="utf-8") as f:
                for line in f:
                    code = line.split("//")[0] if line.lstrip().startswith("//") else line
                    for m in lit.finditer(code):
                        found.update(ch for ch in m.group(0) if ord(ch) > 127)
    return found


def verify_font():
    path = os.path.join(FONT_DIR, "pixel.ttf")
    f = font_read(path)
    for tag in (b"head", b"hhea", b"maxp", b"OS/2", b"hmtx", b"cmap", b"loca", b"glyf", b"name", b"post"):
        assert tag in f["tables"], "font lacks table %r" % tag
    assert f["upm"] == FONT_UPM
    mapping, glyphs = f["mapping"], f["glyphs"]
    need = [chr(c) for c in range(32, 127)] + list(FONT_REQUIRED_EXTRA)
    for ch in need:
        assert mapping.get(ord(ch), 0) != 0, "font lacks %r" % ch
    assert set(f["advances"]) == {FONT_ADVANCE}, "the font must be monospaced"
    assert glyphs[0], ".notdef must be drawn"
    for gid, contours in enumerate(glyphs):
        for c in contours:
            assert len(c) == 4, "contours are rectangles"
            area = sum(c[i][0] * c[(i + 1) % 4][1] - c[(i + 1) % 4][0] * c[i][1] for i in range(4))
            assert area < 0, "glyph %d: contours must run clockwise" % gid
            for (x, y) in c:
                assert x % FONT_PX == 0 and y % FONT_PX == 0, "off the pixel grid"
                assert 0 <= x <= FONT_ADVANCE and -FONT_DESCENT <= y <= FONT_ASCENT, "outside the cell"
    # every glyph draws exactly its bitmap, with no pixel covered twice
    for ch, spec in FONT_GLYPHS.items():
        got = contour_bitmap(glyphs[mapping[ord(ch)]])
        assert got == glyph_bitmap(spec), "glyph %r does not match its bitmap" % ch
    missing = sorted(c for c in rust_string_chars() if ord(c) not in mapping)
    if missing:
        print("make_art: warning: the pixel font lacks %s used in the game's strings" % " ".join(missing), file=sys.stderr)


def font_text_image(text, color=(255, 255, 255), shadow=(26, 18, 40)):
    """Draw text with the glyphs read back from the written font (1 px per font pixel)."""
    f = font_read(os.path.join(FONT_DIR, "pixel.ttf"))
    lines = text.split("\n")
    w = max(len(l) for l in lines) * 8 + 1
    img = Img(w, len(lines) * 11 + 1)
    for li, line in enumerate(lines):
        for i, ch in enumerate(line):
            grid = contour_bitmap(f["glyphs"][f["mapping"].get(ord(ch), 0)])
            for r in range(10):
                for x in range(8):
                    if grid[r][x]:
                        img.set(i * 8 + x + 1, li * 11 + r + 1, shadow)
            for r in range(10):
                for x in range(8):
                    if grid[r][x]:
                        img.set(i * 8 + x, li * 11 + r, color)
    return img


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def save_png(name, img, size):
    assert (img.w, img.h) == size, (name, img.w, img.h, size)
    path = os.path.join(IMG_DIR, name)
    with open(path, "wb") as f:
        f.write(png_bytes(img))
    return img


NEW_SPRITES = [
    ("fireball.png", make_fireball),
    ("fire_flower.png", make_fire_flower),
    ("star.png", make_star),
    ("one_up.png", make_one_up),
    ("spring.png", make_spring),
    ("lava.png", make_lava),
    ("pipe.png", make_pipe),
    ("boss.png", make_boss),
    ("axe.png", make_axe),
    ("bridge.png", make_bridge),
    ("flag.png", make_flag),
    ("castle_small.png", make_castle_small),
]


def build_images():
    os.makedirs(IMG_DIR, exist_ok=True)
    out = {}
    out["tiles.png"] = save_png("tiles.png", make_tiles(), (256, 64))
    out["player_small.png"] = save_png("player_small.png", make_player_small(), (144, 16))
    out["player_big.png"] = save_png("player_big.png", make_player_big(), (144, 32))
    out["player_fire.png"] = save_png("player_fire.png", make_player_fire(), (144, 32))
    out["walker.png"] = save_png("walker.png", make_walker(WALKER_PAL), (48, 16))
    out["ledge_walker.png"] = save_png("ledge_walker.png", make_walker(LEDGE_PAL), (48, 16))
    out["shell_enemy.png"] = save_png("shell_enemy.png", make_shell_enemy(), (32, 24))
    out["shell.png"] = save_png("shell.png", make_shell(), (64, 16))
    out["hammer_thrower.png"] = save_png("hammer_thrower.png", make_hammer_thrower(), (48, 24))
    out["hammer.png"] = save_png("hammer.png", make_hammer(), (64, 16))
    out["coin.png"] = save_png("coin.png", make_coin(), (64, 16))
    out["mushroom.png"] = save_png("mushroom.png", make_mushroom(), (16, 16))
    out["goal.png"] = save_png("goal.png", make_goal(), (16, 160))
    out["checkpoint.png"] = save_png("checkpoint.png", make_checkpoint(), (32, 32))
    out["block_debris.png"] = save_png("block_debris.png", make_debris(), (8, 8))
    for name, fn in NEW_SPRITES:
        out[name] = save_png(name, fn(), EXPECTED_PNG[name])
    for name, far, near in [
        ("overworld", bg_overworld, near_overworld),
        ("underground", bg_underground, near_underground),
        ("sky", bg_sky, near_sky),
        ("castle", bg_castle, near_castle),
    ]:
        out["bg_%s.png" % name] = save_png("bg_%s.png" % name, far(), (BW, BH))
        out["bg_near_%s.png" % name] = save_png("bg_near_%s.png" % name, near(), (BW, BH))
    out["title.png"] = save_png("title.png", make_title(), (256, 64))
    out["icon.png"] = save_png("icon.png", make_icon(out["player_big.png"]), (32, 32))
    return out


# ---------------------------------------------------------------------------
# Verification (re-reads the written files)
# ---------------------------------------------------------------------------

EXPECTED_PNG = {
    "tiles.png": (256, 64),
    "player_small.png": (144, 16),
    "player_big.png": (144, 32),
    "player_fire.png": (144, 32),
    "walker.png": (48, 16),
    "ledge_walker.png": (48, 16),
    "shell_enemy.png": (32, 24),
    "shell.png": (64, 16),
    "hammer_thrower.png": (48, 24),
    "hammer.png": (64, 16),
    "coin.png": (64, 16),
    "mushroom.png": (16, 16),
    "goal.png": (16, 160),
    "checkpoint.png": (32, 32),
    "block_debris.png": (8, 8),
    "bg_overworld.png": (512, 240),
    "bg_underground.png": (512, 240),
    "bg_sky.png": (512, 240),
    "bg_castle.png": (512, 240),
    "bg_near_overworld.png": (512, 240),
    "bg_near_underground.png": (512, 240),
    "bg_near_sky.png": (512, 240),
    "bg_near_castle.png": (512, 240),
    "title.png": (256, 64),
    "icon.png": (32, 32),
    "fireball.png": (32, 8),
    "fire_flower.png": (64, 16),
    "star.png": (64, 16),
    "one_up.png": (16, 16),
    "spring.png": (48, 16),
    "lava.png": (128, 16),
    "pipe.png": (128, 16),
    "boss.png": (96, 32),
    "axe.png": (32, 16),
    "bridge.png": (16, 16),
    "flag.png": (16, 16),
    "castle_small.png": (80, 80),
}

SFX_NAMES = [
    "jump.wav", "jump_big.wav", "coin.wav", "stomp.wav", "kick.wav", "bump.wav", "break.wav",
    "powerup_appears.wav", "powerup.wav", "hurt.wav", "die.wav", "one_up.wav", "checkpoint.wav",
    "hammer.wav", "pause.wav", "level_complete.wav", "game_over.wav",
    "fireball.wav", "spring.wav", "pipe.wav", "flagpole.wav", "tick.wav", "time_warning.wav", "boss_fall.wav",
]
MUSIC_NAMES = ["music_overworld.wav", "music_underground.wav", "music_sky.wav", "music_castle.wav", "music_star.wav"]

# allowed lengths (seconds) of the newer sounds
SOUND_LENGTHS = {
    "fireball.wav": (0.05, 0.2),
    "spring.wav": (0.3, 0.7),
    "pipe.wav": (0.5, 0.7),
    "flagpole.wav": (0.85, 1.15),
    "tick.wav": (0.01, 0.05),
    "time_warning.wav": (1.3, 1.7),
    "boss_fall.wav": (1.0, 1.4),
    "music_star.wav": (4.0, 6.0),
}


def seam_mismatches(img):
    """Rows whose wrap-around pair (x=w-1 then x=0) is a colour pair never found side by side inside the image."""
    w = img.w
    pairs = set()
    for y in range(img.h):
        row = img.px[y * w : (y + 1) * w]
        pairs.update(zip(row[:-1], row[1:]))
    bad = 0
    for y in range(img.h):
        a, b = img.px[y * w + w - 1], img.px[y * w]
        if a != b and (a, b) not in pairs:
            bad += 1
    return bad


def verify_images():
    for name, size in EXPECTED_PNG.items():
        path = os.path.join(IMG_DIR, name)
        assert png_size(path) == size, (name, png_size(path), size)
    for name in EXPECTED_PNG:
        img = png_read(os.path.join(IMG_DIR, name))
        for c in img.px:
            assert c[3] in (0, 255), name
        if name.startswith("bg_") and not name.startswith("bg_near_"):
            assert all(c[3] == 255 for c in img.px), name + " must be fully opaque"
        if name.startswith("bg_"):
            bad = seam_mismatches(img)
            assert bad == 0, "%s: %d rows do not wrap seamlessly" % (name, bad)
        if name.startswith("bg_near_"):
            clear = sum(1 for c in img.px if c[3] == 0) / len(img.px)
            assert clear > 0.5, name + " should be mostly transparent"
            assert all(c[3] == 0 for c in img.px[: img.w * 40]), name + ": top should be clear"
    # tile shapes: one-way platforms and slopes
    tiles = png_read(os.path.join(IMG_DIR, "tiles.png"))
    h45 = [x + 1 for x in range(16)]
    low = [x // 2 + 1 for x in range(16)]
    high = [8 + x // 2 + 1 for x in range(16)]
    heights = {7: h45, 8: h45[::-1], 9: low, 10: high, 11: low[::-1], 12: high[::-1]}
    for row in range(4):
        for col in range(16):
            t = tiles.crop(col * 16, row * 16, 16, 16)
            for y in range(16):
                for x in range(16):
                    o = t.op(x, y)
                    if col == 3:
                        want = y <= 4
                    elif col in heights:
                        want = y >= 16 - heights[col][x]
                    else:
                        want = True
                    assert o == want, ("tile", row, col, x, y)
    verify_sprites()


def _frames(img, fw):
    return [img.crop(i * fw, 0, fw, img.h) for i in range(img.w // fw)]


def _rows_opaque(img):
    return [y for y in range(img.h) if any(img.op(x, y) for x in range(img.w))]


def _mask(img):
    return [c[3] for c in img.px]


def verify_sprites():
    """Shapes of the sprites the game's code relies on."""
    rd = lambda n: png_read(os.path.join(IMG_DIR, n))
    # player strips: 9 frames, feet on the bottom row; the fire form is the big one recoloured
    small, big, fire = rd("player_small.png"), rd("player_big.png"), rd("player_fire.png")
    for strip, fw in ((small, 16), (big, 16), (fire, 16)):
        fr = _frames(strip, fw)
        assert len(fr) == len(FRAME_ORDER) == 9
        for i, f in enumerate(fr):
            assert _rows_opaque(f)[-1] == f.h - 1, ("feet on the bottom row", i)
    assert _mask(big) == _mask(fire), "player_fire.png must have the big form's shapes"
    assert big.px != fire.px
    crouch = _frames(big, 16)[FRAME_ORDER.index("crouch")]
    rows = _rows_opaque(crouch)
    assert rows[0] >= 15 and len(rows) <= 17, ("the big crouch must be about 16 px tall", rows[0])
    assert len(_rows_opaque(_frames(small, 16)[FRAME_ORDER.index("crouch")])) < 15
    # fireball: each frame a quarter turn of the last
    fb = _frames(rd("fireball.png"), 8)
    for a, b in zip(fb, fb[1:]):
        assert a.rot90().px == b.px, "fireball frames must turn by 90 degrees"
    # colour-cycling items keep their shape; bottom-aligned
    ff = _frames(rd("fire_flower.png"), 16)
    for f in ff:
        assert _mask(f) == _mask(ff[0]) and _rows_opaque(f)[-1] == 15
    assert len(set(tuple(f.px) for f in ff)) == 4, "fire flower frames must cycle colours"
    st = _frames(rd("star.png"), 16)
    assert len(set(tuple(f.px) for f in st)) == 4
    for f in st:
        assert _rows_opaque(f)[-1] >= 12
    assert _mask(rd("one_up.png")) == _mask(rd("mushroom.png")), "one_up.png must have mushroom.png's shape"
    # spring: rest and extended are full height with an opaque top; compressed is 8 px tall
    sp = _frames(rd("spring.png"), 16)
    for i in (0, 2):
        assert _rows_opaque(sp[i]) == list(range(16)), ("spring frame", i)
        assert all(sp[i].op(x, 0) for x in range(1, 15)), ("spring top", i)
    assert _rows_opaque(sp[1]) == list(range(8, 16)), "compressed spring must be rows 8-15"
    # lava: surfaces with a clear band above the wave, opaque bodies; each tiles sideways
    lv = _frames(rd("lava.png"), 16)
    for i, f in enumerate(lv):
        assert seam_mismatches(f) == 0, ("lava frame does not tile", i)
        if i < 4:
            assert sum(1 for x in range(16) if not f.op(x, 0)) >= 12, ("lava surface top", i)
            assert all(f.op(x, y) for y in range(7, 16) for x in range(16)), ("lava surface body", i)
        else:
            assert all(c[3] == 255 for c in f.px), ("lava body must be opaque", i)
            assert seam_mismatches(transpose(f)) == 0, ("lava body does not tile downwards", i)
    # pipes: opaque; the side pipe is the upright one turned
    pp = _frames(rd("pipe.png"), 16)
    for f in pp:
        assert all(c[3] == 255 for c in f.px), "pipe tiles must be opaque"
    for i in range(4):
        assert transpose(pp[i]).px == pp[4 + i].px, ("side pipe frame", 4 + i)
    # boss: feet on the bottom row
    for f in _frames(rd("boss.png"), 32):
        assert _rows_opaque(f)[-1] == 31
    ax = _frames(rd("axe.png"), 16)
    assert ax[0].px != ax[1].px, "the axe must glint"
    # bridge: opaque top 8 rows, a chain below with see-through gaps, tiles sideways
    br = rd("bridge.png")
    assert all(br.op(x, y) for y in range(8) for x in range(16)), "bridge top must be opaque"
    below = [br.op(x, y) for y in range(8, 16) for x in range(16)]
    assert any(below) and not all(below), "bridge must show chain links below"
    assert seam_mismatches(br.crop(0, 8, 16, 8)) == 0, "the bridge's chain must run on across tiles"
    # flagpole: centred (the flag rides it on its left), no flag of its own
    gl = rd("goal.png")
    assert {x for y in range(8, 144) for x in range(16) if gl.op(x, y)} == {6, 7, 8, 9}, "pole columns"
    # flag: the right edge rides the pole, the tip points left
    fl = rd("flag.png")
    left = lambda y: min([x for x in range(16) if fl.op(x, y)] or [16])
    assert all(fl.op(15, y) for y in range(1, 15)), "flag must ride the pole on its right edge"
    assert left(7) <= 1 and left(1) >= 10 and left(14) >= 10, "flag must point left"
    # castle: a dark doorway 16 x 24 centred at the bottom
    cs = rd("castle_small.png")
    door = [(x, y) for y in range(cs.h) for x in range(cs.w) if cs.get(x, y)[:3] == CASTLE_DOOR_DARK]
    xs, ys = [d[0] for d in door], [d[1] for d in door]
    assert (min(xs), max(xs), min(ys), max(ys)) == (32, 47, 56, 79), "castle door box"
    assert all(cs.get(x, y)[:3] == CASTLE_DOOR_DARK for y in range(64, 80) for x in range(32, 48))


def verify_audio():
    for name in SFX_NAMES + MUSIC_NAMES:
        path = os.path.join(AUD_DIR, name)
        with wave.open(path, "rb") as w:
            assert w.getnchannels() == 1 and w.getsampwidth() == 2 and w.getframerate() == SR, name
            n = w.getnframes()
            data = w.readframes(n)
        samples = struct.unpack("<%dh" % n, data)
        peak = max(abs(v) for v in samples) / 32767.0
        assert peak <= 0.8, (name, peak)
        secs = n / SR
        if name in SOUND_LENGTHS:
            lo, hi = SOUND_LENGTHS[name]
            assert lo <= secs <= hi, (name, secs)
        if name in MUSIC_NAMES:
            if name not in SOUND_LENGTHS:
                assert 8.0 <= secs <= 12.0, (name, secs)
            assert os.path.getsize(path) < 600 * 1024, name
            # the loop point is no bigger a step than the music takes anywhere inside
            inner = max(abs(samples[i + 1] - samples[i]) for i in range(n - 1))
            assert abs(samples[0] - samples[-1]) <= inner, name + " must loop seamlessly"
        else:
            assert abs(samples[0]) < 200 and abs(samples[-1]) < 200, name + " must fade in/out"
        if name == "level_complete.wav":
            assert 1.7 <= secs <= 2.5, secs
        if name == "game_over.wav":
            assert 2.2 <= secs <= 3.0, secs


def font_preview():
    """The pixel font, drawn from the glyphs read back out of the written pixel.ttf."""
    chars = "".join(sorted(FONT_GLYPHS, key=ord))
    text = "SLOPE BROS 0123456789 \u00d73 WORLD 1-1 TIME \u2190\u2192\n" + "\n".join(
        chars[i : i + 32] for i in range(0, len(chars), 32)
    ) + "\nThe quick brown fox jumps over the lazy dog.\nLoading\u2026 3 \u00b7 goal \u2014 px/s\u00b2 45\u00b0 \u2191\u2193 \u21c4 \u00a9"
    img = font_text_image(text)
    bg = Img(img.w + 4, img.h + 4, (40, 44, 64))
    bg.blit(img, 2, 2)
    return bg


def make_preview(images, path):
    k = 4
    pad = 8
    items = list(images.items())
    # simple shelf packing into a fixed width sheet
    sheet_w = 1100
    x = y = pad
    shelf = 0
    places = []
    for name, img in items:
        s = k if img.w * k <= sheet_w - 2 * pad else max(1, (sheet_w - 2 * pad) // img.w)
        if name == "goal.png":
            s = 2
        w, h = img.w * s, img.h * s
        if x + w > sheet_w - pad:
            x = pad
            y += shelf + pad
            shelf = 0
        places.append((img, s, x, y))
        x += w + pad
        shelf = max(shelf, h)
    sheet = Img(sheet_w, y + shelf + pad, (96, 104, 120))
    for img, s, x0, y0 in places:
        big = img.scaled(s)
        for yy in range(big.h):
            for xx in range(big.w):
                c = big.px[yy * big.w + xx]
                if c[3]:
                    sheet.px[(y0 + yy) * sheet.w + x0 + xx] = c
                else:
                    chk = ((xx // 8) + (yy // 8)) % 2
                    sheet.px[(y0 + yy) * sheet.w + x0 + xx] = (150, 156, 170, 255) if chk else (128, 134, 150, 255)
    with open(path, "wb") as f:
        f.write(png_bytes(sheet))


def check(only):
    """Generates into a temporary folder and compares with assets/: exits 1 naming every file
    that is missing, stale or not generated by this script."""
    import filecmp
    import tempfile

    global IMG_DIR, AUD_DIR, FONT_DIR
    real = {"images": IMG_DIR, "audio": AUD_DIR, "fonts": FONT_DIR}
    with tempfile.TemporaryDirectory() as tmp:
        IMG_DIR = os.path.join(tmp, "images")
        AUD_DIR = os.path.join(tmp, "audio")
        FONT_DIR = os.path.join(tmp, "fonts")
        os.makedirs(AUD_DIR, exist_ok=True)
        if only in (None, "images"):
            build_images()
            verify_images()
        if only in (None, "audio"):
            build_audio()
            verify_audio()
        if only in (None, "fonts"):
            build_fonts()
            verify_font()
        problems = []
        for kind, made in (("images", IMG_DIR), ("audio", AUD_DIR), ("fonts", FONT_DIR)):
            if only not in (None, kind):
                continue
            have = real[kind]
            wanted = sorted(os.listdir(made))
            for name in wanted:
                ours = os.path.join(have, name)
                if not os.path.exists(ours):
                    problems.append(f"missing: {os.path.relpath(ours, ROOT)}")
                elif not filecmp.cmp(ours, os.path.join(made, name), shallow=False):
                    problems.append(f"stale: {os.path.relpath(ours, ROOT)}")
            extension = {"images": ".png", "audio": ".wav", "fonts": ".ttf"}[kind]
            for name in sorted(os.listdir(have)) if os.path.isdir(have) else []:
                if name.endswith(extension) and name not in wanted:
                    problems.append(f"not generated by tools/make_art.py: {os.path.relpath(os.path.join(have, name), ROOT)}")
    if problems:
        for p in problems:
            print(f"make_art --check: {p}", file=sys.stderr)
        print("make_art --check: run `python3 tools/make_art.py` and commit assets/", file=sys.stderr)
        sys.exit(1)
    print("make_art --check: assets/images, assets/audio and assets/fonts match the script")


def main(argv):
    preview = None
    only = None
    i = 0
    if "--check" in argv:
        only = argv[argv.index("--only") + 1] if "--only" in argv else None
        check(only)
        return
    while i < len(argv):
        if argv[i] == "--preview":
            preview = argv[i + 1]
            i += 1
        elif argv[i] == "--only":
            only = argv[i + 1]
            i += 1
        i += 1
    if only in (None, "images"):
        images = build_images()
    if only in (None, "fonts"):
        build_fonts()
    if preview and only in (None, "images"):
        if only is None:
            images = dict(images)
            images["font: pixel.ttf"] = font_preview()
        make_preview(images, preview)
    if only in (None, "audio"):
        build_audio()
    if only in (None, "images"):
        verify_images()
    if only in (None, "audio"):
        verify_audio()
    if only in (None, "fonts"):
        verify_font()
    print("make_art: wrote and verified assets/images, assets/audio and assets/fonts")


if __name__ == "__main__":
    main(sys.argv[1:])
