"""What the box keeps besides the journal: settings, the roster and the face-wear counter.

Small files on the flash file system, each written whole to a temporary name and then
renamed over the old one (os.rename replaces atomically on LittleFS; never delete first).
On CircuitPython's FAT drive with the journal's ring (docs/journal.md "On FAT") no file is
made or renamed: settings and roster are one state kept in place in two copies beside the
ring (box/fat/kept.py's Kept), and no file of theirs is read.
"""

import json
import os

DEFAULTS = {
    "dim_s": 30,  # dim the screen after this many idle seconds
    "sleep_s": 300,  # then switch it off (0: never): past a turn at the range (docs/power.md)
    "contrast": 255,
    "sound": True,  # the piezo: a refused entry, a flip, the match's end (box/games/ttb/play.py)
    "face_games": 0,  # TTB-16: games and arrows per square on the face on the boss now
    "face_arrows": [0] * 9,
    "cells": None,  # the battery's chemistry, "alkaline", "nimh" or "lipo"; None: pins.BATTERY's (box/battery.py)
    "store": None,  # id of the PC store that acknowledges this box's matches: set at its first sync (box/link.py)
}

ROSTER = "roster.txt"
SETTINGS = "settings.json"
ROSTER_MAX = 200  # names kept: the setup screen and the heap take them at ease (docs/benchmarks.md, roster)


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.rename(tmp, path)


def _fat():
    from box import journal

    return journal.FAT


class Store:
    def __init__(self, root):
        self.root = root
        self._roster = None
        self.settings = {}
        for k in DEFAULTS:
            v = DEFAULTS[k]
            self.settings[k] = list(v) if isinstance(v, list) else v
        self.kept = None
        if _fat():
            from box.fat import kept

            self.kept = kept.Kept(root)
            data = self.kept.read()
            if self.kept.there:  # the copies, made with the ring: the state is theirs alone
                self._roster = []
                if data is not None:  # settings' JSON, then the roster's names a line each
                    text = data.decode()
                    i = text.find("\n")
                    self._load(text[:i])
                    self._roster = [n for n in text[i + 1 :].split("\n") if n]
                return
        try:
            with open(self.path(SETTINGS)) as f:
                self._load(f.read())
        except OSError:
            pass  # first boot: keep the defaults

    def _load(self, text):
        try:
            saved = json.loads(text)
        except ValueError:
            return  # a file from a newer firmware: keep the defaults
        for k in saved:
            if k in DEFAULTS:
                self.settings[k] = saved[k]

    def _keep(self, roster):
        """On FAT with a ring: the whole state (roster: the names, None for the kept ones) in place, True
        (box/fat/kept.py; ValueError past its room, nothing written); else False."""
        if self.kept is None or not self.kept.ready():
            return False
        if roster is None:
            roster = self.roster()
        data = json.dumps(self.settings) + "\n" + "".join(n + "\n" for n in roster)
        try:
            self.kept.write(data.encode())
        except ValueError as e:
            raise ValueError("settings and roster too large to keep (%s): use fewer or shorter names" % e)
        return True

    def path(self, name):
        return self.root + "/" + name

    def get(self, name):
        return self.settings[name]

    def set(self, name, value):
        self.settings[name] = value

    def save(self):
        if not self._keep(None):
            write_atomic(self.path(SETTINGS), json.dumps(self.settings))

    def roster(self):
        """Archer names kept on the box, one a line in roster.txt, the most recently used
        first (box/setup.py; sync merges it with the PC's roster: box/link.py). Read once,
        at the first ask (at boot: an open file costs LittleFS a 1 KiB cache, which a
        fragmented heap may not have later), then kept."""
        if self._roster is None:
            names = []  # type: list
            try:
                with open(self.path(ROSTER)) as f:
                    for line in f:
                        name = line.strip()
                        if name and name not in names and len(names) < ROSTER_MAX:
                            names.append(name)  # box/link.py wrote it: a name the box can take
            except OSError:
                pass
            self._roster = names
        return self._roster

    def set_roster(self, names):
        if not self._keep(names):
            write_atomic(self.path(ROSTER), "".join(n + "\n" for n in names))
        self._roster = list(names)
