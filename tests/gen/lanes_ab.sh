#!/bin/sh
# MurmurHash3 lane kernels of a former commit against this tree's, in one
# process: tests/gen/lanes_ab.c. Usage (from the repository root, after
# make): sh tests/gen/lanes_ab.sh [REV]   (REV: default 1d890ce, before
# simd/lanes_mm512.h). x86-64 with AVX-512 only; not part of make test.
set -e
REV=${1:-1d890ce}
CC=${CC:-cc}
rm -rf build/lanes_old
mkdir -p build/lanes_old
git archive "$REV" simd | tar -x -C build/lanes_old
for v in old:build/lanes_old/simd new:simd; do
    for isa in avx512 avx2; do
        if [ $isa = avx512 ]; then
            f="-mavx512f -mavx512bw -mavx512dq -mavx512vl -mavx2 -mbmi2 -DSBFI_KERNEL_AVX512"
            h=lanes_avx512.h
        else
            f="-mavx2 -mbmi2 -DSBFI_KERNEL_AVX2"
            h=lanes_avx2.h
        fi
        # shellcheck disable=SC2086
        $CC -std=c11 -O3 $f -Iinclude -Isrc -I"${v#*:}" -DAB_NAME="${v%%:*}_$isa" \
            -DAB_HDR="\"$h\"" -c tests/gen/lanes_ab_kern.c -o "build/ab_${v%%:*}_$isa.o"
    done
done
$CC -std=c11 -O2 -Iinclude tests/gen/lanes_ab.c build/ab_old_avx512.o build/ab_new_avx512.o \
    build/ab_old_avx2.o build/ab_new_avx2.o build/libsimdbloom.a -lm -o build/lanes_ab
exec build/lanes_ab
