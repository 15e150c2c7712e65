#!/usr/bin/python3
"""Runs the vitest suite of @ddblab/test (clients/js/test) with its globalSetup.

    /usr/bin/python3 tests/clients/vitest/run_vitest.py --ddblab BIN

The package's own vitest.config.js starts one `ddblab serve` (DDBLAB_BIN=BIN)
for the run. TMPDIR is a private folder, so that afterwards this checks the
teardown ran: no server's token folder (ddblab-test-*) is left there and no
process of the run still runs. Runs `npm ci` first when clients/js has no
node_modules (scripts/setup.sh installs them). Exit status: 0 passed,
1 failed, 77 node or npm not installed.
"""
import argparse
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "clients" / "js"
SKIP = 77


def still_running(folder):
    """Pids of processes whose command line names `folder`."""
    pids = []
    for proc in pathlib.Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if str(folder).encode() in (proc / "cmdline").read_bytes():
                pids.append(int(proc.name))
        except OSError:
            continue
    return pids


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ddblab", required=True)
    args = ap.parse_args()
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        print("skipped: node/npm not installed (scripts/setup.sh installs them)")
        return SKIP
    vitest = PACKAGE / "node_modules" / "vitest" / "vitest.mjs"
    if not vitest.is_file():
        print("installing clients/js (npm ci) ...", flush=True)
        if subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
                          cwd=PACKAGE).returncode != 0:
            print("FAIL: npm ci failed in clients/js")
            return 1
    private = pathlib.Path(tempfile.mkdtemp(prefix="vitest-ddblab-"))
    try:
        env = dict(os.environ, DDBLAB_BIN=str(pathlib.Path(args.ddblab).resolve()),
                   TMPDIR=str(private), CI="1", NO_COLOR="1")
        for name in ("DDBLAB_ENDPOINT", "DDBLAB_CONTROL_TOKEN", "DDBLAB_ARGS"):
            env.pop(name, None)
        ran = subprocess.run([node, str(vitest), "run"], cwd=PACKAGE, env=env)
        if ran.returncode != 0:
            print(f"FAIL: vitest exited with status {ran.returncode}")
            return 1
        left = sorted(p.name for p in private.glob("ddblab-test-*"))
        pids = still_running(private)
        if pids:
            print(f"FAIL: processes of the run still run: {pids} (stopping them)")
            for pid in pids:
                os.kill(pid, signal.SIGTERM)
            return 1
        if left:
            print(f"FAIL: the teardown left the server's token folder: {left}")
            return 1
        print("ok: vitest passed; its ddblab serve was stopped")
        return 0
    finally:
        shutil.rmtree(private, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
