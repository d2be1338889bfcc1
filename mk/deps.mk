# mk/deps.mk - what the build needs, the targets that install it (deps-*), and the flags of the packages it takes.

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
# auto's resident memory against the surface's in the smoke test; ffmpeg
# measures the sound's loudness (tests/levels.sh).
NEEDS_TEST  = $(NEEDS_CHECK) $(NEEDS_I386) $(NEEDS_ARM) $(NEEDS_WEB_TEST) $(NEEDS_WIN_TEST) cmd:clang:clang cmd:gdb:gdb \
              cmd:xdotool:xdotool cmd:python3:python3 cmd:qemu-i386:qemu-user \
              file:/usr/bin/time:time cmd:ffmpeg:ffmpeg \
              'file:/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-14-dev'

# The Windows builds and their tests: both win32-thread mingw-w64
# compilers, CMake and dpkg-source for the libraries' sources, zip for
# make dist.  Wine: the machine's, or its 32-bit half fetched by make
# (WINE32, mk/tests.mk); make test-win64 wants wine64.
NEEDS_WIN_TEST = cmd:i686-w64-mingw32-gcc:gcc-mingw-w64-i686-win32 \
                 cmd:x86_64-w64-mingw32-gcc:gcc-mingw-w64-x86-64-win32 cmd:cmake:cmake \
                 cmd:dpkg-source:dpkg-dev cmd:zip:zip

# The web page: emscripten (which brings node) builds it; the tests run
# it in a headless Chromium.
NEEDS_WEB      = cmd:emcc:emscripten cmd:node:nodejs
# node's own WebSocket (node 22, or 20 behind a flag) carries the DevTools
# protocol and WebDriver BiDi; with an older node (Debian's 18), the ws module
# does.  The component is tested in Firefox ESR too.
NEEDS_WEB_TEST = $(NEEDS_WEB) cmd:chromium:chromium cmd:firefox-esr:firefox-esr \
                 file:/usr/share/nodejs/ws/package.json:node-ws

# The ARM builds: clang, lld and qemu-user on the machine; their libraries
# (the C library, cmocka, cJSON, Chipmunk2D, and SDL2 for the demo) come
# into the sysroot; llvm's objcopy renames the maths calls in the
# sysroot's Chipmunk2D (mk/chipmunk.mk), which GNU objcopy cannot read.
NEEDS_ARM   = cmd:clang:clang cmd:ld.lld:lld cmd:qemu-aarch64:qemu-user cmd:apt-get:apt \
              cmd:pkg-config:pkg-config cmd:llvm-objcopy:llvm cmd:llvm-nm:llvm
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

# ---- the packages' flags -------------------------------------------------------

# Recursive (=), so that pkg-config runs only for a target that uses the
# flags: install-lib, which needs none of them, never asks.
SDL_CFLAGS    = $(shell pkg-config --cflags sdl2 SDL2_image 2>/dev/null)
SDL_LIBS      = $(shell pkg-config --libs sdl2 SDL2_image 2>/dev/null)
CMOCKA_CFLAGS = $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   = $(shell pkg-config --libs cmocka 2>/dev/null)
CJSON_CFLAGS  = $(shell pkg-config --cflags libcjson 2>/dev/null)
CJSON_LIBS    = $(shell pkg-config --libs libcjson 2>/dev/null)
ZLIB_LIBS     = $(shell pkg-config --libs zlib 2>/dev/null)
# Chipmunk2D ships no pkg-config file: its header is checked by the needs
# above; the library linked is a copy of its static one (mk/chipmunk.mk).

ifeq ($(ARCH),i386)
# The sysroot has no -dev package of the image libraries that SDL2_image.pc
# names, which pkg-config insists on: there it is linked by name.
SDL_CFLAGS = $(if $(I386_SR),-I$(I386_SR)/usr/include/i386-linux-gnu \
               $(shell $(I386_PC) --cflags sdl2 2>/dev/null), \
             $(shell $(I386_PC) --cflags sdl2 SDL2_image 2>/dev/null))
SDL_LIBS   = $(if $(I386_SR),$(I386_SR_LIB:%=-L%) $(I386_SR_LIB:%=-Wl,-rpath-link,%) \
               $(shell $(I386_PC) --libs sdl2 2>/dev/null) -lSDL2_image, \
             $(shell $(I386_PC) --libs sdl2 SDL2_image 2>/dev/null))
ZLIB_LIBS  = $(shell $(I386_PC) --libs zlib 2>/dev/null)
ifeq ($(I386_SDL),source)
# SDL2_image built with stb_image needs nothing but SDL2.
I386_SRC_PC = PKG_CONFIG_LIBDIR=$(abspath $(I386_PREFIX))/lib/pkgconfig pkg-config
SDL_CFLAGS = $(shell $(I386_SRC_PC) --cflags sdl2 SDL2_image 2>/dev/null)
SDL_LIBS   = $(shell $(I386_SRC_PC) --libs sdl2 SDL2_image 2>/dev/null)
endif
endif

ifneq ($(ARM_TRIPLE),)
# Every library from the sysroot.  SDL2_image.pc names -dev packages of
# image libraries the sysroot has not: linked by name.
SDL_CFLAGS    = $(shell $(ARM_PC) --cflags sdl2 2>/dev/null)
SDL_LIBS      = $(shell $(ARM_PC) --libs sdl2 2>/dev/null) -lSDL2_image
CMOCKA_CFLAGS = $(shell $(ARM_PC) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   = $(shell $(ARM_PC) --libs cmocka 2>/dev/null)
CJSON_CFLAGS  = $(shell $(ARM_PC) --cflags libcjson 2>/dev/null)
CJSON_LIBS    = $(shell $(ARM_PC) --libs libcjson 2>/dev/null)
ZLIB_LIBS     = $(shell $(ARM_PC) --libs zlib 2>/dev/null)
endif

ifneq ($(WIN_HOST),)
# Every library from the prefix that winprefix.sh builds.  The programs are
# console programs (SDL's own flags would make the demo a GUI one, whose
# messages and timedemo results nobody sees); SDL2main gives SDL_main its
# WinMain-free entry.  cmocka and the rest are linked statically: the only
# DLLs shipped are SDL2.dll and SDL2_image.dll.
WIN_PF        = $(abspath $(WIN_PREFIX))
SDL_CFLAGS    = -I$(WIN_PF)/include -I$(WIN_PF)/include/SDL2 -Dmain=SDL_main
SDL_LIBS      = -L$(WIN_PF)/lib -lmingw32 -lSDL2main -lSDL2_image -lSDL2 -mconsole
CMOCKA_CFLAGS = -I$(WIN_PF)/include
CMOCKA_LIBS   = -L$(WIN_PF)/lib -lcmocka-static
CJSON_CFLAGS  = -I$(WIN_PF)/include
CJSON_LIBS    = -L$(WIN_PF)/lib -lcjson
ZLIB_LIBS     = -L$(WIN_PF)/lib -lz
endif

# ---- installing what is missing ------------------------------------------------

.PHONY: deps-run deps-check deps-test deps-shots deps-i386 deps-i386-demo deps-i386-debian deps-arm deps-web

deps-run:
	$(call require,$(NEEDS_RUN))

deps-i386:
	$(call require,$(NEEDS_I386))

# The i386 SDL2: installed beside the amd64 one when that works (as root),
# else (refused, or not root) unpacked into the private sysroot.  Without
# network both fail, with a message.
# With I386_SDL=source, SDL2 and SDL2_image are then built from Debian's
# source into $(I386_PREFIX), once per version, configured against those
# packages' X11 and sound libraries (the machine's, or the sysroot's).
deps-i386-demo: deps-i386-debian
ifeq ($(I386_SDL),source)
	$(Q)I386_LIBDIR=$(I386_SR)/usr/lib/i386-linux-gnu sh src/tools/winprefix.sh linux-i386 $(I386_PREFIX)
endif
deps-i386-debian:
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

# make screenshots: the window under Xvfb, and sox draws the sound.
NEEDS_SHOTS = $(NEEDS_RUN) cmd:xvfb-run:xvfb cmd:xauth:xauth cmd:xdotool:xdotool cmd:xwininfo:x11-utils cmd:sox:sox
deps-shots:
	$(call require,$(NEEDS_SHOTS))

deps-web:
	$(call require,$(NEEDS_WEB))

# The Windows builds: the cross compiler on the machine, the libraries in
# the prefix (built once per version; a second run does nothing).
NEEDS_WIN = cmd:$(WIN_HOST)-gcc:gcc-mingw-w64-$(if $(filter win32,$(ARCH)),i686,x86-64)-win32 \
            cmd:cmake:cmake cmd:dpkg-source:dpkg-dev cmd:apt-get:apt
.PHONY: deps-win
deps-win:
	$(call require,$(NEEDS_WIN))
	$(Q)sh src/tools/winprefix.sh $(ARCH) $(WIN_PREFIX)
