"""The desk's pages added for issue 24's last items, driven in the system's Chromium with
Playwright (the fixtures of test_web_browser.py): a member list whose columns are mapped by
hand and a box name edited before saving."""

from test_web_browser import browser, desk, message, page, pytestmark, shot, submit  # noqa: F401


def test_import_with_columns_mapped_and_a_box_name_edited(page, desk, tmp_path):  # noqa: F811
    csv = tmp_path / "members.csv"
    csv.write_text("Member no,Given,Family\n7,Alexandra,Montgomery\n8,Ann,\n9,Zoe,Li\n9,Zoe,Li\n")
    page.goto(desk.url + "archers")
    page.set_input_files("input[name=members]", str(csv))
    submit(page, "text=Preview import")
    assert "No column of names the import knows" in page.content()
    page.select_option("select[name=first]", label="Given")
    page.select_option("select[name=last]", label="Family")
    submit(page, "text=Preview with these columns")
    assert page.locator("table.same tbody tr").count() == 2  # Ann on the roster, Zoe Li repeated
    page.set_viewport_size({"width": 360, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # a phone: the preview fits (it was 372 px)
    page.set_viewport_size({"width": 960, "height": 640})
    box = page.locator('input[aria-label="the box\'s name for Alexandra Montgomery"]')
    assert box.input_value() == "Alexandra M"
    box.fill("Alex Mont")
    shot(page, "import-mapping", tmp_path)
    s = desk.store()
    assert "Zoe Li" not in [r[0] for r in s.archers()]  # nothing saved before Save
    s.close()
    submit(page, "text=Save these archers")
    assert message(page) == "Saved."
    s = desk.store()
    got = {r[0]: r[4] for r in s.archers()}
    s.close()
    assert got["Alex Mont"] == "Alexandra Montgomery" and "Zoe Li" in got
