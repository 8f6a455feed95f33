#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""layers.py - check cdm's structure (docs/hacking.md, "Layers").

    tests/tools/layers.py [BUILD_DIR]

src/ is cut into layers, one folder each, from the bottom up:

    base < model < target < engine < plan < format < report < run < cli

and a file may use only its own layer and the layers below it.  Two
readings of "use" are checked, and each must hold:

 1. includes: a source or header of layer L that includes a header of a
    layer above L (include/cdm/<layer>/ or src/<layer>/);
 2. symbols: an object of layer L (BUILD_DIR/src/<layer>/*.o, or
    BUILD_DIR/mpi/src/... for the files only cdm-mpi compiles, read with
    nm) that needs a symbol defined by an object of a layer above L.
    Sources with no object (an engine the build left out, run/mpi.c
    without `make WITH_MPI=yes`) are listed as not checked by symbol.

It also fails on any circle of files: file A uses file B (an include of a
header that B implements, or a symbol that B defines) and B, through any
chain, uses A.

Prints one line per finding and exits 1 when there is any, else prints a
summary and exits 0.  Exit 2: cannot read the tree or the objects.
"""
import os
import re
import subprocess
import sys

LAYERS = ["base", "model", "target", "engine", "plan", "format", "report", "run", "cli"]
RANK = {name: i for i, name in enumerate(LAYERS)}
# "x.h" and <cdm/...> alike: a project header named in angle brackets is
# still a use of its layer
INCLUDE = re.compile(r'^\s*#\s*include\s+(?:"([^"]+)"|<(cdm/[^>]+)>)', re.M)


def layer_of(path):
    """The layer of a repository path, or None for files outside src/."""
    parts = path.split("/")
    if parts[0] == "src" and len(parts) > 2:
        return parts[1]
    if parts[:2] == ["include", "cdm"] and len(parts) > 3:
        return parts[2]
    return None


def sources(top):
    out = []
    for base in ("src", "include/cdm"):
        for d, _, files in os.walk(os.path.join(top, base)):
            for f in files:
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(d, f), top))
    return sorted(out)


def resolve(top, src, inc):
    """The repository path an include names, or None (a system header)."""
    for cand in (os.path.join(os.path.dirname(src), inc), os.path.join("include", inc)):
        cand = os.path.normpath(cand)
        if os.path.exists(os.path.join(top, cand)):
            return cand
    return None


def implementer(header, files):
    """The .c file that implements a header: same name, same layer."""
    name = os.path.splitext(os.path.basename(header))[0]
    layer = layer_of(header)
    c = "src/%s/%s.c" % (layer, name)
    return c if c in files else header


def include_edges(top, files):
    edges, bad = set(), []
    for f in files:
        with open(os.path.join(top, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for quoted, angled in INCLUDE.findall(text):
            target = resolve(top, f, quoted or angled)
            if not target or layer_of(target) is None:
                continue
            a, b = layer_of(f), layer_of(target)
            if RANK.get(b, -1) > RANK.get(a, len(LAYERS)):
                bad.append("%s (%s) includes %s (%s): a layer above it" % (f, a, target, b))
            dst = implementer(target, files)
            src = f if f.endswith(".c") else implementer(f, files)
            if dst != src:
                edges.add((src, dst))
    return edges, bad


def nm(obj, *flags):
    out = subprocess.run(["nm", *flags, obj], capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def objects(build, files):
    """Each source's object: build/src/... (cdm), else build/mpi/src/...
    (the files only cdm-mpi compiles, such as run/mpi.c)."""
    objs = {}
    for sub in ("mpi", ""):
        root = os.path.join(build, sub, "src")
        for d, _, names in os.walk(root):
            for n in names:
                if n.endswith(".o"):
                    obj = os.path.join(d, n)
                    rel = os.path.relpath(obj, os.path.join(build, sub))[:-2] + ".c"
                    if rel in files:
                        objs[rel] = obj
    return objs


def symbol_edges(top, build, files):
    objs = objects(build, files)
    if not objs:
        return None, None
    defined = {}
    for src, obj in objs.items():
        for line in nm(obj, "--defined-only", "-g"):
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBRCVW":
                defined[parts[2]] = src
    edges, bad = set(), []
    for src, obj in objs.items():
        for line in nm(obj, "-u"):
            sym = line.split()[-1]
            dst = defined.get(sym)
            if not dst or dst == src:
                continue
            edges.add((src, dst))
            a, b = layer_of(src), layer_of(dst)
            if RANK[b] > RANK[a]:
                bad.append("%s (%s) uses %s from %s (%s): a layer above it" % (src, a, sym, dst, b))
    return edges, bad


def circles(edges):
    """Strongly connected components of more than one file (Tarjan)."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    top = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    build = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(top, "build")
    files = sources(top)
    if not files:
        print("layers: no sources under %s/src" % top)
        return 2
    findings = []
    for f in files:
        if layer_of(f) not in RANK:
            findings.append("%s: not in a layer (%s)" % (f, " < ".join(LAYERS)))
    inc_edges, bad = include_edges(top, set(files))
    findings += bad
    sym_edges, bad = symbol_edges(top, build, set(files))
    if sym_edges is None:
        print("layers: no objects under %s/src: build first (make)" % build)
        return 2
    findings += bad
    unbuilt = sorted(f for f in files if f.endswith(".c") and f not in objects(build, set(files)))
    for comp in circles(inc_edges | sym_edges):
        findings.append("circle of files: " + " -> ".join(comp))
    for line in findings:
        print("layers: " + line)
    if findings:
        return 1
    if unbuilt:
        # not built here (an engine left out, cdm-mpi not built): their
        # includes were checked, their symbols could not be
        print("layers: symbols not checked (no object): " + " ".join(unbuilt))
    print("layers: %d files in %d layers (%s), %d uses, no upward use, no circle"
          % (len(files), len(LAYERS), " < ".join(LAYERS), len(inc_edges | sym_edges)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
