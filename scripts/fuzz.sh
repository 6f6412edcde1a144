#!/usr/bin/env bash
# make fuzz: builds the libFuzzer targets in fuzz/ with clang
# (-fsanitize=fuzzer,address,undefined; the library with fuzzer-no-link) and
# runs each for FUZZ_SECONDS (default 60) from its committed seed corpus in
# fuzz/corpus/<target>/. New inputs go to $BUILD/fuzz/corpus/<target>/, crash
# reproducers to $BUILD/fuzz/artifacts/. Prints each target's executions.
# FUZZ_TARGETS="deserialize guava file" selects targets.
set -euo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
OUT=${BUILD:-build}/fuzz
SECONDS_EACH=${FUZZ_SECONDS:-60}
TARGETS=${FUZZ_TARGETS:-deserialize guava file parquet_file parquet_form scalable}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
# clang and its libFuzzer runtime (Debian: clang, libclang-rt-14-dev)
fuzz_ok() {
  command -v clang >/dev/null &&
    printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' |
      clang -x c - -fsanitize=fuzzer -o /dev/null 2>/dev/null
}
if ! fuzz_ok; then
  if [ "$(id -u)" = 0 ]; then
    echo "fuzz: installing clang libclang-rt-14-dev" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends clang libclang-rt-14-dev >&2
  fi
  fuzz_ok || { echo "fuzz: needs clang with libFuzzer (apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }
fi

$MAKE -s CC=clang BUILD="$OUT/lib" SIMD="${SIMD:-1}" \
  CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link $SAN" \
  "$OUT/lib/libsimdbloom.a"
mkdir -p "$OUT/artifacts"
total=0
for t in $TARGETS; do
  echo "  CC      fuzz/fuzz_$t.c"
  clang -std=c11 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer $SAN -Wall -Wextra \
    -Iinclude -Ifuzz "fuzz/fuzz_$t.c" "$OUT/lib/libsimdbloom.a" -lm -o "$OUT/fuzz_$t"
  mkdir -p "$OUT/corpus/$t"
  echo "  FUZZ    $t for ${SECONDS_EACH}s"
  log="$OUT/fuzz_$t.log"
  set +e
  "$OUT/fuzz_$t" -max_total_time="$SECONDS_EACH" -max_len=16384 -print_final_stats=1 \
    -artifact_prefix="$OUT/artifacts/$t-" "$OUT/corpus/$t" "fuzz/corpus/$t" >"$log" 2>&1
  status=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$log" >&2
    echo "fuzz: $t FAILED (exit $status); log $log, reproducer in $OUT/artifacts/" >&2
    exit 1
  fi
  echo "fuzz: $t ${execs:-?} executions in ${SECONDS_EACH}s, corpus $(ls "$OUT/corpus/$t" | wc -l) + $(ls "fuzz/corpus/$t" | wc -l) seeds"
  total=$((total + ${execs:-0}))
done
echo "fuzz: $total executions in total, no crash"
