#!/usr/bin/env bash
# make test-neon: cross-compiles the library (scalar reference, the NEON
# kernels, and the portable SIMDe kernels) and tests/conformance.c for
# aarch64, runs the program under qemu-aarch64, and checks that the neon and
# simde kernels give exactly the scalar reference's hashes, filter bytes and
# answers, and that all three reproduce the known-answer vectors of the bit
# layouts; the library is built with its debug assertions (SBF_DEBUG). Installs
# the cross toolchain and qemu when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

SBF_DEPS_NEON=1 bash scripts/deps.sh

CROSS_CC=${CROSS_CC:-aarch64-linux-gnu-gcc}
QEMU=${QEMU:-qemu-aarch64}
OUT=${BUILD:-build}/neon
mkdir -p "$OUT"

WARN="-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wpointer-arith
      -Wcast-qual -Wundef -Wvla -Wformat=2"
CFLAGS_X="-std=c11 -O2 $WARN -Iinclude -Isrc -DSBF_DEBUG"

objs=()
cc_one() { # cc_one <source> <object> [flags...]
  local src=$1 obj=$2; shift 2
  echo "  CC      $src $* (aarch64)"
  # shellcheck disable=SC2086
  $CROSS_CC $CFLAGS_X "$@" -c "$src" -o "$obj"
  objs+=("$obj")
}
for src in src/*.c; do
  base=$(basename "$src" .c)
  if [ "$base" = dispatch ]; then
    cc_one "$src" "$OUT/$base.o" -DSBFI_HAVE_SIMDE -DSBFI_HAVE_NEON
  else
    cc_one "$src" "$OUT/$base.o"
  fi
done
cc_one simd/neon.c "$OUT/neon.o" -DSBFI_KERNEL_NEON
cc_one simd/avx2.c "$OUT/simde.o" -DSBFI_KERNEL_SIMDE
cc_one tests/conformance.c "$OUT/conformance.o" -DSBF_CONF_KEYS=20000

echo "  LD      $OUT/sbf-conformance (static)"
$CROSS_CC -static -O2 -o "$OUT/sbf-conformance" "${objs[@]}" -lm

echo "  RUN     $QEMU $OUT/sbf-conformance"
# No SBF_ISA from the caller's environment: the run checks the default pick.
set +e
env -u SBF_ISA "$QEMU" "$OUT/sbf-conformance" | tee "$OUT/conformance.log"
status=${PIPESTATUS[0]}
set -e
last=$(tail -n 1 "$OUT/conformance.log")
if [ "$status" -ne 0 ] || ! [[ "$last" =~ ^neon:\ [0-9]+\ passed,\ 0\ failed$ ]]; then
  echo "test-neon: FAILED" >&2
  exit 1
fi

# The single-key and SBF_CONCURRENT suites (tests/test_single.c,
# tests/test_concurrent.c) through the Criterion-free runner of the TSan
# build: every kernel, NEON included, against the scalar reference, with
# threads racing, on aarch64's weaker memory model; and the inline header's
# portable path against every kernel (tests/test_inline.c).
echo "  CC      tests/tsan/runner.c (aarch64)"
lib_objs=("${objs[@]}")
unset 'lib_objs[${#lib_objs[@]}-1]'   # not conformance.o
# shellcheck disable=SC2086
$CROSS_CC $CFLAGS_X -Itests -DSBF_TEST_SHIM -static -pthread -o "$OUT/sbf-runner" \
  tests/tsan/runner.c tests/inline_ops.c "${lib_objs[@]}" -lm
echo "  RUN     $QEMU $OUT/sbf-runner"
set +e
env -u SBF_ISA "$QEMU" "$OUT/sbf-runner" | tee "$OUT/runner.log"
status=${PIPESTATUS[0]}
set -e
if [ "$status" -ne 0 ] || ! grep -q '^ok    concurrent/adds_neon$' "$OUT/runner.log" ||
   ! grep -q '^ok    single/neon$' "$OUT/runner.log" ||
   ! grep -q '^ok    inline/path0$' "$OUT/runner.log"; then
  echo "test-neon: the neon single-key/concurrent/inline suites did not pass" >&2
  exit 1
fi
