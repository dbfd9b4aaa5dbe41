"""The HTML report's replay script asks the registry (issue 23 item 1): each game's REPORT
names its own script snippet (SCRIPT, a template of its own package's) that draws and
describes its frames, and the page's shared script only hands a match to the snippet of its
game (the list's `g`), so a third game adds its snippet and edits no shared template. The
page drawn from them is checked in Chromium by test_report_html.py and test_ttt_report.py."""

import os
import re

import pytest
from bothstore import both_games

from scorebox.games import registry as pc_games
from scorebox.report import html
from scorebox.store.sqlite import Store
from scorebox_core import games


def _own_templates(g):
    return os.path.join(os.path.dirname(pc_games.of(g).__file__), "templates")


def _shared_script():
    with open(os.path.join(html.TEMPLATES, "report.html.j2"), encoding="utf-8") as f:
        page = f.read()
    return re.search(r"<script>\n(.*?)</script>", page, re.S).group(1)


@pytest.mark.parametrize("gid", [g[0] for g in games.GAMES])
def test_each_game_has_its_own_replay_script(gid):
    g = games.get(gid)
    script = pc_games.part(g, "REPORT").SCRIPT
    with open(os.path.join(_own_templates(g), script), encoding="utf-8") as f:
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


# --- the shared templates name no game (issue 23 item 1) ---------------------------------------
SHARED_TEMPLATES = ("report.html.j2", "plots.html.j2")  # the page and its plots: every game's

# What a shared template may still say of a game, each with why: take one off once it asks
# the registry. The About card defines the page's own archers' figures (report/stats.py),
# which are Tic Tac BOW's, citing its rules.
PENDING = {"report.html.j2": {"TTB-7": 2, "TTB-8": 2, "TTB-16": 1}}


def game_words():
    """What names a game in a template: its id, name, code and package, and the id and name
    run together (trytactoe, tictacbow); a word of its own, in any case."""
    words = set()
    for g in games.every():
        for w in (g.ID, g.NAME, g.CODE, games.root(g).rsplit(".", 1)[1]):
            words |= {w, "".join(c for c in w if c.isalnum())}
    return words


def template_naming(text, allowed=None):
    """Where a template's text names a game: a list of (line, word), empty when it names none.
    A name the registry hands it at render time ({{ games }}) is a variable, not a word here."""
    allowed = dict(allowed or {})
    pattern = re.compile(
        r"(?<![A-Za-z0-9])(%s)(?![A-Za-z0-9])" % "|".join(re.escape(w) for w in sorted(game_words(), key=len)[::-1]),
        re.I,
    )
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        for m in pattern.finditer(line):
            rule = re.match(r"-\d+", line[m.end() :])
            cited = m.group(0) + rule.group(0) if rule else None
            if allowed.get(cited):
                allowed[cited] -= 1
                continue
            found.append((n, m.group(0)))
    return found


def test_the_check_sees_each_way_of_naming_a_game():
    for text in (
        "{% if d.ttt %}",
        '<div id="ttt-archers">',
        "<h2>Try-Tac-Toe</h2>",
        "Tic Tac BOW's card",
        "{{ d.TTB_geo }}",
        "trytactoe",
        "TicTacBow",
        "(TTT-3)",
    ):
        assert template_naming(text), text
    for text in ("<title>{{ games }}</title>", "{% include card %}", "button", "attb", "tttx", "{{ data }}"):
        assert not template_naming(text), text
    assert not template_naming("(TTB-7)", {"TTB-7": 1})
    assert template_naming("(TTB-7) (TTB-7)", {"TTB-7": 1}) == [(1, "TTB")]


@pytest.mark.parametrize("name", SHARED_TEMPLATES)
def test_the_shared_templates_name_no_game(name):
    with open(os.path.join(html.TEMPLATES, name), encoding="utf-8") as f:
        found = template_naming(f.read(), PENDING.get(name))
    assert not found, "%s names a game (its part goes in a template its REPORT names): %s" % (name, found)


@pytest.mark.parametrize("gid", [g[0] for g in games.GAMES])
def test_each_games_own_templates_are_in_its_package(gid):
    g = games.get(gid)
    part = pc_games.part(g, "REPORT")
    for name in (part.SCRIPT, part.CARD, part.DATA):
        if name is not None:
            assert name.endswith((".html.j2", ".js.j2")), name  # pyproject.toml ships these patterns
            assert os.path.isfile(os.path.join(_own_templates(g), name)), name
            assert not os.path.exists(os.path.join(html.TEMPLATES, name)), name  # not also beside the page
