# mk/chipmunk.mk - Chipmunk2D for the side scene with the deterministic maths of core/base/dmath.c: Debian's object code with its C library calls renamed, or (the page) its source compiled with scene/chipmunk_det.h forced in.

# The C libraries' sines, exponentials and powers differ in the last bit
# from one platform to the next (glibc, msvcrt, emscripten's musl), and
# Chipmunk2D calls them every step (a body's rotation, the damping), so
# its bodies would drift apart.  Its maths macros (cpfsin...) name the C
# library's functions; where its object code comes prebuilt, those calls
# are renamed to dmath.c's by objcopy into a copy of the archive
# ($(CHIPMUNK_DET)), which the programs link instead of -lchipmunk.  The
# functions renamed are what its object code calls; sqrt, fmod, floor and
# ceil are exact in every C library and stay.  The recipe then checks no
# other inexact function of the C library is left, so a Chipmunk2D that
# calls one more fails the build here rather than drifting.
CHIPMUNK_DET_SYMS = sin cos sincos acos atan2 exp pow
CHIPMUNK_INEXACT  = sin|cos|sincos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|exp|exp2|expm1|log|log2|log10|log1p|pow|cbrt|hypot
CHIPMUNK_DET      = $(BUILD)/chipmunk/libchipmunk.a

# The archive each target takes, the tools that rename its symbols, and
# the prefix of a C name there (32-bit Windows puts an underscore first).
ifneq ($(WIN_HOST),)
CHIPMUNK_SYS_A   = $(WIN_PREFIX)/lib/libchipmunk.a
CHIPMUNK_OBJCOPY = $(WIN_HOST)-objcopy
CHIPMUNK_NM      = $(WIN_HOST)-nm
CHIPMUNK_SYMPFX  = $(if $(filter win32,$(ARCH)),_)
else ifneq ($(ARM_TRIPLE),)
CHIPMUNK_SYS_A   = $(ARM_SR)/usr/lib/$(ARM_TRIPLE)/libchipmunk.a
CHIPMUNK_OBJCOPY = llvm-objcopy
CHIPMUNK_NM      = llvm-nm
else
CHIPMUNK_SYS_A   = $(shell $(CC) $(ARCH_FLAGS) -print-file-name=libchipmunk.a)
CHIPMUNK_OBJCOPY = objcopy
CHIPMUNK_NM      = nm
endif

# Debian's sources, fetched once for every target that compiles one
# (src/tools/debsrc.sh); the stamp holds the unpacked folder's path.
DEBSRC ?= build/debsrc
CHIPMUNK_VERSION   = 7.0.3
CHIPMUNK_SRC_STAMP = $(DEBSRC)/.chipmunk-$(CHIPMUNK_VERSION)
NEEDS_DEBSRC       = cmd:apt-get:apt cmd:dpkg-source:dpkg-dev
$(CHIPMUNK_SRC_STAMP):
	$(call require,$(NEEDS_DEBSRC))
	@mkdir -p $(DEBSRC)
	$(Q)sh src/tools/debsrc.sh chipmunk $(CHIPMUNK_VERSION) $(DEBSRC) $(DEBSRC).apt >$@.tmp \
	  && mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }
.PHONY: chipmunk-source
chipmunk-source: $(CHIPMUNK_SRC_STAMP)

# Where Chipmunk2D is compiled here from Debian's source: the page, which
# has no prebuilt one, and AArch64 (cross or native), where Debian's is
# built with GCC's default of fusing a*b+c into one fused multiply-add
# (its arm64 archive has hundreds), which rounds once where x86 rounds
# twice, so the bodies would drift from every other platform's.  ARMv7's
# VFPv3 has no fused instruction, and x86's Debian baseline none either.
CHIPMUNK_FROM_SOURCE = $(if $(filter wasm aarch64,$(ARCH)),1,$(if $(ARCH),,$(if $(filter aarch64 arm64,$(shell uname -m)),1)))

ifeq ($(CHIPMUNK_FROM_SOURCE),1)
# Its C files (but cpHastySpace.c, the pthreads space nothing here uses)
# compiled with the project's flags (-ffp-contract=off among them) and
# chipmunk_det.h forced in first.  The scene's files find its headers
# there too.
ifeq ($(ARCH),wasm)
# One archive beside the two modules' folders serves both: their flags
# differ in the SIMD kernels' define alone, which Chipmunk2D does not
# read (it came out the same twice); `make web` builds it before them.
CHIPMUNK_DET    = $(patsubst %/,%,$(dir $(BUILD)))/chipmunk/libchipmunk.a
else
$(DEMO) $(BENCH) $(TESTBINS): $(CHIPMUNK_DET)
ifneq ($(ARM_TRIPLE),)
$(CHIPMUNK_DET): | deps-arm
endif
endif
CHIPMUNK_DIR    = $(shell cat $(CHIPMUNK_SRC_STAMP) 2>/dev/null)
CHIPMUNK_CFLAGS = -I$(CHIPMUNK_DIR)/include
CHIPMUNK_LIBS   = $(CHIPMUNK_DET)
$(SCENE_OBJ): CPPFLAGS += $(CHIPMUNK_CFLAGS)
$(SCENE_OBJ): | $(CHIPMUNK_SRC_STAMP)
$(CHIPMUNK_DET): $(CHIPMUNK_SRC_STAMP) src/scene/chipmunk_det.h src/core/base/dmath.h
	@mkdir -p $(@D)/obj
	@$(if $(Q),echo "  CC      Chipmunk2D $(CHIPMUNK_VERSION) -> $@")
	$(Q)s=$$(cat $(CHIPMUNK_SRC_STAMP)); set --; \
	for c in "$$s"/src/*.c; do \
	  case $$c in */cpHastySpace.c) continue;; esac; \
	  o=$(@D)/obj/$$(basename "$$c" .c).o; \
	  $(CC) $(filter-out -std=%,$(ALL_CFLAGS)) -w -std=gnu99 -DNDEBUG -I"$$s/include" -include src/scene/chipmunk_det.h -c "$$c" -o "$$o" || exit 1; \
	  set -- "$$@" "$$o"; \
	done; rm -f $@; $(AR) rcs $@ "$$@"
else
CHIPMUNK_LIBS = $(CHIPMUNK_DET)
$(DEMO) $(BENCH) $(TESTBINS): $(CHIPMUNK_DET)

$(CHIPMUNK_DET):
	@mkdir -p $(@D)
	@$(if $(Q),echo "  OBJCOPY $@")
	$(Q)[ -f "$(CHIPMUNK_SYS_A)" ] || { echo "chipmunk: no $(CHIPMUNK_SYS_A) (Chipmunk2D's static library; Debian: libchipmunk-dev)" >&2; exit 1; }
	$(Q)$(CHIPMUNK_OBJCOPY) $(foreach s,$(CHIPMUNK_DET_SYMS),--redefine-sym $(CHIPMUNK_SYMPFX)$(s)=$(CHIPMUNK_SYMPFX)rpl_$(s)) \
	    $(CHIPMUNK_SYS_A) $@.tmp
	$(Q)left=$$($(CHIPMUNK_NM) -u $@.tmp | awk '{ print $$NF }' | sed 's/^$(CHIPMUNK_SYMPFX)//; s/@.*//' \
	    | grep -xE '$(CHIPMUNK_INEXACT)' | sort -u | tr '\n' ' '); \
	  if [ -n "$$left" ]; then rm -f $@.tmp; \
	    echo "chipmunk: $(CHIPMUNK_SYS_A) calls the C library's $$left, which dmath.c does not stand in for" >&2; exit 1; fi
	$(Q)mv $@.tmp $@

# Made again when the archive it comes from changes (a new Chipmunk2D);
# on Windows the archive comes with the prefix.
ifneq ($(WIN_HOST),)
$(CHIPMUNK_DET): | deps-win
else ifneq ($(ARM_TRIPLE),)
$(CHIPMUNK_DET): | deps-arm
else
$(CHIPMUNK_DET): $(wildcard $(CHIPMUNK_SYS_A))
endif
endif
