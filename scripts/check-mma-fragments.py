#!/usr/bin/env python3
# Model check (no GPU, pure Python, ~1 min): the index math of lowerMmaDot in
# lib/Conversion/TileToGPU/DotOpToGPU/MMAv2.cpp, transcribed, run against the PTX
# ISA semantics of ldmatrix (.trans) and mma.sync m16n8k16 fragments, for
# every shared orientation and several warp grids (with N replication).
# Keep it in step with the C++ when changing either.
import sys

import random
class Mat:
    def __init__(s,r,c): s.r,s.c=r,c; s.d=[[0.0]*c for _ in range(r)]
    def __getitem__(s,ij): return s.d[ij[0]][ij[1]]
    def __setitem__(s,ij,v): s.d[ij[0]][ij[1]]=v
    def __matmul__(s,o):
        m=Mat(s.r,o.c)
        for i in range(s.r):
            for j in range(o.c):
                m.d[i][j]=sum(s.d[i][k]*o.d[k][j] for k in range(s.c))
        return m
def rnd(r,c):
    m=Mat(r,c)
    for i in range(r):
        for j in range(c): m.d[i][j]=float(random.randint(-4,4))
    return m

def run(M,N,K,wm,wn,aTrans,bTrans,bytes_=2):
    random.seed(0)
    A=rnd(M,K); B=rnd(K,N)
    kb=16//bytes_; instrK=2*kb
    class Smem:
        def __init__(s,shape,innerDim,base):
            s.innerDim=innerDim; s.inner=shape[innerDim]; s.outer=shape[1-innerDim]; s.base=base
            rowBytes=s.inner*bytes_
            s.perPhase=max(1,128//rowBytes); s.maxPhase=min(8,rowBytes//16)
        def addr(s,row,col):
            cb=col*bytes_; chunk=cb>>4; within=cb&15
            if s.maxPhase>1: chunk ^= (row//s.perPhase)%s.maxPhase
            return s.base+row*s.inner*bytes_+(chunk<<4)+within
        def tile(s,i,j): return s.addr(i,j) if s.innerDim==1 else s.addr(j,i)
    mem={}
    aS=Smem((M,K),0 if aTrans else 1,0); bS=Smem((K,N),1 if bTrans else 0,1<<20)
    for i in range(M):
        for k in range(K):
            a=aS.tile(i,k); assert a not in mem; mem[a]=A[i,k]
    for k in range(K):
        for j in range(N):
            a=bS.tile(k,j); assert a not in mem; mem[a]=B[k,j]
    def ldmatrix(addrs,num,trans):
        # addrs[lane]; returns regs[lane][m] = (e0,e1)
        out=[[None]*num for _ in range(32)]
        for m in range(num):
            rows=[[mem[addrs[8*m+r]+2*c] for c in range(8)] for r in range(8)]
            for l in range(32):
                g,t=l//4,l%4
                out[l][m]=(rows[g][2*t],rows[g][2*t+1]) if not trans else (rows[2*t][g],rows[2*t+1][g])
        return out
    nw=wm*wn
    eM=M//(8*wm); eN=2*max(1,N//(8*wn)); mTiles=eM//2; nTiles=eN//2
    acc={}  # (warp,lane,l0,l1)->val
    for w in range(nw):
        wM=(w//wn)%wm; wN=w%wn
        rowBase=8*wM; colBase=(8*wN)&(N-1)
        def mra(sm,mnDim,mn,k,lane):
            kInner=sm.innerDim!=mnDim; r=lane&7
            return sm.addr(mn+r,k) if kInner else sm.addr(k+r,mn)
        C={(l,a,b):0.0 for l in range(32) for a in range(eM) for b in range(eN)}
        for ks in range(K//instrK):
            aF=[]
            for mi in range(mTiles):
                addrs=[]
                for l in range(32):
                    mat=l>>3; lo=mat&1; hi=mat>>1
                    mn=lo*8*wm+16*wm*mi+rowBase; k=ks*instrK+hi*kb
                    addrs.append(mra(aS,0,mn,k,l))
                aF.append(ldmatrix(addrs,4,aTrans))
            bF=[]
            for nj in range(0,nTiles,2):
                pair=nj+1<nTiles; addrs=[]
                for l in range(32):
                    mat=l>>3; lo=mat&1; hi=mat>>1
                    tile=hi+nj if pair else nj
                    mn=tile*8*wn+colBase; k=ks*instrK+lo*kb
                    addrs.append(mra(bS,1,mn,k,l))
                regs=ldmatrix(addrs,4 if pair else 2,bTrans)
                bF.append([r[0:2] for r in regs])
                if pair: bF.append([r[2:4] for r in regs])
            for mi in range(mTiles):
                for nj in range(nTiles):
                    At=Mat(16,16); Bt=Mat(16,8)
                    for l in range(32):
                        g,t=l//4,l%4; ra=aF[mi][l]; rb=bF[nj][l]
                        for e in (0,1):
                            At[g,2*t+e]=ra[0][e]; At[g+8,2*t+e]=ra[1][e]; At[g,2*t+8+e]=ra[2][e]; At[g+8,2*t+8+e]=ra[3][e]
                            Bt[2*t+e,g]=rb[0][e]; Bt[2*t+8+e,g]=rb[1][e]
                    D=At@Bt
                    for l in range(32):
                        g,t=l//4,l%4
                        for (a,b),(x,y) in {(2*mi,2*nj):(g,2*t),(2*mi,2*nj+1):(g,2*t+1),(2*mi+1,2*nj):(g+8,2*t),(2*mi+1,2*nj+1):(g+8,2*t+1)}.items():
                            C[(l,a,b)]+=D[x,y]
        # compare with blocked layout coordinates
        R=A@B
        for l in range(32):
            g,t=l//4,l%4
            for a in range(eM):
                for b in range(eN):
                    row=(a*8*wm+(wM*8+g))&(M-1); col=((b//2)*8*wn+(wN*4+t)*2+b%2)&(N-1)
                    if C[(l,a,b)]!=R[row,col]:
                        print("MISMATCH",M,N,K,wm,wn,aTrans,bTrans,w,l,a,b); return False
    return True
ok=True
for (M,N,K,wm,wn) in [(128,128,32,2,2),(64,64,32,2,2),(128,128,64,4,2),(16,16,16,1,4),(32,64,16,1,4),(64,32,32,2,2)]:
    for at in (False,True):
        for bt in (False,True):
            ok&=run(M,N,K,wm,wn,at,bt)
print("ALL OK" if ok else "FAIL")
