#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""select.py RUNDIR...: a first try at taking the per-CPU spells out of a
-s -c run's median: keep only the rounds whose two boots' hostref chase
(each taken on its own host CPU before the boot) are within a bound of
each other (1.10, 1.15, 1.20), and print the median ratio of each
per-event metric over the rounds kept, with how many were kept."""
import statistics
import sys

from hoststats import METS, load, ratios

for bound in (1.10, 1.15, 1.20):
    print('bound %.2f; %s' % (bound, ' '.join(METS)))
    for run in sys.argv[1:]:
        boots = load(run.rstrip('/') + '/metrics.txt')
        rounds = sorted({r for _, r in boots})
        keep = []
        for r in rounds:
            a = boots[('subbuf', r)]['host.before.chase.ns']
            b = boots[('legacy', r)]['host.before.chase.ns']
            if max(a, b) / min(a, b) <= bound:
                keep.append(r)
        cells = []
        for m in METS:
            v = list(ratios(boots, m, keep).values())
            cells.append('%.3f' % statistics.median(v) if v else '-')
        print('  %-24s %2d/%2d %s' % (run.rstrip('/').split('/')[-1], len(keep), len(rounds),
                                      ' '.join(cells)))
