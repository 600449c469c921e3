/* newlib_syscalls.c — the system calls newlib-nano's libc needs, for LIBC=newlib-nano builds
 * only (docs/libc.md): the console (docs/hardware.md §4/§5 console register) as fds 0-2, the
 * exit register as _exit, and a small bounded heap; everything else is a refusal with errno.
 * picolibc builds do not compile this file (mk/firmware.mk FW_LIBC_SRCS). */
#define _DEFAULT_SOURCE 1      /* struct stat's S_IFCHR under -std=c11 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>            /* _exit */
#include "hal/hal.h"

/* The types are newlib's own (sys/unistd.h, sys/stat.h declare these under _COMPILING_NEWLIB). */

/* newlib's reentrant wrappers (_write_r & co.) clear this global, call the system call and copy
 * it into the caller's reent on -1: the system layer reports through the plain variable, not
 * through errno's per-reent macro (newlib/libc/reent/writer.c). */
#undef errno
extern int errno;

/* The heap behind malloc: a .noinit array (never zeroed at boot, its owner is malloc), linked
 * only when something calls _sbrk (--gc-sections drops it otherwise, so images without malloc
 * or stdio pay nothing). Sized per variant against the scratchpad (docs/hardware.md §4: 8 KB on RV32,
 * with the boot block and 1 KB stack in it; §5: 32 KB on RV64). Stdio's first use takes about
 * 0.3 KB of it for the three standard streams (reent-small allocates them). */
#ifndef KX_NEWLIB_HEAP_BYTES
#if __riscv_xlen == 32
#define KX_NEWLIB_HEAP_BYTES 1024
#else
#define KX_NEWLIB_HEAP_BYTES 4096
#endif
#endif

static unsigned char kx_heap[KX_NEWLIB_HEAP_BYTES]
    __attribute__((section(".noinit.kx_heap"), aligned(16)));
static size_t kx_heap_used;    /* .bss: zero at every boot, so a reboot starts a fresh heap */

/* Console descriptors: stdin, stdout, stderr all name the one console. */
static int kx_is_console(int fd)
{
    return fd >= 0 && fd <= 2;
}

void *_sbrk(ptrdiff_t incr);
void *_sbrk(ptrdiff_t incr)
{
    size_t used = kx_heap_used;
    if (incr < 0 ? (size_t)-incr > used : (size_t)incr > sizeof kx_heap - used) {
        errno = ENOMEM;
        return (void *)-1;
    }
    kx_heap_used = used + (size_t)incr;
    return kx_heap + used;
}

/* stdout and stderr go to the console byte by byte; the console register takes one byte per
 * store and never refuses, so every byte is written. */
_ssize_t _write(int fd, const void *buf, size_t n);
_ssize_t _write(int fd, const void *buf, size_t n)
{
    if (fd != 1 && fd != 2) {
        errno = EBADF;
        return -1;
    }
    const char *p = buf;
    for (size_t i = 0; i < n; i++)
        kx_console_putc(p[i]);
    return (_ssize_t)n;
}

/* The console has no input: reading it is end of file. */
_ssize_t _read(int fd, void *buf, size_t n);
_ssize_t _read(int fd, void *buf, size_t n)
{
    (void)buf;
    (void)n;
    if (!kx_is_console(fd)) {
        errno = EBADF;
        return -1;
    }
    return 0;
}

/* exit(status) ends here after atexit handlers and the stdio flush (lite exit): the status's
 * low 32 bits are the exit word (0 = KX_EXIT_OK). abort() arrives with status 1. */
void _exit(int status)
{
    kx_exit((uint32_t)status);
}

/* The console stays open: closing it is refused. */
int _close(int fd);
int _close(int fd)
{
    errno = kx_is_console(fd) ? EPERM : EBADF;
    return -1;
}

/* The console is a character device, so stdio makes stdout line-buffered when the heap can
 * hold its buffer and unbuffered when it cannot. */
int _fstat(int fd, struct stat *st);
int _fstat(int fd, struct stat *st)
{
    if (!kx_is_console(fd)) {
        errno = EBADF;
        return -1;
    }
    *st = (struct stat){ .st_mode = S_IFCHR };
    return 0;
}

int _isatty(int fd);
int _isatty(int fd)
{
    if (!kx_is_console(fd)) {
        errno = EBADF;
        return 0;
    }
    return 1;
}

_off_t _lseek(int fd, _off_t off, int whence);
_off_t _lseek(int fd, _off_t off, int whence)
{
    (void)off;
    (void)whence;
    errno = kx_is_console(fd) ? ESPIPE : EBADF;
    return -1;
}

/* One process, no signals: raise()/abort() see kill refused and abort() then calls _exit(1). */
pid_t _getpid(void);
pid_t _getpid(void)
{
    return 1;
}

int _kill(int pid, int sig);
int _kill(int pid, int sig)
{
    (void)pid;
    (void)sig;
    errno = EINVAL;
    return -1;
}
