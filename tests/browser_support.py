"""Debian's chromium through Selenium and chromium-driver, for the browser tests (installed by
the Makefile, like bubblewrap; without them those tests are skipped with a reason)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests import waiting

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


def screenshot(browser: Any, name: str) -> Path:
    """The page as it shows now, in results/screenshots/NAME.png, in 256 colours (a third of
    the size: `make screenshots` puts some in docs/)."""
    import io

    from PIL import Image

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    image = Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB")
    image.quantize(256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    return path


def until(condition: Any, seconds: float = 120) -> Any:
    """The first true value of `condition()`, asked every 0.05 s until `seconds` have passed
    (a live page updates by itself: this is how a test reads one). A read of an element the
    page replaced meanwhile (StaleElementReferenceException) or has not drawn yet
    (NoSuchElementException) counts as not yet and is asked again."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    return waiting.until(
        condition, seconds, what="the page's state", every=0.05,
        retry=(StaleElementReferenceException, NoSuchElementException),
    )  # fmt: skip


TABLE_CELLS = """
return [...document.querySelectorAll(arguments[0])]
  .map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent));
"""


def table_rows(browser: Any, selector: str) -> list[list[str]]:
    """The cells' text of the rows `selector` finds, read in one script: one rendering of a
    table the page redraws, never a mix of two (and never a stale element)."""
    return list(browser.execute_script(TABLE_CELLS, selector))


def click(find: Any, seconds: float = 120) -> None:
    """Click the element `find()` returns, found again if the page replaced it meanwhile."""

    def clicked() -> bool:
        find().click()
        return True

    until(clicked, seconds)
