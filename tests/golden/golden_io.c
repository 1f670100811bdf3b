#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golden/golden_io.h"

const char *golden_shared_dir(void)
{
    const char *env = getenv("EV_SHARED_DIR");
    return env && *env ? env : EV_SHARED_DIR;
}

int golden_available(void)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/golden", golden_shared_dir());
    return access(path, R_OK) == 0;
}

static FILE *open_shared(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", golden_shared_dir(), rel);
    FILE *f = fopen(path, "r");
    if (!f)
        fprintf(stderr, "%s: cannot open: %s\n", path, strerror(errno));
    return f;
}

/* Split a line into tab-separated fields in place; returns the field count. */
static unsigned split_tabs(char *line, char **field, unsigned max)
{
    unsigned n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    while (n < max) {
        field[n++] = line;
        char *tab = strchr(line, '\t');
        if (!tab)
            break;
        *tab = '\0';
        line = tab + 1;
    }
    return n;
}

static void copy_field(char *dst, size_t size, const char *src)
{
    const size_t len = strnlen(src, size - 1);
    memcpy(dst, src, len);
    dst[len] = '\0';
}
#define COPY(dst, src) copy_field((dst), sizeof(dst), (src))

int golden_load_corpus(GoldenCorpus *c)
{
    FILE *f = open_shared("corpus/corpus.tsv");
    if (!f)
        return -1;
    char line[4096], *fld[16];
    c->n = 0;
    fgets(line, sizeof(line), f); /* header */
    while (fgets(line, sizeof(line), f) && c->n < 64) {
        if (split_tabs(line, fld, 16) < 8)
            continue;
        GoldenPair *p = &c->pair[c->n++];
        COPY(p->name, fld[0]);
        COPY(p->ref, fld[1]);
        COPY(p->dis, fld[2]);
        p->width = (unsigned)atoi(fld[3]);
        p->height = (unsigned)atoi(fld[4]);
        p->chroma = (unsigned)atoi(fld[5]);
        p->bitdepth = (unsigned)atoi(fld[6]);
        p->frames = (unsigned)atoi(fld[7]);
    }
    fclose(f);
    return c->n ? 0 : -1;
}

int golden_load_cases(GoldenCases *c)
{
    FILE *f = open_shared("golden/cases.tsv");
    if (!f)
        return -1;
    char line[4096], *fld[8];
    c->n = 0;
    fgets(line, sizeof(line), f);
    while (fgets(line, sizeof(line), f) && c->n < 256) {
        if (split_tabs(line, fld, 8) < 3)
            continue;
        GoldenCase *k = &c->item[c->n++];
        COPY(k->id, fld[0]);
        COPY(k->kind, fld[1]);
        COPY(k->spec, fld[2]);
    }
    fclose(f);
    return c->n ? 0 : -1;
}

static int parse_frame(const char *s)
{
    if (!strcmp(s, "pooled_mean"))
        return GOLDEN_ROW_POOLED_MEAN;
    if (!strcmp(s, "pooled_harmonic_mean"))
        return GOLDEN_ROW_POOLED_HMEAN;
    if (!strcmp(s, "pooled_min"))
        return GOLDEN_ROW_POOLED_MIN;
    if (!strcmp(s, "pooled_max"))
        return GOLDEN_ROW_POOLED_MAX;
    if (!strcmp(s, "aggregate"))
        return GOLDEN_ROW_AGGREGATE;
    if (!strcmp(s, "refused"))
        return GOLDEN_ROW_REFUSED;
    return atoi(s);
}

int golden_load_table(const char *pair_name, GoldenTable *t)
{
    char rel[256];
    snprintf(rel, sizeof(rel), "golden/%s.tsv", pair_name);
    FILE *f = open_shared(rel);
    if (!f)
        return -1;
    unsigned cap = 4096;
    t->n = 0;
    t->row = malloc(cap * sizeof(*t->row));
    char line[8192], *fld[8];
    fgets(line, sizeof(line), f);
    while (t->row && fgets(line, sizeof(line), f)) {
        if (split_tabs(line, fld, 8) < 5)
            continue;
        if (t->n == cap) {
            cap *= 2;
            GoldenRow *r = realloc(t->row, cap * sizeof(*r));
            if (!r)
                break;
            t->row = r;
        }
        GoldenRow *r = &t->row[t->n++];
        COPY(r->case_id, fld[0]);
        r->frame = parse_frame(fld[1]);
        COPY(r->feature, fld[2]);
        r->bits = r->frame == GOLDEN_ROW_REFUSED ? 0 : strtoull(fld[4], NULL, 16);
    }
    fclose(f);
    return t->row ? 0 : -1;
}

void golden_free_table(GoldenTable *t)
{
    free(t->row);
    t->row = NULL;
    t->n = 0;
}
