#include <stdio.h>
#include <stdint.h>
#include <math.h>
double model3(uint64_t n, uint64_t m, uint32_t k);
int main(){ double m,k,n,meas,se,bound,mo,text; int cnt=0; double lo=9,hi=0; int out=0;
 while(scanf("%lf %lf %lf %lf %lf %lf %lf %lf",&m,&k,&n,&meas,&se,&bound,&mo,&text)==8){
   double m3=model3(n,m,k); double r=meas/m3; double z=(meas-m3)/(se>0?se:1e-300);
   printf("%5.0f %3.0f %3.0f meas %.3g se %.2g m3 %.3g old %.3g ratio %.3f z %.1f\n",m,k,n,meas,se,m3,mo,r,z);
   if(meas>0){cnt++; if(r<lo)lo=r; if(r>hi)hi=r; if(fabs(z)>3) out++;} }
 fprintf(stderr,"cells %d ratio %.3f..%.3f |z|>3: %d\n",cnt,lo,hi,out); }
