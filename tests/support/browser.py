"""Headless Chromium driven over the DevTools protocol, for the report tests.

The protocol runs over a pipe (`--remote-debugging-pipe`: commands on fd 3, replies and
events on fd 4, each a JSON text ended by a NUL byte), so the test needs no websocket
client and opens no port. Debian's `chromium` package provides /usr/bin/chromium.
"""

import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

FLAGS = [
    "--headless",
    "--no-sandbox",  # root in a container
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
]


def find():
    """The Chromium binary, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(Exception):
    pass


class Chromium:
    """One headless browser with one page. Everything the page logged to its console,
    every uncaught exception and every failed load is kept in `problems`."""

    def __init__(self, width=1280, height=900, binary=None):
        self.binary = binary or find()
        if not self.binary:
            raise BrowserError("chromium is not installed (apt-get install -y chromium)")
        self.profile = tempfile.mkdtemp(prefix="scorebox-chromium-")
        r3, self._to_child = os.pipe()  # close-on-exec, as every fd Python opens
        self._from_child, w4 = os.pipe()

        def fds():  # in the child: its ends as fds 3 (it reads) and 4 (it writes), kept over exec
            hi_r = fcntl.fcntl(r3, fcntl.F_DUPFD, 10)
            hi_w = fcntl.fcntl(w4, fcntl.F_DUPFD, 10)
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        self.proc = subprocess.Popen(
            [self.binary, *FLAGS, "--user-data-dir=" + self.profile, "--window-size=%d,%d" % (width, height)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=False,
            preexec_fn=fds,
        )
        for fd in (r3, w4):
            os.close(fd)
        self._buf = b""
        self._next_id = 0
        self.events = []
        self.console = []  # (level, text)
        self.problems = []  # console errors and warnings, exceptions, failed loads
        self.requests = []  # URLs the page asked for
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.page(domain + ".enable")
        self.page(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )

    # --- the pipe -------------------------------------------------------------------------
    def _send(self, msg):
        data = json.dumps(msg).encode() + b"\0"
        while data:
            n = os.write(self._to_child, data)
            data = data[n:]

    def _recv(self, timeout):
        end = time.monotonic() + timeout
        while b"\0" not in self._buf:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self._from_child], [], [], left)[0]:
                raise BrowserError("no answer from chromium in %.0f s" % timeout)
            chunk = os.read(self._from_child, 1 << 16)
            if not chunk:
                raise BrowserError("chromium closed the pipe (exit %s)" % self.proc.poll())
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        msg = json.loads(raw)
        if "method" in msg:
            self._event(msg)
        return msg

    def _event(self, msg):
        self.events.append(msg)
        m, p = msg["method"], msg.get("params", {})
        if m == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            self.console.append((p["type"], text))
            if p["type"] in ("error", "warning", "assert"):
                self.problems.append("console.%s: %s" % (p["type"], text))
        elif m == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            self.problems.append("exception: %s %s" % (d.get("text"), d.get("exception", {}).get("description", "")))
        elif m == "Log.entryAdded":
            e = p["entry"]
            if e["level"] in ("error", "warning"):
                self.problems.append("log.%s: %s %s" % (e["level"], e.get("text"), e.get("url", "")))
        elif m == "Network.requestWillBeSent":
            self.requests.append(p["request"]["url"])
        elif m == "Network.loadingFailed":
            self.problems.append("load failed: %s" % p.get("errorText"))

    def call(self, method, params=None, session=None, timeout=60):
        self._next_id += 1
        msg = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self._send(msg)
        while True:
            got = self._recv(timeout)
            if got.get("id") == msg["id"]:
                if "error" in got:
                    raise BrowserError("%s: %s" % (method, got["error"].get("message")))
                return got.get("result", {})

    def page(self, method, params=None, timeout=60):
        return self.call(method, params, session=self.session, timeout=timeout)

    # --- what a test does -----------------------------------------------------------------
    def open(self, url, timeout=60):
        """Load url and wait for its load event."""
        seen = len(self.events)
        self.page("Page.navigate", {"url": url})
        end = time.monotonic() + timeout
        while True:
            if any(e["method"] == "Page.loadEventFired" for e in self.events[seen:]):
                return
            self._recv(max(0.1, end - time.monotonic()))

    def eval(self, expression, timeout=60):
        """The value of a JS expression (awaited when it is a promise)."""
        got = self.page(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            timeout=timeout,
        )
        if "exceptionDetails" in got:
            d = got["exceptionDetails"]
            raise BrowserError("JS: %s %s" % (d.get("text"), d.get("exception", {}).get("description", "")))
        return got["result"].get("value")

    def settle(self, seconds=0.3):
        """Read events for a moment (late console messages)."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            try:
                self._recv(left)
            except BrowserError:
                return

    def screenshot(self, path, full_page=False):
        import base64

        params = {"format": "png"}
        if full_page:
            size = self.page("Page.getLayoutMetrics")["cssContentSize"]
            params.update(
                captureBeyondViewport=True,
                clip={"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1},
            )
        data = self.page("Page.captureScreenshot", params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except (BrowserError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_child, self._from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
