/* exact Guava rule on uniform 64-bit (h1,h2): measured FPR with between-seed CI */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
double sbf_fpp_layout(int layout, uint64_t n, uint64_t bits, uint32_t k);
double sbf_fpp_classic(uint64_t n, uint64_t m, uint32_t k);
double model2(uint64_t n, uint64_t m, uint32_t k);
static uint64_t st;
static inline uint64_t rnd(void){uint64_t z=(st+=0x9E3779B97F4A7C15ull);z=(z^(z>>30))*0xBF58476D1CE4E5B9ull;z=(z^(z>>27))*0x94D049BB133111EBull;return z^(z>>31);}
int main(int argc,char**argv){
  uint64_t n=strtoull(argv[1],0,0), m=strtoull(argv[2],0,0); unsigned k=atoi(argv[3]);
  unsigned seeds=atoi(argv[4]); uint64_t per=strtoull(argv[5],0,0); st=argc>6?strtoull(argv[6],0,0):1;
  uint64_t *w=malloc((m/64+1)*8); double s1=0,s2=0; uint64_t tot=0;
  for(unsigned s=0;s<seeds;s++){ memset(w,0,(m/64+1)*8);
    for(uint64_t j=0;j<n;j++){uint64_t c=rnd(),h=rnd();for(unsigned i=0;i<k;i++){uint64_t b=(c&INT64_MAX)%m;w[b>>6]|=1ull<<(b&63);c+=h;}}
    uint64_t fp=0;
    for(uint64_t q=0;q<per;q++){uint64_t c=rnd(),h=rnd();unsigned i;for(i=0;i<k;i++){uint64_t b=(c&INT64_MAX)%m;if(!(w[b>>6]>>(b&63)&1))break;c+=h;} fp+=i==k;}
    double r=(double)fp/per; s1+=r; s2+=r*r; tot+=fp; }
  double mean=s1/seeds, var=(s2/seeds-mean*mean)*seeds/(seeds-1), se=sqrt(var/seeds);
  double tb=sbf_fpp_classic(n,m,k), bd=sbf_fpp_layout(0,n,m,k), m2=model2(n,m,k);
  printf("n=%llu m=%llu k=%u meas=%.4g se=%.2g (%llu fp) text=%.4g bound=%.4g model2=%.4g | meas/model2=%.3f z=%.1f meas/bound=%.3f\n",
   (unsigned long long)n,(unsigned long long)m,k,mean,se,(unsigned long long)tot,tb,bd,m2,mean/m2,(mean-m2)/se,mean/bd);
  return 0;}
