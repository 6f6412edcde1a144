/*
 * Times sbf_save, sbf_load, sbf_map, sbf_info(_ex) of a mapping and
 * sbf_verify_file on a 1 GiB filter (not part of make test; numbers for the
 * README and the issue notes):
 *   make && cc -std=c11 -O2 -Iinclude tests/gen/time_files.c build/libsimdbloom.a -lm \
 *      -o build/time_files && build/time_files /var/tmp/big.sbf
 * "warm": the file is in the page cache; "cold": its pages were dropped
 * first with posix_fadvise(POSIX_FADV_DONTNEED) (this file only).
 */
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "simdbloom.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void drop(const char *path)
{
    const int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        fdatasync(fd);
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        close(fd);
    }
}

#define CHECK(x) do { int rc_ = (x); if (rc_ != SBF_OK) { \
    fprintf(stderr, "%s: %s\n", #x, sbf_strerror(rc_)); return 1; } } while (0)

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "big.sbf";
    sbf_params p = { 0 };
    p.layout = SBF_BLOCKED;
    p.bits = UINT64_C(8) << 30; /* 1 GiB */
    p.k = 8;
    sbf_filter *f, *g;
    CHECK(sbf_create(&f, &p));
    uint64_t *keys = malloc(1000000 * sizeof *keys);
    uint64_t s = 1;
    for (int r = 0; r < 20; r++) { /* 2e7 keys: every page written */
        for (int i = 0; i < 1000000; i++)
            keys[i] = (s += 0x9e3779b97f4a7c15u) * 0xbf58476d1ce4e5b9u;
        CHECK(sbf_add_u64(f, keys, 1000000));
    }
    double t = now();
    CHECK(sbf_save(f, path));
    printf("sbf_save   1 GiB (write, fsync, rename, dir fsync): %8.1f ms\n", (now() - t) * 1e3);
    for (int cold = 1; cold >= 0; cold--) {
        const char *c = cold ? "cold" : "warm";
        if (cold) drop(path);
        t = now();
        CHECK(sbf_load(&g, path));
        printf("sbf_load   %s (read + both checksums):           %8.1f ms\n", c, (now() - t) * 1e3);
        sbf_free(g);
        if (cold) drop(path);
        t = now();
        CHECK(sbf_map(&g, path, 0));
        printf("sbf_map    %s, verified (one XXH3 pass):         %8.1f ms\n", c, (now() - t) * 1e3);
        t = now();
        size_t vh = sbf_contains_u64(g, keys, 1000000, NULL);
        printf("           then 1e6 probes of the mapping:          %8.1f ms (%zu found)\n",
               (now() - t) * 1e3, vh);
        sbf_free(g);
        if (cold) drop(path);
        t = now();
        CHECK(sbf_map(&g, path, SBF_MAP_NO_VERIFY));
        printf("sbf_map    %s, SBF_MAP_NO_VERIFY:                %8.3f ms\n", c, (now() - t) * 1e3);
        t = now();
        size_t hits = sbf_contains_u64(g, keys, 1000000, NULL);
        printf("           then 1e6 probes of the mapping:          %8.1f ms (%zu found)\n",
               (now() - t) * 1e3, hits);
        t = now();
        hits = sbf_contains_u64(g, keys, 1000000, NULL);
        printf("           the same 1e6 probes again:               %8.1f ms\n", (now() - t) * 1e3);
        sbf_free(g);
        struct sbf_info in;
        if (cold) drop(path);
        t = now();
        CHECK(sbf_map(&g, path, SBF_MAP_NO_VERIFY));
        CHECK(sbf_info_ex(g, &in, SBF_INFO_SAMPLE));
        printf("sbf_map    %s, no verify, sbf_info_ex(SAMPLE): %8.1f ms\n", c, (now() - t) * 1e3);
        sbf_free(g);
        if (cold) drop(path);
        t = now();
        CHECK(sbf_map(&g, path, SBF_MAP_NO_VERIFY));
        CHECK(sbf_info(g, &in));
        printf("sbf_map    %s, no verify, sbf_info (full):      %8.1f ms\n", c, (now() - t) * 1e3);
        sbf_free(g);
        if (cold) drop(path);
        t = now();
        CHECK(sbf_verify_file(path, NULL, NULL));
        printf("sbf_verify_file %s (16 MiB pieces):            %8.1f ms\n", c, (now() - t) * 1e3);
        if (!cold) {
            CHECK(sbf_load(&g, path));
            t = now();
            hits = sbf_contains_u64(g, keys, 1000000, NULL);
            printf("           1e6 probes of the loaded filter:         %8.1f ms (%zu found)\n",
                   (now() - t) * 1e3, hits);
            sbf_free(g);
        }
    }
    free(keys);
    sbf_free(f);
    unlink(path);
    return 0;
}
