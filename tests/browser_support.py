"""Debian's chromium through Selenium and chromium-driver, for the browser tests (installed by
the Makefile, like bubblewrap; without them those tests are skipped with a reason)."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "results" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

needs_chromium = pytest.mark.skipif(
    not (Path(CHROMIUM).exists() and Path(DRIVER).exists()),
    reason="needs Debian's chromium and chromium-driver (make test installs them)",
)


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless chromium, 1280 x 1000, keeping the page's console log."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000",
                     "--disable-dev-shm-usage", "--allow-file-access-from-files"):  # fmt: skip
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def until(condition: Any, seconds: float = 120) -> Any:
    """The first true value of `condition()`, asked every 0.2 s (a page updates by itself);
    AssertionError after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("the page did not get there in time")
