"""The face-wear log of the report (TTB-16): the faces on each box's boss, folded from the
stored match headers and new-face events without replaying. Tic Tac BOW's surface names it
as WEAR (report/html.py asks each game whose face wears)."""

from operator import add

from scorebox_core.games.ttb import rules
from scorebox_core.games.ttb.game import ID
from scorebox_core.games.ttb.rules import NEW_FACE, NEW_GAME, UNDO, Options

FACES_SHOWN = 40  # faces listed per box in the face-wear log (the newest)


class FaceLog:
    """Faces on each box's boss, from the match headers and the new-face events (TTB-16).

    Without replaying: an arrow in a square wears the face up at the time; a game counts on
    the face its last arrow was shot at (the rules count it when it ends); a header whose
    face is fresh after a used one means a face was put up between matches."""

    def __init__(self):
        self.faces = {}  # device -> [face dict], oldest first
        self._cur = {}
        self._options = {}  # repr of a header's options -> its face_games

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
        face_games = self._face_games(h)
        cur["face_games"] = face_games
        log = match["log"]
        parts = _parts(_in_effect(log) if UNDO in log else log)
        game, ended, last_face, in_game = 1, 0, None, 0
        for k, (mark, shot) in enumerate(parts):
            if mark == NEW_GAME:
                if last_face is not None and ended < finished_games:
                    last_face["games"] += 1
                    ended += 1
                game, last_face, in_game = game + 1, None, 0
            elif mark == NEW_FACE:
                cur = self._new(uid, match, game)
                cur["face_games"] = face_games
                if not in_game:
                    cur["where"] = "before game %d" % game
                elif _shot_after(parts, k):
                    cur["where"] = "during game %d" % game
                else:
                    cur["where"] = "after game %d" % game
            if shot:
                worn = cur["arrows"]
                worn[:9] = map(add, worn, map(bytes(shot).translate(_SQUARE).count, _SQUARES))
                last_face, in_game = cur, in_game + len(shot)
                cur["last"], cur["last_at"] = match["key"], match["started"]
        if last_face is not None and ended < finished_games:
            last_face["games"] += 1

    def _face_games(self, h):
        """The games a face lasts by the match's options (TTB-16), 4 where they cannot be read;
        read once for each different options (a club's matches share a few)."""
        key = repr(h.get("options"))  # not the dict itself: 1, 1.0 and True read differently
        if key not in self._options:
            try:
                self._options[key] = Options.from_dict(h["options"]).face_games
            except (KeyError, TypeError, ValueError):
                self._options[key] = 4
        return self._options[key]


# Each arrow event's square (1-9) on the face, 0 for a miss: a hit or a called shot wears the
# face where it lands, a miss is off it. The report counts millions of arrows: they are
# counted as bytes, at C's speed, not one by one in Python.
_SQUARE = bytes(
    rules.square_of(ev) if rules.check_event(ev) is None and ev >> 6 != rules.MISS else 0 for ev in range(256)
)
_SQUARES = range(1, 10)


def _in_effect(log):
    """effective(log) (TTB-15), a run of events between two undos at a time."""
    out, start = [], 0
    for _ in range(log.count(UNDO)):
        end = log.index(UNDO, start)
        out += log[start:end]
        if out:
            out.pop()
        start = end + 1
    out += log[start:]
    return out


def _parts(events):
    """[(mark, arrows)]: the events in effect cut at each NEW_GAME and NEW_FACE, each run of
    arrows with the mark before it (None for the first)."""
    if NEW_GAME not in events and NEW_FACE not in events:  # most matches: one game on one face
        return [(None, events)]
    cuts = sorted(_where(events, NEW_GAME) + _where(events, NEW_FACE))
    out, start, mark = [], 0, None
    for i in cuts:
        out.append((mark, events[start:i]))
        start, mark = i + 1, events[i]
    out.append((mark, events[start:]))
    return out


def _where(events, mark):
    """The places of mark in events."""
    out = []
    for _ in range(events.count(mark)):
        out.append(events.index(mark, out[-1] + 1 if out else 0))
    return out


def _shot_after(parts, k):
    """Whether an arrow is shot in the game after the face put up at parts[k]."""
    for i in range(k, len(parts)):
        mark, shot = parts[i]
        if mark == NEW_GAME:
            return False
        if shot:
            return True
    return False


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
