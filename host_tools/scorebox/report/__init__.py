"""What the store shows: the HTML report (html.py), a match in the terminal (show.py), statistics (stats.py)."""
