# mk/web.mk - the web page: the core and src/web built for WebAssembly by emscripten (ARCH=wasm), its files, its tests.

# make web: the page in $(WEB_DIR), over two builds of the core made with
# emscripten (ARCH=wasm): the SIMD module (the SSE2 kernels on WebAssembly
# SIMD) and the scalar one, for browsers without SIMD; the page picks.
# Each module links src/web, the pool's play (src/play) and the side scene
# (src/scene, over Chipmunk2D built for WebAssembly) over the core.
# The exports are every web_* function src/web/web.h declares.
WEB_DIR  ?= build/web
WEB_PORT ?= 8000
WEB_PAGE  = src/web/index.html src/web/web.js src/web/engine.js src/web/ripple-water.js \
            src/web/ripple-water.classic.js src/web/embed.html
# The page's files, its picture, its show and its music, copied as they are.
WEB_FILES = $(WEB_PAGE:src/web/%=$(WEB_DIR)/%) $(WEB_DIR)/background.png $(WEB_DIR)/default.show \
            $(WEB_DIR)/default.score $(WEB_DIR)/side-sky.png $(WEB_DIR)/side-stone.png
paren := (
comma := ,
WEB_EXPORTS = $(shell sed -n 's/^[a-z].*[ *]\(web_[a-z_]*\)[$(paren)].*/_\1/p' src/web/web.h) _malloc _free
WEB_LDFLAGS = -O2 --no-entry -sMODULARIZE=1 -sEXPORT_NAME=RippleModule -sENVIRONMENT=web,node \
              -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=33554432 -sFILESYSTEM=0 \
              -sEXPORTED_FUNCTIONS=$(subst $(eval) ,$(comma),$(strip $(WEB_EXPORTS))) \
              -sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8
# emcc is a node program: Debian's, with a node from elsewhere, finds its
# modules through NODE_PATH.
EMCC_NODE_PATH = $(if $(NODE_PATH),$(NODE_PATH):)/usr/share/nodejs
ifeq ($(ARCH),wasm)
export NODE_PATH := $(EMCC_NODE_PATH)
WEB_MODULE = $(WEB_DIR)/ripple-$(if $(filter 0,$(SIMD)),scalar,simd).js
$(BUILD)/src/web/web.o $(BUILD)/tests/web_exact.o: $(STAMP)
# Chipmunk2D for the side scene: compiled by emcc from Debian's source
# with the deterministic maths (mk/chipmunk.mk: CHIPMUNK_LIBS).
$(WEB_MODULE): $(BUILD)/src/web/web.o $(PLAY_OBJ) $(SCENE_OBJ) $(LIB) $(CHIPMUNK_LIBS) src/web/web.h \
               $(SELF) mk/web.mk
	@mkdir -p $(@D)
	@$(if $(Q),echo "  EMLD    $@")
	$(Q)$(CC) $(LDFLAGS) -o $@ $(BUILD)/src/web/web.o $(PLAY_OBJ) $(SCENE_OBJ) $(CHIPMUNK_LIBS) $(LIB) \
	    $(WEB_LDFLAGS)
web-module: $(WEB_MODULE)
	@:
wasm-chipmunk: $(CHIPMUNK_LIBS)
	@:
# The SIMD kernels against the scalar ones, in node.
$(BUILD)/web_exact.js: $(BUILD)/tests/web_exact.o $(LIB)
	@$(if $(Q),echo "  EMLD    $@")
	$(Q)$(CC) $(LDFLAGS) -O2 -o $@ $^ -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1
endif

.PHONY: web web-simd web-scalar web-chipmunk wasm-chipmunk web-files web-module serve-web test-web bench-web \
        web-package bench-web-peer

# Chipmunk2D's source is fetched here, once, before the two modules'
# builds run side by side.
web: deps-web $(CHIPMUNK_SRC_STAMP)
	$(Q)$(MAKE) $(SUB) -j$(JOBS) web-simd web-scalar web-files
web-files: $(WEB_FILES)
	@:
web-simd web-scalar: web-%: $(CHIPMUNK_SRC_STAMP) web-chipmunk
	$(Q)$(MAKE) $(SUB) ARCH=wasm SIMD=$(if $(filter simd,$*),1,0) BUILD=$(BUILD)/wasm/$* \
	    WEB_DIR=$(WEB_DIR) web-module
# Chipmunk2D for both modules, once, before them (mk/chipmunk.mk).
web-chipmunk: $(CHIPMUNK_SRC_STAMP)
	$(Q)$(MAKE) $(SUB) ARCH=wasm BUILD=$(BUILD)/wasm/simd wasm-chipmunk
define web-copy
@mkdir -p $(@D)
$(Q)cp $< $@
endef
$(WEB_DIR)/%: src/web/%
	$(web-copy)
$(WEB_DIR)/%: assets/%
	$(web-copy)
$(WEB_DIR)/%: assets/shows/%
	$(web-copy)
$(WEB_DIR)/%: assets/music/%
	$(web-copy)

# make web-package: the component as an npm package folder (npm pack takes it
# as it is): its module and classic script, the engine, both modules, the
# types, the music's default score, a README and the licence, package.json at
# the project's version.
WEB_PKG ?= build/web-package
WEB_PKG_FILES = ripple-water.js ripple-water.classic.js engine.js ripple-simd.js ripple-simd.wasm \
                ripple-scalar.js ripple-scalar.wasm default.score
web-package: web
	@rm -rf $(WEB_PKG)
	@mkdir -p $(WEB_PKG)
	$(Q)cp $(addprefix $(WEB_DIR)/,$(WEB_PKG_FILES)) src/web/package/ripple-water.d.ts \
	    src/web/package/README.md LICENSE $(WEB_PKG)/
	$(Q)sed 's/@VERSION@/$(VERSION)/' src/web/package/package.json.in > $(WEB_PKG)/package.json
	@echo "web-package: $(WEB_PKG) (ripple-water $(VERSION))"

serve-web: web
	node src/web/serve.mjs $(WEB_DIR) $(WEB_PORT)

# node's WebSocket, behind a flag in node 20 (without it, the ws module).
NODE_WS = $$(node --experimental-websocket -e 0 2>/dev/null && echo --experimental-websocket)

# The page's timedemo against the native demo's, and what the page costs
# a frame while it plays (bench/web.mjs).
bench-web: web $(DEMO)
	$(call require,$(NEEDS_WEB_TEST))
	node $(NODE_WS) bench/web.mjs --dir $(WEB_DIR) --native $(call cmd,$(DEMO))

# make bench-web-peer: the component beside jquery.ripples in one run, in
# headless Chromium with SwiftShader's WebGL and with software compositing
# (bench/web-peer.mjs); the table goes into docs/web.md.  jquery and
# jquery.ripples come from the npm registry into $(WEB_PEER), never into the
# tree; npm is needed by this target only.  PEER_ARGS="--seconds 10" for a
# quicker run.  npm retries a missing network for minutes: here it gets one
# retry and two minutes in all, then one line says what failed.
WEB_PEER ?= build/web-peer
WEB_PEER_PKGS = jquery@3.7.1 jquery.ripples@0.6.3
NEEDS_WEB_PEER = cmd:npm:npm
$(WEB_PEER)/node_modules/jquery.ripples/package.json:
	$(call require,$(NEEDS_WEB_PEER))
	@mkdir -p $(WEB_PEER)
	@echo "  NPM     $(WEB_PEER_PKGS)"
	$(Q)timeout 120 npm install --prefix $(WEB_PEER) --cache $(WEB_PEER)/npm-cache --no-save --no-package-lock \
	    --no-audit --no-fund --loglevel=error --fetch-retries=1 --fetch-retry-mintimeout=2000 \
	    --fetch-retry-maxtimeout=5000 --fetch-timeout=30000 $(WEB_PEER_PKGS) >$(WEB_PEER)/npm.log 2>&1 \
	  && [ -f $@ ] \
	  || { echo "bench-web-peer: cannot fetch $(WEB_PEER_PKGS) from the npm registry (no network?); npm's output: $(WEB_PEER)/npm.log" >&2; exit 1; }
bench-web-peer: web $(WEB_PEER)/node_modules/jquery.ripples/package.json
	$(call require,$(NEEDS_WEB_TEST))
	node $(NODE_WS) bench/web-peer.mjs --dir $(WEB_DIR) --peer $(WEB_PEER) $(PEER_ARGS)

# The page in a headless Chromium, both modules, against the native demo;
# the SIMD kernels against the scalar ones in node first.
WEB_EXACT = $(BUILD)/wasm/simd/web_exact.js
test-web: web web-package $(DEMO)
	$(call require,$(NEEDS_WEB_TEST))
	$(Q)$(MAKE) $(SUB) ARCH=wasm SIMD=1 BUILD=$(BUILD)/wasm/simd $(WEB_EXACT)
	sh tests/web.sh $(call cmd,$(DEMO)) $(WEB_DIR) $(WEB_EXACT) $(BUILD)/web-shots $(WEB_PKG)

