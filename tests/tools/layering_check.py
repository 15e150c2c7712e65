#!/usr/bin/env python3
"""Checks the include rules of ../shared/ARCHITECTURE.md and STYLE.md.

Layers point one way: a folder of emulator/ may include only from itself and
the folders before it in LAYERS (api is the bottom; fault/ uses api only).
The harness sees the emulator only through emulator/api/{error,result,clock}.h,
and only harness/backend/inprocess_backend.cc includes emulator/api/emulator.h.
harness/patterns uses harness/backend and nothing else of the harness.
common/ holds leaf libraries (sigv4) that include neither emulator/ nor harness/.
Exit status 1 lists every violation.
"""
import pathlib
import re
import sys

LAYERS = ["api", "value", "expr", "partiql", "storage", "streams", "engine",
          "server"]
ALLOWED = {layer: set(LAYERS[: i + 1]) for i, layer in enumerate(LAYERS)}
ALLOWED["fault"] = {"api", "fault"}
# The engine may use fault injection.
ALLOWED["engine"].add("fault")
ALLOWED["server"].add("fault")
HARNESS_API = {"emulator/api/error.h", "emulator/api/result.h",
               "emulator/api/clock.h", "emulator/api/random.h"}
# harness/patterns may use these harness folders (and HARNESS_API).
HARNESS_PATTERNS = {"backend", "patterns"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def main(root: pathlib.Path) -> int:
    problems = []
    for path in sorted(root.glob("emulator/**/*")):
        if path.suffix not in (".h", ".cc"):
            continue
        layer = path.relative_to(root).parts[1]
        allowed = ALLOWED.get(layer)
        if allowed is None:
            problems.append(f"{path}: folder {layer} is not a known layer")
            continue
        for inc in INCLUDE.findall(path.read_text(errors="replace")):
            parts = inc.split("/")
            if parts[0] != "emulator":
                continue
            if parts[1] not in allowed:
                problems.append(f"{path.relative_to(root)}: includes {inc} "
                                f"({layer} may use only {sorted(allowed)})")
    for path in sorted(root.glob("harness/**/*")):
        if path.suffix not in (".h", ".cc"):
            continue
        rel = str(path.relative_to(root))
        for inc in INCLUDE.findall(path.read_text(errors="replace")):
            if rel.startswith("harness/patterns/") and inc.startswith(
                    "harness/") and inc.split("/")[1] not in HARNESS_PATTERNS:
                problems.append(f"{rel}: includes {inc}; harness/patterns "
                                "may use only harness/backend and emulator/api")
            if not inc.startswith("emulator/"):
                continue
            if inc == "emulator/api/emulator.h" or inc == "emulator/api/options.h":
                if rel == "harness/backend/inprocess_backend.cc":
                    continue
            elif inc in HARNESS_API:
                continue
            problems.append(f"{rel}: includes {inc}; the harness sees the "
                            "emulator only through its Backend")
    for path in sorted(root.glob("common/**/*")):
        if path.suffix not in (".h", ".cc"):
            continue
        for inc in INCLUDE.findall(path.read_text(errors="replace")):
            if inc.split("/")[0] in ("emulator", "harness"):
                problems.append(f"{path.relative_to(root)}: includes {inc}; "
                                "common/ is a leaf")
    for p in problems:
        print(p)
    print(f"layering: {len(problems)} violation(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")))
