"""PNG pictures of the box, assembled and exploded, drawn headless with matplotlib.

Every solid is tessellated and drawn as one shaded triangle collection (one collection, so
matplotlib sorts all faces together by depth).
"""

import io

import matplotlib
from PIL import Image

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import trimesh  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # noqa: E402

PART_COLOURS = {"tray": "#3d4a5c", "front": "#f28c28", "clip": "#2b2b2b"}
GROUP_COLOURS = {
    "pico": "#2e8b3a",
    "display": "#1a1a2e",
    "cover": "#bfe3f2",
    "keypad": "#e8e8e8",
    "buttons": "#d43a2f",
    "pack": "#222222",
    "charger": "#1f5fbf",
    "switch": "#777777",
    "piezo": "#111111",
    "tape": "#d9d2b8",
    "grip pad": "#5c5c5c",
    "vent": "#f4f4f4",
}
# How far each piece moves out along z (towards the archer) in the exploded view, mm.
EXPLODE_PARTS = {"tray": 0, "front": 75, "clip": -50}
EXPLODE_GROUPS = {"display": 45, "cover": 58, "keypad": 110, "buttons": 45, "piezo": 45, "vent": 52, "grip pad": -65}
NAME_COLOURS = {"keypad keys": "#30343a", "display glass": "#0b0b14"}
MAX_EDGE = 3.0  # mm
LIGHT = np.array([0.4, -0.7, 0.6]) / np.linalg.norm([0.4, -0.7, 0.6])


def _triangles(solid, dz):
    verts, tris = solid.tessellate(0.05, 0.3)
    v = np.array([(p.X, -(p.Z + dz), p.Y) for p in verts])  # plot axes: x right, y away from the archer, z up
    # Small triangles: matplotlib sorts whole faces by their mean depth, long slivers sort wrongly.
    v, f = trimesh.remesh.subdivide_to_size(v, np.array(tris), max_edge=MAX_EDGE)
    return v[f]


def _pieces(asm, exploded):
    for name, solid in asm.parts.items():
        yield solid, PART_COLOURS[name], EXPLODE_PARTS[name] if exploded else 0
    for c in asm.components:
        colour = NAME_COLOURS.get(c.name) or GROUP_COLOURS.get(c.group, "#999999")
        yield c.solid, colour, EXPLODE_GROUPS.get(c.group, 12) if exploded else 0


def _draw(ax, asm, exploded, elev, azim):
    faces, colours = [], []
    for solid, colour, dz in _pieces(asm, exploded):
        tri = _triangles(solid, dz)
        normals = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
        normals /= np.linalg.norm(normals, axis=1, keepdims=True) + 1e-12
        shade = 0.35 + 0.65 * np.abs(normals @ LIGHT)
        rgb = np.array(matplotlib.colors.to_rgb(colour))
        faces.append(tri)
        colours.append(np.clip(shade[:, None] * rgb, 0, 1))
    tri = np.concatenate(faces)
    colours = np.concatenate(colours)  # edges in the face's colour hide the seams between triangles
    ax.add_collection3d(Poly3DCollection(tri, facecolors=colours, edgecolors=colours, linewidths=0.2))
    lo, hi = tri.reshape(-1, 3).min(axis=0), tri.reshape(-1, 3).max(axis=0)
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_zlim(lo[2], hi[2])
    ax.set_box_aspect(hi - lo)
    ax.view_init(elev=elev, azim=azim)
    ax.set_axis_off()


def picture(asm, path, exploded=False, title=""):
    """Writes a PNG: front three-quarter view and back view (or the exploded view alone)."""
    views = [(22, -28), (22, 152)] if exploded else [(20, -62), (20, 118)]
    fig = plt.figure(figsize=(4.2 * len(views), 4.6), dpi=110)
    for k, (elev, azim) in enumerate(views):
        ax = fig.add_subplot(1, len(views), k + 1, projection="3d")
        _draw(ax, asm, exploded, elev, azim)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.subplots_adjust(left=0, right=1, bottom=0, top=0.94, wspace=0)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    # A 96-colour palette keeps the committed pictures small.
    Image.open(buf).convert("RGB").quantize(colors=96, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
