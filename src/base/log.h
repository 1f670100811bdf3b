/* Internal logging: formats one line and hands it to the context's callback. */
#ifndef EV_BASE_LOG_H
#define EV_BASE_LOG_H

#include "exactvmaf/exactvmaf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct EvLog {
    EvLogCallback cb;
    void *user;
    EvLogLevel level;
} EvLog;

#if defined(__GNUC__)
#define EV_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define EV_PRINTF(a, b)
#endif

/* Deliver one line at level (dropped when log is NULL, has no callback, or is too verbose). */
void ev_log(const EvLog *log, EvLogLevel level, const char *fmt, ...) EV_PRINTF(3, 4);

#ifdef __cplusplus
}
#endif

#endif
