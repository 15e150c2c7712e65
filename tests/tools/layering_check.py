#!/usr/bin/env python3
"""The include rules of ddblab, as one allow-map that equals the CMake graph.

Usage: layering_check.py ROOT TARGETS_JSON

LINKS below is the allow-map: for each folder that builds a library (and for
each executable), the folders whose libraries it links to directly, exactly as
its CMakeLists.txt says. A file may include headers from its own folder and
from every folder reachable through LINKS (CMake links are PUBLIC, so a
dependency's dependencies are visible too); any other `#include "emulator/..."`
or `#include "harness/..."` is a violation.

TARGETS_JSON (written by cmake/TargetGraph.cmake into the build tree as
ddblab_targets.json) is the build's own graph; the check proves the map equals it:
every library and executable under emulator/ and harness/ must be in the map
with the same direct links, and the sources of an executable are checked
against the executable's entry instead of its folder's library.

Folders listed here but absent from the tree are skipped (emulator/fault and
harness/ land later). A folder under emulator/ that is not in the map is a
violation: add it here and to CMake together. Any harness/ folder other than
harness/backend falls under "harness/*": it may include harness/ only.

cli/ is the composition point: its library wires the server to the engine,
the fault layer and the harness, and the `ddblab` executable is its main().
Nothing under emulator/ or harness/ may include cli/.

common/ holds leaf libraries shared by the emulator and the harness (SigV4,
the control token):
they link to nothing of ddblab and include only themselves.

The harness sees the emulator only through its Backend: inside harness/, only
harness/backend/inprocess_backend.{h,cc} may include the emulator's API
(emulator/api/ headers); every harness file may use the shared vocabulary
types of HARNESS_VOCABULARY (Error, Result, Clock, Rng), which the Backend
interface itself is written in.

Exit status 1 lists every violation. Run by ctest as `layering` (and
`layering.probe`, which proves a forbidden include is caught).
"""
import json
import pathlib
import re
import sys

# folder (or "folder:executable") -> folders it links to directly.
LINKS = {
    "emulator/api": set(),
    "emulator/value": {"emulator/api"},
    "emulator/expr": {"emulator/value"},
    "emulator/partiql": {"emulator/value", "emulator/api"},
    "emulator/storage": {"emulator/api"},
    "emulator/streams": {"emulator/storage", "emulator/value", "emulator/api"},
    "emulator/fault": {"emulator/api"},
    "emulator/engine": {"emulator/partiql", "emulator/expr", "emulator/streams",
                        "emulator/storage", "emulator/value", "emulator/api"},
    # The wire protocol library knows nothing of the engine...
    "emulator/server": {"emulator/api", "common/sigv4", "common/control_token"},
    # ...cli/, the composition point, wires it to the engine, the fault
    # layer, the harness's hosted event source mappings and `ddblab run`
    # (harness/scenario) and `ddblab bench` (harness/bench); the `ddblab`
    # executable is its main().
    "cli": {"emulator/server", "emulator/engine", "emulator/fault",
            "common/control_token",
            "harness/consumer", "harness/backend", "harness/scenario",
            "harness/bench"},
    "cli:ddblab": {"cli"},
    # The in-process backend constructs an Emulator, whose implementation
    # lives in engine/; what it may include is narrowed by HARNESS_FACADE.
    # The Backend interface is written in emulator/api's vocabulary types
    # (Result, Error, Clock); HttpBackend signs with common/sigv4 and sends
    # the control token (common/control_token).
    "harness/backend": {"emulator/api", "emulator/engine", "common/sigv4",
                        "common/control_token"},
    "common/sigv4": set(),
    "common/control_token": set(),
    "harness/*": {"harness/backend"},
    # ddblab-consume: event-source mappings from a file against any backend.
    "harness/consumer:ddblab-consume": {"harness/consumer"},
    # `ddblab-run`: the scenario runner's command (run_command.h) only.
    "harness/scenario:ddblab-run": {"harness/scenario"},
}
# Optional edges: a folder may link to these when they exist (fault/ is
# wired into the engine and the server by the faults work).
OPTIONAL_LINKS = {
    "emulator/engine": {"emulator/fault"},
}
HARNESS_FACADE_FILES = {"harness/backend/inprocess_backend.h",
                        "harness/backend/inprocess_backend.cc"}
# What any harness file may include from the emulator: value types only.
HARNESS_VOCABULARY = {"emulator/api/error.h", "emulator/api/result.h",
                      "emulator/api/clock.h", "emulator/api/random.h"}
TOPS = ("emulator", "harness", "common", "cli")
SOURCE_SUFFIXES = (".h", ".cc")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(rel: str) -> str:
    parts = rel.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def map_key(folder: str) -> str | None:
    if folder in LINKS:
        return folder
    if folder.startswith("harness/"):
        return "harness/*"
    return None


def closure(key: str, folder: str, present: set[str]) -> set[str]:
    """Folders a unit may include: its own plus everything it links to."""
    seen, todo = set(), [key]
    while todo:
        k = todo.pop()
        k = k if k in LINKS else (map_key(k) or k)
        for dep in LINKS.get(k, set()) | (OPTIONAL_LINKS.get(k, set()) & present):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    seen.add(folder)
    if key == "harness/*":
        seen |= {p for p in present if p.startswith("harness/")}
    return seen


def load_graph(path: pathlib.Path):
    return json.loads(path.read_text())


def executable_files(graph, root: pathlib.Path) -> dict[str, str]:
    """file (relative to root) -> map key, for sources of executables."""
    out = {}
    for name, t in graph.items():
        if t["type"] != "EXECUTABLE":
            continue
        key = f'{t["folder"]}:{name}'
        for src in t["sources"]:
            p = pathlib.Path(src)
            p = p if p.is_absolute() else root / t["folder"] / p
            try:
                rel = str(p.resolve().relative_to(root.resolve()))
            except ValueError:
                continue
            out[rel] = key
            header = rel[: -len(p.suffix)] + ".h"
            if (root / header).exists():
                out[header] = key
    return out


def check_graph(graph, present: set[str]) -> list[str]:
    """The allow-map must equal the CMake graph, edge for edge."""
    problems = []
    lib_folder = {n: t["folder"] for n, t in graph.items()
                  if t["type"] != "EXECUTABLE"}
    for name, t in sorted(graph.items()):
        folder = t["folder"]
        if t["type"] == "EXECUTABLE":
            key = f"{folder}:{name}"
        else:
            key = map_key(folder)
        if key is None or (key not in LINKS and key != "harness/*"):
            problems.append(f"CMake target {name} ({folder}) has no entry in "
                            "LINKS of tests/tools/layering_check.py")
            continue
        got = {lib_folder[l] for l in t["links"] if l in lib_folder}
        want = LINKS[key] | (OPTIONAL_LINKS.get(key, set()) & present)
        if key == "harness/*":
            bad = {g for g in got if not g.startswith("harness/")}
            bad -= {"harness/backend"}
            if bad:
                problems.append(f"CMake target {name} ({folder}) links "
                                f"{sorted(bad)}; harness folders other than "
                                "harness/backend link only harness/")
            continue
        if got != want:
            problems.append(
                f"CMake target {name} ({folder}) links {sorted(got)} but the "
                f"allow-map says {sorted(want)}: change both together")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: layering_check.py ROOT BUILD_DIR/ddblab_targets.json")
        return 2
    root = pathlib.Path(argv[1])
    graph = load_graph(pathlib.Path(argv[2]))
    # (folder names themselves: folder_of() is for files inside them)
    present = {str(p.relative_to(root)) for top in TOPS
               for p in (root / top).glob("*") if p.is_dir()}
    exe = executable_files(graph, root)
    problems = check_graph(graph, present)
    for top in TOPS:
        for path in sorted((root / top).glob("**/*")):
            if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
                continue
            rel = str(path.relative_to(root))
            folder = folder_of(rel)
            key = exe.get(rel) or map_key(folder)
            if key is None:
                problems.append(f"{rel}: folder {folder} is not in the "
                                "allow-map (LINKS in tests/tools/layering_check.py)")
                continue
            allowed = closure(key, folder, present)
            for inc in INCLUDE.findall(path.read_text(errors="replace")):
                parts = inc.split("/")
                if parts[0] not in TOPS or len(parts) < 2:
                    continue
                # "emulator/engine/x.h" -> emulator/engine; "cli/x.h" -> cli.
                target = "/".join(parts[:2]) if len(parts) > 2 else parts[0]
                if top == "harness" and parts[0] == "emulator":
                    if inc in HARNESS_VOCABULARY:
                        continue
                    if rel not in HARNESS_FACADE_FILES or target != "emulator/api":
                        problems.append(
                            f"{rel}: includes {inc}; the harness sees the emulator "
                            "only through harness/backend's in-process backend, "
                            "which includes emulator/api/ only")
                    continue
                if target not in allowed:
                    problems.append(f"{rel}: includes {inc} ({key} may include "
                                    f"only {sorted(allowed)})")
    for p in problems:
        print(p)
    print(f"layering: {len(problems)} violation(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
