"""Scorebox enclosure: a parametric printable case (build123d), its exports and its fit checks."""
