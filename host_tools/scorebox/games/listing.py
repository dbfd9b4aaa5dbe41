"""The report's line of any match, which each game's REPORT entry() makes and adds its
replay to (report/html.py lists them)."""

from scorebox.text import date_text, said


def entry(m, game, teams, sides):
    """What the report's list says of any match: game (its surface's CODE in lower case, the
    page's key for it), key, id, date, the teams, the winner (0, 1 or 2 for a draw) and the
    result in words (text.said); each game's REPORT entry() adds its replay."""
    w = {sides[0]: 0, sides[1]: 1, "draw": 2}.get(m["winner"])
    return {
        "g": game,
        "k": m["key"],
        "id": m["id"],
        "d": date_text(m["started"]),
        "A": ", ".join(teams[0]),
        "B": ", ".join(teams[1]),
        "w": w,
        "res": said(m["winner"], m["score"], m["abandoned"]),
    }
