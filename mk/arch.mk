# mk/arch.mk - the target architectures (ARCH=i386, aarch64, armv7, win32, win64, wasm): their flags, directories, sysroots and SIMD kernels.

# ARCH=i386 builds the core, the bench, the tests and the SDL2 demo as
# 32-bit x86 for an i586 (Pentium) baseline into build/i386 (Debian's i386
# SDL2 itself wants a Pentium III; I386_SDL=source, below, builds one for a
# Pentium II: see docs/old-hardware.md).
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
else ifneq ($(filter win32 win64,$(ARCH)),)
# ARCH=win32 and ARCH=win64 cross-build the core, libripple.dll, the bench,
# the tests and the demo for Windows with Debian's mingw-w64, its win32-
# thread variant (no winpthreads, whose GetTickCount64 keeps a program off
# Windows XP), against libraries built from Debian's source packages into
# $(BUILD)/prefix (src/tools/winprefix.sh).  The 32-bit build is Pentium
# Pro code (CMOV, no SSE: a Pentium II runs it) for Windows XP's API; the
# SIMD kernels are chosen by CPUID at run time as on Linux.  The platform
# seams (threads, files, clocks) need no POSIX layer.
WIN_HOST_win32 = i686-w64-mingw32
WIN_HOST_win64 = x86_64-w64-mingw32
WIN_HOST = $(WIN_HOST_$(ARCH))
ifeq ($(origin CC),default)
CC = $(WIN_HOST)-gcc
endif
ifeq ($(origin AR),default)
AR = $(WIN_HOST)-ar
endif
EXE      = .exe
BUILD   ?= build/$(ARCH)
BENCH   ?= $(BUILD)/ripple-bench.exe
DEMO     = $(BUILD)/ripple.exe
# mingw's own C99 printf (%zu, %td, %lld on the msvcrt of XP); gcc checks
# formats against Microsoft's there, so the checks are the native builds'.
ARCH_FLAGS = $(if $(filter win32,$(ARCH)),-march=i686 -mtune=generic) -D_WIN32_WINNT=0x0501 \
             -D__USE_MINGW_ANSI_STDIO=1 -Wno-format -isystem $(abspath $(BUILD)/prefix/include)
PTHREAD  =
# libgcc linked in: no libgcc_s_dw2-1.dll to ship beside the programs.
ARCH_LDFLAGS = -static-libgcc
WIN_PREFIX = $(BUILD)/prefix
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

# ---- the SIMD kernels ----------------------------------------------------------

# The kernels of the target's architecture: x86 (and the others, whose
# kernels/x86/cpu.c says they have none of its instruction sets) or ARM.
ifneq ($(ARM_TRIPLE),)
ISA_DIR   = src/kernels/arm
else
ISA_DIR   = src/kernels/x86
endif

# SIMD kernels: x86 and ARM builds get them unless SIMD=0.  Each file gets
# its own instruction-set flags and nothing else does, so the binary runs
# on any CPU of the architecture and picks its path at run time.
# SIMD_KEEP: which of the architecture's kernel files the build takes.
SIMD_KEEP = %
ifneq ($(ARM_TRIPLE),)
SIMD ?= 1
SIMD_DEFS = -DRPL_HAVE_NEON
else ifeq ($(ARCH),wasm)
# WebAssembly SIMD runs the SSE2 kernels through emscripten's SSE2
# headers; MMX and AVX2 have no counterpart there.
SIMD ?= 1
SIMD_DEFS = -DRPL_HAVE_SSE2
SIMD_KEEP = %_sse2.c
else
MACHINE := $(shell $(CC) -dumpmachine 2>/dev/null)
ifneq ($(filter x86_64% amd64% i386% i486% i586% i686%,$(MACHINE)),)
SIMD ?= 1
else
SIMD ?= 0
endif
SIMD_DEFS = -DRPL_HAVE_MMX -DRPL_HAVE_SSE2 -DRPL_HAVE_AVX2
endif
ISA_mmx  = -mmmx
ISA_sse2 = $(if $(filter wasm,$(ARCH)),-msimd128 -msse2,-msse2)
ISA_avx2 = -mavx2

# ---- sysroots and the packages' flags there ------------------------------------

# The i386 demo's SDL2 comes from the machine or from a private sysroot
# (mk/deps.mk installs or fetches it).
I386_SYSROOT  ?= 0
I386_SYSROOT_DIR = $(BUILD)/sysroot

ifeq ($(ARCH),i386)
# The i386 SDL2: the machine's when installed (and not refused by
# I386_SYSROOT=1), else the sysroot's; decided when the flags are used, so
# after deps-i386-demo has done its work.
I386_SR = $(shell if [ "$(I386_SYSROOT)" = 1 ] || ! ls $(I386_SDL_FILES) >/dev/null 2>&1; then \
    echo $(abspath $(I386_SYSROOT_DIR)); fi)
I386_SR_LIB = $(I386_SR)/usr/lib/i386-linux-gnu $(I386_SR)/lib/i386-linux-gnu
I386_PC = PKG_CONFIG_LIBDIR=$(I386_SR)/usr/lib/i386-linux-gnu/pkgconfig:$(I386_SR)/usr/share/pkgconfig \
          $(if $(I386_SR),PKG_CONFIG_SYSROOT_DIR=$(I386_SR)) pkg-config
# How the tests run it: qemu-user, told where the sysroot is.
I386_QEMU  = qemu-i386$(if $(I386_SR), -L $(I386_SR))
# Where the demo's SDL2 comes from.  system: Debian's i386 SDL2 (the
# machine's or the sysroot's, as above), built with SSE, so the demo needs
# a Pentium III.  source: SDL2 and SDL2_image built from Debian's source
# without SSE or 3DNow! for an i686 into $(I386_PREFIX)
# (src/tools/winprefix.sh linux-i386), so the demo runs on a Pentium II;
# the program then loads them from $(I386_PREFIX)/lib (LD_LIBRARY_PATH, or
# the tarball's launcher).  Debian's would die of SIGILL on a CPU without
# SSE, so the default is source when the CPU that builds lacks SSE (the
# build runs on the old machine itself) and system otherwise; the i386
# tarball of make dist always takes source.
I386_CPUINFO ?= /proc/cpuinfo
I386_SDL    ?= $(if $(shell grep -qw sse $(I386_CPUINFO) 2>/dev/null && echo y),system,source)
I386_PREFIX ?= $(BUILD)/prefix
ifeq ($(filter system source,$(I386_SDL)),)
$(error I386_SDL=$(I386_SDL): say system or source)
endif
endif

ifneq ($(ARM_TRIPLE),)
# Every library from the sysroot, found by pkg-config there.
ARM_PC = PKG_CONFIG_LIBDIR=$(ARM_SR)/usr/lib/$(ARM_TRIPLE)/pkgconfig:$(ARM_SR)/usr/share/pkgconfig \
         PKG_CONFIG_SYSROOT_DIR=$(ARM_SR) pkg-config
endif

# The 32-bit build's directory: build/i386 beside the 64-bit build, or this
# one when it is already 32-bit.
I386 = $(if $(filter i386,$(ARCH)),$(BUILD),$(BUILD)/i386)
# The emulator of the ARM build in $(BUILD)/ARCH, told where its sysroot is.
arm-qemu = $(ARM_QEMU_$(1)) -L $(abspath $(BUILD)/$(1)/sysroot)
