#include <stdarg.h>
#include <stdio.h>

#include "core/log.h"

void ev_log(const EvLog *const log, const EvLogLevel level, const char *const fmt, ...)
{
    if (!log || !log->cb || level > log->level)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    log->cb(log->user, level, line);
}
