"""`scorebox sim --keys FILE`'s last line (issue: the headless sim printed the screen and
nothing else): what the box's memory kept and what to run next, the truth for each case: a
fresh box without --state is thrown away; a --state box keeps its matches for `sync --sim`,
and the command the line gives runs."""

import os
import shlex
import subprocess
import sys

import pytest

pytestmark = pytest.mark.micropython

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCOREBOX = os.path.join(os.path.dirname(sys.executable), "scorebox")
DEMO_KEYS = os.path.join(ROOT, "docs", "demo.keys")


def sim(*args):
    """`scorebox sim ARGS`: (the picture's lines, the last line)."""
    p = subprocess.run([SCOREBOX, "sim", *args], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-500:] + p.stderr
    lines = p.stdout.splitlines()
    return lines[:-1], lines[-1]


@pytest.fixture
def keys(tmp_path):
    def write(text):
        path = tmp_path / ("k%d.keys" % len(os.listdir(str(tmp_path))))
        path.write_text(text)
        return str(path)

    return write


def test_a_run_without_state_says_its_fresh_box_is_not_kept():
    picture, last = sim("--keys", DEMO_KEYS)
    assert len(picture) == 32 and all(set(line) <= set(" ▀▄█") for line in picture)  # the screen, then the line
    assert last == (
        "match 1 on a fresh box, not kept (no --state): --state FILE keeps the box's memory, "
        "for `scorebox sync --sim FILE`"
    )


def test_a_state_keeps_the_match_and_the_line_says_how_to_sync_it(tmp_path, keys):
    state = str(tmp_path / "my box.flash")  # a space: the command given is quoted for the shell
    _, last = sim("--keys", DEMO_KEYS, "--state", state)
    q = shlex.quote(state)
    assert last == "match 1 kept in %s; next: scorebox sync --sim %s" % (state, q)

    _, last = sim("--keys", keys("wait:200\n"), "--state", state)  # nothing keyed: match 1 still waits
    assert last == "no match keyed; the box's memory is kept in %s; next: scorebox sync --sim %s" % (state, q)

    nxt = shlex.split(last.split("next: ")[1])
    p = subprocess.run(
        [SCOREBOX, *nxt[1:], "--db", str(tmp_path / "club.sqlite")], capture_output=True, text=True, timeout=300
    )
    assert p.returncode == 0 and "1 new match stored" in p.stdout, p.stdout + p.stderr

    _, last = sim("--keys", keys("wait:200\n"), "--state", state)  # synced: nothing waits
    assert last == "no match keyed; the box's memory is kept in %s; next: scorebox sim --state %s to key a match" % (
        state,
        q,
    )


def test_a_match_left_in_progress_is_said_so(tmp_path, keys):
    state = str(tmp_path / "box.flash")
    sim("--keys", DEMO_KEYS, "--state", state)
    _, last = sim("--keys", keys("# # # 5 A\n"), "--state", state)  # a new match, one arrow
    assert last == (
        "match 2 (in progress) kept in {s}; next: scorebox sim --state {s} to finish it, "
        "then scorebox sync --sim {s}".format(s=state)
    )
    _, last = sim("--keys", keys("wait:200\n"), "--state", state)  # resumed, not finished
    assert last.startswith("match 2 (in progress) kept in %s; " % state), last
