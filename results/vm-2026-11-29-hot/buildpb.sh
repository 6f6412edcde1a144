#!/bin/bash
# buildpb.sh TREE OUT : peerbench as run.sh builds it, against TREE's include/ and build/libsimdbloom.a
set -e
SBF=$1; OUT=$2; P=/work/shared/peers
CXXFLAGS="-std=c++17 -O3 -march=native -Wall -Wno-unused-function -Wno-sign-compare -Wno-misleading-indentation"
g++ $CXXFLAGS -I"$SBF/include" -I"$P/rocksdb" -I"$P/boost/include" -I"$P/fastfilter" \
      "$P/drivers/peerbench.cpp" "$SBF/build/libsimdbloom.a" -lbloom -lm -lpthread -o "$OUT"
