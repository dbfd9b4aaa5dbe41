"""Tic Tac BOW rules core, shared by the Pico firmware and the PC tools."""

VERSION = "0.1.0"
