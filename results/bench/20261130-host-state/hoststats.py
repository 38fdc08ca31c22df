# SPDX-License-Identifier: GPL-2.0
"""What runs.py, within.py, crossover.py, percpu.py and select.py share: a run's
metrics.txt per boot, the seven per-event metrics, a metric's
round-by-round ratios, Spearman's rank correlation."""
import collections

METS = ['rbb.reader.ns', 'rbb.noreader.ns', 'tp.ns', 'lat.16k.local.1cpu.mean',
        'lat.16k.global.1cpu.mean', 'lat.1408k.local.1cpu.mean', 'lat.1408k.global.1cpu.mean']


def load(path):
    """{(flavour, round): {metric: value}} of a run's UML boots."""
    boots = collections.defaultdict(dict)
    for line in open(path):
        f = line.split()
        if len(f) == 5 and f[0] == 'uml':
            boots[(f[1], int(f[2]))][f[3]] = float(f[4])
    return boots


def ratios(boots, metric, rounds):
    """{round: subbuf/legacy} of a metric over the given rounds that have
    both flavours' figure."""
    return {r: boots[('subbuf', r)][metric] / boots[('legacy', r)][metric] for r in rounds
            if metric in boots.get(('subbuf', r), {}) and metric in boots.get(('legacy', r), {})}


def rank(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def spearman(a, b):
    a, b = rank(a), rank(b)
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    return cov / (sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b)) ** 0.5
