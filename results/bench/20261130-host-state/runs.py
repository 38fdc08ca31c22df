#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""runs.py RUNDIR...: one line per scripts/bench UML run, the host's state
beside the run's median subbuf/legacy ratios.

Host columns: medians over all the run's boots (both flavours) of hostref's
dependent multiply-add (ns per iteration, the core's speed) and random
pointer chase through 1408 KiB (ns per load), both taken before each boot,
and of the host's steal time during the boots; the page-based kernel's
floor (event disabled: two clock reads) and its 4-byte event at 1408 KiB
(local clock), ns, medians over its boots.  Ratio columns: the median over
the rounds of the round-by-round subbuf/legacy ratio, the mean of the two
middle values for an even number, as scripts/bench-compare takes it.
Prints a Markdown table."""
import statistics
import sys

from hoststats import load, ratios

RATIOS = [('rbb.reader.ns', 'rbb reader'), ('rbb.noreader.ns', 'rbb no reader'),
          ('tp.ns', 'tracepoint'), ('lat.16k.local.1cpu.mean', 'event 16 KiB'),
          ('lat.1408k.local.1cpu.mean', 'event 1408 KiB')]


def med(values):
    return statistics.median(values) if values else float('nan')


print('| run | rounds | multiply-add ns | chase ns | steal % | page-based floor ns '
      '| page-based event 1408 KiB ns | ' + ' | '.join(n for _, n in RATIOS) + ' |')
print('|---' * (7 + len(RATIOS)) + '|')
for run in sys.argv[1:]:
    boots = load(run.rstrip('/') + '/metrics.txt')
    rounds = sorted({r for _, r in boots})
    every = list(boots.values())
    legacy = [boots[('legacy', r)] for r in rounds if ('legacy', r) in boots]
    cells = [med([b['host.before.alu.ns'] for b in every if 'host.before.alu.ns' in b]),
             med([b['host.before.chase.ns'] for b in every if 'host.before.chase.ns' in b]),
             med([b['host.steal.pct'] for b in every if 'host.steal.pct' in b]),
             med([b['lat.floor.1cpu.mean'] for b in legacy]),
             med([b['lat.1408k.local.1cpu.mean'] for b in legacy])]
    out = ['%.3f' % cells[0], '%.1f' % cells[1], '%.2f' % cells[2], '%.1f' % cells[3],
           '%.1f' % cells[4]]
    for metric, _ in RATIOS:
        out.append('%.3f' % med(list(ratios(boots, metric, rounds).values())))
    print('| %s | %d | %s |' % (run.rstrip('/').split('/')[-1], len(rounds), ' | '.join(out)))
