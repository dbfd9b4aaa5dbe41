"""What the PC's store keeps of a Tic Tac BOW match (docs/reports.md): the surface's STORE
(scorebox_core/games/ttb/game.py). Plain data from the folded Match; the PC only (never imported
on the box)."""

from scorebox_core.games.ttb.rules import SIDES, side_name


def rows(match):
    """(its sides' letters, the match row's result columns: winner, games won by each side,
    drawn games, finished; its games' rows: first side, winner, reason, rounds, the turns as
    (side, arrows), the arrow events and their outcomes as bytes)."""
    result = (side_name(match.result()), match.wins[0], match.wins[1], match.draws, 1 if match.over() else 0)
    games = [
        (
            SIDES[g.first],
            side_name(g.winner),
            g.reason,
            g.rounds_played(),
            [(side, end - start) for side, start, end in g.turn_bounds()],
            bytes(g.arrows),  # arrow events are < 256
            bytes(g.outcomes),
        )
        for g in match.games
    ]
    return SIDES, result, games


def shots(log):
    """What `scorebox matches` counts for it (its surface's SHOTS): the store counts the
    arrows from its arrows rows, so None here."""
    return None
