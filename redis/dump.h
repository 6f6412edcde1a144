/*
 * BF.SCANDUMP / BF.LOADCHUNK form of a chain (dump.c), and the staging of
 * chunks into a loading chain. No Redis here.
 *
 * A dump is a header, then each sub-filter's sbf_serialize bytes in chunks
 * of up to 16 MiB. The iterator that comes with a chunk is
 * (sub-filter << 40) + (offset of the chunk's end in its bytes) + 1, so
 * BF.LOADCHUNK knows where each chunk belongs and takes them in order only.
 */
#ifndef SBFR_DUMP_H_3F9A0C51
#define SBFR_DUMP_H_3F9A0C51

#include "chain.h"

#define SBFR_CHUNK (16u << 20) /* SCANDUMP chunk, as RedisBloom */
#define SBFR_ITER_SHIFT 40
#define SBFR_ITER_MASK ((UINT64_C(1) << SBFR_ITER_SHIFT) - 1)

#define SBFR_ERR_EXISTS "ERR item exists"
#define SBFR_ERR_BAD_DATA "ERR received bad data"

uint64_t sbfr_dbl_bits(double d);

/* The serialized bytes of sub-filter l (a loaded one). */
int sbfr_link_bytes(const sbfr_chain *c, uint32_t l, void **buf, size_t *len);

/* The header (sbfr_alloc'd, *len bytes); NULL when out of memory. */
unsigned char *sbfr_dump_header(const sbfr_chain *c, size_t *len);

/* A loading chain from a header, or NULL with *why set to the reply. */
sbfr_chain *sbfr_chain_from_header(const unsigned char *h, size_t len, const char **why);

/* The sub-filter being loaded: the first without a filter. */
uint32_t sbfr_loading_link(const sbfr_chain *c);

/* Takes the chunk that ends at `end` in sub-filter l. On error nothing
 * changes and the reply text is returned; NULL on success. */
const char *sbfr_chain_load_chunk(sbfr_chain *c, uint32_t l, uint64_t end, const char *buf,
                                  size_t len);

#endif /* SBFR_DUMP_H_3F9A0C51 */
