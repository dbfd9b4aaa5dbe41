"""The desk counts as the commands do: "1 match", not "1 matches", after a restore of a
backup of one match (the Safety page, as `scorebox restore`) and after a club's first sync
into a new store (the Sync page, as `scorebox sync`). Found walking the desk as a newcomer."""

import io
import re
import time

from handmatches import DEVICE, MATCH1, item
from test_sim_sync_hint import DEMO_KEYS

from scorebox import cli
from scorebox.store.sqlite import Store
from scorebox.web.app import create_app


def csrf(c, page):
    return re.search(r'name="csrf" value="([^"]+)"', c.get(page).get_data(as_text=True)).group(1)


def test_a_backup_of_one_match_is_restored_as_one_match(tmp_path):
    db = str(tmp_path / "club.sqlite")
    s = Store(db)
    assert s.add_matches(DEVICE, [item(1, MATCH1)]) == [True]
    s.close()
    c = create_app(db, workdir=str(tmp_path / "work")).test_client()
    t = csrf(c, "/safety")
    backup = c.post("/safety/backup", data={"csrf": t}).data
    data = {"csrf": t, "backup": (io.BytesIO(backup), "club-backup.sqlite")}
    assert c.post("/safety/restore", data=data, content_type="multipart/form-data").status_code == 302
    page = c.get("/safety").get_data(as_text=True)
    assert "restored the store from club-backup.sqlite: 1 match, checked" in page, page


def test_a_first_sync_from_the_desk_stores_one_match(tmp_path):
    state = str(tmp_path / "sim.flash")
    assert cli.main(["sim", "--keys", DEMO_KEYS, "--state", state]) == 0
    app = create_app(str(tmp_path / "new.sqlite"), workdir=str(tmp_path / "work"))
    app.config["SIM_STATE"] = state
    c = app.test_client()
    assert c.post("/sync", data={"csrf": csrf(c, "/sync"), "source": "sim"}).status_code == 302
    for _ in range(1200):
        page = c.get("/sync").get_data(as_text=True)
        if "Syncing&hellip;" not in page:
            break
        time.sleep(0.1)
    assert "1 new match stored" in page and "<li>store: 1 match</li></ul>" in page, page
