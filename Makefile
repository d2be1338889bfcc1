# Makefile - builds the ripple demo, its platform-free core (libripple.a), the bench and the tests.
#
#   make            build ./ripple and bench/ripple-bench
#   make run        build and show the demo
#   make test       unit tests, demo smoke tests (headless and under Xvfb),
#                   then the unit tests again under ASan + UBSan
#   make bench      build and run the benchmark
#   make bench-instr  instructions per pixel per frame under callgrind (needs valgrind)
#   make bench-instr-i386  the same for the 32-bit build, under qemu-user
#   make ARCH=i386  the core, bench and tests as 32-bit x86 (i586) in build/i386
#   make test-i386  those tests under qemu on Pentium II (no MMX), II and III
#   make clean      remove everything built
#
# CC, CFLAGS, CPPFLAGS and LDFLAGS from the command line are respected;
# V=1 shows the commands.

CC      ?= cc
CFLAGS  ?= -O2 -g

# ARCH=i386 builds the core, the bench and the tests as 32-bit x86 for an
# i586 (Pentium) baseline into build/i386; the SDL2 demo stays 64-bit.
ifeq ($(ARCH),i386)
ARCH_FLAGS = -m32 -march=i586
BUILD   ?= build/i386
BENCH   ?= $(BUILD)/ripple-bench
else
ARCH_FLAGS =
endif
BUILD   ?= build
PREFIX  ?= /usr/local

STD_CFLAGS = -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
             -D_POSIX_C_SOURCE=200809L -Isrc
ALL_CFLAGS = $(STD_CFLAGS) $(ARCH_FLAGS) $(CPPFLAGS) $(CFLAGS) -pthread
CORE_LIBS  = $(ARCH_FLAGS) -pthread -lm

ifeq ($(V),1)
Q =
else
Q = @
endif

# pkg-config names and the Debian packages that provide them.
PKG_sdl2       = libsdl2-dev
PKG_SDL2_image = libsdl2-image-dev
PKG_cmocka     = libcmocka-dev

# $(call require,pkg-config modules,commands:debian-package ...)
# Installs what is missing with apt-get when run as root; otherwise prints
# the exact command and stops.
define require
	$(Q)missing=""; \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	for m in $(1); do \
	  pkg-config --exists $$m 2>/dev/null || case $$m in \
	    sdl2) missing="$$missing $(PKG_sdl2)";; \
	    SDL2_image) missing="$$missing $(PKG_SDL2_image)";; \
	    cmocka) missing="$$missing $(PKG_cmocka)";; \
	  esac; \
	done; \
	for c in $(2); do \
	  command -v $${c%%:*} >/dev/null 2>&1 || missing="$$missing $${c#*:}"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing:$$missing"; \
	    apt-get update -q >/dev/null; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing >/dev/null || exit 1; \
	  else \
	    echo "missing packages; install them with:"; \
	    echo "  sudo apt-get install$$missing"; \
	    exit 1; \
	  fi; \
	fi
endef

SDL_CFLAGS    = $(shell pkg-config --cflags sdl2 SDL2_image 2>/dev/null)
SDL_LIBS      = $(shell pkg-config --libs sdl2 SDL2_image 2>/dev/null)
CMOCKA_CFLAGS = $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   = $(shell pkg-config --libs cmocka 2>/dev/null)

CORE_SRC = src/core/field.c src/core/pool.c src/core/render.c src/core/snapshot.c \
           src/core/image.c src/core/autopilot.c src/core/font.c src/core/backdrop.c \
           src/kernels/step_c.c src/kernels/refract_c.c src/kernels/dispatch.c \
           src/kernels/x86/cpu.c

# SIMD kernels: x86 builds get them unless SIMD=0.  Each file gets its own
# instruction-set flags and nothing else does, so the binary runs on any
# CPU of the architecture and picks its path at run time.
MACHINE := $(shell $(CC) -dumpmachine 2>/dev/null)
ifneq ($(filter x86_64% amd64% i386% i486% i586% i686%,$(MACHINE)),)
SIMD ?= 1
else
SIMD ?= 0
endif
ifeq ($(SIMD),1)
X86 = src/kernels/x86
CORE_SRC += $(X86)/step_mmx.c $(X86)/step_sse2.c $(X86)/step_avx2.c \
            $(X86)/refract_sse2.c $(X86)/refract_rgb565_sse2.c $(X86)/refract_index8_sse2.c \
            $(X86)/refract_avx2.c $(X86)/refract_rgb565_avx2.c $(X86)/refract_index8_avx2.c
STD_CFLAGS += -DRPL_HAVE_MMX -DRPL_HAVE_SSE2 -DRPL_HAVE_AVX2
endif
ISA_mmx = -mmmx
ISA_sse2 = -msse2
ISA_avx2 = -mavx2
APP_SRC  = src/app/main.c src/app/args.c
BENCH_SRC = bench/ripple-bench.c bench/seed_baseline.c
TEST_SRC = tests/test_core.c tests/test_paths.c

CORE_OBJ  = $(CORE_SRC:%.c=$(BUILD)/%.o)
APP_OBJ   = $(APP_SRC:%.c=$(BUILD)/%.o)
BENCH_OBJ = $(BENCH_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ  = $(TEST_SRC:%.c=$(BUILD)/%.o)
LIB       = $(BUILD)/libripple.a
DEMO      = ripple
BENCH     ?= bench/ripple-bench
TESTBINS  = $(BUILD)/tests/test_core $(BUILD)/tests/test_paths

.SECONDARY:
.PHONY: all run test test-unit test-smoke test-nosimd test-i386 test-san warnings bench bench-instr bench-instr-i386 clean install deps-run deps-test backdrop

ifeq ($(ARCH),i386)
all: $(BENCH) $(TESTBINS)
else
all: deps-run $(DEMO) $(BENCH)
endif

deps-run:
	$(call require,sdl2 SDL2_image,cc:gcc make:make)

deps-test:
	$(call require,sdl2 SDL2_image cmocka,cc:gcc xvfb-run:xvfb xauth:xauth qemu-i386:qemu-user)
	$(Q)if [ ! -e /usr/lib/i386-linux-gnu/libcmocka.so ] || ! [ -d /usr/lib/gcc/x86_64-linux-gnu/*/32 ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing: the 32-bit toolchain (gcc-multilib libcmocka-dev:i386)"; \
	    dpkg --add-architecture i386 && { apt-get update -q >/dev/null; true; } && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q gcc-multilib libcmocka-dev:i386 >/dev/null || exit 1; \
	  else \
	    echo "missing the 32-bit toolchain; install it with:"; \
	    echo "  sudo dpkg --add-architecture i386 && sudo apt-get update && sudo apt-get install gcc-multilib libcmocka-dev:i386"; \
	    exit 1; \
	  fi; \
	fi

$(BUILD)/src/app/%.o: src/app/%.c | deps-run
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(SDL_CFLAGS) -DRIPPLE_DATADIR='"$(PREFIX)/share/ripple"' -MMD -MP -c $< -o $@

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/src/%_mmx.o: src/%_mmx.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(ISA_mmx) -MMD -MP -c $< -o $@

$(BUILD)/src/%_sse2.o: src/%_sse2.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(ISA_sse2) -MMD -MP -c $< -o $@

$(BUILD)/src/%_avx2.o: src/%_avx2.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(ISA_avx2) -MMD -MP -c $< -o $@

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(CORE_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(DEMO): $(APP_OBJ) $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(APP_OBJ) $(LIB) $(SDL_LIBS) $(CORE_LIBS)

$(BENCH): $(BENCH_OBJ) $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(BENCH_OBJ) $(LIB) $(CORE_LIBS)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(CMOCKA_LIBS) $(CORE_LIBS)

run: all
	./$(DEMO)

bench: $(BENCH)
	./$(BENCH)

# Instructions per pixel per frame of every path and of the seed, counted
# by callgrind (needs valgrind); repeatable, unlike timings.
bench-instr: $(BENCH)
	sh bench/instr.sh ./$(BENCH)

# The same for the 32-bit build, counted under qemu-user by a small plugin
# (valgrind cannot run 32-bit programs on every 64-bit kernel).
bench-instr-i386:
	$(Q)$(MAKE) --no-print-directory ARCH=i386 build/i386/ripple-bench
	$(Q)$(CC) -std=c11 -Wall -Wextra -O2 -shared -fPIC -o build/qemu_icount.so bench/qemu_icount.c
	sh bench/instr-i386.sh build/i386/ripple-bench build/qemu_icount.so

test: deps-test
	$(Q)$(MAKE) --no-print-directory warnings
	$(Q)$(MAKE) --no-print-directory test-unit test-smoke
	$(Q)$(MAKE) --no-print-directory test-nosimd
	$(Q)$(MAKE) --no-print-directory test-i386
	$(Q)$(MAKE) --no-print-directory test-san

# The exactness suite compares every path with the scalar code; then the
# whole unit suite runs once on each path this CPU has (RIPPLE_SIMD forces it).
test-unit: $(TESTBINS)
	$(BUILD)/tests/test_paths
	$(Q)for p in $$($(BUILD)/tests/test_paths --list); do \
	  echo "== unit tests on path $$p"; \
	  RIPPLE_SIMD=$$p $(BUILD)/tests/test_core || exit 1; \
	done

test-smoke: $(DEMO) $(BENCH)
	sh tests/smoke.sh ./$(DEMO) ./$(BENCH)

# Every source must compile without a warning under gcc and clang (when
# installed); -Werror only here, so a user's newer compiler never breaks
# an ordinary build.
ALL_SRC = $(CORE_SRC) $(APP_SRC) $(BENCH_SRC) $(TEST_SRC)
warnings:
	$(Q)for cc in gcc clang; do \
	  command -v $$cc >/dev/null 2>&1 || { echo "warnings: $$cc not installed, skipped"; continue; }; \
	  for f in $(ALL_SRC); do \
	    isa=""; case $$f in *_mmx.c) isa="$(ISA_mmx)";; *_sse2.c) isa="$(ISA_sse2)";; *_avx2.c) isa="$(ISA_avx2)";; esac; \
	    $$cc $(STD_CFLAGS) $$isa -O2 -Werror $(SDL_CFLAGS) $(CMOCKA_CFLAGS) -c $$f -o /dev/null || exit 1; \
	  done; \
	  echo "warnings: $$cc clean on $(words $(ALL_SRC)) files"; \
	done

# The 32-bit build (core, bench, tests) run under qemu-user on a Pentium II
# without MMX, a Pentium II and a Pentium III: dispatch must pick c, mmx,
# mmx, and every path must give the same bytes.
test-i386:
	$(Q)$(MAKE) --no-print-directory ARCH=i386 build/i386/tests/test_core \
	    build/i386/tests/test_paths build/i386/ripple-bench
	sh tests/i386.sh build/i386

# The scalar build alone (as on a CPU other than x86) passes the same tests.
test-nosimd:
	$(Q)$(MAKE) --no-print-directory BUILD=$(BUILD)/nosimd SIMD=0 test-unit

# The same unit tests and the headless smoke tests, built apart with
# AddressSanitizer and UndefinedBehaviorSanitizer; any report fails.
SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
test-san:
	$(Q)$(MAKE) --no-print-directory BUILD=$(BUILD)/san CFLAGS="$(SAN_FLAGS)" \
	    LDFLAGS="$(SAN_FLAGS)" DEMO=$(BUILD)/san/ripple BENCH=$(BUILD)/san/ripple-bench \
	    $(BUILD)/san/tests/test_core $(BUILD)/san/tests/test_paths $(BUILD)/san/ripple $(BUILD)/san/ripple-bench
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $(BUILD)/san/tests/test_paths
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $(BUILD)/san/tests/test_core
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    sh tests/smoke.sh --headless-only $(BUILD)/san/ripple $(BUILD)/san/ripple-bench

# Regenerates the default background picture from its generator.
backdrop: deps-run
	$(Q)mkdir -p $(BUILD)
	$(Q)$(CC) $(ALL_CFLAGS) $(SDL_CFLAGS) -O2 -o $(BUILD)/mkbackdrop src/tools/mkbackdrop.c $(SDL_LIBS) $(CORE_LIBS)
	$(BUILD)/mkbackdrop assets/background.png 640 480

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/ripple
	install -m 755 $(DEMO) $(DESTDIR)$(PREFIX)/bin/ripple
	install -m 644 assets/background.png $(DESTDIR)$(PREFIX)/share/ripple/background.png

clean:
	rm -rf $(BUILD) $(DEMO) $(BENCH)

-include $(CORE_OBJ:.o=.d) $(APP_OBJ:.o=.d) $(BENCH_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
