import os; HERE = os.path.dirname(os.path.abspath(__file__))
import numpy as np, math, collections, sys
exec(open(HERE + '/grid.py').read())
exec(open(HERE + '/sites.py').read())
C0,C1,R0,R1 = 23,54,7,25          # inclusive bounds of the map
lon=np.arange(-14,60,0.04); lat=np.arange(18,64,0.04)
LO,LA=np.meshgrid(lon,lat)
land=globe.is_land(LA,LO)
x,y=fwd(LO,LA); hc,hr=tohex(x,y)
# pixel-space land raster for hexside tests
px=(1.5*x).ravel(); py=(S3*y).ravel(); L=land.ravel()
B=0.12
bx=np.floor(px/B).astype(int); by=np.floor(py/B).astype(int)
rast=collections.defaultdict(lambda:[0,0])
for a,b,l in zip(bx,by,L):
    v=rast[(a,b)]; v[0]+=1; v[1]+=int(l)
def land_at(X,Y):
    v=rast.get((int(math.floor(X/B)),int(math.floor(Y/B))))
    return None if not v else v[1]/v[0] >= 0.5
acc=collections.defaultdict(lambda:[0,0,0.0,0.0,0.0,0.0])
for c,r,l,lo_,la_ in zip(hc.ravel(),hr.ravel(),L,LO.ravel(),LA.ravel()):
    if not (C0<=c<=C1 and R0<=r<=R1): continue
    v=acc[(c,r)]; v[0]+=1; v[1]+=int(l); v[2]+=lo_; v[3]+=la_
    if l: v[4]+=lo_; v[5]+=la_
def hid(c,r): return f"{c:02d}{r:02d}"
def cen(c,r): return 1.5*c, S3*(r+(0.5 if c%2 else 0))
def nbrs(c,r):
    if c%2==1: d=[(0,-1),(0,1),(1,0),(1,1),(-1,0),(-1,1)]
    else: d=[(0,-1),(0,1),(1,-1),(1,0),(-1,-1),(-1,0)]
    return [(c+a,r+b) for a,b in d if C0<=c+a<=C1 and R0<=r+b<=R1]
hexes={}
anch={h for h in A}|set(NARROWS)|DOUBLE
for (c,r),v in acc.items():
    f=v[1]/v[0]
    ml=(v[4]/v[1],v[5]/v[1]) if v[1] else (v[2]/v[0],v[3]/v[0])
    hexes[(c,r)]=dict(frac=f,lon=ml[0],lat=ml[1],land=(f>=0.3 or hid(c,r) in anch))
# sides
def seg_water(a,b):
    (x0,y0),(x1,y1)=cen(*a),cen(*b); n=24; run=best=0
    for i in range(n+1):
        t=i/n; l=land_at(x0+(x1-x0)*t,y0+(y1-y0)*t)
        if l is False: run+=1; best=max(best,run)
        else: run=0
    return best/(n+1)
def inter(p1,p2,p3,p4):
    def cr(o,a,b): return (a[0]-o[0])*(b[1]-o[1])-(a[1]-o[1])*(b[0]-o[0])
    d1=cr(p3,p4,p1); d2=cr(p3,p4,p2); d3=cr(p1,p2,p3); d4=cr(p1,p2,p4)
    return (d1>0)!=(d2>0) and (d3>0)!=(d4>0)
def river_px(line):
    out=[]
    for lo_,la_ in line:
        X,Y=fwd(lo_,la_); out.append((1.5*float(X),S3*float(Y)))
    return out
RP={'rhine':river_px(RHINE),'danube':river_px(DANUBE)}
sea_sides=[]; river_sides=collections.defaultdict(list)
for (c,r),h in hexes.items():
    if not h['land']: continue
    for n in nbrs(c,r):
        if n<=(c,r) or n not in hexes or not hexes[n]['land']: continue
        a,b=hid(c,r),hid(*n)
        if a in NARROWS or b in NARROWS:
            pass
        elif seg_water((c,r),n)>=0.3:
            sea_sides.append((a,b)); continue
        for k,pl in RP.items():
            if any(inter(cen(c,r),cen(*n),pl[i],pl[i+1]) for i in range(len(pl)-1)):
                river_sides[k].append((a,b))
print("land",sum(h['land'] for h in hexes.values()),"sea sides",len(sea_sides),{k:len(v) for k,v in river_sides.items()},file=sys.stderr)
import json
json.dump(dict(hexes={hid(*k):v for k,v in hexes.items()},sea=sea_sides,rivers=river_sides),open(HERE + '/raw.json','w'))
