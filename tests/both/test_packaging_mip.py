"""package.json installed for real with `mpremote mip install` on a blank virtual Pico
(tests/pc/test_deploy_lists.py holds it to what deploy installs)."""

import time

import pytest
from mpy import ROOT
from test_deploy import FlashBootPico

from scorebox.device import deploy
from scorebox.device import mpremote_adapter as mp


@pytest.mark.micropython
def test_mip_install_from_the_repository_on_a_blank_pico(tmp_path):
    vp = FlashBootPico(str(tmp_path / "box.flash"))
    try:
        time.sleep(0.3)
        out = mp.mip_install(vp.port, "package.json", "/flash", cwd=ROOT)
        assert "Installing: /flash/box/app.py" in out and "Installing: /flash/lib/ssd1306.py" in out, out
        deploy.restart(vp.port)
        info = deploy.hello(vp.port)
        assert info["firmware"] == deploy.firmware_version()
    finally:
        vp.close()
