"""`scorebox backup` and `scorebox restore`: the store file, copied and checked (store/backup.py)."""

import os
import time

from scorebox.store import backup, files
from scorebox.store.access import default_path
from scorebox.text import plural


def _store_path(args):
    return args.db or default_path()


def cmd_backup(args):
    path = _store_path(args)
    dest = args.file or "scorebox-backup-%s.sqlite" % time.strftime("%Y%m%d-%H%M%S")
    if os.path.lexists(dest):
        if not args.force:
            raise files.FileError("%s exists: give another name or --force" % dest)
        # --force replaces an earlier backup or store, never another file, folder or link
        files.check_target(
            dest, lambda head: head.startswith(backup.MAGIC), "a backup (--force replaces only a backup)"
        )
    n, size = backup.backup(path, dest)
    print("backup of %s: %s (%s, %.1f MB), checked" % (path, dest, plural(n, "match", "matches"), size / 1e6))
    return 0


def cmd_restore(args):
    path = _store_path(args)
    n, old = backup.restore(path, args.file)
    if old:
        print("the store that was there is kept as %s" % old)
    print("restored %s from %s: %s, checked" % (path, args.file, plural(n, "match", "matches")))
    return 0


def add_backup_parser(sub):
    p = sub.add_parser("backup", help="copy the store to a file, checked")
    p.add_argument("file", nargs="?", help="backup file (default scorebox-backup-DATE-TIME.sqlite here)")
    p.add_argument("--db", help="store file (default: in your user data folder)")
    p.add_argument("--force", action="store_true", help="overwrite an earlier backup of that name")
    p.set_defaults(run=cmd_backup)


def add_restore_parser(sub):
    r = sub.add_parser("restore", help="replace the store with a backup, after checking it")
    r.add_argument("file", help="a backup made by scorebox backup (or another store file)")
    r.add_argument("--db", help="store file (default: in your user data folder)")
    r.set_defaults(run=cmd_restore)
