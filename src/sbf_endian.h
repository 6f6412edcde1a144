/*
 * Byte order of file fields: the one place in src/ that reads and writes
 * little- and big-endian integers from bytes (our format is little endian,
 * Guava's big endian). Byte by byte, so alignment never matters; compilers
 * turn each into one load or store (plus a byte swap for big endian).
 */
#ifndef SBF_ENDIAN_H_6D0E94B1
#define SBF_ENDIAN_H_6D0E94B1

#include <stdint.h>

static inline uint32_t sbfi_get_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline uint64_t sbfi_get_le64(const unsigned char *p)
{
    return (uint64_t)sbfi_get_le32(p) | (uint64_t)sbfi_get_le32(p + 4) << 32;
}

static inline void sbfi_put_le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

static inline void sbfi_put_le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

static inline uint32_t sbfi_get_be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           (uint32_t)p[3];
}

static inline uint64_t sbfi_get_be64(const unsigned char *p)
{
    return (uint64_t)sbfi_get_be32(p) << 32 | (uint64_t)sbfi_get_be32(p + 4);
}

static inline void sbfi_put_be32(unsigned char *p, uint32_t v)
{
    for (int i = 3; i >= 0; i--, v >>= 8)
        p[i] = (unsigned char)v;
}

static inline void sbfi_put_be64(unsigned char *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8)
        p[i] = (unsigned char)v;
}

#endif /* SBF_ENDIAN_H_6D0E94B1 */
