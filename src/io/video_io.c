/* The readers' error text (video_io.h). */
#include <stdarg.h>
#include <stdio.h>

#include "io/video_io.h"

int ev_video_fail(EvVideo *const v, const int code, const char *const fmt, ...)
{
    const int n = snprintf(v->err, sizeof(v->err), "%s: ", v->name ? v->name : "?");
    if (n > 0 && (size_t)n < sizeof(v->err)) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(v->err + n, sizeof(v->err) - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return code;
}
