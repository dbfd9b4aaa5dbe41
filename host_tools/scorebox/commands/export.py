"""`scorebox export` and `scorebox import`: the store's history as plain files (store/export.py)."""

from scorebox.store import export
from scorebox.store.access import open_store
from scorebox.text import plural


def cmd_export(args):
    store = open_store(args.db)
    got = export.export(store, args.out, args.format)
    for path, rows in got.items():
        print("%s: %s" % (path, plural(rows, "row")))
    return 0


def cmd_import(args):
    path, data = export.read_matches_file(args.file)
    store = open_store(args.db, create=True)  # a new PC's first import makes its store
    try:
        s = export.import_history(store, data)
    except export.ImportError_ as e:
        raise export.ImportError_("%s: %s" % (path, e))
    for line in s.lines():
        print(line)
    print("store: %s (%s)" % (store.path, plural(store.count(), "match", "matches")))
    return 1 if s.refused or s.unnamed else 0


def add_export_parser(sub):
    p = sub.add_parser("export", help="write the store's matches and arrows as CSV or JSON files")
    p.add_argument("--format", choices=("csv", "json"), default="csv", help="file format (default csv)")
    p.add_argument("--out", default="scorebox-export", help="folder for the files (default scorebox-export)")
    p.add_argument("--db", help="store file (default: in your user data folder)")
    p.set_defaults(run=cmd_export)


def add_import_parser(sub):
    i = sub.add_parser("import", help="import an export's matches.json into the store (e.g. on a new PC)")
    i.add_argument("file", help="an export folder or its matches.json")
    i.add_argument("--db", help="store file (default: in your user data folder)")
    i.set_defaults(run=cmd_import)
