import os; HERE = os.path.dirname(os.path.abspath(__file__))
import json, math, collections, sys
import numpy as np
exec(open(HERE + '/grid.py').read())
exec(open(HERE + '/sites.py').read())
raw=json.load(open(HERE + '/raw.json'))
H=raw['hexes']; C0,C1,R0,R1=23,54,7,25
def cr(h): return int(h[:2]),int(h[2:])
def hid(c,r): return f"{c:02d}{r:02d}"
def nbrs(h):
    c,r=cr(h)
    d=[(0,-1),(0,1),(1,0),(1,1),(-1,0),(-1,1)] if c%2 else [(0,-1),(0,1),(1,-1),(1,0),(-1,-1),(-1,0)]
    return [hid(c+a,r+b) for a,b in d if hid(c+a,r+b) in H]
def sitehex(lo,la):
    X,Y=fwd(lo,la); c,r=tohex(X,Y); return hid(int(c),int(r))
sea_side={tuple(sorted(s)) for s in raw['sea']}
riv={k:{tuple(sorted(s)) for s in v} for k,v in raw['rivers'].items()}
land={h for h,v in H.items() if v['land']}
def interp(line,key):  # lon->lat for danube, lat->lon for rhine
    pass
def west_of_rhine(lo,la):
    # Rhine as lat->lon (north of 47.6)
    pts=[(4.1,51.9),(5.85,51.84),(6.96,50.94),(7.6,50.36),(8.27,50.0),(8.47,49.49),(7.75,48.58),(7.59,47.56)]
    pts=sorted(pts,key=lambda p:p[1])
    if la<=pts[0][1]: return lo<pts[0][0]
    if la>=pts[-1][1]: return lo<pts[-1][0]+0.5
    for (a,b),(c,d) in zip(pts,pts[1:]):
        if b<=la<=d: return lo < a+(c-a)*(la-b)/(d-b)
def south_of_danube(lo,la):
    pts=[(8.5,47.95),(9.99,48.4),(12.1,49.02),(13.46,48.57),(14.29,48.3),(16.37,48.21),(17.1,48.14),(18.74,47.79),(19.3,46.5),(19.3,45.3),(20.46,44.82),(22.5,44.65),(22.87,44.0),(24.9,43.7),(25.95,43.85),(27.26,44.12),(28.05,45.43),(29.6,45.2)]
    for (a,b),(c,d) in zip(pts,pts[1:]):
        if a<=lo<=c: return la < b+(d-b)*(lo-a)/(c-a)
    return la<45
region={}
for h in land:
    v=H[h]; lo,la=v['lon'],v['lat']
    g='.'
    if lo<2.2 and la>49.8:           # British Isles
        if lo< -5.3 and la>51.3: g='.'   # Hibernia
        elif la<54.9: g='C'
        else: g='B'
    elif la>42 and lo<30:
        if lo<9.0 and la>47.5: g='C' if west_of_rhine(lo,la) else 'B'
        elif la>45.3 and lo>28: g='B'
        else: g='C' if (lo<8.5 or south_of_danube(lo,la)) else 'B'
    elif la>44.0 and lo>=30: g='B'
    elif la>43.3 and lo>=40: g='B'
    elif lo>=41.5 and la<38.6: g='P'
    elif lo>=43 : g='P'
    elif la>=30 and lo<42:
        # Asia Minor, Levant, Egypt north
        g='C' if (lo>=25 or la>=35.5) else ('C' if la>31.3 else '.')
    if la<42 and lo<25 and g=='.':
        # North Africa and southern Europe
        if lo<10.5: g='C' if la>34.0 else '.'
        elif lo<19: g='C' if la>32.2 else '.'
        else: g='C' if la>31.8 else '.'
    if la<42 and lo<30 and la>=36 and g=='.': g='C'
    if 25<=lo<35 and 26<=la<31.5 and lo>28.8: g='C'   # Egypt
    if lo>=35 and la<30.5 and g!='P': g='.'           # Arabia deserta
    if lo>=38.3 and la<35.0 and g=='C': g='.'         # Syrian desert beyond the limes
    region[h]=g
# Roman Mesopotamia (Osrhoene, Mesopotamia province of 235)
for h in land:
    lo,la=H[h]['lon'],H[h]['lat']
    if 38<=lo<=42.3 and 35.8<=la<=38.2: region[h]='C'
places=collections.defaultdict(list)
for n,lo,la,s,f in PLACES:
    h=f or sitehex(lo,la)
    places[h].append((n,s,f is not None))
for n,reg in CAUCASUS.items():
    pass
print(json.dumps({h:[p[0] for p in v] for h,v in places.items()}),file=sys.stderr)
json.dump(dict(region=region,places={h:v for h,v in places.items()}),open('' + HERE + '/cls.json','w'))
def show():
    print("   "+"".join(f"{c%10}" for c in range(C0,C1+1)))
    for r in range(R0,R1+1):
        s=""
        for c in range(C0,C1+1):
            h=hid(c,r)
            if h not in land: s+='~'; continue
            g=region[h]
            if h in places: g=g.lower() if g!='.' else '*'
            if h in NARROWS: g='N'
            s+=g
        print(f"{r:02d} "+s)
show()
