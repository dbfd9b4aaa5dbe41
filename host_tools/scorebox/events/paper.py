"""A pairing settled from a paper card (docs/events.md, "A box went flat?"): the card's turns
keyed as a match script, replayed through the rules with the event's options, kept as a match of
the Paper cards box, marked from paper and logged."""

import time

from scorebox.errors import ScoreboxError
from scorebox.events.rounds import advance, entrants, label, load, pairing
from scorebox.games.scripts import replay_lines
from scorebox_core import games
from scorebox_core.script import game_of as script_game

PAPER = "paper"  # the store's box for matches keyed from paper cards: `scorebox boxes` lists it
PAPER_NAME = "Paper cards"


def paper(store, eid, which, lines, path):
    """Settle the pairing labelled which with the match of a paper card written as a match
    script (docs/match-script.md: its lines, read from path, which messages name), replayed
    through the rules: shot with the event's
    options (the card's own `options:` line, when it has one, must say the same) by the
    pairing's archers (named on the card, or taken from the pairing when it names none). Kept
    as a match of the paper cards' box, marked from paper, logged; (pairing, match)."""
    event = load(store, eid)
    p = pairing(store, eid, which)
    if p["entrant_b"] is None:
        raise ScoreboxError("pairing %s is a bye: there is no match to shoot" % label(p))
    if p["match_id"] is not None:
        raise ScoreboxError("pairing %s is settled already by match %s" % (label(p), p["match_id"]))
    game, match = _card(event, lines, path)
    by_entrant = {e.id: e for e in entrants(store, eid)}
    sides = [[n for _, n in by_entrant[p[k]].archers] for k in ("entrant_a", "entrant_b")]
    letters = games.get(event.game).SIDES
    keyed = [list(a) for a in match.archers] if match.archers else None
    if keyed and keyed != [[letters[0]], [letters[1]]]:
        want = {frozenset(n.casefold() for n in side) for side in sides}
        if {frozenset(n.casefold() for n in side) for side in keyed} != want:
            raise ScoreboxError(
                "%s names %s, not the pairing's %s"
                % (path, " v ".join(" & ".join(s) for s in keyed), " v ".join(" & ".join(s) for s in sides))
            )
        sides = keyed
    if games.part(game, "RULES").result(match).get("winner") is None:
        raise ScoreboxError("%s: the match on the card is not finished: key it to its end" % path)
    header = {"options": match.opts.to_dict(), "archers": sides, "clock": time.time()}
    if game.ID != games.GAMES[0][0]:
        header["game"] = game.ID
    with store.transaction():
        number = store.last_number(PAPER) + 1
        got = store.add_matches(PAPER, [(number, header, list(match.log), {})])[0]
        if got is not True:
            raise ScoreboxError("%s: %s" % (path, got))
        if store.box_name(PAPER) is None:
            store.name_box(PAPER, PAPER_NAME)
        stored = store.load_match("%s/%d" % (PAPER, number))
        store.attach_match(p["id"], stored["id"], paper=True)
        advance(store, eid)
    return p, stored


def _card(event, lines, path):
    """(game, match) of a paper card's script, replayed with the event's options."""
    game = script_game(lines)
    if game.ID != event.game:
        raise ScoreboxError("%s is a card of %s, not %s" % (path, game.NAME, games.get(event.game).NAME))
    opts = games.part(game, "RULES").options(event.options)
    words = ["%s=%s" % (name, opts.text(name)) for name in opts.NAMES]
    given = [i for i, line in enumerate(lines) if line.strip().startswith("options:")]
    own = given and [w for w in lines[given[0]].split(":", 1)[1].split() if not w.startswith("game=")]
    if own:  # the card says its options: they must be the event's
        game, match = replay_lines(path, lines)
        if match.opts.to_dict() != opts.to_dict():
            raise ScoreboxError("%s: its options are not the event's (`scorebox event show` says them)" % path)
        return game, match
    if given:  # `options: game=...` only: the event's options added to that line
        lines = list(lines)
        lines[given[0]] = lines[given[0]].rstrip() + " " + " ".join(words)
        return replay_lines(path, lines)
    return replay_lines(path, ["options: " + " ".join(words)] + list(lines), first=0)
