"""Tic Tac BOW's rows of the New match screen (box/setup.py): the presets standard, Hard 5
and custom (its option rows), the games of the match (TTB-14), and the distances and shafts
of each side (TTB-17: the box warns when the shafts differ by more than 0.5 mm)."""

from box.setup import ZERO_NONE, Field, Span
from scorebox_core.games.ttb.game import PRESETS

STANDARD, HARD, CUSTOM = PRESETS
_ROWS = ("games", "a1", "a2", "b1", "b2", "unit", "dist_a", "dist_b", "shaft_a", "shaft_b")


def _custom(rules):
    """Option rows shown for a custom preset: option name, label, choices."""
    return (
        ("mode", "mode", (rules.NET, rules.HARD5)),
        ("claim_a", "claim A", Span(1, 15)),
        ("claim_b", "claim B", Span(1, 15)),
        ("arrows_a", "arrows A", Span(1, 6)),
        ("arrows_b", "arrows B", Span(1, 6)),
        ("flips", "flips", (0, 1, 2, 3)),
        ("equal_turns", "equal", (True, False)),
        ("rounds", "rounds", Span(0, 30)),
        ("face_games", "face", Span(1, 9)),
    )


class Setup:
    """Its rules load when called for (the defaults, the options), not with this module."""

    def __init__(self, f):
        from scorebox_core.games.ttb import rules

        opts = rules.Options()
        names = []
        for name, label, choices in _custom(rules):
            f[name] = Field(name, label, choices, ZERO_NONE if name == "rounds" else 0)
            f[name].set(getattr(opts, name))
            names.append(name)
        f["games"] = Field("games", "games", (1, 3, 5))
        self.custom = tuple(names)

    def rows(self, preset):
        """The names of the rows shown for preset, in order."""
        return self.custom + _ROWS if preset == CUSTOM else _ROWS

    def options(self, f, preset):
        from scorebox_core.games.ttb import rules

        opts = rules.Options()
        if preset == HARD:
            opts.mode = rules.HARD5
        elif preset == CUSTOM:
            for name in self.custom:
                setattr(opts, name, f[name].value())
        opts.games = f["games"].value()
        return opts

    def warning(self, f):
        """TTB-17: the shafts differ by more than 0.5 mm (None when they do not)."""
        g = abs(f["shaft_a"].value() - f["shaft_b"].value())  # tenths of a mm
        return "! shafts %d.%dmm" % (g // 10, g % 10) if g > 5 else None
