"""The Safety page's restore says how many matches the backup held as `scorebox restore`
does: "1 match", not "1 matches" (found walking the desk as a newcomer, on a store of one)."""

import io
import re

from handmatches import DEVICE, MATCH1, item

from scorebox.store.sqlite import Store
from scorebox.web.app import create_app


def test_a_backup_of_one_match_is_restored_as_one_match(tmp_path):
    db = str(tmp_path / "club.sqlite")
    s = Store(db)
    assert s.add_matches(DEVICE, [item(1, MATCH1)]) == [True]
    s.close()
    c = create_app(db, workdir=str(tmp_path / "work")).test_client()
    t = re.search(r'name="csrf" value="([^"]+)"', c.get("/safety").get_data(as_text=True)).group(1)
    backup = c.post("/safety/backup", data={"csrf": t}).data
    data = {"csrf": t, "backup": (io.BytesIO(backup), "club-backup.sqlite")}
    assert c.post("/safety/restore", data=data, content_type="multipart/form-data").status_code == 302
    page = c.get("/safety").get_data(as_text=True)
    assert "restored the store from club-backup.sqlite: 1 match, checked" in page, page
