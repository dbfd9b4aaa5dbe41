"""Writes each printed part, in its print orientation, as STL (for the slicer) and STEP (for CAD)."""

from pathlib import Path

from build123d import export_step, export_stl

from enclosure.printed import on_bed


def variant_name(p):
    return "%s-%s-%s%s" % (p.layout, p.display.name, p.battery.kind, "" if p.piezo else "-nopiezo")


def export(asm, outdir):
    """Writes OUTDIR/<variant>/<part>.stl and .step; returns {part: stl path}."""
    folder = Path(outdir) / variant_name(asm.params)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, solid in asm.parts.items():
        placed = on_bed(name, solid)
        paths[name] = folder / (name + ".stl")
        export_stl(placed, str(paths[name]), tolerance=0.01, angular_tolerance=0.2)
        export_step(placed, str(folder / (name + ".step")))
    return paths
