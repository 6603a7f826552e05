"""Open every page of a built Sphinx site in headless Chromium and report what did not
render: the docs test's browser check (``tests/test_docs.py``).

The site is served from a local HTTP server on a free port, as a reader's browser would
load it, and Chromium runs with its background networking off, so that a page needing
the network shows up as a request to another host rather than as a slow timeout.
"""

from __future__ import annotations

import functools
import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

#: Pages that present a game: one screenshot each is kept as a build artifact.
GAME_PAGES = (
    "fleet_battles",
    "fighting_fantasy",
    "gamebooks",
    "jeopardy",
    "roguelike/hit_points",
    "roguelike/prd",
    "roguelike/rubber_band",
    "roguelike/softlock",
    "roguelike/generator",
)

#: Chromium's flags for a closed network (the machine refuses its background connections).
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Everything the page shows once MathJax is done (a page without math has no MathJax).
_RENDERED = """async () => {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
        // at most 20 s: a typesetting that never ends shows up as unrendered formulas
        await Promise.race([MathJax.startup.promise, new Promise((r) => setTimeout(r, 20000))]);
    }
    const article = document.querySelector("article") || document.body;
    const maths = Array.from(document.querySelectorAll(".math"));
    const text = Array.from(article.querySelectorAll("p, li, td, th, dd, dt, h1, h2, h3"))
        .filter((e) => !e.closest("pre, code, .highlight, .math"))
        .map((e) => e.textContent).join("\\n");
    return {
        math: maths.length,
        unrendered: maths.filter((m) => !m.querySelector("mjx-container")).length,
        errors: document.querySelectorAll("mjx-merror").length,
        raw: ["\\\\(", "\\\\[", "$$"].filter((d) => text.includes(d)),
        broken: Array.from(document.images)
            .filter((i) => !(i.complete && i.naturalWidth > 0)).map((i) => i.src),
        messages: document.querySelectorAll(".system-message, article div.contents").length,
    };
}"""


def chromium_or_skip() -> str:
    """The path of Chromium; a skip where there is none, unless ``EXACTPROB_REQUIRE_BROWSER``
    is set (then a failure: CI must not skip the check silently)."""
    pytest.importorskip("playwright", reason="the browser check needs playwright")
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    message = "no Chromium on PATH (Debian: apt-get install chromium)"
    if os.environ.get("EXACTPROB_REQUIRE_BROWSER"):
        pytest.fail(message)
    pytest.skip(message)


@contextmanager
def served(site: Path) -> Iterator[str]:
    """``site`` on a local HTTP server; yields its base URL."""

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            if self.path == "/favicon.ico":  # the browser's own guess, not the page's
                self.send_response(204)
                self.end_headers()
                return
            super().do_GET()

    class Server(ThreadingHTTPServer):
        def handle_error(self, request: object, client_address: object) -> None:
            pass  # a browser closing a connection early is not the page's fault

    server = Server(("127.0.0.1", 0), functools.partial(Quiet, directory=site))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def check_site(site: Path, executable: str, screenshots: Path) -> list[str]:
    """One line per problem found on any page of ``site`` (empty when all is well);
    writes ``screenshots/<page>.png`` for each of :data:`GAME_PAGES`."""
    from playwright.sync_api import sync_playwright

    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    problems: list[str] = []
    screenshots.mkdir(parents=True, exist_ok=True)
    with served(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        try:
            for name in pages:
                problems += _check_page(browser, base, name, screenshots)
        finally:
            browser.close()
    return problems


def _check_page(browser: object, base: str, name: str, screenshots: Path) -> list[str]:
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page.set_default_timeout(30_000)  # a page that does not load fails, not hangs
    logged: list[str] = []
    page.on("console", lambda m: logged.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: logged.append(str(e)))
    page.on("request", lambda r: None if r.url.startswith(base) else logged.append(r.url))
    try:
        page.goto(base + name, wait_until="load")
        seen = page.evaluate(_RENDERED)
        stem = name.removesuffix(".html")
        if stem in GAME_PAGES:
            page.screenshot(path=str(screenshots / (stem.replace("/", "-") + ".png")))
    finally:
        page.close()
    problems = [f"{name}: {line}" for line in logged]
    if seen["unrendered"] or seen["errors"]:
        problems.append(
            f"{name}: {seen['unrendered']} of {seen['math']} formulas not rendered, "
            f"{seen['errors']} TeX errors"
        )
    problems += [f"{name}: raw TeX delimiter {d!r} in the text" for d in seen["raw"]]
    problems += [f"{name}: image not loaded: {src}" for src in seen["broken"]]
    if seen["messages"]:
        problems.append(f"{name}: {seen['messages']} error message(s) shown on the page")
    return problems
