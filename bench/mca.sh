#!/bin/sh
# bench/mca.sh [options]: llvm-mca on the batch kernels' hot loops as built
# (build/obj/simd/*.o; `make mca` builds them first). Options: bench/mca.py --help.
# Needs objdump and llvm-mca (LLVM 19's, for AMD's AVX-512 model znver4:
# apt-get install llvm-19; LLVM_MCA=... picks another).
cd "$(dirname "$0")/.." || exit 2
exec /usr/bin/python3 bench/mca.py "$@"
