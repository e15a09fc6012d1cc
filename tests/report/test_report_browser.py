"""report.html as a person sees it: headless Chromium (selenium) at desktop width.

Checks: no SEVERE console entries, every <img> loaded with a non-zero natural size, every
section heading present; saves a screenshot under the test's temporary directory (its path is
printed; run with -s to see it). Skipped, with the reason, where Chromium, its driver or selenium
is missing — never silently passed.
"""

from pathlib import Path

from fltheory.report.sections import TITLES


def test_report_html_renders_in_chromium(small_report, chromium, tmp_path: Path) -> None:
    browser = chromium
    out, _, rep = small_report
    browser.get((out / "report.html").resolve().as_uri())
    images = browser.execute_script(
        "return Array.from(document.images).map(i => "
        "[i.complete, i.naturalWidth, i.naturalHeight, i.alt]);"
    )
    assert len(images) == len(rep["figures"]) > 0
    for complete, width, height, alt in images:
        assert complete and width > 0 and height > 0, f"figure not loaded: {alt}"
    headings = [h.text for h in browser.find_elements("tag name", "h2")]
    for title in TITLES.values():
        assert title in headings, f"missing section heading {title!r}"
    severe = [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"]
    assert not severe, f"console errors: {severe}"
    width = browser.execute_script("return document.documentElement.clientWidth;")
    assert width >= 1000, f"not at desktop width: {width}px"
    shot = tmp_path / "report_first_screen.png"
    assert browser.save_screenshot(str(shot))
    full_height = browser.execute_script("return document.body.scrollHeight;")
    browser.set_window_size(browser.get_window_size()["width"], min(int(full_height) + 200, 16000))
    full = tmp_path / "report_full_page.png"
    assert browser.save_screenshot(str(full))
    print(f"\nscreenshots: {shot} and {full}")
    assert shot.stat().st_size > 10_000
