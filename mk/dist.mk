# mk/dist.mk - make dist: the Windows zip and the 32-bit Linux tarball in dist/, and their test.

.PHONY: dist dist-win32 dist-i386 test-dist win-imports

DIST = dist
DIST_ZIP = $(DIST)/ripple-$(VERSION)-win32.zip
DIST_TGZ = $(DIST)/ripple-$(VERSION)-i386-linux.tar.gz

dist: dist-win32 dist-i386

# While the demo is among what the Windows port does not build yet
# (WIN_PENDING, mk/tests.mk), the zip waits and the dist stage tests the
# tarball alone.
DIST_WIN = $(if $(filter ripple,$(WIN_PENDING)),,1)

# The win32 build whole (demo, bench, DLLs), in the directory of
# `make ARCH=win32`, then the zip (src/tools/dist.sh: made under a
# temporary name and renamed, never half written).
dist-win32:
	$(Q)$(MAKE) $(SUB) ARCH=win32 BUILD=$(BUILD)/win32 BENCH=$(BUILD)/win32/ripple-bench.exe all
	$(Q)sh src/tools/dist.sh win32 $(DIST_ZIP) $(VERSION) $(BUILD)/win32

# The 32-bit demo for a Pentium II: built with I386_SDL=source (SDL2 and
# SDL2_image from Debian's source without SSE, into build/i386/prefix)
# in build/i586, and shipped with those libraries.  Where that prefix is
# not there (a tree without I386_SDL), Debian's i386 SDL2 goes in, and the
# tarball's README says it needs SSE.
DIST_I386 = $(BUILD)/i586
DIST_I386_VARS = ARCH=i386 I386_SDL=source BUILD=$(DIST_I386) BENCH=$(DIST_I386)/ripple-bench \
                 I386_PREFIX=$(I386)/prefix I386_SYSROOT_DIR=$(I386)/sysroot
dist-i386:
	$(Q)$(MAKE) $(SUB) $(DIST_I386_VARS) $(DIST_I386)/ripple
	$(Q)sh src/tools/dist.sh i386 $(DIST_TGZ) $(VERSION) $(DIST_I386)/ripple $(I386)/prefix/lib \
	    $(I386)/sysroot/usr/lib/i386-linux-gnu /usr/lib/i386-linux-gnu /lib/i386-linux-gnu

# What the zip holds, and that the tarball's launcher starts its demo; a
# failed run keeps the archive it would have replaced.
test-dist: dist-i386 $(if $(DIST_WIN),dist-win32)
	$(Q)sh tests/dist.sh $(if $(DIST_WIN),$(DIST_ZIP),-) $(DIST_TGZ) $(VERSION)

# The imports of every PE of the zip, written into docs/windows.md between
# its two markers (tests/pe-imports.sh --markdown).
WIN_SHIPPED = $(BUILD)/win32/ripple.exe $(BUILD)/win32/ripple-bench.exe $(BUILD)/win32/libripple.dll \
              $(BUILD)/win32/prefix/bin/SDL2.dll $(BUILD)/win32/prefix/bin/SDL2_image.dll
win-imports:
	$(Q)$(MAKE) $(SUB) ARCH=win32 BUILD=$(BUILD)/win32 BENCH=$(BUILD)/win32/ripple-bench.exe win-build
	$(Q)sh tests/pe-imports.sh --markdown $$(for f in $(WIN_SHIPPED); do [ -e $$f ] && echo $$f; done) \
	    >$(BUILD)/imports.md
	$(Q)awk -v f=$(BUILD)/imports.md '/^<!-- imports: begin/ { print; while ((getline l < f) > 0) print l; skip = 1; next } \
	    /^<!-- imports: end/ { skip = 0 } !skip' docs/windows.md >docs/windows.md.tmp && mv docs/windows.md.tmp docs/windows.md
	$(Q)echo "docs/windows.md: the imports of" $$(grep '^### ' $(BUILD)/imports.md | cut -c5-)
