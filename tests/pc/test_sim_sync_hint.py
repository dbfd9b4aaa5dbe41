"""A newcomer plays the README's demo keys headless, then syncs the simulated box: the
`--keys` run played on a fresh box that was not kept, so the sync finds none. Its one line
must say how to keep the box (`--state`), not only "key a match with `scorebox sim` first",
which they had just done (found walking the README as a newcomer)."""

import os

import pytest

from scorebox import cli
from scorebox.sim.run import FLASH_SIZE, default_state

DEMO_KEYS = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "demo.keys")


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.micropython
def test_sync_after_a_headless_run_says_how_to_keep_the_box(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home" / "data"))
    state = default_state()
    if not state.startswith(str(tmp_path)):
        pytest.skip("the user data folder here does not follow HOME / XDG_DATA_HOME")
    code, out, err = run(capsys, "sim", "--keys", DEMO_KEYS, "--roster", "Ann,Bob,Cat,Dan")
    assert code == 0, err
    assert "not kept" in out
    code, out, err = run(capsys, "sync", "--sim")
    assert code == 2 and out == ""
    assert err == (
        "%s: no simulator box here yet: key a match with `scorebox sim` first"
        " (a `--keys FILE` run keeps its box here only with `--state %s`)\n" % (state, state)
    )
    # As the line says: the same keys with --state keep the box, and the sync finds its match.
    assert run(capsys, "sim", "--keys", DEMO_KEYS, "--state", state)[0] == 0
    code, out, err = run(capsys, "sync", "--sim", "--db", tmp_path / "club.sqlite")
    assert code == 0 and "1 new match stored" in out, err


def test_a_state_file_not_there_is_named_with_its_own_command(tmp_path, capsys):
    state = tmp_path / "range1.flash"
    for argv in (["sync", "--sim", state], ["doctor", "--sim", state]):
        code, out, err = run(capsys, *argv, "--db", tmp_path / "club.sqlite")
        assert code == 2
        assert err.endswith(
            "%s: no simulator box here yet: key a match with `scorebox sim --state %s` first"
            " (a `--keys FILE` run keeps its box here only with `--state %s`)\n" % (state, state, state)
        )
        assert not state.exists()


def test_a_file_not_the_sims_is_refused_in_words_each_command_takes(tmp_path, capsys):
    """doctor --sim and sync --sim have no --state: the line said "give a new file with --state"."""
    store = tmp_path / "club.sqlite"
    store.write_bytes(b"SQLite format 3\x00" + bytes(64))
    said = "%s is not a simulator state (a %d-byte flash image): give a file `scorebox sim` keeps, or a new one\n"
    for argv in (["sync", "--sim", store], ["doctor", "--sim", store], ["sim", "--keys", DEMO_KEYS, "--state", store]):
        code, out, err = run(capsys, *argv, *(["--db", tmp_path / "x.sqlite"] if argv[0] != "sim" else []))
        assert code == 2 and err.endswith(said % (store, FLASH_SIZE)), err
