#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What the zero-loss ladder (scripts/guest/lib.sh zero_loss, REPS=3, five
bisection steps) reports when each 2-s recording at rate r is clean with
probability p(r) and recordings are independent: p(r) a logistic curve
fitted (maximum likelihood, grid) to the clean/lost counts of boot1-3.txt,
then 100000 simulated ladders.  A model, not a measurement: it asks only
how wide a spread the ladder gives with no difference between boots."""
import math
import random

# rate (M/s per CPU): (clean, recordings), warm-ups left out
counts = {2.0: (12, 12), 2.5: (9 + 5, 20), 2.75: (2, 10), 3.0: (0, 10)}


def p_clean(r, r0, s):
    return 1.0 / (1.0 + math.exp((r - r0) / s))


def loglik(r0, s):
    ll = 0.0
    for r, (c, n) in counts.items():
        p = min(max(p_clean(r, r0, s), 1e-12), 1 - 1e-12)
        ll += c * math.log(p) + (n - c) * math.log(1 - p)
    return ll


def ladder(clean):
    """The ladder's result when a recording at rate r is clean if clean(r)
    (also used by ../20261127-half-loss/analyse.py)."""
    def clean3(r):
        return all(clean(r) for _ in range(3))
    r, good, bad = 0.02, 0.0, 0.0
    while r <= 20.0:
        if clean3(r):
            good = r
        else:
            bad = r
            break
        d = f"{r:.6e}"[0]
        r = r * 2 if d == "1" else (r * 5 / 2 if d == "2" else r * 2)
    if bad and good:
        lo, hi = good, bad
        for _ in range(5):
            mid = math.sqrt(lo * hi)
            if clean3(mid):
                lo = mid
            else:
                hi = mid
        good = lo
    return good


def main():
    best = max(((loglik(r0 / 1000, s / 1000), r0 / 1000, s / 1000)
                for r0 in range(2300, 3001, 5) for s in range(20, 401, 5)))
    _, r0, s = best
    print(f"fit: p(clean) = 1 / (1 + exp((r - {r0:.3f}) / {s:.3f}))")
    for r in (2.0, 2.25, 2.5, 2.75, 3.0):
        print(f"  p({r}) = {p_clean(r, r0, s):.2f}")

    rng = random.Random(1)
    res = sorted(ladder(lambda r: rng.random() < p_clean(r, r0, s))
                 for _ in range(100000))
    q = [res[int(len(res) * f)] for f in (0.05, 0.25, 0.5, 0.75, 0.95)]
    print("simulated ladder result, M/s per CPU: 5% {:.2f}, 25% {:.2f}, median {:.2f}, "
          "75% {:.2f}, 95% {:.2f}".format(*q))
    print(f"  min {res[0]:.2f}, max {res[-1]:.2f}")
    obs = [2.51, 2.83, 2.82, 1.84, 2.00, 2.25, 1.84, 2.52, 2.52, 2.52, 2.25, 2.52,
           2.31, 2.00, 2.25, 2.75, 2.67, 1.96]
    lo_sim = sum(1 for x in res if x <= 2.0) / len(res)
    hi_sim = sum(1 for x in res if x >= 2.7) / len(res)
    lo_obs = sum(1 for x in obs if x <= 2.0) / len(obs)
    hi_obs = sum(1 for x in obs if x >= 2.7) / len(obs)
    print(f"at or below 2.0 M: simulated {lo_sim:.3f}, observed {lo_obs:.3f} "
          f"({sum(1 for x in obs if x <= 2.0)} of {len(obs)} sub-buffer boots, 06:15/08:35/11:36)")
    print(f"at or above 2.7 M: simulated {hi_sim:.3f}, observed {hi_obs:.3f} "
          f"({sum(1 for x in obs if x >= 2.7)} of {len(obs)})")


if __name__ == "__main__":
    main()
