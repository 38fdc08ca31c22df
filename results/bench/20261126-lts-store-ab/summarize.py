#!/usr/bin/env python3
# Summarize an ab.sh run: ns per entry of ring_buffer_benchmark from its
# elapsed time and writes (finer than its integer "ns per entry"), the
# 4-byte event figures of latbench.sh and the syscall-event figures of
# sysbench.sh and peerbench.sh, old against new, with a two-sided
# Mann-Whitney U test (normal approximation, ties averaged); for
# peerbench.sh also ftrace's cost over each peer's within every boot.
# Usage: summarize.py OUTDIR
import glob, math, os, statistics, sys

out = sys.argv[1]
vals = {}  # (metric, kernel) -> [values]

for d in sorted(glob.glob(os.path.join(out, '*-*'))):
    if not os.path.isdir(d):
        continue
    kernel = os.path.basename(d).split('-')[0]
    rbb = os.path.join(d, 'rbb.txt')
    if os.path.exists(rbb):
        for line in open(rbb):
            f = line.split()
            if len(f) < 10:
                continue
            mode, hit, time_us = f[0], int(f[4]), int(f[9])
            vals.setdefault(('rbb.%s.ns' % mode, kernel), []).append(time_us * 1000.0 / hit)
    met = os.path.join(d, 'metrics.txt')
    boot = {}
    if os.path.exists(met):
        for line in open(met):
            k, v = line.split()
            if k.startswith('lat.') and (k.endswith('.mean') or k.endswith('.p99')):
                vals.setdefault((k, kernel), []).append(float(v))
            elif k.startswith('peer.') or k.startswith('sys.'):
                vals.setdefault((k, kernel), []).append(float(v))
                boot[k] = float(v)
        # ftrace over each peer, within this boot
        for peer in ('perf', 'lttng-ow', 'lttng-dis'):
            k = 'peer.%s.event.ns' % peer
            if 'peer.ftrace.event.ns' in boot and k in boot:
                vals.setdefault(('ratio.ftrace/%s' % peer, kernel), []).append(
                    boot['peer.ftrace.event.ns'] / boot[k])


def mann_whitney(a, b):
    allv = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    ranks = [0.0] * len(allv)
    i = 0
    while i < len(allv):
        j = i
        while j + 1 < len(allv) and allv[j + 1][0] == allv[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2.0 + 1
        i = j + 1
    r1 = sum(r for r, (_, g) in zip(ranks, allv) if g == 0)
    n1, n2 = len(a), len(b)
    u = r1 - n1 * (n1 + 1) / 2.0
    mu, sd = n1 * n2 / 2.0, math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12.0)
    if sd == 0:
        return 1.0
    z = (abs(u - mu) - 0.5) / sd
    return math.erfc(max(z, 0) / math.sqrt(2))


print('| metric | runs each | old median (min-max) | new median (min-max) | new/old | Mann-Whitney p |')
print('|---|---|---|---|---|---|')
for metric in sorted({m for m, _ in vals}):
    a, b = vals.get((metric, 'old'), []), vals.get((metric, 'new'), [])
    if not a or not b:
        continue
    ma, mb = statistics.median(a), statistics.median(b)
    print('| %s | %d / %d | %.3f (%.3f-%.3f) | %.3f (%.3f-%.3f) | %.3f | %.2g |' % (
        metric, len(a), len(b), ma, min(a), max(a), mb, min(b), max(b), mb / ma,
        mann_whitney(a, b)))
