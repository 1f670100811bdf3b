#include <stdarg.h>
#include <stdio.h>

#include "base/log.h"

void ev_log(const EvLog *const log, const EvLogLevel level, const char *const fmt, ...)
{
    if (!log || !log->cb || level > log->level)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    /* One line, as EvLogCallback promises, also when a message quotes the user's text (an
     * option string, a model's field): control bytes such as a newline are shown as '?'. */
    for (char *p = line; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    log->cb(log->user, level, line);
}
