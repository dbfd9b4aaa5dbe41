"""An event's standings from its results: who is ahead, by RULE. Pure: entrants and results in, rows
out, for any format (a round robin's table, a Swiss event's ranking for its next round)."""

from __future__ import annotations

from typing import NamedTuple


class Result(NamedTuple):
    a: tuple  # side A's entrant
    b: tuple  # side B's entrant
    winner: str | None  # "A", "B", "draw"; None: not shot yet (ignored)
    # The points each side scored: Tic Tac BOW's as the caller counts them (squares or arrow points),
    # Try-Tac-Toe's shape score.
    points_a: int
    points_b: int


class Row(NamedTuple):
    place: int  # 1-based; entrants tied on every criterion share a place (1, 2, 2, 4)
    entrant: tuple
    played: int
    won: int
    drawn: int
    lost: int
    points_for: int
    points_against: int


RULE = (
    "wins (a draw counts half), then the results between those level, then the points difference, "
    "then the points scored"
)

WINNERS = ("A", "B", "draw", None)


def _wins(won, drawn):
    """Wins with a draw as half, doubled so that it stays an int (no float ties to compare)."""
    return 2 * won + drawn


def standings(entrants: list[tuple], results: list[Result], byes: dict[tuple, int] | None = None) -> list[Row]:
    """Every entrant's row, best first, by RULE.

    A bye counts as a win: played + 1 and won + 1 for each, with no points for or against (so it
    helps the wins, never the points difference). Results not shot yet (winner None) are ignored;
    results and byes of entrants not in `entrants` count only for the listed side.

    Head to head: among the entrants level on wins, the mini-table of their matches against each
    other only (wins, a draw as half) orders them first; then the overall points difference, then
    the points scored. Entrants still level share a place and are listed in their order in
    `entrants` (the caller's seeding or draw)."""
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is listed twice in the standings' entrants")
    table = {e: [0, 0, 0, 0, 0, 0] for e in entrants}  # played, won, drawn, lost, for, against
    # Results and byes of entrants not listed (withdrawn since, say) count for the listed side only:
    # a match shot against someone who then withdrew still counts for their opponent.
    for e, count in (byes or {}).items():
        if e in table:
            table[e][0] += count
            table[e][1] += count
    shot = []
    for r in results:
        if r.winner not in WINNERS:
            raise ValueError("a result's winner is 'A', 'B', 'draw' or None, got %r" % (r.winner,))
        if r.winner is None:
            continue
        if r.a == r.b:
            raise ValueError("a result of %r against itself" % (r.a,))
        shot.append(r)
        for e, mine, theirs, side in ((r.a, r.points_a, r.points_b, "A"), (r.b, r.points_b, r.points_a, "B")):
            if e not in table:
                continue
            row = table[e]
            row[0] += 1
            row[1 if r.winner == side else 2 if r.winner == "draw" else 3] += 1
            row[4] += mine
            row[5] += theirs

    def wins(e):
        return _wins(table[e][1], table[e][2])

    # The mini-tables: each entrant's wins in the matches against those level with it on wins.
    # Only those matches count, so it is worked out per level group, not once for all.
    among = dict.fromkeys(entrants, 0)
    for r in shot:
        if r.a in table and r.b in table and wins(r.a) == wins(r.b):
            among[r.a] += 2 if r.winner == "A" else 1 if r.winner == "draw" else 0
            among[r.b] += 2 if r.winner == "B" else 1 if r.winner == "draw" else 0

    def key(e):
        played, won, drawn, lost, pf, pa = table[e]
        return (-wins(e), -among[e], -(pf - pa), -pf)

    ranked = sorted(entrants, key=key)  # stable: the still level keep their order in entrants
    rows = []
    for i, e in enumerate(ranked):
        place = rows[-1].place if rows and key(ranked[i - 1]) == key(e) else i + 1
        rows.append(Row(place, e, *table[e]))
    return rows
