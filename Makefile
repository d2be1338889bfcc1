# Makefile - builds the ripple demo, its platform-free core (libripple.a and
# libripple.so), the bench and the tests; installs them.
#
#   make            build ./ripple, bench/ripple-bench, the libraries and
#                   the man page (man ./build/ripple.6)
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
#                   man page under PREFIX (default /usr/local, an absolute
#                   path without white space), DESTDIR respected
#   make install-lib  the library alone (libripple.a, libripple.so, the
#                   headers and ripple.pc): needs only a C compiler and
#                   pthreads, none of the demo's packages
#   make uninstall  removes what `make install` put there (same PREFIX, DESTDIR);
#                   make uninstall-lib, what `make install-lib` did
#   make SIMD=0     the scalar kernels only
#   make ARCH=i386  the core, bench, tests and demo as 32-bit x86 (i586) in
#                   build/i386; I386_SYSROOT=1 takes the demo's SDL2 from a
#                   private sysroot even when the i386 packages install;
#                   I386_SDL=source links the demo against SDL2 built from
#                   Debian's source without SSE into build/i386/prefix, so
#                   it runs on a Pentium II (the default on a CPU without SSE)
#   make test-i386  those tests under qemu on Pentium II (no MMX), II and III,
#                   the 32-bit demo on Pentium III against the 64-bit one
#   make test-i586  the 32-bit demo on its own SDL2 under qemu on Pentium II
#                   with and without MMX against the 64-bit one
#   make ARCH=aarch64, make ARCH=armv7  the core, bench, tests and demo for
#                   64-bit ARM or ARMv7 (NEON chosen at run time), cross-built
#                   by clang against a private sysroot in build/aarch64 or
#                   build/armv7
#   make test-arm   those tests under qemu on a Cortex-A53 and a Cortex-A7
#                   with and without NEON
#   make bench-instr-arm  instructions per pixel per frame of the ARM builds
#   make ARCH=win32, make ARCH=win64  ripple.exe (a console program, with
#                   SDL2.dll and SDL2_image.dll beside it), ripple-bench.exe,
#                   libripple.dll (with its import library), libripple.a
#                   and the unit suites for Windows (win32: XP's API,
#                   Pentium Pro code), cross-built by mingw-w64 (win32
#                   threads) against libraries that src/tools/winprefix.sh
#                   builds from Debian's sources into build/ARCH/prefix once
#                   per version
#   make web        the demo as a web page in build/web (WebAssembly, a SIMD
#                   and a scalar module, built by emscripten: ARCH=wasm)
#   make serve-web  build it and serve it on 127.0.0.1 (WEB_PORT, default 8000)
#   make test-web   the page's tests in a headless Chromium
#   make bench-web  the page's timedemo against the native one, and its cost
#                   a frame while it plays
#   make bench-web-peer  the component beside jquery.ripples 0.6.3 (fetched
#                   with npm into build/web-peer): CPU a frame and fps, the
#                   table into docs/web.md (PEER_ARGS="--seconds 10": quicker)
#   make test-i386-sysroot  the 32-bit demo built and tested the sysroot way
#   make test-unit, test-smoke, test-san, ...  one stage alone
#   make warnings   every C file under gcc and clang with -Werror
#   make layout     the include rules of the rooms, and no loop of files in
#                   any folder (by includes and by the objects' symbols)
#   make backdrop   regenerate assets/background.png
#   make side-art   regenerate assets/side-sky.png and assets/side-stone.png
#   make screenshots  remake the pictures in docs/img (the README's window
#                   under Xvfb, the show's busiest moments; not part of test)
#   make dist       dist/ripple-VERSION-win32.zip (the demo, bench and DLLs
#                   for Windows XP and later, assets, a README.txt) and
#                   dist/ripple-VERSION-i386-linux.tar.gz (the 32-bit demo
#                   with its own SDL2, for a Pentium II; docs/windows.md)
#   make test-win   the win32 build under Wine (the win stage: suites,
#                   imports against Windows XP's, the demo against the
#                   native one); make test-win64 the same for win64
#   make win-imports  the shipped PEs' imports into docs/windows.md
#   make clean      remove everything built
#
# CC, CFLAGS, CPPFLAGS and LDFLAGS from the command line are respected;
# V=1 shows the commands.
#
# This file says what there is; how each part is made is in mk/:
#   mk/arch.mk     the architectures (i386, ARM, wasm): flags, sysroots, SIMD
#   mk/deps.mk     what the build needs, the installers, the packages' flags
#   mk/build.mk    compiling and linking, the version, the configuration stamps
#   mk/tests.mk    check, test and their stages, warnings, layout
#   mk/web.mk      the web page (WebAssembly)
#   mk/install.mk  install, install-lib, uninstall and their test
#   mk/tools.mk    running, the bench, the generators of the assets and pictures
#   mk/dist.mk     make dist: the Windows zip and the 32-bit Linux tarball
# and the fuzzers in tests/fuzz.mk.

# `make` alone builds `all`, wherever its rule stands.
.DEFAULT_GOAL := all

# This file, for the sub-makes: `make -f other.mk test` must not have them
# read ./Makefile.  Taken before any include, which would be the last word
# of MAKEFILE_LIST after it.
SELF := $(lastword $(MAKEFILE_LIST))

# ---- what a user sets ----------------------------------------------------------

CC      ?= cc
CFLAGS  ?= -O2 -g
# ARCH (i386, aarch64, armv7, wasm: mk/arch.mk), SIMD (0: the scalar
# kernels only), BUILD (where objects go), DEMO and BENCH (the programs).
include mk/arch.mk
BUILD   ?= build
PTHREAD ?= -pthread
BENCH   ?= bench/ripple-bench
# How many jobs make check and make test run side by side (mk/tests.mk).
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)

PREFIX     ?= /usr/local
BINDIR      = $(PREFIX)/bin
LIBDIR      = $(PREFIX)/lib
INCLUDEDIR  = $(PREFIX)/include
DATADIR     = $(PREFIX)/share
MAN6DIR     = $(DATADIR)/man/man6
# Run after installing a shared library so the loader finds it at once
# (only as root and without DESTDIR; LDCONFIG=: skips it).
LDCONFIG   ?= ldconfig

# A path with white space or a character the shell or make reads (quotes,
# $, #, ;, |, %, globs...) would be split or reinterpreted somewhere in the
# recipes of mk/install.mk, the sed of ripple.pc or the demo's compiled-in
# data path: an install would stop half way and leave folders in the
# source tree, an uninstall remove the wrong files.  So such a PREFIX or
# DESTDIR is refused before anything is built or written (here, before the
# build stamps are), as is a PREFIX that is not absolute (the demo looks
# for its data there from any working directory).
empty :=
path-bad-chars := ' " ` \ $$ \# ; & | < > ( ) * ? [ ] { } % ! ~ ^ =
# $(call path-bad,VALUE): non-empty when VALUE has white space or one of those.
path-bad = $(or $(findstring $(empty) $(empty),$(1)),$(findstring $(empty)	$(empty),$(1)),$(strip \
    $(foreach c,$(path-bad-chars),$(findstring $(c),$(1)))))
ifneq ($(filter install install-lib uninstall uninstall-lib,$(MAKECMDGOALS)),)
ifneq ($(call path-bad,$(PREFIX)),)
$(error PREFIX '$(PREFIX)' has white space or a character that the shell or make reads; choose a plain path)
endif
ifneq ($(call path-bad,$(DESTDIR)),)
$(error DESTDIR '$(DESTDIR)' has white space or a character that the shell or make reads; choose a plain path)
endif
ifneq ($(patsubst /%,/,$(PREFIX)),/)
$(error PREFIX '$(PREFIX)' is not an absolute path)
endif
endif

# ---- the rooms -----------------------------------------------------------------

# By wildcard, so that a new file in a room is built without a change here.
# The library: the core's rooms and the kernels (ISA_DIR: the target's).
CORE_SRC  = $(sort $(wildcard src/core/*/*.c src/kernels/*.c) $(ISA_DIR)/cpu.c)
SIMD_SRC  = $(sort $(filter $(SIMD_KEEP),$(filter-out $(ISA_DIR)/cpu.c,$(wildcard $(ISA_DIR)/*.c))))
ifeq ($(SIMD),1)
LIB_SRC = $(CORE_SRC) $(SIMD_SRC)
else
LIB_SRC = $(CORE_SRC)
endif
# The side scene: the water of the core joined to Chipmunk2D's rigid
# bodies, without SDL; the demo, the bench and the tests link it.
SCENE_SRC = $(sort $(wildcard src/scene/*.c))
# The pool's play above libripple, without SDL: the demo, the bench, the
# tests and the web page link it.
PLAY_SRC  = $(sort $(wildcard src/play/*.c))
# The demo's window (SDL2), and the web page's C (built natively for its
# test, for WebAssembly by mk/web.mk).
APP_SRC   = $(sort $(wildcard src/app/*.c))
WEB_SRC   = $(sort $(wildcard src/web/*.c))
# The generators of the assets and pictures (src/tools: mk/tools.mk).
TOOLS_SRC = $(sort $(wildcard src/tools/*.c))
# qemu_icount.c is a qemu plugin, built by bench-instr-i386.
BENCH_SRC = $(sort $(filter-out bench/qemu_icount.c,$(wildcard bench/*.c)))
# Each tests/test_*.c is a program of its own; tests/util.c, when there,
# is linked into every one of them, with its seams (tests/pages.h: memory
# pages; tests/host.h: folders, the environment, runs apart).
TEST_SRC  = $(sort $(wildcard tests/test_*.c))
UTIL_SRC  = $(wildcard tests/util.c tests/pages.c tests/host.c)
# Every C file, for `make warnings`: the ARM kernels apart, compiled for
# ARM only.
ARM_SRC   = $(sort $(wildcard src/kernels/arm/*.c))
ALL_SRC   = $(sort $(filter-out $(ARM_SRC),$(wildcard src/*.c src/*/*.c src/*/*/*.c bench/*.c tests/*.c)))

# A platform seam's file of one system alone: *_win.c in the Windows
# builds, in place of the POSIX file of the same name without _win
# (`make warnings` compiles them with mingw-w64 when it is installed).
WIN_SRC  := $(sort $(wildcard src/*/*_win.c src/*/*/*_win.c tests/*_win.c))
ALL_SRC  := $(filter-out $(WIN_SRC),$(ALL_SRC))
ifneq ($(WIN_HOST),)
LIB_SRC  := $(filter-out $(WIN_SRC:_win.c=.c),$(LIB_SRC))
APP_SRC  := $(filter-out $(WIN_SRC:_win.c=.c),$(APP_SRC))
SCENE_SRC := $(filter-out $(WIN_SRC:_win.c=.c),$(SCENE_SRC))
UTIL_SRC := $(filter-out $(WIN_SRC:_win.c=.c),$(UTIL_SRC)) $(filter $(UTIL_SRC:.c=_win.c),$(WIN_SRC))
else
LIB_SRC  := $(filter-out $(WIN_SRC),$(LIB_SRC))
APP_SRC  := $(filter-out $(WIN_SRC),$(APP_SRC))
SCENE_SRC := $(filter-out $(WIN_SRC),$(SCENE_SRC))
endif

LIB_OBJ   = $(LIB_SRC:%.c=$(BUILD)/%.o)
PIC_OBJ   = $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
APP_OBJ   = $(APP_SRC:%.c=$(BUILD)/%.o)
SCENE_OBJ = $(SCENE_SRC:%.c=$(BUILD)/%.o)
PLAY_OBJ  = $(PLAY_SRC:%.c=$(BUILD)/%.o)
WEB_OBJ   = $(WEB_SRC:%.c=$(BUILD)/%.o)
TOOLS_OBJ = $(TOOLS_SRC:%.c=$(BUILD)/%.o)
BENCH_OBJ = $(BENCH_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ  = $(TEST_SRC:%.c=$(BUILD)/%.o)
UTIL_OBJ  = $(UTIL_SRC:%.c=$(BUILD)/%.o)
TESTBINS  = $(TEST_SRC:%.c=$(BUILD)/%$(EXE))
# test_files' helpers and its cases of the system's own kinds of target,
# linked into it.
FILES_SPECIAL_OBJ = $(BUILD)/tests/files.o $(BUILD)/tests/files_special$(if $(WIN_HOST),_win).o

LIB     = $(BUILD)/libripple.a
ifneq ($(WIN_HOST),)
# Windows: libripple.dll and its import library libripple.dll.a.
SONAME  = libripple.dll
SHLIB   = $(BUILD)/libripple.dll
SHLINKS = $(BUILD)/libripple.dll.a
else
SONAME  = libripple.so.$(SOMAJOR)
SHLIB   = $(BUILD)/libripple.so.$(VERSION)
SHLINKS = $(BUILD)/$(SONAME) $(BUILD)/libripple.so
endif
SYMMAP  = $(BUILD)/libripple.map
# The public headers: ripple.h includes these, in this order, and both are
# installed (include/ripple.h, include/ripple/*.h).
PUBLIC_SUBHDR = src/ripple/base.h src/ripple/field.h src/ripple/render.h src/ripple/show.h \
                src/ripple/sound.h src/ripple/side.h
PUBLIC_HDR = src/ripple.h $(PUBLIC_SUBHDR)
# The man page, built by `make` (man ./build/ripple.6) and installed.
MANPAGE = $(BUILD)/ripple.6

include mk/build.mk
include mk/deps.mk

# ---- the targets ---------------------------------------------------------------

.SECONDARY:
.DELETE_ON_ERROR:
.SUFFIXES:
.PHONY: all clean

ifeq ($(ARCH),i386)
all: deps-i386 $(LIB) $(SHLIB) $(SHLINKS) $(BENCH) $(TESTBINS) $(DEMO) $(MANPAGE)
else ifneq ($(WIN_HOST),)
all: deps-win $(LIB) $(SHLIB) $(SHLINKS) $(BENCH) $(TESTBINS) $(DEMO) $(WIN_DLLS)
else ifneq ($(ARM_TRIPLE),)
all: deps-arm $(LIB) $(SHLIB) $(SHLINKS) $(BENCH) $(TESTBINS) $(DEMO) $(MANPAGE)
else
all: deps-run $(LIB) $(SHLIB) $(SHLINKS) $(DEMO) $(BENCH) $(MANPAGE)
endif

include mk/tests.mk
include mk/chipmunk.mk
include mk/web.mk
include mk/install.mk
include mk/tools.mk
include mk/dist.mk

# tests/fuzz_*.c are libFuzzer targets (clang -fsanitize=fuzzer), not unit
# tests: TEST_SRC leaves them out, so they are neither linked with cmocka nor
# run by test-unit; `make warnings` compiles them like every C file.  Their
# build and run rules (fuzz, fuzz-smoke) are in tests/fuzz.mk.
include tests/fuzz.mk

clean:
	rm -rf $(BUILD) $(DEMO) $(BENCH) $(DIST)

-include $(patsubst %.o,%.d,$(LIB_OBJ) $(PIC_OBJ) $(APP_OBJ) $(SCENE_OBJ) $(PLAY_OBJ) $(WEB_OBJ) \
    $(TOOLS_OBJ) $(BENCH_OBJ) $(TEST_OBJ) $(UTIL_OBJ) $(FILES_SPECIAL_OBJ))
