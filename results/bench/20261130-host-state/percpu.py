#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""percpu.py RUNDIR...: in scripts/bench -s -c runs the two boots of a round
run on two host CPUs at once.  Per metric, Spearman's rank correlation of
the round's subbuf/legacy ratio with the ratio of the hostref chase taken
on the sub-buffer boot's CPU to the one taken on the page-based boot's CPU
before the boots: does one host CPU being slower than the other move the
round's ratio?"""
import sys

from hoststats import METS, load, spearman

print('| run | ' + ' | '.join(METS) + ' |')
print('|---' * (len(METS) + 1) + '|')
for run in sys.argv[1:]:
    boots = load(run.rstrip('/') + '/metrics.txt')
    rounds = sorted({r for _, r in boots})
    cells = []
    for m in METS:
        ratio, chase = [], []
        for r in rounds:
            leg, sub = boots.get(('legacy', r), {}), boots.get(('subbuf', r), {})
            if m in leg and m in sub:
                ratio.append(sub[m] / leg[m])
                chase.append(sub['host.before.chase.ns'] / leg['host.before.chase.ns'])
        cells.append('%.2f' % spearman(ratio, chase))
    print('| %s | %s |' % (run.rstrip('/').split('/')[-1], ' | '.join(cells)))
