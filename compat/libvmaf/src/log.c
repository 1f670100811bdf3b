/* libvmaf's logging on stderr (compat.h). */
#include <stdarg.h>
#include <stdio.h>

#include "compat.h"

static const char *const cv_level_name[] = { "ERROR", "WARNING", "INFO", "DEBUG" };

void cv_stderr_callback(void *const user, const EvLogLevel level, const char *const line)
{
    const unsigned l = (unsigned)level < 4 ? (unsigned)level : 3;
    fprintf(stderr, "libvmaf %s %s\n", cv_level_name[l], line);
}

CvLog cv_stderr_log(const enum VmafLogLevel level)
{
    CvLog log = { NULL, EV_LOG_ERROR };
    if (level > VMAF_LOG_LEVEL_NONE) {
        log.cb = cv_stderr_callback;
        log.level = (EvLogLevel)(level > VMAF_LOG_LEVEL_DEBUG ? 3 : level - 1);
    }
    return log;
}

void cv_log(const CvLog *const log, const EvLogLevel level, const char *const fmt, ...)
{
    if (!log->cb || level > log->level)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    log->cb(NULL, level, line);
}
