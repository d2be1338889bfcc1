# tests/fuzz.mk - libFuzzer targets for the parsers that read outside input (included by the Makefile).
#
#   make fuzz-smoke     each target over its seed corpus plus FUZZ_RUNS new inputs (part of make test)
#   make fuzz           each target for FUZZ_SECONDS (default 300) of fresh inputs
#
# The targets are built with clang and its libFuzzer (Debian: libclang-rt-14-dev)
# together with the scalar core, under AddressSanitizer and UBSan.  A seed
# corpus per target is kept in tests/corpus/<target>/; new inputs go to a
# scratch directory, never into the tree.  An input that ever crashed a
# target is added to its corpus (crash-*), so every later run replays it.

FUZZ_CC      ?= clang
FUZZ_RUNS    ?= 20000
FUZZ_SECONDS ?= 300
FUZZ_NAMES   = snapshot parse show music
FUZZ_DIR     = $(BUILD)/fuzz
FUZZ_BINS    = $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz_%)
# the scalar core: the fuzzers test parsing, not the SIMD kernels
# (the Windows twins, *_win.c, are for mingw-w64 builds only)
FUZZ_CORE    = $(filter-out %_win.c,$(wildcard src/core/*/*.c) $(wildcard src/kernels/*.c)) \
               src/kernels/x86/cpu.c
# The core is compiled once for all the targets, with libFuzzer's
# coverage hooks (fuzzer-no-link); each target links it with its harness.
FUZZ_SAN     = address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS  = -std=c11 -ffp-contract=off -D_POSIX_C_SOURCE=200809L -D_FILE_OFFSET_BITS=64 -Isrc -g -O1
FUZZ_OBJ     = $(FUZZ_CORE:%.c=$(FUZZ_DIR)/obj/%.o)

.PHONY: fuzz fuzz-smoke fuzz-deps

fuzz-deps:
	$(Q)command -v $(FUZZ_CC) >/dev/null 2>&1 && \
	  echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' | \
	  $(FUZZ_CC) -x c -fsanitize=fuzzer -o /dev/null - 2>/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing: clang libclang-rt-14-dev (libFuzzer)"; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends clang libclang-rt-14-dev >/dev/null || exit 1; \
	  else \
	    echo "missing libFuzzer; install it with:"; \
	    echo "  sudo apt-get install clang libclang-rt-14-dev"; \
	    exit 1; \
	  fi; }

$(FUZZ_DIR)/obj/%.o: %.c | fuzz-deps
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZCC  $<")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,$(FUZZ_SAN) -MMD -MP -c $< -o $@

$(FUZZ_DIR)/fuzz_%: tests/fuzz_%.c $(FUZZ_OBJ) | fuzz-deps
	@mkdir -p $(@D)
	@$(if $(Q),echo "  FUZZ    $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) -o $@ $< $(FUZZ_OBJ) -pthread -lm

-include $(FUZZ_OBJ:.o=.d)

# The targets side by side.
fuzz-smoke: $(FUZZ_NAMES:%=fuzz-smoke-%)

fuzz-smoke-%: $(FUZZ_DIR)/fuzz_%
	$(Q)n=$*; scratch=$$(mktemp -d) || exit 1; \
	$(FUZZ_DIR)/fuzz_$$n -runs=$(FUZZ_RUNS) -seed=1 -artifact_prefix=$(FUZZ_DIR)/$$n- \
	    $$scratch tests/corpus/$$n >$(FUZZ_DIR)/$$n.log 2>&1; rc=$$?; \
	rm -rf "$$scratch"; \
	if [ $$rc != 0 ]; then tail -n 30 $(FUZZ_DIR)/$$n.log; echo "fuzz_$$n: FAILED (see $(FUZZ_DIR)/$$n.log)"; exit 1; fi; \
	echo "fuzz_$$n: $$(ls tests/corpus/$$n | wc -l) corpus inputs and $(FUZZ_RUNS) new runs, no failure"

fuzz: $(FUZZ_BINS)
	$(Q)for n in $(FUZZ_NAMES); do \
	  mkdir -p $(FUZZ_DIR)/corpus-$$n; \
	  echo "fuzz_$$n: $(FUZZ_SECONDS) s"; \
	  $(FUZZ_DIR)/fuzz_$$n -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=$(FUZZ_DIR)/$$n- \
	      $(FUZZ_DIR)/corpus-$$n tests/corpus/$$n 2>&1 | tail -n 3 || exit 1; \
	done
