#!/usr/bin/env python3
"""Clang's thread-safety analysis over the engine, the server and the harness
(registered only in a GCC build: built with Clang 16 or later, every
target compiles with -Wthread-safety -Werror, cmake/Warnings.cmake).

Runs `clang++ -fsyntax-only -Wthread-safety -Werror` on every .cc file of
emulator/engine/, emulator/server/ and harness/ (two at a time) and fails if
any of them warns: a member annotated DDBLAB_GUARDED_BY read without its
lock, a DDBLAB_REQUIRES function called without it, a lock still held at the
end of a scope (annotations: emulator/api/thread_annotations.h).

The headers most engine files share are parsed once, into a precompiled
header that every check includes first (the analysis of their inline
functions happens there, once): it halves the check's time, which CI pays
from scratch on two cores.

Needs clang 16 or later (it follows the EngineLock guard returned by
EmulatorImpl::Lock() into the caller; scripts/setup.sh installs clang-16).
Usage: thread_safety_check.py <repo root> [clang++]
"""
import concurrent.futures
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

CANDIDATES = ["clang++-19", "clang++-18", "clang++-17", "clang++-16", "clang++"]
FOLDERS = ["emulator/engine", "emulator/server", "harness"]
# Parsed once into the precompiled header (the ones most files include).
SHARED_HEADERS = ["emulator/engine/emulator_impl.h",
                  "emulator/engine/operations.h",
                  "emulator/engine/request.h",
                  "emulator/engine/keys.h",
                  "emulator/engine/capacity/capacity_ledger.h",
                  "emulator/value/codec.h"]


def clang_major(clang: str) -> int:
    out = subprocess.run([clang, "--version"], capture_output=True, text=True)
    m = re.search(r"clang version (\d+)", out.stdout)
    return int(m.group(1)) if m else 0


def find_clang(explicit):
    for name in ([explicit] if explicit else CANDIDATES):
        path = shutil.which(name)
        if path and clang_major(path) >= 16:
            return path
    return None


def flags(root: pathlib.Path):
    # The define the harness' HTTPS transport is built with.
    return ["-std=c++20", f"-I{root}", "-DCPPHTTPLIB_OPENSSL_SUPPORT",
            "-Wthread-safety", "-Werror"]


def build_pch(clang: str, root: pathlib.Path, folder: pathlib.Path):
    """The shared headers as a precompiled header; (path, output)."""
    header = folder / "shared.h"
    header.write_text("".join(f'#include "{h}"\n' for h in SHARED_HEADERS))
    pch = folder / "shared.pch"
    out = subprocess.run([clang, *flags(root), "-x", "c++-header",
                          str(header), "-o", str(pch)],
                         capture_output=True, text=True)
    return (pch if out.returncode == 0 else None), out.stdout + out.stderr


def check(clang: str, root: pathlib.Path, pch, source: pathlib.Path):
    cmd = [clang, *flags(root), "-fsyntax-only", "-include-pch", str(pch),
           str(source)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    return source, out.returncode, out.stdout + out.stderr


def main(argv) -> int:
    root = pathlib.Path(argv[1]).resolve()
    clang = find_clang(argv[2] if len(argv) > 2 else None)
    if clang is None:
        print("thread_safety_check: no clang++ 16 or later found "
              "(scripts/setup.sh installs clang-16)")
        return 1
    sources = sorted(p for f in FOLDERS for p in (root / f).rglob("*.cc"))
    failed = 0
    with tempfile.TemporaryDirectory() as folder:
        pch, text = build_pch(clang, root, pathlib.Path(folder))
        if pch is None:
            print("thread_safety_check: the shared headers fail:")
            print(text, end="")
            return 1
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            for source, rc, text in pool.map(
                    lambda s: check(clang, root, pch, s), sources):
                if rc != 0:
                    failed += 1
                    print(text, end="")
    print(f"thread_safety_check: {len(sources)} files with {clang}, "
          f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
