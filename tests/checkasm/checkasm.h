/*
 * checkasm: every SIMD kernel against its C reference, bit for bit (dav1d's checkasm is the
 * model). Each family file (vif.c, adm.c, motion.c, ssim.c, ...) builds the C table and the table of
 * every level this CPU has, and for each kernel a level changes, runs both on seeded random and
 * extreme inputs at many widths and compares the outputs with memcmp (margins included).
 *
 * usage: checkasm [--seed N] [--function PATTERN] [--bench] [--plant PATTERN] [--list]
 *   --seed      replay a run (the seed is printed; each kernel reseeds from it and its name)
 *   --function  only kernels whose name starts with PATTERN
 *   --bench     also time each kernel at a typical width against its C
 *   --plant     flip one bit of one output of the matching kernels before the compare: the
 *               run must then fail (the checker's own test)
 * Exit 0 when every compare matched, 1 otherwise.
 */
#ifndef EV_TESTS_CHECKASM_H
#define EV_TESTS_CHECKASM_H

#include <stddef.h>
#include <stdint.h>

/* The levels above C, cumulative as the kernel tables' init ladders are. */
typedef struct CheckLevel {
    const char *name;
    unsigned cpu; /* EV_CPU_* flags the table is built with */
} CheckLevel;

int check_n_levels(void);
const CheckLevel *check_level(int i);

/* A family's level ladder. init(table, cpu) fills one kernel table (of size bytes) for the
 * EV_CPU_* flags cpu; check_each_level builds the C table (cpu 0) and, for each level above C,
 * that level's table d, and calls run(c, d, the level's name, arg) to check d against c. */
typedef void CheckInitTable(void *table, unsigned cpu);
typedef void CheckLevelRun(const void *c, const void *d, const char *lvl, void *arg);
void check_each_level(size_t size, CheckInitTable *init, CheckLevelRun *run, void *arg);

/* Start checking kernel `name` at level `lvl` whose pointer is fn (ref: the C one). Returns 0
 * when it is filtered out, is the C kernel itself, or this pointer already passed at a lower
 * level; otherwise reseeds the generator and returns 1. */
int check_func(const void *fn, const void *ref, const char *name, const char *lvl);
/* Record a mismatch of the current kernel (printf-style detail); returns 1 the first time. */
int check_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 1 when --plant matches the current kernel: the family must then corrupt one output bit. */
int check_planted(void);
/* 1 with --bench. */
int check_benching(void);
/* Print a bench line: ns per call of the kernel and of its C. */
void check_bench_report(const char *what, double ns_new, double ns_ref);
double check_now_ns(void);

uint32_t check_rand(void);
/* A row of n samples of `bits` bits (or bytes when bytes == 1): pattern 0 random, 1 all zero,
 * 2 all max, 3 alternating 0/max, 4 random near max, 5 smooth ramp. */
void check_fill(void *buf, size_t n, int bytes, unsigned bits, int pattern);
enum { CHECK_N_PATTERNS = 6 };
/* A row of n floats as the float extractors read samples: v / 2^(bits - 8) + offset, for v of
 * check_fill's pattern (2-byte samples of bits bits). */
void check_fill_floats(float *p, size_t n, unsigned bits, int pattern, float offset);

/* Widths of the tail sweep: 1..67, then a few large odd and even ones. */
int check_next_width(int w);

/* Families. */
void checkasm_vif(void);
void checkasm_adm(void);
void checkasm_motion(void);
void checkasm_psnr(void);
void checkasm_float_vif(void);
void checkasm_ssim(void);
void checkasm_xpsnr(void);
void checkasm_cambi(void);
void checkasm_speed(void);

#endif
