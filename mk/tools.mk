# mk/tools.mk - running the demo and the bench, the benchmarks, and the generators of the assets and pictures (src/tools).

# ---- running -------------------------------------------------------------------

.PHONY: run bench bench-present bench-instr bench-instr-i386 bench-instr-arm backdrop side-art screenshots dmath-crc

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
# by callgrind (needs valgrind); repeatable, unlike timings.  Then the side
# view's timedemo scenes on every path, simulation and drawing apart,
# beside the pool's frame; the targets below print the same.
bench-instr: $(BENCH)
	sh bench/instr.sh $(call cmd,$(BENCH))

# The same for the 32-bit build, counted under qemu-user by a small plugin
# (valgrind cannot run 32-bit programs on every 64-bit kernel).
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

# ---- the generators -------------------------------------------------------------

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
# on every run; and the spectrogram of one loop's sound (docs/sound.md).
screenshots: deps-shots $(DEMO) $(BENCH) $(BUILD)/shot
	RIPPLE=./$(DEMO) BENCH=$(BENCH) SHOT=$(BUILD)/shot sh src/tools/screenshots.sh docs/img
	RIPPLE=./$(DEMO) sh src/tools/spectrogram.sh docs/img

$(BUILD)/shot: src/tools/shot.c src/tools/save.c src/tools/save.h $(LIB)
	$(Q)mkdir -p $(BUILD)
	$(Q)$(CC) $(ALL_CFLAGS) $(SDL_CFLAGS) -O2 -o $@ src/tools/shot.c src/tools/save.c $(LIB) $(SDL_LIBS) $(CORE_LIBS)

# The deterministic maths' results over a million fixed inputs a function,
# one CRC-32 a line: builds for other platforms (ARCH=...) must print the
# same lines (src/tools/dmath-crc.c).
dmath-crc: $(BUILD)/dmath-crc$(EXE)
	$(RUN_WRAP) $(call cmd,$<)

$(BUILD)/dmath-crc$(EXE): $(BUILD)/src/tools/dmath-crc.o $(LIB)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(ZLIB_LIBS) $(CORE_LIBS)
