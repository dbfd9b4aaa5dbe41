"""A club's events (`scorebox event`, docs/events.md): the formats' pairing rules and standings
(draw.py, standings.py: pure, archer ids in and pairings out) and the commands over the store's
events."""
