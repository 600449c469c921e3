/* kh_link.h — libkohaku's private link helpers (link.c, link_jtag.c, link_xdma.c): the link
 * openers kh_link_open dispatches to, and reads/writes on a descriptor bounded by a deadline. */
#ifndef KH_LINK_H
#define KH_LINK_H

#include <stddef.h>
#include <stdint.h>

struct kh_link;

/* The part of the spec after "jtag:" / "xdma:"; spec whole for messages. */
int kh_link_jtag(const char *spec, const char *rest, unsigned timeout_ms, struct kh_link *l,
                 char *err, size_t errlen);
int kh_link_xdma(const char *spec, const char *rest, unsigned timeout_ms, struct kh_link *l,
                 char *err, size_t errlen);

/* 0 when fd is ready for events, -2 when deadline_ms (kh_ms_now) passed first, -1 on error. */
int kh_fd_wait(int fd, short events, uint64_t deadline_ms);
/* Exactly n bytes on a socket before the deadline: 0, -1 failed or closed, -2 timed out. */
int kh_fd_write(int fd, const void *buf, size_t n, uint64_t deadline_ms);
int kh_fd_read(int fd, void *buf, size_t n, uint64_t deadline_ms);

#endif
