/*
 * simdbloom_parquet.h: the Parquet section of simdbloom.h: reading the
 * Bloom filters of .parquet files, the form Parquet writers embed
 * (export/import), adds and probes by XXH64 hash on parquet filters.
 *
 * Part of the one public header, not a header of its own: users write
 * #include <simdbloom.h>, which includes this file at its end. Included
 * alone it stops with #error: it needs SBF_API and sbf_filter
 * from simdbloom.h, and one way in lets the parts be re-cut freely.
 */
#ifndef SIMDBLOOM_PARQUET_H_4D138A20
#define SIMDBLOOM_PARQUET_H_4D138A20

#if !defined(SIMDBLOOM_H_8A31F0C2)
#  error "simdbloom_parquet.h is part of simdbloom.h: #include <simdbloom.h> instead"
#endif

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* ------------------------------------------------------------ Parquet files
 * The split-block Bloom filters inside .parquet files (apache/parquet-format
 * BloomFilter.md). Reading a file walks only its footer (Thrift compact
 * FileMetaData -> row groups -> column chunks -> ColumnMetaData path, type,
 * bloom_filter_offset 14 and bloom_filter_length 15), bounded in nesting
 * depth, lengths and list sizes. Files it does not understand are refused
 * with a code and, through `why` (may be NULL), a static sentence naming the
 * reason (encrypted footer, truncated footer, malformed Thrift, ...).
 */

/* Parquet physical types (parquet.thrift `Type`). */
#define SBF_PQ_BOOLEAN 0
#define SBF_PQ_INT32 1
#define SBF_PQ_INT64 2
#define SBF_PQ_INT96 3
#define SBF_PQ_FLOAT 4
#define SBF_PQ_DOUBLE 5
#define SBF_PQ_BYTE_ARRAY 6
#define SBF_PQ_FIXED_LEN_BYTE_ARRAY 7

/* One column chunk of a file. */
typedef struct sbf_parquet_column {
    uint32_t row_group;     /* index of the row group in the footer */
    uint32_t column;        /* index of the chunk in its row group */
    int type;               /* SBF_PQ_*, or -1 when absent or unknown */
    const char *path;       /* path_in_schema joined with '.'; owned by the file.
                             * Two columns may share it (a top-level "a.b" and
                             * field b of struct a): sbf_parquet_column_name
                             * gives the form that names one column alone. */
    int64_t num_values;
    int64_t bloom_offset;   /* bloom_filter_offset, -1 when there is no filter */
    int32_t bloom_length;   /* bloom_filter_length, -1 when not recorded */
} sbf_parquet_column;

typedef struct sbf_parquet sbf_parquet;

/*
 * Opens a .parquet file and reads its footer (the file stays open for
 * sbf_parquet_read_bloom). sbf_parquet_open_mem reads a whole file image
 * in memory, which must outlive the object.
 * Returns SBF_OK, SBF_E_NULL, SBF_E_IO (open, fstat, read; not a regular
 * file: a directory with errno EISDIR, a FIFO, device or socket EINVAL,
 * refused without blocking, as the loaders), SBF_E_TRUNCATED, SBF_E_FORMAT
 * (no PAR1 magic, malformed footer), SBF_E_UNSUPPORTED (encrypted footer or
 * column metadata), SBF_E_TOO_LARGE (footer over 1 GiB), SBF_E_NOMEM.
 * Thread safe.
 */
SBF_API int sbf_parquet_open(sbf_parquet **out, const char *path, const char **why);
SBF_API int sbf_parquet_open_mem(sbf_parquet **out, const void *buf, size_t len,
                                 const char **why);
/* Closes the file; NULL is accepted. */
SBF_API void sbf_parquet_close(sbf_parquet *pq);
/* Every column chunk, row group by row group: the count, *cols the array
 * (valid until sbf_parquet_close). 0 and NULL for NULL. */
SBF_API size_t sbf_parquet_columns(const sbf_parquet *pq, const sbf_parquet_column **cols);
SBF_API uint32_t sbf_parquet_row_groups(const sbf_parquet *pq);
/*
 * Column chunk i's name without ambiguity: the segments of path_in_schema
 * joined with '.', a '.' or '\\' inside a segment written after a
 * backslash ("a\.b" is the top-level column named a.b, "a.b" field b of
 * struct a), control bytes as \xHH (so a name never holds a newline).
 * Owned by the file; NULL for NULL or no such chunk. Thread safe.
 */
SBF_API const char *sbf_parquet_column_name(const sbf_parquet *pq, size_t i);
/*
 * Where column chunk i's Bloom filter lies in the file: its offset and its
 * bytes (header + bitset), from the header alone (at most 256 bytes read,
 * nothing allocated): what sbf_parquet_read_bloom would allocate, for a
 * caller that bounds it or shares a filter several chunks point at.
 * Returns as sbf_parquet_read_bloom (but never SBF_E_NOMEM). Thread safe.
 */
SBF_API int sbf_parquet_bloom_extent(const sbf_parquet *pq, size_t i, uint64_t *offset,
                                     uint64_t *bytes, const char **why);
/*
 * Reads column chunk i's Bloom filter as stored: the Thrift BloomFilterHeader
 * followed by its bitset (*buf malloc'd, *len bytes). The header is parsed
 * and its size checked against the file and bloom_filter_length before the
 * bitset is allocated. Returns SBF_OK, SBF_E_NULL, SBF_E_PARAM (no such
 * chunk, or it has no filter), SBF_E_TRUNCATED, SBF_E_FORMAT,
 * SBF_E_UNSUPPORTED (not split-block / XXHASH / uncompressed), SBF_E_IO,
 * SBF_E_NOMEM. Safe from several threads on one file.
 */
SBF_API int sbf_parquet_read_bloom(const sbf_parquet *pq, size_t i, void **buf,
                                   size_t *len, const char **why);
/* sbf_parquet_read_bloom, then sbf_import_parquet: chunk i's filter as an
 * SBF_PARQUET filter. The codes of both. */
SBF_API int sbf_parquet_filter(sbf_filter **out, const sbf_parquet *pq, size_t i,
                               const char **why);

/*
 * A parquet-layout filter in the form Parquet writers embed in a file: the
 * Thrift compact BloomFilterHeader {numBytes, BLOCK, XXHASH, UNCOMPRESSED}
 * (fields in order, short form, as parquet-java, Arrow and DuckDB write it)
 * followed by the bitset, byte for byte.
 * sbf_export_parquet returns SBF_OK, SBF_E_NULL, SBF_E_UNSUPPORTED (not the
 * parquet layout), SBF_E_NOMEM.
 * sbf_import_parquet checks the header (unknown fields are skipped) and the
 * length before it allocates, and returns SBF_OK, SBF_E_NULL,
 * SBF_E_TRUNCATED, SBF_E_TRAILING, SBF_E_FORMAT (malformed Thrift, numBytes
 * not a positive multiple of 32), SBF_E_UNSUPPORTED (another algorithm, hash
 * or a compression), SBF_E_NOMEM, and the forced-ISA errors of sbf_create.
 * Keys added is 0 after import (the form does not carry it). Thread safe.
 */
SBF_API int sbf_export_parquet(const sbf_filter *f, void **buf, size_t *len);
SBF_API int sbf_import_parquet(sbf_filter **out, const void *buf, size_t len);

/*
 * Parquet layout only: add or probe values by their XXH64 hash (seed 0, of
 * the PLAIN encoding), as a Parquet engine that already hashed them would
 * (Arrow's InsertHash / FindHash): hash once, probe many filters (one per
 * row group). sbf_add_xxh64(f, &h, 1) sets the bits sbf_add(f, value, len)
 * sets when h is the value's XXH64. Returns as sbf_add_u64 /
 * sbf_contains_u64, and SBF_E_UNSUPPORTED (as (size_t) for contains) for
 * other layouts; sbf_add_xxh64 also SBF_E_READONLY.
 */
SBF_API int sbf_add_xxh64(sbf_filter *f, const uint64_t *h, size_t n);
SBF_API size_t sbf_contains_xxh64(const sbf_filter *f, const uint64_t *h, size_t n,
                                  uint8_t *out);
/*
 * Probes n XXH64 hashes against a Parquet bitset the caller holds (the bytes
 * after a BloomFilterHeader, e.g. sbf_data of an SBF_PARQUET filter), with
 * no filter object: for a reader that keeps many small filters packed in
 * one buffer. out[i] (out may be NULL) as sbf_contains_xxh64 on that
 * filter, and the same count. bitset 4-byte aligned, bytes a positive
 * multiple of 32 (below 2^37); else (size_t)SBF_E_PARAM, (size_t)SBF_E_NULL
 * for a NULL pointer. Reads only. Thread safe.
 */
SBF_API size_t sbf_parquet_bitset_contains(const void *bitset, size_t bytes, const uint64_t *h,
                                           size_t n, uint8_t *out);

#if defined(__cplusplus)
}
#endif

#endif /* SIMDBLOOM_PARQUET_H_4D138A20 */
