#!/usr/bin/env python3
"""Checks scenarios/scenario.schema.json against every shipped scenario, and
docs/run-results.schema.json (`ddblab run --json`) against a sample.

Usage: schema_test.py SOURCE_DIR

Every scenarios/*.json and examples/**/*.json scenario file (comments
removed; not package.json and the like) must validate against the schema,
and a few broken copies must not (so the schema is not vacuous). Exits 77
(skipped) when the jsonschema module is missing (Debian: python3-jsonschema).
"""
import copy
import json
import pathlib
import sys


def strip_comments(text):
    """JSON with // and /* */ comments -> JSON (strings left alone)."""
    out, i, in_string = [], 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith("//", i):
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 2
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


# What `ddblab run --json` writes (the shapes run_command_test checks).
RESULTS = {"ddblab_run_results": 1, "results": [
    {"file": "f.json", "scenario": "f", "expect": "violated", "strategy": "pct:3",
     "seconds": 0.5, "seeds": {"from": 1, "to": 20, "shard": 1, "shards": 2},
     "runs": 10, "broke": 1, "held": 9, "first_failing_seed": 3,
     "distinct_schedules": 10, "seeds_per_second": 20.0},
    {"file": "g.json", "scenario": "g", "expect": "holds", "strategy": "exhaustive",
     "seconds": 1.0, "seed": 1, "max_preemptions": 2, "budget": 300, "explored": 300,
     "stopped": 0, "complete": False, "failing_schedule": None,
     "schedules_per_second": 300.0}]}


def check_results_schema(root, jsonschema):
    """docs/run-results.schema.json accepts RESULTS and refuses broken copies."""
    schema = json.loads((root / "docs" / "run-results.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    problems = [f"run-results: {e.json_path}: {e.message}"
                for e in validator.iter_errors(RESULTS)]
    for edit in ("runs", "strategy", "explored", "shard"):
        bad = copy.deepcopy(RESULTS)
        if edit == "runs":
            del bad["results"][0]["runs"]
        elif edit == "strategy":
            bad["results"][0]["strategy"] = "pct:11"
        elif edit == "explored":
            del bad["results"][1]["explored"]
        else:
            bad["results"][0]["seeds"]["shard"] = 0
        if validator.is_valid(bad):
            problems.append(f"run-results: the schema accepts a bad {edit}")
    return problems


def main():
    try:
        import jsonschema
    except ImportError:
        print("python3-jsonschema is not installed: skipped")
        return 77
    root = pathlib.Path(sys.argv[1])
    schema = json.loads((root / "scenarios" / "scenario.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    problems = []
    files = sorted(p for p in (root / "scenarios").glob("*.json")
                   if p.name != "scenario.schema.json")
    files += sorted(p for p in (root / "examples").rglob("*.json")
                    if "node_modules" not in p.parts
                    and not p.name.startswith("package"))
    for path in files:
        doc = json.loads(strip_comments(path.read_text()))
        for error in validator.iter_errors(doc):
            problems.append(f"{path.relative_to(root)}: {error.json_path}: {error.message}")
        broken = []
        for edit in ("window", "variant", "expect", "extra", "effect",
                     "duration", "rule_field"):
            bad = copy.deepcopy(doc)
            if edit == "window":
                bad["actors"][0].setdefault("params", {})["window"] = "5 min"
            elif edit == "variant":
                bad["actors"][0]["variant"] = "fast"
            elif edit == "expect":
                bad["expect"] = "passes"
            elif edit == "effect":
                # A typo in a fault rule's effect.
                bad["faults"] = {"rules": [{"operation": "PutItem",
                                            "effect": "thorttle"}]}
            elif edit == "duration":
                bad["faults"] = {"rules": [{"effect": "latency"}]}
            elif edit == "rule_field":
                bad["faults"] = {"rules": [{"effect": "throttle",
                                            "probabilty": 0.5}]}
            else:
                bad["expct"] = 1
            broken.append((edit, bad))
        for edit, bad in broken:
            if validator.is_valid(bad):
                problems.append(f"{path.name}: the schema accepts it with a bad {edit}")
        # The forms of the one duration grammar (emulator/api/duration.h).
        for tick in ("1.5s", "250ms", "90", 2):
            good = copy.deepcopy(doc)
            good.setdefault("backend", {})["tick"] = tick
            if not validator.is_valid(good):
                problems.append(f"{path.name}: the schema refuses tick {tick!r}")
    problems += check_results_schema(root, jsonschema)
    for p in problems:
        print(p)
    print(f"schema: {len(files)} files, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
