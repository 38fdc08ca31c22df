#!/usr/bin/env python3
"""Summarise the UML placement experiment: one row per kernel and pass."""
import os, statistics, sys
d = sys.argv[1] if len(sys.argv) > 1 else '.'
keys = ['rbb.reader.ns', 'rbb.noreader.ns', 'lat.floor.1cpu.mean',
        'lat.16k.local.1cpu.mean', 'lat.16k.local.1cpu.p99',
        'lat.1408k.local.1cpu.mean', 'lat.1408k.local.1cpu.p99',
        'lat.1408k.global.1cpu.mean']
rows = {}
for f in ('legacy', 'subbuf'):
    for p in (0, 1024, 2064, 3104):
        for n in (1, 2):
            m = os.path.join(d, f'{f}-{p}-{n}', 'metrics.txt')
            if not os.path.exists(m):
                continue
            v = dict(l.split() for l in open(m) if len(l.split()) == 2)
            rows[f, p, n] = v
print('| flavour | pad | pass | ' + ' | '.join(keys) + ' |')
print('|---' * (len(keys) + 3) + '|')
for (f, p, n), v in sorted(rows.items()):
    print(f'| {f} | {p} | {n} | ' + ' | '.join(v.get(k, '-') for k in keys) + ' |')
print()
print('Per flavour and metric: median over passes per placement, then min / max over placements,')
print('and the ratio subbuf/legacy of the medians over placements, and its range over same-pad pairs.')
for k in keys:
    med = {}
    for f in ('legacy', 'subbuf'):
        med[f] = {}
        for p in (0, 1024, 2064, 3104):
            xs = [float(rows[f, p, n][k]) for n in (1, 2) if (f, p, n) in rows and k in rows[f, p, n]]
            if xs:
                med[f][p] = statistics.median(xs)
    if not med['legacy'] or not med['subbuf']:
        continue
    l, s = list(med['legacy'].values()), list(med['subbuf'].values())
    ratios = [med['subbuf'][p] / med['legacy'][p] for p in med['subbuf'] if p in med['legacy']]
    print(f'{k}: legacy {min(l):g}-{max(l):g} (spread {(max(l)-min(l))/min(l):.3f}), '
          f'subbuf {min(s):g}-{max(s):g} (spread {(max(s)-min(s))/min(s):.3f}); '
          f'ratio of medians {statistics.median(s)/statistics.median(l):.3f}, '
          f'single-placement ratios {min(ratios):.3f}-{max(ratios):.3f}')
