/* Unit-test helper: a temporary directory for the files a test writes. */
#ifndef EV_TESTS_UNIT_CHECK_TMP_H
#define EV_TESTS_UNIT_CHECK_TMP_H

#include <stdio.h>
#include <stdlib.h>

/* Make a fresh directory <$TMPDIR or /tmp>/<tag>_XXXXXX (its path in dir), run tests, then
 * remove the directory with everything in it. @return 1 when it could not be made, else 0. */
static inline int check_in_tmp_dir(char *dir, size_t size, const char *tag, void (*tests)(void))
{
    const char *base = getenv("TMPDIR");
    snprintf(dir, size, "%s/%s_XXXXXX", base && *base ? base : "/tmp", tag);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    tests();
    char cmd[1100];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd))
        printf("could not remove %s\n", dir);
    return 0;
}

#endif
