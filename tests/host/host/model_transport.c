/* model_transport.c — see model_transport.h. */
#include <stdlib.h>
#include <string.h>

#include "kohaku/hostport.h"
#include "model_transport.h"

#define MT_CAP (KHP_MAX_DATA + 64u)

static uint64_t mt_instret(void *o) { (void)o; return 0; }
static void mt_hold(void *o, bool h) { (void)o; (void)h; }
static void mt_console(void *o, uint8_t b) { (void)o; (void)b; }
static void mt_stopped(void *o, unsigned s, unsigned c, uint64_t w, uint64_t pc)
{
    (void)o; (void)s; (void)c; (void)w; (void)pc;
}

struct mt *mt_new(unsigned variant)
{
    struct mt *t = calloc(1, sizeof *t);
    struct km_config cfg = { .variant = variant == 64 ? KM_VARIANT_RV64 : KM_VARIANT_RV32, .start_held = true };
    struct km_platform p = { .opaque = t, .instret = mt_instret, .hart_hold = mt_hold,
                             .console = mt_console, .stopped = mt_stopped };
    char err[256];
    t->m = km_new(&cfg, &p, err, sizeof err);
    t->in = malloc(MT_CAP);
    t->out = malloc(MT_CAP);
    if (!t->m || !t->in || !t->out)
        abort();
    return t;
}

void mt_free(struct mt *t)
{
    km_free(t->m);
    free(t->in);
    free(t->out);
    free(t);
}

static int mt_write(void *ctx, const void *buf, size_t n, uint64_t deadline_ms)
{
    (void)deadline_ms;     /* in-process: never waits */
    struct mt *t = ctx;
    if (t->closed || n > MT_CAP - t->in_len)
        return -1;
    memcpy(t->in + t->in_len, buf, n);
    t->in_len += n;
    for (;;) {
        struct khp_req req;
        const uint8_t *data;
        size_t used = km_hp_parse(t->in, t->in_len, &req, &data);
        if (!used)
            return 0;
        /* The library reads each reply before its next request: one reply pending at most. */
        size_t r = km_hp_execute(t->m, &req, data, t->out + t->out_len, MT_CAP - t->out_len);
        t->out_len += r;
        memmove(t->in, t->in + used, t->in_len - used);
        t->in_len -= used;
        t->requests++;
        if (t->hook)
            t->hook(t, t->hook_ctx);
    }
}

static int mt_read(void *ctx, void *buf, size_t n, uint64_t deadline_ms)
{
    (void)deadline_ms;
    struct mt *t = ctx;
    if (t->closed || n > t->out_len - t->out_pos)
        return -1;
    memcpy(buf, t->out + t->out_pos, n);
    t->out_pos += n;
    if (t->out_pos == t->out_len)
        t->out_pos = t->out_len = 0;
    return 0;
}

static void mt_close(void *ctx) { (void)ctx; }

void mt_transport(struct mt *t, struct kh_transport *tr)
{
    tr->ctx = t;
    tr->write = mt_write;
    tr->read = mt_read;
    tr->close = mt_close;
}

static int mt_direct(struct mt *t, uint8_t op, uint64_t ug, const void *wbuf, void *rbuf, uint32_t len)
{
    static uint8_t out[MT_CAP];
    struct khp_req req = { .op = op, .width = 0, .tag = 0, .len = len, .addr = KHP_MEM(0, ug) };
    size_t r = km_hp_execute(t->m, &req, wbuf, out, sizeof out);
    if (r < 16 || out[1] != KHP_OK)
        return -1;
    if (rbuf)
        memcpy(rbuf, out + 16, len);
    return 0;
}

int mt_mem_read(struct mt *t, uint64_t ug, void *buf, uint32_t len)
{
    return mt_direct(t, KHP_OP_READ, ug, NULL, buf, len);
}

int mt_mem_write(struct mt *t, uint64_t ug, const void *buf, uint32_t len)
{
    return mt_direct(t, KHP_OP_WRITE, ug, buf, NULL, len);
}
