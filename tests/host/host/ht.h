/* ht.h — the native test runner of the host-side suites (docs/design.md §7 layer 1): one line per
 * test, "PASS: <suite>/<test>" or "FAIL: <suite>/<test> <file>:<line> <why>", the first failed
 * check of a test only. The includer defines HT_SUITE ("host-lib", "host-mover", ...) first. */
#ifndef KOHAKU_TEST_HT_H
#define KOHAKU_TEST_HT_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#ifndef HT_SUITE
#error "define HT_SUITE, the suite's name in its PASS/FAIL lines, before including ht.h"
#endif

static int ht_failed;           /* the current test failed */
static int ht_failures;         /* tests failed so far */
static const char *ht_name;

static inline void ht_fail(const char *file, int line, const char *what, uint64_t got, uint64_t want)
{
    if (!ht_failed)
        printf("FAIL: " HT_SUITE "/%s %s:%d %s got=0x%" PRIx64 " want=0x%" PRIx64 "\n",
               ht_name, file, line, what, got, want);
    ht_failed = 1;
}

static inline void ht_fail_str(const char *file, int line, const char *what, const char *got,
                               const char *want)
{
    if (!ht_failed)
        printf("FAIL: " HT_SUITE "/%s %s:%d %s: got \"%s\" want \"%s\"\n", ht_name, file, line,
               what, got ? got : "(null)", want);
    ht_failed = 1;
}

#define CHECK(c) \
    do { if (!(c)) ht_fail(__FILE__, __LINE__, #c, 0, 1); } while (0)
#define CHECK_EQ(got, want) \
    do { uint64_t g_ = (uint64_t)(got), w_ = (uint64_t)(want); \
         if (g_ != w_) ht_fail(__FILE__, __LINE__, #got " == " #want, g_, w_); } while (0)
/* The string equals want. */
#define CHECK_STR(got, want) \
    do { const char *g_ = (got), *w_ = (want); \
         if (!g_ || strcmp(g_, w_)) ht_fail_str(__FILE__, __LINE__, #got, g_, w_); } while (0)
/* The string contains want. */
#define CHECK_HAS(got, want) \
    do { const char *g_ = (got), *w_ = (want); \
         if (!strstr(g_, w_)) ht_fail_str(__FILE__, __LINE__, "lacks", g_, w_); } while (0)

#define RUN(fn) \
    do { ht_name = #fn; ht_failed = 0; fn(); \
         if (!ht_failed) printf("PASS: " HT_SUITE "/%s\n", #fn); else ht_failures++; } while (0)

#endif
