#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""crossover.py RUNDIR...: for scripts/bench -s -c runs (legacy on host CPU 0
and subbuf on CPU 1 in odd rounds, the other way in even ones), the median
ratio three ways: over the rounds (as bench takes it), over the odd rounds
and over the even ones alone, and over pairs of rounds (2k-1, 2k) of the
geometric mean of their two ratios, in which a factor that one host CPU
puts on every figure made on it cancels."""
import statistics
import sys

from hoststats import METS, load, ratios

for run in sys.argv[1:]:
    boots = load(run.rstrip('/') + '/metrics.txt')
    rounds = sorted({r for _, r in boots})
    print('# %s, %d rounds' % (run.rstrip('/').split('/')[-1], len(rounds)))
    print('%-28s %7s %7s %7s %7s' % ('metric', 'rounds', 'odd', 'even', 'pairs'))
    for m in METS:
        ratio = ratios(boots, m, rounds)
        pairs = [(ratio[r] * ratio[r + 1]) ** 0.5 for r in rounds
                 if r % 2 == 1 and r in ratio and r + 1 in ratio]
        print('%-28s %7.3f %7.3f %7.3f %7.3f' % (
            m, statistics.median(ratio.values()),
            statistics.median([v for r, v in ratio.items() if r % 2]),
            statistics.median([v for r, v in ratio.items() if not r % 2]),
            statistics.median(pairs)))
