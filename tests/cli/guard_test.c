/*
 * The CLI's SIGBUS guard (tools/cli_guard.c), deterministically: a child maps a file, arms the
 * guard, has the file truncated, and reads the mapped page. It must exit with status 1 (not
 * die of SIGBUS) and print one line naming the file that shrank. Then the same without the
 * guard, which must die of SIGBUS: the scenario really raises it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_guard.h"

static void child(const char *path, const char *other, int arm, int err_fd)
{
    dup2(err_fd, STDERR_FILENO);
    const int fd = open(path, O_RDWR);
    const long page = sysconf(_SC_PAGESIZE);
    volatile const unsigned char *m =
        fd < 0 ? NULL : mmap(NULL, (size_t)page * 4, PROT_READ, MAP_PRIVATE, fd, 0);
    if (!m || m == MAP_FAILED)
        _exit(3);
    if (arm && cli_guard_mapped_inputs("exactvmaf", other, path))
        _exit(4);
    if (!arm) /* the default disposition, also under a sanitizer that handles SIGBUS */
        signal(SIGBUS, SIG_DFL);
    if (ftruncate(fd, 0))
        _exit(5);
    const unsigned char v = m[page * 2];
    _exit(v == 255 ? 6 : 7); /* reached only if no SIGBUS came */
}

/* @return 0 as expected, else 1 with a line on stdout */
static int scenario(const char *path, const char *other, int arm)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return printf("FAIL: cannot write %s\n", path), 1;
    for (int i = 0; i < 65536; i++)
        fputc(i & 255, f);
    fclose(f);
    char err_path[] = "/tmp/ev_guard_err_XXXXXX";
    const int err_fd = mkstemp(err_path);
    if (err_fd < 0)
        return printf("FAIL: mkstemp: %s\n", strerror(errno)), 1;
    const pid_t pid = fork();
    if (pid == 0)
        child(path, other, arm, err_fd);
    int status = 0;
    waitpid(pid, &status, 0);
    char text[512] = "";
    const ssize_t n = pread(err_fd, text, sizeof(text) - 1, 0);
    text[n > 0 ? n : 0] = 0;
    close(err_fd);
    unlink(err_path);
    if (!arm) {
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS)
            return 0;
        return printf("FAIL: without the guard the child did not die of SIGBUS (status %d)\n",
                      status),
               1;
    }
    char want[600];
    snprintf(want, sizeof(want), "exactvmaf: %s: the file shrank while it was read", path);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 1)
        return printf("FAIL: with the guard: status %d (exit %d, signal %d)\n", status,
                      WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                      WIFSIGNALED(status) ? WTERMSIG(status) : 0),
               1;
    if (!strstr(text, want) || strchr(text, '\n') != text + strlen(text) - 1)
        return printf("FAIL: with the guard the message was: %s\n", text), 1;
    printf("ok: %s", text);
    return 0;
}

int main(void)
{
    char dir[] = "/tmp/ev_guard_XXXXXX";
    if (!mkdtemp(dir))
        return printf("FAIL: mkdtemp\n"), 1;
    char path[256], other[256];
    snprintf(path, sizeof(path), "%s/dis.yuv", dir);
    snprintf(other, sizeof(other), "%s/ref.yuv", dir);
    FILE *f = fopen(other, "wb");
    if (f)
        fclose(f);
    const int bad = scenario(path, other, 0) || scenario(path, other, 1);
    unlink(path);
    unlink(other);
    rmdir(dir);
    if (!bad)
        printf("ok: without the guard the read dies of SIGBUS; with it, one line and exit 1\n");
    return bad;
}
