/* seal.c — sealed moves (kmv.h "Sealed moves", docs/mover.md): building them from a validated
 * list (RECORD, service/record.c) and checking them without the mover (a RUN's REPLAY_H step,
 * service/kq_check_cold.c). Pure: host builds test it as it is; the boards that seal (RV64)
 * replay with mover/rv64/sealed.c. */
#include "kmv.h"

#define LANES  KMV_SEAL_LANES

uint32_t kmv_seal(volatile uint64_t *img, const struct kd_write *w, uint32_t n, uint32_t *moves)
{
    uint32_t words = 0, a = 0;
    *moves = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!kd_is_go(&w[i]))
            continue;
        uint32_t k = i - a, g = ((k - 1u) & (LANES - 1u)) + 1u, mw = kmv_seal_move_words(k);
        words += mw;
        a = i + 1u;
        ++*moves;
        if (!img)
            continue;
        uint64_t go = kd_value(&w[i]);
        uint32_t mode = (uint32_t)KBF_FIELD_GET(KMV_CTRL_MODE, go);
        uint64_t h = k | (uint64_t)(mw - 3u) * 8u << 32 | (uint64_t)(LANES - g) << 60 |
                     (mode == KMV_MODE_FILL || mode == KMV_MODE_GENERATE || mode == KMV_MODE_XFORM
                          ? KMV_SEAL_SPECIAL : 0);
        uint64_t s = h;
        *img++ = h;
        for (uint32_t j = i - k; j < i; j += g, g = LANES) {
            uint64_t offs = 0;
            for (uint32_t l = 0; l < g; l++)
                offs |= (uint64_t)((w[j + l].off >> 3) & 0xFu) << (4u * (LANES - g + l));
            *img++ = offs;
            s += offs;
            for (uint32_t l = 0; l < g; l++) {
                uint64_t v = kd_value(&w[j + l]);
                *img++ = v;
                s += v;
            }
        }
        *img++ = go;
        *img++ = 0 - (s + go);
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
        uint32_t k = (uint32_t)img[0] & KMV_SEAL_K, mw = kmv_seal_move_words(k);
        if (mw > left)
            break;
        uint64_t s = 0;
        for (uint32_t i = 0; i < mw; i++)
            s += img[i];
        if (s)
            break;
        img += mw;
        left -= mw;
        wi += k + 1u;
    }
    if (writes)
        *writes = wi;
    return m;
}
