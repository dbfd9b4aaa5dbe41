"""The desk's pages, a Flask blueprint per area (web/app.py registers them)."""
