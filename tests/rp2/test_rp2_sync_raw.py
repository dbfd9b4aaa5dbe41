"""`scorebox sync --raw` on MicroPython's own RP2040 firmware: the rescue copies the journal
over the REPL (mpremote's Ctrl-C stops the app), stores the matches, then soft-resets the box
(Ctrl-D at the REPL): the port runs main.py again with USB still up, and the next plain sync
is answered by the box's app on the same emulated Pico, never powered off in between.

On the frozen image of `make uf2` only: the rescue, the soft reset and main.py (a file on
both images) are the same on MicroPython's own image, whose deployed .mpy files
test_rp2_deploy.py boots and runs; a second image here was a minute of the tier. The journal
holds 3 Tic Tac BOW matches and 2 Try-Tac-Toe games written by the box's own journal writer
(tests/support/flashfill.py)."""

import os
import subprocess
import sys

import pytest
from flashfill import matches, write
from rp2help import wait_hello

from scorebox.sim.rp2 import emu
from scorebox.store.sqlite import Store
from scorebox_core.games.ttt.game import ID as TTT

pytestmark = [pytest.mark.micropython, pytest.mark.parametrize("image", ["frozen"], indirect=True)]


def scorebox(*args):
    exe = os.path.join(os.path.dirname(sys.executable), "scorebox")
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def rescued(image, tmp_path_factory):
    """One boot of the emulated Pico: the rescue, then a plain sync and doctor, with the
    emulator's process the same throughout; what each printed and the store's games."""
    tmp = tmp_path_factory.mktemp("raw-" + image.kind)
    flash = str(tmp / "box.flash")
    write(tmp, flash, matches("ttb", 3, 1) + matches("ttt", 2, 1))
    emu.fs_add(flash, image.fs)
    db = str(tmp / "club.sqlite")
    pico = emu.EmulatedPico(flash, uf2=image.uf2)
    try:
        hello = wait_hello(pico.port)
        pid = pico.proc.pid
        raw = scorebox("sync", "--raw", "--port", pico.port, "--db", db)
        plain = scorebox("sync", "--port", pico.port, "--db", db)  # no power cycle in between
        doctor = scorebox("doctor", "--port", pico.port)
        same = pico.proc.poll() is None and pico.proc.pid == pid
        tail = pico.tail()
    finally:
        pico.close()
    return hello, raw, plain, doctor, same, tail, [r["game"] for r in Store(db).matches()]


def test_the_rescue_stores_every_match_of_both_games(rescued):
    _, raw, _, _, _, tail, games = rescued
    assert raw.returncode == 0, raw.stdout + raw.stderr + tail
    assert "5 new matches stored" in raw.stdout, raw.stdout
    assert games == ["tictacbow"] * 3 + [TTT] * 2


def test_after_the_rescue_the_soft_reset_box_answers_a_plain_sync(rescued, image):
    hello, raw, plain, doctor, same, tail, _ = rescued
    assert "the box's app runs again (restarted after the copy)" in raw.stdout, raw.stdout + tail
    assert same, "the emulated Pico was restarted: " + tail
    assert plain.returncode == 0, plain.stdout + plain.stderr + tail
    assert "0 new matches stored" in plain.stdout, plain.stdout
    assert "ok    matches waiting for a sync: 0 (and 5 already on a PC)" in doctor.stdout, doctor.stdout
    assert hello["firmware"].endswith("+frozen") == (image.kind == "frozen"), hello
