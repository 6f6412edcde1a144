#!/usr/bin/env bash
# Regenerates the Guava-compatibility test vectors in tests/vectors/ from
# tests/guava/GuavaVectors.java using Google Guava 31.1.
#
# The generated files are committed to the repository; the C test suite reads
# them directly and does NOT need Java. Run this script only to regenerate them
# (e.g. after changing GuavaVectors.java).
#
# Requirements (Debian/Ubuntu): default-jdk-headless libguava-java
# (Java 11+; the vectors were generated with OpenJDK 17 and Guava 31.1).
# Override the jar location with GUAVA_JAR=/path/to/guava-31.1-jre.jar.
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out_dir="$script_dir/../vectors"
guava_jar="${GUAVA_JAR:-/usr/share/java/guava.jar}"

missing=()
command -v java >/dev/null 2>&1 || missing+=("java")
command -v javac >/dev/null 2>&1 || missing+=("javac")
[ -f "$guava_jar" ] || missing+=("$guava_jar")
if [ "${#missing[@]}" -ne 0 ]; then
    echo "gen.sh: missing: ${missing[*]}" >&2
    echo "gen.sh: install with: sudo apt-get install default-jdk-headless libguava-java" >&2
    exit 1
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

javac -cp "$guava_jar" -d "$tmp" "$script_dir/GuavaVectors.java"
mkdir -p "$out_dir"
java -cp "$guava_jar:$tmp" GuavaVectors "$out_dir"
