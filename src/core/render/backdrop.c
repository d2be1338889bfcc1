/* core/render/backdrop.c - backgrounds prepared per framebuffer format: RGB565 conversion, the INDEX8
 * palette (median cut), the nearest-colour mapping and the INDEX8 shade table. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/render/render.h"
#include "kernels/scalar.h"

int rpl_format_bytes(rpl_format format)
{
    switch (format) {
    case RPL_XRGB8888: return 4;
    case RPL_RGB565: return 2;
    case RPL_INDEX8: return 1;
    }
    return 0;
}

/* ---- RGB565 ------------------------------------------------------------- */

/* Each channel to the nearest level of its width (see ripple.h). */
static uint16_t to_rgb565(uint32_t px)
{
    unsigned r = (px >> 16) & 0xFF, g = (px >> 8) & 0xFF, b = px & 0xFF;
    return (uint16_t)(((r * 31 + 127) / 255) << 11 | ((g * 63 + 127) / 255) << 5 |
                      (b * 31 + 127) / 255);
}

/* ---- INDEX8: the palette ---------------------------------------------- */

/* Pictures of at most 256 colours keep them all.  Counts the distinct
 * colours (R, G, B) into out[] (sorted ascending) and returns how many,
 * or 0 as soon as there are more than 256. */
static int small_palette(const uint32_t *px, size_t n, uint32_t *out)
{
    enum { SLOTS = 1024 }; /* a quarter full at most: short probes */
    uint32_t set[SLOTS];
    int count = 0;
    uint32_t last = 0xFFFFFFFFu;
    memset(set, 0xFF, sizeof set); /* 0xFFFFFFFF: empty (no colour has a top byte) */
    for (size_t i = 0; i < n; i++) {
        uint32_t c = px[i] & 0xFFFFFFu;
        if (c == last)
            continue;
        last = c;
        unsigned h = (c * 2654435761u) >> 22;
        while (set[h] != 0xFFFFFFFFu && set[h] != c)
            h = (h + 1) & (SLOTS - 1);
        if (set[h] == c)
            continue;
        if (count == 256)
            return 0;
        set[h] = c;
        out[count++] = c;
    }
    /* insertion sort: at most 256 entries */
    for (int i = 1; i < count; i++) {
        uint32_t v = out[i];
        int j = i;
        for (; j > 0 && out[j - 1] > v; j--)
            out[j] = out[j - 1];
        out[j] = v;
    }
    return count;
}

/*
 * Median cut.  Pixels go into a histogram of 6 bits per channel; the
 * nonempty bins are the points to cut, weighted by their pixel counts.
 * Squared errors are measured in bin units with integers only, so every
 * machine makes the same cuts.
 */
#define HBITS 6
#define HSIDE (1 << HBITS)

typedef struct hbin {
    uint32_t key;         /* r6 << 12 | g6 << 6 | b6 */
    uint32_t count;
    uint64_t sum[3];      /* of the pixels' R, G, B (8-bit values) */
} hbin_t;

typedef struct box {
    size_t lo, hi;        /* its bins: order[lo..hi) */
    uint64_t n;           /* pixels */
    uint64_t sse[3];      /* squared error along R, G, B */
} box_t;

static unsigned bin_coord(uint32_t key, int axis)
{
    return (key >> (HBITS * (2 - axis))) & (HSIDE - 1);
}

/* floor(S2 - S1^2 / n): the squared error of n values of sum S1 and sum
 * of squares S2.  S1 < 2^32 and n <= 2^26, so S1 * r < 2^58 cannot
 * overflow. */
static uint64_t sq_error(uint64_t n, uint64_t s1, uint64_t s2)
{
    if (n == 0)
        return 0;
    uint64_t q = s1 / n, r = s1 % n;
    return s2 - s1 * q - s1 * r / n;
}

static void box_measure(box_t *b, const hbin_t *bins, const uint32_t *order)
{
    uint64_t s1[3] = { 0, 0, 0 }, s2[3] = { 0, 0, 0 };
    b->n = 0;
    for (size_t i = b->lo; i < b->hi; i++) {
        const hbin_t *h = &bins[order[i]];
        b->n += h->count;
        for (int a = 0; a < 3; a++) {
            uint64_t v = bin_coord(h->key, a);
            s1[a] += v * h->count;
            s2[a] += v * v * h->count;
        }
    }
    for (int a = 0; a < 3; a++)
        b->sse[a] = sq_error(b->n, s1[a], s2[a]);
}

static uint64_t box_score(const box_t *b)
{
    return b->sse[0] + b->sse[1] + b->sse[2];
}

/* Splits box b along its axis of largest squared error where the two
 * halves' errors along it sum least (ties: the lower cut); the upper half
 * goes to *nb. */
static void box_split(box_t *b, box_t *nb, const hbin_t *bins, uint32_t *order)
{
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (b->sse[a] > b->sse[axis])
            axis = a;
    uint64_t cnt[HSIDE] = { 0 };
    for (size_t i = b->lo; i < b->hi; i++)
        cnt[bin_coord(bins[order[i]].key, axis)] += bins[order[i]].count;
    uint64_t tn = 0, t1 = 0, t2 = 0;
    for (uint64_t v = 0; v < HSIDE; v++)
        tn += cnt[v], t1 += cnt[v] * v, t2 += cnt[v] * v * v;
    uint64_t ln = 0, l1 = 0, l2 = 0, best = UINT64_MAX;
    unsigned cut = 0;
    for (uint64_t v = 0; v + 1 < HSIDE; v++) {
        ln += cnt[v], l1 += cnt[v] * v, l2 += cnt[v] * v * v;
        if (ln == 0 || ln == tn)
            continue;
        uint64_t e = sq_error(ln, l1, l2) + sq_error(tn - ln, t1 - l1, t2 - l2);
        if (e < best)
            best = e, cut = (unsigned)v;
    }
    /* bins with coordinate <= cut first (both sides are nonempty) */
    size_t i = b->lo, j = b->hi;
    while (i < j) {
        if (bin_coord(bins[order[i]].key, axis) <= cut) {
            i++;
        } else {
            uint32_t t = order[i];
            order[i] = order[--j];
            order[j] = t;
        }
    }
    nb->lo = i, nb->hi = b->hi;
    b->hi = i;
    box_measure(b, bins, order);
    box_measure(nb, bins, order);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The histogram's bin of colour c. */
#define BIN_OF(c) (((c) >> 18 & 0x3F) << 12 | ((c) >> 10 & 0x3F) << 6 | ((c) >> 2 & 0x3F))
#define NBINS ((size_t)1 << (3 * HBITS))

static int cut_bins(hbin_t *bins, uint32_t *order, size_t nb, uint32_t *pal);

/* At most 256 colours for the picture into pal[] (sorted ascending);
 * returns how many, or 0 when out of memory. */
static int median_cut(const uint32_t *px, size_t n, uint32_t *pal)
{
    uint32_t *slot = calloc((size_t)1 << (3 * HBITS), sizeof *slot);
    hbin_t *bins = NULL;
    uint32_t *order = NULL;
    int nbox = 0;
    if (!slot)
        return 0;
    /* count, then number the nonempty bins (slot then holds index + 1) */
    for (size_t i = 0; i < n; i++) {
        uint32_t c = px[i];
        slot[BIN_OF(c)]++;
    }
    size_t nb = 0;
    for (size_t k = 0; k < (size_t)1 << (3 * HBITS); k++)
        nb += slot[k] != 0;
    bins = calloc(nb, sizeof *bins);
    order = malloc(nb * sizeof *order);
    if (!bins || !order)
        goto out;
    nb = 0;
    for (size_t k = 0; k < (size_t)1 << (3 * HBITS); k++)
        if (slot[k]) {
            bins[nb].key = (uint32_t)k;
            order[nb] = (uint32_t)nb;
            slot[k] = (uint32_t)++nb;
        }
    for (size_t i = 0; i < n; i++) {
        uint32_t c = px[i];
        hbin_t *h = &bins[slot[BIN_OF(c)] - 1];
        h->count++;
        h->sum[0] += c >> 16 & 0xFF;
        h->sum[1] += c >> 8 & 0xFF;
        h->sum[2] += c & 0xFF;
    }
    nbox = cut_bins(bins, order, nb, pal);
out:
    free(slot);
    free(bins);
    free(order);
    return nbox;
}

/* The cuts of the nonempty bins[0..nb) (in ascending order of key, order[]
 * their indices in that order: both are used up) into pal[]; returns how
 * many colours. */
static int cut_bins(hbin_t *bins, uint32_t *order, size_t nb, uint32_t *pal)
{
    int nbox;
    box_t boxes[256];
    boxes[0].lo = 0, boxes[0].hi = nb;
    box_measure(&boxes[0], bins, order);
    nbox = 1;
    while (nbox < 256) {
        int pick = -1;
        uint64_t top = 0;
        for (int b = 0; b < nbox; b++)
            if (box_score(&boxes[b]) > top)
                top = box_score(&boxes[b]), pick = b;
        if (pick < 0)
            break; /* every box is a single bin */
        box_split(&boxes[pick], &boxes[nbox], bins, order);
        nbox++;
    }
    for (int b = 0; b < nbox; b++) {
        uint64_t s[3] = { 0, 0, 0 }, cnt = boxes[b].n;
        for (size_t i = boxes[b].lo; i < boxes[b].hi; i++)
            for (int a = 0; a < 3; a++)
                s[a] += bins[order[i]].sum[a];
        uint32_t c = 0;
        for (int a = 0; a < 3; a++)
            c = c << 8 | (uint32_t)((2 * s[a] + cnt) / (2 * cnt)); /* rounded mean */
        pal[b] = c;
    }
    qsort(pal, (size_t)nbox, sizeof *pal, cmp_u32);
    return nbox;
}

/* ---- INDEX8: nearest entries ------------------------------------------- */

/*
 * Exact nearest palette entry (least squared R, G, B distance, ties to the
 * lowest index), sped up by candidate lists: colour space is cut into
 * 32 x 32 x 32 cells of 8 x 8 x 8 colours, and a cell's list, made when a
 * colour first falls in it, holds every entry whose distance to the
 * nearest point of the cell is at most the least distance any entry has to
 * the cell's farthest point.  The nearest entry of any colour in the cell
 * is then in the list, which is in ascending order of index.
 */
#define CELLS (32 * 32 * 32)

typedef struct nearest {
    const uint32_t *pal;
    int n;                /* entries in use */
    int32_t *start;       /* per cell: offset into cand, -1 until made */
    uint16_t *len;        /* per cell: entries in its list */
    uint8_t *cand;
    size_t ncand, cap;
    int oom;
} nearest_t;

static int chan(uint32_t c, int a)
{
    return (int)(c >> (16 - 8 * a) & 0xFF);
}

static void make_cell(nearest_t *nr, int cell)
{
    int lo[3] = { (cell >> 10) * 8, (cell >> 5 & 31) * 8, (cell & 31) * 8 };
    int mind[256], bound = INT32_MAX;
    for (int e = 0; e < nr->n; e++) {
        int dmin = 0, dmax = 0;
        for (int a = 0; a < 3; a++) {
            int v = chan(nr->pal[e], a), l = lo[a], h = lo[a] + 7;
            int m = v < l ? l - v : v > h ? v - h : 0;
            int f = v - l > h - v ? v - l : h - v;
            dmin += m * m;
            dmax += f * f;
        }
        mind[e] = dmin;
        if (dmax < bound)
            bound = dmax;
    }
    if (nr->ncand + (size_t)nr->n > nr->cap) {
        size_t cap = nr->cap ? 2 * nr->cap : 65536;
        while (cap < nr->ncand + (size_t)nr->n)
            cap *= 2;
        uint8_t *c = realloc(nr->cand, cap);
        if (!c) {
            nr->oom = 1;
            return;
        }
        nr->cand = c;
        nr->cap = cap;
    }
    nr->start[cell] = (int32_t)nr->ncand;
    for (int e = 0; e < nr->n; e++)
        if (mind[e] <= bound)
            nr->cand[nr->ncand++] = (uint8_t)e;
    nr->len[cell] = (uint16_t)(nr->ncand - (size_t)nr->start[cell]);
}

/* The nearest entry to colour c (0xRRGGBB); 0 when out of memory (then
 * nr->oom is set). */
static uint8_t nearest_entry(nearest_t *nr, uint32_t c)
{
    int r = chan(c, 0), g = chan(c, 1), b = chan(c, 2);
    int cell = (r >> 3) << 10 | (g >> 3) << 5 | b >> 3;
    if (nr->start[cell] < 0) {
        make_cell(nr, cell);
        if (nr->oom)
            return 0;
    }
    const uint8_t *list = nr->cand + nr->start[cell];
    int best = INT32_MAX, idx = 0;
    for (int k = 0; k < nr->len[cell]; k++) {
        uint32_t p = nr->pal[list[k]];
        int dr = r - chan(p, 0), dg = g - chan(p, 1), db = b - chan(p, 2);
        int d = dr * dr + dg * dg + db * db;
        if (d < best)
            best = d, idx = list[k];
    }
    return (uint8_t)idx;
}

/* The palette of pal[0..colors) into the backdrop: entries past colors
 * repeat the last. */
static void palette_of(uint32_t out[256], const uint32_t *pal, int colors)
{
    for (int e = 0; e < 256; e++)
        out[e] = 0xFF000000u | pal[e < colors ? e : colors - 1];
}

/* The colours of the picture's rows [y0, y1), cells [x0, x1), mapped to
 * their nearest entries. */
static void map_rect(nearest_t *nr, const uint32_t *xrgb, uint8_t *idx, int w, int x0, int y0,
                     int x1, int y1)
{
    uint32_t last = 0xFFFFFFFFu;
    uint8_t last_idx = 0;
    for (int y = y0; y < y1 && !nr->oom; y++) {
        const uint32_t *src = xrgb + (size_t)y * (size_t)w;
        uint8_t *dst = idx + (size_t)y * (size_t)w;
        for (int x = x0; x < x1; x++) {
            uint32_t c = src[x] & 0xFFFFFFu;
            if (c != last)
                last = c, last_idx = nearest_entry(nr, c);
            dst[x] = last_idx;
        }
    }
}

static void make_shade(rpl_backdrop_t *bd, nearest_t *nr)
{
    for (int q = -RPL_SHADE_STEPS; q <= RPL_SHADE_STEPS && !nr->oom; q++) {
        uint8_t *row = bd->shade + (size_t)(q + RPL_SHADE_STEPS) * 256;
        for (int e = 0; e < 256; e++)
            row[e] = q == 0 ? (uint8_t)e
                            : nearest_entry(nr, rpl_shade(bd->palette[e], 4 * q) & 0xFFFFFFu);
    }
}

/* Palette, indices and shade table of an INDEX8 backdrop. */
static rpl_status build_index8(rpl_backdrop_t *bd, const uint32_t *xrgb)
{
    size_t n = (size_t)bd->w * (size_t)bd->h;
    uint32_t pal[256];
    int colors = small_palette(xrgb, n, pal);
    if (colors == 0)
        colors = median_cut(xrgb, n, pal);
    if (colors == 0)
        return RPL_ENOMEM;
    palette_of(bd->palette, pal, colors);
    bd->colors = colors;

    nearest_t nr = { bd->palette, colors, NULL, NULL, NULL, 0, 0, 0 };
    nr.start = malloc(CELLS * sizeof *nr.start);
    nr.len = malloc(CELLS * sizeof *nr.len);
    bd->px = malloc(n);
    bd->shade = malloc((size_t)RPL_SHADE_LEVELS * 256);
    rpl_status st = RPL_ENOMEM;
    if (!nr.start || !nr.len || !bd->px || !bd->shade)
        goto out;
    memset(nr.start, 0xFF, CELLS * sizeof *nr.start);
    map_rect(&nr, xrgb, bd->px, bd->w, 0, 0, bd->w, bd->h);
    make_shade(bd, &nr);
    st = nr.oom ? RPL_ENOMEM : RPL_OK;
out:
    free(nr.start);
    free(nr.len);
    free(nr.cand);
    return st;
}

/* ---- INDEX8: updates in place -------------------------------------------- */

/*
 * The palette is made from the whole picture, so a change anywhere may
 * change it.  What the first update keeps lets the next ones find the
 * palette again without reading the whole picture: the picture as given
 * and its histogram, kept up to date by the changed rectangle.  While the
 * palette stays the same only the rectangle is mapped again, with the
 * nearest entries found so far; when it changes, every pixel and the
 * shade table are, as rpl_backdrop_create would.
 */
struct rpl_backdrop_edit {
    uint32_t *pic;        /* w*h: the picture the backdrop shows */
    uint32_t *count;      /* NBINS: its pixels in each bin */
    uint64_t (*sum)[3];   /* NBINS: their R, G, B sums */
    size_t used;          /* bins with a pixel */
    nearest_t nr;         /* the palette's nearest entries, kept while it holds */
};

static void edit_free(struct rpl_backdrop_edit *e)
{
    if (!e)
        return;
    free(e->pic);
    free(e->count);
    free(e->sum);
    free(e->nr.start);
    free(e->nr.len);
    free(e->nr.cand);
    free(e);
}

/* What a backdrop holds besides itself, freed (a failed update keeps
 * only its message; destroy frees the rest). */
static void release(rpl_backdrop_t *bd)
{
    free(bd->px);
    free(bd->shade);
    edit_free(bd->edit);
    bd->px = NULL;
    bd->shade = NULL;
    bd->edit = NULL;
}

static void hist_add(struct rpl_backdrop_edit *e, uint32_t c)
{
    size_t b = BIN_OF(c);
    e->used += e->count[b]++ == 0;
    e->sum[b][0] += c >> 16 & 0xFF;
    e->sum[b][1] += c >> 8 & 0xFF;
    e->sum[b][2] += c & 0xFF;
}

static void hist_remove(struct rpl_backdrop_edit *e, uint32_t c)
{
    size_t b = BIN_OF(c);
    e->used -= --e->count[b] == 0;
    e->sum[b][0] -= c >> 16 & 0xFF;
    e->sum[b][1] -= c >> 8 & 0xFF;
    e->sum[b][2] -= c & 0xFF;
}

/* The edit state of bd's picture, now xrgb; NULL when out of memory. */
static struct rpl_backdrop_edit *edit_new(const rpl_backdrop_t *bd, const uint32_t *xrgb)
{
    size_t n = (size_t)bd->w * (size_t)bd->h;
    struct rpl_backdrop_edit *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->pic = malloc(n * sizeof *e->pic);
    e->count = calloc(NBINS, sizeof *e->count);
    e->sum = calloc(NBINS, sizeof *e->sum);
    e->nr.start = malloc(CELLS * sizeof *e->nr.start);
    e->nr.len = malloc(CELLS * sizeof *e->nr.len);
    if (!e->pic || !e->count || !e->sum || !e->nr.start || !e->nr.len) {
        edit_free(e);
        return NULL;
    }
    memcpy(e->pic, xrgb, n * sizeof *e->pic);
    for (size_t i = 0; i < n; i++)
        hist_add(e, xrgb[i]);
    return e;
}

/* The median cut of the kept histogram: median_cut's bins, in the same
 * order, so the same palette. */
static int cut_hist(const struct rpl_backdrop_edit *e, uint32_t *pal)
{
    hbin_t *bins = malloc(e->used * sizeof *bins);
    uint32_t *order = malloc(e->used * sizeof *order);
    int colors = 0;
    if (bins && order) {
        size_t nb = 0;
        for (size_t k = 0; k < NBINS; k++)
            if (e->count[k]) {
                bins[nb] = (hbin_t){ (uint32_t)k, e->count[k],
                                     { e->sum[k][0], e->sum[k][1], e->sum[k][2] } };
                order[nb] = (uint32_t)nb;
                nb++;
            }
        colors = cut_bins(bins, order, nb, pal);
    }
    free(bins);
    free(order);
    return colors;
}

/* The nearest entries of the palette now in bd, none found yet. */
static void nearest_reset(nearest_t *nr, const rpl_backdrop_t *bd)
{
    nr->pal = bd->palette;
    nr->n = bd->colors;
    nr->ncand = 0;
    nr->oom = 0;
    memset(nr->start, 0xFF, CELLS * sizeof *nr->start);
}

static atomic_uint backdrop_serial;

static void new_id(rpl_backdrop_t *bd)
{
    do
        bd->id = atomic_fetch_add(&backdrop_serial, 1u) + 1u;
    while (bd->id == 0);
}

static rpl_status update_index8(rpl_backdrop_t *bd, const uint32_t *xrgb, int x0, int y0, int x1,
                                int y1)
{
    struct rpl_backdrop_edit *e = bd->edit;
    size_t n = (size_t)bd->w * (size_t)bd->h;
    if (!e) {
        e = bd->edit = edit_new(bd, xrgb);
        if (!e)
            return RPL_ENOMEM;
        nearest_reset(&e->nr, bd);
    } else {
        for (int y = y0; y < y1; y++) {
            size_t at = (size_t)y * (size_t)bd->w;
            for (int x = x0; x < x1; x++) {
                uint32_t was = e->pic[at + x], now = xrgb[at + x];
                if (was == now)
                    continue;
                hist_remove(e, was);
                hist_add(e, now);
                e->pic[at + x] = now;
            }
        }
    }
    /* as build_index8 finds it: more than 256 bins hold more than 256 colours */
    uint32_t pal[256], full[256];
    int colors = e->used <= 256 ? small_palette(e->pic, n, pal) : 0;
    if (colors == 0)
        colors = cut_hist(e, pal);
    if (colors == 0)
        return RPL_ENOMEM;
    palette_of(full, pal, colors);
    if (colors == bd->colors && memcmp(full, bd->palette, sizeof full) == 0) {
        map_rect(&e->nr, e->pic, bd->px, bd->w, x0, y0, x1, y1);
    } else {
        memcpy(bd->palette, full, sizeof full);
        bd->colors = colors;
        nearest_reset(&e->nr, bd);
        map_rect(&e->nr, e->pic, bd->px, bd->w, 0, 0, bd->w, bd->h);
        make_shade(bd, &e->nr);
        new_id(bd); /* every pixel may differ: a renderer draws it all */
    }
    return e->nr.oom ? RPL_ENOMEM : RPL_OK;
}

/* ---- the API ------------------------------------------------------------ */

/* A backdrop that can be drawn: created whole (a failed handle only
 * reports its error and is destroyed). */
static int usable(const rpl_backdrop_t *bd)
{
    return bd && bd->px;
}

rpl_status rpl_backdrop_create(const uint32_t *xrgb, int w, int h, rpl_format format,
                               rpl_backdrop_t **out)
{
    if (!out)
        return RPL_EINVAL;
    rpl_backdrop_t *bd = *out = calloc(1, sizeof *bd);
    if (!bd)
        return RPL_ENOMEM;
    if (!xrgb)
        return rpl_err_set(&bd->err, RPL_EINVAL, "no picture (NULL)");
    if (w < RPL_DIM_MIN || w > RPL_DIM_MAX || h < RPL_DIM_MIN || h > RPL_DIM_MAX)
        return rpl_err_set(&bd->err, RPL_EINVAL, "picture size %dx%d: each side must be %d..%d",
                           w, h, RPL_DIM_MIN, RPL_DIM_MAX);
    if (rpl_format_bytes(format) == 0)
        return rpl_err_set(&bd->err, RPL_EINVAL, "unknown format %d", (int)format);
    rpl_status st;
    size_t n = (size_t)w * (size_t)h;
    bd->format = format;
    if (format == RPL_XRGB8888) {
        bd->px = malloc(n * sizeof *xrgb);
        if (bd->px)
            memcpy(bd->px, xrgb, n * sizeof *xrgb);
        st = bd->px ? RPL_OK : RPL_ENOMEM;
    } else if (format == RPL_RGB565) {
        uint16_t *p = malloc(n * sizeof *p);
        if (p)
            for (size_t i = 0; i < n; i++)
                p[i] = to_rgb565(xrgb[i]);
        bd->px = p;
        st = p ? RPL_OK : RPL_ENOMEM;
    } else {
        bd->w = w; /* build_index8 reads the size */
        bd->h = h;
        st = build_index8(bd, xrgb);
    }
    if (st != RPL_OK) {
        /* a failed backdrop keeps nothing but its message */
        free(bd->px);
        free(bd->shade);
        bd->px = NULL;
        bd->shade = NULL;
        bd->w = bd->h = 0;
        bd->format = RPL_XRGB8888;
        return rpl_err_set(&bd->err, st, "%s for a %dx%d backdrop", rpl_strerror(st), w, h);
    }
    bd->w = w;
    bd->h = h;
    new_id(bd);
    return RPL_OK;
}

rpl_status rpl_backdrop_update(rpl_backdrop_t *bd, const uint32_t *xrgb, int x, int y, int w,
                               int h)
{
    if (!usable(bd) || !xrgb || w < 0 || h < 0)
        return RPL_EINVAL;
    /* clipped to the picture, in 64-bit so no sum overflows */
    long long x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
    long long x1 = (long long)x + w, y1 = (long long)y + h;
    x1 = x1 > bd->w ? bd->w : x1;
    y1 = y1 > bd->h ? bd->h : y1;
    if (x1 <= x0 || y1 <= y0)
        return RPL_OK;
    rpl_status st = RPL_OK;
    for (long long r = y0; r < y1 && bd->format != RPL_INDEX8; r++) {
        size_t at = (size_t)r * (size_t)bd->w + (size_t)x0, len = (size_t)(x1 - x0);
        if (bd->format == RPL_XRGB8888) {
            memcpy((uint32_t *)bd->px + at, xrgb + at, len * sizeof *xrgb);
        } else {
            uint16_t *p = (uint16_t *)bd->px + at;
            for (size_t i = 0; i < len; i++)
                p[i] = to_rgb565(xrgb[at + i]);
        }
    }
    if (bd->format == RPL_INDEX8)
        st = update_index8(bd, xrgb, (int)x0, (int)y0, (int)x1, (int)y1);
    if (st != RPL_OK) {
        /* part done: as a failed backdrop, it keeps nothing but its message */
        int bw = bd->w, bh = bd->h;
        release(bd);
        bd->w = bd->h = 0;
        bd->format = RPL_XRGB8888;
        return rpl_err_set(&bd->err, st, "%s updating a %dx%d backdrop", rpl_strerror(st), bw, bh);
    }
    return RPL_OK;
}

void rpl_backdrop_destroy(rpl_backdrop_t *bd)
{
    if (!bd)
        return;
    release(bd);
    free(bd);
}

const char *rpl_backdrop_error(const rpl_backdrop_t *bd)
{
    return bd ? rpl_err_text(&bd->err) : "no backdrop (NULL)";
}

rpl_format rpl_backdrop_format(const rpl_backdrop_t *bd)
{
    return usable(bd) ? bd->format : RPL_XRGB8888;
}

void rpl_backdrop_size(const rpl_backdrop_t *bd, int *w, int *h)
{
    if (w)
        *w = usable(bd) ? bd->w : 0;
    if (h)
        *h = usable(bd) ? bd->h : 0;
}

const void *rpl_backdrop_pixels(const rpl_backdrop_t *bd)
{
    return usable(bd) ? bd->px : NULL;
}

const uint32_t *rpl_backdrop_palette(const rpl_backdrop_t *bd)
{
    return usable(bd) && bd->format == RPL_INDEX8 ? bd->palette : NULL;
}

int rpl_backdrop_colors(const rpl_backdrop_t *bd)
{
    return usable(bd) && bd->format == RPL_INDEX8 ? bd->colors : 0;
}

const uint8_t *rpl_backdrop_shade_table(const rpl_backdrop_t *bd)
{
    return usable(bd) && bd->format == RPL_INDEX8 ? bd->shade : NULL;
}
