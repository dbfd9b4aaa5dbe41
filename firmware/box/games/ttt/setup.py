"""Try-Tac-Toe's rows of the New match screen (box/setup.py): each shape's value, `auto`
the default set from the board's counts (TTT-4, docs/try-tac-toe.md), and the move limit per
match (TTT-5, 0 = none); its sides are X and O. Its rules are not loaded in the menus (heap):
options() loads them once the menus have gone."""

from box.setup import ZERO_NONE, Field, Span

_ROWS = ("triangle", "bar", "chevron", "moves")
DEFAULT = "auto"  # a shape's value set from the board (TTT-4)


class Setup:
    def __init__(self, f):
        values = (DEFAULT,) + tuple(range(10))
        for name in _ROWS[:3]:
            f[name] = Field(name, name, values)
        f["moves"] = Field("moves", "moves", Span(0, 200, 10), ZERO_NONE)

    def rows(self, preset):
        """The names of the rows shown, in order: the shapes and the move limit, the sides."""
        return _ROWS + ("a1", "a2", "b1", "b2")

    def options(self, f, preset):
        from scorebox_core.games.ttt.rules import Options

        opts = Options()
        for name in _ROWS:
            if f[name].value() != DEFAULT:
                opts.set(name, str(f[name].value()))
        return opts

    def warning(self, f):
        """None: its distances and shafts are not asked (the header keeps the defaults)."""
        return None
