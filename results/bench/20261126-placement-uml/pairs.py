#!/usr/bin/env python3
"""What one boot per flavour can say, against the median over four placements
in each of the two passes (run in this directory)."""
import statistics
keys = ['rbb.reader.ns', 'rbb.noreader.ns', 'lat.16k.local.1cpu.mean',
        'lat.1408k.local.1cpu.mean', 'lat.16k.local.1cpu.p99', 'lat.1408k.local.1cpu.p99']
pads = (0, 1024, 2064, 3104)


def get(f, p, n, k):
    with open(f'boots/{f}-{p}-{n}/metrics.txt') as fh:
        return float(dict(l.split() for l in fh if len(l.split()) == 2)[k])


for k in keys:
    rs = [get('subbuf', ps, ns, k) / get('legacy', pl, nl, k)
          for ps in pads for ns in (1, 2) for pl in pads for nl in (1, 2)]
    m = [statistics.median([get('subbuf', p, n, k) for p in pads]) /
         statistics.median([get('legacy', p, n, k) for p in pads]) for n in (1, 2)]
    print(f'{k}: any legacy boot vs any subbuf boot {min(rs):.3f}-{max(rs):.3f}; '
          f'median over 4 placements, pass 1 {m[0]:.3f}, pass 2 {m[1]:.3f}')
