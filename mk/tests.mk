# mk/tests.mk - make check and make test: their stages, the unit suites, smoke, layout, warnings, and the builds tested apart (i386, ARM, scalar, sanitizers, clang).

# Two commands.  `make check` is the loop of day-to-day work: the native
# build, every unit suite, the exactness suite on every path this CPU has
# and the quick smoke checks.  `make test` (what CI runs) is all of that
# and the rest: warnings, the include rules, the full smoke suite, install,
# the fuzzers, the scalar-only build, the 32-bit build under qemu, clang's
# sanitizers and a clang build that must write gcc's bytes.  Both run their
# stages side by side on every core (JOBS, default: all of them), each
# stage's output into $(BUILD)/stages/NAME.log, and end with a table of
# each stage's wall time against its budget in seconds.
STAGES = $(BUILD)/stages
# NAME:BUDGET, in the order of the table; the budgets hold on a 2-core
# machine with both cores busy, so that `make test` stays within 20
# minutes.  The 32-bit demo, given 90, went into the i386 stage for 30
# (about 20 s measured: its app files built, its runs beside the three
# CPUs'); the web stage builds the page's two modules and runs both in a
# headless Chromium.  The ports' stages, also run alone by `make
# test-ports`: i586, the 32-bit demo on SDL2 built from Debian's source
# without SSE, under qemu on a Pentium II (about 180 s of CPU from a clean
# build folder, 70 of them SDL2's build, kept in build/ after); win, the
# win32 build (its libraries built from Debian's sources the first time,
# about 4 minutes of CPU) under Wine, the machine's or one fetched into
# build/ (WINE32); dist, the two downloads of make dist.
CHECK_STAGES = build:60 unit:60 smoke-quick:30
TEST_STAGES  = build:60 unit:90 rules:30 smoke:120 warnings:150 install:150 fuzz:150 \
               nosimd:120 i386:360 arm:180 web:120 san:300 san-gcc:300 clang:150 \
               $(PORT_STAGES)
PORT_STAGES  = i586:240 win:360 dist:90
# A stage: `sh tests/stage.sh DIR NAME make TARGET...`.
stage = +$(Q)sh tests/stage.sh $(STAGES) $(1) $(MAKE) $(SUB) $(2)

STAGE_NAMES = $(sort $(foreach s,$(CHECK_STAGES) $(TEST_STAGES) $(PORT_STAGES),$(firstword $(subst :, ,$(s)))))
.PHONY: check test check-stages test-stages $(STAGE_NAMES:%=stage-%) test-unit unit-runs unit-exact \
        unit-once test-rules test-arm-order test-smoke test-smoke-quick layout warnings test-i386 i386-demo \
        i386-demo-run test-i386-sysroot test-i586 i586-demo-run i586-default i386-sdl-print test-arm test-nosimd test-san san-runs san-suites san-smoke \
        test-clang test-win test-win64 win-build win-strict test-ports port-stages \
        wine32-private deps-win64-test

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

# The ports' stages, each with its time against its budget in a table.
test-ports: deps-test
	$(Q)sh tests/stage.sh --begin $(STAGES)
	$(Q)$(MAKE) $(SUB) -j$(JOBS) -k port-stages; rc=$$?; \
	sh tests/stage.sh --table $(STAGES) build:60 $(PORT_STAGES) || rc=1; exit $$rc

# The order they start in.  make walks this list, starts each stage it
# can, and waits at the first one that can start when no job is free;
# the stages waiting for the build are passed over while it runs and
# taken up on the next walk.  So the build and the sanitizers (which
# build apart) start together and every other stage waits for the build,
# even those that build apart too: then, as each job ends, make starts
# the longest stage left, and the short ones fill in last.
check-stages: stage-build stage-unit stage-smoke-quick
test-stages: stage-build stage-san stage-i386 stage-win stage-arm stage-san-gcc stage-i586 stage-smoke \
             stage-unit stage-web stage-warnings stage-nosimd stage-install stage-fuzz stage-clang \
             stage-rules stage-dist
port-stages: stage-i586 stage-win stage-dist
stage-unit stage-smoke stage-smoke-quick stage-rules stage-clang stage-i386 stage-i586 stage-win stage-arm stage-web: stage-build
stage-san-gcc stage-warnings stage-nosimd stage-install stage-fuzz: | stage-build

stage-build:
	$(call stage,build,all $(TESTBINS))
stage-unit:
	$(call stage,unit,test-unit)
stage-smoke-quick:
	$(call stage,smoke-quick,test-smoke-quick)
stage-smoke:
	$(call stage,smoke,test-smoke)
stage-rules:
	$(call stage,rules,layout test-rules test-arm-order)
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
stage-i586:
	$(call stage,i586,test-i586)
stage-win:
	$(call stage,win,test-win)
# make dist's archives: after the win stage (the zip takes its build) and
# the 32-bit ones (the tarball's demo shares their sysroot and prefix).
stage-dist: stage-win stage-i386 stage-i586
	$(call stage,dist,test-dist)
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
# Of those, the suites of the kernels themselves (their tables, the step,
# the wave model's step, the refraction in every format): what a second
# path of one emulated binary runs (tests/emulated.sh).
KERNEL_SUITES = kernels render step wave
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
# no loop of files in any folder, by their includes and by the symbols of
# the objects, which it builds first (every room built natively).
layout: $(LIB_OBJ) $(APP_OBJ) $(SCENE_OBJ) $(PLAY_OBJ) $(WEB_OBJ) $(TOOLS_OBJ) $(BENCH_OBJ) \
        $(TEST_OBJ) $(UTIL_OBJ)
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
# on its SIMD, the CPU check's wasm branch, the table, the page's C, the
# pool's play it links and its exactness check) under emcc, when installed.
WASM_WARN_SRC = $(sort $(wildcard src/kernels/x86/*_sse2.c) src/kernels/x86/cpu.c \
                  src/kernels/dispatch.c $(WEB_SRC) $(PLAY_SRC) tests/web_exact.c)
WARN_WASM = $(if $(shell command -v emcc 2>/dev/null),$(WASM_WARN_SRC:%.c=$(BUILD)/warn/emcc/%.ok))
# The Windows seams (*_win.c) under 32-bit mingw-w64 for Windows XP's API,
# when installed; the scene's needs Chipmunk2D's headers, from the prefix
# of a make ARCH=win32 when there is one.
WIN_WARN_CC = i686-w64-mingw32-gcc
WIN_WARN_PF = $(BUILD)/win32/prefix/include
WIN_WARN_SRC = $(if $(wildcard $(WIN_WARN_PF)/chipmunk/chipmunk.h),$(WIN_SRC),$(filter-out src/scene/% tests/files_special_win.c,$(WIN_SRC)))
WARN_WIN = $(if $(shell command -v $(WIN_WARN_CC) 2>/dev/null),$(WIN_WARN_SRC:%.c=$(BUILD)/warn/mingw/%.ok))
warnings: $(WARN_OK) $(WARN_ARM) $(WARN_WASM) $(WARN_WIN)
	$(Q)for c in gcc clang; do \
	  case " $(WARN_CCS) " in *" $$c "*) echo "warnings: $$c clean on $(words $(ALL_SRC)) files";; \
	  *) echo "warnings: $$c not installed, skipped";; esac; \
	done
	$(Q)echo "warnings: clang for aarch64 and armv7 clean on $(words $(ARM_SRC)) files"
	$(Q)echo "warnings: $(if $(WARN_WASM),emcc for WebAssembly clean on $(words $(WASM_WARN_SRC)) files,emcc not installed$(comma) skipped)"
	$(Q)echo "warnings: $(if $(WARN_WIN),mingw-w64 for Windows clean on $(words $(WIN_WARN_SRC)) files,$(WIN_WARN_CC) not installed$(comma) skipped)"
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
$(BUILD)/warn/mingw/%.ok: %.c
	@mkdir -p $(@D)
	$(Q)$(WIN_WARN_CC) $(STD_CFLAGS) -D_WIN32_WINNT=0x0501 -isystem $(WIN_WARN_PF) -O2 -Werror \
	    -MMD -MP -MF $(@:.ok=.d) -MT $@ -c $< -o /dev/null && touch $@
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
# The 32-bit demo on the SDL2 built from source without SSE (I386_SDL=source,
# into build/i386/prefix, kept per version: the first run builds it, in
# this stage's time) on an emulated Pentium II with and without MMX against
# the 64-bit demo (tests/demo586.sh); in a build directory of its own, as
# the i386 stage's demo takes Debian's SDL2.
I586 = $(BUILD)/i586
I586_VARS = ARCH=i386 I386_SDL=source BUILD=$(I586) BENCH=$(I586)/ripple-bench \
            I386_PREFIX=$(I386)/prefix I386_SYSROOT_DIR=$(I386)/sysroot
test-i586: $(DEMO) i586-default
	$(Q)$(MAKE) $(SUB) $(I586_VARS) $(I586)/ripple
	$(Q)$(MAKE) $(SUB) $(I586_VARS) DEMO64=$(call cmd,$(DEMO)) i586-demo-run
# The default: Debian's SDL2 where the CPU has SSE, the source one where it
# has not (a Pentium II's flags).
i586-default:
	$(Q)mkdir -p $(I586) && printf 'flags\t\t: fpu vme de pse tsc msr pae mce cx8 sep mtrr pge mca cmov pat pse36 mmx fxsr\n' \
	    >$(I586)/cpuinfo-pentium2; \
	for cpu in $(I586)/cpuinfo-pentium2:source /proc/cpuinfo:$(if $(shell grep -qw sse /proc/cpuinfo && echo y),system,source); do \
	    got=$$($(MAKE) $(SUB) -s ARCH=i386 BUILD=$(I586) I386_CPUINFO=$${cpu%:*} i386-sdl-print); \
	    if [ "$$got" = "$${cpu#*:}" ]; then echo "I386_SDL on $${cpu%:*}: $$got"; \
	    else echo "FAIL: I386_SDL on $${cpu%:*} is '$$got', not $${cpu#*:}"; exit 1; fi; \
	done
i386-sdl-print:
	@echo $(I386_SDL)
i586-demo-run:
	$(Q)QEMU="$(I386_QEMU)" sh tests/demo586.sh $(DEMO64) $(DEMO) $(I386_PREFIX)/lib $(BUILD)/logs/demo586
i386-on-%:
	$(Q)PATH_SUITES="$(PATH_SUITES)" ONCE_SUITES="$(ONCE_SUITES)" KERNEL_SUITES="$(KERNEL_SUITES)" \
	    NATIVE_BENCH=$(call cmd,$(BENCH)) \
	    sh tests/emulated.sh $(I386) $*

# The Windows builds under Wine in Xvfb (tests/win.sh): `make test-win`
# (the win stage) for win32, `make test-win64` for win64, each in the
# directory `make ARCH=...` uses, its prefix of libraries built once and
# kept there.  Every shipped PE's imports are checked against Windows XP's
# (tests/pe-imports.sh), every unit suite built runs, and the demo's and
# the bench's results must be the native ones, to the byte; the native
# demo, bench and exactness suite give them in the same run.
# The win32 build runs on the machine's Wine when wine32:i386 is
# installed, else (WINE32=private) on Wine's 32-bit half unpacked into
# $(WINE32_ROOT) by src/tools/sysroot.sh, once, with the i386 X11
# libraries it loads: no package to install but the i386 C library, which
# the i386 stage's packages bring.
WINE32 ?= $(if $(wildcard /usr/lib/wine/wine),system,private)
WINE32_ROOT = $(BUILD)/win32/wine-i386
ifeq ($(filter system private,$(WINE32)),)
$(error WINE32=$(WINE32): say system or private)
endif
test-win: win-stage-win32
test-win64: deps-win64-test win-stage-win64
win-stage-win32: $(if $(filter private,$(WINE32)),wine32-private)
win-stage-win32: WINE_ENV = $(if $(filter private,$(WINE32)),WINE32_ROOT=$(abspath $(WINE32_ROOT)))
win-stage-%: $(DEMO) $(BENCH) $(PATHS_TEST)
	$(Q)$(MAKE) $(SUB) ARCH=$* BUILD=$(BUILD)/$* BENCH=$(BUILD)/$*/ripple-bench.exe win-build
	$(Q)$(WINE_ENV) NATIVE_PATHS="$$($(PATHS_TEST) --list | tr '\n' ' ')" \
	    sh tests/win.sh $* $(BUILD)/$* $(call cmd,$(DEMO)) $(call cmd,$(BENCH))
wine32-private:
	$(Q)sh src/tools/sysroot.sh i386 $(WINE32_ROOT) wine
deps-win64-test:
	$(call require,cmd:wine:wine file:/usr/lib/wine/wine64:wine64)
# What the Windows port does not build yet (suites by name, and the
# programs): tried, and tested when built, but a failure to build them
# fails nothing.  Empty once they all build: then all of `make ARCH=...`
# must.
WIN_PENDING =
# (in the ARCH=win32 or win64 make)
WIN_LATER = $(filter $(WIN_PENDING:%=$(BUILD)/tests/%$(EXE)) $(WIN_PENDING:%=$(BUILD)/%$(EXE)), \
              $(TESTBINS) $(DEMO) $(BENCH))
win-build: deps-win
	$(Q)$(MAKE) $(SUB) win-strict
	$(Q)$(if $(WIN_LATER),$(MAKE) $(SUB) -k $(WIN_LATER) >$(BUILD)/pending.log 2>&1 || \
	    echo "not built for Windows yet (WIN_PENDING; see $(BUILD)/pending.log):" \
	        $$(for f in $(WIN_LATER); do [ -e $$f ] || printf '%s ' $${f##*/}; done))
win-strict: $(filter-out $(WIN_LATER),$(LIB) $(SHLIB) $(SHLINKS) $(BENCH) $(TESTBINS) $(DEMO))
	@:

# The ARM builds (core, bench, tests) under qemu-user: AArch64 on a
# Cortex-A53, ARMv7 on a Cortex-A7 with NEON and on one without, side by
# side; dispatch must pick neon, neon and c, every path must give the same
# bytes, and the bench x86-64's (tests/emulated.sh; the A7 without NEON,
# the ARMv7 binary's second path, runs KERNEL_SUITES alone).  Each in the
# directory `make ARCH=...` uses, with its sysroot.  About 150 s of CPU
# from a clean build, 32 of them the builds.
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
	$(Q)QEMU="$(call arm-qemu,$(ARM_ARCH_$*))" KERNEL_SUITES="$(KERNEL_SUITES)" \
	    PATH_SUITES="$(PATH_SUITES)" ONCE_SUITES="$(ONCE_SUITES)" NATIVE_BENCH=$(call cmd,$(BENCH)) \
	    sh tests/emulated.sh $(BUILD)/$(ARM_ARCH_$*) $*

# `make -j ARCH=aarch64` on a tree without the sysroot: no object may be
# compiled before deps-arm has fetched it.  make's database after a dry
# run of the build and of every room's objects (layout) must give each
# object it considered deps-arm as an order-only prerequisite; nothing is
# fetched or compiled.
ARM_ORDER = $(abspath $(BUILD)/arm-order)
test-arm-order:
	$(Q)fail() { echo "test-arm-order: FAIL: $$*"; exit 1; }; \
	for a in $(ARM_ARCHS); do \
	    $(MAKE) $(SUB) -np ARCH=$$a BUILD=$(ARM_ORDER)/$$a all layout >$(ARM_ORDER).$$a.db 2>&1 || \
	        fail "make -np ARCH=$$a all layout failed (see $(ARM_ORDER).$$a.db)"; \
	    objs=$$(grep -E '^$(ARM_ORDER)/'$$a'/[^%: ]*\.o: [^=]*\.c( |$$)' $(ARM_ORDER).$$a.db); \
	    n=$$(printf '%s\n' "$$objs" | grep -c .); \
	    test $$n -ge $(words $(ALL_SRC)) || fail "ARCH=$$a: only $$n objects in make's database"; \
	    x=$$(printf '%s\n' "$$objs" | grep -Ev '\| (.* )?deps-arm( |$$)' | sed 's/:.*//;s|^$(ARM_ORDER)/'$$a'/||' | tr '\n' ' '); \
	    test -z "$$x" || fail "ARCH=$$a: compiled without waiting for deps-arm: $$x"; \
	    test ! -e $(ARM_ORDER)/$$a || fail "ARCH=$$a: the dry run wrote $(ARM_ORDER)/$$a"; \
	    echo "test-arm-order: ARCH=$$a: $$n objects wait for deps-arm"; \
	done

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
# models, a side-view screenshot and a WAV (tests/same-bytes.sh).  Then
# ffmpeg measures one loop's sound: its loudness and peak (tests/levels.sh).
CLANG = $(BUILD)/clang
test-clang: $(DEMO)
	$(Q)$(MAKE) $(SUB) CC=clang BUILD=$(CLANG) DEMO=$(CLANG)/ripple BENCH=$(CLANG)/ripple-bench $(CLANG)/ripple
	$(Q)sh tests/same-bytes.sh $(call cmd,$(DEMO)) $(CLANG)/ripple
	$(Q)sh tests/levels.sh $(call cmd,$(DEMO))

