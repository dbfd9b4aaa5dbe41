"""Print checks on the exported meshes, in their print orientation: what a slicer would meet.

An overhang is a face looking down more steeply than `max_overhang` from vertical. Flat ceilings
(looking straight down) are bridges: each connected one must fit within `max_bridge` along the
longer side of its smallest enclosing rectangle, which over-reports a bridge held on its long
sides but never under-reports one. Faces on the bed are neither.
"""

import math

import numpy as np
import trimesh

FLAT = 1e-4  # a face within this (as the normal's z) of straight down is a ceiling
ON_BED = 1e-3  # mm


def load(path):
    return trimesh.load_mesh(path, process=True)


def solid(mesh):
    """Watertight (closed, manifold) and a positive volume."""
    out = []
    if not mesh.is_watertight:
        out.append("the mesh is not watertight")
    if not mesh.is_winding_consistent:
        out.append("the mesh's faces are not wound consistently")
    if not mesh.volume > 0:
        out.append("the mesh's volume is %.1f mm^3" % mesh.volume)
    return out


def _downward(mesh):
    """Indices of the faces that look down and are not on the bed."""
    nz = mesh.face_normals[:, 2]
    lowest = mesh.triangles[:, :, 2].max(axis=1)
    return np.nonzero((nz < -FLAT) & (lowest > mesh.bounds[0][2] + ON_BED))[0], nz


def overhangs(mesh, max_angle):
    faces, nz = _downward(mesh)
    limit = -math.cos(math.radians(max_angle)) - 1e-3  # a 45 degree chamfer is exactly at the limit
    steep = faces[(nz[faces] < limit) & (nz[faces] > -1 + FLAT)]
    if not len(steep):
        return []
    worst = steep[np.argmin(nz[steep])]
    angle = math.degrees(math.asin(-nz[worst]))  # from vertical: a wall is 0, a ceiling 90
    where = mesh.triangles_center[worst]
    return [
        "%d faces overhang more than %.0f degrees (worst %.0f at x=%.1f y=%.1f z=%.1f)"
        % (len(steep), max_angle, angle, *where)
    ]


def bridges(mesh, max_span):
    faces, nz = _downward(mesh)
    flat = faces[nz[faces] <= -1 + FLAT]
    out = []
    if not len(flat):
        return out
    adjacency = mesh.face_adjacency
    keep = np.isin(adjacency, flat).all(axis=1)
    for group in trimesh.graph.connected_components(adjacency[keep], nodes=flat):
        points = mesh.vertices[np.unique(mesh.faces[group])][:, :2]
        _, extents = trimesh.bounds.oriented_bounds_2D(points)
        if max(extents) > max_span + 1e-6:
            x, y = points.mean(axis=0)
            out.append("a bridge of %.1f mm (> %.0f) at x=%.1f y=%.1f" % (max(extents), max_span, x, y))
    return out


def bed(mesh, size):
    w, d, _ = mesh.extents
    if w <= size[0] and d <= size[1]:
        return []
    return ["%.1f x %.1f mm does not fit a %.0f x %.0f mm bed" % (w, d, *size)]


def check(mesh, p):
    """All print checks for one part: {check name: problems}."""
    return {
        "solid": solid(mesh),
        "overhangs": overhangs(mesh, p.max_overhang),
        "bridges": bridges(mesh, p.max_bridge),
        "bed": bed(mesh, p.bed),
    }
