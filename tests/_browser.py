"""Open a page in headless Chromium and watch it, through the DevTools protocol.

A small client for the tests: it starts Debian's ``chromium`` with a throw-away profile
and the flags this closed network needs, talks to the page over the DevTools websocket
(``websocket-client``, a 100 KB pure-Python package, rather than Playwright's 50 MB
wheel and its Node driver), and reports what a person would care about: console errors,
uncaught exceptions, requests for anything but the file itself, the page's tables as
read from the DOM, and a full-page screenshot.
"""

from __future__ import annotations

import base64
import contextlib
import json
import shutil
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
)
WIDTH = 1280
TIMEOUT = 60.0  # seconds for start-up and for each protocol answer (a shared machine)

# Every table with an id, as {id: [[cell, ...], ...]} (body rows; a numeric cell gives its
# data-count, any other its text).
TABLES_JS = """JSON.stringify(Object.fromEntries([...document.querySelectorAll('table[id]')]
  .map(t => [t.id, [...t.tBodies[0].rows].map(r => [...r.cells].map(
    c => c.dataset.count !== undefined ? c.dataset.count : c.textContent))])))"""


def chromium() -> str | None:
    """The Chromium executable, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


@dataclass
class PageVisit:
    """What happened when a page was opened."""

    errors: list[str] = field(default_factory=list)
    """Console errors, uncaught exceptions and error log entries, in words."""
    requests: list[str] = field(default_factory=list)
    """Every URL the page requested (the page's own included)."""
    tables: dict[str, list[list[str]]] = field(default_factory=dict)
    """The page's tables, read from the DOM after load."""
    title: str = ""
    """``document.title``."""


class _Session:
    def __init__(self, ws_url: str) -> None:
        import websocket  # the test extra; imported here so collection never needs it

        self._ws = websocket.create_connection(ws_url, timeout=TIMEOUT, suppress_origin=True)
        self._next = 0
        self.events: list[dict[str, Any]] = []

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self._next += 1
        self._ws.send(json.dumps({"id": self._next, "method": method, "params": params}))
        while True:
            message = json.loads(self._ws.recv())
            if message.get("id") == self._next:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message["result"]
                return result
            self.events.append(message)

    def wait_for(self, method: str) -> None:
        while not any(event.get("method") == method for event in self.events):
            self.events.append(json.loads(self._ws.recv()))

    def close(self) -> None:
        self._ws.close()


@contextlib.contextmanager
def _browser(executable: str) -> Iterator[str]:
    """Start Chromium; yield the websocket URL of its first page."""
    # Chromium's helper processes (crash handler, zygote) may still write to the profile for
    # a moment after the browser exits: the folder is removed with retries, never failing.
    with tempfile.TemporaryDirectory(
        prefix="urlsift-chromium-", ignore_cleanup_errors=True
    ) as profile:
        process = subprocess.Popen(
            [
                executable,
                *FLAGS,
                f"--user-data-dir={profile}",
                "--remote-debugging-port=0",
                f"--window-size={WIDTH},800",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            port_file = Path(profile, "DevToolsActivePort")
            deadline = time.monotonic() + TIMEOUT
            while not port_file.exists() or not port_file.read_text().strip():
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"chromium did not start (exit {process.poll()})")
                time.sleep(0.05)
            port = port_file.read_text().split()[0]
            # The browser's own HTTP endpoint, on the loopback interface.
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=TIMEOUT) as r:
                targets = json.load(r)
            yield next(t["webSocketDebuggerUrl"] for t in targets if t["type"] == "page")
        finally:
            process.terminate()
            try:
                process.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            for _ in range(50):
                shutil.rmtree(profile, ignore_errors=True)
                if not Path(profile).exists():
                    break
                time.sleep(0.1)


def _describe(event: dict[str, Any]) -> str | None:
    method, params = event.get("method"), event.get("params", {})
    if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
        args = " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
        return f"console.{params['type']}: {args}"
    if method == "Runtime.exceptionThrown":
        details = params.get("exceptionDetails", {})
        return f"exception: {details.get('exception', {}).get('description', details)}"
    if method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
        entry = params["entry"]
        return f"log ({entry.get('source')}): {entry.get('text')} {entry.get('url', '')}"
    if method == "Network.loadingFailed":
        return f"request failed: {params.get('errorText')}"
    return None


def visit(executable: str, page: Path, screenshot: Path | None = None) -> PageVisit:
    """Open ``page`` (a local file), read it, and screenshot the whole page.

    Args:
        executable: Chromium.
        page: the HTML file.
        screenshot: where to write a full-page PNG, if anywhere.

    Returns:
        What the page did and showed.
    """
    with _browser(executable) as ws_url:
        session = _Session(ws_url)
        try:
            for domain in ("Runtime", "Log", "Network", "Page"):
                session.call(f"{domain}.enable")
            session.call("Page.navigate", url=page.resolve().as_uri())
            session.wait_for("Page.loadEventFired")
            values = session.call(
                "Runtime.evaluate",
                expression=f"[{TABLES_JS}, document.title, document.body.scrollHeight]",
                returnByValue=True,
            )["result"]["value"]
            tables, title, height = values
            if screenshot is not None:
                session.call(
                    "Emulation.setDeviceMetricsOverride",
                    width=WIDTH,
                    height=int(height),
                    deviceScaleFactor=1,
                    mobile=False,
                )
                shot = session.call("Page.captureScreenshot", format="png")
                screenshot.parent.mkdir(parents=True, exist_ok=True)
                screenshot.write_bytes(base64.b64decode(shot["data"]))
            session.call("Runtime.evaluate", expression="1")  # drain pending events
        finally:
            session.close()
    result = PageVisit(tables=json.loads(tables), title=title)
    for event in session.events:
        described = _describe(event)
        if described:
            result.errors.append(described)
        if event.get("method") == "Network.requestWillBeSent":
            result.requests.append(event["params"]["request"]["url"])
    return result
