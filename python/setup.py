"""Builds simdbloom._core, the CPython extension, linked statically against
libsimdbloom.a (built by the repository's Makefile: `make python` does both).

SIMDBLOOM_LIB names the archive (default ../build/libsimdbloom.a; when it is
missing, `make -C .. lib` builds it). The archive's objects are -fPIC.
"""
import os
import subprocess

import platform

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# x86-64: the one-key view calls also built for AVX2 and AVX-512 (only
# these two files get the flags; _core.c picks one at import from what the
# library says the CPU runs)
X86_VIEWS = {"src/view_avx2.c": ["-mavx2", "-mbmi2"],
             "src/view_avx512.c": ["-mavx512f", "-mavx512bw", "-mavx512dq", "-mavx512vl",
                                   "-mbmi2"]}
x86 = platform.machine() in ("x86_64", "AMD64")


class BuildExt(build_ext):
    def build_extension(self, ext):
        if x86:
            objs = []
            for src, flags in X86_VIEWS.items():
                objs += self.compiler.compile([src], output_dir=self.build_temp,
                                              include_dirs=ext.include_dirs,
                                              extra_postargs=ext.extra_compile_args + flags,
                                              depends=ext.depends)
            ext.extra_objects = objs + list(ext.extra_objects)  # before the archive: it supplies what they call
        super().build_extension(ext)

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
            define_macros=[("SBFPY_X86_VIEWS", "1")] if x86 else [],
            include_dirs=[os.path.join(root, "include")],
            extra_objects=[lib],
            depends=[lib] + [os.path.join(root, "include", h) for h in
                             ("simdbloom.h", "simdbloom_files.h", "simdbloom_parquet.h",
                              "simdbloom_inline.h", "simdbloom_inline_x86.h", "simdbloom_layout.h")]
            + ["src/view_isa.h", "src/view_isa.inc"] + list(X86_VIEWS),
            # the library's warning list (Makefile WARN); gcc and clang are clean
            extra_compile_args=["-std=c11", "-fvisibility=hidden", "-Wall", "-Wextra", "-Wshadow", "-Wstrict-prototypes",
                                "-Wmissing-prototypes", "-Wpointer-arith", "-Wcast-qual",
                                "-Wundef", "-Wvla", "-Wformat=2",
                                "-Wno-missing-field-initializers", "-Wno-cast-function-type"],
            # the library's sbf_ symbols stay inside the extension
            extra_link_args=["-Wl,--exclude-libs,ALL", "-lm"],
        )
    ],
    python_requires=">=3.10",
    cmdclass={"build_ext": BuildExt},
)
