"""The `scorebox` command."""

import argparse
import json
import os
import sys

from scorebox import demo
from scorebox.device import deploy, doctor
from scorebox.errors import ScoreboxError
from scorebox.report import board, ttt_board
from scorebox.sim import run as sim
from scorebox.sync import commands as sync
from scorebox_core.ttb.script import ScriptError, read_lines
from scorebox_core.ttb.snapshot import snapshot
from scorebox_core.ttt import script as ttt_script
from scorebox_core.ttt import snapshot as ttt_snapshot


def load_script(path):
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise ScoreboxError("%s: cannot read: %s" % (path, e.strerror or e))
    except UnicodeDecodeError:
        raise ScoreboxError("%s: not a text file (UTF-8 expected)" % path)
    try:  # a Tic Tac BOW match, or a Try-Tac-Toe game (docs/match-script.md says how it is told)
        return ttt_script.read_lines(lines) if ttt_script.is_ttt(lines) else read_lines(lines)
    except ScriptError as e:
        raise ScoreboxError("%s:%d: %s" % (path, e.line, e.message))


def cmd_replay(args):
    match = load_script(args.file)
    if isinstance(match, ttt_script.Game):
        if args.json:
            print(json.dumps(ttt_snapshot.snapshot(match), indent=2, sort_keys=True))
        else:
            print(ttt_board.draw(match.match))
            print(ttt_board.status(match))
    elif args.json:
        print(json.dumps(snapshot(match), indent=2, sort_keys=True))
    else:
        print(board.draw(match.game))
        print(board.status(match))
    return 0


def parser():
    p = argparse.ArgumentParser(prog="scorebox", description="Scorebox PC tools for Tic Tac BOW.")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("replay", help="replay a match script and show the board")
    r.add_argument("file", help="match script (docs/match-script.md)")
    r.add_argument("--json", action="store_true", help="print the state as one JSON object")
    r.set_defaults(run=cmd_replay)
    sim.add_parser(sub)
    sync.add_parser(sub)
    deploy.add_parser(sub)
    doctor.add_parser(sub)
    demo.add_parser(sub)
    from scorebox.report import face, html, show, stats
    from scorebox.store import backup, export  # the club's view on the PC

    for module in (html, show, stats, export, backup, face):
        module.add_parser(sub)
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except ScoreboxError as e:
        print(e, file=sys.stderr)
        return 2
    except BrokenPipeError:  # `scorebox show 1 | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so exit's flush is quiet
        return 0
