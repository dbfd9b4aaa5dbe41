"""`make uf2`: the Pico's MicroPython with the box frozen in, one UF2 for a maker to flash.

    SCOREBOX_MICROPY_SRC=../shared/rp2/micropython-v1.28.0-src.tar.xz python tools/uf2.py out

SCOREBOX_MICROPY_SRC is MicroPython v1.28.0's sources with their submodules: the archive of
../shared/rp2 (which holds picotool 2.2.0 too) or a folder (a clone of micropython at
v1.28.0 with `make -C ports/rp2 submodules` done, or the archive extracted). The toolchain is
Debian's gcc-arm-none-eabi and cmake (the Makefile installs them).

The image is cached in ${XDG_CACHE_HOME:-~/.cache}/scorebox/uf2/<key>/, the key the SHA-256
of its inputs: the sources, the firmware tree (manifest.py included), this script and the
compiler's version; a second run with the same inputs only copies it. The extracted sources
with picotool and mpy-cross built are cached too (src-<hash of the sources>/), so a change in
the firmware rebuilds only the port. Output: out/scorebox-<version>-RPI_PICO.uf2 and its
.elf (symbols, for profiling), and <uf2>.inputs (the key and the firmware tree's hash, read
by tests/rp2 to tell a stale image).

The tree built from is a copy, with boards/defaults.py added: main.py and pins.py as text, that
firmware/_boot.py writes on the Pico's file system at its first boot (a maker flashes the UF2
and the box runs).
"""

import fcntl
import hashlib
import json
import lzma
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import time

from scorebox.device import firmware

BOARD = "RPI_PICO"
FS_START = 0x100A0000  # RPI_PICO's file system starts here: the image must end before it
HOW = (
    "set SCOREBOX_MICROPY_SRC to MicroPython v1.28.0's sources with their submodules "
    "(git clone -b v1.28.0 https://github.com/micropython/micropython && make -C micropython/ports/rp2 "
    "submodules, or the archive micropython-v1.28.0-src.tar.xz: docs/rp2.md)"
)
WHERE = "make uf2: " + HOW


class BuildError(Exception):
    pass


def cache_root():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "scorebox", "uf2")


def _file_hash(path, h):
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)


def source_hash(src):
    """The archive's bytes; for a folder, its files' names, sizes and times (a clone is large)."""
    h = hashlib.sha256()
    if os.path.isfile(src):
        _file_hash(src, h)
        return h.hexdigest()
    for d, subdirs, names in os.walk(src):
        subdirs[:] = sorted(s for s in subdirs if not s.startswith("build") and s != ".git")
        for n in sorted(names):
            st = os.stat(os.path.join(d, n))
            h.update(("%s %d %d\n" % (os.path.relpath(os.path.join(d, n), src), st.st_size, st.st_mtime_ns)).encode())
    return h.hexdigest()


def compiler():
    try:
        out = subprocess.run(["arm-none-eabi-gcc", "--version"], capture_output=True, text=True).stdout
    except OSError:
        raise BuildError("make uf2: arm-none-eabi-gcc is missing: apt-get install gcc-arm-none-eabi (make uf2 does)")
    return out.splitlines()[0] if out else "?"


def key(src):
    """(key of the whole build, hash of the sources alone)."""
    src_h = source_hash(src)
    h = hashlib.sha256()
    h.update(src_h.encode())
    h.update(firmware.tree_hash().encode())
    _file_hash(os.path.abspath(__file__), h)
    h.update(compiler().encode())
    return h.hexdigest(), src_h


def run(cmd, log, **kw):
    with open(log, "a") as f:
        f.write("$ %s\n" % " ".join(cmd))
        f.flush()
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, **kw)
    if r.returncode:
        raise BuildError("make uf2: `%s` failed (exit %d): see %s" % (" ".join(cmd[:3]), r.returncode, log))


def _micropython(src):
    """A source folder's micropython folder: the clone itself, or its micropython/."""
    return src if os.path.isdir(os.path.join(src, "ports", "rp2")) else os.path.join(src, "micropython")


def check_source(src):
    """SCOREBOX_MICROPY_SRC is a folder with MicroPython's submodules or a tar archive, else
    one line before any build (an archive cut short is found when extracted)."""
    if not os.path.exists(src):
        why = "does not exist"
    elif os.path.isdir(src):
        ok = os.path.isfile(os.path.join(_micropython(src), "lib", "pico-sdk", "README.md"))
        why = None if ok else "is a folder without MicroPython's submodules (lib/pico-sdk)"
    else:
        try:
            why = None if tarfile.is_tarfile(src) else "is not a tar archive"
        except OSError as e:
            why = "cannot be read (%s)" % (e.strerror or e)
    if why:
        raise BuildError("make uf2: SCOREBOX_MICROPY_SRC=%s %s; %s" % (src, why, HOW))


def prepare(src, src_h, log, jobs):
    """The source tree with mpy-cross and picotool built: (micropython folder, picotool install or None)."""
    if os.path.isdir(src):
        check_source(src)
        mp = _micropython(src)
        top = os.path.dirname(mp)
        tool_src = os.path.join(top, "picotool") if os.path.isdir(os.path.join(top, "picotool")) else None
        work = os.path.join(cache_root(), "src-" + src_h)
        os.makedirs(work, exist_ok=True)
    else:
        work = os.path.join(cache_root(), "src-" + src_h)
        if not os.path.isfile(os.path.join(work, ".ready")):
            shutil.rmtree(work, ignore_errors=True)
            os.makedirs(work)
            try:
                with tarfile.open(src) as t:
                    t.extractall(work, filter="tar") if hasattr(tarfile, "data_filter") else t.extractall(work)
            except (tarfile.TarError, EOFError, lzma.LZMAError, OSError) as e:
                shutil.rmtree(work, ignore_errors=True)  # half the sources: the next run extracts again
                raise BuildError(
                    "make uf2: SCOREBOX_MICROPY_SRC=%s could not be extracted (%s); %s"
                    % (src, "; ".join(str(e).splitlines()), HOW)
                )
        mp = os.path.join(work, "micropython")
        tool_src = os.path.join(work, "picotool")
        if not os.path.isdir(mp):
            raise BuildError("make uf2: %s holds no micropython/ folder; %s" % (src, HOW))
    tools = None
    if tool_src:  # the SDK writes the UF2 with picotool; built here, or it would clone it from GitHub
        tools = os.path.join(work, "picotool-install")
        if not os.path.isdir(tools):
            b = os.path.join(work, "picotool-build")
            sdk = os.path.join(mp, "lib", "pico-sdk")
            run(
                ["cmake", "-S", tool_src, "-B", b, "-DPICO_SDK_PATH=" + sdk, "-DPICOTOOL_NO_LIBUSB=1"]
                + [
                    "-DPICOTOOL_FLAT_INSTALL=1",
                    "-DCMAKE_INSTALL_PREFIX=" + tools + ".part",
                    "-DCMAKE_BUILD_TYPE=Release",
                ],
                log,
            )
            run(["make", "-C", b, "-j%d" % jobs, "install"], log)
            os.rename(tools + ".part", tools)
    if not os.path.isfile(os.path.join(mp, "mpy-cross", "build", "mpy-cross")):
        run(["make", "-C", os.path.join(mp, "mpy-cross"), "-j%d" % jobs], log)
    open(os.path.join(work, ".ready"), "w").close()
    return mp, tools


def check_size(uf2):
    """UF2 blocks of 512 bytes: (magic, magic, flags, address, size, ...); the image must end
    before the file system or a flashed box would lose its journal."""
    with open(uf2, "rb") as f:
        data = f.read()
    end = 0
    for i in range(0, len(data), 512):
        m0, m1, _, addr, size = struct.unpack_from("<5I", data, i)
        if (m0, m1) != (0x0A324655, 0x9E5D5157):
            raise BuildError("make uf2: %s is not a UF2 file" % uf2)
        end = max(end, addr + size)
    if end > FS_START:
        raise BuildError("make uf2: the image ends at 0x%x, past the file system's start 0x%x" % (end, FS_START))
    return end - 0x10000000


def _build(src, src_h, name, cached, blog, jobs):
    mp, tools = prepare(src, src_h, blog, jobs)
    env = dict(os.environ)
    if tools:
        env["PICOTOOL_FETCH_FROM_GIT_PATH"] = tools
    # The port's build folder is kept beside the sources: a change in the firmware tree
    # recompiles its frozen modules and links again, not the whole port. CMake keeps the
    # manifest's path from the first build: the tree is copied to one place (new times, so
    # that the frozen modules are made again), whichever clone builds.
    work = os.path.join(cache_root(), "src-" + src_h)
    bdir = os.path.join(work, "build-" + BOARD)
    fw = os.path.join(work, "firmware")
    shutil.rmtree(fw, ignore_errors=True)
    shutil.copytree(
        firmware.firmware_dir(), fw, copy_function=shutil.copyfile, ignore=shutil.ignore_patterns("__pycache__")
    )
    sources = firmware.sources(fw)
    with open(os.path.join(fw, "boards", "defaults.py"), "w") as f:  # for _boot.py's first boot
        f.write("# main.py and pins.py as the image was built with them (tools/uf2.py).\nFILES = (\n")
        for src_name in sources:
            with open(os.path.join(fw, src_name)) as g:
                f.write("    (%r, %r),\n" % (src_name, g.read()))
        f.write(")\n")
    manifest = os.path.join(fw, "manifest.py")
    args = ["BOARD=" + BOARD, "BUILD=" + bdir, "FROZEN_MANIFEST=" + manifest]
    run(["make", "-C", os.path.join(mp, "ports", "rp2"), "-j%d" % jobs] + args, blog, env=env)
    check_size(os.path.join(bdir, "firmware.uf2"))
    part = tempfile.mkdtemp(prefix="image-", dir=cache_root())
    os.chmod(part, 0o755)
    shutil.copyfile(os.path.join(bdir, "firmware.uf2"), os.path.join(part, name + ".uf2"))
    elf = os.path.join(part, name + ".elf")
    run(["arm-none-eabi-strip", "--strip-debug", "-o", elf, os.path.join(bdir, "firmware.elf")], blog)
    shutil.rmtree(cached, ignore_errors=True)
    os.rename(part, cached)


def build(src, out, log=print):
    t0 = time.monotonic()
    k, src_h = key(src)
    name = "scorebox-%s-%s" % (firmware.version(), BOARD)
    cached = os.path.join(cache_root(), k)
    uf2 = os.path.join(cached, name + ".uf2")
    if os.path.isfile(uf2):
        how = "cached"
    else:
        how = "built"
        jobs = os.cpu_count() or 2
        os.makedirs(cache_root(), exist_ok=True)
        blog = os.path.join(cache_root(), "build-%s.log" % k[:12])
        log("make uf2: building %s (a few minutes the first time; log in %s)" % (name, blog))
        with open(os.path.join(cache_root(), ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one build at a time: they share the port's build folder
            try:
                _build(src, src_h, name, cached, blog, jobs)
            except BaseException:
                if os.path.exists(blog):  # not written when the sources would not extract
                    log("make uf2: build log kept in %s" % blog)
                raise
        os.remove(blog)
    os.makedirs(out, exist_ok=True)
    for ext in (".uf2", ".elf"):
        shutil.copyfile(os.path.join(cached, name + ext), os.path.join(out, name + ext))
    with open(os.path.join(out, name + ".uf2.inputs"), "w") as f:
        json.dump({"key": k, "firmware": firmware.tree_hash(), "source": src_h}, f)
        f.write("\n")
    size = check_size(uf2)
    path = os.path.join(out, name + ".uf2")
    log("make uf2: %s %s in %.1f s" % (how, path, time.monotonic() - t0))
    log(
        "  a file of %s bytes puts %s bytes (%d KiB) of the image on the Pico's 2 MiB flash: each 512-byte"
        " UF2 block carries 256 of them; the box's file system keeps the flash after it"
        % (format(os.path.getsize(path), ","), format(size, ","), size // 1024)
    )
    log(
        "  next: hold the Pico's BOOTSEL button while you plug it in, copy the file onto the RPI-RP2 drive that"
        " appears; the Pico restarts as the box and shows its home menu (docs/hardware.md, First boot)"
    )
    return os.path.join(out, name + ".uf2")


def main(argv):
    out = argv[0] if argv else "out"
    src = os.environ.get("SCOREBOX_MICROPY_SRC")
    if not src:
        print(WHERE)
        return 2
    try:
        check_source(src)
        build(os.path.abspath(src), out)
    except BuildError as e:
        print(e)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
