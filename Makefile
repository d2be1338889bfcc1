# Makefile - builds the ripple demo, its platform-free core (libripple.a and
# libripple.so), the bench and the tests; installs them.
#
#   make            build ./ripple, bench/ripple-bench and the libraries
#   make run        build and show the demo
#   make check      the day-to-day loop: build, every unit suite, the
#                   exactness suite on every path, quick smoke checks
#   make test       all of check, then warnings, the include rules, the full
#                   smoke suite, install, fuzzing, the scalar-only and 32-bit
#                   builds, clang's sanitizers and a clang build's bytes;
#                   both run their stages in parallel (JOBS=n, default every
#                   core) and end with a table of the stages' times
#   make bench      build and run the benchmark
#   make bench-present  presenting's cost under Xvfb, beside xscreensaver's ripples
#   make bench-instr  instructions per pixel per frame under callgrind (needs valgrind)
#   make bench-instr-i386  the same for the 32-bit build, under qemu-user
#   make install    the libraries, header, pkg-config file, demo, picture and
#                   man page under PREFIX (default /usr/local), DESTDIR respected
#   make uninstall  removes what `make install` put there (same PREFIX, DESTDIR)
#   make SIMD=0     the scalar kernels only
#   make ARCH=i386  the core, bench, tests and demo as 32-bit x86 (i586) in
#                   build/i386; I386_SYSROOT=1 takes the demo's SDL2 from a
#                   private sysroot even when the i386 packages install
#   make test-i386  those tests under qemu on Pentium II (no MMX), II and III,
#                   the 32-bit demo on Pentium III against the 64-bit one
#   make ARCH=aarch64, make ARCH=armv7  the core, bench, tests and demo for
#                   64-bit ARM or ARMv7 (NEON chosen at run time), cross-built
#                   by clang against a private sysroot in build/aarch64 or
#                   build/armv7
#   make test-arm   those tests under qemu on a Cortex-A53 and a Cortex-A7
#                   with and without NEON
#   make bench-instr-arm  instructions per pixel per frame of the ARM builds
#   make web        the demo as a web page in build/web (WebAssembly, a SIMD
#                   and a scalar module, built by emscripten: ARCH=wasm)
#   make serve-web  build it and serve it on 127.0.0.1 (WEB_PORT, default 8000)
#   make test-web   the page's tests in a headless Chromium
#   make bench-web  the page's timedemo against the native one, and its cost
#                   a frame while it plays
#   make test-i386-sysroot  the 32-bit demo built and tested the sysroot way
#   make test-unit, test-smoke, test-san, ...  one stage alone
#   make warnings   every C file under gcc and clang with -Werror
#   make backdrop   regenerate assets/background.png
#   make side-art   regenerate assets/side-sky.png and assets/side-stone.png
#   make screenshots  remake the pictures in docs/img (the README's window
#                   under Xvfb, the show's busiest moments; not part of test)
#   make clean      remove everything built
#
# CC, CFLAGS, CPPFLAGS and LDFLAGS from the command line are respected;
# V=1 shows the commands.

# `make` alone builds `all`, wherever its rule stands.
.DEFAULT_GOAL := all

# This file, for the sub-makes below: `make -f other.mk test` must not have
# them read ./Makefile.
SELF := $(lastword $(MAKEFILE_LIST))

CC      ?= cc
CFLAGS  ?= -O2 -g

# ARCH=i386 builds the core, the bench, the tests and the SDL2 demo as
# 32-bit x86 for an i586 (Pentium) baseline into build/i386 (Debian's i386
# SDL2 itself wants a Pentium III: see docs/old-hardware.md).
# The ARM targets: the triple, Debian's architecture, the emulator, clang's
# flags for the core and what the NEON kernels add.  ARMv7's core is built
# for VFPv3 without NEON, so that it runs on a CPU without NEON; only the
# NEON kernels get -mfpu=neon, and they run when the CPU says it has it
# (kernels/arm/cpu.c).
ARM_ARCHS = aarch64 armv7
ARM_TRIPLE_aarch64  = aarch64-linux-gnu
ARM_DEBARCH_aarch64 = arm64
ARM_QEMU_aarch64    = qemu-aarch64
ARM_CFLAGS_aarch64  = --target=aarch64-linux-gnu
ARM_NEON_aarch64    =
ARM_TRIPLE_armv7    = arm-linux-gnueabihf
ARM_DEBARCH_armv7   = armhf
ARM_QEMU_armv7      = qemu-arm
ARM_CFLAGS_armv7    = --target=arm-linux-gnueabihf -march=armv7-a -mfpu=vfpv3-d16 -mfloat-abi=hard
ARM_NEON_armv7      = -mfpu=neon

ifeq ($(ARCH),i386)
ARCH_FLAGS = -m32 -march=i586
BUILD   ?= build/i386
BENCH   ?= $(BUILD)/ripple-bench
DEMO     = $(BUILD)/ripple
else ifneq ($(filter $(ARM_ARCHS),$(ARCH)),)
# ARCH=aarch64 and ARCH=armv7 cross-build with clang (one compiler for
# every target) and lld against a private sysroot of Debian's arm64 or
# armhf packages in $(BUILD)/sysroot (src/tools/sysroot.sh: nothing is
# installed on the machine); the tests run them under qemu-user.
ARM_TRIPLE  = $(ARM_TRIPLE_$(ARCH))
ARM_DEBARCH = $(ARM_DEBARCH_$(ARCH))
ISA_neon    = $(ARM_NEON_$(ARCH))
ifeq ($(origin CC),default)
CC = clang
endif
BUILD   ?= build/$(ARCH)
BENCH   ?= $(BUILD)/ripple-bench
DEMO     = $(BUILD)/ripple
ARM_SYSROOT ?= $(BUILD)/sysroot
ARM_SR   = $(abspath $(ARM_SYSROOT))
ARCH_FLAGS = $(ARM_CFLAGS_$(ARCH)) --sysroot=$(ARM_SR)
ARCH_LDFLAGS = -fuse-ld=lld
# make run and make bench on a machine of another kind (the usual cross
# build) run the programs under qemu-user, told where the sysroot is.
ARM_HOST_aarch64 = aarch64
ARM_HOST_armv7   = armv7l armv8l
ifeq ($(filter $(ARM_HOST_$(ARCH)),$(shell uname -m)),)
RUN_WRAP = $(ARM_QEMU_$(ARCH)) -L $(ARM_SR)
endif
else ifeq ($(ARCH),wasm)
# ARCH=wasm builds the core for WebAssembly with emscripten into
# $(BUILD) (the page's two modules: build/wasm/simd with the SSE2 kernels
# on WebAssembly SIMD, build/wasm/scalar with SIMD=0); src/web links them.
# Single-threaded: no -pthread, so the page needs no shared memory.
ifeq ($(origin CC),default)
CC = emcc
endif
ifeq ($(origin AR),default)
AR = emar
endif
BUILD   ?= build/wasm/$(if $(filter 0,$(SIMD)),scalar,simd)
ARCH_FLAGS =
PTHREAD  =
else
ARCH_FLAGS =
DEMO     = ripple
endif
BUILD   ?= build
PTHREAD ?= -pthread
BENCH   ?= bench/ripple-bench

PREFIX     ?= /usr/local
BINDIR      = $(PREFIX)/bin
LIBDIR      = $(PREFIX)/lib
INCLUDEDIR  = $(PREFIX)/include
DATADIR     = $(PREFIX)/share
MAN6DIR     = $(DATADIR)/man/man6
# Run after installing a shared library so the loader finds it at once
# (only as root and without DESTDIR; LDCONFIG=: skips it).
LDCONFIG   ?= ldconfig

# -ffp-contract=off: a*b+c is never fused into one rounding, so the
# floating-point code gives the same bytes with every compiler and on
# every CPU (clang fuses by default where the CPU has FMA, as on ARM).
STD_CFLAGS = -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
             -ffp-contract=off -D_POSIX_C_SOURCE=200809L -D_FILE_OFFSET_BITS=64 -Isrc
ALL_CFLAGS = $(STD_CFLAGS) $(ARCH_FLAGS) $(CPPFLAGS) $(CFLAGS) $(PTHREAD)
CORE_LIBS  = $(ARCH_FLAGS) $(ARCH_LDFLAGS) $(PTHREAD) -lm

ifeq ($(V),1)
Q =
else
Q = @
endif

# Sub-makes ($(MAKE) $(SUB)) name their build directory, demo and bench:
# variables given on the command line are passed down to them, and two
# builds must never share a directory.
SUB = --no-print-directory -f $(SELF)

# The library's version, read from the public header ripple/base.h: RPL_VERSION_MAJOR,
# _MINOR and _PATCH when it defines them, else the RPL_VERSION string.  The
# shared library's soname carries the major number.
VERSION := $(shell awk '$$2 == "RPL_VERSION_MAJOR" { M = $$3 } \
    $$2 == "RPL_VERSION_MINOR" { m = $$3 } $$2 == "RPL_VERSION_PATCH" { p = $$3 } \
    $$2 == "RPL_VERSION" && $$3 ~ /^"/ { v = $$3 } \
    END { if (M != "") v = M "." m "." p; gsub(/[^0-9.]/, "", v); print v }' src/ripple/base.h)
ifeq ($(VERSION),)
$(error cannot read the version from src/ripple/base.h)
endif
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))

# ---- what the build needs ---------------------------------------------------

# Each need is KIND:WHAT:DEBIAN-PACKAGE, KIND being pc (a pkg-config module),
# cmd (a command) or file (a path, globs allowed).
NEEDS_RUN   = cmd:cc:gcc cmd:make:make cmd:pkg-config:pkg-config \
              pc:sdl2:libsdl2-dev pc:SDL2_image:libsdl2-image-dev pc:libcjson:libcjson-dev \
              pc:zlib:zlib1g-dev file:/usr/include/chipmunk/chipmunk.h:libchipmunk-dev
# The 32-bit build's libraries; the headers come with the 64-bit packages.
NEEDS_I386  = cmd:pkg-config:pkg-config pc:cmocka:libcmocka-dev pc:libcjson:libcjson-dev \
              'file:/usr/lib/gcc/x86_64-linux-gnu/*/32:gcc-multilib' \
              file:/usr/lib/i386-linux-gnu/libcmocka.so:libcmocka-dev:i386 \
              file:/usr/lib/i386-linux-gnu/libcjson.so:libcjson-dev:i386 \
              file:/usr/lib/i386-linux-gnu/libchipmunk.so:libchipmunk-dev:i386
# make check: the unit suites (cmocka) and one window under Xvfb.
NEEDS_CHECK = $(NEEDS_RUN) pc:cmocka:libcmocka-dev cmd:xvfb-run:xvfb cmd:xauth:xauth
# Debian's libFuzzer runtime is only a recommendation of clang, which a
# --no-install-recommends install leaves out; clang also builds the
# sanitizer stage and the build whose bytes must be gcc's; gdb holds the
# suites that run once to their rule; /usr/bin/time measures --present
# auto's resident memory against the surface's in the smoke test.
NEEDS_TEST  = $(NEEDS_CHECK) $(NEEDS_I386) $(NEEDS_ARM) $(NEEDS_WEB_TEST) cmd:clang:clang cmd:gdb:gdb \
              cmd:xdotool:xdotool cmd:python3:python3 cmd:qemu-i386:qemu-user \
              file:/usr/bin/time:time \
              'file:/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-14-dev'

# The web page: emscripten (which brings node) builds it; the tests run
# it in a headless Chromium.
NEEDS_WEB      = cmd:emcc:emscripten cmd:node:nodejs
# node's own WebSocket (node 22, or 20 behind a flag) carries the DevTools
# protocol; with an older node (Debian's 18), the ws module does.
NEEDS_WEB_TEST = $(NEEDS_WEB) cmd:chromium:chromium file:/usr/share/nodejs/ws/package.json:node-ws

# The ARM builds: clang, lld and qemu-user on the machine; their libraries
# (the C library, cmocka, cJSON, Chipmunk2D, and SDL2 for the demo) come
# into the sysroot.
NEEDS_ARM   = cmd:clang:clang cmd:ld.lld:lld cmd:qemu-aarch64:qemu-user cmd:apt-get:apt \
              cmd:pkg-config:pkg-config
# The 32-bit demo's libraries.  Beside the amd64 ones they install only when
# Debian's i386 lists carry the same versions, which now and then they do
# not for a day or two: deps-i386-demo then falls back by itself to a
# private sysroot in $(I386_SYSROOT_DIR) (src/tools/sysroot.sh, no
# root needed), and I386_SYSROOT=1 takes that way even when they install.
# The install never removes a package (--no-remove): rather than let apt
# trade the amd64 SDL2 for the i386 one, it is refused and the sysroot taken.
I386_SDL_PKGS  = libsdl2-dev:i386 libsdl2-image-dev:i386 zlib1g-dev:i386
I386_SDL_FILES = /usr/lib/i386-linux-gnu/libSDL2.so /usr/lib/i386-linux-gnu/libSDL2_image.so \
                 /usr/lib/i386-linux-gnu/libz.so
I386_SYSROOT  ?= 0
I386_SYSROOT_DIR = $(BUILD)/sysroot

# Prints the packages of the needs given that are missing, one per line.
define missing
for n in $(1); do \
  kind=$${n%%:*}; rest=$${n#*:}; what=$${rest%%:*}; pkg=$${rest#*:}; \
  case $$kind in \
    pc) pkg-config --exists "$$what" 2>/dev/null || echo "$$pkg";; \
    cmd) command -v "$$what" >/dev/null 2>&1 || echo "$$pkg";; \
    file) set -- $$what; [ -e "$$1" ] || echo "$$pkg";; \
  esac; \
done | sort -u
endef

# $(call require,needs): a recipe that installs what is missing with apt-get
# when run as root, and otherwise prints the exact command and stops.  The
# check runs while the recipe is expanded, so when nothing is missing the
# recipe is empty and `make -n` shows nothing.
require = $(call install-packages,$(strip $(shell $(call missing,$(1)))))
define install-packages
$(if $(1),$(Q)if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
  echo "installing: $(1)"; \
  $(if $(findstring :i386,$(1)),dpkg --add-architecture i386;) \
  apt-get update -q >/dev/null; \
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(1) >/dev/null || exit 1; \
else \
  echo "missing packages; install them with:"; \
  echo "  $(if $(findstring :i386,$(1)),sudo dpkg --add-architecture i386 && sudo apt-get update && )sudo apt-get install $(1)"; \
  exit 1; \
fi)
endef

SDL_CFLAGS    = $(shell pkg-config --cflags sdl2 SDL2_image 2>/dev/null)
SDL_LIBS      = $(shell pkg-config --libs sdl2 SDL2_image 2>/dev/null)
CMOCKA_CFLAGS = $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   = $(shell pkg-config --libs cmocka 2>/dev/null)
CJSON_CFLAGS  = $(shell pkg-config --cflags libcjson 2>/dev/null)
CJSON_LIBS    = $(shell pkg-config --libs libcjson 2>/dev/null)
ZLIB_LIBS     = $(shell pkg-config --libs zlib 2>/dev/null)
# Chipmunk2D ships no pkg-config file: its header is checked by the needs
# above, and the library is linked by name.
CHIPMUNK_LIBS = -lchipmunk

ifeq ($(ARCH),i386)
# The i386 SDL2: the machine's when installed (and not refused by
# I386_SYSROOT=1), else the sysroot's; decided when the flags are used, so
# after deps-i386-demo has done its work.
I386_SR = $(shell if [ "$(I386_SYSROOT)" = 1 ] || ! ls $(I386_SDL_FILES) >/dev/null 2>&1; then \
    echo $(abspath $(I386_SYSROOT_DIR)); fi)
I386_SR_LIB = $(I386_SR)/usr/lib/i386-linux-gnu $(I386_SR)/lib/i386-linux-gnu
I386_PC = PKG_CONFIG_LIBDIR=$(I386_SR)/usr/lib/i386-linux-gnu/pkgconfig:$(I386_SR)/usr/share/pkgconfig \
          $(if $(I386_SR),PKG_CONFIG_SYSROOT_DIR=$(I386_SR)) pkg-config
# The sysroot has no -dev package of the image libraries that SDL2_image.pc
# names, which pkg-config insists on: there it is linked by name.
SDL_CFLAGS = $(if $(I386_SR),-I$(I386_SR)/usr/include/i386-linux-gnu \
               $(shell $(I386_PC) --cflags sdl2 2>/dev/null), \
             $(shell $(I386_PC) --cflags sdl2 SDL2_image 2>/dev/null))
SDL_LIBS   = $(if $(I386_SR),$(I386_SR_LIB:%=-L%) $(I386_SR_LIB:%=-Wl,-rpath-link,%) \
               $(shell $(I386_PC) --libs sdl2 2>/dev/null) -lSDL2_image, \
             $(shell $(I386_PC) --libs sdl2 SDL2_image 2>/dev/null))
ZLIB_LIBS  = $(shell $(I386_PC) --libs zlib 2>/dev/null)
# How the tests run it: qemu-user, told where the sysroot is.
I386_QEMU  = qemu-i386$(if $(I386_SR), -L $(I386_SR))
endif

ifneq ($(ARM_TRIPLE),)
# Every library from the sysroot, found by pkg-config there.  SDL2_image.pc
# names -dev packages of image libraries the sysroot has not: linked by name.
ARM_PC = PKG_CONFIG_LIBDIR=$(ARM_SR)/usr/lib/$(ARM_TRIPLE)/pkgconfig:$(ARM_SR)/usr/share/pkgconfig \
         PKG_CONFIG_SYSROOT_DIR=$(ARM_SR) pkg-config
SDL_CFLAGS    = $(shell $(ARM_PC) --cflags sdl2 2>/dev/null)
SDL_LIBS      = $(shell $(ARM_PC) --libs sdl2 2>/dev/null) -lSDL2_image
CMOCKA_CFLAGS = $(shell $(ARM_PC) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   = $(shell $(ARM_PC) --libs cmocka 2>/dev/null)
CJSON_CFLAGS  = $(shell $(ARM_PC) --cflags libcjson 2>/dev/null)
CJSON_LIBS    = $(shell $(ARM_PC) --libs libcjson 2>/dev/null)
ZLIB_LIBS     = $(shell $(ARM_PC) --libs zlib 2>/dev/null)
endif

# ---- sources ---------------------------------------------------------------

# By wildcard, so that a new file in a room is built without a change here.
# The kernels of the target's architecture: x86 (and the others, whose
# kernels/x86/cpu.c says they have none of its instruction sets) or ARM.
ifneq ($(ARM_TRIPLE),)
ISA_DIR   = src/kernels/arm
else
ISA_DIR   = src/kernels/x86
endif
CORE_SRC  = $(sort $(wildcard src/core/*/*.c src/kernels/*.c) $(ISA_DIR)/cpu.c)
SIMD_SRC  = $(sort $(filter-out $(ISA_DIR)/cpu.c,$(wildcard $(ISA_DIR)/*.c)))
APP_SRC   = $(sort $(wildcard src/app/*.c))
# The pool's play, above the library and below every front end (no SDL):
# the demo, the tests and the web page link it.
PLAY_SRC  = $(sort $(wildcard src/play/*.c))
# The side scene: the water of the core joined to Chipmunk2D's rigid
# bodies, without SDL; the demo, the bench and the tests link it.
SCENE_SRC = $(sort $(wildcard src/scene/*.c))
# qemu_icount.c is a qemu plugin, built by bench-instr-i386.
BENCH_SRC = $(sort $(filter-out bench/qemu_icount.c,$(wildcard bench/*.c)))
# Each tests/test_*.c is a program of its own; tests/util.c, when there,
# is linked into every one of them.
TEST_SRC  = $(sort $(wildcard tests/test_*.c))
UTIL_SRC  = $(wildcard tests/util.c)
# Every C file, for `make warnings`: the ARM kernels apart, compiled for
# ARM only.
ARM_SRC   = $(sort $(wildcard src/kernels/arm/*.c))
ALL_SRC   = $(sort $(filter-out $(ARM_SRC),$(wildcard src/*.c src/*/*.c src/*/*/*.c bench/*.c tests/*.c)))

# SIMD kernels: x86 and ARM builds get them unless SIMD=0.  Each file gets
# its own instruction-set flags and nothing else does, so the binary runs
# on any CPU of the architecture and picks its path at run time.
ifneq ($(ARM_TRIPLE),)
SIMD ?= 1
SIMD_DEFS = -DRPL_HAVE_NEON
else ifeq ($(ARCH),wasm)
# WebAssembly SIMD runs the SSE2 kernels through emscripten's SSE2
# headers; MMX and AVX2 have no counterpart there.
SIMD ?= 1
SIMD_DEFS = -DRPL_HAVE_SSE2
SIMD_SRC := $(filter %_sse2.c,$(SIMD_SRC))
else
MACHINE := $(shell $(CC) -dumpmachine 2>/dev/null)
ifneq ($(filter x86_64% amd64% i386% i486% i586% i686%,$(MACHINE)),)
SIMD ?= 1
else
SIMD ?= 0
endif
SIMD_DEFS = -DRPL_HAVE_MMX -DRPL_HAVE_SSE2 -DRPL_HAVE_AVX2
endif
ifeq ($(SIMD),1)
LIB_SRC = $(CORE_SRC) $(SIMD_SRC)
STD_CFLAGS += $(SIMD_DEFS)
else
LIB_SRC = $(CORE_SRC)
endif
ISA_mmx  = -mmmx
ISA_sse2 = $(if $(filter wasm,$(ARCH)),-msimd128 -msse2,-msse2)
ISA_avx2 = -mavx2

LIB_OBJ   = $(LIB_SRC:%.c=$(BUILD)/%.o)
PIC_OBJ   = $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
APP_OBJ   = $(APP_SRC:%.c=$(BUILD)/%.o)
PLAY_OBJ  = $(PLAY_SRC:%.c=$(BUILD)/%.o)
SCENE_OBJ = $(SCENE_SRC:%.c=$(BUILD)/%.o)
BENCH_OBJ = $(BENCH_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ  = $(TEST_SRC:%.c=$(BUILD)/%.o)
UTIL_OBJ  = $(UTIL_SRC:%.c=$(BUILD)/%.o)
TESTBINS  = $(TEST_SRC:%.c=$(BUILD)/%)

LIB     = $(BUILD)/libripple.a
SONAME  = libripple.so.$(SOMAJOR)
SHLIB   = $(BUILD)/libripple.so.$(VERSION)
SHLINKS = $(BUILD)/$(SONAME) $(BUILD)/libripple.so
SYMMAP  = $(BUILD)/libripple.map

# ---- the build configuration -------------------------------------------------

# $(call record,STAMP-VARIABLE,TEXT-VARIABLE), evaluated: writes the text to
# the stamp file while this file is read, and only when the file holds
# something else, so that what depends on the stamp is rebuilt exactly when
# the text changes.  Under make -n nothing is written: the stamp is then
# taken as changed, and the rebuild is shown.
define record
ifneq ($$(strip $$(file <$$($(1)))),$$(strip $$($(2))))
ifneq ($$(findstring n,$$(firstword -$$(MAKEFLAGS))),)
.PHONY: $$($(1))
else
$$(shell mkdir -p $$(BUILD))
$$(file >$$($(1)),$$($(2)))
endif
endif
endef

# Every object depends on $(STAMP): the compiler and the flags.  A build
# with another CC, CFLAGS, SIMD or ARCH in the same directory rebuilds
# everything, and one with the same rebuilds nothing.  pkg-config's flags
# are left out: they only say where installed headers are, and would change
# right after deps-run installs a library, rebuilding for nothing.
STAMP   = $(BUILD)/config.stamp
CC_ID  := $(shell $(CC) --version 2>/dev/null | head -n 1)
CONFIG  = $(CC_ID) | $(CC) $(ALL_CFLAGS) | LDFLAGS=$(LDFLAGS) | SIMD=$(SIMD) ARCH=$(ARCH) | $(VERSION)
$(eval $(call record,STAMP,CONFIG))

# The installation prefix is compiled into the demo (where it finds its
# picture) and written into ripple.pc and the man page: only those depend
# on it, so `make install PREFIX=...` after `make` rebuilds just them.
PREFIX_STAMP = $(BUILD)/prefix.stamp
$(eval $(call record,PREFIX_STAMP,PREFIX))

# Only when a stamp was removed behind make's back (then all rebuilds).
$(STAMP) $(PREFIX_STAMP): ;

.SECONDARY:
.DELETE_ON_ERROR:
.SUFFIXES:
.PHONY: web web-simd web-scalar web-files web-module serve-web test-web bench-web deps-web \
        all run check test test-unit test-smoke test-smoke-quick test-install test-nosimd \
        test-i386 test-arm test-san test-clang test-rules warnings layout bench bench-present bench-instr \
        bench-instr-i386 bench-instr-arm clean install uninstall deps-run deps-check deps-test deps-i386 deps-i386-demo \
        deps-arm \
        test-i386-sysroot i386-demo i386-demo-run \
        backdrop side-art screenshots check-stages test-stages unit-runs unit-exact unit-once san-runs \
        san-suites san-smoke $(TEST_STAGES:%=stage-%) $(CHECK_STAGES:%=stage-%)

ifeq ($(ARCH),i386)
all: deps-i386 $(LIB) $(SHLIB) $(SHLINKS) $(BENCH) $(TESTBINS) $(DEMO)
else ifneq ($(ARM_TRIPLE),)
all: deps-arm $(LIB) $(SHLIB) $(SHLINKS) $(BENCH) $(TESTBINS) $(DEMO)
else
all: deps-run $(LIB) $(SHLIB) $(SHLINKS) $(DEMO) $(BENCH)
endif

deps-run:
	$(call require,$(NEEDS_RUN))

deps-i386:
	$(call require,$(NEEDS_I386))

# The i386 SDL2: installed beside the amd64 one when that works (as root),
# else (refused, or not root) unpacked into the private sysroot.  Without
# network both fail, with a message.
deps-i386-demo:
ifeq ($(I386_SYSROOT),1)
	$(Q)sh src/tools/sysroot.sh i386 $(I386_SYSROOT_DIR) sdl
else ifneq ($(words $(wildcard $(I386_SDL_FILES))),$(words $(I386_SDL_FILES)))
	$(Q)mkdir -p $(BUILD) && rm -f $(BUILD)/deps-i386-demo.log; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && { \
	    echo "installing: $(I386_SDL_PKGS)"; dpkg --add-architecture i386; \
	    apt-get update -q >/dev/null; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends --no-remove \
	        $(I386_SDL_PKGS) >$(BUILD)/deps-i386-demo.log 2>&1; }; then :; \
	else \
	    [ -s $(BUILD)/deps-i386-demo.log ] && tail -n 5 $(BUILD)/deps-i386-demo.log; \
	    echo "the i386 SDL2 packages are not installed: taking them into $(I386_SYSROOT_DIR)"; \
	    sh src/tools/sysroot.sh i386 $(I386_SYSROOT_DIR) sdl || { \
	        echo "no i386 SDL2 for the 32-bit demo: install $(I386_SDL_PKGS)"; \
	        echo "or give the sysroot's apt a network (see docs/old-hardware.md)"; exit 1; }; \
	fi
else
	@:
endif

deps-check:
	$(call require,$(NEEDS_CHECK))

# The ARM sysroot: the C library and the test libraries, and the demo's
# SDL2 when the demo is to be built (a plain `make`, all, run, install or
# the demo itself).
ARM_DEMO_GOALS = all run install $(DEMO)
ARM_SETS = libc test $(if $(filter $(ARM_DEMO_GOALS),$(or $(MAKECMDGOALS),all)),sdl)
deps-arm:
	$(call require,$(NEEDS_ARM))
	$(Q)sh src/tools/sysroot.sh $(ARM_DEBARCH) $(ARM_SYSROOT) $(ARM_SETS)

deps-test:
	$(call require,$(NEEDS_TEST))

# ---- compiling ---------------------------------------------------------------

# One recipe compiles every object.  What differs between objects comes
# from pattern-specific variables: ISA (a SIMD kernel's instruction set, for
# that file alone), PIC (the shared library's copy of the core, built apart
# in $(BUILD)/pic) and EXTRA (the headers a room takes from pkg-config).
define compile
@mkdir -p $(@D)
@$(if $(Q),echo "  CC      $<$(if $(PIC), (pic))")
$(Q)$(CC) $(ALL_CFLAGS) $(ISA) $(PIC) $(EXTRA) -MMD -MP -c $< -o $@
endef

$(BUILD)/%.o: %.c $(STAMP)
	$(compile)

$(BUILD)/pic/%.o: %.c $(STAMP)
	$(compile)

$(BUILD)/%_mmx.o:  ISA = $(ISA_mmx)
$(BUILD)/%_sse2.o: ISA = $(ISA_sse2)
$(BUILD)/%_avx2.o: ISA = $(ISA_avx2)
$(BUILD)/%_neon.o: ISA = $(ISA_neon)
$(BUILD)/pic/%.o:  PIC = -fPIC
$(BUILD)/src/app/%.o: EXTRA = $(SDL_CFLAGS) $(CJSON_CFLAGS) -DRIPPLE_DATADIR='"$(DATADIR)/ripple"'
$(BUILD)/bench/%.o: EXTRA = $(CJSON_CFLAGS)
$(BUILD)/tests/%.o: EXTRA = $(CMOCKA_CFLAGS)

ifneq ($(ARM_TRIPLE),)
# Every object wants the sysroot, fetched before any is compiled (a set
# added later remakes the folder).
$(APP_OBJ): $(PREFIX_STAMP) | deps-arm
$(LIB_OBJ) $(PIC_OBJ) $(PLAY_OBJ) $(BENCH_OBJ) $(SCENE_OBJ) $(TEST_OBJ) $(UTIL_OBJ): | deps-arm
else
$(APP_OBJ): $(PREFIX_STAMP) | $(if $(filter i386,$(ARCH)),deps-i386 deps-i386-demo,deps-run)
$(BENCH_OBJ) $(SCENE_OBJ): | $(if $(filter i386,$(ARCH)),deps-i386,deps-run)
endif

# ---- linking -----------------------------------------------------------------

$(LIB): $(LIB_OBJ)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# The shared library exports the functions of the public header and nothing
# else: src/libripple.sym lists them, one a line, sorted, and test-install
# holds the header, the list and the built library to each other.  The
# kernels, the thread pool, the helpers shared between the core's files and
# the front ends' helpers (src/ripple_support.h) stay internal, so no
# program can come to depend on them; libripple.a still has them all.
SYMLIST = src/libripple.sym
# The public headers: ripple.h includes these, in this order, and both are
# installed (include/ripple.h, include/ripple/*.h).
PUBLIC_SUBHDR = src/ripple/base.h src/ripple/field.h src/ripple/render.h src/ripple/show.h \
                src/ripple/sound.h src/ripple/side.h
PUBLIC_HDR = src/ripple.h $(PUBLIC_SUBHDR)
$(SYMMAP): $(SYMLIST)
	@$(if $(Q),echo "  GEN     $@")
	$(Q){ echo '{'; echo '  global:'; sed 's/.*/    &;/' $(SYMLIST); \
	  echo '  local: *;'; echo '};'; } >$@.tmp && mv $@.tmp $@

# -z defs: the library names everything it needs (libm, pthreads); left out
# under the sanitizers, whose runtime only the program brings.
$(SHLIB): $(PIC_OBJ) $(SYMMAP)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script,$(SYMMAP) \
	    $(if $(findstring -fsanitize,$(CFLAGS) $(LDFLAGS)),,-Wl,-z,defs) \
	    -o $@ $(PIC_OBJ) $(CORE_LIBS)

$(BUILD)/$(SONAME): $(SHLIB)
	$(Q)ln -sf $(notdir $<) $@

$(BUILD)/libripple.so: $(BUILD)/$(SONAME)
	$(Q)ln -sf $(notdir $<) $@

$(DEMO): $(APP_OBJ) $(PLAY_OBJ) $(SCENE_OBJ) $(LIB)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(APP_OBJ) $(PLAY_OBJ) $(SCENE_OBJ) $(LIB) $(SDL_LIBS) $(CJSON_LIBS) \
	    $(ZLIB_LIBS) $(CHIPMUNK_LIBS) $(CORE_LIBS)

$(BENCH): $(BENCH_OBJ) $(SCENE_OBJ) $(LIB)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(BENCH_OBJ) $(SCENE_OBJ) $(LIB) $(CJSON_LIBS) \
	    $(CHIPMUNK_LIBS) $(CORE_LIBS)

$(TESTBINS): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(UTIL_OBJ) $(PLAY_OBJ) $(SCENE_OBJ) $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(TEST_APP_OBJ) $(UTIL_OBJ) $(PLAY_OBJ) $(SCENE_OBJ) $(LIB) \
	    $(CMOCKA_LIBS) $(CHIPMUNK_LIBS) $(CORE_LIBS)

# A suite that tests one of the demo's SDL-free files links its object.
$(BUILD)/tests/test_shotname: TEST_APP_OBJ = $(BUILD)/src/app/shotname.o
$(BUILD)/tests/test_shotname: $(BUILD)/src/app/shotname.o
# The web page's pool, built natively (plain C over libripple).
$(BUILD)/tests/test_web: TEST_APP_OBJ = $(BUILD)/src/web/web.o
$(BUILD)/tests/test_web: $(BUILD)/src/web/web.o

# ---- fuzz targets --------------------------------------------------------------

# tests/fuzz_*.c are libFuzzer targets (clang -fsanitize=fuzzer), not unit
# tests: TEST_SRC leaves them out, so they are neither linked with cmocka nor
# run by test-unit; `make warnings` compiles them like every C file.  Their
# build and run rules (fuzz, fuzz-smoke) are in tests/fuzz.mk.
include tests/fuzz.mk

# ---- the web page ----------------------------------------------------------------

# make web: the page in $(WEB_DIR), over two builds of the core made with
# emscripten (ARCH=wasm): the SIMD module (the SSE2 kernels on WebAssembly
# SIMD) and the scalar one, for browsers without SIMD; the page picks.
# The exports are every web_* function src/web/web.h declares.
WEB_DIR  ?= build/web
WEB_PORT ?= 8000
WEB_PAGE  = src/web/index.html src/web/web.js src/web/engine.js
# The page's files, its picture and its show, copied as they are.
WEB_FILES = $(WEB_PAGE:src/web/%=$(WEB_DIR)/%) $(WEB_DIR)/background.png $(WEB_DIR)/default.show
paren := (
comma := ,
WEB_EXPORTS = $(shell sed -n 's/^[a-z].*[ *]\(web_[a-z_]*\)[$(paren)].*/_\1/p' src/web/web.h) _malloc _free
WEB_LDFLAGS = -O2 --no-entry -sMODULARIZE=1 -sEXPORT_NAME=RippleModule -sENVIRONMENT=web,node \
              -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=33554432 -sFILESYSTEM=0 \
              -sEXPORTED_FUNCTIONS=$(subst $(eval) ,$(comma),$(strip $(WEB_EXPORTS))) \
              -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8
# emcc is a node program: Debian's, with a node from elsewhere, finds its
# modules through NODE_PATH.
EMCC_NODE_PATH = $(if $(NODE_PATH),$(NODE_PATH):)/usr/share/nodejs
ifeq ($(ARCH),wasm)
export NODE_PATH := $(EMCC_NODE_PATH)
WEB_MODULE = $(WEB_DIR)/ripple-$(if $(filter 0,$(SIMD)),scalar,simd).js
$(BUILD)/src/web/web.o $(BUILD)/tests/web_exact.o: $(STAMP)
$(WEB_MODULE): $(BUILD)/src/web/web.o $(PLAY_OBJ) $(LIB) src/web/web.h $(SELF)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  EMLD    $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $(BUILD)/src/web/web.o $(PLAY_OBJ) $(LIB) $(WEB_LDFLAGS)
web-module: $(WEB_MODULE)
	@:
# The SIMD kernels against the scalar ones, in node.
$(BUILD)/web_exact.js: $(BUILD)/tests/web_exact.o $(LIB)
	@$(if $(Q),echo "  EMLD    $@")
	$(Q)$(CC) $(LDFLAGS) -O2 -o $@ $^ -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1
endif

deps-web:
	$(call require,$(NEEDS_WEB))

web: deps-web
	$(Q)$(MAKE) $(SUB) -j$(JOBS) web-simd web-scalar web-files
web-files: $(WEB_FILES)
	@:
web-simd web-scalar: web-%:
	$(Q)$(MAKE) $(SUB) ARCH=wasm SIMD=$(if $(filter simd,$*),1,0) BUILD=$(BUILD)/wasm/$* \
	    WEB_DIR=$(WEB_DIR) web-module
define web-copy
@mkdir -p $(@D)
$(Q)cp $< $@
endef
$(WEB_DIR)/%: src/web/%
	$(web-copy)
$(WEB_DIR)/%: assets/%
	$(web-copy)
$(WEB_DIR)/%: assets/shows/%
	$(web-copy)

serve-web: web
	node src/web/serve.mjs $(WEB_DIR) $(WEB_PORT)

# node's WebSocket, behind a flag in node 20 (without it, the ws module).
NODE_WS = $$(node --experimental-websocket -e 0 2>/dev/null && echo --experimental-websocket)

# The page's timedemo against the native demo's, and what the page costs
# a frame while it plays (bench/web.mjs).
bench-web: web $(DEMO)
	$(call require,$(NEEDS_WEB_TEST))
	node $(NODE_WS) bench/web.mjs --dir $(WEB_DIR) --native $(call cmd,$(DEMO))

# The page in a headless Chromium, both modules, against the native demo;
# the SIMD kernels against the scalar ones in node first.
WEB_EXACT = $(BUILD)/wasm/simd/web_exact.js
test-web: web $(DEMO)
	$(call require,$(NEEDS_WEB_TEST))
	$(Q)$(MAKE) $(SUB) ARCH=wasm SIMD=1 BUILD=$(BUILD)/wasm/simd $(WEB_EXACT)
	sh tests/web.sh $(call cmd,$(DEMO)) $(WEB_DIR) $(WEB_EXACT) $(BUILD)/web-shots

# ---- running -------------------------------------------------------------------

# A program's path as a command (./ripple, not ripple).
cmd = $(if $(filter /%,$(1)),$(1),./$(1))

run: all
	$(RUN_WRAP) $(call cmd,$(DEMO))

bench: $(BENCH)
	$(RUN_WRAP) $(call cmd,$(BENCH))

# Presenting under Xvfb, beside xscreensaver's ripples (both installed
# when missing); shmcount.so counts ripples' frames.
bench-present: $(DEMO)
	$(call require,cmd:Xvfb:xvfb 'file:/usr/libexec/xscreensaver/ripples:xscreensaver-data')
	$(Q)$(CC) -std=c11 -Wall -Wextra -O2 -shared -fPIC -o $(BUILD)/shmcount.so bench/preload/shmcount.c -ldl
	bash bench/vs-ripples.sh $(call cmd,$(DEMO)) $(BUILD)/shmcount.so

# Instructions per pixel per frame of every path and of the seed, counted
# by callgrind (needs valgrind); repeatable, unlike timings.
bench-instr: $(BENCH)
	sh bench/instr.sh $(call cmd,$(BENCH))

# The 32-bit build's directory: build/i386 beside the 64-bit build, or this
# one when it is already 32-bit.
I386 = $(if $(filter i386,$(ARCH)),$(BUILD),$(BUILD)/i386)

# The same for the 32-bit build, counted under qemu-user by a small plugin
# (valgrind cannot run 32-bit programs on every 64-bit kernel).
# The emulator of the ARM build in $(BUILD)/ARCH, told where its sysroot is.
arm-qemu = $(ARM_QEMU_$(1)) -L $(abspath $(BUILD)/$(1)/sysroot)
QEMU_ICOUNT = $(BUILD)/qemu_icount.so
$(QEMU_ICOUNT): bench/qemu_icount.c
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) -std=c11 -Wall -Wextra -O2 -shared -fPIC -o $@ $<
bench-instr-i386: $(QEMU_ICOUNT)
	$(Q)$(MAKE) $(SUB) ARCH=i386 BUILD=$(I386) BENCH=$(I386)/ripple-bench $(I386)/ripple-bench
	sh bench/instr-qemu.sh i386 $(I386)/ripple-bench $(QEMU_ICOUNT)

# The same for the ARM builds, beside the seed's code built for ARM.
bench-instr-arm:
	$(Q)$(MAKE) $(SUB) $(ARM_ARCHS:%=arm-instr-%)
arm-instr-%: $(QEMU_ICOUNT)
	$(Q)$(MAKE) $(SUB) ARCH=$* BUILD=$(BUILD)/$* BENCH=$(BUILD)/$*/ripple-bench $(BUILD)/$*/ripple-bench
	QEMU="$(call arm-qemu,$*)" sh bench/instr-qemu.sh $* $(BUILD)/$*/ripple-bench $(QEMU_ICOUNT)

# ---- tests ---------------------------------------------------------------------

# Two commands.  `make check` is the loop of day-to-day work: the native
# build, every unit suite, the exactness suite on every path this CPU has
# and the quick smoke checks.  `make test` (what CI runs) is all of that
# and the rest: warnings, the include rules, the full smoke suite, install,
# the fuzzers, the scalar-only build, the 32-bit build under qemu, clang's
# sanitizers and a clang build that must write gcc's bytes.  Both run their
# stages side by side on every core (JOBS, default: all of them), each
# stage's output into $(BUILD)/stages/NAME.log, and end with a table of
# each stage's wall time against its budget in seconds.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
STAGES = $(BUILD)/stages
# NAME:BUDGET, in the order of the table; the budgets hold on a 2-core
# machine with both cores busy, so that `make test` stays within 20
# minutes.  The 32-bit demo, given 90, went into the i386 stage for 30
# (about 20 s measured: its app files built, its runs beside the three
# CPUs'); the web stage builds the page's two modules and runs both in a
# headless Chromium.
CHECK_STAGES = build:60 unit:60 smoke-quick:30
TEST_STAGES  = build:60 unit:90 rules:30 smoke:120 warnings:150 install:150 fuzz:150 \
               nosimd:120 i386:360 arm:180 web:120 san:300 san-gcc:300 clang:150
# A stage: `sh tests/stage.sh DIR NAME make TARGET...`.
stage = +$(Q)sh tests/stage.sh $(STAGES) $(1) $(MAKE) $(SUB) $(2)

check: deps-check
	$(Q)sh tests/stage.sh --begin $(STAGES)
	$(Q)$(MAKE) $(SUB) -j$(JOBS) -k check-stages; rc=$$?; \
	sh tests/stage.sh --table $(STAGES) $(CHECK_STAGES) || rc=1; exit $$rc

# The 32-bit demo's SDL2 is fetched (installed, or unpacked into the
# sysroot) before the stages start, so that no package changes under them;
# when it cannot be, the i386 stage fails and says why.
test: deps-test
	$(Q)$(MAKE) $(SUB) ARCH=i386 BUILD=$(I386) deps-i386-demo || \
	    echo "no i386 SDL2 for the 32-bit demo: the i386 stage will fail"
	$(Q)$(MAKE) $(SUB) $(ARM_ARCHS:%=arm-sysroot-%) || \
	    echo "no ARM sysroot: the arm and warnings stages will fail"
	$(Q)sh tests/stage.sh --begin $(STAGES)
	$(Q)$(MAKE) $(SUB) -j$(JOBS) -k test-stages; rc=$$?; \
	sh tests/stage.sh --table $(STAGES) $(TEST_STAGES) || rc=1; exit $$rc

# make starts them in this order: the build first (four stages wait for
# it), then the longest.
check-stages: stage-build stage-unit stage-smoke-quick
test-stages: stage-build stage-i386 stage-arm stage-web stage-unit stage-san stage-smoke stage-san-gcc \
             stage-rules stage-warnings stage-fuzz stage-install stage-nosimd stage-clang
stage-unit stage-smoke stage-smoke-quick stage-rules stage-clang stage-i386 stage-arm stage-web: stage-build

stage-build:
	$(call stage,build,all $(TESTBINS))
stage-unit:
	$(call stage,unit,test-unit)
stage-smoke-quick:
	$(call stage,smoke-quick,test-smoke-quick)
stage-smoke:
	$(call stage,smoke,test-smoke)
stage-rules:
	$(call stage,rules,layout test-rules)
stage-warnings:
	$(call stage,warnings,warnings)
stage-install:
	$(call stage,install,test-install)
stage-fuzz:
	$(call stage,fuzz,fuzz-smoke)
stage-nosimd:
	$(call stage,nosimd,test-nosimd)
stage-i386:
	$(call stage,i386,test-i386)
stage-arm:
	$(call stage,arm,test-arm)
stage-web:
	$(call stage,web,test-web)
stage-san:
	$(call stage,san,test-san)
stage-san-gcc:
	$(call stage,san-gcc,test-san SAN_CC=gcc SAN=$(BUILD)/san-gcc)
stage-clang:
	$(call stage,clang,test-clang)

# Which unit suites run once per kernel path.  The rule: a suite runs on
# every path this CPU has when its code calls a kernel through the table
# (it steps the water of either model, refracts or upscales); a suite that
# calls none runs once per build, since no path can change what it sees.
# test_paths, the exactness suite, compares every path with the scalar
# code by itself and runs once.  Every suite not named here runs once, and
# `make test-rules` holds those to the rule: under gdb, with a breakpoint
# on every kernel of every path, none may be reached.
PATH_SUITES = api autopilot backdrop field files kernels look play render show snapshot step stones walls wave web
ALL_SUITES  = $(TEST_SRC:tests/test_%.c=%)
ONCE_SUITES = $(filter-out paths $(PATH_SUITES),$(ALL_SUITES))

# tests/test_paths is the exactness suite: every path against the scalar
# code, and the list of paths this CPU has.
PATHS_TEST = $(BUILD)/tests/test_paths
UNIT_LOGS  = $(BUILD)/unit

# The exactness suite, the suites that call kernels once on each path this
# CPU has (RIPPLE_SIMD forces it), the others once: side by side.
test-unit: $(TESTBINS)
	$(Q)paths=$$($(PATHS_TEST) --list) || { echo "test_paths --list failed"; exit 1; }; \
	$(MAKE) $(SUB) UNIT_PATHS="$$(echo $$paths)" unit-runs
unit-runs: unit-exact unit-once $(UNIT_PATHS:%=unit-on-%)
unit-exact:
	$(Q)sh tests/suites.sh "exactness (test_paths)" $(UNIT_LOGS)/paths.log $(PATHS_TEST)
unit-once:
	$(Q)sh tests/suites.sh "suites without kernels" $(UNIT_LOGS)/once.log \
	    $(ONCE_SUITES:%=$(BUILD)/tests/test_%)
unit-on-%:
	$(Q)RIPPLE_SIMD=$* sh tests/suites.sh "suites with kernels, path $*" $(UNIT_LOGS)/$*.log \
	    $(PATH_SUITES:%=$(BUILD)/tests/test_%)

# The suites that run once call no kernel (needs gdb).
test-rules: $(TESTBINS)
	$(Q)sh tests/kernel-calls.sh $(ONCE_SUITES:%=$(BUILD)/tests/test_%)

test-smoke: $(DEMO) $(BENCH)
	sh tests/smoke.sh $(call cmd,$(DEMO)) $(call cmd,$(BENCH))

# Flags, files in and out, headless runs and one window under Xvfb.
test-smoke-quick: $(DEMO) $(BENCH)
	sh tests/smoke.sh --quick $(call cmd,$(DEMO)) $(call cmd,$(BENCH))

# The include rules of the rooms (src/core/*, src/kernels, src/app, ...), and
# no loop of files in src/core or in src/app, read from
# the objects' symbols.
layout: $(LIB_OBJ) $(APP_OBJ) $(PLAY_OBJ)
	sh tests/layout.sh $(BUILD)

# Every source must compile without a warning under gcc and clang (when
# installed), each file a target of its own (side by side, and again only
# when it or a header it reads changed); -Werror only here, so a user's
# newer compiler never breaks an ordinary build.  The man page must render
# without a groff warning.
WARN_CCS = $(foreach c,gcc clang,$(if $(shell command -v $(c) 2>/dev/null),$(c)))
WARN_OK  = $(foreach c,$(WARN_CCS),$(ALL_SRC:%.c=$(BUILD)/warn/$(c)/%.ok))
# The ARM kernels under clang for AArch64 and ARMv7, against the ARM
# builds' sysroots (fetched when missing).
WARN_ARM = $(foreach a,$(ARM_ARCHS),$(ARM_SRC:%.c=$(BUILD)/warn/clang-$(a)/%.ok))
# What WebAssembly compiles apart from the other builds (the SSE2 kernels
# on its SIMD, the CPU check's wasm branch, the table, the page's C and its
# exactness check) under emcc, when installed.
WASM_WARN_SRC = $(sort $(wildcard src/kernels/x86/*_sse2.c) src/kernels/x86/cpu.c \
                  src/kernels/dispatch.c $(wildcard src/web/*.c src/play/*.c) tests/web_exact.c)
WARN_WASM = $(if $(shell command -v emcc 2>/dev/null),$(WASM_WARN_SRC:%.c=$(BUILD)/warn/emcc/%.ok))
warnings: $(WARN_OK) $(WARN_ARM) $(WARN_WASM)
	$(Q)for c in gcc clang; do \
	  case " $(WARN_CCS) " in *" $$c "*) echo "warnings: $$c clean on $(words $(ALL_SRC)) files";; \
	  *) echo "warnings: $$c not installed, skipped";; esac; \
	done
	$(Q)echo "warnings: clang for aarch64 and armv7 clean on $(words $(ARM_SRC)) files"
	$(Q)echo "warnings: $(if $(WARN_WASM),emcc for WebAssembly clean on $(words $(WASM_WARN_SRC)) files,emcc not installed$(comma) skipped)"
	$(Q)if command -v groff >/dev/null 2>&1; then \
	  out=$$(groff -man -Tutf8 -ww -z src/app/ripple.6 2>&1); \
	  if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; \
	  echo "warnings: groff clean on src/app/ripple.6"; \
	else echo "warnings: groff not installed, man page skipped"; fi

define warn-rule
$(BUILD)/warn/$(1)/%.ok: %.c
	@mkdir -p $$(@D)
	$(Q)$(1) $$(STD_CFLAGS) $$(WISA) -O2 -Werror $$(SDL_CFLAGS) $$(CMOCKA_CFLAGS) $$(CJSON_CFLAGS) \
	    -MMD -MP -MF $$(@:.ok=.d) -MT $$@ -c $$< -o /dev/null && touch $$@
endef
$(foreach c,gcc clang,$(eval $(call warn-rule,$(c))))
$(BUILD)/warn/%_mmx.ok:  WISA = $(ISA_mmx)
$(BUILD)/warn/%_sse2.ok: WISA = $(ISA_sse2)
$(BUILD)/warn/%_avx2.ok: WISA = $(ISA_avx2)
$(WARN_OK): $(STAMP)
-include $(WARN_OK:.ok=.d)

define warn-arm-rule
$(BUILD)/warn/clang-$(1)/%.ok: %.c | arm-sysroot-$(1)
	@mkdir -p $$(@D)
	$(Q)clang $$(STD_CFLAGS) -DRPL_HAVE_NEON $(ARM_CFLAGS_$(1)) --sysroot=$(BUILD)/$(1)/sysroot \
	    $$(if $$(filter %_neon.c,$$<),$(ARM_NEON_$(1))) -O2 -Werror \
	    -MMD -MP -MF $$(@:.ok=.d) -MT $$@ -c $$< -o /dev/null && touch $$@
endef
$(foreach a,$(ARM_ARCHS),$(eval $(call warn-arm-rule,$(a))))
arm-sysroot-%:
	$(Q)$(MAKE) $(SUB) ARCH=$* BUILD=$(BUILD)/$* deps-arm
$(WARN_ARM): $(STAMP)
-include $(WARN_ARM:.ok=.d)

$(BUILD)/warn/emcc/%.ok: %.c
	@mkdir -p $(@D)
	$(Q)NODE_PATH=$(EMCC_NODE_PATH) emcc $(filter-out -DRPL_HAVE_%,$(STD_CFLAGS)) \
	    -DRPL_HAVE_SSE2 $(if $(filter %_sse2.c,$<),-msimd128 -msse2) -O2 -Werror \
	    -MMD -MP -MF $(@:.ok=.d) -MT $@ -c $< -o /dev/null && touch $@
$(WARN_WASM): $(STAMP)
-include $(WARN_WASM:.ok=.d)

# Installs into a scratch prefix, builds the example against the installed
# shared library through pkg-config as a user would and runs it; checks
# that the library exports exactly the names of $(SYMLIST), that each
# installed header (ripple.h and every ripple/*.h) compiles alone as C99
# (-pedantic -Werror) and as C++ when a C++ compiler is there, that the
# headers together declare exactly those functions, and that none is a
# helper of ripple_support.h;
# runs the installed demo away from the source tree (it must find its
# picture under the prefix), then uninstalls and checks that nothing is
# left; the same with DESTDIR.  In a build directory of its own, since the
# prefix is compiled into the demo.
INST = $(BUILD)/inst
STAGE = $(abspath $(INST)/stage)
INSTALLED = ./bin/ripple ./include/ripple.h $(sort $(PUBLIC_SUBHDR:src/%=./include/%)) \
            ./lib/libripple.a ./lib/libripple.so \
            ./lib/$(SONAME) ./lib/libripple.so.$(VERSION) ./lib/pkgconfig/ripple.pc \
            ./share/man/man6/ripple.6 ./share/ripple/background.png \
            ./share/ripple/shows/default.show ./share/ripple/side-sky.png \
            ./share/ripple/side-stone.png
INST_VARS = BUILD=$(INST) DEMO=$(INST)/ripple BENCH=$(INST)/ripple-bench PREFIX=$(STAGE) LDCONFIG=:
test-install:
	$(Q)rm -rf $(STAGE) $(INST)/dest
	$(Q)$(MAKE) $(SUB) $(INST_VARS) install
	$(Q)export PKG_CONFIG_PATH=$(STAGE)/lib/pkgconfig; fail() { echo "test-install: FAIL: $$*"; exit 1; }; \
	test "$$(pkg-config --variable=prefix ripple)" = "$(STAGE)" || fail "ripple.pc: wrong prefix"; \
	test "$$(pkg-config --modversion ripple)" = "$(VERSION)" || fail "ripple.pc: wrong version"; \
	echo "  CC      src/examples/water.c (against $(STAGE))"; \
	$(CC) -std=c11 -Wall -Wextra -O2 -o $(INST)/water src/examples/water.c \
	    $$(pkg-config --cflags --libs ripple sdl2) || fail "the example does not build"; \
	readelf -d $(INST)/water | grep -q 'NEEDED.*\[$(SONAME)\]' || fail "the example does not need $(SONAME)"; \
	SDL_VIDEODRIVER=dummy LD_LIBRARY_PATH=$(STAGE)/lib $(INST)/water --frames 20 || fail "the example failed"; \
	LD_LIBRARY_PATH=$(STAGE)/lib ldd $(INST)/water | grep -q '$(SONAME) => $(STAGE)/lib/' || fail "the example does not load $(STAGE)/lib/$(SONAME)"; \
	LC_ALL=C sort -c -u $(SYMLIST) 2>/dev/null || fail "$(SYMLIST) is not one name a line, sorted"; \
	nm -D --defined-only $(STAGE)/lib/$(SONAME) | awk '{ print $$NF }' | LC_ALL=C sort -u >$(INST)/exported; \
	x=$$(LC_ALL=C comm -23 $(INST)/exported $(SYMLIST) | tr '\n' ' '); \
	test -z "$$x" || fail "$(SONAME) exports $$x, which $(SYMLIST) does not list"; \
	x=$$(LC_ALL=C comm -13 $(INST)/exported $(SYMLIST) | tr '\n' ' '); \
	test -z "$$x" || fail "$(SONAME) does not export $$x, which $(SYMLIST) lists"; \
	cxx=$$(command -v $(CXX) g++ 2>/dev/null | head -n 1); \
	for h in $(PUBLIC_HDR:src/%=%); do \
	    echo "#include <$$h>" >$(INST)/alone.c; \
	    $(CC) -std=c99 -pedantic -Wall -Wextra -Werror $$(pkg-config --cflags ripple) -c $(INST)/alone.c \
	        -o $(INST)/alone.o || fail "the installed $$h does not compile alone as C99"; \
	    test -z "$$cxx" || $$cxx -x c++ -pedantic -Wall -Wextra -Werror $$(pkg-config --cflags ripple) \
	        -c $(INST)/alone.c -o $(INST)/alone.o || fail "the installed $$h does not compile alone as C++"; \
	done; \
	decls() { $(CC) -E -P "$$@" | grep -o '\brpl_[a-z0-9_]* *(' | tr -d '( ' | LC_ALL=C sort -u; }; \
	for h in $(PUBLIC_HDR:src/%=$(STAGE)/include/%); do decls $$(pkg-config --cflags ripple) $$h; done | LC_ALL=C sort -u >$(INST)/declared; \
	x=$$(LC_ALL=C comm -3 $(INST)/declared $(SYMLIST) | tr -d '\t' | tr '\n' ' '); \
	test -z "$$x" || fail "the installed headers and $(SYMLIST) differ in $$x"; \
	x=$$(decls -DRIPPLE_H src/ripple_support.h | LC_ALL=C comm -12 - $(SYMLIST) | tr '\n' ' '); \
	test -z "$$x" || fail "$(SYMLIST) lists $$x of src/ripple_support.h"; \
	(cd / && $(STAGE)/bin/ripple --headless --frames 2) || fail "the installed demo does not run away from the source tree"; \
	msg=$$(cd / && $(STAGE)/bin/ripple --headless --frames 2 --scene side 2>&1 >/dev/null) || fail "the installed demo's side scene does not run"; \
	test -z "$$msg" || fail "the installed demo's side scene: $$msg"; \
	got=$$(cd $(STAGE) && find . ! -type d | LC_ALL=C sort | tr '\n' ' '); \
	test "$$got" = "$(INSTALLED) " || fail "installed $$got; want $(INSTALLED)"
	$(Q)$(MAKE) $(SUB) $(INST_VARS) uninstall
	$(Q)left=$$(find $(STAGE) ! -type d); test -z "$$left" || { echo "test-install: FAIL: uninstall left:"; echo "$$left"; exit 1; }
	$(Q)$(MAKE) $(SUB) $(INST_VARS) DESTDIR=$(abspath $(INST)/dest) install >/dev/null
	$(Q)test -f $(INST)/dest$(STAGE)/lib/pkgconfig/ripple.pc && \
	  grep -qx 'prefix=$(STAGE)' $(INST)/dest$(STAGE)/lib/pkgconfig/ripple.pc && \
	  test ! -e $(STAGE)/bin/ripple || { echo "test-install: FAIL: DESTDIR install"; exit 1; }
	$(Q)$(MAKE) $(SUB) $(INST_VARS) DESTDIR=$(abspath $(INST)/dest) uninstall >/dev/null
	$(Q)left=$$(find $(INST)/dest ! -type d); test -z "$$left" || { echo "test-install: FAIL: DESTDIR uninstall left:"; echo "$$left"; exit 1; }
	@echo "test-install: passed"

# The 32-bit build (core, bench, tests) run under qemu-user on a Pentium II
# without MMX, a Pentium II and a Pentium III, side by side: dispatch must
# pick c, mmx, mmx, and every path must give the same bytes (see
# tests/emulated.sh for what runs on which model).  Beside them the 32-bit demo
# on a Pentium III against the 64-bit one (tests/demo32.sh).
I386_MODELS = nommx pentium2 pentium3
test-i386: $(BENCH)
	$(Q)$(MAKE) $(SUB) ARCH=i386 BUILD=$(I386) BENCH=$(I386)/ripple-bench \
	    deps-i386 $(I386)/ripple-bench $(TEST_SRC:%.c=$(I386)/%) $(I386)/ripple
	$(Q)$(MAKE) $(SUB) $(I386_MODELS:%=i386-on-%) i386-demo
i386-demo: $(DEMO)
	$(Q)$(MAKE) $(SUB) ARCH=i386 BUILD=$(I386) BENCH=$(I386)/ripple-bench \
	    DEMO64=$(call cmd,$(DEMO)) i386-demo-run
# (in the ARCH=i386 make, where the demo's qemu command is known)
i386-demo-run:
	@echo "the 32-bit demo's SDL2: $(or $(I386_SR),the machine's)"
	$(Q)QEMU="$(I386_QEMU) -cpu pentium3" sh tests/demo32.sh $(DEMO64) $(DEMO) $(BUILD)/logs/demo

# The 32-bit demo built and tested the sysroot way, which CI's successful
# co-install would otherwise never take: in a build directory of its own,
# the sysroot shared with the 32-bit build's.
I386S = $(BUILD)/i386-sysroot
test-i386-sysroot: $(DEMO)
	$(Q)$(MAKE) $(SUB) ARCH=i386 I386_SYSROOT=1 I386_SYSROOT_DIR=$(I386)/sysroot BUILD=$(I386S) \
	    BENCH=$(I386S)/ripple-bench $(I386S)/ripple
	$(Q)$(MAKE) $(SUB) ARCH=i386 I386_SYSROOT=1 I386_SYSROOT_DIR=$(I386)/sysroot BUILD=$(I386S) \
	    BENCH=$(I386S)/ripple-bench DEMO64=$(call cmd,$(DEMO)) i386-demo-run
i386-on-%:
	$(Q)PATH_SUITES="$(PATH_SUITES)" ONCE_SUITES="$(ONCE_SUITES)" NATIVE_BENCH=$(call cmd,$(BENCH)) \
	    sh tests/emulated.sh $(I386) $*

# The ARM builds (core, bench, tests) under qemu-user: AArch64 on a
# Cortex-A53, ARMv7 on a Cortex-A7 with NEON and on one without, side by
# side; dispatch must pick neon, neon and c, every path must give the same
# bytes, and the bench x86-64's (tests/emulated.sh).  Each in the directory
# `make ARCH=...` uses, with its sysroot.
ARM_MODELS = a53 a7 a7-noneon
ARM_ARCH_a53 = aarch64
ARM_ARCH_a7 = armv7
ARM_ARCH_a7-noneon = armv7
test-arm: $(ARM_ARCHS:%=arm-build-%) $(BENCH)
	$(Q)$(MAKE) $(SUB) $(ARM_MODELS:%=arm-on-%)
# What each build runs: the suites that call no kernel run on AArch64 only.
ARM_TESTS_aarch64 = $(ALL_SUITES)
ARM_TESTS_armv7   = paths $(PATH_SUITES)
arm-build-%:
	$(Q)$(MAKE) $(SUB) ARCH=$* BUILD=$(BUILD)/$* BENCH=$(BUILD)/$*/ripple-bench \
	    $(BUILD)/$*/ripple-bench $(ARM_TESTS_$*:%=$(BUILD)/$*/tests/test_%)
arm-on-%:
	$(Q)QEMU="$(call arm-qemu,$(ARM_ARCH_$*))" \
	    PATH_SUITES="$(PATH_SUITES)" ONCE_SUITES="$(ONCE_SUITES)" NATIVE_BENCH=$(call cmd,$(BENCH)) \
	    sh tests/emulated.sh $(BUILD)/$(ARM_ARCH_$*) $*

# The scalar build alone (as on a CPU other than x86) passes the same tests.
test-nosimd:
	$(Q)$(MAKE) $(SUB) SIMD=0 BUILD=$(BUILD)/nosimd DEMO=$(BUILD)/nosimd/ripple \
	    BENCH=$(BUILD)/nosimd/ripple-bench test-unit

# Built apart by clang (SAN_CC) with AddressSanitizer and
# UndefinedBehaviorSanitizer, any report failing: every unit suite once on
# the best path, the exactness suite (every path against the scalar code),
# the headless smoke tests.  `make test` runs it with gcc too, in
# $(BUILD)/san-gcc: the two compilers' sanitizers catch different things.
SAN ?= $(BUILD)/san
SAN_CC ?= clang
SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SAN_ENV = ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
SAN_VARS = CC=$(SAN_CC) BUILD=$(SAN) SAN=$(SAN) CFLAGS="$(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS)" \
           DEMO=$(SAN)/ripple BENCH=$(SAN)/ripple-bench
test-san:
	$(Q)$(MAKE) $(SUB) $(SAN_VARS) $(TEST_SRC:%.c=$(SAN)/%) $(SAN)/ripple $(SAN)/ripple-bench
	$(Q)$(MAKE) $(SUB) $(SAN_VARS) san-runs
san-runs: san-suites san-smoke
san-suites:
	$(Q)$(SAN_ENV) sh tests/suites.sh "$(SAN_CC) sanitizers, every suite" $(SAN)/unit.log \
	    $(TEST_SRC:%.c=$(SAN)/%)
san-smoke:
	$(Q)$(SAN_ENV) sh tests/smoke.sh --headless-only $(SAN)/ripple $(SAN)/ripple-bench

# The demo built by clang at -O2 writes gcc's bytes: states of both water
# models, a side-view screenshot and a WAV (tests/same-bytes.sh).
CLANG = $(BUILD)/clang
test-clang: $(DEMO)
	$(Q)$(MAKE) $(SUB) CC=clang BUILD=$(CLANG) DEMO=$(CLANG)/ripple BENCH=$(CLANG)/ripple-bench $(CLANG)/ripple
	$(Q)sh tests/same-bytes.sh $(call cmd,$(DEMO)) $(CLANG)/ripple

# ---- installing ----------------------------------------------------------------

$(BUILD)/ripple.pc: src/ripple.pc.in $(PREFIX_STAMP) $(STAMP)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' $< >$@.tmp && mv $@.tmp $@

# The installed man page names the picture's installed path and this version.
$(BUILD)/ripple.6: src/app/ripple.6 $(PREFIX_STAMP) $(STAMP)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)sed -e 's|/usr/local/share/ripple|$(DATADIR)/ripple|g' \
	    -e '/^\.TH /s|"ripple [0-9][0-9.]*"|"ripple $(VERSION)"|' $< >$@.tmp && mv $@.tmp $@

install: $(LIB) $(SHLIB) $(DEMO) $(BUILD)/ripple.pc $(BUILD)/ripple.6
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/ripple \
	    $(DESTDIR)$(DATADIR)/ripple/shows $(DESTDIR)$(MAN6DIR)
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libripple.a
	install -m 644 $(SHLIB) $(DESTDIR)$(LIBDIR)/libripple.so.$(VERSION)
	ln -sf libripple.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libripple.so
	install -m 644 src/ripple.h $(DESTDIR)$(INCLUDEDIR)/ripple.h
	install -m 644 $(PUBLIC_SUBHDR) $(DESTDIR)$(INCLUDEDIR)/ripple
	install -m 644 $(BUILD)/ripple.pc $(DESTDIR)$(LIBDIR)/pkgconfig/ripple.pc
	install -m 755 $(DEMO) $(DESTDIR)$(BINDIR)/ripple
	install -m 644 assets/background.png $(DESTDIR)$(DATADIR)/ripple/background.png
	install -m 644 assets/shows/default.show $(DESTDIR)$(DATADIR)/ripple/shows/default.show
	install -m 644 assets/side-sky.png $(DESTDIR)$(DATADIR)/ripple/side-sky.png
	install -m 644 assets/side-stone.png $(DESTDIR)$(DATADIR)/ripple/side-stone.png
	install -m 644 $(BUILD)/ripple.6 $(DESTDIR)$(MAN6DIR)/ripple.6
	$(Q)if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then $(LDCONFIG) || true; fi

# Exactly the files install puts there, and the directories that are
# ripple's own; the other directories may hold anything else.
uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libripple.a $(DESTDIR)$(LIBDIR)/libripple.so.$(VERSION) \
	    $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libripple.so \
	    $(DESTDIR)$(INCLUDEDIR)/ripple.h $(PUBLIC_SUBHDR:src/%=$(DESTDIR)$(INCLUDEDIR)/%) \
	    $(DESTDIR)$(LIBDIR)/pkgconfig/ripple.pc \
	    $(DESTDIR)$(BINDIR)/ripple $(DESTDIR)$(DATADIR)/ripple/background.png \
	    $(DESTDIR)$(MAN6DIR)/ripple.6 $(DESTDIR)$(DATADIR)/ripple/shows/default.show \
	    $(DESTDIR)$(DATADIR)/ripple/side-sky.png $(DESTDIR)$(DATADIR)/ripple/side-stone.png
	$(Q)rmdir $(DESTDIR)$(DATADIR)/ripple/shows 2>/dev/null || true
	$(Q)rmdir $(DESTDIR)$(INCLUDEDIR)/ripple 2>/dev/null || true
	$(Q)rmdir $(DESTDIR)$(DATADIR)/ripple 2>/dev/null || true
	$(Q)if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then $(LDCONFIG) || true; fi

# ---- other ---------------------------------------------------------------------

# Regenerates the default background picture from its generator.
backdrop: deps-run $(LIB)
	$(Q)mkdir -p $(BUILD)
	$(Q)$(CC) $(ALL_CFLAGS) $(SDL_CFLAGS) -O2 -o $(BUILD)/mkbackdrop src/tools/mkbackdrop.c src/tools/save.c $(LIB) $(SDL_LIBS) $(CORE_LIBS)
	$(BUILD)/mkbackdrop assets/background.png 640 480

# Regenerates the side view's art (sky and stone) from its generator.
side-art: deps-run $(LIB)
	$(Q)mkdir -p $(BUILD)
	$(Q)$(CC) $(ALL_CFLAGS) $(SDL_CFLAGS) -O2 -o $(BUILD)/mkside src/tools/mkside.c src/tools/save.c $(LIB) $(SDL_LIBS) $(CORE_LIBS)
	$(BUILD)/mkside assets/side-sky.png assets/side-stone.png 640 480

# The pictures of the README and docs/look.md, remade from this build and
# the default show (src/tools/screenshots.sh says how): the window is
# grabbed under Xvfb, everything else is headless and gives the same bytes
# on every run.
screenshots: deps-run $(DEMO) $(BENCH) $(BUILD)/shot
	RIPPLE=./$(DEMO) BENCH=$(BENCH) SHOT=$(BUILD)/shot sh src/tools/screenshots.sh docs/img

$(BUILD)/shot: src/tools/shot.c src/tools/save.c src/tools/save.h $(LIB)
	$(Q)mkdir -p $(BUILD)
	$(Q)$(CC) $(ALL_CFLAGS) $(SDL_CFLAGS) -O2 -o $@ src/tools/shot.c src/tools/save.c $(LIB) $(SDL_LIBS) $(CORE_LIBS)

clean:
	rm -rf $(BUILD) $(DEMO) $(BENCH)

-include $(patsubst %.o,%.d,$(LIB_OBJ) $(PIC_OBJ) $(APP_OBJ) $(PLAY_OBJ) $(SCENE_OBJ) $(BENCH_OBJ) $(TEST_OBJ) $(UTIL_OBJ))
