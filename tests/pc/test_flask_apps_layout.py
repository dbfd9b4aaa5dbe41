"""The desk (web/) and the league's server (league/) as Flask apps are meant to be built
(docs/web.md, docs/league.md): an application factory that registers a blueprint per area,
each once, with every URL the pages had; functions short enough to read (none over 80
lines, read from the source with ast); and nothing of the store's that begins with `_`
used outside store/ (its public methods only)."""

import ast
import os

import pytest
from mpy import ROOT

from scorebox.league.server import create_app as league_app
from scorebox.web.app import create_app

PACKAGE = os.path.join(ROOT, "host_tools", "scorebox")
LONGEST = 80  # lines of one function, its decorators and docstring included
DESK = ("guard", "login", "matches", "archers", "boxes", "stats", "sync", "push", "report", "faces", "safety")
DESK += ("events", "board")
# Every address the desk answers and its methods (HEAD and OPTIONS aside): a restructuring keeps them all.
DESK_URLS = {
    ("/", "GET"),
    ("/archers", "GET"),
    ("/archers/add", "POST"),
    ("/archers/club", "POST"),
    ("/archers/import", "POST"),
    ("/archers/rename", "POST"),
    ("/archers/retire", "POST"),
    ("/boxes", "GET"),
    ("/boxes/name", "POST"),
    ("/board/<int:eid>", "GET"),
    ("/board/<int:eid>/now.json", "GET"),
    ("/events", "GET"),
    ("/events/new", "POST"),
    ("/events/<int:eid>", "GET"),
    ("/events/<int:eid>/attach", "POST"),
    ("/events/<int:eid>/paper", "POST"),
    ("/events/<int:eid>/seat", "POST"),
    ("/events/<int:eid>/swap", "POST"),
    ("/events/<int:eid>/withdraw", "POST"),
    ("/faces", "GET"),
    ("/faces", "POST"),
    ("/login", "GET"),
    ("/login", "POST"),
    ("/matches", "GET"),
    ("/matches/<int:mid>", "GET"),
    ("/matches/<int:mid>/names", "POST"),
    ("/push", "GET"),
    ("/push", "POST"),
    ("/report", "GET"),
    ("/report/download", "GET"),
    ("/report/view", "GET"),
    ("/safety", "GET"),
    ("/safety/backup", "POST"),
    ("/safety/export", "POST"),
    ("/safety/restore", "POST"),
    ("/static/<path:filename>", "GET"),
    ("/stats", "GET"),
    ("/sync", "GET"),
    ("/sync", "POST"),
}
LEAGUE_URLS = {
    ("/", "GET"),  # the server's own address: sent to its pages
    ("/league/", "GET"),
    ("/league/api/have", "POST"),
    ("/league/api/push", "POST"),
    ("/league/archers", "GET"),
    ("/league/archers/<int:aid>", "GET"),
    ("/league/archers/<int:aid>/versus/<int:oid>", "GET"),
    ("/league/clubs/<int:cid>", "GET"),
    ("/league/matches/<int:mid>", "GET"),
    ("/league/report", "GET"),
    ("/league/static/<path:filename>", "GET"),
}


def sources(*packages):
    for package in packages:
        for d, _, names in os.walk(os.path.join(PACKAGE, package)):
            for name in sorted(names):
                if name.endswith(".py"):
                    path = os.path.join(d, name)
                    with open(path, encoding="utf-8") as f:
                        yield os.path.relpath(path, PACKAGE), ast.parse(f.read())


def urls(app):
    """[(rule, method)] of the app's URL map, one per method a rule answers."""
    return [(r.rule, m) for r in app.url_map.iter_rules() for m in sorted(r.methods - {"HEAD", "OPTIONS"})]


def lines(node):
    """A function's lines, from its first decorator to its last line."""
    return node.end_lineno - min([node.lineno] + [d.lineno for d in node.decorator_list]) + 1


def test_no_function_of_the_desk_or_the_league_is_over_80_lines():
    long = [
        "%s: %s, %d lines" % (path, node.name, lines(node))
        for path, tree in sources("web", "league")
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and lines(node) > LONGEST
    ]
    assert long == []


def test_a_functions_lines_count_its_decorators_and_nested_functions():
    tree = ast.parse("@a\n@b\ndef f():\n    def g():\n        pass\n    return g\n")
    assert lines(tree.body[0]) == 6


def test_the_desk_registers_each_blueprint_once_with_every_url(tmp_path):
    from scorebox.web import guard

    app = create_app(str(tmp_path / "club.sqlite"), workdir=str(tmp_path / "w"))
    assert sorted(app.blueprints) == sorted(DESK)
    got = urls(app)
    assert len(got) == len(set(got)) and set(got) == DESK_URLS
    # the guard's checks and headers run once a request, whatever page it is
    assert app.before_request_funcs[None].count(guard.guard) == 1
    assert app.after_request_funcs[None].count(guard.headers) == 1
    assert [e for e in app.url_map.iter_rules() if e.endpoint != "static" and "." not in e.endpoint] == []


def test_two_desks_each_have_their_own_throttle_and_sync(tmp_path):
    """A blueprint registered on a second app (a test's, a second server) gives it state of
    its own: one desk's wrong passwords or running sync are not another's."""
    one = create_app(str(tmp_path / "a.sqlite"), workdir=str(tmp_path / "a"))
    two = create_app(str(tmp_path / "b.sqlite"), workdir=str(tmp_path / "b"))
    assert one.config["THROTTLE"] is not two.config["THROTTLE"]
    assert one.extensions["scorebox.sync"] is not two.extensions["scorebox.sync"]


def test_the_league_registers_each_blueprint_once_with_every_url():
    app = league_app("postgresql://nowhere/league")  # made without reaching the store
    assert sorted(app.blueprints) == ["api", "league"]
    got = urls(app)
    assert len(got) == len(set(got)) and set(got) == LEAGUE_URLS


def store_modules(tree):
    """The names a module binds to the store package's modules (`from scorebox.store import
    imports`, `import scorebox.store.x as y`)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "scorebox.store":
            out |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {a.asname for a in node.names if a.name.startswith("scorebox.store.") and a.asname}
    return out


@pytest.mark.parametrize("package", ["web", "league"])
def test_nothing_of_the_stores_that_begins_with_an_underscore_is_used(package):
    """Neither a store module's private name nor a Store's or LeagueDB's (the objects these
    packages call store, s and league)."""
    bad = []
    for path, tree in sources(package):
        owners = store_modules(tree) | {"store", "s", "league"}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in owners
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                bad.append("%s:%d: %s.%s" % (path, node.lineno, node.value.id, node.attr))
            if isinstance(node, ast.Assign):  # nor is a store's attribute set from outside it
                bad += [
                    "%s:%d: %s.%s set" % (path, node.lineno, t.value.id, t.attr)
                    for t in node.targets
                    if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in owners
                ]
    assert bad == []
