#!/usr/bin/env python3
"""Proves the layer diagram of docs/architecture.md equals the CMake graph.

Usage: architecture_diagram_test.py DOC BUILD_DIR/ddblab_targets.json

The diagram is the first ```mermaid block of DOC. Its nodes are the folders
that build a library (labelled with the folder: `engine["emulator/engine"]`)
and the executables (labelled with their name: `ddblab(["ddblab"])`); an
arrow `A --> B` (or `A --> B & C`) says that A's target links B's. The graph
is ddblab_targets.json, written by cmake/TargetGraph.cmake: each library
stands for its folder, each executable for itself.

The diagram leaves out an arrow that a path of other arrows implies (the
engine links emulator/api, but so does every path down from it), so what
it must equal is the transitive reduction of the graph: the same edges, no
more, no fewer. It says then exactly what each layer may include
(tests/tools/layering_check.py enforces the same graph on the includes).

Other lines allowed in the block: `flowchart`/`graph`, `subgraph ...`, `end`,
`%%` comments, and node definitions; any other line fails, so that nothing
in the drawing escapes the comparison. On a difference the test prints each
edge missing from the diagram and each one the graph lacks, and fails.
"""
import json
import pathlib
import re
import sys

NODE = r"([A-Za-z_][A-Za-z0-9_]*)"
LABEL = r'(?:\["([^"]+)"\]|\(\["([^"]+)"\]\))'
NODE_DEF = re.compile(rf"^{NODE}{LABEL}$")
EDGE = re.compile(rf"^{NODE}\s*-->\s*({NODE}(?:\s*&\s*{NODE})*)$")
IGNORED = re.compile(r"^(%%.*|flowchart\b.*|graph\b.*|subgraph\b.*|end)$")


def mermaid_block(doc: str) -> tuple[int, list[str]]:
    lines = doc.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == "```mermaid":
            end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
            return i + 2, lines[i + 1:end]
    raise ValueError("no ```mermaid block")


def parse_diagram(doc: str) -> tuple[set[tuple[str, str]], set[str], list[str]]:
    """(edges as label pairs, labels of every node, problems)."""
    first, lines = mermaid_block(doc)
    labels, raw_edges, problems = {}, [], []
    for n, line in enumerate(lines, first):
        line = line.strip()
        if not line or IGNORED.match(line):
            continue
        m = NODE_DEF.match(line)
        if m:
            labels[m.group(1)] = m.group(2) or m.group(3)
            continue
        m = EDGE.match(line)
        if m:
            for dst in re.split(r"\s*&\s*", m.group(2)):
                raw_edges.append((n, m.group(1), dst))
            continue
        problems.append(f"line {n}: not a node, an arrow or a comment: {line}")
    edges = set()
    for n, a, b in raw_edges:
        for node in (a, b):
            if node not in labels:
                problems.append(f"line {n}: node {node} has no definition")
                labels[node] = node
        edges.add((labels[a], labels[b]))
    return edges, set(labels.values()), problems


def graph_edges(targets: dict) -> tuple[set[tuple[str, str]], set[str]]:
    """(edges between folders and executables, every node) of the CMake graph."""
    def node(name):
        t = targets[name]
        return name if t["type"] == "EXECUTABLE" else t["folder"]
    edges = {(node(n), node(l)) for n, t in targets.items()
             for l in t["links"] if l in targets and node(l) != node(n)}
    return edges, {node(n) for n in targets}


def reachable(edges: set[tuple[str, str]], start: str, skip=None) -> set[str]:
    seen, todo = set(), [b for a, b in edges if a == start and (a, b) != skip]
    while todo:
        x = todo.pop()
        if x not in seen:
            seen.add(x)
            todo.extend(b for a, b in edges if a == x)
    return seen


def reduction(edges: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """The edges no other path implies."""
    return {(a, b) for a, b in edges if b not in reachable(edges, a, skip=(a, b))}


def compare(doc: str, targets: dict) -> list[str]:
    drawn, drawn_nodes, problems = parse_diagram(doc)
    edges, nodes = graph_edges(targets)
    want = reduction(edges)
    for n in sorted(nodes - drawn_nodes):
        problems.append(f"node missing from the diagram: {n}")
    for n in sorted(drawn_nodes - nodes):
        problems.append(f"node not in the CMake graph: {n} (a folder that builds "
                        "a library, or an executable's name)")
    for a, b in sorted(want - drawn):
        problems.append(f"arrow missing from the diagram: {a} --> {b}")
    for a, b in sorted(drawn - want):
        if (a, b) in edges or b in reachable(edges, a):
            problems.append(f"arrow implied by a path of others, drop it: {a} --> {b}")
        else:
            problems.append(f"arrow not in the CMake graph: {a} --> {b}")
    return problems


def render(targets: dict) -> str:
    """A mermaid block of the graph's reduction (what the diagram must hold)."""
    edges, nodes = graph_edges(targets)
    ident = {n: re.sub(r"\W", "_", n.split("/")[-1]) for n in nodes}
    out = ["```mermaid", "flowchart TD"]
    for n in sorted(nodes):
        shape = f'(["{n}"])' if n in targets else f'["{n}"]'
        out.append(f"  {ident[n]}{shape}")
    for a, b in sorted(reduction(edges)):
        out.append(f"  {ident[a]} --> {ident[b]}")
    return "\n".join(out + ["```", ""])


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: architecture_diagram_test.py docs/architecture.md "
              "BUILD_DIR/ddblab_targets.json")
        return 2
    doc = pathlib.Path(argv[1]).read_text()
    targets = json.loads(pathlib.Path(argv[2]).read_text())
    failures = 0

    problems = compare(doc, targets)
    print(f"{'ok  ' if not problems else 'FAIL'} {argv[1]}: the layer diagram "
          f"{'equals' if not problems else 'differs from'} the CMake graph")
    for p in problems:
        print(f"  {p}")
    if problems:
        print("  The graph, drawn (arrows implied by a path left out):")
        print("  " + render(targets).replace("\n", "\n  "))
    failures += bool(problems)

    # The comparison itself: the graph drawn passes; a graph with one link
    # more (storage -> value) and one fewer (server -> sigv4) is reported
    # edge by edge.
    drawn = render(targets)
    edited = json.loads(json.dumps(targets))
    edited["ddblab_storage"]["links"].append("ddblab_value")
    edited["ddblab_server"]["links"].remove("ddblab_sigv4")
    want = {"arrow missing from the diagram: emulator/storage --> emulator/value",
            "arrow not in the CMake graph: emulator/server --> common/sigv4"}
    got = set(compare(drawn, edited))
    ok = not compare(drawn, targets) and want <= got
    print(f"{'ok  ' if ok else 'FAIL'} a changed graph is reported edge by edge")
    for w in sorted(want - got):
        print(f"  not reported: {w}")
    failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
