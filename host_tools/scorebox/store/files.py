"""Files the PC tools write, never over what they did not create.

A command writes its file through a temporary file beside it (a new name mkstemp makes, so
no one's file is overwritten on the way) and replaces the target only when the target is
missing or is the command's own earlier output, which `ours(head)` recognises from its first
bytes. Anything else (another file, a folder, a link, a device) is refused with one line.
"""

import os
import stat
import tempfile

from scorebox.errors import ScoreboxError

HEAD = 4096  # bytes read to recognise a file
# A file is read for its first bytes without following a link, and a pipe or device put
# there since it was checked is opened without waiting (it is then no one's own: empty).
_PEEK = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
_MODE = 0o666  # a new file's mode before the umask, as open() makes one


class FileError(ScoreboxError):
    """The target exists and is not the command's own, or cannot be written; str() says what to do."""


def head(path, n=HEAD):
    with os.fdopen(os.open(path, _PEEK), "rb") as f:
        return f.read(n)


def check_target(path, ours, what, size=HEAD):
    """Refuse path unless it is missing or a regular file that ours(its first size bytes)
    claims. what names the command's output in the message ("a Scorebox report")."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as e:
        raise FileError("%s: cannot check it: %s" % (path, e.strerror or e))
    if not stat.S_ISREG(st.st_mode):
        raise FileError("%s exists and is not a file: give another name" % path)
    try:
        mine = ours(head(path, size))
    except OSError as e:
        raise FileError("%s: cannot read it: %s" % (path, e.strerror or e))
    if not mine:
        raise FileError("%s exists and is not %s: give another name (it is left as it is)" % (path, what))


def temporary(path):
    """A new file beside path (same folder, so the final rename is atomic): its name."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".%s." % os.path.basename(path), suffix=".part", dir=folder)
    except OSError as e:
        raise FileError("%s: cannot write there: %s" % (path, e.strerror or e))
    os.close(fd)
    try:
        # mkstemp makes it 0600; the final file gets what open(path, "w") would give it, so a
        # report for the club's website is readable by others where the umask allows
        os.chmod(tmp, _MODE & ~_umask())
    except OSError as e:
        discard(tmp)
        raise FileError("%s: cannot write there: %s" % (path, e.strerror or e))
    return tmp


def _umask():
    """The process's umask: reading it means setting it, so it is set straight back."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def replace(tmp, path, ours, what, size=HEAD):
    """Move the finished tmp onto path, checking path once more (it may have appeared since)."""
    try:
        check_target(path, ours, what, size)
        os.replace(tmp, path)
    except BaseException:
        discard(tmp)
        raise


def discard(tmp):
    """Remove a temporary file this module made (and SQLite's files beside it)."""
    for p in (tmp, tmp + "-wal", tmp + "-shm", tmp + "-journal"):
        try:
            os.remove(p)
        except FileNotFoundError:
            pass
