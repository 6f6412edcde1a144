# simdbloom: one entry point.
#   make            build/libsimdbloom.a and build/libsimdbloom.so
#   make test       build and run the Criterion suites
#   make bench      the benchmark harness (results/runs/<host>-<date>-<time>/)
#   make help       everything else
# Variables: CC, CFLAGS (default -O3), SIMD=0 (scalar only), SAN=1
# (AddressSanitizer + UBSan), SAN=thread (ThreadSanitizer), BUILD (out-of-tree dir), PREFIX, DESTDIR, V=1.

CC      ?= cc
CFLAGS  ?= -O3
BUILD   ?= build
PREFIX  ?= /usr/local
LIBDIR  ?= $(PREFIX)/lib
INCDIR  ?= $(PREFIX)/include
SIMD    ?= 1
SAN     ?= 0

VERSION_MAJOR := $(shell sed -n 's/^\#define SBF_VERSION_MAJOR \([0-9]*\)/\1/p' include/simdbloom.h)
VERSION_MINOR := $(shell sed -n 's/^\#define SBF_VERSION_MINOR \([0-9]*\)/\1/p' include/simdbloom.h)
VERSION_RELEASE := $(shell sed -n 's/^\#define SBF_VERSION_RELEASE \([0-9]*\)/\1/p' include/simdbloom.h)
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_RELEASE)
# The soname names the ABI: a program linked against one soname runs against
# any library of that soname. While the major version is 0, every minor
# release may change the ABI (0.2 grew sbf_params and struct sbf_info and
# added functions), so the soname carries MAJOR.MINOR (libsimdbloom.so.0.2)
# and a program built against 0.1 is refused by 0.2 at load time instead of
# misreading a struct; from 1.0 on, only a major release changes it.
ifeq ($(VERSION_MAJOR),0)
  SONAME := libsimdbloom.so.$(VERSION_MAJOR).$(VERSION_MINOR)
else
  SONAME := libsimdbloom.so.$(VERSION_MAJOR)
endif

WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wcast-qual -Wundef -Wvla -Wformat=2
BASE    := -std=c11 -fPIC -fvisibility=hidden -MMD -MP $(WARN)
CPPFLAGS += -Iinclude -Isrc
ifeq ($(SAN),1)
  # SBF_DEBUG: the library's internal assertions (SBFI_ASSERT) too.
  CPPFLAGS += -DSBF_DEBUG
  CFLAGS += -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
            -fno-sanitize-recover=all
  LDFLAGS += -fsanitize=address,undefined
endif

# SAN=thread: ThreadSanitizer (`make test-tsan` runs the concurrency suites).
ifeq ($(SAN),thread)
  CFLAGS += -O1 -g -fno-omit-frame-pointer -fsanitize=thread
  LDFLAGS += -fsanitize=thread
endif

ifeq ($(V),1)
  Q :=
else
  Q := @
endif

ARCH := $(shell $(CC) -dumpmachine 2>/dev/null)
# Per-ISA objects: the vector kernels get their own flags, nothing else does.
SIMD_OBJ :=
SIMD_DEFS :=
ifneq ($(SIMD),0)
  ifneq ($(filter x86_64%,$(ARCH)),)
    SIMD_OBJ  := $(BUILD)/obj/simd/simde.o $(BUILD)/obj/simd/avx2.o $(BUILD)/obj/simd/avx512.o
    SIMD_DEFS := -DSBFI_HAVE_SIMDE -DSBFI_HAVE_AVX2 -DSBFI_HAVE_AVX512
  else ifneq ($(filter aarch64%,$(ARCH)),)
    SIMD_OBJ  := $(BUILD)/obj/simd/simde.o $(BUILD)/obj/simd/neon.o
    SIMD_DEFS := -DSBFI_HAVE_SIMDE -DSBFI_HAVE_NEON
  else
    SIMD_OBJ  := $(BUILD)/obj/simd/simde.o
    SIMD_DEFS := -DSBFI_HAVE_SIMDE
  endif
endif
FLAGS_avx2   := -mavx2 -mbmi2 -DSBFI_KERNEL_AVX2
FLAGS_simde  := -DSBFI_KERNEL_SIMDE -Wno-psabi
FLAGS_avx512 := -mavx512f -mavx512bw -mavx512dq -mavx512vl -mbmi2 -DSBFI_KERNEL_AVX512
FLAGS_neon   := -DSBFI_KERNEL_NEON

# Objects depend on a stamp of the flags, so changing CC, CFLAGS, SIMD or
# SAN rebuilds what they affect without a `make clean`.
FLAGS_NOW   := $(CC) | $(CPPFLAGS) | $(CFLAGS) | $(BASE) | $(LDFLAGS) | $(SIMD_DEFS) | $(FLAGS_simde) | $(FLAGS_avx2) | $(FLAGS_avx512) | $(FLAGS_neon)
FLAGS_STAMP := $(BUILD)/.flags
$(shell mkdir -p $(BUILD) && (printf '%s\n' '$(FLAGS_NOW)' | cmp -s - $(FLAGS_STAMP) 2>/dev/null || printf '%s\n' '$(FLAGS_NOW)' > $(FLAGS_STAMP)))

SRC     := $(wildcard src/*.c)
OBJ     := $(SRC:%.c=$(BUILD)/obj/%.o) $(SIMD_OBJ)
LIB_A   := $(BUILD)/libsimdbloom.a
LIB_SO  := $(BUILD)/libsimdbloom.so.$(VERSION)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(BUILD)/sbf-tests
BENCH_SRC := $(wildcard bench/*.c)
BENCH_BIN := $(BUILD)/sbf-bench
LIBS    := -lm

.PHONY: all lib cli test fpr-timing check-readme bench-peers bench-peers-hash bench bench-inline check-inline-warnings bench-quick bench-compare bench-check bench-baseline mca \
        test-neon test-san test-tsan install uninstall clean help deps symbols cycles kat check-cxx \
        test-isas fuzz

all: lib cli
lib: $(LIB_A) $(LIB_SO)

$(BUILD)/obj/src/dispatch.o: CPPFLAGS += $(SIMD_DEFS)

# The library's own code includes simdbloom_inline.h for the layouts' facts
# and its probes compiled with each file's flags, never the calls of its
# own kernels that programs built without vector flags make.
LIB_DEFS := -DSBF_INLINE_NO_KERNELS
$(BUILD)/obj/src/%.o: src/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) $(CFLAGS) $(LIB_DEFS) -c $< -o $@

# One rule for every simd/ object: $(BUILD)/obj/simd/<name>.o is built from
# SIMD_SRC_<name> (default simd/<name>.c) with FLAGS_<name>. simd/avx2.c is
# compiled twice: native AVX2, and the portable SIMDe kernel.
SIMD_SRC_simde := simd/avx2.c
.SECONDEXPANSION:
$(BUILD)/obj/simd/%.o: $$(or $$(SIMD_SRC_$$*),simd/$$*.c) $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $< ($*)")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) $(CFLAGS) $(LIB_DEFS) $(FLAGS_$*) -c $< -o $@

$(LIB_A): $(OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(LIB_SO): $(OBJ)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared -Wl,-soname,$(SONAME) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)
	$(Q)ln -sf libsimdbloom.so.$(VERSION) $(BUILD)/$(SONAME)
	$(Q)ln -sf libsimdbloom.so.$(VERSION) $(BUILD)/libsimdbloom.so

# Every exported symbol of the shared library starts with sbf_.
symbols: $(LIB_SO)
	@bad=$$(nm -D --defined-only $(LIB_SO) | awk '$$2 ~ /^[TDBRVW]$$/ {print $$3}' | grep -v '^sbf_' || true); \
	if [ -n "$$bad" ]; then echo "exported symbols without sbf_ prefix:"; echo "$$bad"; exit 1; fi; \
	echo "symbols: $$(nm -D --defined-only $(LIB_SO) | grep -c ' T sbf_') exported, all sbf_"

# No two src/ files call or include each other in a circle.
cycles: $(LIB_A)
	@bash scripts/src-cycles.sh $(BUILD)/obj/src

# -------------------------------------------------------------- sbf (CLI)
# cli/ sees only the public header, and links the static library; every
# cli/*.c is part of sbf (a new command is one file there, see cli/cli.h).
CLI_BIN := $(BUILD)/sbf
BINDIR  ?= $(PREFIX)/bin
cli: $(CLI_BIN)

$(BUILD)/obj/cli/%.o: cli/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) -Iinclude $(BASE) $(CFLAGS) -c $< -o $@

# cli/cmd_dedup_pass.c (sbf dedup's deciding loops) is compiled once more
# per x86 ISA, with its flags, for the inline probes of that ISA; sbf picks
# the one of the ISA the library runs
CLI_PASS := $(if $(filter-out 0,$(SIMD)),$(if $(filter x86_64%,$(ARCH)),avx2 avx512))
CLI_PASS_OBJ := $(CLI_PASS:%=$(BUILD)/obj/cli/cmd_dedup_pass_%.o)
$(BUILD)/obj/cli/cmd_dedup_pass.o: BASE += $(CLI_PASS:%=-DDEDUP_PASS_%)
$(CLI_PASS_OBJ): $(BUILD)/obj/cli/cmd_dedup_pass_%.o: cli/cmd_dedup_pass.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $< ($*)")
	$(Q)$(CC) -Iinclude $(BASE) $(CFLAGS) $(filter-out -D%,$(FLAGS_$*)) -DDEDUP_PASS_ISA=$* -c $< -o $@
CLI_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard cli/*.c)) $(CLI_PASS_OBJ)
$(CLI_BIN): $(CLI_OBJ) $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS) -lpthread

# ------------------------------------------------------------------ tests
$(BUILD)/obj/tests/%.o: tests/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) $(CFLAGS) -DSBF_SOURCE_DIR='"$(CURDIR)"' -c $< -o $@

# include/simdbloom_inline.h once per vector path it has (tests/inline_ops.c,
# each with that path's flags); tests/test_inline.c runs the ones this CPU
# runs against the library.
# avx512 hashes 8-byte keys with two scalar fmix64 chains, avx512v with
# both in one vector (SBF_INLINE_HASH8_VEC: the header's two forms).
# auto is the header as a program built without vector flags gets it: on
# x86-64 the calls of the filter's kernels.
INLINE_PATHS := portable auto
ifneq ($(filter x86_64%,$(ARCH)),)
  INLINE_PATHS += avx2 avx512 avx512v
endif
INLINE_FLAGS_portable := -DSBF_INLINE_ISA=1
INLINE_FLAGS_auto     :=
INLINE_FLAGS_avx2     := -DSBF_INLINE_ISA=3 -mavx2 -mbmi2
INLINE_AVX512         := -DSBF_INLINE_ISA=4 -mavx512f -mavx512bw -mavx512dq -mavx512vl -mbmi2
INLINE_FLAGS_avx512   := $(INLINE_AVX512) -DSBF_INLINE_HASH8_VEC=0
INLINE_FLAGS_avx512v  := $(INLINE_AVX512) -DSBF_INLINE_HASH8_VEC=1
INLINE_OBJ := $(INLINE_PATHS:%=$(BUILD)/obj/tests/inline_ops_%.o)
$(INLINE_OBJ): $(BUILD)/obj/tests/inline_ops_%.o: tests/inline_ops.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $< ($*)")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) $(CFLAGS) $(INLINE_FLAGS_$*) -DINLINE_OPS=inline_ops_$* -c $< -o $@

$(TEST_BIN): $(TEST_SRC:%.c=$(BUILD)/obj/%.o) $(INLINE_OBJ) $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lcriterion $(LIBS) -lpthread

# Known-answer vectors of the bit layouts (tests/kat.h): `make kat`
# regenerates the committed file with the scalar reference. `make test`
# never needs it; it checks the committed file.
KAT_FILE := tests/vectors/layouts_kat.inc
$(BUILD)/sbf-gen-kat: $(BUILD)/obj/tests/gen_kat.o $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

KAT_OUT ?= $(KAT_FILE)
kat: $(BUILD)/sbf-gen-kat
	$(BUILD)/sbf-gen-kat > $(KAT_OUT).tmp && mv $(KAT_OUT).tmp $(KAT_OUT)

# A program that includes simdbloom_inline.h gets no warning: gcc and clang,
# C and C++, -O3 -Wall -Wextra, without -march (the calls of the library's
# kernels) and with -march=native (the vector probes inlined) where the
# compiler knows this CPU.
INLINE_WARN_CC := gcc g++ clang clang++
check-inline-warnings:
	@for cc in $(INLINE_WARN_CC); do for m in "" -march=native; do \
	  case $$cc in *++) x="-x c++";; *) x="-x c";; esac; \
	  echo "  $$cc -O3 $$m -Wall -Wextra -Werror  tests/inline_warn.c"; \
	  $$cc $$x -O3 $$m -Wall -Wextra -Wimplicit-fallthrough -Werror -Iinclude \
	    -c tests/inline_warn.c -o /dev/null || exit 1; \
	done; done

# The public header as C++: compiled pedantic and warning-free as C++11 and
# C++17, linked against the library, run. And each part of simdbloom.h
# (PUBLIC_PARTS) included alone stops at its #error, as C and as C++.
CXX ?= g++
CXXWARN := -Wall -Wextra -Werror -pedantic
check-cxx: $(LIB_A) check-inline-warnings
	@SBF_DEPS_CXX=1 bash scripts/deps.sh
	@for std in c++11 c++17; do for path in $(INLINE_PATHS); do \
	  case $$path in portable) fl="$(INLINE_FLAGS_portable)";; avx2) fl="$(INLINE_FLAGS_avx2)";; \
	    avx512v) fl="$(INLINE_FLAGS_avx512v)";; *) fl="$(INLINE_FLAGS_avx512)";; esac; \
	  echo "  CXX     tests/cxx_header.cpp (-std=$$std, inline $$path)"; \
	  $(CXX) -std=$$std -O2 $(CXXWARN) -Iinclude $$fl $(filter -fsanitize=%,$(CFLAGS)) \
	    tests/cxx_header.cpp -o $(BUILD)/sbf-cxx-$$std $(LDFLAGS) $(LIB_A) $(LIBS) && \
	  $(BUILD)/sbf-cxx-$$std || exit 1; \
	done; done
	@for h in $(notdir $(PUBLIC_PARTS)); do for cc in "$(CC) -x c" "$(CXX) -x c++"; do \
	  if echo "#include <$$h>" | $$cc -Iinclude -fsyntax-only - 2>$(BUILD)/sbf-part.err; then \
	    echo "$$h compiled on its own ($$cc): it must refuse"; exit 1; fi; \
	  grep -q 'error: .*is part of simdbloom.h' $(BUILD)/sbf-part.err || \
	    { cat $(BUILD)/sbf-part.err; exit 1; }; \
	done; done; echo "  parts   $(notdir $(PUBLIC_PARTS)): refused alone (C, C++)"
	@for h in $(notdir $(INLINE_PARTS)); do for cc in "$(CC) -x c" "$(CXX) -x c++"; do \
	  if echo "#include <$$h>" | $$cc -Iinclude -fsyntax-only - 2>$(BUILD)/sbf-part.err; then \
	    echo "$$h compiled on its own ($$cc): it must refuse"; exit 1; fi; \
	  grep -q 'error: .*is part of simdbloom_inline.h' $(BUILD)/sbf-part.err || \
	    { cat $(BUILD)/sbf-part.err; exit 1; }; \
	done; done; echo "  parts   $(notdir $(INLINE_PARTS)): refused alone (C, C++)"

ifeq ($(SAN),1)
  TEST_ENV := LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp UBSAN_OPTIONS=print_stacktrace=1
endif

test: deps $(TEST_BIN) symbols cycles $(CLI_BIN)
	$(TEST_ENV) $(BUILD)/sbf-tests $(TEST_ARGS)
	$(TEST_ENV) bash tests/cli.sh $(CLI_BIN)
	$(TEST_ENV) bash tests/parquet_cli.sh $(CLI_BIN)

# The whole suite once per ISA this machine runs, forced through SBF_ISA, as
# xxHash's CI runs once per vector path (about 10 s each).
$(BUILD)/sbf-isa-avail: $(BUILD)/obj/tests/isa_avail.o $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

test-isas: deps $(TEST_BIN) $(BUILD)/sbf-isa-avail
	@isas=$$(env -u SBF_ISA $(BUILD)/sbf-isa-avail) && test -n "$$isas" && \
	for isa in $$isas; do \
	  echo "=== SBF_ISA=$$isa"; \
	  SBF_ISA=$$isa $(TEST_ENV) $(BUILD)/sbf-tests $(TEST_ARGS) || exit 1; \
	done

test-san:
	$(MAKE) BUILD=build/san SAN=1 test

# Every ```c block of README.md compiles as written (whole programs also
# run): scripts/readme-snippets.sh.
check-readme: $(LIB_A)
	BUILD="$(BUILD)" CC="$(CC)" LIBS="$(LIBS)" bash scripts/readme-snippets.sh

# Times and counted work of the formulas and sbf_size (tests/fpr_timing.c;
# the suite bounds only the work). FPR_TIMING_ARGS: quick | size.
$(BUILD)/fpr-timing: $(BUILD)/obj/tests/fpr_timing.o $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

fpr-timing: $(BUILD)/fpr-timing
	$(BUILD)/fpr-timing $(FPR_TIMING_ARGS)

# Real classic filters against their bound (tests/classic_sim.c, doc/promises.md).
$(BUILD)/classic-sim: $(BUILD)/obj/tests/classic_sim.o $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

test-neon: deps
	bash scripts/test-neon.sh

# The SBF_CONCURRENT and single-key suites under ThreadSanitizer, through a
# small runner (tests/tsan/): Criterion's runner cannot start under TSan.
TSAN_BUILD := build/tsan
test-tsan:
	$(MAKE) BUILD=$(TSAN_BUILD) SAN=thread lib
	$(CC) $(CPPFLAGS) -Itests $(BASE) -O1 -g -fsanitize=thread -DSBF_TEST_SHIM $(INLINE_FLAGS_portable) \
	    tests/tsan/runner.c tests/inline_ops.c $(TSAN_BUILD)/libsimdbloom.a -o $(TSAN_BUILD)/sbf-tsan-tests \
	    -fsanitize=thread $(LIBS) -lpthread
	TSAN_OPTIONS=halt_on_error=1 $(TSAN_BUILD)/sbf-tsan-tests $(TSAN_ARGS)

# ------------------------------------------------------------------ bench
# The harness (bench/README.md). libbloom (Debian libbloom-dev) is linked as a
# peer when its header is installed: the -D goes to the compile step, -lbloom
# to the link. The scripts run make again after `deps`, so a header that deps
# just installed is seen; an object built without it is rebuilt then.
HAVE_LIBBLOOM := $(shell test -f /usr/include/bloom.h && echo 1)
BENCH_DEFS := -DSBFB_CFLAGS='"$(CFLAGS)"' $(if $(filter avx512,$(INLINE_PATHS)),-DSBFB_INLINE_X86) \
              -DSBFB_ISA_FLAGS='"SIMD=$(SIMD); avx2: $(FLAGS_avx2); avx512: $(FLAGS_avx512); simde: none"' \
              $(if $(HAVE_LIBBLOOM),-DSBF_HAVE_LIBBLOOM)
BENCH_LIBS := $(if $(HAVE_LIBBLOOM),-lbloom)

$(BENCH_SRC:%.c=$(BUILD)/obj/%.o): $(wildcard /usr/include/bloom.h)

$(BUILD)/obj/bench/%.o: bench/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) $(CFLAGS) $(BENCH_DEFS) -c $< -o $@

# The inline header's one-key loops (`--suite hot`), once per vector path.
BENCH_INLINE_OBJ := $(INLINE_PATHS:%=$(BUILD)/obj/bench/inline_loops_%.o)
$(BENCH_INLINE_OBJ): $(BUILD)/obj/bench/inline_loops_%.o: bench/inline/loops.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $< ($*)")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) $(CFLAGS) $(INLINE_FLAGS_$*) \
	    -DSBFB_INLINE_LOOPS=sbfb_inline_loops_$* -c $< -o $@

# `make bench-inline`: the inline header's loops built twice as a program
# is, with the README's line (gcc -O2, no -march: the header's
# target-attribute copies) and with -march=native, timed beside the
# exported calls in one process (bench/inline/twice.c).
TWICE_FLAGS_auto   := -O2
TWICE_FLAGS_native := -O2 -march=native
$(BUILD)/obj/bench/twice_loops_%.o: bench/inline/loops.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $< (twice: $*)")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) $(TWICE_FLAGS_$*) -DSBFB_INLINE_LOOPS=sbfb_inline_loops_$* -c $< -o $@
$(BUILD)/sbf-bench-inline: bench/inline/twice.c $(BUILD)/obj/bench/twice_loops_auto.o \
                           $(BUILD)/obj/bench/twice_loops_native.o $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) -O2 $(LDFLAGS) -o $@ $^ $(LIBS)
bench-inline: $(BUILD)/sbf-bench-inline
	$(BUILD)/sbf-bench-inline $(BENCH_INLINE_ROUNDS)

$(BENCH_BIN): $(BENCH_SRC:%.c=$(BUILD)/obj/%.o) $(BENCH_INLINE_OBJ) $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(BENCH_LIBS) $(LIBS) -lpthread

BENCH_ENV := MAKE="$(MAKE)" BUILD="$(BUILD)" PUBLISH="$(PUBLISH)"

bench: deps
	$(BENCH_ENV) bash scripts/bench.sh $(BENCH_ARGS)

bench-quick: deps
	$(BENCH_ENV) bash scripts/bench.sh --quick $(BENCH_ARGS)

bench-compare: deps
	$(BENCH_ENV) bash scripts/bench-compare.sh $(BENCH_ARGS)

bench-check: deps
	$(BENCH_ENV) bash scripts/bench-check.sh

# llvm-mca on the batch kernels' hot loops as built (bench/mca.sh; MCA_ARGS for its options)
mca: $(LIB_A)
	bench/mca.sh --obj $(BUILD)/obj/simd $(MCA_ARGS)

bench-baseline: deps
	$(BENCH_ENV) bash scripts/bench-check.sh --write-baseline

# ----------------------------------------------------------- DuckDB oracle
# tests/duckdb/: DuckDB (npm @duckdb/node-api, its binary inside the package)
# writes Parquet files with Bloom filters; our filters must be byte-identical
# and DuckDB's probe must agree with ours. `make duckdb-setup` installs the
# package into $(BUILD)/duckdb (and nodejs/npm with apt-get when missing).
DUCKDB_CHECK := $(BUILD)/sbf-duckdb-check
$(DUCKDB_CHECK): $(BUILD)/obj/tests/duckdb/check.o $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

duckdb-setup:
	DUCKDB_DIR=$(BUILD)/duckdb bash tests/duckdb/setup.sh

test-duckdb: $(CLI_BIN) $(DUCKDB_CHECK)
	DUCKDB_DIR=$(BUILD)/duckdb bash tests/duckdb/run.sh $(BUILD)

.PHONY: duckdb-setup test-duckdb

# simdbloom beside its SIMD peers (Boost.Bloom, RocksDB, fastfilter,
# libbloom): the driver in ../shared/peers/ when that folder is there; the
# project itself never copies peer code (bench/README.md, "Peers").
PEERS_DIR ?= ../shared/peers
bench-peers:
	@if [ -f "$(PEERS_DIR)/run.sh" ]; then \
	  SBF_DEPS_CXX=1 bash scripts/deps.sh && bash "$(PEERS_DIR)/run.sh" $(PEERS_ARGS); \
	else \
	  echo "bench-peers: no $(PEERS_DIR)/run.sh: the peer driver lives outside the project (bench/README.md, Peers)" >&2; \
	  exit 2; \
	fi

# simdbloom's one-key calls beside Boost.Bloom given three hashes, and their
# FPR on structured keys (bench/peers/equal_hash.cpp, our code, built against
# the peer folder's Boost headers; bench/README.md, Peers).
bench-peers-hash: lib
	@if [ -d "$(PEERS_DIR)/boost/include" ]; then \
	  SBF_DEPS_CXX=1 bash scripts/deps.sh && \
	  g++ -std=c++17 -O3 -march=native -Wall -Wextra -Iinclude -I"$(PEERS_DIR)/boost/include" \
	      bench/peers/equal_hash.cpp $(LIB_A) -lm -o $(BUILD)/sbf-equal-hash && \
	  taskset -c $${CPU:-1} $(BUILD)/sbf-equal-hash; \
	else \
	  echo "bench-peers-hash: no $(PEERS_DIR)/boost/include (bench/README.md, Peers)" >&2; \
	  exit 2; \
	fi

# ------------------------------------------------------------ Redis module
# build/sbf-redis.so: redis/ over the public header, the library linked in
# statically, only RedisModule_OnLoad exported (redis/exports.map).
# `make test-redis` unit-tests the chain (redis/tests/test_*.c, no server), then
# drives the module in real redis-server processes (redis/test_redis.py).
REDIS_SO  := $(BUILD)/sbf-redis.so
REDIS_SRC := $(wildcard redis/*.c)
REDIS_PY  ?= /usr/bin/python3

$(BUILD)/obj/redis/%.o: redis/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) -Iredis $(BASE) $(CFLAGS) -c $< -o $@

$(REDIS_SO): $(REDIS_SRC:%.c=$(BUILD)/obj/%.o) $(LIB_A) redis/exports.map
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) -shared $(CFLAGS) $(LDFLAGS) -Wl,--version-script=redis/exports.map \
	    -Wl,-z,defs -o $@ $(REDIS_SRC:%.c=$(BUILD)/obj/%.o) $(LIB_A) $(LIBS)
	@bad=$$(nm -D --defined-only $@ | awk '$$2 ~ /^[TDBRVW]$$/ {print $$3}' | grep -vx RedisModule_OnLoad || true); \
	if [ -n "$$bad" ]; then echo "$@ exports more than RedisModule_OnLoad: $$bad"; rm -f $@; exit 1; fi

redis: $(REDIS_SO)

# The chain and its dump form, unit-tested without a server (redis/tests/).
REDIS_UNIT := $(BUILD)/sbf-redis-unit
REDIS_UNIT_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard redis/tests/test_*.c) redis/chain.c redis/dump.c)
$(REDIS_UNIT): $(REDIS_UNIT_OBJ) $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lcriterion $(LIBS)

test-redis-unit: deps $(REDIS_UNIT)
	$(REDIS_UNIT) $(TEST_ARGS)

test-redis: $(REDIS_SO) test-redis-unit
	SBF_DEPS_REDIS=1 bash scripts/deps.sh
	$(REDIS_PY) redis/test_redis.py --module $(abspath $(REDIS_SO)) $(REDIS_TEST_ARGS)

# The module built with ASan+UBSan, loaded into redis-server with the runtime
# preloaded; servers exit normally so LeakSanitizer can speak.
test-redis-san:
	$(MAKE) SAN=1 BUILD=build/san build/san/sbf-redis.so test-redis-unit
	SBF_DEPS_REDIS=1 bash scripts/deps.sh
	$(REDIS_PY) redis/test_redis.py --module $(abspath build/san/sbf-redis.so) \
	    --asan-preload $$($(CC) -print-file-name=libasan.so) --fuzz-count 10000 $(REDIS_TEST_ARGS)

bench-redis: $(REDIS_SO)
	SBF_DEPS_REDIS=1 bash scripts/deps.sh
	$(REDIS_PY) redis/bench.py --module $(abspath $(REDIS_SO)) $(BENCH_ARGS)

# Instructions per item of BF.MADD/BF.MEXISTS x100 inside redis-server
# (callgrind), against the protocol floor.
bench-redis-insn: $(REDIS_SO)
	$(REDIS_PY) redis/bench_insn.py --module $(abspath $(REDIS_SO)) $(BENCH_ARGS)

# A growing filter fed 10^3..10^8 keys: measured false-positive rate (10^7
# absent probes per size) against the asked rate and the filter's bound, at
# 1% and 0.1%, both rate schedules. Not in CI (~1 GB, minutes); BENCH_ARGS
# e.g. "--keys 10000000 --probes 1000000".
$(BUILD)/sbf-bench-scalable: bench/scalable/fpr.c $(LIB_A) $(FLAGS_STAMP)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) $(CFLAGS) $< -o $@ $(LDFLAGS) $(LIB_A) $(LIBS) -lm

bench-scalable: $(BUILD)/sbf-bench-scalable
	$(BUILD)/sbf-bench-scalable $(BENCH_ARGS)

# sbf dedup against awk '!seen[$$0]++' and sort -u (bench/dedup.sh):
# DEDUP_LINES=50000000 for the issue's big run (about 3.3 GB of input in TMPDIR).
DEDUP_LINES ?= 5000000
bench-dedup: $(CLI_BIN)
	bash bench/dedup.sh $(CLI_BIN) $(DEDUP_LINES)

.PHONY: bench-dedup
.PHONY: bench-scalable
.PHONY: redis test-redis test-redis-unit test-redis-san bench-redis bench-redis-insn

# ---------------------------------------------------------------- install
# Users include simdbloom.h (and simdbloom_inline.h); simdbloom.h includes
# its parts, simdbloom_files.h and simdbloom_parquet.h, which refuse to be
# included alone (make check-cxx checks both).
PUBLIC_PARTS   := include/simdbloom_files.h include/simdbloom_parquet.h \
                  include/simdbloom_scalable.h
# simdbloom_inline.h's parts (the layouts' facts, its x86 probes) refuse
# to be included alone too.
INLINE_PARTS   := include/simdbloom_layout.h include/simdbloom_inline_x86.h
PUBLIC_HEADERS := include/simdbloom.h $(PUBLIC_PARTS) include/simdbloom_inline.h \
                  $(INLINE_PARTS)
install: lib cli
	install -d $(DESTDIR)$(INCDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(LIBDIR)/pkgconfig
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(CLI_BIN) $(DESTDIR)$(BINDIR)/sbf
	install -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(INCDIR)/
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf libsimdbloom.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf libsimdbloom.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libsimdbloom.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCDIR@|$(INCDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' simdbloom.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/simdbloom.pc

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/sbf
	rm -f $(addprefix $(DESTDIR)$(INCDIR)/,$(notdir $(PUBLIC_HEADERS))) $(DESTDIR)$(LIBDIR)/libsimdbloom.a \
	      $(DESTDIR)$(LIBDIR)/libsimdbloom.so* $(DESTDIR)$(LIBDIR)/pkgconfig/simdbloom.pc

# ------------------------------------------------------------------- fuzz
# libFuzzer targets for the loaders (fuzz/README.md), FUZZ_SECONDS each.
FUZZ_SECONDS ?= 60
fuzz: deps
	$(BENCH_ENV) FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz.sh

# Installs the Debian packages the targets need when something is missing.
deps:
	@bash scripts/deps.sh

# Removes $(BUILD) (build/ by default, which holds every other BUILD=build/x).
# ------------------------------------------------------------ Python binding
# python/: the CPython extension simdbloom._core linked statically against
# $(LIB_A) (its objects are -fPIC), built with Debian's python3-dev and
# python3-setuptools into $(BUILD)/python; test-python runs its pytest suite
# (python3-numpy, python3-pytest), bench-python its benchmark against abloom
# (built from ../shared/peers/python into a temporary directory) and set.
PYTHON    ?= /usr/bin/python3
PY_OUT    := $(abspath $(BUILD))/python
PY_ENV    := PYTHONPATH=$(PY_OUT) PYTHONDONTWRITEBYTECODE=1
.PHONY: python test-python bench-python
python: $(LIB_A)
	@$(if $(Q),echo "  PY      $(PY_OUT)/simdbloom")
	$(Q)cd python && SIMDBLOOM_LIB=$(abspath $(LIB_A)) CC="$(CC)" PYTHONDONTWRITEBYTECODE=1 \
	  $(PYTHON) setup.py -q build --build-base $(PY_OUT)-tmp --build-lib $(PY_OUT) \
	  2>&1 | grep -v 'byte-compiling is disabled' || true
	$(Q)test -f $(PY_OUT)/simdbloom/_core$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')

test-python: python $(LIB_SO) $(CLI_BIN)
	cd python && $(PY_ENV) SIMDBLOOM_SO=$(abspath $(LIB_SO)) SBF_BUILD=$(abspath $(BUILD)) $(PYTHON) -P -m pytest -q -p no:cacheprovider tests

PEERS_PY ?= ../shared/peers/python
bench-python: python
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	if [ -d $(PEERS_PY)/abloom ]; then \
	  $(PYTHON) -m pip install -q --no-build-isolation --no-deps --target "$$d" $(PEERS_PY)/abloom \
	    >/dev/null 2>&1 || echo "bench-python: abloom did not build; its columns stay empty"; \
	fi; \
	PYTHONPATH=$(PY_OUT):$$d PYTHONDONTWRITEBYTECODE=1 $(PYTHON) -P python/bench.py $(BENCH_ARGS)

clean:
	$(if $(filter-out . ./ / ..,$(strip $(BUILD))),rm -rf $(BUILD),@echo "clean: refusing BUILD='$(BUILD)'")

help:
	@echo "build:   all (default: library, sbf) lib cli install uninstall (PREFIX, DESTDIR) clean deps"
	@echo "test:    test (every suite) test-san test-tsan test-isas (per forced SBF_ISA) test-neon (qemu)"
	@echo "         check-readme (C snippets of every .md) check-cxx (header as C++) kat (known answers)"
	@echo "         symbols cycles fuzz (FUZZ_SECONDS=60 per loader target)"
	@echo "         test-duckdb duckdb-setup (DuckDB as an oracle of the parquet layout)"
	@echo "bench:   bench (full, results/runs/; PUBLISH=1 replaces results/REPORT.md) bench-quick"
	@echo "         bench-compare (SIMD=0 against SIMD) bench-check bench-baseline (the CI gate)"
	@echo "         mca (llvm-mca on the batch kernels' hot loops, Intel and AMD models)"
	@echo "         bench-dedup (sbf dedup against awk and sort -u; DEDUP_LINES)"
	@echo "         fpr-timing (the formulas' worst times) build/classic-sim (classic filters against their bound)"
	@echo "peers:   bench-peers bench-peers-hash (PEERS_DIR=../shared/peers, PEERS_ARGS, CPU=1)"
	@echo "python:  python test-python bench-python (PYTHON=/usr/bin/python3; python/README.md)"
	@echo "redis:   redis test-redis test-redis-unit test-redis-san bench-redis bench-redis-insn (REDIS_TEST_ARGS, BENCH_ARGS)"
	@echo "vars:    CC CFLAGS SIMD=0 SAN=1 BUILD=dir PREFIX DESTDIR V=1 TEST_ARGS BENCH_ARGS"

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
