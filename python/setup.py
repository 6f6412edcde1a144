"""Builds simdbloom._core, the CPython extension, linked statically against
libsimdbloom.a (built by the repository's Makefile: `make python` does both).

SIMDBLOOM_LIB names the archive (default ../build/libsimdbloom.a; when it is
missing, `make -C .. lib` builds it). The archive's objects are -fPIC.
"""
import os
import subprocess

from setuptools import Extension, setup

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
lib = os.environ.get("SIMDBLOOM_LIB", os.path.join(root, "build", "libsimdbloom.a"))
if not os.path.exists(lib) and "SIMDBLOOM_LIB" not in os.environ:
    subprocess.check_call(["make", "-C", root, "-j2", "lib"])

setup(
    name="simdbloom",
    version="0.2.0",
    description="Fast Bloom filters: a CPython binding of the simdbloom C library",
    packages=["simdbloom"],
    package_data={"simdbloom": ["py.typed", "*.pyi"]},
    ext_modules=[
        Extension(
            "simdbloom._core",
            sources=["src/_core.c"],
            include_dirs=[os.path.join(root, "include")],
            extra_objects=[lib],
            depends=[lib] + [os.path.join(root, "include", h) for h in
                             ("simdbloom.h", "simdbloom_files.h", "simdbloom_parquet.h")],
            # the library's warning list (Makefile WARN); gcc and clang are clean
            extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-Wshadow", "-Wstrict-prototypes",
                                "-Wmissing-prototypes", "-Wpointer-arith", "-Wcast-qual",
                                "-Wundef", "-Wvla", "-Wformat=2",
                                "-Wno-missing-field-initializers", "-Wno-cast-function-type"],
            # the library's sbf_ symbols stay inside the extension
            extra_link_args=["-Wl,--exclude-libs,ALL", "-lm"],
        )
    ],
    python_requires=">=3.10",
)
