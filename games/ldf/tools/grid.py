import numpy as np, math
from global_land_mask import globe
exec(open(HERE + '/anchors.py').read())
def xy(h):
    c=int(h[:2]); r=int(h[2:]); return c, r + (0.5 if c%2==1 else 0.0)
M=np.array([[1,lon,lat] for (lon,lat,_) in A.values()])
X=np.array([xy(h)[0] for h in A]); Y=np.array([xy(h)[1] for h in A])
cx=np.linalg.lstsq(M,X,rcond=None)[0]; cy=np.linalg.lstsq(M,Y,rcond=None)[0]
res=np.array([[xy(h)[0]-cx@[1,lo,la], xy(h)[1]-cy@[1,lo,la]] for h,(lo,la,_) in A.items()])
AP=np.array([[lo,la] for (lo,la,_) in A.values()])
def fwd(lon,lat):
    lon=np.asarray(lon,float); lat=np.asarray(lat,float)
    x=cx[0]+cx[1]*lon+cx[2]*lat; y=cy[0]+cy[1]*lon+cy[2]*lat
    # inverse-distance correction of the residuals so every anchor is exact
    d2=(lon[...,None]-AP[:,0])**2+((lat[...,None]-AP[:,1])*1.3)**2+1e-9
    w=1/d2**1.5; w=w/w.sum(-1,keepdims=True)
    # fade the correction with distance so far regions stay affine-ish
    return x+(w*res[:,0]).sum(-1), y+(w*res[:,1]).sum(-1)
S3=math.sqrt(3)
def tohex(x,y):
    # x,y continuous (col, row-with-shift); nearest odd-q hex centre
    x=np.asarray(x); y=np.asarray(y)
    best=None
    c0=np.rint(x).astype(int)
    out_c=np.zeros_like(c0); out_r=np.zeros_like(c0); bd=np.full(x.shape,1e9)
    for dc in (-1,0,1):
        c=c0+dc; sh=np.where(c%2==1,0.5,0.0); r=np.rint(y-sh).astype(int)
        for dr in (-1,0,1):
            rr=r+dr; d=(1.5*(x-c))**2+(S3*(y-(rr+sh)))**2
            m=d<bd; bd=np.where(m,d,bd); out_c=np.where(m,c,out_c); out_r=np.where(m,rr,out_r)
    return out_c,out_r
