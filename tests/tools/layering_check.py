#!/usr/bin/env python3
"""The include rules of ddblab: every folder is its own layer, as CMake builds it.

Usage: layering_check.py ROOT TARGETS_JSON

TARGETS_JSON (written by cmake/TargetGraph.cmake into the build tree as
ddblab_targets.json) is the build's own graph: for every library and
executable under common/, emulator/, harness/ and cli/, its folder, its
sources and the ddblab targets it links to. Each folder that builds a library
is one layer (emulator/engine, harness/consumer, common/sigv4, cli, ...); a
subfolder without a library of its own (emulator/engine/ops) belongs to the
layer of the nearest folder above it that has one. A file may include headers
of its own layer and of every layer its library reaches through its links
(ddblab's links are PUBLIC, so a dependency's dependencies are visible too).
An include of any other layer (one above it, one beside it) is a violation,
and so is a source file in a folder that belongs to no layer. The sources of
an executable, and the header next to each, are checked against the
executable's links instead of their folder's library.

Which layer links which is decided in CMake, and drawn in
docs/architecture.md (ctest `docs.architecture` proves the drawing equals the
graph). What the graph alone cannot say is written here, as rules:
  - TOPS is an order: a library links only libraries of its own top or of a
    lower one (emulator/ never reaches harness/, nothing reaches cli/), and
    a common/ library links only common/ libraries (common/sigv4 splits
    query strings with common/text), none of the emulator or the harness;
  - the graph has no cycle (CMake allows cycles between static libraries);
  - harness folders other than HARNESS_GATE (harness/backend) link only
    harness/ libraries: the harness sees the emulator through its Backend;
  - inside harness/, only HARNESS_FACADE_FILES (the in-process backend)
    include the emulator's API (emulator/api/ headers); every harness file may
    use the vocabulary types of HARNESS_VOCABULARY (Error, Result, Clock, Rng),
    in which the Backend interface itself is written, the one duration
    grammar (duration.h), and the annotated Mutex the thread-safety analysis
    checks (mutex.h, thread_annotations.h).

Exit status 1 lists every violation. Run by ctest as `layering` (and
`layering.probe`, which proves that forbidden includes and links are caught).
"""
import json
import pathlib
import re
import sys

# Lowest first: a library links only libraries of its own top or a lower one.
TOPS = ("common", "emulator", "harness", "cli")
HARNESS_GATE = "harness/backend"
HARNESS_FACADE_FILES = {"harness/backend/inprocess_backend.h",
                        "harness/backend/inprocess_backend.cc"}
# What any harness file may include from the emulator: value types only.
HARNESS_VOCABULARY = {"emulator/api/error.h", "emulator/api/result.h",
                      "emulator/api/clock.h", "emulator/api/random.h",
                      "emulator/api/duration.h", "emulator/api/mutex.h",
                      "emulator/api/thread_annotations.h",
                      "emulator/api/fault_draw.h"}
SOURCE_SUFFIXES = (".h", ".cc")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def top_of(folder: str) -> str:
    return folder.split("/")[0]


class Graph:
    """The CMake target graph, reduced to ddblab's own targets."""

    def __init__(self, raw: dict):
        self.targets = raw
        self.links = {n: [l for l in t["links"] if l in raw] for n, t in raw.items()}
        self.layers = {t["folder"] for t in raw.values() if t["type"] != "EXECUTABLE"}

    def reach(self, name: str) -> set[str]:
        """Targets `name` links to, directly or through other targets."""
        seen, todo = set(), list(self.links[name])
        while todo:
            t = todo.pop()
            if t not in seen:
                seen.add(t)
                todo.extend(self.links[t])
        return seen

    def layer_of(self, rel: str) -> str | None:
        """The layer a path (a file or an include) belongs to: its nearest
        folder that builds a library."""
        parts = rel.split("/")[:-1]
        while parts:
            folder = "/".join(parts)
            if folder in self.layers:
                return folder
            parts.pop()
        return None

    def visible(self, names: list[str], own: str) -> set[str]:
        """Layers the units of targets `names` (in folder `own`) may include."""
        out = {own}
        for n in names:
            out |= {self.targets[t]["folder"] for t in self.reach(n)}
        return out


def check_graph(g: Graph) -> list[str]:
    """The rules the CMake graph itself must keep."""
    problems = []
    for name in sorted(g.targets):
        folder = g.targets[name]["folder"]
        rank = TOPS.index(top_of(folder))
        for dep in sorted(g.links[name]):
            dep_folder = g.targets[dep]["folder"]
            if top_of(folder) == "common" and top_of(dep_folder) != "common":
                problems.append(f"CMake target {name} ({folder}) links {dep} "
                                f"({dep_folder}); common/ libraries link only "
                                "common/ libraries")
            elif TOPS.index(top_of(dep_folder)) > rank:
                problems.append(f"CMake target {name} ({folder}) links {dep} "
                                f"({dep_folder}), which is above it: "
                                f"{' < '.join(TOPS)}")
            elif (top_of(folder) == "harness" and folder != HARNESS_GATE
                  and top_of(dep_folder) != "harness"):
                problems.append(f"CMake target {name} ({folder}) links {dep} "
                                f"({dep_folder}); harness folders other than "
                                f"{HARNESS_GATE} link only harness/")
    # A cycle: a target that reaches itself.
    for name in sorted(g.targets):
        if name in g.reach(name):
            problems.append(f"CMake target {name} is in a cycle of links")
    return problems


def executable_files(g: Graph, root: pathlib.Path) -> dict[str, str]:
    """file (relative to root) -> executable, for sources of executables."""
    out = {}
    for name, t in g.targets.items():
        if t["type"] != "EXECUTABLE":
            continue
        for src in t["sources"]:
            p = pathlib.Path(src)
            p = p if p.is_absolute() else root / t["folder"] / p
            try:
                rel = str(p.resolve().relative_to(root.resolve()))
            except ValueError:
                continue
            out[rel] = name
            header = rel[: -len(p.suffix)] + ".h"
            if (root / header).exists():
                out[header] = name
    return out


def check_includes(g: Graph, root: pathlib.Path) -> list[str]:
    problems, homeless = [], set()
    exe = executable_files(g, root)
    libs = {}
    for name, t in g.targets.items():
        if t["type"] != "EXECUTABLE":
            libs.setdefault(t["folder"], []).append(name)
    for top in TOPS:
        for path in sorted((root / top).glob("**/*")):
            if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
                continue
            rel = str(path.relative_to(root))
            layer = g.layer_of(rel)
            if rel in exe:
                unit = exe[rel]
                allowed = g.visible([unit], g.targets[unit]["folder"])
            elif layer is not None:
                unit = layer
                allowed = g.visible(libs[layer], layer)
            else:
                homeless.add(str(path.parent.relative_to(root)))
                continue
            for inc in INCLUDE.findall(path.read_text(errors="replace")):
                if inc.split("/")[0] not in TOPS:
                    continue
                if top == "harness" and inc.startswith("emulator/"):
                    if inc in HARNESS_VOCABULARY:
                        continue
                    if (rel not in HARNESS_FACADE_FILES
                            or not inc.startswith("emulator/api/")):
                        problems.append(
                            f"{rel}: includes {inc}; the harness sees the emulator "
                            "only through harness/backend's in-process backend, "
                            "which includes emulator/api/ only")
                    continue
                target = g.layer_of(inc)
                if target is None:
                    problems.append(f"{rel}: includes {inc}, which is in no "
                                    "layer (no folder above it builds a library)")
                elif target not in allowed:
                    problems.append(
                        f"{rel}: includes {inc} ({target} is not below {unit} "
                        f"in the CMake graph; {unit} may include only "
                        f"{sorted(allowed)})")
    for folder in sorted(homeless):
        problems.append(f"folder {folder} holds sources but builds no library "
                        "(and no folder above it does): give it a CMakeLists.txt")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: layering_check.py ROOT BUILD_DIR/ddblab_targets.json")
        return 2
    root = pathlib.Path(argv[1])
    g = Graph(json.loads(pathlib.Path(argv[2]).read_text()))
    problems = check_graph(g) + check_includes(g, root)
    for p in problems:
        print(p)
    print(f"layering: {len(problems)} violation(s) in {len(g.layers)} layers")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
