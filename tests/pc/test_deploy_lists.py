"""Every list of what goes on the Pico is derived from the firmware tree in one place
(scorebox/device/firmware.py); the committed ones must agree with it: package.json for
mip, firmware/manifest.py for a frozen build, and the wheel's copy in pyproject.toml."""

import json
import os

import tomllib
from mpy import FIRMWARE, ROOT

from scorebox.device import deploy, firmware


def test_package_json_is_what_deploy_installs():
    with open(os.path.join(ROOT, "package.json")) as f:
        text = f.read()
    assert text == deploy.package_json_text(), "package.json is stale: python -m scorebox.device.deploy package-json"
    urls = json.loads(text)["urls"]
    assert sorted(rel for rel, _ in urls) == sorted(firmware.compiled() + firmware.sources())
    for _, url in urls:
        assert os.path.exists(os.path.join(ROOT, url)), url


def test_manifest_freezes_what_deploy_compiles():
    frozen = []

    def include(path):
        assert path == "$(MPY_DIR)/extmod/asyncio"

    def freeze(path, script=None):  # the port's own modules but its _boot.py
        assert (path, script) == ("$(PORT_DIR)/modules", "rp2.py")

    def require(name):
        pass

    def package(name, files=None, base_path=".", opt=None):
        top = os.path.join(FIRMWARE, base_path, name)
        for d, _, names in os.walk(top):
            rel = os.path.relpath(d, os.path.join(FIRMWARE, base_path)).replace(os.sep, "/")
            frozen.extend(rel + "/" + n for n in names if n.endswith(".py"))

    def module(name, base_path=".", opt=None):
        path = os.path.join(FIRMWARE, base_path, name)
        assert os.path.isfile(path), path
        frozen.append(os.path.normpath(os.path.join(base_path, name)).replace(os.sep, "/"))

    with open(os.path.join(FIRMWARE, "manifest.py")) as f:
        exec(f.read(), {"include": include, "package": package, "module": module, "freeze": freeze, "require": require})
    assert sorted(frozen) == sorted(firmware.compiled() + ["_boot.py"])


def test_the_wheel_carries_the_whole_tree():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        listed = tomllib.load(f)["tool"]["setuptools"]["packages"]
    shipped = {p[len("scorebox.firmware.") :] for p in listed if p.startswith("scorebox.firmware.")}
    tree = {os.path.dirname(rel).replace("/", ".") for rel in firmware.compiled()}
    # A CircuitPython box's lib/ is a package too: as package data of scorebox.firmware,
    # setuptools warned at every install that it "would be ignored" (make demo printed it).
    tree |= {firmware.CIRCUITPYTHON + "." + os.path.dirname(rel) for rel in firmware.circuitpython_lib()}
    assert shipped == tree, "pyproject.toml's scorebox.firmware.* packages differ from the firmware tree"


def test_the_wheel_carries_every_pc_package():
    """Every folder of host_tools/scorebox with code, templates or a harness is a package the
    wheel lists (an editable install finds any; a wheel only those listed)."""
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        listed = set(tomllib.load(f)["tool"]["setuptools"]["packages"])
    top = os.path.join(ROOT, "host_tools", "scorebox")
    missing = []
    for d, dirs, files in os.walk(top):
        dirs[:] = [x for x in dirs if x not in ("node_modules", "__pycache__")]
        if any(f.endswith((".py", ".j2", ".mjs", ".css")) for f in files):
            name = "scorebox" if d == top else "scorebox." + os.path.relpath(d, top).replace(os.sep, ".")
            if name not in listed:
                missing.append(name)
    assert not missing, "not in pyproject.toml's packages: %s" % missing


def test_the_tree_holds_only_what_the_pico_runs():
    """No PC code in firmware/: every module is deployed, and none imports the PC package."""
    on_pico = set(firmware.compiled() + firmware.sources())
    for d, subdirs, names in os.walk(FIRMWARE):
        subdirs[:] = [s for s in subdirs if s != "__pycache__"]
        for n in names:
            rel = os.path.relpath(os.path.join(d, n), FIRMWARE).replace(os.sep, "/")
            if rel.startswith(firmware.CIRCUITPYTHON + "/"):  # a CircuitPython box's (cpinstall)
                continue
            if n.endswith(".py") and rel not in firmware.NOT_DEPLOYED:
                assert rel in on_pico, "%s is in firmware/ but deploy does not install it" % rel
