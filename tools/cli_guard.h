/* The CLI's guard for inputs read in place (ev_video_read_mapped): a file truncated by another
 * process while its frames are mapped makes the next read of those pages raise SIGBUS. The
 * library cannot catch it (it installs no handlers); the CLI owns its process and turns it into
 * one line naming the file that shrank, and exit status 1, instead of a crash. */
#ifndef EV_TOOLS_CLI_GUARD_H
#define EV_TOOLS_CLI_GUARD_H

/* Note the two files' sizes now and handle SIGBUS from here on. @return 0, or -1 (not armed:
 * a path too long, or sigaction refused). */
int cli_guard_mapped_inputs(const char *app, const char *ref_path, const char *dis_path);

/* SIGBUS back to its default. */
void cli_guard_release(void);

#endif
