"""report.html as a person sees it: headless Chromium (selenium) at desktop width.

Checks: no SEVERE console entries, every <img> loaded with a non-zero natural size, every
section heading present; saves a screenshot under the test's temporary directory (its path is
printed; run with -s to see it). Skipped, with the reason, where Chromium, its driver or selenium
is missing — never silently passed.
"""

import shutil
from pathlib import Path

import pytest

from fltheory.report.sections import TITLES

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
DRIVER = "chromedriver"
DESKTOP = (1366, 900)


def _browser() -> tuple[str, str]:
    binary = next((path for name in CHROMIUM if (path := shutil.which(name))), None)
    driver = shutil.which(DRIVER)
    if binary is None or driver is None:
        pytest.skip(
            f"headless Chromium not found (browser: {binary}, {DRIVER}: {driver}); "
            "install the Debian packages chromium and chromium-driver"
        )
    return binary, driver


def test_report_html_renders_in_chromium(small_report, tmp_path: Path) -> None:
    webdriver = pytest.importorskip(
        "selenium.webdriver", reason="selenium is not installed (pip install selenium)"
    )
    binary, driver_path = _browser()
    out, _, rep = small_report
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={DESKTOP[0]},{DESKTOP[1]}",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=driver_path)
    try:
        browser = webdriver.Chrome(options=options, service=service)
    except Exception as err:  # the browser is installed but cannot start here
        pytest.skip(f"Chromium did not start: {type(err).__name__}: {str(err).splitlines()[0]}")
    try:
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
        browser.set_window_size(DESKTOP[0], min(int(full_height) + 200, 16000))
        full = tmp_path / "report_full_page.png"
        assert browser.save_screenshot(str(full))
        print(f"\nscreenshots: {shot} and {full}")
        assert shot.stat().st_size > 10_000
    finally:
        browser.quit()
