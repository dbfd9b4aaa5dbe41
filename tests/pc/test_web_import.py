"""The desk's member-list import (issue 24, web/members.py, templates/imported.html.j2):
the columns found and mapped by hand, each new archer's box name editable, the names on the
roster already and repeated shown, nothing saved before Save; the names made by the
command's own code (store/roster.py MemberList), through Flask's test client on a real
SQLite store of both games."""

import io
import os
import re

import pytest
from bothstore import both_games

from scorebox.store.sqlite import Store
from scorebox.web.app import create_app


@pytest.fixture
def app(tmp_path):
    return create_app(both_games(str(tmp_path / "club.sqlite")), workdir=str(tmp_path / "work"))


def token(c):
    return re.search(r'name="csrf" value="([^"]+)"', c.get("/archers").get_data(as_text=True)).group(1)


def roster(app):
    s = Store(app.config["STORE"], create=False)
    try:
        return {r[0]: r[4] for r in s.archers(retired=True)}
    finally:
        s.close()


def upload(c, t, text):
    data = {"csrf": t, "members": (io.BytesIO(text.encode()), "members.csv")}
    page = c.post("/archers/import", data=data, content_type="multipart/form-data").get_data(as_text=True)
    return page, re.search(r'name="file" value="([0-9a-f]{32})"', page).group(1)


def boxes_of(page):
    """{full name: box name} of the preview's editable rows."""
    fulls = dict(re.findall(r'name="full(\d+)" value="([^"]*)"', page))
    shown = dict(re.findall(r'name="box(\d+)" value="([^"]*)"', page))
    return {fulls[i]: shown[i] for i in fulls}


def test_columns_the_import_does_not_know_are_mapped_by_hand(app):
    c = app.test_client()
    t = token(c)
    page, file = upload(c, t, "Member no,Given,Family,E-mail\n7,Alexandra,Montgomery,a@x\n8,Zoe,Li,z@x\n")
    assert "No column of names the import knows" in page
    for h in ("Member no", "Given", "Family", "E-mail"):
        assert "<code>%s</code>" % h in page  # the columns found
    assert "Save these archers" not in page
    page = c.post("/archers/import", data={"csrf": t, "file": file, "preview": "1", "first": "1", "last": "2"})
    page = page.get_data(as_text=True)
    assert boxes_of(page) == {"Alexandra Montgomery": "Alexandra M", "Zoe Li": "Zoe Li"}
    assert "Nothing saved yet" in page and "Zoe Li" not in roster(app)
    form = {"csrf": t, "file": file, "first": "1", "last": "2", "full0": "Alexandra Montgomery", "box0": "Alexandra M"}
    page = c.post("/archers/import", data=dict(form, full1="Zoe Li", box1="Zoe Li")).get_data(as_text=True)
    assert "Saved." in page
    got = roster(app)
    assert got["Alexandra M"] == "Alexandra Montgomery" and "Zoe Li" in got
    assert os.listdir(app.config["UPLOADS"]) == []


def test_a_column_of_whole_names_chosen_from_several(app):
    c = app.test_client()
    t = token(c)
    page, file = upload(c, t, "Name,Partner\nZoe Li,Alexandra Montgomery\n")
    assert boxes_of(page) == {"Zoe Li": "Zoe Li"}  # the command's own heading, found
    page = c.post("/archers/import", data={"csrf": t, "file": file, "preview": "1", "first": "1", "last": ""})
    assert boxes_of(page.get_data(as_text=True)) == {"Alexandra Montgomery": "Alexandra M"}
    for bad in ({"first": "9", "last": ""}, {"first": "0", "last": "0"}, {"first": "x"}):
        r = c.post("/archers/import", data=dict(bad, csrf=t, file=file, preview="1"))
        assert r.status_code == 302, bad  # refused in words
        assert "choose" in c.get(r.headers["Location"]).get_data(as_text=True)
    assert "Alexandra M" not in roster(app)


def test_a_box_name_edited_before_saving(app):
    c = app.test_client()
    t = token(c)
    page, file = upload(c, t, "First name,Last name\nAlexandra,Montgomery\nAnnabel,Featherstonehaugh\n")
    assert boxes_of(page) == {"Alexandra Montgomery": "Alexandra M", "Annabel Featherstonehaugh": "Annabel F"}
    form = {"csrf": t, "file": file, "first": "0", "last": "1"}
    rows = {"full0": "Alexandra Montgomery", "full1": "Annabel Featherstonehaugh", "box1": "Bel"}
    page = c.post("/archers/import", data=dict(form, box0="Alex Mont", **rows)).get_data(as_text=True)
    assert "Saved." in page
    got = roster(app)
    assert got["Alex Mont"] == "Alexandra Montgomery" and got["Bel"] == "Annabel Featherstonehaugh"
    assert "Alexandra M" not in got


@pytest.mark.parametrize(
    "box0, box1, said",
    [
        ("Alexandra Montgomery", "Bel", "the box takes 12 at most"),
        ("ann", "Bel", "'ann' is on the roster already"),
        ("Bel", "bel", "is given to Alexandra Montgomery and Annabel Featherstonehaugh"),
        ("A", "Bel", "unnamed side"),
    ],
)
def test_a_box_name_the_box_cannot_take_is_said_and_the_edits_stay(app, box0, box1, said):
    c = app.test_client()
    t = token(c)
    _, file = upload(c, t, "First name,Last name\nAlexandra,Montgomery\nAnnabel,Featherstonehaugh\n")
    form = {"csrf": t, "file": file, "first": "0", "last": "1", "box0": box0, "box1": box1}
    form.update(full0="Alexandra Montgomery", full1="Annabel Featherstonehaugh")
    page = c.post("/archers/import", data=form).get_data(as_text=True)
    assert said in page.replace("&#39;", "'") and 'class="msg error"' in page
    assert boxes_of(page) == {"Alexandra Montgomery": box0, "Annabel Featherstonehaugh": box1}  # nothing lost
    assert not {"Bel", "bel", "Alexandra M"} & set(roster(app))
    assert len(os.listdir(app.config["UPLOADS"])) == 1  # still waiting for Save


def test_names_on_the_roster_and_repeated_are_shown_before_saving(app):
    c = app.test_client()
    t = token(c)
    page, file = upload(c, t, "Full name\nANN\nZoe Li\nzoe li\nBen\nCy Young\n")
    same = re.findall(r"<tr><td class=\"n\">(\d+)</td><td>([^<]*)</td><td>([^<]*)</td></tr>", page)
    assert same == [
        ("2", "ANN", "on the roster as Ann"),
        ("4", "zoe li", "repeated in the file"),
        ("5", "Ben", "on the roster as Ben"),
    ]
    assert boxes_of(page) == {"Zoe Li": "Zoe Li", "Cy Young": "Cy Young"}
    assert "Nothing saved yet" in page and "Cy Young" not in roster(app)  # shown, not saved, until Save
    form = {"csrf": t, "file": file, "full0": "Zoe Li", "box0": "Zoe Li", "full1": "Cy Young", "box1": "Cy Young"}
    assert "Saved." in c.post("/archers/import", data=form).get_data(as_text=True)
    assert {"Zoe Li", "Cy Young"} <= set(roster(app))


def test_a_roster_changed_since_the_preview_is_said(app):
    c = app.test_client()
    t = token(c)
    _, file = upload(c, t, "Name\nZoe Li\n")
    c.post("/archers/add", data={"csrf": t, "name": "Zoe Li"})  # another tab adds her meanwhile
    form = {"csrf": t, "file": file, "full0": "Zoe Li", "box0": "Zoe Li"}
    page = c.post("/archers/import", data=form).get_data(as_text=True)
    assert "not a new archer of this list" in page and "preview it again" in page
