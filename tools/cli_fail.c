/* The CLI's error text (cli_fail.h). */
#include <stdarg.h>
#include <stdio.h>

#include "cli_fail.h"

int cli_fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}
