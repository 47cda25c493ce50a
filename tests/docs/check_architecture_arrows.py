#!/usr/bin/env python3
"""check_architecture_arrows.py SOURCE_DIR: the arrows between folders in docs/architecture.dot are
the real #include dependencies between the folders of src/.

The model. A folder is a directory directly under src/ (src/sim/flow/ belongs to sim). An arrow
"a -> b" in the dot file's cluster_folders means "a is above b": files of b may include files of a.
Arrows compose, as docs/architecture.md says ("each folder uses only folders above it"), so b may
include every folder from which a path of arrows leads to b. The check compares in both directions:

  1. every real include is allowed: if a non-test file of src/b includes "a/...", then a reaches b
     along the arrows (the transitive closure of the drawing covers the code);
  2. every drawn arrow is used: for each arrow a -> b some non-test file of src/b includes "a/..."
     directly (the drawing holds no arrow the code does not have).

So the drawing lies between the transitive reduction of the real graph and the real graph itself.
The drawing must have no cycle, so a cycle between folders in the code cannot be drawn and fails.

Tests beside their concept (src/**/*_test.cpp) do not make arrows, but they too must be allowed by
the closure (plus tests/support/, seen as "support/", the tests' own seam to the shipped files): a
test that needs a folder below its own belongs under tests/.

Inside a folder there are no include loops either: a module (x.h with x.cpp) that includes,
through any chain of modules, one that includes it back is reported with the loop.

Each offending pair is printed; the exit status is 1 if there is any.
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/', re.M)
MODULE_INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_/]+)\.h"', re.M)
TEST_ONLY_FOLDERS = {"support"}  # tests/support/, on every test's include path


def folder_block(text):
    """The body of `subgraph cluster_folders { ... }` with comments, strings and [attributes] removed."""
    text = re.sub(r"//[^\n]*", "", text)
    start = re.search(r"subgraph\s+cluster_folders\s*\{", text)
    if not start:
        sys.exit("FAIL: docs/architecture.dot has no subgraph cluster_folders")
    depth, i = 1, start.end()
    while depth and i < len(text):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    body = text[start.end():i - 1]
    body = re.sub(r'"(?:[^"\\]|\\.)*"', '""', body)
    return re.sub(r"\[[^\]]*\]", "", body)


def drawn_graph(dot_path):
    """(nodes, arrows) of the folder cluster: a node statement names a folder, a chain a -> b -> c
    gives the arrows a->b and b->c."""
    nodes, arrows = set(), set()
    for statement in re.split(r"[;\n]", folder_block(dot_path.read_text())):
        statement = statement.strip()
        if not statement or "=" in statement:
            continue
        chain = [part.strip() for part in statement.split("->")]
        nodes.update(chain)
        arrows.update(zip(chain, chain[1:]))
    return nodes, arrows


def real_includes(src):
    """{(included_folder, including_folder): first file} for non-test files, and for each test file
    {(included_folder, including_folder, file)}."""
    code, tests = {}, set()
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".h", ".cpp") or not path.is_file():
            continue
        folder = path.relative_to(src).parts[0]
        where = path.relative_to(src.parent).as_posix()
        for used in INCLUDE.findall(path.read_text()):
            if used == folder:
                continue
            if path.name.endswith("_test.cpp"):
                tests.add((used, folder, where))
            else:
                code.setdefault((used, folder), where)
    return code, tests


def module_loops(src):
    """Include loops between modules (a header and its .cpp), each as a list of module names."""
    graph = {}
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".h", ".cpp") or path.name.endswith("_test.cpp"):
            continue
        module = path.relative_to(src).with_suffix("").as_posix()
        uses = graph.setdefault(module, set())
        uses.update(m for m in MODULE_INCLUDE.findall(path.read_text()) if m != module)
    loops, state = [], {}  # state: 1 on the current walk, 2 finished

    def walk(module, trail):
        state[module] = 1
        for used in sorted(graph.get(module, ())):
            if state.get(used) == 1:
                loops.append(trail[trail.index(used):] + [used])
            elif used not in state:
                walk(used, trail + [used])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            walk(module, [module])
    return loops


def closure(nodes, arrows):
    """above[b] = every folder from which arrows lead to b."""
    above = {n: set() for n in nodes}
    changed = True
    while changed:
        changed = False
        for a, b in arrows:
            grown = above[b] | {a} | above[a]
            if grown != above[b]:
                above[b], changed = grown, True
    return above


def main():
    root = pathlib.Path(sys.argv[1])
    src, dot_path = root / "src", root / "docs" / "architecture.dot"
    folders = {p.name for p in src.iterdir() if p.is_dir()}
    nodes, arrows = drawn_graph(dot_path)
    problems = []
    for n in sorted(nodes - folders):
        problems.append(f"node {n} in cluster_folders is not a folder of src/")
    for n in sorted(folders - nodes):
        problems.append(f"src/{n}/ is not a node of cluster_folders")
    code, tests = real_includes(src)
    above = closure(nodes | folders, arrows)
    for n in sorted(n for n in above if n in above[n]):
        problems.append(f"cycle: a path of arrows leads from {n} back to {n} (folders must not use each other)")
    for (used, user), where in sorted(code.items()):
        if used in folders and used not in above[user]:
            problems.append(f"missing arrow: {used} -> {user} ({where} includes \"{used}/...\", "
                            f"but no path of arrows leads from {used} to {user})")
    for a, b in sorted(arrows):
        if (a, b) not in code:
            problems.append(f"extra arrow: {a} -> {b} (no non-test file of src/{b}/ includes \"{a}/...\")")
    for used, user, where in sorted(tests, key=lambda t: (t[2], t[0])):
        if used not in TEST_ONLY_FOLDERS and used not in above[user]:
            problems.append(f"test above its layer: {where} includes \"{used}/...\", which src/{user}/ may "
                            f"not use (move the test to tests/)")
    for loop in module_loops(src):
        problems.append("include loop: " + " -> ".join(loop))
    for p in problems:
        print("FAIL:", p, file=sys.stderr)
    if problems:
        return 1
    print(f"ok: {len(arrows)} arrows between {len(folders)} folders match the includes of src/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
