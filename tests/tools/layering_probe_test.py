#!/usr/bin/env python3
"""Proves layering_check.py catches what it must, on the real tree and graph.

Usage: layering_probe_test.py ROOT BUILD_DIR/ddblab_targets.json

Three kinds of case:
  - the tree as it is passes;
  - the include matrix: one copy of the tree gets, in every layer (every
    folder that builds a library), one probe header per other layer that
    includes a real header of it. Every include of a layer the CMake graph
    does not put below it (a layer above it, or beside it) must be reported,
    by file and include, and every include of a layer below it must pass
    (harness files excepted: they reach the emulator through
    harness/backend only, which cases of their own prove). The case fails
    unless each harness/ and emulator/ layer had at least one upward include
    reported. Expectations come from the graph, computed here independently
    of the checker, so a layer the checker lumps with another shows up;
  - graph edits: the real tree with a changed ddblab_targets.json, for the
    rules the graph itself must keep and to prove the layers follow it.
"""
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
CHECK = HERE / "layering_check.py"
TOPS = ("common", "emulator", "harness", "cli")


def run_check(root: pathlib.Path, graph: dict) -> tuple[int, list[str]]:
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "targets.json"
        path.write_text(json.dumps(graph))
        r = subprocess.run([sys.executable, str(CHECK), str(root), str(path)],
                           capture_output=True, text=True)
    lines = (r.stdout + r.stderr).splitlines()
    return r.returncode, [l for l in lines if not l.startswith("layering: ")]


RESULTS: list[bool] = []


def report(name: str, ok: bool, detail: list[str]) -> bool:
    RESULTS.append(ok)
    print(f"{'ok  ' if ok else 'FAIL'} {name}")
    for d in detail if not ok else []:
        print(f"  {d}")
    return ok


def layers_and_reach(graph: dict) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """folder -> libraries in it; folder -> folders it may include."""
    libs: dict[str, set[str]] = {}
    for name, t in graph.items():
        if t["type"] != "EXECUTABLE":
            libs.setdefault(t["folder"], set()).add(name)
    below: dict[str, set[str]] = {}
    for folder, names in libs.items():
        seen, todo = set(), [l for n in names for l in graph[n]["links"]]
        while todo:
            t = todo.pop()
            if t in graph and t not in seen:
                seen.add(t)
                todo.extend(graph[t]["links"])
        below[folder] = {graph[t]["folder"] for t in seen} - {folder}
    return libs, below


def a_header(root: pathlib.Path, folder: str) -> str:
    """A real header of `folder` (the check reads include paths only, so a
    folder without one gets a made-up name)."""
    headers = sorted((root / folder).glob("*.h")) or sorted((root / folder).glob("**/*.h"))
    return str(headers[0].relative_to(root)) if headers else f"{folder}/probe_target.h"


def matrix_case(root: pathlib.Path, graph: dict) -> None:
    libs, below = layers_and_reach(graph)
    probes, must_fail, must_pass = {}, set(), set()
    upward: dict[str, list[str]] = {f: [] for f in libs}
    beside: dict[str, int] = {f: 0 for f in libs}
    for f in sorted(libs):
        for g in sorted(libs):
            if g == f:
                continue
            rel = f"{f}/layering_probe_{g.replace('/', '_')}.h"
            inc = a_header(root, g)
            if g in below[f]:
                if f.startswith("harness/") and g.startswith("emulator/"):
                    continue  # the harness gate: cases below
                must_pass.add(rel)
            else:
                must_fail.add(f"{rel}: includes {inc}")
                if f in below[g]:
                    upward[f].append(g)
                else:
                    beside[f] += 1
            probes[rel] = f"#pragma once\n#include \"{inc}\"\n"
    # The harness reaches the emulator only through the in-process backend,
    # and that only through emulator/api/; vocabulary types are for everyone.
    facade = "harness/backend/inprocess_backend"
    probes[f"{facade}.h"] = '#pragma once\n#include "emulator/api/emulator.h"\n'
    probes[f"{facade}.cc"] = '#include "emulator/engine/table.h"\n'
    must_fail.add(f"{facade}.cc: includes emulator/engine/table.h")
    probes["harness/patterns/layering_probe_facade.h"] = (
        '#pragma once\n#include "emulator/api/emulator.h"\n')
    must_fail.add("harness/patterns/layering_probe_facade.h: includes emulator/api/emulator.h")
    probes["harness/patterns/layering_probe_vocabulary.h"] = (
        '#pragma once\n#include "emulator/api/result.h"\n#include "emulator/api/clock.h"\n')
    must_pass.add("harness/patterns/layering_probe_vocabulary.h")
    # A folder that builds no library is no layer.
    probes["emulator/newthing/probe.h"] = "#pragma once\n"
    must_fail.add("folder emulator/newthing holds sources but builds no library")
    probes["emulator/value/layering_probe_newthing.h"] = (
        '#pragma once\n#include "emulator/newthing/probe.h"\n')
    must_fail.add("emulator/value/layering_probe_newthing.h: includes emulator/newthing/probe.h")

    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for top in TOPS:
            if (root / top).is_dir():
                shutil.copytree(root / top, tmp / top)
        for rel, text in probes.items():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp / rel).write_text(text)
        status, lines = run_check(tmp, graph)

    missing = sorted(e for e in must_fail if not any(l.startswith(e) for l in lines))
    unexpected = sorted(l for l in lines if not any(l.startswith(e) for e in must_fail))
    report(f"include matrix: {len(must_fail)} forbidden includes reported, "
           f"{len(must_pass)} allowed ones pass",
           status == 1 and not missing and not unexpected,
           [f"exit {status}"] + [f"not reported: {m}" for m in missing]
           + [f"reported, not expected: {u}" for u in unexpected])
    for f in sorted(libs):
        if not f.startswith(("harness/", "emulator/")):
            continue
        ups = upward[f]
        mine = [m for m in missing if m.startswith(f"{f}/layering_probe_")]
        report(f"{f}: upward includes fail ({', '.join(ups) or 'none'}; "
               f"{beside[f]} beside it fail too)",
               bool(ups) and not mine,
               [f"not reported: {m}" for m in mine]
               + ([] if ups else [f"{f} has no layer above it to probe"]))


def graph_case(root, graph, name, edit, expect_text) -> None:
    g = json.loads(json.dumps(graph))
    edit(g)
    status, lines = run_check(root, g)
    ok = status == 1 and any(expect_text in l for l in lines)
    report(name, ok, [f"exit {status}, expected a line with {expect_text!r}"] + lines)


def main(argv):
    root = pathlib.Path(argv[1])
    graph = json.loads(pathlib.Path(argv[2]).read_text())
    status, lines = run_check(root, graph)
    report("the tree as it is passes", status == 0, lines)
    matrix_case(root, graph)

    def link(frm, to):
        return lambda g: g[frm]["links"].append(to)
    graph_case(
        root, graph, "an emulator library linking a harness library fails",
        link("ddblab_storage", "ddblab_backend"),
        "ddblab_storage (emulator/storage) links ddblab_backend (harness/backend), "
        "which is above it")
    graph_case(
        root, graph, "a library linking cli/ fails",
        link("ddblab_scenario", "ddblab_cli"),
        "ddblab_scenario (harness/scenario) links ddblab_cli (cli), which is above it")
    graph_case(
        root, graph, "a common/ library linking an emulator library fails",
        link("ddblab_sigv4", "ddblab_api"),
        "common/ libraries link only common/ libraries")
    graph_case(
        root, graph, "a harness folder but backend linking the emulator fails",
        link("ddblab_patterns", "ddblab_engine"),
        "harness folders other than harness/backend link only harness/")
    graph_case(
        root, graph, "a cycle of links fails",
        link("ddblab_value", "ddblab_streams"), "is in a cycle of links")

    # The layers follow the graph: without its link to partiql/, the engine's
    # PartiQL operations may not include it.
    def drop_partiql(g):
        g["ddblab_engine"]["links"].remove("ddblab_partiql")
    graph_case(
        root, graph, "a link dropped from the graph makes its includes fail",
        drop_partiql, "(emulator/partiql is not below emulator/engine in the CMake graph")

    print(f"layering probes: {RESULTS.count(False)} failure(s) of {len(RESULTS)}")
    return 0 if all(RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
