"""The browser tests' harness: a `hinge serve` process, a second origin (python's http.server), headless
Chromium through Debian's chromedriver, and the pass/fail record. Used by scripts/browser-tests.py."""
import http.server
import json
import os
import socket
import subprocess
import tempfile
import threading
import re
import struct
import time
import traceback
import urllib.error
import urllib.request
import zlib

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
API_KEY = "studio-test-key"

results = []  # (name, ok, detail)


def check(name, fn):
    """Runs one check; an exception or a false answer is a failure with its reason."""
    try:
        detail = fn()
        results.append((name, True, detail or ""))
        print(f"ok    {name}" + (f" — {detail}" if detail else ""), flush=True)
    except Exception as error:  # report and go on: every check runs
        reason = f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"
        # Where in the checks it happened: the last frame in scripts/.
        frames = [f for f in traceback.extract_tb(error.__traceback__) if "/scripts/" in f.filename]
        if frames:
            reason += f" ({os.path.basename(frames[-1].filename)}:{frames[-1].lineno})"
        results.append((name, False, reason))
        print(f"FAIL  {name} — {reason}", flush=True)


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Hinge:
    """One `hinge serve` process on a free loopback port with its own temporary database."""

    def __init__(self, binary, extra_args=()):
        self.binary = binary
        self.dir = tempfile.mkdtemp(prefix="hinge-browser-")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(self.dir, "server.log"), "wb")
        self.process = subprocess.Popen(
            [binary, "serve", "--port", str(self.port), "--db", os.path.join(self.dir, "hinge.sqlite"),
             "--threads", "2", "--log-level", "warn", *extra_args],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"hinge {' '.join(extra_args)} exited with {self.process.returncode}: {self.output()}")
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            expect(time.monotonic() < deadline, "hinge did not answer /healthz within 15 s")
            time.sleep(0.05)  # polling for readiness, not synchronising a result

    def output(self):
        self.log.flush()
        with open(os.path.join(self.dir, "server.log"), "rb") as f:
            return f.read().decode(errors="replace")[-400:]

    def picture(self, scene_text, width):
        """The SVG `POST /v1/resolve?format=svg&width=N` answers for a scene (not recorded)."""
        status, _, body = self.request("POST", f"/v1/resolve?format=svg&width={width}", scene_text.encode(),
                                       {"Content-Type": "application/json", "Hinge-Record": "off"})
        expect(status == 200, f"picture of the scene at {width} px: {status} {body[:200]!r}")
        return body.decode()

    def records(self, **query):
        """The request log's items (newest first), with optional filters."""
        path = "/v1/requests?limit=500" + "".join(f"&{k}={v}" for k, v in query.items())
        status, _, body = self.request("GET", path)
        expect(status == 200, f"GET {path}: {status} {body[:200]!r}")
        return json.loads(body)["items"]

    def request(self, method, path, body=None, headers=None):
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


def make_driver(width=1400, height=1000):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--hide-scrollbars", "--force-device-scale-factor=1"]:
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    # The Debian driver, named explicitly: Selenium never fetches one.
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


class Browser:
    """The driver plus the console and network events seen so far, split by what each step allows."""

    def __init__(self, driver):
        self.driver = driver
        self.console = []   # browser-log entries
        self.failures = []  # (url, status or error text)
        self.sent = []      # (method, url, headers) of every request the page sent, in order
        self.unread = []    # log entries read from the driver, not yet looked at by `collect`

    def _drain(self):
        """Moves the driver's new log entries into `unread` (and the requests sent into `sent`)."""
        for entry in self.driver.get_log("browser"):
            self.console.append(entry)
            self.unread.append(("console", entry))
        for entry in self.driver.get_log("performance"):
            event = json.loads(entry["message"])["message"]
            if event["method"] == "Network.requestWillBeSent":
                request = event["params"]["request"]
                self.sent.append((request["method"], request["url"], request.get("headers", {})))
            self.unread.append(("network", event))

    def collect(self, allowed=()):
        """Reads the logs; returns the console errors and failed requests not in `allowed` ((path, status) pairs)."""
        def is_allowed(url, status):
            return any(path in url and status == code for path, code in allowed)

        self._drain()
        unexpected = []
        for source, item in self.unread:
            if source == "console":
                if item["level"] != "SEVERE":
                    continue
                message = item["message"]
                if item.get("source") == "network" and any(
                        path in message and f"status of {code}" in message for path, code in allowed):
                    continue
                unexpected.append(message)
            elif item["method"] == "Network.responseReceived":
                response = item["params"]["response"]
                if response["status"] >= 400 and not is_allowed(response["url"], response["status"]):
                    unexpected.append(f"{response['status']} {response['url']}")
            elif item["method"] == "Network.loadingFailed":
                params = item["params"]
                if not params.get("canceled"):
                    unexpected.append(f"request failed: {params.get('errorText')} ({params.get('type')})")
        self.unread = []
        return unexpected

    def wait(self, condition, what, timeout=15):
        try:
            # A view re-renders while a condition reads it: a stale element means "look again".
            return WebDriverWait(self.driver, timeout, ignored_exceptions=(StaleElementReferenceException,)).until(
                lambda d: condition(d))
        except TimeoutException:
            raise AssertionError(f"timed out waiting for {what}")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def click(self, css):
        """Clicks an element after scrolling it to the middle of the window (clear of the sticky header)."""
        element = self.by(css)
        self.js("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def by(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def set_scene(self, text):
        self.js("const t = document.getElementById('scene-json'); t.value = arguments[0];"
                "t.dispatchEvent(new Event('input', {bubbles: true}));", text)

    def pictures_shown(self):
        return int(self.by("#panel-scene").get_attribute("data-pictures") or "0")

    def picture_pixels(self):
        """The Scene view's wireframe as rendered, read back through a canvas (the page's CSP keeps fetch
        away from blob: URLs, as it should)."""
        return self.js(
            "const i = document.getElementById('scene-picture');"
            "if (!i.complete || !i.naturalWidth) return null;"
            "const c = document.createElement('canvas'); c.width = i.naturalWidth; c.height = i.naturalHeight;"
            "c.getContext('2d').drawImage(i, 0, 0); return c.toDataURL('image/png');")

    def discard(self):
        """Forgets the log entries not looked at yet (what a failed check left behind)."""
        self._drain()
        self.unread = []

    def requests_since(self, mark):
        """The (method, url, headers) the page sent since `mark` (a length of `sent`)."""
        self._drain()
        return self.sent[mark:]

    def element_png(self, css):
        """A screenshot of one element as PNG bytes (what is on screen, CSS filters included)."""
        return self.driver.find_element(By.CSS_SELECTOR, css).screenshot_as_png

    def no_alert(self):
        try:
            alert = self.driver.switch_to.alert
            text = alert.text
            alert.dismiss()
            raise AssertionError(f"an alert opened: {text}")
        except NoAlertPresentException:
            return True

    def shot(self, directory, name, scroll_to=None):
        """A screenshot of the window, scrolled to the top or to the element `scroll_to` (a CSS selector)."""
        self.js("document.activeElement && document.activeElement.blur();"
                "const e = arguments[0] && document.querySelector(arguments[0]);"
                "if (e) e.scrollIntoView(); else window.scrollTo(0, 0);", scroll_to)
        path = os.path.join(directory, name)
        self.driver.save_screenshot(path)
        return os.path.relpath(path, ROOT)


class PageServer:
    """A second origin: python's http.server on another loopback port, serving one small page."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="hinge-plugin-")
        with open(os.path.join(self.dir, "plugin.html"), "w") as f:
            f.write("<!doctype html><title>A design-tool plugin</title><p>plugin</p>")
        # A data: document (origin null) framed by a loopback page, as a plugin's sandboxed UI is framed by its
        # host. A data: tab of its own is not a secure context, and Chromium's local-network-access checks
        # refuse its calls to a loopback address whatever the server answers.
        with open(os.path.join(self.dir, "data-frame.html"), "w") as f:
            f.write("<!doctype html><title>A host page</title>"
                    "<iframe id=plugin src=\"data:text/html,<title>plugin</title><p>data: frame</p>\"></iframe>")
        # Any site's page can hold a sandboxed iframe (origin null): the attack that `--cors-origin null` opens.
        with open(os.path.join(self.dir, "sandbox-frame.html"), "w") as f:
            f.write("<!doctype html><title>Some web page</title>"
                    "<iframe id=plugin sandbox=allow-scripts srcdoc=\"<p>sandboxed frame</p>\"></iframe>")
        handler = lambda *a, **k: QuietHandler(*a, directory=self.dir, **k)
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def png_pixels(data):
    """(width, height, channels, bytes) of an 8-bit, non-interlaced PNG (what Chromium's screenshots are)."""
    expect(data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    expect(depth == 8 and interlace == 0 and colour in (2, 6), f"unexpected PNG format {header}")
    channels = 4 if colour == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * channels
    out = bytearray(height * stride)
    previous = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = previous[x]
            c = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[y * stride:(y + 1) * stride] = line
        previous = line
    return width, height, channels, bytes(out)


def mean_luminance(png):
    """Mean luminance (0…255) of a PNG, sampling every 4th pixel."""
    width, height, channels, pixels = png_pixels(png)
    total, count = 0.0, 0
    for i in range(0, width * height, 4):
        r, g, b = pixels[i * channels:i * channels + 3]
        total += 0.2126 * r + 0.7152 * g + 0.0722 * b
        count += 1
    return total / count


def svg_text_px(svg, shown_width):
    """The smallest text of an SVG, in CSS pixels, when it is shown `shown_width` pixels wide."""
    box = re.search(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"', svg)
    sizes = [float(v) for v in re.findall(r'font-size="([0-9.]+)"', svg)]
    expect(box and sizes, "the picture has no viewBox or no text")
    return min(sizes) * shown_width / float(box.group(1))


def svg_view_width(svg):
    box = re.search(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"', svg)
    expect(box, "the picture has no viewBox")
    return float(box.group(1))
