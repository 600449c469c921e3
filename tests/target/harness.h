/* harness.h — on-target test harness (docs/design.md §6 "Tests"):
 * EXPECT_* records a failure and continues, ASSERT_* records it and stops the image.
 * Console: "PASS: <check>" / "FAIL: <check> <file>:<line> got=.. want=.." per check, then one
 * summary line "kohaku-test: <image> passed=<n> failed=<n>"; the exit word is
 * KX_EXIT_TEST_BASE | failures. tests/target/run.sh reads the summary and the exit word. */
#ifndef KOHAKU_TEST_HARNESS_H
#define KOHAKU_TEST_HARNESS_H

#include <stdint.h>
#include "kohaku/exitword.h"

#ifndef KT_IMAGE
#error "KT_IMAGE (the image name) is defined by tests/target/target.mk"
#endif

/* Records one check. Returns ok so ASSERT can stop on it. */
int kt_check(int ok, const char *name, const char *file, unsigned line);
int kt_check_eq(uint64_t got, uint64_t want, const char *name, const char *file, unsigned line);
/* Prints the summary and exits with KX_EXIT_TEST_BASE | failures (saturated at 0xFFFF). */
void kt_finish(void) __attribute__((noreturn));
/* A line of context on the console ("note: ..."), for the log. */
void kt_note(const char *what, uint64_t v);

/* __FILE_NAME__ (no directories) keeps the strings, which live in the scratchpad, short. */
#define KT_FILE __FILE_NAME__

#define EXPECT_TRUE(c)     ((void)kt_check(!!(c), #c, KT_FILE, __LINE__))
#define EXPECT_EQ(got, want) \
    ((void)kt_check_eq((uint64_t)(got), (uint64_t)(want), #got " == " #want, KT_FILE, __LINE__))
#define ASSERT_TRUE(c) \
    do { if (!kt_check(!!(c), #c, KT_FILE, __LINE__)) kt_finish(); } while (0)
#define ASSERT_EQ(got, want) \
    do { if (!kt_check_eq((uint64_t)(got), (uint64_t)(want), #got " == " #want, KT_FILE, __LINE__)) \
             kt_finish(); } while (0)

#endif
