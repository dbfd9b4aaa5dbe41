"""The emulated Pico's tier: MicroPython's own RPI_PICO image on rp2040js (docs/rp2.md).

Without the image and the boot ROM the tier is one skipped test whose line says how many did
not run and what to get (the rest are deselected); without the frozen image (`make uf2`) its
tests are skipped alike, in one line. Each module boots its emulated Pico once and shares it:
the emulator runs at about 0.4x real time.
"""

import os

import pytest
from tierskip import skip_as_one, tier_items

from scorebox.sim.rp2 import emu

_HERE = os.path.dirname(os.path.abspath(__file__))


def pytest_collection_modifyitems(config, items):
    ours = tier_items(items, _HERE)
    try:
        emu.images()
    except emu.Missing as e:
        return skip_as_one(config, items, ours, "tests/rp2", str(e))
    try:
        emu.frozen_uf2()
    except emu.Missing as e:
        frozen = [it for it in ours if it.path.name == "test_rp2_frozen.py" or _param(it, "image") == "frozen"]
        skip_as_one(config, items, frozen, "tests/rp2 on the frozen image", str(e))


def _param(item, name):
    spec = getattr(item, "callspec", None)
    return spec.params.get(name) if spec else None


@pytest.fixture(scope="session")
def deployed(tmp_path_factory):
    """What `scorebox deploy` puts on a box: [(path on the box, bytes)]."""
    return emu.deployed_files(str(tmp_path_factory.mktemp("deploy")))


@pytest.fixture(scope="session", params=emu.Image.KINDS)
def image(request, tmp_path_factory):
    """Each image a box runs (emu.Image): MicroPython's own with the .mpy files deployed, and
    the one of `make uf2` with the box frozen in (skipped, saying why, when it is not built);
    image.fs is what its file system holds besides the journal: [(path on the box, bytes)]."""
    try:
        img = emu.Image(request.param)
    except emu.Missing as e:
        pytest.skip(str(e))
    img.fs = img.files(str(tmp_path_factory.mktemp("files-" + img.kind)))
    return img
