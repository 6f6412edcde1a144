#!/usr/bin/env bash
# Installs the DuckDB oracle: the npm package @duckdb/node-api (DuckDB's
# binary ships inside it, nothing is downloaded at install time) in a
# scratch folder, $DUCKDB_DIR (default build/duckdb). Installs nodejs and
# npm with apt-get when `node` is missing and we are root (Debian 12).
# `make duckdb-setup` runs it; `make test-duckdb` runs it first.
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${DUCKDB_DIR:-build/duckdb}
VERSION=1.5.6-r.1
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    echo "duckdb: installing nodejs npm" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2
    apt-get install -y -q --no-install-recommends nodejs npm >&2
  else
    echo "duckdb: needs node and npm (sudo apt-get install nodejs npm)" >&2
    exit 1
  fi
fi
if [ -f "$DIR/node_modules/@duckdb/node-api/package.json" ] &&
   grep -q "\"version\": \"$VERSION\"" "$DIR/node_modules/@duckdb/node-api/package.json"; then
  exit 0
fi
mkdir -p "$DIR"
[ -f "$DIR/package.json" ] || echo '{"private": true}' > "$DIR/package.json"
echo "duckdb: npm install @duckdb/node-api@$VERSION in $DIR" >&2
(cd "$DIR" && npm install --no-audit --no-fund --loglevel=error "@duckdb/node-api@$VERSION" >&2)
