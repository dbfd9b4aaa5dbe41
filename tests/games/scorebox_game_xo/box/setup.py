"""Noughts and Crosses' rows of the New match screen (box/setup.py): no options, only the
archers of its sides X and O."""


class Setup:
    def __init__(self, f):
        pass

    def rows(self, preset):
        return ("a1", "a2", "b1", "b2")

    def options(self, f, preset):
        from scorebox_game_xo.core.rules import Options

        return Options()

    def warning(self, f):
        return None
