"""The store on its own: how it checks what it is given (host_tools/scorebox/store.py)."""

import json

from scorebox.store import Store
from ttb import rules


def test_a_match_the_box_resumed_without_a_refused_event_is_stored_alike(tmp_path):
    """The box leaves out a journal event the rules refuse when it resumes (box/session.py);
    the PC reads that match the same way and keeps where the gap was; an import of the
    export keeps it too, while a refused event nobody noted is still an error."""
    s = Store(str(tmp_path / "s.sqlite"))
    header = {"options": {}, "archers": [["Ann"], ["Ben"]]}
    log = [rules.hit(5, 3), rules.called(5, True), rules.hit(5, 2)]
    (got,) = s.add_matches("box", [(1, header, log, {})], from_box=True)
    assert got is True
    (extras,) = s.db.execute("SELECT extras FROM matches").fetchone()
    assert json.loads(extras)["skipped"] == [1]
    assert s.db.execute("SELECT winner FROM matches").fetchone() == (None,)
    (got,) = s.add_matches("other", [(1, header, log, {"skipped": [1]})])
    assert got is True
    (got,) = s.add_matches("third", [(1, header, log, {})])
    assert "rules refuse" in str(got)
