"""The documentation stands on its own in a clone: every relative link in the markdown
resolves to a file of the repository (and an anchor in it), and every rule ID cited
anywhere (TTB-n, TTT-n) is defined in docs/rules.md."""

import glob
import os
import re
import subprocess

from mpy import ROOT

RULES = "docs/rules.md"
RULE_IDS = ["TTB-%d" % n for n in range(1, 18)] + ["TTT-%d" % n for n in range(1, 7)]
RULE_ID = re.compile(r"\b(?:TTB|TTT)-\d+\b")

_FENCE = re.compile(r"^ *(```|~~~).*?^ *\1", re.M | re.S)
_CODE_SPAN = re.compile(r"(`+)[^`].*?\1", re.S)
# The "](target)" of [text](target) and ![alt](target), so that an image inside a link counts
# too; target in <...> or bare, with an optional "title".
_INLINE = re.compile(r"\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+\"[^\"]*\")?\s*\)")
_REFDEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(\S+)", re.M)
_HTML = re.compile(r"<(?:a|img)\b[^>]*?\b(?:href|src)=\"([^\"]*)\"", re.I)
_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", re.M)
_HTML_ID = re.compile(r"<[a-z][^>]*?\b(?:id|name)=\"([^\"]+)\"", re.I)


def markdown_files(root=ROOT):
    """The markdown a reader of the repository opens: the top level, docs/ and the enclosure."""
    names = ["README.md", "ARCHITECTURE.md", "enclosure/README.md"]
    found = [n for n in names if os.path.exists(os.path.join(root, n))]
    for path in sorted(glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True)):
        found.append(os.path.relpath(path, root).replace(os.sep, "/"))
    return found


def _prose(text):
    """Markdown without code blocks and code spans, where links are not links."""
    return _CODE_SPAN.sub("", _FENCE.sub("", text))


def links(text):
    """Every link and image target of a markdown text."""
    prose = _prose(text)
    out = [t[1:-1] if t.startswith("<") else t for t in _INLINE.findall(prose)]
    return out + _REFDEF.findall(prose) + _HTML.findall(prose)


def slug(heading):
    """GitHub's anchor for a heading: its text, lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"<[^>]+>|[`*]", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text):
    """The anchors a link into this markdown may name: heading slugs (repeats get -1, -2 ...)
    and explicit ids."""
    prose = _FENCE.sub("", text)
    out = set(_HTML_ID.findall(prose))
    seen = {}
    for heading in _HEADING.findall(prose):
        s = slug(heading)
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else "%s-%d" % (s, n))
    return out


def broken_links(root, name):
    """(target, why) for each link in markdown file `name` (relative to root) that does not
    resolve inside the repository. Web and mail links are not checked."""
    with open(os.path.join(root, name), encoding="utf-8") as f:
        text = f.read()
    top = os.path.realpath(root)
    out = []
    for target in links(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):
            continue  # http:, https:, mailto:
        path, _, anchor = target.partition("#")
        if path:
            full = os.path.realpath(os.path.join(root, os.path.dirname(name), path))
            if not (full + os.sep).startswith(top + os.sep):
                out.append((target, "leaves the repository"))
                continue
            if not os.path.exists(full):
                out.append((target, "no such file"))
                continue
        else:
            full = os.path.join(root, name)
        if anchor and full.endswith(".md"):
            with open(full, encoding="utf-8") as f:
                if anchor not in anchors(f.read()):
                    out.append((target, "no such anchor"))
    return out


def defined_rules(text):
    """Rule IDs docs/rules.md defines: each one's explicit anchor, <a id="ttb-7"></a>."""
    return [i.upper() for i in re.findall(r"<a id=\"((?:ttb|ttt)-\d+)\"></a>", text)]


def unknown_rules(texts, defined):
    """(file, ID) for each rule ID cited in texts ({file: text}) that is not defined."""
    known = set(defined)
    return sorted({(name, i) for name, text in texts.items() for i in RULE_ID.findall(text) if i not in known})


def _tracked_texts():
    names = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    texts = {}
    for name in names:
        try:
            with open(os.path.join(ROOT, name), encoding="utf-8") as f:
                texts[name] = f.read()
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # pictures, and files deleted in the work tree
    return texts


def _read(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        return f.read()


def test_links_resolve_in_the_repository():
    bad = ["%s: %s (%s)" % (name, target, why) for name in markdown_files() for target, why in broken_links(ROOT, name)]
    assert not bad, "broken links:\n" + "\n".join(bad)


def test_rules_define_every_cited_id():
    defined = defined_rules(_read(RULES))
    assert defined == RULE_IDS, "docs/rules.md must define TTB-1..17 and TTT-1..6 in order"
    bad = unknown_rules(_tracked_texts(), defined)
    assert not bad, "rule IDs not in docs/rules.md: %s" % bad


def test_rule_links_name_their_anchor():
    """`docs/rules.md#ttb-7` reaches the rule itself."""
    have = anchors(_read(RULES))
    assert all(i.lower() in have for i in RULE_IDS)


def test_link_checker_finds_broken_links(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text(
        '# Rules\n\n<a id="ttb-1"></a>\n### TTB-1: The face\n\n## Same\n## Same\n'
    )
    (tmp_path / "pic.png").write_bytes(b"")
    (tmp_path / "README.md").write_text(
        "[ok](docs/rules.md) [rule](docs/rules.md#ttb-1) [slug](docs/rules.md#ttb-1-the-face)"
        " [again](docs/rules.md#same-1) ![pic](pic.png) [web](https://example.org/x.md)\n"
        "[out](../shared/RULES.md) [gone](docs/nothing.md) [anchor](docs/rules.md#ttb-2)\n"
        '![lost](gone.png) <img src="lost.svg"> [self](#nowhere) [![in](inner.png)](docs/rules.md)\n'
        "`[code](missing.md)`\n\n```\n[block](missing.md)\n```\n"
    )
    assert broken_links(str(tmp_path), "README.md") == [
        ("../shared/RULES.md", "leaves the repository"),
        ("docs/nothing.md", "no such file"),
        ("docs/rules.md#ttb-2", "no such anchor"),
        ("gone.png", "no such file"),
        ("#nowhere", "no such anchor"),
        ("inner.png", "no such file"),
        ("lost.svg", "no such file"),
    ]


def test_slugs_follow_github():
    assert (
        slug("TTB-7: a claim happens on the arrow that reaches it")
        == "ttb-7-a-claim-happens-on-the-arrow-that-reaches-it"
    )
    assert slug("`scorebox sync` and `scorebox matches`") == "scorebox-sync-and-scorebox-matches"
    assert slug("The club's view: `scorebox report`, `show`") == "the-clubs-view-scorebox-report-show"


def test_rule_checker_finds_unknown_ids():
    defined = defined_rules('<a id="ttb-1"></a>\n**TTB-1** ...\n<a id="ttt-2"></a>\n')
    assert defined == ["TTB-1", "TTT-2"]
    unknown = "TTB-%d" % 18  # spelt out, it would be an unknown ID in this very file
    texts = {"a.py": "# TTB-1, TTT-2", "b.md": "see %s and TTT-2" % unknown, "c.txt": "XTTB-3 is no ID"}
    assert unknown_rules(texts, defined) == [("b.md", unknown)]
