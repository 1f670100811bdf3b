/* The CLI's output file (cli_output.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_output.h"

static int fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The output is an input: the same file by device and inode (links and other spellings
 * included), or the file standard input reads when an input is "-". */
static int names_input(const CliSettings *s, const struct stat *out)
{
    const char *const inputs[2] = { s->ref_path, s->dis_path };
    for (unsigned i = 0; i < 2; i++) {
        struct stat in;
        const int ok = !strcmp(inputs[i], "-") ? !fstat(STDIN_FILENO, &in) : !stat(inputs[i], &in);
        if (ok && S_ISREG(in.st_mode) && same_file(&in, out))
            return (int)i + 1;
    }
    return 0;
}

/* The folder of path, into dir ("." for a bare name). */
static void folder_of(const char *path, char *dir, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, n, ".");
    else if (slash == path)
        snprintf(dir, n, "/");
    else
        snprintf(dir, n, "%.*s", (int)(slash - path), path);
}

int cli_output_check(const CliSettings *s, CliOutput *o, char *err, size_t n)
{
    *o = (CliOutput){ .path = s->out_path };
    if (!s->out_path)
        return 0;
    if (!strcmp(s->out_path, "-"))
        return o->direct = 1, 0;
    struct stat st;
    if (!stat(s->out_path, &st)) {
        const int input = names_input(s, &st);
        if (input)
            return fail(err, n, "%s: the output is the %s input: refusing to overwrite it",
                        s->out_path, input == 1 ? "reference" : "distorted");
        if (S_ISDIR(st.st_mode))
            return fail(err, n, "%s: cannot write: %s", s->out_path, strerror(EISDIR));
    }
    char dir[4096];
    folder_of(s->out_path, dir, sizeof(dir));
    struct stat dst;
    if (stat(dir, &dst))
        return fail(err, n, "%s: cannot write: folder %s: %s", s->out_path, dir, strerror(errno));
    if (!S_ISDIR(dst.st_mode))
        return fail(err, n, "%s: cannot write: %s is not a folder", s->out_path, dir);
    struct stat lst;
    const int exists = !lstat(s->out_path, &lst);
    if (exists) {
        /* what fopen(path, "w") checks, without truncating: the file opens for writing */
        const int fd = open(s->out_path, O_WRONLY | O_NONBLOCK);
        if (fd < 0)
            return fail(err, n, "%s: cannot write: %s", s->out_path, strerror(errno));
        close(fd);
    }
    /* a link, device or pipe is written in place (renaming would replace the link) */
    o->exists = exists && S_ISREG(lst.st_mode);
    o->mode = o->exists ? lst.st_mode & 07777 : 0;
    o->direct = (exists && !S_ISREG(lst.st_mode)) || access(dir, W_OK | X_OK);
    if (o->direct && !exists) /* no temporary possible, and no file to write in place */
        return fail(err, n, "%s: cannot write: folder %s: %s", s->out_path, dir,
                    strerror(EACCES));
    return 0;
}

int cli_output_write(const CliOutput *o, const EvContext *ctx, const EvOutputOptions *opts,
                     char *err, size_t n)
{
    if (!strcmp(o->path, "-"))
        return ev_write_output(ctx, stdout, opts) || fflush(stdout)
                   ? fail(err, n, "standard output: write failed: %s", strerror(EIO))
                   : 0;
    char tmp[4200];
    snprintf(tmp, sizeof(tmp), "%s.partial", o->path);
    FILE *f = fopen(o->direct ? o->path : tmp, "w");
    if (!f)
        return fail(err, n, "%s: cannot write: %s", o->path, strerror(errno));
    int ok = !ev_write_output(ctx, f, opts);
    if (ok && !o->direct && o->exists)
        ok = !fchmod(fileno(f), o->mode); /* the replacement keeps the file's mode */
    const int saved = errno;
    ok = !fclose(f) && ok;
    if (ok && !o->direct && rename(tmp, o->path))
        ok = 0;
    if (!ok) {
        const int e = errno ? errno : saved;
        if (!o->direct)
            remove(tmp);
        return fail(err, n, "%s: write failed: %s", o->path, strerror(e ? e : EIO));
    }
    return 0;
}
