/* Shared parts of the harnesses (fuzz_common.h). */
#define _GNU_SOURCE /* memfd_create */
#include "fuzz_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    fprintf(stderr, "%s:%d: contract broken: %s: ", file, line, cond);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

static unsigned n_lines;

static void check_line(void *user, EvLogLevel level, const char *line)
{
    (void)user;
    FUZZ_CHECK(level >= EV_LOG_ERROR && level <= EV_LOG_DEBUG, "level %d", (int)level);
    FUZZ_CHECK(line && line[0], "an empty log line");
    FUZZ_CHECK(!strchr(line, '\n'), "a log line holds a newline: \"%s\"", line);
    if (getenv("EV_FUZZ_VERBOSE"))
        fprintf(stderr, "log: %s\n", line);
    n_lines++;
}

const EvLog *fuzz_log(void)
{
    static const EvLog log = { check_line, NULL, EV_LOG_DEBUG };
    return &log;
}

void fuzz_log_reset(void)
{
    n_lines = 0;
}

unsigned fuzz_log_lines(void)
{
    return n_lines;
}

static int file_fd = -1;
static char file_path[64];

const char *fuzz_file(const uint8_t *data, size_t n, unsigned long long size)
{
    fuzz_file_close();
    file_fd = memfd_create("ev_fuzz", 0);
    FUZZ_CHECK(file_fd >= 0, "memfd_create failed");
    for (size_t done = 0; done < n;) {
        const ssize_t w = write(file_fd, data + done, n - done);
        FUZZ_CHECK(w > 0, "write to the memfd failed");
        done += (size_t)w;
    }
    if (size > n)
        FUZZ_CHECK(!ftruncate(file_fd, (off_t)size), "ftruncate to %llu failed", size);
    snprintf(file_path, sizeof(file_path), "/proc/self/fd/%d", file_fd);
    return file_path;
}

void fuzz_file_close(void)
{
    if (file_fd >= 0)
        close(file_fd);
    file_fd = -1;
}
