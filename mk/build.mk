# mk/build.mk - compiling and linking: the flags, the version, the configuration stamps, the libraries and programs.

# -ffp-contract=off: a*b+c is never fused into one rounding, so the
# floating-point code gives the same bytes with every compiler and on
# every CPU (clang fuses by default where the CPU has FMA, as on ARM).
STD_CFLAGS = -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
             -ffp-contract=off -D_POSIX_C_SOURCE=200809L -D_FILE_OFFSET_BITS=64 -Isrc
ifeq ($(SIMD),1)
STD_CFLAGS += $(SIMD_DEFS)
endif
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

# A program's path as a command (./ripple, not ripple).
cmd = $(if $(filter /%,$(1)),$(1),./$(1))

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

# The 32-bit demo is compiled and linked against Debian's SDL2 or the one
# built from source (I386_SDL): a switch rebuilds the demo alone.
ifeq ($(ARCH),i386)
SDL_STAMP = $(BUILD)/sdl.stamp
SDL_FROM  = $(I386_SDL) $(if $(filter source,$(I386_SDL)),$(abspath $(I386_PREFIX)))
$(eval $(call record,SDL_STAMP,SDL_FROM))
$(APP_OBJ) $(DEMO): $(SDL_STAMP)
endif

# Only when a stamp was removed behind make's back (then all rebuilds).
$(STAMP) $(PREFIX_STAMP) $(SDL_STAMP): ;

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

# Under ARM every object, of any room, wants the sysroot (its C library's
# headers), fetched before any is compiled: so the pattern rules ask for it
# rather than a list of rooms that a new room could miss.
OBJ_NEEDS = $(if $(ARM_TRIPLE),deps-arm)
$(BUILD)/%.o: %.c $(STAMP) | $(OBJ_NEEDS)
	$(compile)

$(BUILD)/pic/%.o: %.c $(STAMP) | $(OBJ_NEEDS)
	$(compile)

$(BUILD)/%_mmx.o:  ISA = $(ISA_mmx)
$(BUILD)/%_sse2.o: ISA = $(ISA_sse2)
$(BUILD)/%_avx2.o: ISA = $(ISA_avx2)
$(BUILD)/%_neon.o: ISA = $(ISA_neon)
# (Windows code is position independent as it is: gcc would warn.)
$(BUILD)/pic/%.o:  PIC = $(if $(WIN_HOST),,-fPIC)
$(BUILD)/src/app/%.o: EXTRA = $(SDL_CFLAGS) $(CJSON_CFLAGS) -DRIPPLE_DATADIR='"$(DATADIR)/ripple"'
$(BUILD)/src/tools/%.o: EXTRA = $(SDL_CFLAGS)
$(BUILD)/bench/%.o: EXTRA = $(CJSON_CFLAGS)
# ripple-bench --look finds the default show where the demo's data is installed.
$(BUILD)/bench/look.o: EXTRA = $(CJSON_CFLAGS) -DRIPPLE_DATADIR='"$(DATADIR)/ripple"'
$(BUILD)/bench/look.o: $(PREFIX_STAMP)
$(BUILD)/tests/%.o: EXTRA = $(CMOCKA_CFLAGS)
# The analytic waves' sums run under rpl_double_precision, where the x87
# rounds every operation as SSE2 does: C11's rule of storing a value to
# round it (excess precision) only costs them there, a third of the sum.
$(BUILD)/src/core/side/water_rings.o $(BUILD)/pic/src/core/side/water_rings.o: \
    EXTRA = $(if $(filter i386 win32,$(ARCH)),-fexcess-precision=fast)

# The library's objects ask for no package (install-lib needs only a C
# compiler); the rest wait for theirs.
ifneq ($(ARM_TRIPLE),)
# Every object wants the sysroot (OBJ_NEEDS, above; a set added later
# remakes the folder).
$(APP_OBJ): $(PREFIX_STAMP)
else ifneq ($(WIN_HOST),)
# The prefix's headers, for all but the library.
$(APP_OBJ): $(PREFIX_STAMP)
$(APP_OBJ) $(BENCH_OBJ) $(SCENE_OBJ) $(TOOLS_OBJ) $(TEST_OBJ) $(UTIL_OBJ) $(FILES_SPECIAL_OBJ): | deps-win
else
$(APP_OBJ): $(PREFIX_STAMP) | $(if $(filter i386,$(ARCH)),deps-i386 deps-i386-demo,deps-run)
$(BENCH_OBJ) $(SCENE_OBJ) $(TOOLS_OBJ): | $(if $(filter i386,$(ARCH)),deps-i386,deps-run)
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
$(SYMMAP): $(SYMLIST)
	@$(if $(Q),echo "  GEN     $@")
	$(Q){ echo '{'; echo '  global:'; sed 's/.*/    &;/' $(SYMLIST); \
	  echo '  local: *;'; echo '};'; } >$@.tmp && mv $@.tmp $@

ifneq ($(WIN_HOST),)
# The DLL exports the same list, by a module-definition file (with one,
# the linker exports nothing else), and its import library comes along.
$(BUILD)/libripple.def: $(SYMLIST)
	@$(if $(Q),echo "  GEN     $@")
	$(Q){ echo 'LIBRARY libripple.dll'; echo 'EXPORTS'; sed 's/.*/    &/' $(SYMLIST); } >$@.tmp && mv $@.tmp $@

$(SHLIB): $(PIC_OBJ) $(BUILD)/libripple.def
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -shared -o $@ $(PIC_OBJ) $(BUILD)/libripple.def \
	    -Wl,--out-implib,$(BUILD)/libripple.dll.a $(CORE_LIBS)

$(BUILD)/libripple.dll.a: $(SHLIB)
	@test -e $@
else
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
endif

ifneq ($(WIN_HOST),)
# SDL2.dll and SDL2_image.dll beside the demo, where Windows looks first:
# build/ARCH/ripple.exe runs from any working directory.
WIN_DLLS = $(BUILD)/SDL2.dll $(BUILD)/SDL2_image.dll
$(WIN_DLLS): $(BUILD)/%.dll: | deps-win
	$(Q)cp $(WIN_PREFIX)/bin/$*.dll $@
$(DEMO): | $(WIN_DLLS)
endif

$(DEMO): $(APP_OBJ) $(SCENE_OBJ) $(PLAY_OBJ) $(LIB)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(APP_OBJ) $(SCENE_OBJ) $(PLAY_OBJ) $(CHIPMUNK_LIBS) $(LIB) $(SDL_LIBS) \
	    $(CJSON_LIBS) $(ZLIB_LIBS) $(CORE_LIBS)

$(BENCH): $(BENCH_OBJ) $(SCENE_OBJ) $(PLAY_OBJ) $(LIB)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(BENCH_OBJ) $(SCENE_OBJ) $(PLAY_OBJ) $(CHIPMUNK_LIBS) $(LIB) $(CJSON_LIBS) \
	    $(CORE_LIBS)

$(TESTBINS): $(BUILD)/tests/%$(EXE): $(BUILD)/tests/%.o $(UTIL_OBJ) $(SCENE_OBJ) $(PLAY_OBJ) $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(TEST_APP_OBJ) $(UTIL_OBJ) $(SCENE_OBJ) $(PLAY_OBJ) $(CHIPMUNK_LIBS) \
	    $(LIB) $(CMOCKA_LIBS) $(CORE_LIBS)

# A suite that tests one of the demo's SDL-free files links its object,
# and the demo's platform seam it stands on (sys.o, or sys_win.o).
APP_SYS_OBJ = $(filter $(BUILD)/src/app/sys.o $(BUILD)/src/app/sys_win.o,$(APP_OBJ))
$(BUILD)/tests/test_shotname$(EXE): TEST_APP_OBJ = $(BUILD)/src/app/shotname.o $(APP_SYS_OBJ)
$(BUILD)/tests/test_shotname$(EXE): $(BUILD)/src/app/shotname.o $(APP_SYS_OBJ)
$(BUILD)/tests/test_files$(EXE): TEST_APP_OBJ = $(FILES_SPECIAL_OBJ)
$(BUILD)/tests/test_files$(EXE): $(FILES_SPECIAL_OBJ)
# The web page's pool, built natively (plain C over libripple).
$(BUILD)/tests/test_web$(EXE): TEST_APP_OBJ = $(BUILD)/src/web/web.o
$(BUILD)/tests/test_web$(EXE): $(BUILD)/src/web/web.o

# The man page names the picture's installed path and this version.
$(MANPAGE): src/app/ripple.6 $(PREFIX_STAMP) $(STAMP)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)sed -e 's|/usr/local/share/ripple|$(DATADIR)/ripple|g' \
	    -e '/^\.TH /s|"ripple [0-9][0-9.]*"|"ripple $(VERSION)"|' $< >$@.tmp && mv $@.tmp $@
