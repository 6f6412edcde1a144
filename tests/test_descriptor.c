/*
 * The layout descriptor (src/layout.h, src/layout.c): public names, and the
 * facts each row holds, checked against the values they had when they were
 * still written out in every file (shifts, salts, k rules, granules).
 */
#include <criterion/criterion.h>

#include <limits.h>
#include <string.h>

#include "simdbloom.h"
#include "sbf_internal.h"

static const char *const names[] = { "classic", "blocked", "split-block", "counting" };

Test(descriptor, names, .description = "sbf_layout_name / sbf_layout_from_name round trip; unknown ids and names refused") {
    for (int id = 0; id < 4; id++) {
        cr_assert_str_eq(sbf_layout_name(id), names[id]);
        cr_assert_eq(sbf_layout_from_name(names[id]), id);
        cr_assert_eq(sbfi_layout_of(id)->id, id);
    }
    cr_assert_eq(SBF_CLASSIC, 0);
    cr_assert_eq(SBF_COUNTING, 3);
    const int bad_ids[] = { -1, SBFI_NLAYOUTS, 99, INT_MAX, INT_MIN };
    for (size_t i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++) {
        cr_assert_str_eq(sbf_layout_name(bad_ids[i]), "unknown");
        cr_assert_null(sbfi_layout_of(bad_ids[i]));
    }
    const char *bad[] = { "", "Blocked", "split_block", "classic ", "unknown", "splitblock" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(sbf_layout_from_name(bad[i]), SBF_E_LAYOUT, "'%s'", bad[i]);
    cr_assert_eq(sbf_layout_from_name(NULL), SBF_E_LAYOUT);
}

Test(descriptor, shifts, .description = "the named shifts keep the values the format was written with") {
    cr_assert_eq(SBFI_SHIFT_BLOCKED, 23);
    cr_assert_eq(SBFI_SHIFT_COUNTING, 25);
    cr_assert_eq(SBFI_SHIFT_SPLIT, 27);
    cr_assert_eq(SBFI_SHIFT_WORD32, 28);
    cr_assert_eq(SBFI_SHIFT_BYTE, 26);
    cr_assert_eq(SBFI_COUNTING_NIB_SHIFT, 23);
    cr_assert_eq(SBFI_COUNTER_BITS, 4);
    cr_assert_eq(sbfi_layout_of(SBF_BLOCKED)->shift, 23);
    cr_assert_eq(sbfi_layout_of(SBF_SPLIT_BLOCK)->shift, 27);
    cr_assert_eq(sbfi_layout_of(SBF_COUNTING)->shift, 25);
    /* a blocked position's word and bit in it, as the vector probes split it */
    for (uint32_t p = 0; p < 64; p++) {
        const uint32_t prod = p * 0x9e3779b9u + 0x7f4a7c15u;
        const uint32_t pos = prod >> SBFI_SHIFT_BLOCKED;
        cr_assert_eq(prod >> SBFI_SHIFT_WORD32, pos >> 5);
        cr_assert_eq(SBFI_BLOCKED_BIT_IN_WORD(prod), pos & 31);
        const uint32_t ctr = prod >> SBFI_SHIFT_COUNTING;
        cr_assert_eq(prod >> SBFI_SHIFT_WORD32, ctr >> 3);
        cr_assert_eq((prod >> SBFI_COUNTING_NIB_SHIFT) & SBFI_COUNTING_NIB_MASK,
                     (ctr & 7) * SBFI_COUNTER_BITS);
        cr_assert_eq(prod >> SBFI_SHIFT_BYTE, pos >> 3);
    }
}

Test(descriptor, salts, .description = "blocked, split-block and counting share the salts of the first commit") {
    static const uint32_t salt[16] = {
        0xb3315ad9u, 0xa977c1a5u, 0xe6b33c3bu, 0xa63e4075u, 0x74d5a45fu, 0x1d1525d3u,
        0x2bbbf131u, 0xbe1e4ffdu, 0x5b33921fu, 0xc0aacef7u, 0xf51ac6a3u, 0x12e2ddf5u,
        0x51030813u, 0x2dfafb9fu, 0x5994d00du, 0xfd11614du,
    };
    for (int id = SBF_BLOCKED; id <= SBF_COUNTING; id++)
        cr_assert_eq(memcmp(sbfi_layout_of(id)->salt, salt, sizeof salt), 0, "%s", names[id]);
}

/* k accepted by the layout, the public header's rules. */
static int k_rule(int layout, uint32_t k)
{
    switch (layout) {
    case 0: return k >= 1 && k <= SBF_MAX_K_CLASSIC;
    case 2: return k == 8 || k == 16;
    default: return k >= 1 && k <= SBF_MAX_K_BLOCKED;
    }
}

Test(descriptor, geometry, .description = "k rules, granules, largest sizes and block geometry from the descriptor") {
    for (int id = 0; id < 4; id++) {
        for (uint32_t k = 0; k <= 300; k++)
            cr_assert_eq(sbfi_check_k(id, k) == SBF_OK, k_rule(id, k), "%s k %u", names[id], k);
    }
    cr_assert_eq(sbfi_granule_bits(SBF_CLASSIC, 7), 64);
    cr_assert_eq(sbfi_granule_bits(SBF_BLOCKED, 7), 512);
    cr_assert_eq(sbfi_granule_bits(SBF_SPLIT_BLOCK, 8), 256);
    cr_assert_eq(sbfi_granule_bits(SBF_SPLIT_BLOCK, 16), 512);
    cr_assert_eq(sbfi_granule_bits(SBF_COUNTING, 3), 512);
    cr_assert_eq(sbfi_max_bits(SBF_CLASSIC), UINT64_C(64) * INT32_MAX);
    cr_assert_eq(sbfi_max_bits(SBF_BLOCKED), SBF_MAX_BITS);
    cr_assert_eq(sbfi_check_geometry(SBFI_NLAYOUTS, 512, 8), SBF_E_LAYOUT);
    cr_assert_eq(sbfi_check_geometry(-1, 512, 8), SBF_E_LAYOUT);
    cr_assert_eq(sbfi_check_geometry(SBF_SPLIT_BLOCK, 256 * 3, 16), SBF_E_PARAM);
    cr_assert_eq(sbfi_check_geometry(SBF_SPLIT_BLOCK, 256 * 3, 8), SBF_OK);
    /* the filter's fields, as sbf_info reports them */
    static const struct { int layout; uint32_t k; uint32_t block_bits; } g[] = {
        { SBF_CLASSIC, 7, 0 }, { SBF_BLOCKED, 7, 512 }, { SBF_SPLIT_BLOCK, 8, 256 },
        { SBF_SPLIT_BLOCK, 16, 512 }, { SBF_COUNTING, 5, 512 },
    };
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        sbf_params p = { .layout = g[i].layout, .bits = 512 * 6, .k = g[i].k };
        sbf_filter *f;
        cr_assert_eq(sbf_create(&f, &p), SBF_OK);
        struct sbf_info info;
        cr_assert_eq(sbf_info(f, &info), SBF_OK);
        cr_assert_eq(info.block_bits, g[i].block_bits, "%s k %u", names[g[i].layout], g[i].k);
        cr_assert(sbfi_filter_ok(f));
        cr_assert_eq(f->nblocks * sbfi_granule(f->lay, f->k), f->bits);
        cr_assert_eq(f->block_bytes, (uint32_t)1 << f->block_log2);
        sbf_free(f);
    }
}

Test(descriptor, formulas, .description = "each layout's formula is the one its descriptor names, fed with its geometry") {
    const uint64_t n = 1000, bits = 512 * 40;
    cr_assert_float_eq(sbf_fpp_layout(SBF_BLOCKED, n, bits, 7), sbf_fpp_blocked(n, bits, 7, 512), 0);
    cr_assert_float_eq(sbf_fpp_layout(SBF_COUNTING, n, bits, 7),
                       sbf_fpp_blocked(n, bits / 4, 7, 128), 0);
    cr_assert_float_eq(sbf_fpp_layout(SBF_SPLIT_BLOCK, n, bits, 8),
                       sbf_fpp_split_block(n, bits, 8), 0);
    cr_assert(sbf_fpp_layout(10, n, bits, 8) != sbf_fpp_layout(10, n, bits, 8)); /* NaN */
    cr_assert(sbf_fpp_spread(-1, n, bits, 8) != sbf_fpp_spread(-1, n, bits, 8));
}

Test(descriptor, layout_info, .description = "sbf_layout_info: each layout's cells, block and k as its filters show them; unknown layouts, refused k and NULL refused") {
    static const struct {
        int layout;
        uint32_t k, cell_bits, block_bits, k_min, k_max, k_step;
    } want[] = {
        { SBF_CLASSIC, 0, 1, 0, 1, 255, 1 },      { SBF_CLASSIC, 255, 1, 0, 1, 255, 1 },
        { SBF_BLOCKED, 0, 1, 512, 1, 16, 1 },     { SBF_BLOCKED, 16, 1, 512, 1, 16, 1 },
        { SBF_SPLIT_BLOCK, 0, 1, 256, 8, 16, 8 }, { SBF_SPLIT_BLOCK, 16, 1, 512, 8, 16, 8 },
        { SBF_COUNTING, 3, 4, 512, 1, 16, 1 },    { SBF_PARQUET, 8, 1, 256, 8, 8, 1 },
        { SBF_SPLIT_BLOCK_XXH3, 0, 1, 256, 8, 16, 8 }, { SBF_SPLIT_BLOCK_XXH3, 16, 1, 512, 8, 16, 8 },
        { SBF_BLOCKED_XXH3, 0, 1, 512, 1, 16, 1 }, { SBF_COUNTING_XXH3, 5, 4, 512, 1, 16, 1 },
        { SBF_SPLIT_BLOCK_FMIX, 0, 1, 256, 8, 16, 8 }, { SBF_SPLIT_BLOCK_FMIX, 16, 1, 512, 8, 16, 8 },
        { SBF_BLOCKED_FMIX, 0, 1, 512, 1, 16, 1 }, { SBF_BLOCKED_FMIX, 16, 1, 512, 1, 16, 1 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        struct sbf_layout_info li;
        memset(&li, 0xee, sizeof li);
        cr_assert_eq(sbf_layout_info(want[i].layout, want[i].k, &li), SBF_OK, "row %zu", i);
        cr_assert_str_eq(li.name, sbf_layout_name(want[i].layout));
        cr_assert(li.cell_bits == want[i].cell_bits && li.block_bits == want[i].block_bits &&
                  li.k_min == want[i].k_min && li.k_max == want[i].k_max &&
                  li.k_step == want[i].k_step, "row %zu: cell %u block %u k %u..%u step %u", i,
                  li.cell_bits, li.block_bits, li.k_min, li.k_max, li.k_step);
        /* a filter of that layout and k says the same */
        const uint32_t k = want[i].k ? want[i].k : li.k_min;
        sbf_params p = { .layout = want[i].layout, .bits = 512 * 6, .k = k };
        sbf_filter *f;
        cr_assert_eq(sbf_create(&f, &p), SBF_OK, "row %zu", i);
        struct sbf_info in;
        cr_assert_eq(sbf_info(f, &in), SBF_OK);
        cr_assert_eq(in.block_bits, li.block_bits, "row %zu", i);
        cr_assert_eq(sbf_add(f, "x", 1), 1);
        cr_assert_eq(sbf_remove(f, "x", 1) == SBF_OK, li.cell_bits > 1, "row %zu: remove", i);
        sbf_free(f);
    }
    struct sbf_layout_info li;
    cr_assert_eq(sbf_layout_info(SBF_SPLIT_BLOCK, 12, &li), SBF_E_K);
    cr_assert_eq(sbf_layout_info(SBF_BLOCKED, 17, &li), SBF_E_K);
    cr_assert_eq(sbf_layout_info(SBF_PARQUET, 16, &li), SBF_E_K);
    cr_assert_eq(sbf_layout_info(SBFI_NLAYOUTS, 0, &li), SBF_E_LAYOUT);
    cr_assert_eq(sbf_layout_info(-1, 0, &li), SBF_E_LAYOUT);
    cr_assert_eq(sbf_layout_info(SBF_BLOCKED, 0, NULL), SBF_E_NULL);
}

/* sbfi_classic_bit_recip (the ISA kernels' classic bit, no division) against
 * the reference's % m, at the edges of its proof: a at 0, m - 1, m and
 * 2^63 - 1, m a power of two, one above and one below, the largest classic m
 * and odd m the classic layout never makes; then pseudo-random pairs. */
static uint64_t recip_ref(uint64_t c, uint64_t m)
{
    return (c & INT64_MAX) % m;
}

Test(descriptor, classic_recip, .description = "the classic bit by reciprocal equals (c & INT64_MAX) % m at every edge and 10^6 random pairs") {
    const uint64_t ms[] = { 2, 3, 63, 64, 65, 127, 128, 192, 1000003, UINT64_C(64) * 1000003,
                            UINT64_C(1) << 32, (UINT64_C(1) << 32) + 64, (UINT64_C(1) << 37) - 64,
                            UINT64_C(1) << 37, UINT64_C(64) * INT32_MAX, (UINT64_C(1) << 62) + 1,
                            UINT64_C(1) << 63, UINT64_MAX };
    const uint64_t top = (uint64_t)INT64_MAX;
    size_t bad = 0;
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; i++) {
        uint64_t magic; uint32_t shift;
        sbfi_classic_recip(ms[i], &magic, &shift);
        const uint64_t m = ms[i];
        const uint64_t as[] = { 0, 1, m - 1, m, m + 1, 2 * m - 1, top, top - 1, top - m,
                                UINT64_MAX, top + 1, (top / m) * m, (top / m) * m - 1 };
        for (size_t j = 0; j < sizeof as / sizeof as[0]; j++) {
            const uint64_t want = recip_ref(as[j], m);
            const uint64_t got = sbfi_classic_bit_recip(as[j], m, magic, shift);
            if (got != want) {
                cr_log_error("m %llu a %llu: %llu, want %llu", (unsigned long long)m,
                             (unsigned long long)as[j], (unsigned long long)got,
                             (unsigned long long)want);
                bad++;
            }
        }
    }
    uint64_t s = UINT64_C(0x9E3779B97F4A7C15);
    for (int i = 0; i < 1000000; i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        const uint64_t m = 2 + (s >> (s & 63 ? (s & 63) : 1)) % ((UINT64_C(1) << 37) - 2);
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        uint64_t magic; uint32_t shift;
        sbfi_classic_recip(m, &magic, &shift);
        bad += sbfi_classic_bit_recip(s, m, magic, shift) != recip_ref(s, m);
    }
    cr_assert_eq(bad, 0, "%zu pairs differ", bad);
}
