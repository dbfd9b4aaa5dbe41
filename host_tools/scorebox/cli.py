"""The `scorebox` command."""

import argparse
import importlib
import json
import os
import sys

from scorebox import demo
from scorebox.device import deploy, doctor
from scorebox.device.firmware import firmware_dir
from scorebox.errors import ScoreboxError
from scorebox.sim import run as sim
from scorebox.sim import vpico
from scorebox.sync import commands as sync
from scorebox_core import VERSION, games
from scorebox_core.script import MAX_CHARS, ScriptError
from scorebox_core.script import game_of as script_game


def load_script(path):
    try:
        # utf-8-sig: a BOM as some editors write it; lines end at newlines only, not at the
        # form feeds and Unicode separators str.splitlines() also takes (issue 13, item 16)
        with open(path, encoding="utf-8-sig") as f:
            lines = f.read(MAX_CHARS + 1).split("\n")  # one more than a script may have: the reader refuses it
        if lines[-1] == "":
            lines.pop()
    except OSError as e:
        raise ScoreboxError("%s: cannot read: %s" % (path, e.strerror or e))
    except UnicodeDecodeError:
        raise ScoreboxError("%s: not a text file (UTF-8 expected)" % path)
    game = script_game(lines)  # the registry tells the game (docs/match-script.md says how)
    try:
        return game, games.part(game, "SCRIPT").read_lines(lines)
    except ScriptError as e:
        raise ScoreboxError("%s:%d: %s" % (path, e.line, e.message))


def cmd_replay(args):
    game, match = load_script(args.file)
    if args.json:
        print(json.dumps(games.part(game, "SNAPSHOT").snapshot(match), indent=2, sort_keys=True))
    else:
        print(importlib.import_module(game.BOARD).replay_text(match))
    return 0


def cmd_sync(args):
    """`scorebox sync`, or with --sim the simulator's box plugged in as a box on a cable."""
    if args.sim is None:
        return sync.cmd_sync(args)
    with vpico.plugged_in(args.sim) as port:
        args.port = port
        return sync.cmd_sync(args)


def cmd_doctor(args):
    """`scorebox doctor`, saying the club's name for the box it finds: the device layer has no
    store, so the lookup is passed in. No store yet: nothing extra said, and none made."""

    def box_name(uid):
        from scorebox.store.access import default_path, open_store

        if not args.db and not os.path.exists(default_path()):
            return None
        store = open_store(args.db)  # a --db that is not there: the one line every reader gives
        try:
            return store.box_name(uid)
        finally:
            store.close()

    if args.sim is None:
        return doctor.doctor(args.port, box_name=box_name)
    with vpico.plugged_in(args.sim) as port:  # the simulator's box, plugged in as `sync --sim` does
        return doctor.doctor(port, box_name=box_name)


def parser():
    p = argparse.ArgumentParser(prog="scorebox", description="Scorebox PC tools for Tic Tac BOW and Try-Tac-Toe.")
    p.add_argument("--version", action="version", version="scorebox %s" % VERSION)
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("replay", help="replay a match script and show the board")
    r.add_argument("file", help="match script (docs/match-script.md)")
    r.add_argument("--json", action="store_true", help="print the state as one JSON object")
    r.set_defaults(run=cmd_replay)
    sim.add_parser(sub)
    sync.add_parser(sub)
    s = sub.choices["sync"]
    s.add_argument(
        "--sim",
        nargs="?",
        const=sim.default_state(),
        metavar="STATE",
        help="sync the box of `scorebox sim` (its state file; default: the sim's own)",
    )
    s.set_defaults(run=cmd_sync)
    deploy.add_parser(sub)
    doctor.add_parser(sub)
    d = sub.choices["doctor"]
    d.add_argument("--db", help="the store that names the box (`scorebox boxes`; default: in your user data folder)")
    d.add_argument(
        "--sim",
        nargs="?",
        const=sim.default_state(),
        metavar="STATE",
        help="check the box of `scorebox sim` (its state file; default: the sim's own)",
    )
    d.set_defaults(run=cmd_doctor)
    if os.path.exists(os.path.join(os.path.dirname(firmware_dir()), "docs", "demo.keys")):
        demo.add_parser(sub)  # a checkout's: an install has no docs/ and so no demo to offer
    from scorebox.commands import archers, backup, boxes, export  # the club's view on the PC
    from scorebox.report import face, html, show, stats

    for module in (html, show, stats, export, backup, archers, boxes, face):
        module.add_parser(sub)
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except ScoreboxError as e:
        print(e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: a write under way was rolled back by the store (#13 item 18)
        print("scorebox: interrupted; what was being written was not kept", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `scorebox show 1 | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so exit's flush is quiet
        return 0
