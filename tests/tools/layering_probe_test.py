#!/usr/bin/env python3
"""Proves layering_check.py catches what it must, on copies of the real tree.

Usage: layering_probe_test.py ROOT BUILD_DIR/ddblab_targets.json

Each case copies emulator/ (and harness/, common/, cli/ when present) into a temp directory,
adds one probe file or edits the target graph, runs the checker, and asserts
its exit status and the violation it prints. The unchanged copy must pass.
"""
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
CHECK = HERE / "layering_check.py"


def run_case(root, graph, name, probes, graph_edit=None, expect_fail=True,
             expect_text=None):
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for top in ("emulator", "harness", "common", "cli"):
            if (root / top).is_dir():
                shutil.copytree(root / top, tmp / top)
        for rel, text in probes.items():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            (tmp / rel).write_text(text)
        g = json.loads(graph.read_text())
        if graph_edit:
            graph_edit(g)
        (tmp / "targets.json").write_text(json.dumps(g))
        r = subprocess.run([sys.executable, str(CHECK), str(tmp),
                            str(tmp / "targets.json")],
                           capture_output=True, text=True)
        out = r.stdout + r.stderr
        failed = r.returncode != 0
        ok = failed == expect_fail and (expect_text is None or expect_text in out)
        print(f"{'ok  ' if ok else 'FAIL'} {name}")
        if not ok:
            print(f"  exit {r.returncode}, expected {'failure' if expect_fail else 'success'}"
                  + (f" mentioning {expect_text!r}" if expect_text else ""))
            print("  " + out.replace("\n", "\n  "))
        return ok


def main(argv):
    root, graph = pathlib.Path(argv[1]), pathlib.Path(argv[2])
    results = []

    results.append(run_case(root, graph, "the tree as it is passes", {},
                            expect_fail=False))
    # storage/ sits below partiql/ in no chain: the old linear order let this pass.
    results.append(run_case(
        root, graph, "storage header including partiql/ fails",
        {"emulator/storage/probe.h": '#pragma once\n#include "emulator/partiql/parser.h"\n'},
        expect_text="emulator/storage/probe.h: includes emulator/partiql/parser.h"))
    results.append(run_case(
        root, graph, "value header including engine/ fails",
        {"emulator/value/probe.h": '#pragma once\n#include "emulator/engine/table.h"\n'},
        expect_text="emulator/value/probe.h: includes emulator/engine/table.h"))
    # The wire-protocol library may not reach the engine; only the executable may.
    results.append(run_case(
        root, graph, "server library file including engine/ fails",
        {"emulator/server/probe.cc": '#include "emulator/engine/table.h"\n'},
        expect_text="emulator/server/probe.cc: includes emulator/engine/table.h"))
    # The server library is extended through its seam (extensions.h), never
    # by including the composition point or the harness.
    results.append(run_case(
        root, graph, "server library file including cli/ fails",
        {"emulator/server/probe.cc": '#include "cli/control_esm.h"\n'},
        expect_text="emulator/server/probe.cc: includes cli/control_esm.h"))
    results.append(run_case(
        root, graph, "server library file including harness/ fails",
        {"emulator/server/probe.cc": '#include "harness/consumer/host.h"\n'},
        expect_text="emulator/server/probe.cc: includes harness/consumer/host.h"))
    results.append(run_case(
        root, graph, "harness including cli/ fails",
        {"harness/consumer/probe.h": '#pragma once\n#include "cli/control_esm.h"\n'},
        expect_text="harness/consumer/probe.h: includes cli/control_esm.h"))
    results.append(run_case(
        root, graph, "fault/ including anything but api/ fails",
        {"emulator/fault/probe.h": '#pragma once\n#include "emulator/value/number.h"\n'},
        expect_text="emulator/fault/probe.h: includes emulator/value/number.h"))
    results.append(run_case(
        root, graph, "an unknown emulator/ folder fails",
        {"emulator/newthing/probe.h": '#pragma once\n'},
        expect_text="folder emulator/newthing is not in the allow-map"))
    results.append(run_case(
        root, graph, "harness outside the in-process backend including emulator/ fails",
        {"harness/patterns/probe.h": '#pragma once\n#include "emulator/api/emulator.h"\n'},
        expect_text="harness/patterns/probe.h: includes emulator/api/emulator.h"))
    results.append(run_case(
        root, graph, "harness using the vocabulary types (Result, Clock) passes",
        {"harness/patterns/probe.h": '#pragma once\n#include "emulator/api/result.h"\n'
                                     '#include "emulator/api/clock.h"\n'},
        expect_fail=False))
    results.append(run_case(
        root, graph, "common/ including emulator/ fails",
        {"common/sigv4/probe.h": '#pragma once\n#include "emulator/api/clock.h"\n'},
        expect_text="common/sigv4/probe.h: includes emulator/api/clock.h"))
    results.append(run_case(
        root, graph, "in-process backend including engine/ fails",
        {"harness/backend/inprocess_backend.cc": '#include "emulator/engine/table.h"\n'},
        expect_text="inprocess_backend.cc: includes emulator/engine/table.h"))
    results.append(run_case(
        root, graph, "in-process backend including emulator/api/ passes",
        {"harness/backend/inprocess_backend.cc": '#include "emulator/api/emulator.h"\n'},
        expect_fail=False))

    def add_edge(g):
        g["ddblab_storage"]["links"].append("ddblab_value")
    results.append(run_case(
        root, graph, "a CMake link missing from the allow-map fails", {},
        graph_edit=add_edge,
        expect_text="CMake target ddblab_storage (emulator/storage) links"))

    def add_target(g):
        g["ddblab_newthing"] = {"type": "STATIC_LIBRARY", "folder": "emulator/newthing",
                                "sources": [], "links": ["ddblab_api"]}
    results.append(run_case(
        root, graph, "a CMake target missing from the allow-map fails", {},
        graph_edit=add_target, expect_text="CMake target ddblab_newthing"))

    print(f"layering probes: {results.count(False)} failure(s) of {len(results)}")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
