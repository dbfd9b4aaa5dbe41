"""The journal's recovery at boot (docs/journal.md, "Recovery at boot").

box/journal.py's Journal.recover() loads this module for the call and lets it go after
it: a match never has this code in its heap.

recover(j, fat):
1. deletes the journal's own leftovers of an interrupted replacement (g*.tbj.tmp,
   journal.ack.tmp, journal.rsv.tmp: the originals are intact) and a newest group file
   that is empty (created, but the power went before its first record);
2. reads journal.ack (unreadable: its bytes go to the quarantine once, and it is rewritten
   with what could be read; nothing else counts as acknowledged);
3. reads the newest group file; damaged stretches are copied to the quarantine file, then
   the group is replaced by its readable records, with a GAP record where the damage was;
4. finds the match in progress and the newest finished match;
5. deletes group files whose matches are all acknowledged (an ack cut short) and remakes
   the ballast if it is missing and there is room.
"""

import os

from scorebox_core import records as R
from scorebox_core.journal import ACK_FILE, EXTRAS, QUARANTINE_FILE, RESERVE_FILE, group_first, group_name


def recover(j, fat):
    """Recover journal j (a box.journal.Journal; fat: its drive is CircuitPython's FAT, where
    box/fat/recovery.py settles the ring and the newest group); returns its report (Journal.recover)."""
    j._close()
    rep = j._begin()
    try:
        os.mkdir(j.root)
    except OSError:
        pass  # it exists
    sizes = _listing(j.root)
    if fat:  # the newest group's two copies made equal first; its size, its records' end
        from box.fat.recovery import settle  # let go with this module (Journal.recover)

        settle(j, sizes, rep)
    for nm in sizes:
        if nm.endswith(".tmp") and (group_first(nm[:-4]) is not None or nm[:-4] in (ACK_FILE, RESERVE_FILE)):
            j._remove(nm)  # a replacement cut short: the original is intact
            rep["removed"].append(nm)
    j._find_groups(sizes)
    if ACK_FILE in sizes and j._load_ack(rep):  # keep its bytes for the host before it is replaced
        try:
            with j._file(ACK_FILE) as f:
                data = f.read()
            _quarantine(j, ACK_FILE, 0, data)
            rep["quarantined"] += len(data)
            from box import acks  # only after damage: the range's boot never loads it

            acks.save(j)  # rewritten with what was readable: quarantined once, not at every boot
        except OSError:
            pass
    groups = j._groups
    while groups and _size(j, sizes, group_name(groups[-1])) == 0:
        nm = group_name(groups.pop())  # created, but a power cut came before its first record
        j._remove(nm)
        rep["removed"].append(nm)
    if groups:
        name = group_name(groups[-1])
        fold = j._fold_file(name)
        size = _size(j, sizes, name)
        if fold.damage:
            for off, n in fold.damage:
                rep["damage"].append({"file": name, "offset": off, "bytes": n})
        if fold.damage and not fat:  # on FAT the two copies are the repair: reading skips the rest
            _set_aside(j, name, fold, rep)
            fold = j._fold_file(name)
            size = j._fsize(name)  # rewritten, or not
        j._size = size
        j._fin = [fold.finished_bytes, fold.finished]
        m = j._load_newest(fold, name, rep)
        if j._open:
            j._cur_off = m[EXTRAS]["offset"]
    j._free_acked(rep)
    j._ballast = _size(j, sizes, RESERVE_FILE) == j._ballast_bytes()
    if not j._ballast:
        j._make_ballast()
    return j._end(rep)


def _listing(root):
    """{name: size} of the journal's folder, in one pass: on the Pico's LittleFS ilistdir gives
    the sizes, where a stat of each file would read the directory's metadata again (a few ms
    each once the journal's commits fill it). None for a size where the port has no ilistdir
    (CPython, CircuitPython): _size() asks for it then."""
    if not hasattr(os, "ilistdir"):
        return dict((nm, None) for nm in os.listdir(root))
    return dict((e[0], e[3] if len(e) > 3 else None) for e in os.ilistdir(root))


def _size(j, sizes, name):
    """Bytes in file name of the listing (-1: not there)."""
    n = sizes.get(name, -1)
    return j._fsize(name) if n is None else n


def _set_aside(j, name, fold, rep):
    """Copy the damaged stretches of the newest group to the quarantine file, then
    replace the group by its readable records (written to a temporary file and renamed
    over it), so that new records follow good ones. Nothing is lost: if the copy to
    quarantine fails, the group is left as it is."""
    path = j._path(name)
    try:
        with open(path, "rb") as src:
            for off, n in fold.damage:
                src.seek(off)
                _quarantine(j, name, off, src.read(n))
                rep["quarantined"] += n
    except OSError as e:
        rep["notes"].append("could not set damaged bytes aside (%s): left in place" % e)
        return
    tmp = path + ".tmp"
    try:
        with open(path, "rb") as src:
            with open(tmp, "wb") as dst:
                pos = 0
                for a, b in fold.spans:
                    for off, n in fold.damage:
                        if pos <= off < a:
                            dst.write(R.gap_record(off, n))  # the match keeps its mark
                    src.seek(a)
                    dst.write(src.read(b - a))
                    pos = b
                for off, n in fold.damage:
                    if off >= pos:
                        dst.write(R.gap_record(off, n))
                dst.flush()
        os.rename(tmp, path)
    except OSError as e:
        j._remove(name + ".tmp")
        rep["notes"].append("could not rewrite %s (%s): new records follow the damage" % (name, e))


def _quarantine(j, name, off, data):
    """Append bytes read at offset off of file name to the quarantine file, flushed."""
    q = open(j._path(QUARANTINE_FILE), "ab")
    try:
        if j._fsize(QUARANTINE_FILE) <= 0:
            q.write(R.group_record(0))
        q.write(R.quarantine_records(name, off, data))
        q.flush()
    finally:
        q.close()
