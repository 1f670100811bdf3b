/* SVG charts (cli_svg.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_svg.h"

#define LEFT 64.0
#define PLOT_AREA 720.0 /* the plot's width; the legend's column follows it */
#define TOP 44.0
#define BOTTOM 48.0
#define LEGEND_ROW 18.0

/* One axis: data lo..hi drawn from pixel a to pixel b, ticks every step. */
typedef struct Axis {
    double lo, hi, step, a, b;
} Axis;

const char *cli_svg_color(const unsigned i)
{
    static const char *const palette[] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                           "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf" };
    return palette[i % 10];
}

void cli_xml_text(FILE *f, const char *t)
{
    for (; *t; t++)
        switch (*t) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*t, f);
        }
}

/* 1, 2 or 5 times a power of ten, near span / 5. */
static double nice_step(const double span)
{
    const double raw = span / 5.0;
    const double p = pow(10.0, floor(log10(raw)));
    const double m = raw / p;
    return (m < 1.5 ? 1.0 : m < 3.5 ? 2.0 : m < 7.5 ? 5.0 : 10.0) * p;
}

static Axis make_axis(double lo, double hi, const double a, const double b, const int from_zero)
{
    if (!isfinite(lo) || !isfinite(hi)) {
        lo = 0.0;
        hi = 1.0;
    }
    if (from_zero && lo > 0.0)
        lo = 0.0;
    if (hi - lo < 1e-9) {
        lo -= 0.5;
        hi += 0.5;
    }
    Axis x = { lo, hi, nice_step(hi - lo), a, b };
    x.lo = floor(lo / x.step) * x.step;
    x.hi = ceil(hi / x.step) * x.step;
    return x;
}

static double at(const Axis *x, const double v)
{
    return x->a + (v - x->lo) / (x->hi - x->lo) * (x->b - x->a);
}

/* The legend's column: room for the longest name (11 px text, about 6.5 px a character). */
static double legend_width(const CliSeriesSet *set)
{
    size_t longest = 8;
    for (unsigned i = 0; i < set->n_series; i++) {
        const size_t len = strlen(set->series[i].name);
        longest = len > longest ? len : longest;
    }
    return 60.0 + 6.5 * (double)longest;
}

static void open_svg(FILE *f, const double w, const double h, const char *title, const int document)
{
    if (document)
        fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
            "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
            "font-size=\"12\">\n",
            w, h, w, h);
    fputs("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n", f);
    fprintf(f, "<text x=\"%.0f\" y=\"24\" font-size=\"16\" font-weight=\"bold\">", LEFT);
    cli_xml_text(f, title);
    fputs("</text>\n", f);
}

/* Grid, tick labels and axis names. */
static void draw_axes(FILE *f, const Axis *x, const Axis *y, const char *x_name, const char *y_name)
{
    fputs("<g class=\"axes\" stroke=\"#dddddd\">\n", f);
    for (double v = y->lo; v <= y->hi + y->step * 1e-9; v += y->step)
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", x->a, at(y, v),
                x->b, at(y, v));
    for (double v = x->lo; v <= x->hi + x->step * 1e-9; v += x->step)
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", at(x, v), y->a,
                at(x, v), y->b);
    fputs("</g>\n<g class=\"ticks\" fill=\"#333333\">\n", f);
    for (double v = y->lo; v <= y->hi + y->step * 1e-9; v += y->step)
        fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">%g</text>\n", x->a - 6,
                at(y, v) + 4, fabs(v) < y->step * 1e-9 ? 0.0 : v);
    for (double v = x->lo; v <= x->hi + x->step * 1e-9; v += x->step)
        fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%g</text>\n", at(x, v),
                y->a + 18, fabs(v) < x->step * 1e-9 ? 0.0 : v);
    fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">", (x->a + x->b) / 2, y->a + 38);
    cli_xml_text(f, x_name);
    fprintf(f,
            "</text>\n<text x=\"16\" y=\"%.2f\" text-anchor=\"middle\" "
            "transform=\"rotate(-90 16 %.2f)\">",
            (y->a + y->b) / 2, (y->a + y->b) / 2);
    cli_xml_text(f, y_name);
    fputs("</text>\n</g>\n", f);
}

static void draw_legend(FILE *f, const CliSeriesSet *set)
{
    const double x = LEFT + PLOT_AREA + 16;
    fputs("<g class=\"legend\">\n", f);
    for (unsigned i = 0; i < set->n_series; i++) {
        const double y = TOP + 8 + i * LEGEND_ROW;
        fprintf(f,
                "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
                "stroke-width=\"3\"/><text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">",
                x, y, x + 22, y, cli_svg_color(i), x + 28, y + 4);
        cli_xml_text(f, set->series[i].name);
        fputs("</text>\n", f);
    }
    fputs("</g>\n", f);
}

static double chart_height(const CliSeriesSet *set)
{
    const double legend = TOP + 16 + set->n_series * LEGEND_ROW + BOTTOM;
    return legend > 420.0 ? legend : 420.0;
}

/* Runs of frames with a value, each one polyline. */
static void draw_series(FILE *f, const CliSeries *se, const unsigned i, const Axis *x,
                        const Axis *y)
{
    fprintf(f, "<g class=\"line-%u\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\">\n", i,
            cli_svg_color(i));
    int open = 0;
    for (unsigned k = 0; k <= se->n_frames; k++) {
        const int have = k < se->n_frames && isfinite(se->score[k]);
        if (have && !open)
            fputs("<polyline points=\"", f);
        if (have)
            fprintf(f, "%.2f,%.2f ", at(x, k), at(y, se->score[k]));
        if (!have && open)
            fputs("\"/>\n", f);
        open = have;
    }
    /* a lone frame (one-frame runs draw no line): a dot each */
    for (unsigned k = 0; k < se->n_frames; k++) {
        const int alone = isfinite(se->score[k]) && (k == 0 || !isfinite(se->score[k - 1])) &&
                          (k + 1 == se->n_frames || !isfinite(se->score[k + 1]));
        if (alone)
            fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3\" fill=\"%s\"/>\n", at(x, k),
                    at(y, se->score[k]), cli_svg_color(i));
    }
    fputs("</g>\n", f);
}

void cli_svg_frames(FILE *f, const CliSeriesSet *set, const int document)
{
    const double h = chart_height(set);
    unsigned frames = 1;
    double lo = INFINITY, hi = -INFINITY;
    for (unsigned i = 0; i < set->n_series; i++) {
        const CliSeries *se = &set->series[i];
        frames = se->n_frames > frames ? se->n_frames : frames;
        for (unsigned k = 0; k < se->n_frames; k++)
            if (isfinite(se->score[k])) {
                lo = fmin(lo, se->score[k]);
                hi = fmax(hi, se->score[k]);
            }
    }
    const Axis x = make_axis(0, frames - 1, LEFT, LEFT + PLOT_AREA, 1);
    const Axis y = make_axis(lo, hi, h - BOTTOM, TOP, 0);
    char title[400];
    snprintf(title, sizeof(title), "%s per frame", set->metric);
    open_svg(f, LEFT + PLOT_AREA + legend_width(set), h, title, document);
    draw_axes(f, &x, &y, "frame", set->metric);
    for (unsigned c = 0; c < set->n_cuts; c++)
        fprintf(f,
                "<g class=\"cut\"><line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                "stroke=\"#555555\" stroke-dasharray=\"6 4\"/><text x=\"%.2f\" y=\"%.2f\" "
                "fill=\"#555555\">cut %u</text></g>\n",
                at(&x, set->cuts[c]), y.a, at(&x, set->cuts[c]), y.b, at(&x, set->cuts[c]) + 4,
                y.b + 12, set->cuts[c]);
    for (unsigned i = 0; i < set->n_series; i++)
        draw_series(f, &set->series[i], i, &x, &y);
    draw_legend(f, set);
    fputs("</svg>\n", f);
}

static int by_bitrate(const void *pa, const void *pb)
{
    const CliSeries *a = *(const CliSeries *const *)pa, *b = *(const CliSeries *const *)pb;
    return (a->bitrate > b->bitrate) - (a->bitrate < b->bitrate);
}

void cli_svg_rate_quality(FILE *f, const CliSeriesSet *set, const int document)
{
    const CliSeries **p = malloc((set->n_series ? set->n_series : 1) * sizeof(*p));
    unsigned n = 0;
    double lo = INFINITY, hi = -INFINITY, rmax = 0;
    for (unsigned i = 0; p && i < set->n_series; i++) {
        const CliSeries *se = &set->series[i];
        if (!isfinite(se->bitrate) || !isfinite(se->pooled[0]))
            continue;
        p[n++] = se;
        lo = fmin(lo, se->pooled[0]);
        hi = fmax(hi, se->pooled[0]);
        rmax = fmax(rmax, se->bitrate);
    }
    const double h = 420.0;
    char title[400];
    snprintf(title, sizeof(title), "rate-quality: pooled mean %s against bitrate", set->metric);
    open_svg(f, LEFT + PLOT_AREA + legend_width(set), h, title, document);
    if (n)
        qsort(p, n, sizeof(*p), by_bitrate);
    const Axis x = make_axis(0, rmax, LEFT, LEFT + PLOT_AREA, 1);
    const Axis y = make_axis(lo, hi, h - BOTTOM, TOP, 0);
    draw_axes(f, &x, &y, "bitrate (kbit/s)", set->metric);
    if (!n)
        fprintf(f,
                "<text class=\"empty\" x=\"%.0f\" y=\"%.0f\">no bitrates: give --bitrate once "
                "per -d</text>\n",
                LEFT + 20, h / 2);
    fprintf(f, "<polyline class=\"curve\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
            cli_svg_color(0));
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "%.2f,%.2f ", at(&x, p[i]->bitrate), at(&y, p[i]->pooled[0]));
    fputs("\"/>\n", f);
    for (unsigned i = 0; i < n; i++) {
        fprintf(f,
                "<g class=\"point\"><circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"%s\"/>"
                "<text x=\"%.2f\" y=\"%.2f\">",
                at(&x, p[i]->bitrate), at(&y, p[i]->pooled[0]), cli_svg_color(0),
                at(&x, p[i]->bitrate) + 6, at(&y, p[i]->pooled[0]) - 6);
        cli_xml_text(f, p[i]->name);
        fputs("</text></g>\n", f);
    }
    fputs("</svg>\n", f);
    free(p);
}
