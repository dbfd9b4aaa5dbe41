"""`python -m enclosure.build [OUTDIR]`: the printable files for both key layouts, and the pictures.

For each layout (display, battery and piezo as in firmware/pins.py) it writes
OUTDIR/<variant>/{tray,front,clip}.{stl,step} in print orientation and hardware.txt, runs the
fit and print checks, and draws enclosure/pictures/*.png. Exits 1 when a check fails.
"""

import argparse
import sys
from pathlib import Path

from enclosure import fit, printability
from enclosure.assembly import build, hardware
from enclosure.export import export, variant_name
from enclosure.params import params_for, read_pins
from enclosure.render import picture

LAYOUTS = ("keypad", "buttons")
PICTURES = Path(__file__).resolve().parent / "pictures"


def problems(asm, stl_paths):
    """(how many checks ran, the failures as (where, check, message))."""
    fits = fit.check(asm)
    ran = len(fits)
    found = [("fit", name, msg) for name, msgs in fits.items() for msg in msgs]
    for part, path in stl_paths.items():
        prints = printability.check(printability.load(path), asm.params)
        ran += len(prints)
        found += [(part, name, msg) for name, msgs in prints.items() for msg in msgs]
    return ran, found


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir", nargs="?", default="out/enclosure")
    ap.add_argument("--pictures", default=str(PICTURES), help="where the PNGs go")
    ap.add_argument("--no-pictures", action="store_true")
    args = ap.parse_args(argv)
    main_layout = read_pins()["LAYOUT"]
    failed = False
    for layout in LAYOUTS:
        asm = build(params_for(layout=layout))
        paths = export(asm, args.outdir)
        folder = paths["tray"].parent
        rows = hardware(asm.params, asm.layout)
        (folder / "hardware.txt").write_text("".join("%d x %s\n" % row for row in rows))
        print("%s: box %.0f x %.0f x %.0f mm -> %s" % (variant_name(asm.params), *outer_size(asm), folder))
        ran, found = problems(asm, paths)
        for where, check, msg in found:
            print("  FAIL %s %s: %s" % (where, check, msg))
        if not found:
            print("  ok: all %d fit and print checks passed (enclosure/README.md lists them)" % ran)
        failed = failed or bool(found)
        if args.no_pictures:
            continue
        Path(args.pictures).mkdir(parents=True, exist_ok=True)
        if layout == main_layout:
            picture(asm, Path(args.pictures) / "assembled.png", title=variant_name(asm.params))
            picture(asm, Path(args.pictures) / "exploded.png", exploded=True, title="exploded")
        else:
            picture(asm, Path(args.pictures) / ("assembled-%s.png" % layout), title=variant_name(asm.params))
    return 1 if failed else 0


def outer_size(asm):
    """Width, height and depth over everything but the clip."""
    bb = asm.parts["front"].bounding_box().add(asm.parts["tray"].bounding_box())
    return bb.size.X, bb.size.Y, bb.size.Z


if __name__ == "__main__":
    sys.exit(main())
