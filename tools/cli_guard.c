/* The SIGBUS guard (cli_guard.h). The handler uses only async-signal-safe calls: stat(),
 * write(), _exit(); the messages' text is prepared when the guard is armed. */
#include "cli_guard.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct GuardedFile {
    char path[4096];
    off_t size;         /* at arming */
    char message[4400]; /* "APP: PATH: ...\n" */
    size_t message_len;
} GuardedFile;

static GuardedFile guarded[2];
static char unknown[9000];
static size_t unknown_len;

static void on_sigbus(int sig)
{
    (void)sig;
    for (int i = 0; i < 2; i++) {
        struct stat st;
        if (guarded[i].path[0] && (stat(guarded[i].path, &st) || st.st_size < guarded[i].size)) {
            if (write(STDERR_FILENO, guarded[i].message, guarded[i].message_len) < 0)
                break;
            _exit(1);
        }
    }
    if (write(STDERR_FILENO, unknown, unknown_len) < 0)
        _exit(1);
    _exit(1);
}

static int note(GuardedFile *g, const char *app, const char *path)
{
    struct stat st;
    if (strlen(path) >= sizeof(g->path) || stat(path, &st))
        return -1;
    snprintf(g->path, sizeof(g->path), "%s", path);
    g->size = st.st_size;
    const int n = snprintf(g->message, sizeof(g->message),
                           "%s: %s: the file shrank while it was read (truncated by another "
                           "process?)\n",
                           app, path);
    g->message_len = n > 0 && (size_t)n < sizeof(g->message) ? (size_t)n : 0;
    return g->message_len ? 0 : -1;
}

int cli_guard_mapped_inputs(const char *app, const char *ref_path, const char *dis_path)
{
    memset(guarded, 0, sizeof(guarded));
    if (note(&guarded[0], app, ref_path) || note(&guarded[1], app, dis_path))
        return -1;
    const int n = snprintf(unknown, sizeof(unknown),
                           "%s: %s or %s: a page of the file could not be read (bus error)\n", app,
                           ref_path, dis_path);
    unknown_len = n > 0 && (size_t)n < sizeof(unknown) ? (size_t)n : 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_sigbus;
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGBUS, &sa, NULL) ? -1 : 0;
}

void cli_guard_release(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}
