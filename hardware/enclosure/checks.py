"""The measurements the tests make of a box, kept beside the model so that
``python -m hardware.enclosure`` can print the same figures."""
from __future__ import annotations

import itertools
import math

import numpy as np
from build123d import GeomType

from .mesh import first_hits, normals, triangles
from .model import BED, MAX_BRIDGE, MAX_OVERHANG, SMALL_HOLE, Box

# Where the players' eyes are, around a box in the middle of the table (mm,
# from the box's centre, heights above the table top): seated adults, their
# eyes 300 to 550 mm above the table, leaning in to 350 mm from the middle of
# the table or sitting back to 800, and spread along their side 500 mm either
# way.
EYE_ALONG = (-500.0, 500.0)
EYE_ACROSS = (350.0, 800.0)
EYE_HEIGHT = (300.0, 550.0)
# The panel's readable cone: the SSD1306 and SH1106 panels' datasheets give a
# viewing angle of 160 degrees or more, 80 degrees either side of the normal;
# beyond that (and behind the panel's own plane) nothing is read.  A team is
# meant to read its own screen at no more than 65 degrees off its normal.
READABLE = 80.0
COMFORTABLE = 65.0


def solids(box: Box):
    return [(p.name, p.solid) for p in box.printed] + [(b.name, b.solid) for b in box.bought]


def collisions(box: Box, limit: float = 0.01) -> list[tuple[str, str, float]]:
    """Every pair of parts that share more than ``limit`` mm^3."""
    named = solids(box)
    boxes = [s.bounding_box() for _, s in named]
    found = []
    for (i, (a, sa)), (j, (b, sb)) in itertools.combinations(enumerate(named), 2):
        ba, bb = boxes[i], boxes[j]
        if (ba.min.X >= bb.max.X or bb.min.X >= ba.max.X or ba.min.Y >= bb.max.Y
                or bb.min.Y >= ba.max.Y or ba.min.Z >= bb.max.Z or bb.min.Z >= ba.max.Z):
            continue
        common = sa & sb
        volume = common.volume if common is not None else 0.0
        if volume > limit:
            found.append((a, b, volume))
    return found


def in_the_way(box: Box, name: str, limit: float = 0.01) -> list[str]:
    """The parts that stand in the path ``name`` other than the part it is for."""
    path = box.paths[name]
    found = []
    for other, solid in solids(box):
        if other == name:
            continue
        common = path & solid
        if common is not None and common.volume > limit:
            found.append(other)
    return found


def fit(box: Box, fit, slack: float = 0.02, snug: float = 0.1) -> tuple[float, float]:
    """How much the part's feature shares with the printed part when grown by
    its clearance less ``slack`` (must be none) and by its clearance plus
    ``snug`` (must be some: the cut-out is no looser than stated)."""
    printed = box.part(fit.printed).solid

    def shared(extra):
        common = printed & fit.make(extra)
        return common.volume if common is not None else 0.0
    return shared(fit.clearance - slack), shared(fit.clearance + snug)


def overhangs(solid, limit: float = MAX_OVERHANG) -> list[tuple[str, float, float]]:
    """The faces of a part as it lies on the bed that face down more steeply
    than ``limit`` degrees from the vertical, other than those on the bed,
    the insides of small holes and bridges (``bridges``).  Returns (face
    type, worst angle, height)."""
    threshold = -math.sin(math.radians(limit)) - 1e-3
    bad = []
    faces = solid.faces()
    for face in faces:
        if face.geom_type == GeomType.CYLINDER and _radius(face) <= SMALL_HOLE / 2 + 1e-6:
            continue
        if _bridge(face, faces) is not None:
            continue
        tri = triangles(face, 0.05)
        if not len(tri):
            continue
        n = normals(tri)
        low = n[:, 2] < threshold
        on_bed = tri[:, :, 2].max(axis=1) < 1e-3
        worst = low & ~on_bed
        if worst.any():
            angle = math.degrees(math.asin(min(1.0, -n[worst, 2].min())))
            bad.append((str(face.geom_type), round(angle, 1),
                        round(float(tri[worst][:, :, 2].min()), 2)))
    return bad


def bridges(solid) -> list[tuple[float, float]]:
    """The flat roofs of a part as it lies on the bed that the slicer bridges:
    each one's span (the narrower of its widths) and its height."""
    faces = solid.faces()
    found = []
    for face in faces:
        span = _bridge(face, faces)
        if span is not None:
            found.append((round(span, 3), round(face.center().Z, 3)))
    return found


def _bridge(face, faces) -> float | None:
    """The span of ``face`` if it is a bridge: flat and facing straight down,
    off the bed, no wider than MAX_BRIDGE one way, and every edge of it held
    by a face that goes down from that edge (a wall to lay the strands' ends
    on, not a shelf's rim going up)."""
    if face.geom_type != GeomType.PLANE or face.normal_at().Z > -1 + 1e-6:
        return None
    box = face.bounding_box()
    span = min(box.size.X, box.size.Y)
    if box.min.Z < 1e-3 or span > MAX_BRIDGE:
        return None
    z = box.max.Z
    for edge in face.edges():
        for other in faces:
            if other.wrapped.IsSame(face.wrapped) or not any(
                    e.wrapped.IsSame(edge.wrapped) for e in other.edges()):
                continue
            held = other.bounding_box()
            if held.max.Z > z + 1e-6 or held.min.Z > z - 1e-3:
                return None
    return span


def fits_bed(solid) -> tuple[bool, tuple[float, float, float]]:
    size = solid.bounding_box().size
    return (size.X <= BED[0] and size.Y <= BED[1] and size.Z <= BED[2]), (size.X, size.Y, size.Z)


def eyes(side: int, steps: int = 5) -> np.ndarray:
    """Eye points of the players on the table's ``side`` (-1: -Y, +1: +Y)."""
    along = np.linspace(*EYE_ALONG, steps)
    across = np.linspace(*EYE_ACROSS, steps) * side
    height = np.linspace(*EYE_HEIGHT, steps)
    return np.array(list(itertools.product(along, across, height)))


def printed_triangles(box: Box) -> np.ndarray:
    return np.concatenate([triangles(p.solid, 0.2) for p in box.printed])


def sightlines(box: Box, sight, side: int, tri=None):
    """For every eye on ``side`` and every corner of the panel's pixels: the
    angle off the panel's normal, and whether the box's printed parts stand
    between."""
    starts, ends = _lines(sight, side)
    d = ends - starts
    lengths = np.linalg.norm(d, axis=1)
    dirs = d / lengths[:, None]
    tri = printed_triangles(box) if tri is None else tri
    blocked = first_hits(starts + dirs * 0.05, dirs, tri) < lengths
    return view_angles(sight, side), blocked


def view_angles(sight, side: int) -> np.ndarray:
    """The angle (degrees) between the panel's normal and the line from each
    corner of its pixels to each eye on ``side``."""
    starts, ends = _lines(sight, side)
    d = ends - starts
    d /= np.linalg.norm(d, axis=1)[:, None]
    normal = np.array([sight.normal.X, sight.normal.Y, sight.normal.Z])
    normal /= np.linalg.norm(normal)
    return np.degrees(np.arccos(np.clip(d @ normal, -1, 1)))


def _lines(sight, side):
    corners = np.array([(c.X, c.Y, c.Z) for c in sight.corners])
    seen = eyes(side)
    return np.repeat(corners, len(seen), axis=0), np.tile(seen, (len(corners), 1))


def _radius(face) -> float:
    from OCP.BRepAdaptor import BRepAdaptor_Surface
    return BRepAdaptor_Surface(face.wrapped).Cylinder().Radius()


# The seats the figures are given for: in line with the box and 500 mm along
# it either way, leaning in (350 mm from the box's centre) to sitting back
# (800 mm), eyes 400 to 550 mm over the table.  Every seat on both sides reads
# the public screen; each team's own seats read its screen.
SEAT_ALONG = (-500.0, 0.0, 500.0)
SEAT_ACROSS = (350.0, 550.0, 800.0)
SEAT_HEIGHT = (400.0, 550.0)


def seats(side: int) -> list[tuple[float, float, float]]:
    """The seats on the table's ``side`` (-1: -Y, +1: +Y) as eye points."""
    return [(x, side * y, z) for x in SEAT_ALONG for y in SEAT_ACROSS for z in SEAT_HEIGHT]


def pixels(sight, offset: float = 0.0, steps: tuple[int, int] = (16, 8)) -> np.ndarray:
    """A grid of points over the panel's pixels, corners and edges included,
    the whole grid moved ``offset`` mm from where the model puts it along the
    panel's height (a module whose active area sits off its holes' centre)."""
    c = np.array([(v.X, v.Y, v.Z) for v in sight.corners])   # (-x,-y) (-x,+y) (+x,-y) (+x,+y)
    up = c[1] - c[0]
    up /= np.linalg.norm(up)
    u = np.linspace(0, 1, steps[0])[:, None, None]
    v = np.linspace(0, 1, steps[1])[None, :, None]
    grid = ((1 - u) * (1 - v) * c[0] + (1 - u) * v * c[1] + u * (1 - v) * c[2] + u * v * c[3])
    return grid.reshape(-1, 3) + offset * up


def seen(box: Box, sight, eye_points, offset: float = 0.0, tri=None) -> np.ndarray:
    """For each eye, the share of the pixel grid it sees: lines from the pixels
    to the eye that no printed triangle crosses, and within the panel's
    readable cone."""
    tri = printed_triangles(box) if tri is None else tri
    px = pixels(sight, offset)
    eye_points = np.asarray(eye_points, dtype=float)
    starts = np.repeat(px, len(eye_points), axis=0)
    ends = np.tile(eye_points, (len(px), 1))
    d = ends - starts
    lengths = np.linalg.norm(d, axis=1)
    dirs = d / lengths[:, None]
    normal = np.array([sight.normal.X, sight.normal.Y, sight.normal.Z])
    normal /= np.linalg.norm(normal)
    # only triangles near the panel and in front of its face can stand between
    # (the box is small beside the table, and an eye behind the face is outside
    # the readable cone anyway)
    near = (np.all(tri.max(axis=1) > px.min(axis=0) - 60, axis=1)
            & np.all(tri.min(axis=1) < px.max(axis=0) + 60, axis=1)
            & (((tri - px[0]) @ normal).max(axis=1) > -0.5))
    hit = first_hits(starts + dirs * 0.05, dirs, tri[near]) < lengths
    cone = np.degrees(np.arccos(np.clip(dirs @ normal, -1, 1))) <= READABLE
    ok = (~hit & cone).reshape(len(px), len(eye_points))
    return ok.mean(axis=0)
