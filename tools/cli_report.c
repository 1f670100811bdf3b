/* The --plot and --report pages (cli_report.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_fail.h"
#include "cli_report.h"
#include "cli_series.h"
#include "cli_svg.h"

static const char *app = "exactvmaf";

static const char *const style =
    "body{font-family:sans-serif;font-size:14px;margin:24px;color:#222;background:#fff}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:28px}"
    "table{border-collapse:collapse;margin:8px 0}"
    "th,td{border:1px solid #b8c4d0;padding:3px 7px;text-align:right}"
    "th{background:#dbe4ee;cursor:pointer;user-select:none}"
    "th[aria-sort=ascending]::after{content:' \\25B2'}"
    "th[aria-sort=descending]::after{content:' \\25BC'}"
    "td.name,th.name{text-align:left}td.name{white-space:nowrap}"
    "code{background:#f2f2f2;padding:1px 4px}"
    ".swatch{display:inline-block;width:12px;height:12px;margin-right:6px}"
    "p.note{color:#555}";

/* Click a header: sort the body by that column (data-value numbers, missing lowest; the name
 * column as text), again for the other direction. */
static const char *const sort_script =
    "document.querySelectorAll('table.sortable').forEach(function(t){\n"
    "  var heads=t.querySelectorAll('th');\n"
    "  heads.forEach(function(th,col){th.addEventListener('click',function(){\n"
    "    var asc=th.getAttribute('aria-sort')!=='ascending';\n"
    "    heads.forEach(function(h){h.removeAttribute('aria-sort');});\n"
    "    th.setAttribute('aria-sort',asc?'ascending':'descending');\n"
    "    var body=t.tBodies[0],rows=Array.prototype.slice.call(body.rows);\n"
    "    var key=function(r){var c=r.cells[col],v=c.getAttribute('data-value');\n"
    "      return "
    "th.classList.contains('name')?c.textContent:(v===null?-Infinity:parseFloat(v));};\n"
    "    rows.sort(function(a,b){var x=key(a),y=key(b);\n"
    "      var d=typeof x==='string'?x.localeCompare(y):(x<y?-1:x>y?1:0);return asc?d:-d;});\n"
    "    rows.forEach(function(r){body.appendChild(r);});\n"
    "  });});\n"
    "});\n";

/* A number cell: %.6f shown, every digit kept for sorting; "n/a" without a value. */
static void number_cell(FILE *f, const double v)
{
    if (isfinite(v))
        fprintf(f, "<td data-value=\"%.17g\">%.6f</td>", v, v);
    else
        fputs("<td>n/a</td>", f);
}

static void name_cell(FILE *f, const CliSeries *se, const unsigned i)
{
    fprintf(f, "<td class=\"name\"><span class=\"swatch\" style=\"background:%s\"></span>",
            cli_svg_color(i));
    cli_xml_text(f, se->name);
    fputs("</td>", f);
}

static void pooled_table(FILE *f, const CliSeriesSet *set)
{
    fputs("<h2>Pooled scores</h2>\n<p class=\"note\">Click a column to sort.</p>\n"
          "<table id=\"pooled\" class=\"sortable\"><thead><tr><th class=\"name\">distorted</th>"
          "<th>bitrate (kbit/s)</th>",
          f);
    for (unsigned k = 0; k < set->n_stat; k++)
        fprintf(f, "<th>%s</th>", set->stat_name[k]);
    fputs("</tr></thead>\n<tbody>\n", f);
    for (unsigned i = 0; i < set->n_series; i++) {
        const CliSeries *se = &set->series[i];
        fputs("<tr>", f);
        name_cell(f, se, i);
        if (isfinite(se->bitrate))
            fprintf(f, "<td data-value=\"%.17g\">%g</td>", se->bitrate, se->bitrate);
        else
            fputs("<td>n/a</td>", f);
        for (unsigned k = 0; k < set->n_stat; k++)
            number_cell(f, se->pooled[k]);
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

/* The CLI_REPORT_WORST lowest frames of a series, lowest first (ties: the earlier frame). */
static unsigned worst_frames(const CliSeries *se, unsigned *out)
{
    unsigned n = 0;
    for (unsigned k = 0; k < se->n_frames; k++) {
        if (!isfinite(se->score[k]))
            continue;
        unsigned pos = n < CLI_REPORT_WORST ? n++ : CLI_REPORT_WORST;
        while (pos > 0 && se->score[out[pos - 1]] > se->score[k]) {
            if (pos < CLI_REPORT_WORST)
                out[pos] = out[pos - 1];
            pos--;
        }
        if (pos < CLI_REPORT_WORST)
            out[pos] = k;
    }
    return n;
}

static void lows_table(FILE *f, const CliSeriesSet *set)
{
    fprintf(f,
            "<h2>The lows</h2>\n<p class=\"note\">lowN: the mean of the worst N%% of frames; "
            "the %d worst frames of each distorted, lowest first.</p>\n"
            "<table id=\"lows\" class=\"sortable\"><thead><tr><th class=\"name\">distorted</th>",
            CLI_REPORT_WORST);
    for (unsigned k = 0; k < set->n_stat; k++)
        if (set->stat[k].method == EV_POOL_LOW || set->stat[k].method == EV_POOL_MIN)
            fprintf(f, "<th>%s</th>", set->stat_name[k]);
    fputs("<th class=\"name\">worst frames (frame: score)</th></tr></thead>\n<tbody>\n", f);
    for (unsigned i = 0; i < set->n_series; i++) {
        const CliSeries *se = &set->series[i];
        fputs("<tr>", f);
        name_cell(f, se, i);
        for (unsigned k = 0; k < set->n_stat; k++)
            if (set->stat[k].method == EV_POOL_LOW || set->stat[k].method == EV_POOL_MIN)
                number_cell(f, se->pooled[k]);
        unsigned worst[CLI_REPORT_WORST];
        const unsigned n = worst_frames(se, worst);
        fputs("<td class=\"name\">", f);
        for (unsigned w = 0; w < n; w++)
            fprintf(f, "%s%u: %.6f", w ? ", " : "", worst[w], se->score[worst[w]]);
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

static void report_page(FILE *f, const CliSeriesSet *set)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
          "exactvmaf report: ",
          f);
    cli_xml_text(f, set->ref_path);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>exactvmaf report</h1>\n", style);
    fputs("<p class=\"meta\">reference <code>", f);
    cli_xml_text(f, set->ref_path);
    fprintf(f, "</code>, %u distorted, metric <code>", set->n_series);
    cli_xml_text(f, set->metric);
    fprintf(f, "</code>, %u scene cut%s; exactvmaf %s (Netflix libvmaf %s's values)</p>\n",
            set->n_cuts, set->n_cuts == 1 ? "" : "s", ev_version(), ev_netflix_version());
    pooled_table(f, set);
    fputs("<h2>Per-frame scores</h2>\n<div id=\"frames\">\n", f);
    cli_svg_frames(f, set, 0);
    fputs("</div>\n", f);
    lows_table(f, set);
    fputs("<h2>Rate-quality curve</h2>\n<div id=\"rate-quality\">\n", f);
    cli_svg_rate_quality(f, set, 0);
    fprintf(f, "</div>\n<script>\n%s</script>\n</body>\n</html>\n", sort_script);
}

static int write_plot(FILE *f, void *user)
{
    cli_svg_frames(f, user, 1);
    return ferror(f);
}

static int write_report(FILE *f, void *user)
{
    report_page(f, user);
    return ferror(f);
}

int cli_pages_check(const CliSettings *s, CliOutput *plot, CliOutput *report, char *err, size_t n)
{
    if (cli_output_check_path(s, s->plot_path, plot, err, n) ||
        cli_output_check_path(s, s->report_path, report, err, n))
        return -1;
    const char *paths[3] = { s->out_path, s->plot_path, s->report_path };
    for (unsigned i = 0; i < 3; i++)
        for (unsigned j = i + 1; j < 3; j++)
            if (paths[i] && paths[j] && !strcmp(paths[i], paths[j]))
                return cli_fail(err, n, "%s: given to two of -o, --plot and --report", paths[i]);
    return 0;
}

int cli_pages_write(const CliSettings *s, EvContext *const *ctx, const char *const *paths,
                    const unsigned n, const CliOutput *plot, const CliOutput *report)
{
    if (!s->plot_path && !s->report_path)
        return 0;
    CliSeriesSet set;
    char err[4400];
    int rc = cli_series_gather(&set, s, ctx, paths, n, err, sizeof(err));
    if (!rc && s->plot_path)
        rc = cli_output_write_with(plot, write_plot, &set, err, sizeof(err));
    if (!rc && s->report_path)
        rc = cli_output_write_with(report, write_report, &set, err, sizeof(err));
    cli_series_free(&set);
    if (rc)
        fprintf(stderr, "%s: %s\n", app, err);
    return rc;
}
