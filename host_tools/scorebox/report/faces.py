"""The face-wear log of the report (TTB-16): the faces on each box's boss, folded from the
stored match headers and new-face events without replaying. Tic Tac BOW's surface names it
as WEAR (report/html.py asks each game whose face wears)."""

from scorebox_core.match import effective
from scorebox_core.ttb import rules
from scorebox_core.ttb.game import ID
from scorebox_core.ttb.rules import NEW_FACE, NEW_GAME, Options

FACES_SHOWN = 40  # faces listed per box in the face-wear log (the newest)


class FaceLog:
    """Faces on each box's boss, from the match headers and the new-face events (TTB-16).

    Without replaying: an arrow in a square wears the face up at the time; a game counts on
    the face its last arrow was shot at (the rules count it when it ends); a header whose
    face is fresh after a used one means a face was put up between matches."""

    def __init__(self):
        self.faces = {}  # device -> [face dict], oldest first
        self._cur = {}

    def _new(self, uid, match, game, games=0, arrows=None, between=False):
        f = {
            "device": uid,
            "no": len(self.faces.setdefault(uid, [])) + 1,
            "put_up": match["key"],
            "put_up_at": match["started"],
            "game": game,
            "where": "between matches" if between else "before game %d" % game,
            "between": between,
            "games": games,
            "arrows": list(arrows) if arrows else [0] * 9,
            "last": match["key"],
            "last_at": match["started"],
            "face_games": None,
        }
        self.faces[uid].append(f)
        self._cur[uid] = f
        return f

    def add(self, match, finished_games):
        """Fold one match in (matches in order per box). finished_games: games of the match
        that ended (all but an unfinished last one)."""
        uid = match["device"]
        h = match["header"]
        if h.get("game", ID) != ID:  # another game's match, shot at its own face
            return
        hf = h.get("face") if isinstance(h.get("face"), dict) else None
        cur = self._cur.get(uid)
        used = cur is not None and (cur["games"] or any(cur["arrows"]))
        if hf is not None:
            fresh = not hf.get("games") and not any(hf.get("arrows") or [])
            if cur is None or (fresh and used):
                first = cur is None
                cur = self._new(uid, match, 1, hf.get("games", 0), hf.get("arrows"), between=not first)
                if first:
                    cur["where"] = "already up"  # the box's face as the store's first match began
            else:  # the box's own count wins (the store may not hold every match of the box)
                cur["games"] = hf.get("games", 0)
                cur["arrows"] = list(hf.get("arrows") or [0] * 9)
        elif cur is None:
            cur = self._new(uid, match, 1)
            cur["where"] = "already up"
        try:
            face_games = Options.from_dict(h["options"]).face_games
        except (KeyError, TypeError, ValueError):
            face_games = 4
        cur["face_games"] = face_games
        game, last_face, ended, in_game = 1, None, 0, 0
        evs = effective(match["log"])
        for k, ev in enumerate(evs):
            if ev == NEW_GAME:
                if last_face is not None and ended < finished_games:
                    last_face["games"] += 1
                    ended += 1
                game += 1
                last_face, in_game = None, 0
            elif ev == NEW_FACE:
                nxt = next((e for e in evs[k + 1 :] if e != NEW_FACE), None)
                cur = self._new(uid, match, game)
                cur["face_games"] = face_games
                if not in_game:
                    cur["where"] = "before game %d" % game
                elif nxt is None or nxt == NEW_GAME:
                    cur["where"] = "after game %d" % game
                else:
                    cur["where"] = "during game %d" % game
            elif ev < 256:
                if ev >> 6 != rules.MISS:
                    cur["arrows"][(ev >> 2 & 15) - 1] += 1
                last_face = cur
                in_game += 1
                cur["last"], cur["last_at"] = match["key"], match["started"]
        if last_face is not None and ended < finished_games:
            last_face["games"] += 1


def how_put_up(face):
    """When a face went up, in a club's words (the report's face table)."""
    if face["between"]:
        return "between matches"
    if face["where"] == "already up":
        return "on the boss when the first match here began"
    return "during a match, " + face["where"]


def face_log(store, shown=FACES_SHOWN):
    """Per box: the newest faces, totals over all faces, and the face on the boss now."""
    finished = store.finished_games()
    log = FaceLog()
    names = {}  # device -> the club's name for it (`scorebox boxes`)
    for m in store.matches_by_box():
        log.add(m, finished.get(m["id"], 0))
        names[m["device"]] = m.get("box_name")
    out = []
    for uid, faces in log.faces.items():
        for f in faces:
            f["how"] = how_put_up(f)
        retired = faces[:-1]
        over = [f for f in retired if f["face_games"] and f["games"] > f["face_games"]]
        out.append(
            {
                "device": names.get(uid) or uid,
                "count": len(faces),
                "mean_games": round(sum(f["games"] for f in retired) / len(retired), 2) if retired else None,
                "mean_arrows": round(sum(sum(f["arrows"]) for f in retired) / len(retired), 1) if retired else None,
                "overdue": len(over),
                "current": faces[-1],
                "faces": list(reversed(faces[-shown:])),
            }
        )
    return out
