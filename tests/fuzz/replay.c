/* Replays inputs through a libFuzzer harness without libFuzzer (tests/fuzz/tests.cmake builds
 * one per harness, with gcc or clang, sanitized in scripts/sanitize.sh's build): each argument
 * is a file, or a folder whose regular files (not hidden ones) are run in name order. Each
 * input is a heap block of exactly its size, as libFuzzer gives it, so that ASan catches a
 * read past it. A crash or a broken contract (fuzz_fail aborts) fails the run; so do an
 * unreadable argument and a run of no input at all (an empty or missing corpus). */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

static int fail(const char *path, const char *what)
{
    fprintf(stderr, "replay: %s: %s: %s\n", path, what, strerror(errno));
    return 1;
}

/* Run one file. @return 0, or 1 when it cannot be read */
static int run_file(const char *path, unsigned *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(path, "cannot open");
    if (fseek(f, 0, SEEK_END) || ftell(f) < 0) {
        fclose(f);
        return fail(path, "cannot size");
    }
    const size_t size = (size_t)ftell(f);
    rewind(f);
    uint8_t *data = malloc(size ? size : 1);
    if (!data || fread(data, 1, size, f) != size) {
        free(data);
        fclose(f);
        return fail(path, "cannot read");
    }
    fclose(f);
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, size);
    (void)LLVMFuzzerTestOneInput(data, size);
    free(data);
    (*n)++;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run the regular files of a folder in name order. @return 0, or 1 on an unreadable entry */
static int run_dir(const char *dir, unsigned *n)
{
    DIR *d = opendir(dir);
    if (!d)
        return fail(dir, "cannot open the folder");
    char **names = NULL;
    size_t count = 0, cap = 0;
    int ret = 0;
    for (const struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(names, cap * sizeof(*names));
            if (!grown) {
                ret = fail(dir, "out of memory");
                break;
            }
            names = grown;
        }
        const size_t len = strlen(dir) + 1 + strlen(e->d_name) + 1;
        if (!(names[count] = malloc(len))) {
            ret = fail(dir, "out of memory");
            break;
        }
        snprintf(names[count++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (names)
        qsort(names, count, sizeof(*names), by_name);
    for (size_t i = 0; i < count; i++) {
        struct stat st;
        if (!ret && stat(names[i], &st))
            ret = fail(names[i], "cannot stat");
        else if (!ret && S_ISREG(st.st_mode))
            ret = run_file(names[i], n);
        free(names[i]);
    }
    free(names);
    return ret;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s file|folder...\n", argv[0]);
        return 2;
    }
    unsigned n = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st))
            return fail(argv[i], "cannot stat");
        if (S_ISDIR(st.st_mode) ? run_dir(argv[i], &n) : run_file(argv[i], &n))
            return 1;
    }
    if (!n) {
        fprintf(stderr, "replay: no input in the arguments\n");
        return 1;
    }
    printf("replay: %u inputs, no crash\n", n);
    return 0;
}
