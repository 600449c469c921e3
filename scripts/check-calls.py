#!/usr/bin/env python3
"""check-calls.py — calls between the firmware's .c files go one way (docs/design.md §3,
docs/firmware.md "Reading paths"): no two files call each other, directly or round a ring.

A file "calls" another when it names a function the other defines (a call, a HAL_COLD entry, a
function pointer taken): text over the sources, comments and strings left out. Functions are
the non-static ones defined in a .c file of a firmware layer (boot, hal, mover, dispatch,
service); a name defined in several files (a variant's two versions, a weak default and its
override) is an edge to each. Calls up by symbol that the layers allow (boot's call of main,
of the fatal hook the service overrides, of hal's cold-segment check) are named in UPCALLS:
they are hooks, not a cycle a reader has to follow.

Usage: check-calls.py [-v] [ROOT]   Prints one "VIOLATION: call cycle a -> b -> ..." per ring
(Tarjan's strongly connected components); -v prints every edge. Exit 0 when there is none.
"""
import importlib.util
import os
import re
import sys

LAYERS = ('boot', 'hal', 'mover', 'dispatch', 'service')
# Called by name from a lower layer on purpose: boot/start.c calls main() and hal_cold_bad(),
# boot/fatal.c the hook the service overrides (its weak default is boot's own).
UPCALLS = {'main', 'kx_fatal_hook', 'hal_cold_bad'}

COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'', re.S)
# A definition at column 0: not static, a return type, the name, the parameters, then `{`.
DEF = re.compile(r'^(?!static\b|typedef\b|extern\b|#)[A-Za-z_][\w \t*]*?[\s*](\w+)\s*\(([^;{}]*?)\)\s*\{', re.M)
IDENT = re.compile(r'\b[A-Za-z_]\w*\b')


def sources(root):
    for top in LAYERS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames.sort()
            for f in sorted(filenames):
                if f.endswith('.c'):
                    yield os.path.relpath(os.path.join(dirpath, f), root)


def strip(text):
    # keep line structure: a comment becomes spaces and its newlines
    return COMMENT.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text)


def other_variant(a, b):
    """a and b are built for different variants (rv32/ and rv64/ folders): never linked together."""
    va = {'rv32', 'rv64'} & set(a.split('/'))
    vb = {'rv32', 'rv64'} & set(b.split('/'))
    return bool(va and vb and va != vb)


def cycles(graph):
    """Every ring once (check-includes.py's Tarjan search, the same graph shape)."""
    spec = importlib.util.spec_from_file_location(
        'check_includes', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'check-includes.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.cycles(graph)


def main(argv):
    verbose = '-v' in argv
    args = [a for a in argv if a != '-v']
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    text, defined = {}, {}
    for src in sources(root):
        with open(os.path.join(root, src), encoding='utf-8', errors='replace') as f:
            text[src] = strip(f.read())
        for m in DEF.finditer(text[src]):
            defined.setdefault(m.group(1), set()).add(src)
    graph = {}
    for src, body in text.items():
        for name in set(IDENT.findall(body)):
            # a hook, or a name the file defines itself (a variant's file calls its own)
            if name in UPCALLS or src in defined.get(name, ()):
                continue
            for tgt in defined.get(name, ()):
                if not other_variant(src, tgt):
                    graph.setdefault(src, set()).add(tgt)
                    if verbose:
                        print('edge: %s -> %s (%s)' % (src, tgt, name))
    bad = 0
    for ring in cycles(graph):
        print('VIOLATION: call cycle %s (each calls the next, round to the first)' % ' -> '.join(ring))
        bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
