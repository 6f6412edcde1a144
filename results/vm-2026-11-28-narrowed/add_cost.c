/* Measurement only: where a narrowed split-block one-key add's time goes (16 KiB, fresh keys into a
 * cleared filter; contains of absent keys): the add as shipped, without the keys_added count, and
 * the mask OR-ed in with no answer (as Boost's insert). gcc -O3 -march=native, see README.md. */
#include <simdbloom.h>
#include <simdbloom_inline.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now_s(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static uint64_t mix13(uint64_t z) { z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL; z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL; return z ^ (z >> 31); }
__attribute__((noinline)) uint64_t add_narrow(const sbf_view *vp, const uint64_t *k, size_t m) { sbf_split_view s; if (sbf_view_split(vp, &s)) return 0; uint64_t r = 0; for (size_t i = 0; i < m; i++) r += sbf_split_view_add_u64(&s, k[i]); return r; }
__attribute__((noinline)) uint64_t add_nocount(const sbf_view *vp, const uint64_t *k, size_t m) { sbf_split_view s; if (sbf_view_split(vp, &s)) return 0; uint64_t r = 0; for (size_t i = 0; i < m; i++) { uint64_t h1; sbf_inl_h2 h2 = sbf_inl_hash8_sized(k[i], s.seed, s.nblocks, 1, &h1); r += sbf_inl_split8_add(s.words + sbf_block_index(h1, s.nblocks) * 4, s.salt, h2); } return r; }
#if SBF_INL_AVX512
__attribute__((noinline)) uint64_t add_set(const sbf_view *vp, const uint64_t *k, size_t m) { sbf_split_view s; if (sbf_view_split(vp, &s)) return 0; for (size_t i = 0; i < m; i++) { uint64_t h1; sbf_inl_h2 h2 = sbf_inl_hash8_sized(k[i], s.seed, s.nblocks, 1, &h1); __m256i *b = (__m256i *)(s.words + sbf_block_index(h1, s.nblocks) * 4); __m256i x = _mm256_mullo_epi32(_mm256_broadcastd_epi32(h2), _mm256_loadu_si256((const __m256i *)s.salt)); __m256i msk = _mm256_sllv_epi32(_mm256_set1_epi32(1), _mm256_srli_epi32(x, 27)); _mm256_store_si256(b, _mm256_or_si256(_mm256_load_si256(b), msk)); } return 0; }
#endif
__attribute__((noinline)) uint64_t cont_narrow(const sbf_view *vp, const uint64_t *k, size_t m) { sbf_split_view s; if (sbf_view_split(vp, &s)) return 0; uint64_t r = 0; for (size_t i = 0; i < m; i++) r += sbf_split_view_contains_u64(&s, k[i] ^ 1); return r; }
typedef uint64_t (*fn)(const sbf_view *, const uint64_t *, size_t);
volatile uint64_t sink;
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(void) {
  size_t bytes = 16 << 10, n = bytes * 8 / 10;
  uint64_t *keys = malloc(sizeof(uint64_t) << 22); for (size_t i = 0; i < (1u << 22); i++) keys[i] = mix13(i + 777);
  sbf_params p = {0}; p.layout = SBF_SPLIT_BLOCK; p.bits = bytes * 8; p.expected_n = n; p.fpp = 0.01;
  sbf_filter *f; sbf_create(&f, &p); sbf_view v; sbf_view_get_writable(f, &v);
  const char *nm[] = {"contains (narrowed)", "add (narrowed: answer + keys_added)", "add, answer, no keys_added", "store only (OR the mask in, no answer)"};
  fn fs[] = {cont_narrow, add_narrow, add_nocount, add_set};
  enum { R = 41 }; static double t[4][R];
  for (int r = 0; r < R; r++) { size_t off = ((size_t)r * 7919 * 64) % ((1u << 22) - n);
    for (int j = 0; j < 4; j++) { sbf_clear(f); if (j == 0) for (size_t i = 0; i < n; i++) sbf_view_add_u64(&v, keys[(1u<<21) + i]);
      double t0 = now_s(); sink += fs[j](&v, keys + off, n); t[j][r] = (now_s() - t0) * 1e9 / n; } }
  for (int j = 0; j < 4; j++) { qsort(t[j], R, sizeof(double), cmpd); printf("  %-40s %6.2f [%6.2f]\n", nm[j], t[j][4], t[j][20]); }
}
