"""The case variants the tests check, each built once per test session."""

import itertools
from dataclasses import replace
from functools import cache

from enclosure.assembly import Assembly, build
from enclosure.params import params_for

VARIANTS = list(itertools.product(("keypad", "buttons"), ("SH1106", "SSD1309", "SSD1306"), ("3xAA", "lipo")))
IDS = ["-".join(v) for v in VARIANTS]


@cache
def assembled(layout=None, display=None, battery=None, **changes):
    return build(params_for(display=display, layout=layout, battery=battery, **changes))


def with_components_of(asm, **changes):
    """The same printed parts around bought parts as another parameter set places them: a case
    exported before a part changed."""
    built = build(replace(asm.params, **changes))
    return Assembly(asm.params, asm.layout, asm.parts, built.components, built.sockets)
