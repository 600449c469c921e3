/* harness.c — on-target test harness (tests/target/harness.h): per-check console lines, the
 * summary line and the exit word, through the hal console and exit registers only. */
#include "harness.h"
#include "hal/hal.h"

static unsigned kt_passed, kt_failed;

/* Decimal for line numbers and the summary without a divide (RV32 has none): repeated subtraction of
 * powers of ten; counts are small. */
static void kt_put_dec(unsigned v)
{
    static const unsigned pow10[] = { 10000, 1000, 100, 10, 1 };
    int started = 0;
    for (unsigned i = 0; i < sizeof pow10 / sizeof pow10[0]; i++) {
        char d = '0';
        while (v >= pow10[i]) {
            v -= pow10[i];
            d++;
        }
        if (d != '0' || started || pow10[i] == 1) {
            kx_console_putc(d);
            started = 1;
        }
    }
}

/* One body for both kinds of check keeps the harness small in the RV32 8 KB window. */
__attribute__((noinline))
static int kt_report(int ok, const char *name, const char *file, unsigned line,
                     int vals, uint64_t got, uint64_t want)
{
    kx_puts(ok ? "PASS: " : "FAIL: ");
    kx_puts(name);
    if (ok) {
        kt_passed++;
    } else {
        kt_failed++;
        kx_puts(" ");
        kx_puts(file);
        kx_puts(":");
        kt_put_dec(line);
        if (vals) {
            kx_puts(" got=");
            kx_put_hex(got);
            kx_puts(" want=");
            kx_put_hex(want);
        }
    }
    kx_puts("\n");
    return ok;
}

int kt_check(int ok, const char *name, const char *file, unsigned line)
{
    return kt_report(ok, name, file, line, 0, 0, 0);
}

int kt_check_eq(uint64_t got, uint64_t want, const char *name, const char *file, unsigned line)
{
    return kt_report(got == want, name, file, line, 1, got, want);
}

void kt_note(const char *what, uint64_t v)
{
    kx_puts("note: ");
    kx_puts(what);
    kx_puts(" ");
    kx_put_hex(v);
    kx_puts("\n");
}

void kt_finish(void)
{
    kx_puts("kohaku-test: " KT_IMAGE " passed=");
    kt_put_dec(kt_passed);
    kx_puts(" failed=");
    kt_put_dec(kt_failed);
    kx_puts("\n");
    kx_exit(KX_EXIT_TEST_BASE | (kt_failed > 0xFFFFu ? 0xFFFFu : kt_failed));
}
