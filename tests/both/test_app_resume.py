"""Resume after a reboot when the journal holds an event the rules refuse now."""

import json

import mpy
import pytest

from scorebox_core.games.ttb import rules

pytestmark = pytest.mark.micropython


def test_refused_event_is_skipped_shown_and_noted(tmp_path):
    p = mpy.run(["tests/mpy/app_resume_skip.py", str(tmp_path / "flash.img")])
    assert p.returncode == 0, p.stderr + p.stdout
    got = json.loads(p.stdout.strip().splitlines()[-1])
    assert got["skipped"] == 1
    assert got["screen"] == "Message" and "1 entry not replayed" in got["text"]
    assert got["events"] == [rules.hit(5, 3), rules.hit(5, 2)]  # A claimed square 5 all the same
    assert got["owner5"] == rules.A
    assert got["journal"] == [rules.hit(5, 3), rules.called(5, True), rules.hit(5, 2)]  # nothing rewritten
    assert got["notes"] == []  # nothing written at boot: the PC finds the refused event itself
