/*
 * BF.SCANDUMP / BF.LOADCHUNK form of a chain (dump.c), with RedisBloom's
 * semantics. No Redis here.
 *
 * A dump is a header (iterator 1: the key's parameters and every
 * sub-filter's geometry and counts, checked by a checksum), then the
 * sub-filters' used bytes (bits / 8 each) as one byte string, in chunks of
 * up to 16 MiB. A chunk's iterator is one past the offset of its end in that
 * string, so BF.LOADCHUNK writes it where it belongs, in any order, into a
 * key made by the header or any key with the same geometry (RedisBloom
 * writes raw bytes the same way). SCANDUMP returns a pointer into the
 * filter: its work is the chunk's length, whatever the filter's size.
 */
#ifndef SBFR_DUMP_H_3F9A0C51
#define SBFR_DUMP_H_3F9A0C51

#include "chain.h"

#define SBFR_CHUNK (16u << 20) /* SCANDUMP chunk, as RedisBloom */

#define SBFR_ERR_EXISTS "ERR item exists"
#define SBFR_ERR_BAD_DATA "ERR received bad data"
#define SBFR_ERR_NO_LINK "ERR invalid offset - no link found"
#define SBFR_ERR_TOO_BIG "ERR invalid chunk - Too big for current filter"

uint64_t sbfr_dbl_bits(double d);
double sbfr_bits_dbl(uint64_t u);

/* The header (sbfr_alloc'd, *len bytes). */
unsigned char *sbfr_dump_header(const sbfr_chain *c, size_t *len);

/* A chain from a header, its sub-filters made and empty, or NULL with *why
 * set to the reply; cap as sbfr_chain_new's. */
sbfr_chain *sbfr_chain_from_header(const unsigned char *h, size_t len, uint64_t cap,
                                   const char **why);

/* The chunk at iterator iter >= 1: *data points into the chain, *len bytes;
 * returns the next iterator, or 0 (and *len 0) past the end. */
long long sbfr_dump_chunk(const sbfr_chain *c, long long iter, const char **data, size_t *len);

/* Writes the chunk that came with iterator iter. NULL on success, else the
 * reply text (nothing written). */
const char *sbfr_load_chunk(sbfr_chain *c, long long iter, const char *buf, size_t len);

#endif /* SBFR_DUMP_H_3F9A0C51 */
