"""Draws images/icon.png (128x128): a graph of three nodes joined into one, on a dark tile.

Standard library only (zlib + struct); run `python images/make_icon.py` to regenerate.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

SIZE = 128
BACK = (24, 28, 48)
EDGE = (238, 76, 44)  # PyTorch-ish orange
NODE = (250, 250, 250)
NODES = [(34, 38), (34, 90), (94, 64)]
EDGES = [(0, 2), (1, 2), (0, 1)]


def _segment_distance(px: float, py: float, a: tuple, b: tuple) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def _mix(c1: tuple, c2: tuple, alpha: float) -> tuple:
    return tuple(round(x + (y - x) * alpha) for x, y in zip(c1, c2))


def _pixel(x: int, y: int) -> tuple:
    cx, cy = x + 0.5, y + 0.5
    corner = max(abs(cx - 64) - 46, 0) ** 2 + max(abs(cy - 64) - 46, 0) ** 2
    if corner > 18 ** 2:  # rounded tile
        return (0, 0, 0, 0)
    colour = BACK
    edge = min(_segment_distance(cx, cy, NODES[a], NODES[b]) for a, b in EDGES)
    colour = _mix(colour, EDGE, max(0.0, min(1.0, 4.5 - edge)))
    node = min(math.hypot(cx - nx, cy - ny) for nx, ny in NODES)
    colour = _mix(colour, NODE, max(0.0, min(1.0, 12.5 - node)))
    return (*colour, 255)


def png(width: int, height: int, pixel) -> bytes:
    rows = b"".join(b"\x00" + bytes(c for x in range(width) for c in pixel(x, y)) for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    Path(__file__).with_name("icon.png").write_bytes(png(SIZE, SIZE, _pixel))
