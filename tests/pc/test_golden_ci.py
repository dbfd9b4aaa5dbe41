"""CI refuses SCOREBOX_UPDATE_GOLDEN (issue 21, item 16): with it the golden picture tests
rewrite tests/golden/ and pass whatever the screens show (tests/conftest.py)."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def collect(**env):
    """pytest --collect-only of this file in a fresh process, with env over a clean environment."""
    e = {k: v for k, v in os.environ.items() if k not in ("CI", "SCOREBOX_UPDATE_GOLDEN")}
    e.update(env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", __file__],
        cwd=ROOT,
        env=e,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("ci", ["true", "1"])
def test_ci_refuses_to_start_with_update_golden(ci):
    r = collect(CI=ci, SCOREBOX_UPDATE_GOLDEN="1")
    assert r.returncode != 0
    assert "SCOREBOX_UPDATE_GOLDEN is set on CI" in r.stdout + r.stderr
    assert "collected" not in r.stdout  # refused before any test


@pytest.mark.parametrize(
    "env",
    [{"CI": "true"}, {"SCOREBOX_UPDATE_GOLDEN": "1"}, {"CI": "false", "SCOREBOX_UPDATE_GOLDEN": "1"}, {}],
    ids=["CI alone", "a developer updating", "CI=false", "neither"],
)
def test_otherwise_the_run_starts(env):
    r = collect(**env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "SCOREBOX_UPDATE_GOLDEN is set on CI" not in r.stdout + r.stderr
