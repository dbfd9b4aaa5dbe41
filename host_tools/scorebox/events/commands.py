"""`scorebox event`: a club's evenings and tournaments (docs/events.md). new draws an event's
first pairings, list and show read them back with the results and standings, attach settles a
pairing with a match keyed with its sides picked by hand, paper with a paper card's arrows
keyed as a match script, seat moves a pairing to another target, swap exchanges two archers'
places in their next pairings, withdraw takes an archer out (their pairings not yet shot
become byes). Every change to an event is kept in its log, which show prints."""

import json

from scorebox.errors import ScoreboxError
from scorebox.events import paper, rounds, shown
from scorebox.events.standings import RULE
from scorebox.games.scripts import script_lines
from scorebox.store.access import open_store
from scorebox.text import date_text, plural, printable, said
from scorebox_core import games


def heading(event, count):
    """An event's first line: its name, id, game, format, entrants and targets, day."""
    word = "teams" if event.format == rounds.TEAMS else "archers"
    limit = ", %d min a match" % (event.time_limit // 60) if event.time_limit else ""
    return "%s (event %d): %s, %s, %d %s, %s, %s%s" % (
        printable(event.name),
        event.id,
        games.get(event.game).NAME,
        rounds.FORMAT_WORDS[event.format],
        count,
        word,
        plural(event.targets, "target"),
        event.day,
        limit,
    )


def pairing_line(p):
    """One pairing (a shown.Shown): its label, target, sides and result."""
    if p.b is None:
        return "  %-10s %-4s %s: a bye" % (p.label, "-", printable(p.a))
    result = p.result
    if p.points is not None:
        result += ", %d-%d (match %d%s)" % (p.points[0], p.points[1], p.match_id, ", from paper" if p.paper else "")
    target = "T%d" % p.target if p.target else "-"
    return "  %-10s %-4s %-34s %s" % (p.label, target, printable("%s v %s" % (p.a, p.b)), printable(result))


def first_round(store, event):
    pairings = shown.view(store, event.id)["pairings"]
    first = min((p.round for p in pairings), default=1)
    print("round %d:" % first)
    for p in pairings:
        if p.round == first:
            print(pairing_line(p))


def cmd_new(store, args):
    names = [n for n in args.archers.split(",") if n.strip()]
    if args.time_limit is not None and not 1 / 60 <= args.time_limit <= 24 * 60:  # nan and inf fail too
        raise ScoreboxError("a time limit is 1 second to 24 hours (--time-limit takes minutes)")
    limit = None if args.time_limit is None else int(round(args.time_limit * 60))
    event = rounds.create(
        store,
        args.name,
        args.game,
        args.format,
        names,
        args.targets,
        seeding=args.seeding,
        day=args.day,
        options=args.option or (),
        time_limit=limit,
    )
    print(heading(event, len(rounds.entrants(store, event.id))))
    first_round(store, event)
    print("`scorebox event show %d` shows every round, the results and the standings" % event.id)
    return 0


def cmd_list(store, args):
    rows = store.events()
    if not rows:
        print("no events in %s: `scorebox event new` makes one" % store.path)
        return 0
    print("%4s  %-10s  %-28s %-12s %-26s %s" % ("id", "day", "name", "game", "format", "shot"))
    for eid, name, day, game, _, fmt, _, _, _, count, shot in rows:
        print(
            "%4d  %-10s  %-28s %-12s %-26s %d of %d"
            % (eid, day, printable(name), games.get(game).NAME, rounds.FORMAT_WORDS[fmt], shot, count)
        )
    print(plural(len(rows), "event"))
    return 0


def cmd_show(store, args):
    v = shown.view(store, args.id)
    event = v["event"]
    print(heading(event, len(v["entrants"])))
    agreed = rounds.options_agreed(event)
    if agreed:
        print("options: %s" % ", ".join("%s %s" % (k, json.dumps(v)) for k, v in sorted(agreed.items())))
    gone = [e.name for e in v["entrants"] if e.withdrawn is not None]
    if gone:
        print("withdrawn: %s (their later pairings are byes)" % printable(", ".join(gone)))
    for rnd in sorted({p.round for p in v["pairings"]}):
        print("round %d:" % rnd)
        for p in v["pairings"]:
            if p.round == rnd:
                print(pairing_line(p))
    if v["standings"] is not None:
        print("standings (%s):" % RULE)
        print("  %-4s %-30s %3s %3s %3s %3s %9s" % ("", "", "P", "W", "D", "L", "points"))
        for r in v["standings"]:
            name = printable(r.name) + (" (withdrawn)" if r.withdrawn else "")
            print(
                "  %-4s %-30s %3d %3d %3d %3d %4d-%-4d"
                % ("%d." % r.place, name, r.played, r.won, r.drawn, r.lost, r.points_for, r.points_against)
            )
    elif v["champion"] is not None:
        print("won by %s" % printable(v["champion"]))
    if v["log"]:
        print("changes:")
        for at, text in v["log"]:
            print("  %s  %s" % (date_text(at), printable(text)))
    return 0


def cmd_attach(store, args):
    p, match = rounds.attach(store, args.id, args.pairing, args.match)
    print("pairing %s is settled by match %s (%s)" % (rounds.label(p), match["id"], match["key"]))
    return 0


def cmd_paper(store, args):
    p, match = paper.paper(store, args.id, args.pairing, script_lines(args.file), args.file)
    letters = games.of(match["header"]).SIDES
    winner = match["winner"]
    if winner is not None and winner in letters:  # the winning side by its archers' names
        winner = " & ".join(match["names"][letters.index(winner)])
    print(
        "pairing %s is settled by match %s from a paper card: %s"
        % (rounds.label(p), match["id"], printable(said(winner, match["score"])))
    )
    return 0


def cmd_seat(store, args):
    event = rounds.load(store, args.id)
    if not 1 <= args.target <= event.targets:
        raise ScoreboxError("event %d has targets 1-%d" % (event.id, event.targets))
    p = rounds.pairing(store, event.id, args.pairing)
    store.seat_pairing(p["id"], args.target)
    print("pairing %s moves to target %d" % (rounds.label(p), args.target))
    return 0


def cmd_swap(store, args):
    changed = rounds.swap(store, args.id, args.first, args.second)
    print("swapped in pairing %s" % " and ".join(rounds.label(p) for p in changed))
    return 0


def cmd_withdraw(store, args):
    entrant = rounds.withdraw(store, args.id, args.archer)
    print("%s is withdrawn from event %d: their pairings not yet shot are byes" % (printable(entrant.name), args.id))
    return 0


def cmd_event(args):
    store = open_store(args.db, create=args.action is cmd_new)
    try:
        return args.action(store, args)
    finally:
        store.discard_if_empty()


def add_parser(sub):
    p = sub.add_parser("event", help="a club's evenings and tournaments: new, list, show, attach, paper, seat...")
    acts = p.add_subparsers(dest="event_command", required=True)
    a = acts.add_parser("new", help="a new event: its archers seeded and its first pairings drawn")
    a.add_argument("name", metavar="NAME", help="the event's name, e.g. 'Friday night' (quoted with a space)")
    a.add_argument("--game", required=True, help="the game's id: %s" % ", ".join(g.ID for g in games.every()))
    a.add_argument("--format", required=True, choices=rounds.FORMATS, help="how the archers are paired")
    a.add_argument("--archers", required=True, help="the archers' names, comma-separated (a new name is added)")
    a.add_argument("--targets", type=int, required=True, help="how many targets the event shoots on")
    a.add_argument(
        "--seeding",
        default="given",
        choices=rounds.SEEDINGS,
        help="by the club's record, at random, or in the order given (the default)",
    )
    a.add_argument("--day", help="the day, YYYY-MM-DD (default: today)")
    a.add_argument("--option", action="append", metavar="NAME=VALUE", help="a game option, as New match sets it")
    a.add_argument(
        "--time-limit",
        type=float,
        metavar="MINUTES",
        help="how long a match may last (kept; the box does not count it yet)",
    )
    a.set_defaults(action=cmd_new)
    a = acts.add_parser("list", help="every event, newest first")
    a.set_defaults(action=cmd_list)
    a = acts.add_parser("show", help="an event's rounds, pairings, results, standings and changes")
    a.add_argument("id", metavar="ID", type=int, help="the event's id, as `scorebox event list` shows it")
    a.set_defaults(action=cmd_show)
    a = acts.add_parser("attach", help="settle a pairing with a match keyed with its sides picked by hand")
    a.add_argument("id", metavar="ID", type=int, help="the event's id")
    a.add_argument("pairing", metavar="PAIRING", help="the pairing, as show labels it (e.g. 2.3)")
    a.add_argument("match", metavar="MATCH", help="the match's id from `scorebox matches`, or DEVICE/NUMBER")
    a.set_defaults(action=cmd_attach)
    a = acts.add_parser("paper", help="settle a pairing with a paper card's match, keyed as a match script")
    a.add_argument("id", metavar="ID", type=int, help="the event's id")
    a.add_argument("pairing", metavar="PAIRING", help="the pairing, as show labels it (e.g. 2.3)")
    a.add_argument("file", metavar="FILE", help="the card's arrows as a match script (docs/match-script.md)")
    a.set_defaults(action=cmd_paper)
    a = acts.add_parser("seat", help="move a pairing not yet shot to another target")
    a.add_argument("id", metavar="ID", type=int, help="the event's id")
    a.add_argument("pairing", metavar="PAIRING", help="the pairing, as show labels it (e.g. 2.3)")
    a.add_argument("target", metavar="TARGET", type=int, help="the target's number")
    a.set_defaults(action=cmd_seat)
    a = acts.add_parser("swap", help="exchange two archers' places in their next pairings not yet shot")
    a.add_argument("id", metavar="ID", type=int, help="the event's id")
    a.add_argument("first", metavar="ARCHER", help="an archer's name (any case)")
    a.add_argument("second", metavar="ARCHER", help="the other archer's name")
    a.set_defaults(action=cmd_swap)
    a = acts.add_parser("withdraw", help="take an archer out: their pairings not yet shot become byes")
    a.add_argument("id", metavar="ID", type=int, help="the event's id")
    a.add_argument("archer", metavar="ARCHER", help="the archer's name (any case)")
    a.set_defaults(action=cmd_withdraw)
    for a in acts.choices.values():
        a.add_argument("--db", help="store file (default: in your user data folder)")
    p.set_defaults(run=cmd_event)
