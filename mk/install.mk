# mk/install.mk - install and install-lib, uninstall and uninstall-lib, and their test (the install stage).

.PHONY: install install-lib uninstall uninstall-lib test-install

$(BUILD)/ripple.pc: src/ripple.pc.in $(PREFIX_STAMP) $(STAMP)
	@$(if $(Q),echo "  GEN     $@")
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' $< >$@.tmp && mv $@.tmp $@

# The library: libripple.a, libripple.so and its links, the headers and
# ripple.pc.  It needs only a C compiler and pthreads: nothing here names
# the demo's packages, so `make install-lib` compiles no file of the demo
# and asks for none of them (test-install holds it to that).
define install-lib-files
install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/ripple
install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libripple.a
install -m 644 $(SHLIB) $(DESTDIR)$(LIBDIR)/libripple.so.$(VERSION)
ln -sf libripple.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libripple.so
install -m 644 src/ripple.h $(DESTDIR)$(INCLUDEDIR)/ripple.h
install -m 644 $(PUBLIC_SUBHDR) $(DESTDIR)$(INCLUDEDIR)/ripple
install -m 644 $(BUILD)/ripple.pc $(DESTDIR)$(LIBDIR)/pkgconfig/ripple.pc
endef
# The demo: the program, its picture, show and side art, the man page.
define install-demo-files
install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/ripple/shows $(DESTDIR)$(DATADIR)/ripple/music \
    $(DESTDIR)$(MAN6DIR)
install -m 755 $(DEMO) $(DESTDIR)$(BINDIR)/ripple
install -m 644 assets/background.png $(DESTDIR)$(DATADIR)/ripple/background.png
install -m 644 assets/shows/default.show $(DESTDIR)$(DATADIR)/ripple/shows/default.show
install -m 644 assets/shows/show-1.show $(DESTDIR)$(DATADIR)/ripple/shows/show-1.show
install -m 644 assets/music/default.score $(DESTDIR)$(DATADIR)/ripple/music/default.score
install -m 644 assets/side-sky.png $(DESTDIR)$(DATADIR)/ripple/side-sky.png
install -m 644 assets/side-stone.png $(DESTDIR)$(DATADIR)/ripple/side-stone.png
install -m 644 $(MANPAGE) $(DESTDIR)$(MAN6DIR)/ripple.6
endef
# The loader learns of a new or removed shared library at once (as root,
# without DESTDIR).
ldconfig-run = $(Q)if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then $(LDCONFIG) || true; fi

install-lib: $(LIB) $(SHLIB) $(BUILD)/ripple.pc
	$(install-lib-files)
	$(ldconfig-run)

install: $(LIB) $(SHLIB) $(DEMO) $(BUILD)/ripple.pc $(MANPAGE)
	$(install-lib-files)
	$(install-demo-files)
	$(ldconfig-run)

# Exactly the files each install puts there, and the directories that are
# ripple's own; the other directories may hold anything else.
LIB_FILES  = $(LIBDIR)/libripple.a $(LIBDIR)/libripple.so.$(VERSION) $(LIBDIR)/$(SONAME) \
             $(LIBDIR)/libripple.so $(INCLUDEDIR)/ripple.h $(PUBLIC_SUBHDR:src/%=$(INCLUDEDIR)/%) \
             $(LIBDIR)/pkgconfig/ripple.pc
DEMO_FILES = $(BINDIR)/ripple $(DATADIR)/ripple/background.png $(MAN6DIR)/ripple.6 \
             $(DATADIR)/ripple/shows/default.show $(DATADIR)/ripple/shows/show-1.show \
             $(DATADIR)/ripple/music/default.score $(DATADIR)/ripple/side-sky.png $(DATADIR)/ripple/side-stone.png
uninstall-lib:
	rm -f $(LIB_FILES:%=$(DESTDIR)%)
	$(Q)rmdir $(DESTDIR)$(INCLUDEDIR)/ripple 2>/dev/null || true
	$(ldconfig-run)

uninstall:
	rm -f $(LIB_FILES:%=$(DESTDIR)%) $(DEMO_FILES:%=$(DESTDIR)%)
	$(Q)rmdir $(DESTDIR)$(DATADIR)/ripple/shows 2>/dev/null || true
	$(Q)rmdir $(DESTDIR)$(DATADIR)/ripple/music 2>/dev/null || true
	$(Q)rmdir $(DESTDIR)$(INCLUDEDIR)/ripple 2>/dev/null || true
	$(Q)rmdir $(DESTDIR)$(DATADIR)/ripple 2>/dev/null || true
	$(ldconfig-run)

# ---- the install stage -------------------------------------------------------

# First the library alone: `make -n install-lib` in a build directory of
# its own (so that it shows every compile) may name no package of the
# demo (SDL2, SDL2_image, cJSON, Chipmunk2D, zlib, cmocka), consider no
# deps-* target and compile no file outside the library; neither it nor
# the real install-lib may ask pkg-config anything (a pkg-config first in
# PATH writes down what it is asked).  That install holds the library's
# files and no more, a program with no other library (src/examples/
# headless.c) builds against it through pkg-config and runs, and
# uninstall-lib leaves nothing.
# Then all of it: installs into a scratch prefix, builds the example against the installed
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
            ./share/ripple/music/default.score ./share/ripple/shows/default.show \
            ./share/ripple/shows/show-1.show ./share/ripple/side-sky.png \
            ./share/ripple/side-stone.png
INST_VARS = BUILD=$(INST) DEMO=$(INST)/ripple BENCH=$(INST)/ripple-bench PREFIX=$(STAGE) LDCONFIG=:
LIB_INSTALLED = $(filter-out ./bin/% ./share/%,$(INSTALLED))
LIB_DRY = $(abspath $(INST)/lib-dry)
# What install-lib must not name: the demo's packages, an installer, a
# compile outside the library.
NOT_LIB = sdl|cjson|chipmunk|zlib|-lz\b|cmocka|deps-|(src/(app|scene|play|web|tools)|bench|tests)/[^ ]*\.[co]\b
# A PREFIX or DESTDIR with a space, a relative PREFIX: each of install
# and uninstall is refused with one line and status 2 before it builds
# (in a build directory of its own), writes or removes anything: nothing
# new in the scratch directory or the source tree, and the file `sp` that
# a split '.../sp ace' would name is still there.
REFUSED = $(abspath $(INST)/refused)
test-install:
	$(Q)rm -rf $(REFUSED) && mkdir -p $(REFUSED) && : >$(REFUSED)/sp && ls -A >$(REFUSED)/tree
	@echo "  REFUSE  make (un)install(-lib) with PREFIX or DESTDIR '.../sp ace', PREFIX 'rel/x'"
	$(Q)fail() { echo "test-install: FAIL: $$*"; exit 1; }; \
	for goal in install uninstall install-lib uninstall-lib; do \
	    for var in "PREFIX=$(REFUSED)/sp ace" "DESTDIR=$(REFUSED)/sp ace" "PREFIX=rel/x"; do \
	        $(MAKE) $(SUB) BUILD=$(REFUSED)/build LDCONFIG=: $$goal "$$var" >$(REFUSED)/out 2>$(REFUSED)/err; rc=$$?; \
	        test $$rc = 2 || fail "make $$goal '$$var' exited $$rc, not 2"; \
	        test ! -s $(REFUSED)/out && test "$$(wc -l <$(REFUSED)/err)" = 1 && grep -q "$${var%%=*} '.*' " $(REFUSED)/err || \
	            fail "make $$goal '$$var' said:$$(printf '\n  %s' "$$(cat $(REFUSED)/out $(REFUSED)/err)")"; \
	        left=$$(cd $(REFUSED) && find . -mindepth 1 ! -name sp ! -name out ! -name err ! -name tree); \
	        test -z "$$left" || fail "make $$goal '$$var' left in $(REFUSED): $$left"; \
	        test -e $(REFUSED)/sp || fail "make $$goal '$$var' removed $(REFUSED)/sp"; \
	        ls -A | cmp -s - $(REFUSED)/tree || fail "make $$goal '$$var' left in the source tree: $$(ls -A | comm -13 $(REFUSED)/tree - | tr '\n' ' ')"; \
	    done; \
	done
	$(Q)rm -rf $(STAGE) $(INST)/dest $(LIB_DRY)
	$(Q)mkdir -p $(LIB_DRY)/bin && real=$$(command -v pkg-config) || { echo "test-install: FAIL: no pkg-config"; exit 1; }; \
	printf '#!/bin/sh\necho "pkg-config $$*" >>%s\nexec %s "$$@"\n' $(LIB_DRY)/asked "$$real" >$(LIB_DRY)/bin/pkg-config; \
	chmod +x $(LIB_DRY)/bin/pkg-config; : >$(LIB_DRY)/asked
	@echo "  DRY     make -n install-lib (in $(LIB_DRY)/build)"
	$(Q)PATH=$(LIB_DRY)/bin:$$PATH $(MAKE) $(SUB) -n --debug=b BUILD=$(LIB_DRY)/build PREFIX=$(STAGE) \
	    LDCONFIG=: install-lib >$(LIB_DRY)/dry.log 2>&1 || { cat $(LIB_DRY)/dry.log; echo "test-install: FAIL: make -n install-lib"; exit 1; }
	$(Q)fail() { echo "test-install: FAIL: $$*"; exit 1; }; \
	x=$$(grep -Ei '$(NOT_LIB)' $(LIB_DRY)/dry.log | head -n 5); \
	test -z "$$x" || fail "make -n install-lib names what is not the library's:$$(printf '\n  %s' "$$x")"; \
	grep -q ' -c src/core/base/base.c ' $(LIB_DRY)/dry.log || fail "make -n install-lib compiles nothing (see $(LIB_DRY)/dry.log)"; \
	test ! -s $(LIB_DRY)/asked || fail "make -n install-lib asks pkg-config: $$(head -n 3 $(LIB_DRY)/asked)"
	$(Q)PATH=$(LIB_DRY)/bin:$$PATH $(MAKE) $(SUB) $(INST_VARS) install-lib
	$(Q)export PKG_CONFIG_PATH=$(STAGE)/lib/pkgconfig; fail() { echo "test-install: FAIL: $$*"; exit 1; }; \
	test ! -s $(LIB_DRY)/asked || fail "make install-lib asks pkg-config: $$(head -n 3 $(LIB_DRY)/asked)"; \
	got=$$(cd $(STAGE) && find . ! -type d | LC_ALL=C sort | tr '\n' ' '); \
	test "$$got" = "$(LIB_INSTALLED) " || fail "install-lib installed $$got; want $(LIB_INSTALLED)"; \
	echo "  CC      src/examples/headless.c (against $(STAGE), the library alone)"; \
	$(CC) -std=c11 -Wall -Wextra -O2 -o $(INST)/headless src/examples/headless.c \
	    $$(pkg-config --cflags --libs ripple) || fail "the headless example does not build against install-lib's"; \
	readelf -d $(INST)/headless | grep -q 'NEEDED.*\[$(SONAME)\]' || fail "the headless example does not need $(SONAME)"; \
	LD_LIBRARY_PATH=$(STAGE)/lib $(INST)/headless 200 || fail "the headless example failed"
	$(Q)$(MAKE) $(SUB) $(INST_VARS) uninstall-lib
	$(Q)left=$$(find $(STAGE) ! -type d); test -z "$$left" || { echo "test-install: FAIL: uninstall-lib left:"; echo "$$left"; exit 1; }
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
