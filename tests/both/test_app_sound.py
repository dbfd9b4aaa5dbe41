"""What the app does with the board's optional parts, on the virtual Pico: the piezo (a buzz
for a refused entry, a chirp for a flip, a tone at the match's end; none with the sound off
in Settings: tests/mpy/app_sound.py) and the key layout (the help lines name the keys
fitted: tests/mpy/app_layout.py)."""

import mpy
import pytest

pytestmark = pytest.mark.micropython


def test_the_app_beeps_on_a_refusal_a_flip_and_the_match_end(tmp_path):
    r = mpy.run(["tests/mpy/app_sound.py", str(tmp_path / "flash.img")], heapsize="1m")
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr


def test_the_help_line_follows_the_layout(tmp_path):
    r = mpy.run(["tests/mpy/app_layout.py", str(tmp_path / "flash.img")], heapsize="1m")
    assert r.returncode == 0 and "ALL OK" in r.stdout, r.stdout + r.stderr
