"""A real headless Chromium for the board's tests, driven by Selenium through Debian's chromedriver.

Nothing is downloaded: Selenium is given /usr/bin/chromedriver and /usr/bin/chromium, so Selenium
Manager never runs. Tests skip (with the reason) only where Chromium or its driver is absent.
"""

from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from typing import Any, Iterator

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1")


def missing() -> str | None:
    """Why the browser tests can't run here, or None."""
    if CHROMIUM is None or CHROMEDRIVER is None:
        return "Debian's chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install selenium)"
    return None


@contextmanager
def chromium(width: int = 1920, height: int = 1080) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="tabletop-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM  # type: ignore[assignment]
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={profile}")
        options.add_argument(f"--window-size={width},{height}")
        driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
        try:
            yield driver
        finally:
            driver.quit()


def set_viewport(driver: Any, width: int, height: int) -> None:
    """The page's viewport exactly (not the window): as a phone or a TV shows it."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


# WCAG 2 contrast of every element's own text against the background it is drawn on.
CONTRAST_JS = r"""
function lum(c) {
  const v = c.match(/[\d.]+/g).slice(0, 3).map(Number).map(x => x / 255)
              .map(x => x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4));
  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}
function background(node) {
  for (let n = node; n; n = n.parentElement) {
    const c = getComputedStyle(n).backgroundColor;
    const parts = c.match(/[\d.]+/g);
    if (parts && (parts.length < 4 || Number(parts[3]) > 0)) return c;
  }
  return "rgb(255, 255, 255)";
}
const out = [];
for (const node of document.querySelectorAll("body *")) {
  const own = [...node.childNodes].some(c => c.nodeType === 3 && c.textContent.trim());
  const style = getComputedStyle(node);
  if (!own || style.display === "none" || style.visibility === "hidden" || node.offsetParent === null
      && style.position !== "fixed") continue;
  const a = lum(style.color), b = lum(background(node));
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  out.push([node.id || node.className || node.tagName, node.textContent.trim().slice(0, 30),
            Math.round(ratio * 100) / 100, parseFloat(style.fontSize), Number(style.opacity)]);
}
return out;
"""

# Every element that is wider inside than it is shown (clipped or scrolled text), and the page.
OVERFLOW_JS = r"""
const out = [];
const root = document.documentElement;
if (root.scrollWidth > root.clientWidth) out.push(["page", root.scrollWidth, root.clientWidth]);
for (const node of document.querySelectorAll("body *")) {
  if (getComputedStyle(node).display === "none") continue;
  if (node.scrollWidth > node.clientWidth + 1 && node.clientWidth > 0)
    out.push([node.id || node.className || node.tagName, node.scrollWidth, node.clientWidth]);
  const box = node.getBoundingClientRect();
  if (box.right > root.clientWidth + 1) out.push([node.id || node.className || node.tagName, "right", box.right]);
}
return out;
"""

# Record, in the page, the wall-clock time of every new version of the board's data.
RECORD_JS = r"""
window.__versions = [];
new MutationObserver(() => {
  window.__versions.push([Number(document.body.dataset.version), performance.timeOrigin + performance.now()]);
}).observe(document.body, {attributes: true, attributeFilter: ["data-version"]});
"""
