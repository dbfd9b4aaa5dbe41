"""The face-wear log (TTB-16) folds headers and new-face events without replaying; after
each match it must agree with the rules core's own Face count."""

from storegen import match_items

from scorebox.games.ttb.wear import FaceLog
from scorebox_core.games.ttb import rules
from scorebox_core.match import effective, from_header


def test_face_log_agrees_with_the_rules_core():
    log = FaceLog()
    finished_ids = 0
    put_up_in_match = 0
    for uid, (number, header, events, _) in match_items(160, seed=9):
        opts, archers, face = from_header(header)
        m = rules.Match.replay(events, opts, archers, face)
        finished = sum(1 for g in m.games if g.over())
        match = {
            "device": uid,
            "key": "%s/%d" % (uid, number),
            "started": header["clock"],
            "header": header,
            "log": events,
        }
        log.add(match, finished)
        cur = log.faces[uid][-1]
        assert (cur["games"], cur["arrows"]) == (m.face.games, m.face.arrows), match["key"]
        put_up_in_match += rules.NEW_FACE in m.events
        finished_ids += finished
    faces = [f for fs in log.faces.values() for f in fs]
    assert put_up_in_match and any(f["between"] for f in faces)  # both ways a face goes up
    assert all(f["where"].startswith("after game") for f in faces if not f["between"] and f["no"] > 1)
    # Every finished game is counted on exactly one face (each box starts on a fresh face).
    assert sum(f["games"] for f in faces) == finished_ids


def test_effective_events():
    U = rules.UNDO
    assert effective([1, 2, U, 3, U, U, 4]) == [4]
    assert effective([U, 5]) == [5]


def test_the_report_says_how_a_face_went_up_in_words(tmp_path):
    """Issue #12: no developer's words ("face_games", "v-.../1, already up") in the face table."""
    from handmatches import fill

    from scorebox.report import html
    from scorebox.store.sqlite import Store

    store = fill(Store(str(tmp_path / "s.sqlite")))
    page = str(tmp_path / "r.html")
    html.write(store, page)
    text = open(page, encoding="utf-8").read()
    faces = text[text.index('id="page-faces"') : text.index("</section>", text.index('id="page-faces"'))]
    assert "on the boss when the first match here began" in faces
    assert "face_games" not in faces and "already up" not in faces and "hand/1," not in faces
