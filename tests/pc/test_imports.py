"""Which way imports go (ARCHITECTURE.md), read from the source with ast, every import
counted, lazy ones inside functions too:

- no import cycle, in the PC package or in the firmware (importing a.b.c runs a/__init__.py
  and a/b/__init__.py first, so those count as edges too);
- the shared core imports neither the app, the boards, the virtual Pico nor the PC;
- the firmware never imports the PC package, nor the virtual Pico;
- the PC package imports no firmware package but the shared core;
- no module imports the CLI.
"""

import ast
import os

from mpy import FIRMWARE, ROOT, SIM_MPY

HOST = os.path.join(ROOT, "host_tools")
FIRMWARE_TOPS = ("box", "boards", "main", "pins", "ssd1306", "sh1106")


def modules(root, skip=()):
    """{dotted name: path} of every .py under root."""
    out = {}
    for d, subdirs, names in os.walk(root):
        subdirs[:] = [s for s in subdirs if s != "__pycache__" and os.path.join(d, s) not in skip]
        for n in names:
            if n.endswith(".py"):
                rel = os.path.relpath(os.path.join(d, n), root)[:-3].replace(os.sep, ".")
                out[rel[: -len(".__init__")] if rel.endswith("__init__") else rel] = os.path.join(d, n)
    return out


def imports(path, name):
    """Every module path imports, as dotted names (relative imports resolved)."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    pkg = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            out.add(base)
            out.update(base + "." + a.name for a in node.names)
    return out


def graph(mods):
    """{module: modules of mods it imports}, with the packages a dotted import runs."""
    g = {}
    for name, path in mods.items():
        edges = set()
        for imp in imports(path, name):
            parts = imp.split(".")
            found = [".".join(parts[:i]) for i in range(1, len(parts) + 1) if ".".join(parts[:i]) in mods]
            if found:
                edges.add(found[-1])  # the module named: a package's own module counts as well
                edges.update(p for p in found[:-1] if not name.startswith(p + "."))  # the packages it runs
        edges.discard(name)
        g[name] = edges
    return g


def cycles(g):
    """One cycle per strongly connected component with more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


PC = modules(HOST, skip=(os.path.join(SIM_MPY),))
BOX = modules(FIRMWARE)
SIM = modules(SIM_MPY)


def test_no_cycle_in_the_pc_package():
    assert cycles(graph(PC)) == []


def test_no_cycle_in_the_firmware():
    assert cycles(graph({**BOX, **SIM})) == []


def offenders(mods, forbidden):
    bad = []
    for name, path in sorted(mods.items()):
        for imp in sorted(imports(path, name)):
            if imp.split(".")[0] in forbidden:
                bad.append("%s imports %s" % (name, imp))
    return bad


def test_the_core_imports_nothing_but_itself():
    core = {n: p for n, p in BOX.items() if n.split(".")[0] == "scorebox_core"}
    assert offenders(core, FIRMWARE_TOPS + ("scorebox", "vpico")) == []


def test_the_firmware_never_imports_pc_code_or_the_simulator():
    assert offenders(BOX, ("scorebox", "vpico")) == []


def test_the_pc_imports_no_firmware_but_the_core():
    assert offenders(PC, FIRMWARE_TOPS + ("vpico",)) == []


def test_nothing_imports_the_cli():
    bad = [
        "%s imports %s" % (n, i)
        for n, p in PC.items()
        for i in imports(p, n)
        if i == "scorebox.cli" or i.startswith("scorebox.cli.")
    ]
    assert bad == []
