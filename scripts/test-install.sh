#!/usr/bin/env bash
# `make install PREFIX=tmp`, then a program built with pkg-config links and
# runs against both the shared and the static library.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -s install PREFIX="$tmp/prefix" >/dev/null
cat > "$tmp/app.c" <<'C'
#include <simdbloom.h>
#include <stdio.h>
int main(void)
{
    sbf_params p = { .layout = SBF_BLOCKED, .expected_n = 1000, .fpp = 0.01 };
    sbf_filter *f;
    int rc = sbf_create(&f, &p);
    if (rc != SBF_OK) { fprintf(stderr, "%s\n", sbf_strerror(rc)); return 1; }
    sbf_add(f, "hello", 5);
    int ok = sbf_contains(f, "hello", 5) == 1 && sbf_version() == SBF_VERSION_NUMBER;
    /* declared in simdbloom.h's parts, installed beside it */
    ok = ok && sbf_format_from_name("sbf") == SBF_FORMAT_SBF && SBF_PQ_INT64 == 2;
    sbf_parquet_close(NULL);
    sbf_free(f);
    printf("%s %s\n", ok ? "ok" : "FAIL", sbf_version_string());
    return ok ? 0 : 1;
}
C
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
cc "$tmp/app.c" $(pkg-config --cflags --libs simdbloom) -o "$tmp/app-shared"
LD_LIBRARY_PATH="$tmp/prefix/lib" "$tmp/app-shared"
cc "$tmp/app.c" $(pkg-config --cflags simdbloom) "$tmp/prefix/lib/libsimdbloom.a" \
   $(pkg-config --libs-only-other --static simdbloom) -lm -o "$tmp/app-static"
"$tmp/app-static"
# One version everywhere: the header's, pkg-config's, the library's at run
# time; and the soname rule (Makefile): MAJOR.MINOR while the major is 0
# (every 0.x minor may change the ABI), MAJOR from 1.0 on.
v() { sed -n "s/^#define SBF_VERSION_$1 \([0-9]*\)$/\1/p" include/simdbloom.h; }
version="$(v MAJOR).$(v MINOR).$(v RELEASE)"
soname=libsimdbloom.so.$(v MAJOR)
[ "$(v MAJOR)" = 0 ] && soname=libsimdbloom.so.0.$(v MINOR)
[ "$(pkg-config --modversion simdbloom)" = "$version" ] || { echo "pkg-config version"; exit 1; }
[ "$(LD_LIBRARY_PATH="$tmp/prefix/lib" "$tmp/app-shared")" = "ok $version" ] || exit 1
readelf -d "$tmp/prefix/lib/libsimdbloom.so" | grep -c "(SONAME) *Library soname: \[$soname\]$" >/dev/null ||
  { echo "soname is not $soname"; readelf -d "$tmp/prefix/lib/libsimdbloom.so" | grep SONAME; exit 1; }
readelf -d "$tmp/app-shared" | grep -c "(NEEDED) *Shared library: \[$soname\]$" >/dev/null || exit 1
[ "$(readlink "$tmp/prefix/lib/$soname")" = "libsimdbloom.so.$version" ] || exit 1
# The sbf command is installed and runs.
"$tmp/prefix/bin/sbf" --help | grep -c '^usage: sbf COMMAND' >/dev/null
echo "install: 4 passed, 0 failed ($version, soname $soname)"
