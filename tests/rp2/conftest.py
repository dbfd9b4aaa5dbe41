"""The emulated Pico's tier: MicroPython's own RPI_PICO image on rp2040js (docs/rp2.md).

Without the image and the boot ROM the tier is one skipped test whose line says what to get
(the rest are deselected). Each module boots its emulated Pico once and shares it: the
emulator runs at about 0.4x real time.
"""

import os

import pytest

from scorebox.sim.rp2 import emu

_HERE = os.path.dirname(os.path.abspath(__file__))


def pytest_collection_modifyitems(config, items):
    try:
        emu.images()
        return
    except emu.Missing as e:
        why = str(e)
    ours = [it for it in items if str(it.path).startswith(_HERE + os.sep)]
    if ours:
        ours[0].add_marker(pytest.mark.skip(reason=why))
        config.hook.pytest_deselected(items=ours[1:])
        items[:] = [it for it in items if it not in ours[1:]]


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
