"""Each exported mesh is solid and prints without supports on a 220 x 220 mm bed."""

import pytest

from enclosure import printability
from enclosure.export import export
from enclosure.tests.variants import IDS, VARIANTS, assembled


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("stl")
    return {v: export(assembled(*v), out) for v in VARIANTS}


@pytest.mark.parametrize("variant", VARIANTS, ids=IDS)
def test_parts_print(exported, variant):
    p = assembled(*variant).params
    problems = {}
    for part, path in exported[variant].items():
        assert path.with_suffix(".step").stat().st_size > 0
        found = {k: v for k, v in printability.check(printability.load(path), p).items() if v}
        if found:
            problems[part] = found
    assert problems == {}
