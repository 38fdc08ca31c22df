#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The half-loss boots of this directory: each boot's estimate, the
recordings pooled per flavour into a logistic p(clean) curve (maximum
likelihood on a grid), and on that curve, with every recording
independent and every boot alike, the spread of the two statistics of
thrbench.sh: the zero-loss ladder (lib.sh zero_loss: 1-2-5 from 20000,
REPS=3, five bisection steps) and the half-loss steps (lib.sh half_loss,
16 recordings from the ladder's rate).  A model, not a measurement: it
says how far each statistic moves by the chance of single recordings.
Usage: analyse.py FILE...  (halfloss.sh outputs: run<R>-<flavour>-<B>.txt)"""
import importlib.util
import math
import os
import random
import re
import sys
from collections import defaultdict

# the ladder's model, as ../20261127-zl-stalls/ simulated it
_spec = importlib.util.spec_from_file_location("ladder_sim", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "20261127-zl-stalls", "ladder-sim.py"))
ladder_sim = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ladder_sim)


def read(path):
    """Recordings of the half-loss part (rate, lost) and the estimate."""
    recs, est, on = [], None, False
    for line in open(path):
        if line.startswith("# half-loss recordings"):
            on = True
        elif line.startswith("half_loss "):
            est = int(line.split()[1])
        elif on and re.match(r"^\d+ \d+ \d+ -?\d+ \d+$", line):
            f = line.split()
            recs.append((int(f[0]) / 1e6, int(f[3]) > 0))
    return recs, est


def fit(recs):
    def ll(r0, s):
        t = 0.0
        for r, lost in recs:
            p = 1 / (1 + math.exp((r - r0) / s))
            p = min(max(p, 1e-12), 1 - 1e-12)
            t += math.log(1 - p if lost else p)
        return t
    return max((ll(a / 1000, b / 1000), a / 1000, b / 1000)
               for a in range(2000, 3501, 5) for b in range(10, 401, 5))[1:]


def half_loss(clean, start, n=16):
    """lib.sh half_loss, in thousandths of the logarithm as there."""
    x, step, up, acc = 0, 240, None, []
    for _ in range(n):
        ok = clean(start * math.exp(x / 1000))
        if step == 40:
            acc.append(x)
        if up is not None and up != ok and step > 40:
            step = max(step // 2, 40)
        up = ok
        x = x + step if ok else x - step
    if len(acc) < 4:
        return None
    return start * math.exp(((sum(acc) + x) // (len(acc) + 1)) / 1000)


def pct(v, q):
    v = sorted(v)
    return v[int(q * (len(v) - 1))]


boots = defaultdict(list)
pooled = defaultdict(list)
for path in sys.argv[1:]:
    m = re.search(r"run(\d+)-(\w+)-(\d+)\.txt$", path)
    recs, est = read(path)
    boots[(m.group(1), m.group(2))].append(est)
    pooled[m.group(2)] += recs
    print(f"{path}: estimate {est / 1e6:.3f} M, {len(recs)} recordings, "
          f"{sum(lost for _, lost in recs)} lost")
for (run, flav), ests in sorted(boots.items()):
    ests = sorted(e / 1e6 for e in ests)
    print(f"run {run} {flav}: {', '.join(f'{e:.3f}' for e in ests)} M; "
          f"median {ests[(len(ests) - 1) // 2]:.3f}")
rng = random.Random(1)
for flav, recs in sorted(pooled.items()):
    r0, s = fit(recs)
    print(f"{flav}: {len(recs)} recordings; p(clean) = 1 / (1 + exp((r - {r0:.3f}) / {s:.3f}))")
    for r in sorted(set(r for r, _ in recs)):
        n = [lost for q, lost in recs if q == r]
        print(f"  {r:.3f} M: {len(n) - sum(n)} of {len(n)} clean")

    def clean(r):
        return rng.random() < 1 / (1 + math.exp((r - r0) / s))
    lad, hal = [], []
    for _ in range(20000):
        z = ladder_sim.ladder(clean)
        lad.append(z)
        h = half_loss(clean, z)
        if h:
            hal.append(h)
    for name, v in (("ladder", lad), ("half-loss", hal)):
        print(f"  simulated {name}: median {pct(v, 0.5):.3f} M, 5-95% "
              f"{pct(v, 0.05):.3f}-{pct(v, 0.95):.3f} M ({len(v)} of 20000 with a figure)")
