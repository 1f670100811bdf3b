/* What every libFuzzer harness shares: a log that checks the library's contract and prints
 * nothing (the library never prints; set EV_FUZZ_VERBOSE=1 to see its lines while building a
 * corpus), an in-memory file for the readers, and a failure that libFuzzer reports as a crash. */
#ifndef EV_TESTS_FUZZ_COMMON_H
#define EV_TESTS_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "base/log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken contract: print why and abort, which libFuzzer records as a crash with its input. */
#define FUZZ_CHECK(cond, ...)                                                                      \
    do {                                                                                           \
        if (!(cond))                                                                               \
            fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                                     \
    } while (0)
void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...) EV_PRINTF(4, 5);

/* A log at EV_LOG_DEBUG (every line is formatted) whose callback checks that each line is one
 * non-empty line; fuzz_log_lines() counts the lines since the last fuzz_log_reset(). */
const EvLog *fuzz_log(void);
void fuzz_log_reset(void);
unsigned fuzz_log_lines(void);

/* A file of size bytes holding data[0..n) then zeros (a sparse tail), which the readers open
 * by the returned path (/proc/self/fd/N of a memfd). fuzz_file_close() releases it. */
const char *fuzz_file(const uint8_t *data, size_t n, unsigned long long size);
void fuzz_file_close(void);

#endif
