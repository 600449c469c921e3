/* kademo.c — the host side of `make run` and the end-to-end tests (docs/design.md §7 "The two commands"):
 * writes the inputs of docs/npu.md §8's example program, checks its
 * probabilities against an independent host reference, and generates the demo's text files
 * (descriptor lists with mover/'s builder, the NPU program with include/kohaku/npu_isa.h).
 *   kademo [--socket P] inputs           X, W into the upload area; results area zeroed
 *   kademo [--socket P] check            staged inputs and softmax(X·W) in DRAM vs the reference
 *   kademo list copy|fill|gather         a descriptor list, text form, on stdout
 *   kademo program                       the §8 program, kactl's program text form, on stdout
 * Exit 0 when done and right, 1 when a check fails, 2 on usage, 3 on a node failure. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmv.h"
#include "kohaku/npu_isa.h"
#include "libkohaku.h"

/* docs/npu.md §8: X (4 x 32) at 0x100000, W (32 x 16) at 0x101000, P (4 x 16) at 0x102000.
 * Ours: the host uploads X and W to 0x180000 / 0x181000 and a descriptor list copies them
 * into place, so the replay step feeds the dispatch step. */
#define X_UG     0x100000u
#define W_UG     0x101000u
#define P_UG     0x102000u
#define UP_X_UG  0x180000u
#define UP_W_UG  0x181000u
#define FILL_UG  0x190000u          /* the fill demo / test list's destination, 4 KB */
#define FILL_VAL 0xC0DE5EEDu
#define M 4
#define K 32
#define N 16

static uint16_t x_h[M][K], w_h[K][N];

/* Deterministic inputs: small values so exp() stays well inside FP16. */
static void make_inputs(void)
{
    uint32_t s = 0x1234567u;
    for (int r = 0; r < M; r++)
        for (int k = 0; k < K; k++) {
            s = s * 1664525u + 1013904223u;
            _Float16 v = (_Float16)(((int)(s >> 16) % 2001 - 1000) / 1000.0f);
            memcpy(&x_h[r][k], &v, 2);
        }
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) {
            s = s * 1664525u + 1013904223u;
            _Float16 v = (_Float16)(((int)(s >> 16) % 2001 - 1000) / 2000.0f);
            memcpy(&w_h[k][j], &v, 2);
        }
}

static float f16(uint16_t h)
{
    _Float16 v;
    memcpy(&v, &h, 2);
    return (float)v;
}

/* Distance in FP16 units in the last place between two finite positive values. */
static int ulps(uint16_t a, uint16_t b)
{
    return a > b ? a - b : b - a;
}

static struct kh_node node;
static const char *sock;

static void connect_node(void)
{
    /* A link spec (libkohaku.h "Links"): --socket, else $KACTL_LINK, else $KACTL_SOCKET. */
    if (kh_open_link(&node, sock, 0)) {
        fprintf(stderr, "kademo: %s\n", kh_error(&node));
        exit(3);
    }
}

static void must(int rc, const char *what)
{
    if (rc) {
        fprintf(stderr, "kademo: %s: %s\n", what, kh_error(&node));
        exit(3);
    }
}

static int cmd_inputs(void)
{
    make_inputs();
    connect_node();
    must(kh_mem_write(&node, UP_X_UG, x_h, sizeof x_h), "writing X");
    must(kh_mem_write(&node, UP_W_UG, w_h, sizeof w_h), "writing W");
    /* The places the replay and the program write: zero, so nothing stale can pass. */
    must(kh_mem_zero(&node, X_UG, 0x3000), "clearing the NPU's DRAM");
    printf("inputs: X (4x32 FP16, %zu B) at 0x%x, W (32x16 FP16, %zu B) at 0x%x; 0x%x..0x%x cleared\n",
           sizeof x_h, UP_X_UG, sizeof w_h, UP_W_UG, X_UG, X_UG + 0x3000);
    return 0;
}

static int cmd_check(void)
{
    make_inputs();
    connect_node();
    uint16_t xs[M][K], ws[K][N], p[M][N];
    must(kh_mem_read(&node, X_UG, xs, sizeof xs), "reading X");
    must(kh_mem_read(&node, W_UG, ws, sizeof ws), "reading W");
    must(kh_mem_read(&node, P_UG, p, sizeof p), "reading P");
    int bad = 0;
    if (memcmp(xs, x_h, sizeof xs) || memcmp(ws, w_h, sizeof ws)) {
        printf("check: the replayed copy did not put X and W at 0x%x / 0x%x\n", X_UG, W_UG);
        bad = 1;
    } else {
        printf("check: replay copied X and W into place (%zu + %zu bytes match)\n", sizeof xs, sizeof ws);
    }
    /* Reference (docs/npu.md §3, §8): logits summed in FP32 in ascending k and rounded once to
     * FP16 as the GEMM stores them; probabilities exp(l) / sum exp(l) per row in double. */
    int worst = 0;
    double worst_sum = 0;
    for (int r = 0; r < M; r++) {
        double l[N], mx = -1e30, sum = 0, psum = 0;
        for (int j = 0; j < N; j++) {
            float acc = 0;
            for (int k = 0; k < K; k++)
                acc += f16(x_h[r][k]) * f16(w_h[k][j]);
            l[j] = (double)(float)(_Float16)acc;
            mx = l[j] > mx ? l[j] : mx;
        }
        for (int j = 0; j < N; j++)
            sum += exp(l[j] - mx);
        for (int j = 0; j < N; j++) {
            _Float16 want = (_Float16)(exp(l[j] - mx) / sum);
            uint16_t wh;
            memcpy(&wh, &want, 2);
            int u = ulps(p[r][j], wh);
            worst = u > worst ? u : worst;
            psum += f16(p[r][j]);
        }
        double dev = fabs(psum - 1.0);
        worst_sum = dev > worst_sum ? dev : worst_sum;
    }
    printf("check: P = softmax(X.W) at 0x%x: worst %d FP16 ulp from the host reference (limit 3), "
           "worst row sum off by %.4f (limit 0.01)\n", P_UG, worst, worst_sum);
    printf("check: P[0][0..3] = %.5f %.5f %.5f %.5f\n", f16(p[0][0]), f16(p[0][1]), f16(p[0][2]), f16(p[0][3]));
    if (worst > 3 || worst_sum > 0.01)
        bad = 1;
    printf("check: %s\n", bad ? "FAILED" : "data correct");
    return bad;
}

static int print_list(const struct kd_write *w, uint32_t n, const char *title)
{
    char line[KD_TEXT_LINE_MAX];
    printf("# %s\n# generated by kademo with mover/'s builder; text form of include/kohaku/desc_list.h\n", title);
    for (uint32_t i = 0; i < n; i++) {
        kd_text_format(&w[i], line);
        fputs(line, stdout);
    }
    return 0;
}

static int cmd_list(const char *which)
{
    struct kd_write w[64];
    struct kmv_builder b;
    struct kmv_walk d, s;
    kmv_build_init(&b, w, 64);
    if (!strcmp(which, "copy")) {
        /* Two COPY moves: X (256 B = 8 words) and W (1 KB = 32 words) from the upload area. */
        kmv_walk_linear(&s, UP_X_UG, 8);
        kmv_walk_linear(&d, X_UG, 8);
        kmv_build_copy(&b, &d, &s, KMV_WIDTH_32, 0, 0);
        kmv_walk_linear(&s, UP_W_UG, 32);
        kmv_walk_linear(&d, W_UG, 32);
        kmv_build_copy(&b, &d, &s, KMV_WIDTH_32, 0, 0);
        if (b.status != KS_OK)
            return fprintf(stderr, "kademo: builder status 0x%x\n", b.status), 1;
        return print_list(w, b.n, "copy X (0x180000 -> 0x100000, 8 words) and W (0x181000 -> 0x101000, 32 words)");
    }
    if (!strcmp(which, "fill")) {
        /* A FILL needs IMM (mover offset 0x40): RV32 reaches it, RV64 does not (NO_REACH). */
        kmv_walk_linear(&d, FILL_UG, 128);
        kmv_build_fill(&b, &d, KMV_WIDTH_32, FILL_VAL, 0);
        if (b.status != KS_OK)
            return fprintf(stderr, "kademo: builder status 0x%x\n", b.status), 1;
        return print_list(w, b.n, "fill 4 KB at 0x190000 with 0xC0DE5EED (needs IMM, 0x40)");
    }
    if (!strcmp(which, "gather")) {
        /* A GATHER needs the pitch/words register (0x50). Indices at 0x191000 (2 of them). */
        kmv_walk_linear(&d, FILL_UG + 0x2000, 2);
        kmv_build_gather(&b, &d, UP_W_UG, FILL_UG + 0x1000, 2, 32, 1, 0);
        if (b.status != KS_OK)
            return fprintf(stderr, "kademo: builder status 0x%x\n", b.status), 1;
        return print_list(w, b.n, "gather 2 rows of W by the indices at 0x191000 into 0x192000 (needs GATHER, 0x50)");
    }
    fprintf(stderr, "kademo: list copy|fill|gather\n");
    return 2;
}

static int cmd_program(void)
{
    /* docs/npu.md §8, word by word through npu_isa.h's encoders; payload word 3. */
    uint64_t insn[20];
    unsigned i = 0;
    insn[i++] = np_memset_host_base(X_UG);
    insn[i++] = np_memset_xfer(0, 4, 32, 0);
    insn[i++] = np_memset_xfer(1, 32, 16, 0);
    insn[i++] = np_memset_shape(2, 4, 16, 32);
    insn[i++] = np_memset_weight(0, 64, 0x3C00, 0);
    insn[i++] = np_memset(NP_CACHE_SCALAR, NP_SCALAR_EMAX, 0xFC00, 0, 0);
    insn[i++] = np_memcpy_in(0, 0, 0, 0);
    insn[i++] = np_memcpy_in(64, 0x80, 1, 0);
    insn[i++] = np_gemm(128, 0, NP_GF_FINDEMAX, 0, 2, 0);
    insn[i++] = np_cvo(NP_CVO_EXP, 128, 160, 64, NP_CF_SUB_EMAX, 0);
    for (unsigned r = 0; r < 4; r++) {
        insn[i++] = np_cvo(NP_CVO_REDUCE_SUM, 160 + r, 192 + r, 16, 0, 0);
        insn[i++] = np_cvo(NP_CVO_SCALE, 160 + r, 160 + r, 16, NP_CF_RECIP_SCALE, 0);
    }
    insn[i++] = np_memset_xfer(3, 4, 16, 0);
    insn[i++] = np_memcpy_out(0x100, 160, 3, 0);
    printf("# docs/npu.md section 8: softmax(X.W), 20 NPU instructions; one payload per line as\n"
           "# four 64-bit words W0 W1 W2 W3 (the instruction is payload word 3)\n");
    for (unsigned k = 0; k < i; k++)
        printf("0 0 0 0x%016llx\n", (unsigned long long)insn[k]);
    return 0;
}

int main(int argc, char **argv)
{
    int i = 1;
    if (i + 1 < argc && !strcmp(argv[i], "--socket")) {
        sock = argv[i + 1];
        i += 2;
    }
    if (i < argc && !strcmp(argv[i], "inputs"))
        return cmd_inputs();
    if (i < argc && !strcmp(argv[i], "check"))
        return cmd_check();
    if (i + 1 < argc && !strcmp(argv[i], "list"))
        return cmd_list(argv[i + 1]);
    if (i < argc && !strcmp(argv[i], "program"))
        return cmd_program();
    fprintf(stderr, "usage: kademo [--socket P] inputs|check|list copy|fill|gather|program\n");
    return 2;
}
