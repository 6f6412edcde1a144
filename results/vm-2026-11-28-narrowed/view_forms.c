/* Measurement only: one-key contains and fresh adds through an sbf_view (by pointer, and copied
 * into a local of the loop's function) and through the view narrowed to its probe, each loop in a
 * function of its own, all in one process (41 rounds, windows of n keys, p10 [p50]). Built at -O2 and
 * -O3 (README.md in this folder). */
#define _GNU_SOURCE
#include <simdbloom.h>
#include <simdbloom_inline.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now_s(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static uint64_t mix13(uint64_t z) { z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL; z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL; return z ^ (z >> 31); }
__attribute__((noinline)) uint64_t c_gen(const sbf_view *v, const uint64_t *k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) s += sbf_view_contains_u64(v, k[i]); return s; }
__attribute__((noinline)) uint64_t c_genlocal(const sbf_view *vp, const uint64_t *k, size_t m) { const sbf_view v = *vp; uint64_t s = 0; for (size_t i = 0; i < m; i++) s += sbf_view_contains_u64(&v, k[i]); return s; }
__attribute__((noinline)) uint64_t c_split(const sbf_view *vp, const uint64_t *k, size_t m) { sbf_split_view v; sbf_view_split(vp, &v); uint64_t s = 0; for (size_t i = 0; i < m; i++) s += sbf_split_view_contains_u64(&v, k[i]); return s; }
__attribute__((noinline)) uint64_t c_blk(const sbf_view *vp, const uint64_t *k, size_t m) { sbf_blocked_view v; sbf_view_blocked(vp, &v); uint64_t s = 0; for (size_t i = 0; i < m; i++) s += sbf_blocked_view_contains_u64(&v, k[i]); return s; }
__attribute__((noinline)) uint64_t a_gen(const sbf_view *v, const uint64_t *k, size_t m) { uint64_t s = 0; for (size_t i = 0; i < m; i++) s += sbf_view_add_u64(v, k[i]); return s; }
__attribute__((noinline)) uint64_t a_genlocal(const sbf_view *vp, const uint64_t *k, size_t m) { const sbf_view v = *vp; uint64_t s = 0; for (size_t i = 0; i < m; i++) s += sbf_view_add_u64(&v, k[i]); return s; }
__attribute__((noinline)) uint64_t a_split(const sbf_view *vp, const uint64_t *k, size_t m) { sbf_split_view v; sbf_view_split(vp, &v); uint64_t s = 0; for (size_t i = 0; i < m; i++) s += sbf_split_view_add_u64(&v, k[i]); return s; }
__attribute__((noinline)) uint64_t a_blk(const sbf_view *vp, const uint64_t *k, size_t m) { sbf_blocked_view v; sbf_view_blocked(vp, &v); uint64_t s = 0; for (size_t i = 0; i < m; i++) s += sbf_blocked_view_add_u64(&v, k[i]); return s; }
typedef uint64_t (*fn)(const sbf_view *, const uint64_t *, size_t);
volatile uint64_t sink;
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: %s KiB\n", argv[0]); return 2; }
  size_t bytes = (size_t)atoi(argv[1]) << 10; size_t n = bytes * 8 / 10;
  uint64_t *keys = malloc(sizeof(uint64_t) << 23); for (size_t i = 0; i < (1u << 23); i++) keys[i] = mix13(i + 777);
  for (int lay = 0; lay < 2; lay++) {
    sbf_params p = {0}; p.layout = lay ? SBF_BLOCKED : SBF_SPLIT_BLOCK; p.bits = bytes * 8; p.expected_n = n; p.fpp = 0.01;
    sbf_filter *f; if (sbf_create(&f, &p)) return 1; sbf_view v; sbf_view_get_writable(f, &v);
    printf("%s %zu KiB k=%u query=%u\n", lay ? "blocked" : "split", bytes >> 10, v.k, v.query);
    const char *names[] = {"contains generic (pointer)", "contains generic (local copy)", "contains narrowed view", "add generic (pointer)", "add generic (local)", "add narrowed view"};
    fn fs[] = {c_gen, c_genlocal, lay ? c_blk : c_split, a_gen, a_genlocal, lay ? a_blk : a_split};
    enum { R = 41 }; static double t[6][R];
    for (int r = 0; r < R; r++) {
      size_t off = ((size_t)r * 7919 * 64) % ((1u << 23) - n);
      for (int j = 0; j < 6; j++) {
        if (j >= 3) sbf_clear(f);
        double t0 = now_s(); sink += fs[j](&v, keys + off, n); t[j][r] = (now_s() - t0) * 1e9 / n;
      }
      if (r == 0) { sbf_clear(f); for (size_t i = 0; i < n; i++) sbf_view_add_u64(&v, keys[i + (1u<<22)]); }
      else { sbf_clear(f); for (size_t i = 0; i < n; i++) sbf_view_add_u64(&v, keys[i + (1u<<22)]); }
    }
    for (int j = 0; j < 6; j++) { qsort(t[j], R, sizeof(double), cmpd); printf("  %-34s %6.2f [%6.2f]\n", names[j], t[j][4], t[j][20]); }
    sbf_free(f);
  }
}
