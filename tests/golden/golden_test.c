/*
 * Golden test: exactvmaf's CPU path against Netflix libvmaf's values in shared/golden, bit for
 * bit. For every pair of shared/corpus/corpus.tsv and every case of shared/golden/cases.tsv
 * whose id matches one of the given patterns, run the case through the public API and compare
 * every per-frame, pooled and aggregate value by its 64 bits; a refused case must be refused.
 *
 * usage: golden_test [--threads N] [--cpumask M] [--pair NAME] CASE_PATTERN...
 *   CASE_PATTERN: an exact case id, or a prefix ending in '*' (e.g. "float_ssim*").
 *   --cpumask: the CPU levels the kernels must not use (EvSettings.cpu_mask, --cpumask).
 * Exit 0 if all match, 1 on any difference (each printed with %.17g and hex), 2 on setup error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exactvmaf/exactvmaf.h"
#include "golden/golden_io.h"
#include "golden/golden_run.h"

static int case_matches(const char *id, int n_pat, char **pat)
{
    for (int i = 0; i < n_pat; i++) {
        const size_t len = strlen(pat[i]);
        if (len && pat[i][len - 1] == '*') {
            if (!strncmp(id, pat[i], len - 1))
                return 1;
        } else if (!strcmp(id, pat[i])) {
            return 1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned threads = 1, cpu_mask = 0;
    const char *only_pair = NULL;
    int argi = 1;
    for (; argi < argc && !strncmp(argv[argi], "--", 2); argi += 2) {
        if (argi + 1 >= argc)
            break;
        if (!strcmp(argv[argi], "--threads"))
            threads = (unsigned)atoi(argv[argi + 1]);
        else if (!strcmp(argv[argi], "--cpumask"))
            cpu_mask = (unsigned)strtoul(argv[argi + 1], NULL, 0);
        else if (!strcmp(argv[argi], "--pair"))
            only_pair = argv[argi + 1];
    }
    if (argi >= argc) {
        fprintf(stderr, "usage: %s [--threads N] [--cpumask M] [--pair NAME] CASE_PATTERN...\n",
                argv[0]);
        return 2;
    }
    if (access(golden_shared_dir(), R_OK)) {
        fprintf(stderr, "%s: not found; golden tests skipped (set EV_SHARED_DIR)\n",
                golden_shared_dir());
        return 77;
    }
    GoldenCorpus corpus;
    GoldenCases cases;
    if (golden_load_corpus(&corpus) || golden_load_cases(&cases))
        return 2;

    unsigned n_cases = 0, n_values = 0, n_bad = 0, n_refused = 0;
    for (unsigned p = 0; p < corpus.n; p++) {
        const GoldenPair *pair = &corpus.pair[p];
        if (only_pair && strcmp(only_pair, pair->name))
            continue;
        GoldenTable table;
        if (golden_load_table(pair->name, &table))
            return 2;
        for (unsigned k = 0; k < cases.n; k++) {
            const GoldenCase *gc = &cases.item[k];
            if (!case_matches(gc->id, argc - argi, argv + argi))
                continue;
            GoldenTally t = { 0 };
            if (golden_run_case(pair, gc, &table, threads, cpu_mask, &t))
                return 2;
            n_cases++;
            n_values += t.compared;
            n_bad += t.different;
            n_refused += t.refused;
        }
        golden_free_table(&table);
    }
    if (!n_cases) {
        fprintf(stderr, "no case matched: nothing was compared\n");
        return 1;
    }
    printf("%u (pair, case) runs, %u values compared bit for bit, %u refusals matched, "
           "%u differences (threads %u, cpumask %u)\n",
           n_cases, n_values, n_refused, n_bad, threads, cpu_mask);
    return n_bad ? 1 : 0;
}
