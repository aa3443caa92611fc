"""Triangles of a solid, and rays through them: for the pictures and for the
checks that measure walls and lines of sight."""
from __future__ import annotations

import math

import numpy as np


def triangles(shape, tolerance: float = 0.05) -> np.ndarray:
    """The solid's surface as an (n, 3, 3) array, each triangle's corners
    counter-clockwise seen from outside."""
    vertices, faces = shape.tessellate(tolerance, 0.2)
    points = np.array([(v.X, v.Y, v.Z) for v in vertices], dtype=float)
    return points[np.array(faces, dtype=int)]


def normals(tri: np.ndarray) -> np.ndarray:
    n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    length = np.linalg.norm(n, axis=1, keepdims=True)
    return n / np.where(length == 0, 1, length)


def areas(tri: np.ndarray) -> np.ndarray:
    return 0.5 * np.linalg.norm(np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]), axis=1)


def first_hits(origins: np.ndarray, directions: np.ndarray, tri: np.ndarray,
               which: bool = False):
    """For each ray, the distance to the nearest triangle it crosses ahead of
    its origin (Moller-Trumbore), or inf; with ``which``, also that
    triangle's index."""
    # Written out a coordinate at a time on (rays, triangles) arrays, the
    # products are plain multiplications: np.cross and np.einsum on
    # broadcast (rays, triangles, 3) arrays took five times as long.  A few
    # rays at a time keep each array near a couple of megabytes, in cache.
    v0 = np.ascontiguousarray(tri[:, 0].T)
    e1 = np.ascontiguousarray((tri[:, 1] - tri[:, 0]).T)
    e2 = np.ascontiguousarray((tri[:, 2] - tri[:, 0]).T)
    out = np.full(len(origins), np.inf)
    index = np.zeros(len(origins), dtype=int)
    chunk = max(1, 2**18 // max(1, len(tri)))
    for start in range(0, len(origins), chunk):
        ox, oy, oz = (origins[start:start + chunk, k, None] for k in range(3))
        dx, dy, dz = (directions[start:start + chunk, k, None] for k in range(3))
        px, py, pz = dy * e2[2] - dz * e2[1], dz * e2[0] - dx * e2[2], dx * e2[1] - dy * e2[0]   # d x e2
        det = px * e1[0] + py * e1[1] + pz * e1[2]
        ok = np.abs(det) > 1e-12
        inv = np.divide(1.0, det, out=np.zeros_like(det), where=ok)
        sx, sy, sz = ox - v0[0], oy - v0[1], oz - v0[2]
        u = (sx * px + sy * py + sz * pz) * inv
        qx, qy, qz = sy * e1[2] - sz * e1[1], sz * e1[0] - sx * e1[2], sx * e1[1] - sy * e1[0]   # s x e1
        v = (dx * qx + dy * qy + dz * qz) * inv
        t = (e2[0] * qx + e2[1] * qy + e2[2] * qz) * inv
        hit = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 1e-6)
        t = np.where(hit, t, np.inf)
        out[start:start + chunk] = t.min(axis=1)
        index[start:start + chunk] = t.argmin(axis=1)
    return (out, index) if which else out


def thinnest_wall(shape, tolerance: float = 0.1, reach: float = 8.0) -> tuple[float, np.ndarray]:
    """The thinnest the material gets: from the middle of every triangle of the
    surface, straight inward, how far to the surface on the other side, where
    that surface faces the other way (within 30 degrees: the two sides of a
    wall).  A ray that leaves through a neighbouring face instead has met an
    edge, not a wall.  Walls thicker than ``reach`` are not measured."""
    tri = triangles(shape, tolerance)
    tri = tri[areas(tri) > 1e-4]
    centres = tri.mean(axis=1)
    n = normals(tri)
    lo, hi = tri.min(axis=1), tri.max(axis=1)
    # rays in small neighbourhoods, each tried only against the triangles near it
    order = np.lexsort(np.floor(centres / (2 * reach)).T[::-1])
    best, where = np.inf, centres[0]
    for start in range(0, len(order), 128):
        rays = order[start:start + 128]
        box_lo = centres[rays].min(axis=0) - reach
        box_hi = centres[rays].max(axis=0) + reach
        near = np.where(np.all(hi >= box_lo, axis=1) & np.all(lo <= box_hi, axis=1))[0]
        inward = -n[rays]
        depth, hit = first_hits(centres[rays] + inward * 1e-4, inward, tri[near], which=True)
        facing = np.einsum("ij,ij->i", n[rays], n[near][hit]) < -math.cos(math.radians(30))
        depth = np.where(facing, depth, np.inf)
        k = int(np.argmin(depth))
        if depth[k] < best:
            best, where = float(depth[k]), centres[rays[k]]
    return best, where
