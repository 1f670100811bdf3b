/* The CLI's error text: what failed is written into the caller's buffer, to be printed once. */
#ifndef EV_TOOLS_CLI_FAIL_H
#define EV_TOOLS_CLI_FAIL_H

#include <stddef.h>

/* printf into err (n bytes); returns -1, for `return cli_fail(...)`. */
int cli_fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
