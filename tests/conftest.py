"""Fixtures shared by the tests (Hypothesis profiles live in the repository's conftest.py)."""

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
#: The width and height of the browser window for the browser tests (a desktop screen).
DESKTOP = (1366, 900)


@pytest.fixture
def chromium() -> Iterator[Any]:
    """A headless Chromium (selenium) at desktop width, with the browser console log enabled;
    the test is skipped, with the reason, where Chromium, its driver or selenium is missing or
    the browser cannot start here — never silently passed."""
    webdriver = pytest.importorskip(
        "selenium.webdriver", reason="selenium is not installed (pip install selenium)"
    )
    binary = next((path for name in CHROMIUM if (path := shutil.which(name))), None)
    driver = shutil.which("chromedriver")
    if binary is None or driver is None:
        pytest.skip(
            f"headless Chromium not found (browser: {binary}, chromedriver: {driver}); "
            "install the Debian packages chromium and chromium-driver"
        )
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
    service = webdriver.ChromeService(executable_path=driver)
    try:
        browser = webdriver.Chrome(options=options, service=service)
    except Exception as err:  # the browser is installed but cannot start here
        pytest.skip(f"Chromium did not start: {type(err).__name__}: {str(err).splitlines()[0]}")
    try:
        yield browser
    finally:
        browser.quit()
