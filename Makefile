# simdbloom: one entry point.
#   make            build/libsimdbloom.a and build/libsimdbloom.so
#   make test       build and run the Criterion suites
#   make bench      the benchmark harness (results/<host>-<date>/)
#   make help       everything else
# Variables: CC, CFLAGS (default -O3), SIMD=0 (scalar only), SAN=1
# (AddressSanitizer + UBSan), BUILD (out-of-tree dir), PREFIX, DESTDIR, V=1.

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
SONAME  := libsimdbloom.so.$(VERSION_MAJOR)

WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wcast-qual -Wundef -Wvla -Wformat=2
BASE    := -std=c11 -fPIC -fvisibility=hidden -MMD -MP $(WARN)
CPPFLAGS += -Iinclude -Isrc
ifeq ($(SAN),1)
  CFLAGS += -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
            -fno-sanitize-recover=all
  LDFLAGS += -fsanitize=address,undefined
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
FLAGS_NOW   := $(CC) | $(CFLAGS) | $(BASE) | $(LDFLAGS) | $(SIMD_DEFS) | $(FLAGS_simde) | $(FLAGS_avx2) | $(FLAGS_avx512)
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

.PHONY: all lib cli test bench bench-quick bench-compare bench-check bench-baseline \
        test-neon test-san install uninstall clean help deps symbols fuzz

all: lib cli
lib: $(LIB_A) $(LIB_SO)

$(BUILD)/obj/src/dispatch.o: CPPFLAGS += $(SIMD_DEFS)

$(BUILD)/obj/src/%.o: src/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) $(CFLAGS) -c $< -o $@

# simd/avx2.c twice: native AVX2, and the portable SIMDe kernel.
$(BUILD)/obj/simd/simde.o: simd/avx2.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $< (simde)")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) $(CFLAGS) $(FLAGS_simde) -c $< -o $@
$(BUILD)/obj/simd/avx2.o: simd/avx2.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $< (avx2)")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) $(CFLAGS) $(FLAGS_avx2) -c $< -o $@
$(BUILD)/obj/simd/avx512.o: simd/avx512.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $< (avx512)")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) $(CFLAGS) $(FLAGS_avx512) -c $< -o $@
$(BUILD)/obj/simd/neon.o: simd/neon.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $< (neon)")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) $(CFLAGS) $(FLAGS_neon) -c $< -o $@

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

# -------------------------------------------------------------- sbf (CLI)
# cli/ sees only the public header, and links the static library.
CLI_BIN := $(BUILD)/sbf
BINDIR  ?= $(PREFIX)/bin
cli: $(CLI_BIN)

$(BUILD)/obj/cli/%.o: cli/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) -Iinclude $(BASE) $(CFLAGS) -c $< -o $@

$(CLI_BIN): $(BUILD)/obj/cli/sbf.o $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

# ------------------------------------------------------------------ tests
$(BUILD)/obj/tests/%.o: tests/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) $(CFLAGS) -DSBF_SOURCE_DIR='"$(CURDIR)"' -c $< -o $@

$(TEST_BIN): $(TEST_SRC:%.c=$(BUILD)/obj/%.o) $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -lcriterion $(LIBS) -lpthread

ifeq ($(SAN),1)
  TEST_ENV := LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp UBSAN_OPTIONS=print_stacktrace=1
endif

test: deps $(TEST_BIN) symbols $(CLI_BIN)
	$(TEST_ENV) $(BUILD)/sbf-tests $(TEST_ARGS)
	$(TEST_ENV) bash tests/cli.sh $(CLI_BIN)

test-san:
	$(MAKE) BUILD=build/san SAN=1 test

test-neon: deps
	bash scripts/test-neon.sh

# ------------------------------------------------------------------ bench
# The harness (bench/README.md). libbloom (Debian libbloom-dev) is linked as a
# peer when its header is installed: the -D goes to the compile step, -lbloom
# to the link. The scripts run make again after `deps`, so a header that deps
# just installed is seen; an object built without it is rebuilt then.
HAVE_LIBBLOOM := $(shell test -f /usr/include/bloom.h && echo 1)
BENCH_DEFS := -DSBFB_CFLAGS='"$(CFLAGS)"' \
              -DSBFB_ISA_FLAGS='"SIMD=$(SIMD); avx2: $(FLAGS_avx2); avx512: $(FLAGS_avx512); simde: none"' \
              $(if $(HAVE_LIBBLOOM),-DSBF_HAVE_LIBBLOOM)
BENCH_LIBS := $(if $(HAVE_LIBBLOOM),-lbloom)

$(BENCH_SRC:%.c=$(BUILD)/obj/%.o): $(wildcard /usr/include/bloom.h)

$(BUILD)/obj/bench/%.o: bench/%.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(BASE) $(CFLAGS) $(BENCH_DEFS) -c $< -o $@

$(BENCH_BIN): $(BENCH_SRC:%.c=$(BUILD)/obj/%.o) $(LIB_A)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(BENCH_LIBS) $(LIBS) -lpthread

BENCH_ENV := MAKE="$(MAKE)" BUILD="$(BUILD)"

bench: deps
	$(BENCH_ENV) bash scripts/bench.sh $(BENCH_ARGS)

bench-quick: deps
	$(BENCH_ENV) bash scripts/bench.sh --quick $(BENCH_ARGS)

bench-compare: deps
	$(BENCH_ENV) bash scripts/bench-compare.sh $(BENCH_ARGS)

bench-check: deps
	$(BENCH_ENV) bash scripts/bench-check.sh

bench-baseline: deps
	$(BENCH_ENV) bash scripts/bench-check.sh --write-baseline

# ---------------------------------------------------------------- install
install: lib cli
	install -d $(DESTDIR)$(INCDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(LIBDIR)/pkgconfig
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 $(CLI_BIN) $(DESTDIR)$(BINDIR)/sbf
	install -m 644 include/simdbloom.h $(DESTDIR)$(INCDIR)/
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf libsimdbloom.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf libsimdbloom.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libsimdbloom.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCDIR@|$(INCDIR)|' \
	    -e 's|@VERSION@|$(VERSION)|' simdbloom.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/simdbloom.pc

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/sbf
	rm -f $(DESTDIR)$(INCDIR)/simdbloom.h $(DESTDIR)$(LIBDIR)/libsimdbloom.a \
	      $(DESTDIR)$(LIBDIR)/libsimdbloom.so* $(DESTDIR)$(LIBDIR)/pkgconfig/simdbloom.pc

# ------------------------------------------------------------------- fuzz
# libFuzzer targets for the loaders (fuzz/README.md), FUZZ_SECONDS each.
FUZZ_SECONDS ?= 60
fuzz: deps
	$(BENCH_ENV) FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz.sh

# Installs the Debian packages the targets need when something is missing.
deps:
	@bash scripts/deps.sh

clean:
	rm -rf build

help:
	@echo "targets: all lib test test-san test-neon bench bench-quick bench-compare"
	@echo "         bench-check bench-baseline install uninstall symbols deps clean"
	@echo "         fuzz (FUZZ_SECONDS=60 per loader target)"
	@echo "vars:    CC CFLAGS SIMD=0 SAN=1 BUILD=dir PREFIX DESTDIR V=1 TEST_ARGS BENCH_ARGS"

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
