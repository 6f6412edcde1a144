/*
 * Writes the known-answer files of simdbloom's own format, one per layout:
 *   gen_sbf_files PREFIX   ->  PREFIX_classic.bin, PREFIX_blocked.bin, ...
 * through sbf_serialize. tests/vectors/sbf_v2_*.bin were written by this
 * program at the commit that introduced format 2 (their keys-added field,
 * 150, counts add calls as writers then did; today's counts the adds that
 * changed the filter, so a rerun differs there and in the header checksum); tests/vectors/sbf_v1_*.bin
 * by the same program built against commit 6f0bfd5, the last that wrote
 * version 1; tests/vectors/sbf_v2_unknown_count.bin (the classic filter
 * through Guava's form: a key count not known, doc/format.md) by this
 * program when that meaning was given. tests/test_persist.c rebuilds the
 * same filters and compares.
 */
#include <stdio.h>
#include <stdlib.h>

#include "simdbloom.h"
#include "../vectors/sbf_files.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PREFIX\n", argv[0]);
        return 2;
    }
    for (int i = 0; i < SBF_FILES_N; i++) {
        sbf_filter *f;
        int rc = sbf_files_make(i, &f);
        void *buf;
        size_t len;
        if (rc == SBF_OK)
            rc = sbf_serialize(f, &buf, &len);
        if (rc != SBF_OK) {
            fprintf(stderr, "%s: %s\n", sbf_files[i].name, sbf_strerror(rc));
            return 1;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s_%s.bin", argv[1], sbf_files[i].name);
        FILE *o = fopen(path, "wb");
        if (!o || fwrite(buf, 1, len, o) != len || fclose(o) != 0) {
            perror(path);
            return 1;
        }
        sbf_buffer_free(buf);
        sbf_free(f);
    }
    /* The classic filter, exported to Guava's form and imported back. */
    sbf_filter *f, *g;
    void *buf;
    size_t len;
    int rc = sbf_files_make(0, &f);
    if (rc == SBF_OK)
        rc = sbf_export_guava(f, &buf, &len);
    if (rc == SBF_OK)
        rc = sbf_import_guava(&g, buf, len);
    if (rc == SBF_OK)
        sbf_buffer_free(buf);
    if (rc == SBF_OK)
        rc = sbf_serialize(g, &buf, &len);
    char path[4096];
    snprintf(path, sizeof path, "%s_unknown_count.bin", argv[1]);
    FILE *o = rc == SBF_OK ? fopen(path, "wb") : NULL;
    if (!o || fwrite(buf, 1, len, o) != len || fclose(o) != 0) {
        fprintf(stderr, "%s: %s\n", path, rc == SBF_OK ? "write failed" : sbf_strerror(rc));
        return 1;
    }
    sbf_buffer_free(buf);
    sbf_free(f);
    sbf_free(g);
    return 0;
}
