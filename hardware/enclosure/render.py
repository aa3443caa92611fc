"""Pictures of a box: its parts' triangles, lit from above, drawn into a
z-buffer and saved as a PNG.  Small and plain, enough to show where things
go."""
from __future__ import annotations

import numpy as np
from PIL import Image

from .mesh import normals, triangles


def view_matrix(azimuth: float, elevation: float) -> np.ndarray:
    """Rows: the picture's right, up and towards-the-viewer directions, for a
    viewer at ``azimuth`` degrees around Z (0: looking along +Y) and
    ``elevation`` degrees above the table."""
    a, e = np.radians(azimuth), np.radians(elevation)
    forward = np.array([np.sin(a) * np.cos(e), np.cos(a) * np.cos(e), -np.sin(e)])
    right = np.cross(forward, [0, 0, 1.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    return np.array([right, up, -forward])


def render(solids, path, azimuth=-30.0, elevation=30.0, size=(640, 480),
           background=(255, 255, 255)) -> None:
    """``solids``: (shape, (r, g, b)) pairs, placed as they should be seen."""
    view = view_matrix(azimuth, elevation)
    meshes = []
    for shape, colour in solids:
        tri = triangles(shape, 0.2)
        meshes.append((tri @ view.T, normals(tri) @ view.T, np.array(colour, float)))
    allpts = np.concatenate([m[0].reshape(-1, 3) for m in meshes])
    lo, hi = allpts.min(axis=0), allpts.max(axis=0)
    w, h = size
    scale = 0.92 * min(w / (hi[0] - lo[0]), h / (hi[1] - lo[1]))
    centre = (lo + hi) / 2
    depth = np.full((h, w), -np.inf)
    image = np.empty((h, w, 3))
    image[:] = background
    light = np.array([-0.4, 0.6, 0.7])
    light /= np.linalg.norm(light)
    for tri, norm, colour in meshes:
        xs = (tri[:, :, 0] - centre[0]) * scale + w / 2
        ys = h / 2 - (tri[:, :, 1] - centre[1]) * scale
        zs = tri[:, :, 2]
        shade = 0.35 + 0.65 * np.clip(norm @ light, 0, 1)
        for i in range(len(tri)):
            if norm[i, 2] <= 0:
                continue   # facing away
            _fill(xs[i], ys[i], zs[i], colour * shade[i], depth, image)
    Image.fromarray(image.clip(0, 255).astype(np.uint8)).quantize(64).save(path, optimize=True)


def _fill(xs, ys, zs, colour, depth, image):
    h, w = depth.shape
    x0, x1 = max(int(xs.min()), 0), min(int(xs.max()) + 1, w - 1)
    y0, y1 = max(int(ys.min()), 0), min(int(ys.max()) + 1, h - 1)
    if x0 > x1 or y0 > y1:
        return
    px, py = np.meshgrid(np.arange(x0, x1 + 1) + 0.5, np.arange(y0, y1 + 1) + 0.5)
    (ax, bx, cx), (ay, by, cy) = xs, ys
    area = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay)
    if abs(area) < 1e-9:
        return
    l1 = ((bx - px) * (cy - py) - (cx - px) * (by - py)) / area
    l2 = ((cx - px) * (ay - py) - (ax - px) * (cy - py)) / area
    l3 = 1 - l1 - l2
    inside = (l1 >= -1e-6) & (l2 >= -1e-6) & (l3 >= -1e-6)
    z = l1 * zs[0] + l2 * zs[1] + l3 * zs[2]
    region = depth[y0:y1 + 1, x0:x1 + 1]
    nearer = inside & (z > region)
    region[nearer] = z[nearer]
    image[y0:y1 + 1, x0:x1 + 1][nearer] = colour
