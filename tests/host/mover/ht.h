/* ht.h — a minimal native test runner for the mover's host tests (TESTING.md layer 1): one
 * line per test, "PASS: host-mover/<test>" or "FAIL: host-mover/<test> <file>:<line> <why>". */
#ifndef KOHAKU_TEST_HT_H
#define KOHAKU_TEST_HT_H

#include <inttypes.h>
#include <stdio.h>

static int ht_failed;           /* the current test failed */
static int ht_failures;         /* tests failed so far */
static const char *ht_name;

static inline void ht_fail(const char *file, int line, const char *what, uint64_t got, uint64_t want)
{
    if (!ht_failed)
        printf("FAIL: host-mover/%s %s:%d %s got=0x%" PRIx64 " want=0x%" PRIx64 "\n",
               ht_name, file, line, what, got, want);
    ht_failed = 1;
}

#define CHECK(c) \
    do { if (!(c)) ht_fail(__FILE__, __LINE__, #c, 0, 1); } while (0)
#define CHECK_EQ(got, want) \
    do { uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want); \
         if (g_ != w_) ht_fail(__FILE__, __LINE__, #got " == " #want, g_, w_); } while (0)

#define RUN(fn) \
    do { ht_name = #fn; ht_failed = 0; fn(); \
         if (!ht_failed) printf("PASS: host-mover/%s\n", #fn); else ht_failures++; } while (0)

#endif
