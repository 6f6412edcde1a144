#include <math.h>
#include <stdint.h>
static double guava_spread(double o, double c)
{
    if (o <= 1.0)
        return 1.0;
    return o * -expm1(c * log1p(-1.0 / o));
}

static double guava_model(uint64_t n, uint64_t m, uint32_t k)
{
    const int s = __builtin_ctzll(m);
    const double o = (double)(m >> s), kk = (double)k;
    double p[65], d[65], D = 0.0;
    for (int v = 0; v <= s; v++) {
        p[v] = v < s ? ldexp(1.0, -(v + 1)) : ldexp(1.0, -s);
        if (s - v >= 32 || kk <= ldexp(1.0, s - v)) {
            d[v] = kk;
        } else {
            const uint32_t P = UINT32_C(1) << (s - v), c = k / P, rem = k % P;
            d[v] = rem * guava_spread(o, c + 1.0) + (P - rem) * guava_spread(o, c);
        }
        D += p[v] * d[v];
    }
    const double md = (double)m;
    const double fill = -expm1((double)n * log1p(-D / md));
    double r = 0.0;
    for (int v = 0; v <= s; v++)
        r += p[v] * pow(fill, d[v]);
    const double cap = 2.0 * kk - 1.0;
    double S = fill < 1.0 ? (1.0 + fill) / (1.0 - fill) : cap;
    if (S > cap)
        S = cap;
    r += 2.0 * (double)n / (md * md) * S;
    return r < 1.0 ? r : 1.0;
}

double model2(uint64_t n, uint64_t m, uint32_t k){return guava_model(n,m,k);}
