"""The `scorebox` command."""

import argparse
import importlib
import json
import os
import sys

from scorebox.device.firmware import firmware_dir
from scorebox.errors import ScoreboxError
from scorebox.store.urls import is_url
from scorebox_core import VERSION


def cmd_replay(args):
    from scorebox.games.scripts import load_script
    from scorebox_core import games

    game, match = load_script(args.file)
    if args.json:
        print(json.dumps(games.part(game, "SNAPSHOT").snapshot(match), indent=2, sort_keys=True))
    else:
        from scorebox.games import registry as pcgames

        print(pcgames.part(game, "BOARD").replay_text(match))
    return 0


def cmd_sync(args):
    """`scorebox sync`, or with --sim the simulator's box plugged in as a box on a cable."""
    from scorebox.sim import vpico
    from scorebox.sync import commands as sync

    if args.sim is None:
        return sync.cmd_sync(args)
    with vpico.plugged_in(args.sim) as port:
        args.port = port
        return sync.cmd_sync(args)


def cmd_doctor(args):
    """`scorebox doctor`, saying the club's name for the box it finds: the device layer has no
    store, so the lookup is passed in. No store yet: nothing extra said, and none made."""
    from scorebox.device import doctor
    from scorebox.sim import vpico

    def box_name(uid):
        from scorebox.store.access import default_path, open_store

        if not args.db and not os.path.exists(default_path()):
            return None
        store = open_store(args.db)  # a --db that is not there: the one line every reader gives
        try:
            return store.box_name(uid)
        finally:
            store.close()

    from scorebox.store.access import ENV

    checks, box, db = (), True, args.db or os.environ.get(ENV)
    if is_url(db):
        # a league's database: checked in one line; a box only when one is named
        checks, box = (lambda report: _check_database(report, db),), bool(args.port or args.sim)
    if args.sim is None:
        return doctor.doctor(args.port, box_name=box_name, checks=checks, box=box)
    with vpico.plugged_in(args.sim) as port:  # the simulator's box, plugged in as `sync --sim` does
        return doctor.doctor(port, box_name=box_name, checks=checks, box=box)


def _check_database(report, url):
    from scorebox.store import pgcheck

    ok, line = pgcheck.check(url)
    report("ok" if ok else "FAIL", line)


def _sim_box(what):
    """The --sim option of a command that talks to a box: the simulator's box instead."""
    from scorebox.sim import run as sim

    p = argparse.ArgumentParser(add_help=False)
    p.add_argument(
        "--sim",
        nargs="?",
        const=sim.default_state(),
        metavar="STATE",
        help="%s the box of `scorebox sim` (its state file; default: the sim's own)" % what,
    )
    return p


def _store_naming_the_box():
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument(
        "--db",
        help="the store that names the box (`scorebox boxes`; default: in your user data folder);"
        " a league's postgresql:// address: checked, and a box only with --port or --sim",
    )
    return p


def cmd_serve(args):
    """`scorebox serve`, or with --league the league's server (league/server.py), not the desk."""
    if args.league:
        from scorebox.league.server import cmd_serve as serve_league

        return serve_league(args)
    return args.run(args)


def _league_option():
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument(
        "--league", action="store_true", help="the league's server on a PostgreSQL --db instead (docs/league.md)"
    )
    p.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="with --league: the server's worker processes (default: two a core, and one)",
    )
    return p


def add_replay_parser(sub):
    r = sub.add_parser("replay", help="replay a match script and show the board")
    r.add_argument("file", help="match script (docs/match-script.md)")
    r.add_argument("--json", action="store_true", help="print the state as one JSON object")
    r.set_defaults(run=cmd_replay)


# The command line in one table (as mpremote's _COMMANDS), in the order `scorebox --help`
# lists it: per command, the module and the function in it that registers its parser whole,
# the options the CLI adds to it (parent parsers, made when the parser is), and the function
# that runs it where the CLI wraps the module's own (None: the run its parser sets). No parser
# is changed once it is registered. A module is imported only when its command's parser is
# made (register()): `scorebox sync` loads neither the report's nor the desk's code, which
# on a box waiting for the PC counts as the sync's own time (docs/benchmarks.md).
COMMANDS = {
    "replay": ("scorebox.cli", "add_replay_parser", (), None),
    "sim": ("scorebox.sim.run", "add_parser", (), None),
    "sync": ("scorebox.sync.commands", "add_sync_parser", (lambda: _sim_box("sync"),), cmd_sync),
    "matches": ("scorebox.sync.commands", "add_matches_parser", (), None),
    "deploy": ("scorebox.device.deploy", "add_parser", (), None),
    "doctor": (
        "scorebox.device.doctor",
        "add_parser",
        (lambda: _sim_box("check"), _store_naming_the_box),
        cmd_doctor,
    ),
    "demo": ("scorebox.demo", "add_parser", (), None),  # a checkout's only: an install has no docs/demo.keys
    "report": ("scorebox.report.html", "add_parser", (), None),
    "show": ("scorebox.report.show", "add_parser", (), None),
    "stats": ("scorebox.report.stats", "add_parser", (), None),
    "export": ("scorebox.commands.export", "add_export_parser", (), None),
    "import": ("scorebox.commands.export", "add_import_parser", (), None),
    "backup": ("scorebox.commands.backup", "add_backup_parser", (), None),
    "restore": ("scorebox.commands.backup", "add_restore_parser", (), None),
    "archers": ("scorebox.commands.archers", "add_parser", (), None),
    "boxes": ("scorebox.commands.boxes", "add_parser", (), None),
    "event": ("scorebox.events.commands", "add_parser", (), None),
    "face": ("scorebox.report.face", "add_parser", (), None),
    "serve": ("scorebox.web.serve", "add_parser", (_league_option,), cmd_serve),
    "board": ("scorebox.web.serve", "add_board_parser", (), None),
    "league": ("scorebox.league.clubs", "add_parser", (), None),
    "push": ("scorebox.commands.push", "add_parser", (), None),
}


def register(name):
    """The function that registers command name's parser (its module imported now)."""
    module, function, _, _ = COMMANDS[name]
    return getattr(importlib.import_module(module), function)


def parser(command=None):
    """The parser of every command, or with command (a name of COMMANDS) of that one only: its
    module alone is imported."""
    p = argparse.ArgumentParser(prog="scorebox", description="Scorebox PC tools for Tic Tac BOW and Try-Tac-Toe.")
    p.add_argument("--version", action="version", version="scorebox %s" % VERSION)
    sub = p.add_subparsers(dest="command", required=True)
    demo_keys = os.path.exists(os.path.join(os.path.dirname(firmware_dir()), "docs", "demo.keys"))
    names = [name for name in COMMANDS if name != "demo" or demo_keys]
    for name in [command] if command in names else names:
        parents = COMMANDS[name][2]
        if parents:
            register(name)(sub, parents=[make() for make in parents])
        else:
            register(name)(sub)
    return p


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    # The command is the first word: the top level's only options (-h, --version) take no value.
    args = parser(argv[0] if argv else None).parse_args(argv)
    run = COMMANDS[args.command][3] or args.run
    try:
        return run(args)
    except ScoreboxError as e:
        print(e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: a write under way was rolled back by the store
        print("scorebox: interrupted; what was being written was not kept", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `scorebox show 1 | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so exit's flush is quiet
        return 0
