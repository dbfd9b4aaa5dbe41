"""The HTML report's replay script asks the registry (issue 23 item 1): each game's REPORT
names its own script snippet (SCRIPT, a template beside report.html.j2) that draws and
describes its frames, and the page's shared script only hands a match to the snippet of its
game (the list's `g`), so a third game adds its snippet and edits no shared template. The
page drawn from them is checked in Chromium by test_report_html.py and test_ttt_report.py."""

import os
import re

import pytest
from bothstore import both_games

from scorebox.report import html
from scorebox.store.sqlite import Store
from scorebox_core import games


def _shared_script():
    with open(os.path.join(html.TEMPLATES, "report.html.j2"), encoding="utf-8") as f:
        page = f.read()
    return re.search(r"<script>\n(.*?)</script>", page, re.S).group(1)


@pytest.mark.parametrize("gid", [g[0] for g in games.GAMES])
def test_each_game_has_its_own_replay_script(gid):
    g = games.get(gid)
    script = games.part(g, "REPORT").SCRIPT
    with open(os.path.join(html.TEMPLATES, script), encoding="utf-8") as f:
        assert "GAMES[{{ code | tojson }}] = { draw: draw, describe: describe };" in f.read()


def test_the_shared_script_names_no_game():
    shared = _shared_script()
    assert "{% include script %}" in shared
    for g in games.every():
        assert not re.search(r"\b%s\b" % re.escape(g.CODE.lower()), shared), g.CODE


def test_the_page_holds_each_games_script_once(tmp_path):
    store = Store(both_games(str(tmp_path / "both.db")))
    try:
        page = html.render(html.build(store))
    finally:
        store.close()
    script = page[page.index("<script>\n(function") :]
    for g in games.every():
        assert script.count('GAMES["%s"] = {' % g.CODE.lower()) == 1, g.ID
    assert "{{" not in script and "{%" not in script
