import re,sys,glob,statistics as st
for d in sys.argv[1:]:
    L={'local':[],'global':[]}; P={'local':[],'global':[]}; M={'local':[],'global':[]}
    for l in open(d+'/lat.txt'):
        f=l.split(); c=f[1]
        L[c].append(float(re.search(r'mean=([\d.]+)',l).group(1)))
        P[c].append(float(re.search(r'p50=([\d.]+)',l).group(1)))
        M[c].append(float(re.search(r'min=([\d.]+)',l).group(1)))
    cb=open(d+'/clockbench.txt').read()
    g=[int(x) for x in re.findall(r'bench global cpus=1 ns_per_call=(\d+)',cb)]
    lo=[int(x) for x in re.findall(r'bench local cpus=1 ns_per_call=(\d+)',cb)]
    print(d, 'mean l/g %.1f/%.1f ratio %.3f'%(st.median(L['local']),st.median(L['global']),st.median(L['global'])/st.median(L['local'])),
      'p50 ratio %.3f'%(st.median(P['global'])/st.median(P['local'])), 'min %d/%d'%(st.median(M['local']),st.median(M['global'])),
      'clock1cpu l/g',st.median(lo),st.median(g))
