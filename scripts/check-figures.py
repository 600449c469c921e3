#!/usr/bin/env python3
"""check-figures.py — figures the docs quote are the measured ones (docs/rv32-size.md "Figures").

Two sources, each optional:
  --size FW_SIZE     the RV32 image's size report ($(O)/qemu-rv32/fw.size, written by every
                     build): the image size, headroom and cold segment quoted in README.md and
                     docs/rv32-size.md. Runs in `make test` (suite docs-figures).
  --bench RESULTS    `make bench`'s figure lines ($(O)/bench/results.txt): every figure of the
                     README's bench table must be the measured one (exact under -icount; the
                     two host-timed ones within 0.1 %; links.sh's, which depend on the host's
                     pace, not checked), and so must the RV32 boot_insns quoted in prose. Runs in
                     `make bench-docs` (after make bench; a results file from another tree
                     would be a false alarm in make test).
Each check prints "PASS: docs-figures/<name>" or "FAIL: docs-figures/<name>: <why>". A sentence
that no longer holds its figure fails too (the check names it), so a rewrite updates this list.
Exit 0 when everything passed, 1 otherwise, 2 on bad usage or unreadable input.

Usage: check-figures.py [--root DIR] [--size FW_SIZE] [--bench RESULTS]
"""
import os
import re
import subprocess
import sys

RV32_WINDOW = 8192      # the instruction window (docs/hardware.md §4)
RV32_BUDGET = 7680      # the bench budget of the RV32 image (bench/check.sh imem_bytes)


def num(s):
    return int(s.replace(',', ''))


def kb1(n):
    """Bytes as the docs write a segment size: kilobytes of 1,000, one decimal ("8.9")."""
    return '%.1f' % (n / 1000.0)


def parse_size(path):
    """text, cold-code and free scratchpad bytes from a fw.size report."""
    out = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            m = re.match(r'\s+text\s+(\d+)\s*$', line)
            if m:
                out['text'] = int(m.group(1))
            m = re.match(r'\s+cold code \(DRAM\)\s+(\d+)\s*$', line)
            if m:
                out['cold'] = int(m.group(1))
            m = re.match(r'scratchpad used\s+\d+\s*/\s*\d+ bytes \((\d+) free\)', line)
            if m:
                out['spad_free'] = int(m.group(1))
    if len(out) != 3:
        raise ValueError('%s: no "text", "cold code (DRAM)" or "scratchpad used" line' % path)
    return out


def parse_bench(path):
    """{(board, figure): value string} from "bench <board> <figure> <value> <unit>" lines."""
    out = {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            w = line.split()
            if len(w) >= 4 and w[0] == 'bench':
                out[(w[1], w[2])] = w[3]
    if not out:
        raise ValueError('%s: no bench lines' % path)
    return out


def flat(root, rel):
    """A doc's text with every run of white space as one space (sentences wrap anywhere)."""
    with open(os.path.join(root, rel), encoding='utf-8') as f:
        return ' '.join(f.read().split())


class Report:
    def __init__(self):
        self.bad = 0

    def check(self, name, ok, why):
        if ok:
            print('PASS: docs-figures/%s' % name)
        else:
            print('FAIL: docs-figures/%s: %s' % (name, why))
            self.bad = 1


def prose(rep, root, rel, name, pattern, want):
    """Every match of `pattern` (on the flattened text of `rel`) has its groups equal to the
    strings in `want`, commas ignored; no match at all fails."""
    text = flat(root, rel)
    hits = list(re.finditer(pattern, text))
    if not hits:
        rep.check(name, False, '%s: the sentence /%s/ is gone: update scripts/check-figures.py'
                  % (rel, pattern))
        return
    for m in hits:
        got = [g.replace(',', '') for g in m.groups()]
        exp = [w.replace(',', '') for w in want]
        if got != exp:
            rep.check(name, False, '%s quotes "%s"; measured: %s' % (rel, m.group(0),
                                                                       ', '.join(want)))
            return
    rep.check(name, True, '')


def check_size(rep, root, size):
    t, c = size['text'], size['cold']
    prose(rep, root, 'README.md', 'readme-rv32-image-bytes',
          r'The RV32 image is ([\d,]+) bytes of its 8 KB', [str(t)])
    prose(rep, root, 'README.md', 'readme-cold-segment-kb',
          r'sums the whole ([\d.]+) KB cold segment', [kb1(c)])
    prose(rep, root, 'docs/rv32-size.md', 'rv32-size-headroom',
          r'([\d,]+) bytes (under|over) the bench budget \(([\d,]+) of 7,680\), ([\d,]+) under the window',
          [str(abs(RV32_BUDGET - t)), 'under' if t <= RV32_BUDGET else 'over', str(t),
           str(RV32_WINDOW - t)])
    prose(rep, root, 'docs/rv32-size.md', 'rv32-size-dram-used',
          r'belong to the firmware \(([\d.]+) KB used\)', [kb1(c)])
    prose(rep, root, 'docs/rv32-size.md', 'rv32-size-scratchpad-free',
          r'([\d.]+) KB of the scratchpad is still free', [kb1(size['spad_free'])])


# Figures the README's table may quote from another run: links.sh's round trips and bytes
# depend on how fast the host polls (docs/bench.md), and the two host-timed figures may move by
# 0.1 % between runs (bench/same.sh). Every other figure is exact under -icount.
HOST_TIMED = ('host_driven_ns', 'host_vs_fw_ratio')


def same_figure(fig, quoted, measured):
    if quoted == measured:
        return True
    if fig in HOST_TIMED:
        try:
            q, m = float(quoted), float(measured)
        except ValueError:
            return False
        # the ratio is printed to one decimal: allow that rounding as well
        return m > 0 and abs(q - m) <= max(0.001 * m, 0.05 if fig == 'host_vs_fw_ratio' else 0)
    return False


def check_bench(rep, root, bench, results):
    with open(os.path.join(root, 'README.md'), encoding='utf-8') as f:
        readme = f.read().split('\n')
    head = '| figure | unit | qemu-rv32 | qemu-rv64 | budget (rv32 / rv64) |'
    if head not in readme:
        rep.check('readme-bench-table', False, 'README.md has no bench table ("%s")' % head)
    else:
        rows, bad = {}, []
        for line in readme[readme.index(head) + 2:]:
            cells = [c.strip() for c in line.strip().strip('|').split('|')]
            if not line.startswith('|') or len(cells) != 5:
                break
            rows[cells[0]] = cells
        for (board, fig), val in sorted(bench.items()):
            if fig.startswith('link_'):
                continue
            col = 2 if board == 'qemu-rv32' else 3
            if fig not in rows:
                bad.append('%s is not in the table' % fig)
            elif not same_figure(fig, rows[fig][col], val):
                bad.append('%s %s quoted %s, measured %s' % (board, fig, rows[fig][col], val))
        rep.check('readme-bench-table', not bad,
                  'README.md: %s (paste the rows of %s from bench/table.sh %s)'
                  % ('; '.join(bad[:4]), 'the figures named', results) if bad else '')
    # The one missed figure the README's prose quotes: RV32 enumeration's cycles.
    enum = bench.get(('qemu-rv32', 'enum_cycles'))
    if enum is None:
        rep.check('readme-enum-cycles', False, '%s has no qemu-rv32 enum_cycles' % results)
    else:
        prose(rep, root, 'README.md', 'readme-enum-cycles',
              r'RV32 `enum_cycles` \(([\d,]+) against 60,000', [enum])


def main(argv):
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    size_path = bench_path = None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ('--root', '--size', '--bench') and args:
            v = args.pop(0)
            if a == '--root':
                root = v
            elif a == '--size':
                size_path = v
            else:
                bench_path = v
        else:
            print(__doc__.strip().split('\n')[-1])
            return 2
    if not size_path and not bench_path:
        print('check-figures: give --size and/or --bench')
        return 2
    rep = Report()
    try:
        if size_path:
            check_size(rep, root, parse_size(size_path))
        if bench_path:
            check_bench(rep, root, parse_bench(bench_path), bench_path)
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print('FAIL: docs-figures/input: %s' % e)
        return 2
    return rep.bad


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
