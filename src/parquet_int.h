/*
 * Parquet pieces shared inside src/ (not installed): the BloomFilterHeader
 * of parquet.thrift, read and written in the compact protocol.
 */
#ifndef SBF_PARQUET_INT_H_0C9A4D21
#define SBF_PARQUET_INT_H_0C9A4D21

#include <stddef.h>
#include <stdint.h>

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

#endif
