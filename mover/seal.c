/* seal.c — sealed moves (kmv.h "Sealed moves", docs/mover.md): building them from a validated
 * list (RECORD, service/record.c) and checking them without the mover (a RUN's REPLAY_H step,
 * service/kq_check_cold.c). Pure: host builds test it as it is; the boards that seal (RV64)
 * replay with mover/rv64/sealed.c. */
#include "kmv.h"

#define LANES  KMV_SEAL_LANES

/* Kept in a sealed move: every write but a CTRL write without GO (kmv.h). */
static int kept(const struct kd_write *w)
{
    return w->off != KMV_REG_CTRL;
}

uint32_t kmv_seal(volatile uint64_t *img, const struct kd_write *w, uint32_t n, uint32_t *moves)
{
    uint32_t words = 0, a = 0, e = 0;
    *moves = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!kd_is_go(&w[i])) {
            e += kept(&w[i]);
            continue;
        }
        uint32_t mw = kmv_seal_move_words(e), skip = (0u - e) & (LANES - 1u), l = skip;
        words += mw;
        ++*moves;
        if (img) {
            uint64_t go = kd_value(&w[i]), offs = 0, s;
            uint32_t mode = (uint32_t)KBF_FIELD_GET(KMV_CTRL_MODE, go);
            volatile uint64_t *grp = 0;             /* the group being filled: its offsets word */
            s = *img++ = (uint64_t)(i - a) | (uint64_t)(mw - 3u) * 8u << 32 | (uint64_t)skip << 60 |   /* [63:57]: 8 x skip */
                         (mode == KMV_MODE_FILL || mode == KMV_MODE_GENERATE || mode == KMV_MODE_XFORM
                              ? KMV_SEAL_SPECIAL : 0);
            for (uint32_t j = a; j < i; j++) {
                if (!kept(&w[j]))
                    continue;
                if (!grp || l == LANES) {           /* a group starts: its two words first */
                    if (grp)
                        grp[0] = offs, grp[1] = ~offs, l = 0;   /* the first began at skip */
                    grp = img, img += 2, offs = 0;
                    s += ~UINT64_C(0);              /* offs + ~offs */
                }
                uint64_t v = kd_value(&w[j]);
                offs |= (uint64_t)((w[j].off >> 3) & 0xFu) << (4u * l++);
                *img++ = v;
                s += v;
            }
            if (grp)
                grp[0] = offs, grp[1] = ~offs;
            *img++ = go;
            *img++ = 0 - (s + go);
        }
        a = i + 1u;
        e = 0;
    }
    return words;
}

uint32_t kmv_sealed_check(const volatile uint64_t *img, uint32_t moves, uint32_t bytes,
                          uint32_t *writes)
{
    uint32_t left = bytes / 8u, m, wi = 0;
    /* no word left: the next move's header is past `bytes` and is not read either */
    for (m = 0; m < moves && left; m++) {
        /* a changed header may claim any length: the walk stays within the record */
        uint64_t h = img[0], s = 0;
        uint32_t mw = 3u + (uint32_t)((h >> 32) & 0xFFFFu) / 8u;
        if (mw > left)
            break;
        for (uint32_t i = 0; i < mw; i++)
            s += img[i];
        if (s)
            break;
        img += mw;
        left -= mw;
        wi += (uint32_t)(h & KMV_SEAL_K) + 1u;
    }
    if (writes)
        *writes = wi;
    return m;
}
