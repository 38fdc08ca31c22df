#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""within.py METRICS...: inside each scripts/bench UML run, does a round's
subbuf/legacy ratio follow the host of that round?  Per metric, Spearman's
rank correlation of the round-by-round ratio with the mean of the two
boots' hostref chase before them (rho(chase)) and with the round's floor
ratio (rho(floor)), and of each flavour's own figure with the chase
(leg~chase, sub~chase); then the median ratio."""
import statistics
import sys

from hoststats import load, spearman

ORDER = ['rbb.reader.ns', 'rbb.noreader.ns', 'tp.ns', 'lat.16k.local.1cpu.mean',
         'lat.1408k.local.1cpu.mean', 'lat.16k.global.1cpu.mean',
         'lat.1408k.global.1cpu.mean', 'lat.floor.1cpu.mean']

for path in sys.argv[1:]:
    boots = load(path)
    rounds = sorted({r for _, r in boots})
    print('#', path, len(rounds), 'rounds')
    print('%-28s %8s %8s %8s %8s %8s' % ('metric', 'rho(chase)', 'rho(floor)', 'leg~chase',
                                         'sub~chase', 'median'))
    for m in ORDER:
        ratio, chase, floor, leg, sub = [], [], [], [], []
        for r in rounds:
            lb, sb = boots.get(('legacy', r), {}), boots.get(('subbuf', r), {})
            if m not in lb or m not in sb:
                continue
            ratio.append(sb[m] / lb[m])
            leg.append(lb[m])
            sub.append(sb[m])
            chase.append((lb['host.before.chase.ns'] + sb['host.before.chase.ns']) / 2)
            floor.append(sb['lat.floor.1cpu.mean'] / lb['lat.floor.1cpu.mean'])
        print('%-28s %8.2f %8.2f %8.2f %8.2f %8.3f' % (
            m, spearman(ratio, chase), spearman(ratio, floor), spearman(leg, chase),
            spearman(sub, chase), statistics.median(ratio)))
