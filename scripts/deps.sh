#!/usr/bin/env bash
# Installs the Debian packages that `make test` and `make bench` need, when
# something is missing. As root it runs apt-get; otherwise it names them.
set -euo pipefail
need=()
have_hdr() { [ -f "/usr/include/$1" ]; }
have_hdr simde/x86/avx2.h          || need+=(libsimde-dev)
have_hdr criterion/criterion.h     || need+=(libcriterion-dev)
have_hdr bloom.h                   || need+=(libbloom-dev)
have_hdr xxhash.h                  || need+=(libxxhash-dev)
command -v gnuplot >/dev/null      || need+=(gnuplot-nox)
command -v valgrind >/dev/null     || need+=(valgrind)
command -v pkg-config >/dev/null   || need+=(pkg-config)
command -v python3 >/dev/null      || need+=(python3)
if [ "${SBF_DEPS_CXX:-0}" = 1 ]; then
  command -v g++ >/dev/null || need+=(g++)
fi
if [ "${SBF_DEPS_NEON:-0}" = 1 ]; then
  command -v aarch64-linux-gnu-gcc >/dev/null || need+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
  command -v qemu-aarch64 >/dev/null || need+=(qemu-user)
fi
if [ "${SBF_DEPS_REDIS:-0}" = 1 ]; then  # make test-redis / bench-redis
  command -v redis-server >/dev/null || need+=(redis-server)
  command -v redis-cli >/dev/null    || need+=(redis-tools)
  [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import redis' 2>/dev/null || need+=(python3-redis)
fi
[ ${#need[@]} -eq 0 ] && exit 0
as_root=()
if [ "$(id -u)" != 0 ]; then
  # a user who may sudo without a password gets them installed too
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    as_root=(sudo -n)
  else
    echo "simdbloom needs these Debian packages: ${need[*]}" >&2
    echo "install them with: sudo apt-get install ${need[*]}" >&2
    exit 1
  fi
fi
echo "deps: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >&2
