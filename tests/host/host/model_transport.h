/* model_transport.h — a libkohaku transport wired to the device model in-process (test only):
 * requests are framed by km_hp_parse and run by km_hp_execute exactly as the QEMU glue does,
 * so the host library is tested against the real host-port decoder, load paths and memory. A
 * hook runs between requests: the tests' stand-in for the firmware serving the queue. */
#ifndef KOHAKU_TEST_MODEL_TRANSPORT_H
#define KOHAKU_TEST_MODEL_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "kmodel.h"
#include "libkohaku.h"

struct mt {
    struct km_model *m;
    uint8_t *in, *out;
    size_t in_len, out_len, out_pos;
    unsigned requests;
    int closed;                         /* reads and writes fail, as a dead socket */
    void (*hook)(struct mt *t, void *ctx);   /* after each request */
    void *hook_ctx;
};

/* A model of the variant (32/64), core held as under a host port. */
struct mt *mt_new(unsigned variant);
void mt_free(struct mt *t);
/* The transport for kh_open; close is a no-op (the test frees the mt). */
void mt_transport(struct mt *t, struct kh_transport *tr);
/* Direct accesses for the fake firmware and checks, through km_hp_execute as well. */
int mt_mem_read(struct mt *t, uint64_t ug, void *buf, uint32_t len);
int mt_mem_write(struct mt *t, uint64_t ug, const void *buf, uint32_t len);

#endif
