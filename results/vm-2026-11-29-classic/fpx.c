#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static uint64_t st=99;
static inline uint64_t rnd(void){uint64_t z=(st+=0x9E3779B97F4A7C15ull);z=(z^(z>>30))*0xBF58476D1CE4E5B9ull;z=(z^(z>>27))*0x94D049BB133111EBull;return z^(z>>31);}
int main(int c,char**v){uint64_t n=atoi(v[1]),m=strtoull(v[2],0,0);unsigned k=atoi(v[3]);int want=atoi(v[4]);
 uint64_t *w=malloc(m/8+8); uint64_t (*P)[64]=malloc(n*sizeof *P); int hist[65]={0}, dh[65]={0}; int got=0; long long probes=0;
 while(got<want){ memset(w,0,m/8+8);
  for(uint64_t j=0;j<n;j++){uint64_t x=rnd(),h=rnd();for(unsigned i=0;i<k;i++){uint64_t b=(x&INT64_MAX)%m;P[j][i]=b;w[b>>6]|=1ull<<(b&63);x+=h;}}
  for(int q=0;q<200000 && got<want;q++){probes++; uint64_t x=rnd(),h=rnd(),Q[64];unsigned i;for(i=0;i<k;i++){uint64_t b=(x&INT64_MAX)%m;Q[i]=b;if(!(w[b>>6]>>(b&63)&1))break;x+=h;}
   if(i<k)continue; got++;
   /* distinct query positions */
   int d=0; for(unsigned a=0;a<k;a++){int dup=0;for(unsigned b=0;b<a;b++)if(Q[b]==Q[a])dup=1; d+=!dup;}
   int best=0; for(uint64_t j=0;j<n;j++){int cnt=0; for(unsigned a=0;a<k;a++){int dup=0;for(unsigned b=0;b<a;b++)if(Q[b]==Q[a])dup=1; if(dup)continue; for(unsigned b=0;b<k;b++) if(P[j][b]==Q[a]){cnt++;break;}} if(cnt>best)best=cnt;}
   hist[best]++; dh[d]++; }
 }
 printf("probes %lld fps %d\nbest-key cover:",probes,got); for(int i=0;i<=64;i++)if(hist[i])printf(" %d:%d",i,hist[i]); printf("\ndistinct:"); for(int i=0;i<=64;i++)if(dh[i])printf(" %d:%d",i,dh[i]); printf("\n");}
