#!/usr/bin/env python3
"""Proves the README's Layout section names every folder there is, and no other.

Usage: readme_layout_test.py ROOT

The Layout section's first fenced block lists one folder a line (`emulator/api/
what it holds`; lines starting with a space continue the one above). It must
name every top-level folder of the tree (emulator/, harness/ and common/ by
their layers) and every folder directly under emulator/, harness/ and common/,
and each folder it names must exist. The tree is what git tracks (the build trees and whatever a test left
behind do not count); outside a git checkout, the folders on disk but build*,
hidden ones and node_modules.
"""
import pathlib
import re
import subprocess
import sys

LAYER_TOPS = ("emulator", "harness", "common")


def tree_folders(root: pathlib.Path) -> set[str]:
    """Top-level folders, and the folders directly under LAYER_TOPS."""
    try:
        files = subprocess.run(["git", "-C", str(root), "ls-files"], check=True,
                               capture_output=True, text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        files = [str(p.relative_to(root)) for p in root.rglob("*")
                 if p.is_file() and not any(part.startswith(("build", ".")) or
                                            part == "node_modules"
                                            for part in p.relative_to(root).parts[:-1])]
    out = set()
    for f in files:
        parts = f.split("/")
        if len(parts) > 1:
            out.add(parts[0])
        if len(parts) > 2 and parts[0] in LAYER_TOPS:
            out.add("/".join(parts[:2]))
    return out


def layout_folders(readme: str) -> list[str]:
    m = re.search(r"^## Layout\n(.*?)^```[^\n]*\n(.*?)^```", readme, re.M | re.S)
    if not m:
        raise ValueError("no fenced block under '## Layout'")
    return [line.split()[0].rstrip("/") for line in m.group(2).splitlines()
            if line.strip() and not line[0].isspace()]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: readme_layout_test.py ROOT")
        return 2
    root = pathlib.Path(argv[1])
    listed = layout_folders((root / "README.md").read_text())
    want = tree_folders(root)
    # A top folder is named by its own line or by the lines of its layers.
    named = set(listed) | {f.split("/")[0] for f in listed}
    problems = [f"README.md Layout: {f}/ is in the tree but not listed"
                for f in sorted(want - named)]
    problems += [f"README.md Layout: {f}/ is listed but not in the tree"
                 for f in listed if not (root / f).is_dir()]
    problems += [f"README.md Layout: {f}/ is listed twice"
                 for f in sorted({f for f in listed if listed.count(f) > 1})]
    print("\n".join(problems + [f"readme layout: {len(listed)} folders listed, "
                                 f"{len(problems)} problem(s)"]))
    return int(bool(problems))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
