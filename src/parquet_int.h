/*
 * Parquet pieces shared inside src/ (not installed): the BloomFilterHeader
 * of parquet.thrift, read and written in the compact protocol.
 */
#ifndef SBF_PARQUET_INT_H_0C9A4D21
#define SBF_PARQUET_INT_H_0C9A4D21

#include <stddef.h>
#include <stdint.h>

#include "simdbloom.h"

/* Longest header sbfi_pq_header_write makes (numBytes up to INT32_MAX). */
#define SBFI_PQ_HEADER_MAX 32u

/*
 * Parses a BloomFilterHeader {1: i32 numBytes, 2: algorithm BLOCK, 3: hash
 * XXHASH, 4: compression UNCOMPRESSED} at the start of p (len bytes).
 * *hdr_len gets the header's length, *num_bytes the bitset's (> 0, a
 * multiple of 32). Unknown fields are skipped; an algorithm, hash or
 * compression other than those is SBF_E_UNSUPPORTED; malformed Thrift or a
 * bad numBytes SBF_E_FORMAT; bytes ending inside the header SBF_E_TRUNCATED.
 * *why gets a static sentence on failure (why may be NULL). Allocates
 * nothing.
 */
int sbfi_pq_header_parse(const void *p, size_t len, size_t *hdr_len,
                         uint32_t *num_bytes, const char **why);

/* Writes the header for num_bytes (as parquet-java, Arrow and DuckDB write
 * it: fields in order, short form); returns its length (<= SBFI_PQ_HEADER_MAX). */
size_t sbfi_pq_header_write(unsigned char *out, uint32_t num_bytes);

/* sbf_import_parquet with an allocator and a reason (src/parquet.c). */
int sbfi_pq_import(sbf_filter **out, const void *buf, size_t len,
                   const sbf_allocator *allocator, const char **why);

/* n XXH64 hashes added to f, or probed into out (may be NULL): the count
 * that may be present (src/parquet_ops.c; keys go through the layout's
 * hash stage in the batch pipeline, simd/pipeline.h). */
size_t sbfi_pq_by_hash(sbf_filter *f, const uint64_t *h, size_t n, uint8_t *out, int is_add);

/*
 * sbf_size for the parquet layout (src/parquet_size.c), as Parquet writers
 * size their filters (parquet-java, Arrow: BloomFilter.md "Sizing"): bits
 * per distinct value -8 / ln(1 - fpp^(1/8)), at least 256 bits (32 bytes),
 * rounded up to a power of two. Writers cap the size at 128 MiB; past it
 * this returns SBF_E_TOO_LARGE instead of a filter that misses fpp (give
 * bits explicitly for larger ones). k is always 8. n > 0, fpp in (0, 1).
 */
int sbfi_size_parquet(uint64_t n, double fpp, uint64_t *bits, uint32_t *k);

#endif
