/* The CLI's output file (cli_output.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_fail.h"
#include "cli_output.h"

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The output is an input: the same file by device and inode (links and other spellings
 * included), or the file standard input reads when an input is "-". @return 0, 1 the reference,
 * 2 a distorted. */
static int names_input(const CliSettings *s, const struct stat *out)
{
    for (unsigned i = 0; i <= s->n_dis; i++) {
        const char *path = i ? s->dis_paths[i - 1] : s->ref_path;
        struct stat in;
        const int ok = !strcmp(path, "-") ? !fstat(STDIN_FILENO, &in) : !stat(path, &in);
        if (ok && S_ISREG(in.st_mode) && same_file(&in, out))
            return i ? 2 : 1;
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
    return cli_output_check_path(s, s->out_path, o, err, n);
}

int cli_output_check_path(const CliSettings *s, const char *path, CliOutput *o, char *err, size_t n)
{
    *o = (CliOutput){ .path = path };
    if (!path)
        return 0;
    if (!strcmp(path, "-"))
        return o->direct = 1, 0;
    struct stat st;
    if (!stat(path, &st)) {
        const int input = names_input(s, &st);
        if (input)
            return cli_fail(err, n, "%s: the output is the %s input: refusing to overwrite it",
                            path, input == 1 ? "reference" : "distorted");
        if (S_ISDIR(st.st_mode))
            return cli_fail(err, n, "%s: cannot write: %s", path, strerror(EISDIR));
    }
    char dir[4096];
    folder_of(path, dir, sizeof(dir));
    struct stat dst;
    if (stat(dir, &dst))
        return cli_fail(err, n, "%s: cannot write: folder %s: %s", path, dir, strerror(errno));
    if (!S_ISDIR(dst.st_mode))
        return cli_fail(err, n, "%s: cannot write: %s is not a folder", path, dir);
    struct stat lst;
    const int exists = !lstat(path, &lst);
    if (exists) {
        /* what fopen(path, "w") checks, without truncating: the file opens for writing */
        const int fd = open(path, O_WRONLY | O_NONBLOCK);
        if (fd < 0)
            return cli_fail(err, n, "%s: cannot write: %s", path, strerror(errno));
        close(fd);
    }
    /* a link, device or pipe is written in place (renaming would replace the link) */
    o->exists = exists && S_ISREG(lst.st_mode);
    o->mode = o->exists ? lst.st_mode & 07777 : 0;
    o->direct = (exists && !S_ISREG(lst.st_mode)) || access(dir, W_OK | X_OK);
    if (o->direct && !exists) /* no temporary possible, and no file to write in place */
        return cli_fail(err, n, "%s: cannot write: folder %s: %s", path, dir, strerror(EACCES));
    return 0;
}

/* What ev_write_output writes, for cli_output_write_with. */
typedef struct ResultsWriter {
    const EvContext *ctx;
    const EvOutputOptions *opts;
} ResultsWriter;

static int write_results(FILE *f, void *user)
{
    const ResultsWriter *w = user;
    return ev_write_output(w->ctx, f, w->opts);
}

int cli_output_write(const CliOutput *o, const EvContext *ctx, const EvOutputOptions *opts,
                     char *err, size_t n)
{
    ResultsWriter w = { ctx, opts };
    return cli_output_write_with(o, write_results, &w, err, n);
}

int cli_output_write_with(const CliOutput *o, int (*write)(FILE *f, void *user), void *user,
                          char *err, size_t n)
{
    if (!strcmp(o->path, "-"))
        return write(stdout, user) || fflush(stdout)
                   ? cli_fail(err, n, "standard output: write failed: %s", strerror(EIO))
                   : 0;
    char tmp[4200];
    snprintf(tmp, sizeof(tmp), "%s.partial", o->path);
    FILE *f = fopen(o->direct ? o->path : tmp, "w");
    if (!f)
        return cli_fail(err, n, "%s: cannot write: %s", o->path, strerror(errno));
    int ok = !write(f, user) && !ferror(f);
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
        return cli_fail(err, n, "%s: write failed: %s", o->path, strerror(e ? e : EIO));
    }
    return 0;
}

void cli_output_base_name(const char *dis_path, char *name, size_t size)
{
    if (!strcmp(dis_path, "-")) {
        snprintf(name, size, "stdin");
        return;
    }
    const char *slash = strrchr(dis_path, '/');
    const char *file = slash ? slash + 1 : dis_path;
    const char *dot = strrchr(file, '.');
    const size_t len = dot && dot != file ? (size_t)(dot - file) : strlen(file);
    snprintf(name, size, "%.*s", (int)len, file);
}
