/* Unit-test helper: log callbacks that keep the last line logged, for the tests that check
 * what a refusal says. check_keep_line keeps every line, check_keep_error only errors. */
#ifndef EV_TESTS_UNIT_CHECK_LOG_H
#define EV_TESTS_UNIT_CHECK_LOG_H

#include <stdio.h>

#include "exactvmaf/exactvmaf.h"

static char check_last_line[1024];

static inline void check_keep_line(void *user, EvLogLevel level, const char *line)
{
    (void)user;
    (void)level;
    snprintf(check_last_line, sizeof(check_last_line), "%s", line);
}

static inline void check_keep_error(void *user, EvLogLevel level, const char *line)
{
    if (level == EV_LOG_ERROR)
        check_keep_line(user, level, line);
}

#endif
