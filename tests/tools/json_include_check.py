#!/usr/bin/env python3
"""Every header of ddblab's own code that names nlohmann:: includes
<nlohmann/json.hpp> (or <nlohmann/json_fwd.hpp>) itself.

The header self-containment check (cmake/HeaderCheck.cmake) passes a header
that gets json.hpp through another ddblab header; this check does not, so a
header keeps compiling when that other header stops including it. Comments
are ignored.
Usage: json_include_check.py <repo root>
"""
import pathlib
import re
import sys

FOLDERS = ["emulator", "harness", "common", "cli"]
INCLUDE = re.compile(r"#include <nlohmann/json(_fwd)?\.hpp>")


def code_of(text: str) -> str:
    """The text without // and /* */ comments."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def problems(root: pathlib.Path):
    for folder in FOLDERS:
        for header in sorted((root / folder).rglob("*.h")):
            code = code_of(header.read_text())
            if "nlohmann::" in code and not INCLUDE.search(code):
                yield (f"{header.relative_to(root)}: names nlohmann:: but does "
                       "not include <nlohmann/json.hpp>")


def main(argv) -> int:
    root = pathlib.Path(argv[1]).resolve()
    found = list(problems(root))
    for line in found:
        print(line)
    print(f"json_include_check: {len(found)} header(s) to fix")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
