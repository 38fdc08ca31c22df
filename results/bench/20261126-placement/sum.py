import re,sys,statistics as st
print('pad boot  1cpu-mean 1cpu-min  2cpu-mean 2cpu-min')
for n in ['0','16','64','256','1040','2064']:
    for i in '12':
        d='./%s-%s'%(n,i)
        r={1:[],2:[]}; m={1:[],2:[]}
        for l in open(d+'/lat.txt'):
            c=int(l.split()[2])
            r[c].append(float(re.search(r'mean=([\d.]+)',l).group(1)))
            m[c].append(float(re.search(r' min=([\d.]+)',l).group(1)))
        print('%5s %s  %7.1f %5d  %7.1f %5d'%(n,i,st.median(r[1]),st.median(m[1]),st.median(r[2]),st.median(m[2])))
