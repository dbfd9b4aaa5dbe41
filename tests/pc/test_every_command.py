"""Every command of the CLI on a store holding both games, and on an empty store, without a
traceback (issue 21, "done when"): the list of commands is read from the CLI's own parser
(`scorebox.cli.parser()`, subcommands of subcommands too), so a new command fails here
until it is given a run below. A command may refuse (exit 2, one line on stderr) where
there is nothing to act on; on the store of both games each ends as written in RUNS.

The commands run in this process through cli.main, in the order of RUNS (backup before
restore, sim before sync); the ones that need a box get the simulated one (`scorebox sim
--keys` keys the demo's match, `sync --sim` brings it in) or a port where no box is."""

import argparse
import json
import os
import sqlite3
import traceback

import pytest
from bothstore import TTT_BOX, both_games

from scorebox import cli
from scorebox.store import backup

pytestmark = pytest.mark.micropython  # sim, sync --sim and demo run the firmware

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TTT_SCRIPT = """\
options: game=try-tac-toe
archers: X=Ann O=Ben
X: 37
O: 12
X: -
undo
X: 38
"""


def commands(parser):
    """'name' or 'name action' of every command the parser takes."""
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                inner = commands(sub)
                out += ["%s %s" % (name, i) for i in inner] if inner else [name]
    return out


# command -> [(arguments, exit status on the store of both games, on an empty store)]; in
# the arguments {db}, {dir} (a folder of the test's), {root} (the checkout) and {box} (the
# Try-Tac-Toe games' box) are filled in. None: any of 0, 1 and 2 (a command that depends
# on more than the store, such as a machine's ports and tools: doctor's checklist).
RUNS = {
    "replay": [
        (["replay", "{root}/docs/samples/full-game.ttb"], 0, 0),
        (["replay", "{dir}/ttt.txt", "--json"], 0, 0),
    ],
    "matches": [(["matches", "--db", "{db}"], 0, 0), (["matches", "--json", "--db", "{db}"], 0, 0)],
    "show": [(["show", "1", "--db", "{db}"], 0, 2), (["show", "{box}/2", "--db", "{db}"], 0, 2)],
    "stats": [
        (["stats", "--db", "{db}"], 0, 0),
        (["stats", "Ann", "--db", "{db}"], 0, 2),
        (["stats", "--ttt", "--json", "--db", "{db}"], 0, 0),
    ],
    "report": [(["report", "--out", "{dir}/report.html", "--db", "{db}", "--replays", "2"], 0, 0)],
    "event new": [
        (
            [
                "event",
                "new",
                "Friday",
                "--game",
                "tictacbow",
                "--format",
                "round-robin",
                "--option",
                "rounds=1",
                "--archers",
                "Ann,Ben,Cat",
                "--targets",
                "2",
                "--db",
                "{db}",
            ],
            0,
            0,
        )
    ],  # fmt: skip
    "event list": [(["event", "list", "--db", "{db}"], 0, 0)],
    "event show": [(["event", "show", "1", "--db", "{db}"], 0, 0)],
    "event paper": [(["event", "paper", "1", "1.1", "{dir}/card.txt", "--db", "{db}"], 0, 0)],
    "event seat": [(["event", "seat", "1", "2.1", "2", "--db", "{db}"], 0, 0)],
    "event attach": [(["event", "attach", "1", "3.1", "1", "--db", "{db}"], None, 2)],  # whoever shot match 1
    "event swap": [(["event", "swap", "1", "Ann", "Ben", "--db", "{db}"], 2, 2)],  # no round where both still shoot
    "event withdraw": [(["event", "withdraw", "1", "Cat", "--db", "{db}"], 0, 0)],
    "export": [
        (["export", "--format", "csv", "--out", "{dir}/csv", "--db", "{db}"], 0, 0),
        (["export", "--format", "json", "--out", "{dir}/json", "--db", "{db}"], 0, 0),
    ],
    "import": [(["import", "{dir}/json", "--db", "{db}"], 0, 0)],
    "archers list": [(["archers", "list", "--retired", "--db", "{db}"], 0, 0)],
    "archers add": [(["archers", "add", "Zed", "--db", "{db}"], 0, 0)],
    "archers rename": [(["archers", "rename", "Zed", "Zoe", "--db", "{db}"], 0, 0)],
    "archers retire": [(["archers", "retire", "Zoe", "--db", "{db}"], 0, 0)],
    "archers club": [(["archers", "club", "Zoe", "Bowmen of B", "--db", "{db}"], 0, 0)],
    "archers import": [(["archers", "import", "{dir}/members.csv", "--db", "{db}"], 0, 0)],
    "boxes list": [(["boxes", "list", "--db", "{db}"], 0, 0)],
    "boxes name": [(["boxes", "name", "{box}", "Red", "--db", "{db}"], 0, 2)],
    "backup": [(["backup", "{dir}/b.sqlite", "--db", "{db}"], 0, 0)],
    "restore": [(["restore", "{dir}/b.sqlite", "--db", "{db}"], 0, 0)],
    "face": [(["face", "trytactoe", "--size", "300", "--no-pdf", "--out", "{dir}/face/ttt.svg"], 0, 0)],
    # a league's commands on a club's store: refused (a league runs on PostgreSQL; no league at port 1)
    "league add-club": [(["league", "add-club", "A", "--db", "{db}"], 2, 2)],
    "league clubs": [(["league", "clubs", "--db", "{db}"], 2, 2)],
    "league pushes": [(["league", "pushes", "--db", "{db}"], 2, 2)],
    "league add-season": [(["league", "add-season", "2027", "2027-01-01", "2027-12-31", "--db", "{db}"], 2, 2)],
    "league seasons": [(["league", "seasons", "--db", "{db}"], 2, 2)],
    "push": [(["push", "http://127.0.0.1:1/", "--token", "sbl1.a.b", "--db", "{db}"], 2, 2)],
    "serve": [(["serve", "--host", "0.0.0.0", "--port", "0", "--no-browser", "--db", "{db}"], 2, 2)],  # no password
    "board": [(["board", "99", "--no-browser", "--db", "{db}"], 2, 2)],  # no such event: before any serving
    "sim": [
        (["sim", "--keys", "{root}/docs/demo.keys", "--roster", "Ann,Bob,Cat,Dan", "--state", "{dir}/box.flash"], 0, 0)
    ],
    "sync": [(["sync", "--sim", "{dir}/box.flash", "--db", "{db}"], 0, 0)],
    "doctor": [(["doctor", "--port", "{dir}/no-such-port", "--db", "{db}"], None, None)],
    "deploy": [(["deploy", "--port", "{dir}/no-such-port"], None, None)],
    "demo": [(["demo", "--out", "{dir}/demo"], 0, 0)],
}


def test_every_command_has_a_run():
    assert sorted(commands(cli.parser())) == sorted(RUNS)


def run_all(tmp_path, db, capsys, which):
    (tmp_path / "ttt.txt").write_text(TTT_SCRIPT)
    (tmp_path / "members.csv").write_text("name\nAnn\nYan\n")
    (tmp_path / "card.txt").write_text("A: 5:1 M M\nB: 6:1 M M\n")  # a draw at the event's one round, from paper
    fill = {"db": db, "dir": str(tmp_path), "root": ROOT, "box": TTT_BOX}
    done = []
    for command in RUNS:
        if command not in commands(cli.parser()):
            continue
        for args, on_both, on_empty in RUNS[command]:
            argv = [a.format(**fill) for a in args]
            want = on_both if which == "both" else on_empty
            try:
                status = cli.main(argv)
            except SystemExit as e:  # argparse: the run above is out of date
                status = "exit %s" % e.code
            except BaseException:
                pytest.fail("scorebox %s: a traceback\n%s" % (" ".join(argv), traceback.format_exc()))
            out = capsys.readouterr()
            where = "scorebox %s on the %s store: exit %s\n%s%s" % (" ".join(argv), which, status, out.out, out.err)
            assert "Traceback" not in out.err, where
            assert status in (0, 1, 2) if want is None else status == want, where
            if status == 2 and want is not None:
                assert len(out.err.strip().splitlines()) == 1, where  # one line says why
            done.append(command)
    return done


def test_every_command_on_both_games_and_on_an_empty_store(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # whatever a command writes by default lands here
    both = tmp_path / "both"
    both.mkdir()
    db = both_games(str(both / "club.sqlite"))
    assert run_all(both, db, capsys, "both") == [c for c in RUNS for _ in RUNS[c]]
    assert backup.problems(db) == []
    games = [json.loads(r[0]).get("game") for r in sqlite3.connect(db).execute("SELECT header FROM matches")]
    assert len(games) >= 5 and len(set(games)) == 2  # still both games, after restore and sync

    empty = tmp_path / "empty"
    empty.mkdir()
    from scorebox.store.sqlite import Store

    Store(str(empty / "club.sqlite")).close()
    run_all(empty, str(empty / "club.sqlite"), capsys, "empty")
