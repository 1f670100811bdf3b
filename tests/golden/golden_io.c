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

FILE *golden_open(const char *folder, const char *name, const char *mode)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s/%s", golden_shared_dir(), folder, name);
    FILE *f = fopen(path, mode);
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

/* A row of a table: its tab-separated fields (at least the reader's minimum); returns 1 to
 * stop reading (the destination is full or its memory ran out), else 0. */
typedef int RowFn(char **field, void *dst);

/* Read <shared>/<folder>/<name> past its header line, giving each row of at least min_fields
 * fields to row. Returns 0, or -1 when the file cannot be opened. */
static int read_rows(const char *folder, const char *name, unsigned min_fields, RowFn *row,
                     void *dst)
{
    FILE *f = golden_open(folder, name, "r");
    if (!f)
        return -1;
    char line[8192], *field[16];
    int stop = !fgets(line, sizeof(line), f); /* header */
    while (!stop && fgets(line, sizeof(line), f))
        if (split_tabs(line, field, 16) >= min_fields)
            stop = row(field, dst);
    fclose(f);
    return 0;
}

/* corpus.tsv: name ref dis width height chroma bitdepth frames */
static int corpus_row(char **fld, void *dst)
{
    GoldenCorpus *c = dst;
    GoldenPair *p = &c->pair[c->n++];
    COPY(p->name, fld[0]);
    COPY(p->ref, fld[1]);
    COPY(p->dis, fld[2]);
    p->width = (unsigned)atoi(fld[3]);
    p->height = (unsigned)atoi(fld[4]);
    p->chroma = (unsigned)atoi(fld[5]);
    p->bitdepth = (unsigned)atoi(fld[6]);
    p->frames = (unsigned)atoi(fld[7]);
    return c->n == sizeof(c->pair) / sizeof(c->pair[0]);
}

int golden_load_corpus(GoldenCorpus *c)
{
    c->n = 0;
    return read_rows("corpus", "corpus.tsv", 8, corpus_row, c) || !c->n ? -1 : 0;
}

/* cases.tsv: id kind spec */
static int case_row(char **fld, void *dst)
{
    GoldenCases *c = dst;
    GoldenCase *k = &c->item[c->n++];
    COPY(k->id, fld[0]);
    COPY(k->kind, fld[1]);
    COPY(k->spec, fld[2]);
    return c->n == sizeof(c->item) / sizeof(c->item[0]);
}

int golden_load_cases(GoldenCases *c)
{
    c->n = 0;
    return read_rows("golden", "cases.tsv", 3, case_row, c) || !c->n ? -1 : 0;
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

/* A growing GoldenTable; out_of_memory: the table is dropped. */
typedef struct TableFill {
    GoldenTable *t;
    unsigned cap;
    int out_of_memory;
} TableFill;

/* <pair>.tsv: case frame feature value bits */
static int table_row(char **fld, void *dst)
{
    TableFill *fill = dst;
    GoldenTable *t = fill->t;
    if (t->n == fill->cap) {
        const unsigned cap = fill->cap ? 2 * fill->cap : 4096;
        GoldenRow *r = realloc(t->row, cap * sizeof(*r));
        if (!r) {
            fill->out_of_memory = 1;
            return 1;
        }
        t->row = r;
        fill->cap = cap;
    }
    GoldenRow *r = &t->row[t->n++];
    COPY(r->case_id, fld[0]);
    r->frame = parse_frame(fld[1]);
    COPY(r->feature, fld[2]);
    r->bits = r->frame == GOLDEN_ROW_REFUSED ? 0 : strtoull(fld[4], NULL, 16);
    return 0;
}

int golden_load_table(const char *pair_name, GoldenTable *t)
{
    char name[256];
    snprintf(name, sizeof(name), "%s.tsv", pair_name);
    *t = (GoldenTable){ 0 };
    TableFill fill = { t, 0, 0 };
    if (read_rows("golden", name, 5, table_row, &fill) || fill.out_of_memory) {
        golden_free_table(t);
        return -1;
    }
    return 0;
}

void golden_free_table(GoldenTable *t)
{
    free(t->row);
    t->row = NULL;
    t->n = 0;
}
