"""Each game's part of the PC tools, a package per game (ttb/, ttt/), and the registry that finds
them (registry.py)."""
