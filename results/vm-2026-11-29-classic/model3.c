#include <math.h>
#include <stdint.h>
#include <string.h>
static uint64_t gcd64(uint64_t a, uint64_t b){while(b){uint64_t t=a%b;a=b;b=t;}return a;}
static int mobius(unsigned n){int r=1;for(unsigned p=2;p*p<=n;p++){if(n%p==0){n/=p;if(n%p==0)return 0;r=-r;}}if(n>1)r=-r;return r;}
/* P(t X == 0 mod m) for X uniform on -pR + <g> */
static double p_tx0(uint64_t m, uint64_t g, uint64_t pR, uint64_t t){
  uint64_t h=m/gcd64(t,m); uint64_t gh=gcd64(g,h); if(pR%gh) return 0; return (double)gh/(double)h; }
/* distribution of d (distinct positions of one key/query), w[1..k] */
static void ddist(uint64_t m, uint32_t k, double *w){
  memset(w,0,sizeof(double)*(k+1));
  const uint64_t R=(UINT64_C(1)<<63)%m;
  const int s=__builtin_ctzll(m);
  if(R==0){ /* m a power of two: exact */
    for(int v=0;v<=s;v++){double p=v<s?ldexp(1.0,-(v+1)):ldexp(1.0,-s); double P=(s-v>=32)?1e18:ldexp(1.0,s-v); unsigned d=P<k?(unsigned)P:k; w[d]+=p;}
    return; }
  const uint64_t ordR=m/gcd64(R,m);
  double low=0;
  for(uint32_t q=1;q<k;q++) for(uint32_t p=0;p<=q;p++){
    if(gcd64(p,q)!=1) continue; if(q>1&&(p==0||p==q)) continue;
    const double side=q==1?1.0:2.0;
    const uint64_t g=gcd64(q,m); const uint64_t pR=(uint64_t)(((unsigned __int128)p*R)%m);
    for(uint32_t t=1;t*q<k;t++){
      double Pt=0; for(uint32_t d=1;d<=t;d++) if(t%d==0){int mu=mobius(t/d); if(mu) Pt+=mu*p_tx0(m,g,pR,d);}
      if(Pt<=0) continue;
      const uint32_t per=t*q, K=k-per;
      const double dens=Pt*side/((double)q*K*t); /* per unit L */
      for(uint32_t j=0;j<K;j++){
        uint32_t d0=per+j, d1=per+j+1; uint64_t cap=per*ordR; if(d0>cap)d0=cap; if(d1>cap)d1=cap; if(d1>k)d1=k;
        w[d0]+=dens/2; w[d1]+=dens/2; }
    }
  }
  for(uint32_t d=1;d<k;d++) low+=w[d];
  double rest=1.0-low; /* mass placed at k by the terms, plus the generic */
  double atk=w[k]; w[k]=rest>0?rest:0; (void)atk;
}
double model3(uint64_t n, uint64_t m, uint32_t k){
  double w[4096]; if(k>4000) return NAN;
  ddist(m,k,w);
  double D=0; for(uint32_t d=1;d<=k;d++) D+=w[d]*d;
  const double f=-expm1((double)n*log1p(-D/(double)m));
  double r=0; for(uint32_t d=1;d<=k;d++) r+=w[d]*pow(f,d);
  const uint64_t R=(UINT64_C(1)<<63)%m;
  if(R==0){ double cap=2.0*k-1, S=f<1?(1+f)/(1-f):cap; if(S>cap)S=cap; r+=2.0*n/((double)m*m)*S; }
  return r<1?r:1;
}
