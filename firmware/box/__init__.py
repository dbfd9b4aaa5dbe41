"""The scoring box: the app, its screens and the match journal (runs on the Pico)."""
