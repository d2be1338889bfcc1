/* app/args.c - parsing and checking the demo's command-line options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/args.h"
#include "ripple.h"
#include "ripple_support.h"
#include "scene/scene.h"

const char *app_usage(void)
{
    return "usage: ripple [options]\n"
           "Retro water ripples refracting a picture; plays by itself, answers the mouse.\n"
           "\n"
           "  --size WxH         field size in pixels (default 640x480, each side 3..8192)\n"
           "  --scale N          show each pixel N times larger, 1..8 (default 1)\n"
           "  --image PATH       background picture: BMP, PNG or JPEG, up to 100 megapixels\n"
           "  --walls PATH       walls from a picture fitted like the background: its dark\n"
           "                     parts (under half brightness) are solid; waves reflect\n"
           "                     off them and pass through the gaps\n"
           "  --edges MODE       edges of the water: reflect (default) or absorb (waves\n"
           "                     run out of the picture instead of bouncing back)\n"
           "  --model M          the water's rule: classic (default) or wave (the damped\n"
           "                     wave equation, with the five settings below; W switches)\n"
           "  --speed C          wave speed (default 24; with spacing 1 and dt 1/60, 0.4\n"
           "                     cells a step); c*dt/spacing must stay under 0.7071\n"
           "  --viscosity U      damping of the motion (default 1.2, u*dt = 0.02)\n"
           "  --spacing D        grid spacing (default 1)\n"
           "  --dt T             time step (default 1/60; the water steps 60 times a second\n"
           "                     whatever T is: only c*dt/spacing and u*dt shape it)\n"
           "  --attenuation A    what each step keeps, 0 < A <= 1 (default 0.985)\n"
           "  --scene S          pool (default: the top-down water) or side (a 2D game's\n"
           "                     water seen from the side, crates and balls floating in\n"
           "                     it; a field of at least 160x120); Tab switches\n"
           "  --surface M        the side scene's surface: springs (default) or waves\n"
           "                     (analytic decaying rings)\n"
           "  --stiffness K      the springs' pull to rest per step (default 0.02)\n"
           "  --damping D        the springs' damping per step (default 0.04)\n"
           "  --spread S         what each pass hands to the neighbours (default 0.05;\n"
           "                     below about 0.5, 1/3 with one pass)\n"
           "  --passes N         spread passes per step, 1..32 (default 8)\n"
           "  --ends E           the surface's ends: reflect (default), free or absorb\n"
           "  --seed N           seed of the rain, the autopilot and the show (default 1)\n"
           "  --frames N         quit after N frames\n"
           "  --headless         no window: simulate and render the frames, one step each\n"
           "                     (default 100 frames)\n"
           "  --no-rain          start with the rain off\n"
           "  --no-autopilot     start with the scripted drops (show or autopilot) off\n"
           "  --show FILE        play this show (see docs/shows.md) instead of the default\n"
           "  --no-show          the autopilot's random scenes instead of a show\n"
           "  --load-state FILE  start from a saved state (its size unless --size is given)\n"
           "  --save-state FILE  save the state after the last frame\n"
           "  --screenshot FILE  save the last frame (.png or .bmp)\n"
           "  --simd PATH        kernels: auto (default), c, mmx, sse2, avx2; or RIPPLE_SIMD\n"
           "  --threads N        threads for the water, 1..64 (default: one per processor)\n"
           "  --bpp N            framebuffer depth: 32 (XRGB8888, default), 16 (RGB565) or\n"
           "                     8 (256 colours, a palette built from the picture)\n"
           "  --benchmark        the timedemo: a fixed scene, one step per frame, vsync off,\n"
           "                     then a report with fps and a CRC of the water (default\n"
           "                     2000 frames; in a window, or with --headless)\n"
           "  --json             the --benchmark report as JSON\n"
           "  --present MODE     how frames reach the screen: auto (default), surface (the\n"
           "                     window's own pixels, no GPU) or texture (SDL's renderer);\n"
           "                     or RIPPLE_PRESENT\n"
           "  --no-overlay       start with the overlay (figures, hints) hidden; O shows it\n"
           "  --mute             start with the speakers off (M turns them on)\n"
           "  --audio-out FILE   the sound into a WAV file (16-bit stereo, 48 kHz, 1/60 s\n"
           "                     a step) instead of the speakers; works with --headless\n"
           "  --record DIR       save every step as a picture, DIR/frame-000001.png, ...\n"
           "                     (DIR must exist), to make a 60 fps video\n"
           "  --record-format F  png (default) or bmp\n"
           "  --vsync            wait for the display's refresh (default)\n"
           "  --no-vsync         render as fast as possible\n"
           "  --version          print the version\n"
           "  --help             print this help\n"
           "\n"
           "Keys: F1/H help, Space pause, N step, C reset, R rain, A show, L light,\n"
           "+/- refraction, [/] or wheel stone size, F fullscreen, S screenshot, M sound,\n"
           "W classic/wave, Z/X wave speed, V/B viscosity, Tab scene, O overlay, Esc quit.\n"
           "Side scene: click drops a body, K crate/ball/iron ball, W springs/waves,\n"
           "C clears, A autoplay.\n";
}

/* The message in a new allocation, whatever the length of the value in it. */
static int fail(char **err, const char *fmt, const char *a, const char *b)
{
    int n = snprintf(NULL, 0, fmt, a, b);
    *err = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (*err)
        snprintf(*err, (size_t)n + 1, fmt, a, b);
    return -1;
}

/* Every integer flag goes through the core's one strict parser. */
static int parse_long(const char *s, long lo, long hi, long *out)
{
    long long v;
    if (rpl_parse_int(s, lo, hi, &v) != RPL_OK)
        return -1;
    *out = (long)v;
    return 0;
}

static int has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    if (n <= e)
        return 0;
    for (size_t i = 0; i < e; i++) {
        char c = path[n - e + i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != ext[i])
            return 0;
    }
    return 1;
}

int app_parse_args(int argc, char **argv, app_opts_t *o, char **err)
{
    memset(o, 0, sizeof *o);
    o->w = 640;
    o->h = 480;
    o->scale = 1;
    o->seed = 1;
    o->frames = -1;
    o->rain = 1;
    o->autopilot = 1;
    o->vsync = 1;
    o->bpp = 32;
    o->overlay = 1;
    o->model = RPL_MODEL_CLASSIC;
    o->wave = (rpl_wave_params_t)APP_WAVE_DEFAULTS;
    o->scene = APP_SCENE_POOL;
    o->surface = RPL_SURFACE_SPRINGS;
    rpl_water_defaults(&o->springs);

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        char name[32];
        const char *val = NULL;
        const char *eq = strchr(arg, '=');
        if (strncmp(arg, "--", 2) == 0 && eq && (size_t)(eq - arg) < sizeof name) {
            memcpy(name, arg, (size_t)(eq - arg));
            name[eq - arg] = '\0';
            val = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", arg);
            if (strlen(arg) >= sizeof name)
                return fail(err, "unknown option '%s' (try --help)", arg, "");
        }

        /* options without a value */
        int *flag = NULL, set = 1;
        if (!strcmp(name, "--headless")) flag = &o->headless;
        else if (!strcmp(name, "--no-rain")) flag = &o->rain, set = 0, o->rain_set = 1;
        else if (!strcmp(name, "--no-autopilot")) flag = &o->autopilot, set = 0, o->autopilot_set = 1;
        else if (!strcmp(name, "--vsync")) flag = &o->vsync;
        else if (!strcmp(name, "--no-overlay")) flag = &o->overlay, set = 0;
        else if (!strcmp(name, "--no-vsync")) flag = &o->vsync, set = 0;
        else if (!strcmp(name, "--help") || !strcmp(name, "-h")) flag = &o->help;
        else if (!strcmp(name, "--version")) flag = &o->version;
        else if (!strcmp(name, "--benchmark")) flag = &o->benchmark;
        else if (!strcmp(name, "--json")) flag = &o->json;
        else if (!strcmp(name, "--mute")) flag = &o->mute;
        else if (!strcmp(name, "--no-show")) flag = &o->no_show;
        if (flag) {
            if (val)
                return fail(err, "option '%s' takes no value", name, "");
            *flag = set;
            continue;
        }

        /* options with a value */
        static const char *const valued[] = {
            "--size", "--scale", "--image", "--seed", "--frames",
            "--load-state", "--save-state", "--screenshot", "--simd", "--threads", "--bpp",
            "--present", "--audio-out", "--record", "--record-format", "--show",
            "--walls", "--edges", "--model", "--speed", "--viscosity", "--spacing", "--dt",
            "--attenuation", "--scene", "--surface", "--stiffness", "--damping", "--spread",
            "--passes", "--ends",
        };
        int known = 0;
        for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
            known |= !strcmp(name, valued[k]);
        if (!known)
            return fail(err, "unknown option '%s' (try --help)", arg, "");
        if (!val) {
            if (i + 1 >= argc)
                return fail(err, "option '%s' needs a value", name, "");
            val = argv[++i];
        }
        long v;
        if (!strcmp(name, "--size")) {
            if (rpl_parse_size(val, RPL_DIM_MIN, RPL_DIM_MAX, &o->w, &o->h) != RPL_OK)
                return fail(err, "bad --size '%s': want WxH, each side 3..8192", val, "");
            o->size_set = 1;
        } else if (!strcmp(name, "--scale")) {
            if (parse_long(val, 1, APP_SCALE_MAX, &v))
                return fail(err, "bad --scale '%s': want a whole number 1..8", val, "");
            o->scale = (int)v;
        } else if (!strcmp(name, "--seed")) {
            if (rpl_parse_u64(val, &o->seed) != RPL_OK)
                return fail(err, "bad --seed '%s': want a whole number 0..18446744073709551615", val, "");
            o->seed_set = 1;
        } else if (!strcmp(name, "--frames")) {
            if (parse_long(val, 1, 1000000000L, &v))
                return fail(err, "bad --frames '%s': want a whole number 1..1000000000", val, "");
            o->frames = v;
        } else if (!strcmp(name, "--threads")) {
            if (parse_long(val, 1, 64, &v))
                return fail(err, "bad --threads '%s': want a whole number 1..64", val, "");
            o->threads = (int)v;
        } else if (!strcmp(name, "--bpp")) {
            if (strcmp(val, "8") && strcmp(val, "16") && strcmp(val, "32"))
                return fail(err, "bad --bpp '%s': want 8, 16 or 32", val, "");
            o->bpp = atoi(val);
        } else if (!strcmp(name, "--present")) {
            if (strcmp(val, "auto") && strcmp(val, "surface") && strcmp(val, "texture"))
                return fail(err, "bad --present '%s': want auto, surface or texture", val, "");
            o->present = val;
        } else if (!strcmp(name, "--simd")) {
            if (strcmp(val, "auto") && strcmp(val, "c") && strcmp(val, "mmx") &&
                strcmp(val, "sse2") && strcmp(val, "avx2"))
                return fail(err, "bad --simd '%s': want auto, c, mmx, sse2 or avx2", val, "");
            o->simd = strcmp(val, "auto") ? val : NULL;
        } else if (!strcmp(name, "--edges")) {
            if (strcmp(val, "reflect") && strcmp(val, "absorb"))
                return fail(err, "bad --edges '%s': want reflect or absorb", val, "");
            o->edges = val;
        } else if (!strcmp(name, "--model")) {
            if (strcmp(val, "classic") && strcmp(val, "wave"))
                return fail(err, "bad --model '%s': want classic or wave", val, "");
            o->model = strcmp(val, "wave") ? RPL_MODEL_CLASSIC : RPL_MODEL_WAVE;
            o->model_set = 1;
        } else if (!strcmp(name, "--speed") || !strcmp(name, "--viscosity") ||
                   !strcmp(name, "--spacing") || !strcmp(name, "--dt") ||
                   !strcmp(name, "--attenuation")) {
            double d;
            /* any finite number here; rpl_wave_info judges them together below */
            if (rpl_parse_real(val, -1e300, 1e300, &d) != RPL_OK)
                return fail(err, "bad %s '%s': want a finite decimal number", name, val);
            double *to = !strcmp(name, "--speed")       ? &o->wave.speed
                         : !strcmp(name, "--viscosity") ? &o->wave.viscosity
                         : !strcmp(name, "--spacing")   ? &o->wave.spacing
                         : !strcmp(name, "--dt")        ? &o->wave.dt
                                                        : &o->wave.attenuation;
            *to = d;
            o->wave_set = 1;
        } else if (!strcmp(name, "--scene")) {
            if (strcmp(val, "pool") && strcmp(val, "side"))
                return fail(err, "bad --scene '%s': want pool or side", val, "");
            o->scene = strcmp(val, "side") ? APP_SCENE_POOL : APP_SCENE_SIDE;
            o->scene_set = 1;
        } else if (!strcmp(name, "--surface")) {
            if (strcmp(val, "springs") && strcmp(val, "waves"))
                return fail(err, "bad --surface '%s': want springs or waves", val, "");
            o->surface = strcmp(val, "waves") ? RPL_SURFACE_SPRINGS : RPL_SURFACE_WAVES;
        } else if (!strcmp(name, "--ends")) {
            if (strcmp(val, "reflect") && strcmp(val, "free") && strcmp(val, "absorb"))
                return fail(err, "bad --ends '%s': want reflect, free or absorb", val, "");
            o->springs.ends = !strcmp(val, "free") ? RPL_ENDS_FREE
                              : !strcmp(val, "absorb") ? RPL_ENDS_ABSORB : RPL_ENDS_REFLECT;
            o->springs_set = 1;
        } else if (!strcmp(name, "--passes")) {
            if (parse_long(val, 1, RPL_PASSES_MAX, &v))
                return fail(err, "bad --passes '%s': want a whole number 1..32", val, "");
            o->springs.passes = (int)v;
            o->springs_set = 1;
        } else if (!strcmp(name, "--stiffness") || !strcmp(name, "--damping") ||
                   !strcmp(name, "--spread")) {
            double d;
            /* any finite number here; rpl_water_check judges them together below */
            if (rpl_parse_real(val, -1e300, 1e300, &d) != RPL_OK)
                return fail(err, "bad %s '%s': want a finite decimal number", name, val);
            *(!strcmp(name, "--stiffness") ? &o->springs.stiffness
              : !strcmp(name, "--damping") ? &o->springs.damping : &o->springs.spread) = d;
            o->springs_set = 1;
        } else if (!strcmp(name, "--record-format")) {
            if (strcmp(val, "png") && strcmp(val, "bmp"))
                return fail(err, "bad --record-format '%s': want png or bmp", val, "");
            o->record_format = val;
        } else if (!*val) {
            return fail(err, "option '%s' needs a file name", name, "");
        } else if (!strcmp(name, "--image")) {
            o->image = val;
        } else if (!strcmp(name, "--walls")) {
            o->walls = val;
        } else if (!strcmp(name, "--load-state")) {
            o->load_state = val;
        } else if (!strcmp(name, "--save-state")) {
            o->save_state = val;
        } else if (!strcmp(name, "--screenshot")) {
            if (!has_ext(val, ".png") && !has_ext(val, ".bmp"))
                return fail(err, "bad --screenshot '%s': the name must end in .png or .bmp", val, "");
            o->screenshot = val;
        } else if (!strcmp(name, "--audio-out")) {
            o->audio_out = val;
        } else if (!strcmp(name, "--record")) {
            o->record = val;
        } else if (!strcmp(name, "--show")) {
            o->show = val;
        }
    }
    /* headless there is no window: the scale does not matter */
    if (!o->headless &&
        ((long)o->w * o->scale > APP_WINDOW_MAX || (long)o->h * o->scale > APP_WINDOW_MAX)) {
        char a[64];
        snprintf(a, sizeof a, "%dx%d times %d", o->w, o->h, o->scale);
        return fail(err, "window too large: %s is over %s pixels a side", a, "16384");
    }
    if (o->benchmark) {
        /* the timedemo's scene is fixed, so figures compare across machines */
        const char *clash = o->seed_set ? "--seed" : o->load_state ? "--load-state"
                          : o->rain_set ? "--no-rain" : o->autopilot_set ? "--no-autopilot"
                          : o->show ? "--show" : o->no_show ? "--no-show"
                          : o->walls ? "--walls" : o->edges ? "--edges"
                          : o->model == RPL_MODEL_WAVE ? "--model wave"
                          : o->scene == APP_SCENE_SIDE ? "--scene side" : NULL;
        if (clash)
            return fail(err, "%s does not go with --benchmark: it plays a fixed scene%s", clash, "");
        const char *out = o->audio_out ? "--audio-out" : o->record ? "--record" : NULL;
        if (out)
            return fail(err, "%s does not go with --benchmark: it measures frames, not steps%s",
                        out, "");
        if (o->frames < 0)
            o->frames = TIMEDEMO_FRAMES_DEFAULT;
        o->vsync = 0;
    } else if (o->json) {
        return fail(err, "--json goes with --benchmark%s%s", "", "");
    }
    if (o->show && o->no_show)
        return fail(err, "--show and --no-show do not go together%s%s", "", "");
    /* the wave settings are checked together even for classic water: W
     * switches to them */
    rpl_wave_info_t wi;
    if (rpl_wave_info(&o->wave, &wi) != RPL_OK)
        return fail(err, "bad wave settings: %s%s", wi.why, "");
    /* the default show sets walls and edges of its own from its first
     * step: walls or edges asked for play with the autopilot instead
     * (a show asked for by name plays, and its commands change them) */
    if ((o->walls || o->edges) && !o->show)
        o->no_show = 1;
    /* the springs' settings too: Tab and W reach them from any start */
    char why[160];
    if (rpl_water_check(&o->springs, why, sizeof why) != RPL_OK)
        return fail(err, "bad spring settings: %s%s", why, "");
    if (o->scene == APP_SCENE_SIDE) {
        /* the pool's state, walls and show have no meaning in the side view */
        const char *clash = o->load_state ? "--load-state" : o->save_state ? "--save-state"
                          : o->walls ? "--walls" : o->show ? "--show" : o->record ? "--record"
                          : NULL;
        if (clash)
            return fail(err, "%s does not go with --scene side: it is the pool's%s", clash, "");
        if (o->w < SIDE_W_MIN || o->h < SIDE_H_MIN) {
            char a[64], b[32];
            snprintf(a, sizeof a, "%dx%d", SIDE_W_MIN, SIDE_H_MIN);
            snprintf(b, sizeof b, "%dx%d", o->w, o->h);
            return fail(err, "--scene side needs a field of at least %s (--size is %s)", a, b);
        }
    }
    if (o->record_format && !o->record)
        return fail(err, "--record-format goes with --record%s%s", "", "");
    if (!o->record_format)
        o->record_format = "png";
    if (o->headless && o->frames < 0)
        o->frames = 100;
    return 0;
}
