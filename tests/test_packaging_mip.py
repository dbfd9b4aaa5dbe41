"""The other ways to put the firmware on a Pico: package.json for `mpremote mip install`
(checked against what deploy installs, and installed for real on a blank virtual Pico), and
firmware/manifest.py for a custom MicroPython build with the core frozen."""

import os
import time

import pytest
from mpy import FIRMWARE, ROOT
from test_deploy import FlashPico

from scorebox import deploy
from scorebox import mpremote_adapter as mp


def test_package_json_is_what_deploy_installs():
    with open(os.path.join(ROOT, "package.json")) as f:
        text = f.read()
    assert text == deploy.package_json_text(), "package.json is stale: python -m scorebox.deploy package-json"
    for _, url in deploy.mip_package()["urls"]:
        assert os.path.exists(os.path.join(ROOT, url)), url


def test_manifest_freezes_the_deployed_modules():
    frozen = []

    def include(path):
        assert path == "$(PORT_DIR)/boards/manifest.py"

    def package(name, files=None, base_path=".", opt=None):
        d = os.path.normpath(os.path.join(FIRMWARE, base_path, name))
        assert os.path.isdir(d), d
        frozen.extend(name + "/" + f for f in sorted(os.listdir(d)) if f.endswith(".py"))

    def module(name, base_path=".", opt=None):
        path = os.path.normpath(os.path.join(FIRMWARE, base_path, name))
        assert os.path.isfile(path), path
        frozen.append("lib/" + name if "drivers" in base_path else name)

    with open(os.path.join(FIRMWARE, "manifest.py")) as f:
        exec(f.read(), {"include": include, "package": package, "module": module})
    deployed = [rel for rel, _ in deploy.mip_package()["urls"] if rel not in deploy.SOURCES]
    assert sorted(frozen) == sorted(deployed)


@pytest.mark.micropython
def test_mip_install_from_the_repository_on_a_blank_pico(tmp_path):
    vp = FlashPico(str(tmp_path / "box.flash"))
    try:
        time.sleep(0.3)
        out = mp.mip_install(vp.port, "package.json", "/flash", cwd=ROOT)
        assert "Installing: /flash/box/app.py" in out and "Installing: /flash/lib/ssd1306.py" in out, out
        deploy.restart(vp.port)
        info = deploy.hello(vp.port)
        assert info["firmware"] == deploy.firmware_version()
    finally:
        vp.close()
