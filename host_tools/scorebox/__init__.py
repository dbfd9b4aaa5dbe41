"""Scorebox PC tools: replay, sync, store and reports for the Tic Tac BOW scoring box."""
