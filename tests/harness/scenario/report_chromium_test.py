#!/usr/bin/env python3
"""Opens a `ddblab run --report` page in headless Chromium (Debian `chromium`).

Usage: report_chromium_test.py DDBLAB_RUN SOURCE_DIR ARTIFACT_DIR

Runs scenarios/ordered_writes_sdk_retry_naive.json with seed 3 (a seed that
breaks the invariant) to a report, has Chromium render it (--dump-dom: the DOM
after parsing, as a browser builds it) and checks that the DOM holds one lane
per actor, the steps with a lost answer marked as faults, and the broken
invariant highlighted; then keeps a screenshot in ARTIFACT_DIR/report.png.
Exits 77 (skipped) when chromium is not installed.
"""
import html.parser
import pathlib
import shutil
import subprocess
import sys
import tempfile


class Dom(html.parser.HTMLParser):
    """Collects (tag, classes, data-actor, text) of every element."""

    def __init__(self):
        super().__init__()
        self.elements = []
        self.stack = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        element = {"tag": tag, "class": (a.get("class") or "").split(),
                   "actor": a.get("data-actor"), "text": ""}
        self.elements.append(element)
        if tag not in ("meta", "br", "img", "link"):
            self.stack.append(element)

    def handle_endtag(self, tag):
        if self.stack:
            self.stack.pop()

    def handle_data(self, data):
        for element in self.stack:
            element["text"] += data


def main():
    run, source, artifacts = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("chromium is not installed (apt-get install chromium): skipped")
        return 77
    artifacts.mkdir(parents=True, exist_ok=True)
    report = artifacts / "report.html"
    scenario = source / "scenarios" / "ordered_writes_sdk_retry_naive.json"
    done = subprocess.run([run, str(scenario), "--seed", "3", "--report", str(report)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        print("ddblab-run failed:", done.stdout, done.stderr)
        return 1
    profile = tempfile.mkdtemp(prefix="ddblab_chromium_")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", "--user-data-dir=" + profile]
    dom_text = subprocess.run([chromium, *flags, "--dump-dom", report.as_uri()],
                              capture_output=True, text=True, timeout=120).stdout
    dom = Dom()
    dom.feed(dom_text)
    problems = []
    lanes = [e["actor"] for e in dom.elements if "lane" in e["class"] and e["actor"]]
    if lanes != ["writer#1", "writer#2"]:
        problems.append(f"lanes {lanes}, expected ['writer#1', 'writer#2']")
    steps = [e for e in dom.elements if "step" in e["class"]]
    if len(steps) != 10:
        problems.append(f"{len(steps)} steps, expected 10")
    faults = [e for e in steps if "fault" in e["class"]]
    if not faults or any("its answer was lost" not in e["text"] for e in faults):
        problems.append("no step with a lost answer is marked as a fault")
    violations = [e for e in dom.elements if "violation" in e["class"]]
    if len(violations) != 1 or "an older write arrived last and won" not in violations[0]["text"]:
        problems.append(f"violations in the DOM: {[v['text'] for v in violations]}")
    screenshot = artifacts / "report.png"
    subprocess.run([chromium, *flags, "--window-size=1200,900",
                    "--screenshot=" + str(screenshot), report.as_uri()],
                   capture_output=True, text=True, timeout=120)
    if not screenshot.exists() or screenshot.stat().st_size < 1000 or \
            screenshot.read_bytes()[:8] != b"\x89PNG\r\n\x1a\n":
        problems.append(f"no screenshot at {screenshot}")
    shutil.rmtree(profile, ignore_errors=True)
    for p in problems:
        print(p)
    print(f"report: {len(lanes)} lanes, {len(steps)} steps, {len(faults)} faults, "
          f"{len(violations)} violation; screenshot {screenshot}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
