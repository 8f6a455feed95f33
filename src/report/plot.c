/* SPDX-License-Identifier: MIT */
/*
 * plot.c - line charts as standalone SVG (include/cdm/report/plot.h): the tick chooser and
 * the drawing of stacked panels.  Plain SVG 1.1 elements only (rect, line,
 * polyline, polygon, circle, text), a white background and a fixed
 * palette, so any browser or rsvg-convert shows it the same; each colour
 * has a marker shape of its own too, so that lines are told apart printed
 * in grey.  The document head and the escaped text are svg.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cdm/report/plot.h"
#include "svg.h"

#define W 960                   /* document width, px */
#define PANEL_H 340             /* one panel */
#define TOP 56                  /* title block */
#define PL 84                   /* plot area: left edge */
#define PR (W - 250)            /* right edge; the legend is right of it */
#define PT 34                   /* top of the plot area inside a panel */
#define PB (PANEL_H - 54)       /* bottom of the plot area inside a panel */
#define LEGEND_MAX 14           /* entries shown per panel */
#define LANE_BOX 20             /* height of a lane's boxes, px */

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NCOLORS (sizeof(palette) / sizeof(palette[0]))

/* the marker shapes, taken in turn with the palette: circle, square, ... */
enum { SHAPE_CIRCLE, SHAPE_SQUARE, SHAPE_UP, SHAPE_DIAMOND, SHAPE_DOWN, SHAPE_PLUS, NSHAPES };
#define MARK_R 4.0              /* a marker's half width, px */
#define MARKS_MAX 12            /* markers per line, spread along it, without the panel's markers */

/* largest whole number <= v, for |v| < 2^62 */
static double floor_d(double v)
{
	double f = (double)(long long)v;

	return f > v ? f - 1 : f;
}

static double ceil_d(double v)
{
	double f = (double)(long long)v;

	return f < v ? f + 1 : f;
}

int cdm_plot_ticks(double min, double max, unsigned int target, struct cdm_ticks *t)
{
	static const double mult[] = { 1, 2, 5 };
	double range, mag = 1, step = 0;

	if (!isfinite(min) || !isfinite(max) || min > max || !target)
		return -EINVAL;
	if (min == max) {
		if (max > 0)
			min = 0;
		else if (max < 0)
			max = 0;
		else
			max = 1;
	}
	range = max - min;
	/* the power of ten at or below range / target */
	while (mag * 10 <= range / target)
		mag *= 10;
	while (mag > range / target)
		mag /= 10;
	for (int k = 0; !step; k++) {
		double s = mult[k % 3] * mag;

		if (k % 3 == 2)
			mag *= 10;
		if (ceil_d(max / s - 1e-9) - floor_d(min / s + 1e-9) <= target)
			step = s;
	}
	t->step = step;
	t->lo = floor_d(min / step + 1e-9) * step;
	t->hi = ceil_d(max / step - 1e-9) * step;
	t->n = (unsigned int)((t->hi - t->lo) / step + 0.5) + 1;
	return 0;
}

char *cdm_plot_tick_label(char *buf, size_t len, double v, double step)
{
	int dec = 0;
	double s = step;

	while (dec < 6 && s < 1 - 1e-9 && s > 0) {
		s *= 10;
		dec++;
	}
	if (v < 0 && v > -step / 2)
		v = 0;
	snprintf(buf, len, "%.*f", dec, v);
	return buf;
}

/* the distinct x values of all lines, sorted (categorical axis) */
static unsigned int categories(const struct cdm_plot_panel *p, double *cat, unsigned int max)
{
	unsigned int n = 0;

	for (unsigned int l = 0; l < p->nlines; l++) {
		for (unsigned int i = 0; i < p->lines[l].n; i++) {
			double v = p->lines[l].x[i];
			unsigned int k = 0;

			while (k < n && cat[k] < v)
				k++;
			if ((k < n && cat[k] == v) || n == max)
				continue;
			memmove(cat + k + 1, cat + k, (n - k) * sizeof(*cat));
			cat[k] = v;
			n++;
		}
	}
	return n;
}

static unsigned int cat_index(const double *cat, unsigned int n, double v)
{
	for (unsigned int i = 0; i < n; i++)
		if (cat[i] >= v)
			return i;
	return n ? n - 1 : 0;
}

/* where one panel draws: its plot area and the scales of its axes */
struct frame {
	const struct cdm_plot_panel *p;
	double y0, top, bot;            /* panel top, plot area top and bottom, px */
	struct cdm_ticks xt, yt;
	double cat[256];                /* x_categories: the distinct x values */
	unsigned int ncat;
};

/* the x of value @v: by category index, or linear between the x ticks */
static double xpos(const struct frame *f, double v)
{
	if (f->p->x_categories)
		return PL + (f->ncat > 1 ?
			     (double)cat_index(f->cat, f->ncat, v) * (PR - PL - 40) / (f->ncat - 1) + 20 :
			     (PR - PL) / 2.0);
	return PL + (v - f->xt.lo) * (PR - PL) / (f->xt.hi - f->xt.lo);
}

static double ypos(const struct frame *f, double v)
{
	return f->bot - (v - f->yt.lo) * (f->bot - f->top) / (f->yt.hi - f->yt.lo);
}

/* [*@lo, *@hi] widened to cover [@a, @b] (set, when !*@any), unless that is not finite or @b < @a */
static void cover(double *lo, double *hi, int *any, double a, double b)
{
	if (!isfinite(a) || !isfinite(b) || b < a)
		return;
	if (!*any || a < *lo)
		*lo = a;
	if (!*any || b > *hi)
		*hi = b;
	*any = 1;
}

int cdm_plot_x_span(const struct cdm_plot_panel *p, double *lo, double *hi)
{
	int any = 0;

	*lo = *hi = 0;
	for (unsigned int l = 0; l < p->nlines; l++) {
		const struct cdm_plot_line *ln = &p->lines[l];

		for (unsigned int i = 0; i < ln->n; i++)
			if (isfinite(ln->y[i]))
				cover(lo, hi, &any, ln->x[i], ln->x[i]);
		if (!p->x_categories && ln->x_lo < ln->x_hi)
			cover(lo, hi, &any, ln->x_lo, ln->x_hi);
	}
	if (p->x_categories)
		return any;
	if (p->x_lo < p->x_hi)
		cover(lo, hi, &any, p->x_lo, p->x_hi);
	for (unsigned int i = 0; i < p->nbands; i++)
		if (p->bands[i].x0 < p->bands[i].x1)
			cover(lo, hi, &any, p->bands[i].x0, p->bands[i].x1);
	for (unsigned int i = 0; i < p->nlanes; i++)
		for (unsigned int k = 0; k < p->lanes[i].nboxes; k++)
			if (p->lanes[i].boxes[k].x0 < p->lanes[i].boxes[k].x1)
				cover(lo, hi, &any, p->lanes[i].boxes[k].x0, p->lanes[i].boxes[k].x1);
	return any;
}

/*
 * the scales of panel @p at @y0: x over cdm_plot_x_span() (a time axis
 * from 0), y from 0 to its lines' highest point
 */
static void frame_init(struct frame *f, const struct cdm_plot_panel *p, double y0)
{
	double xmin, xmax, ymax = 0;

	f->p = p;
	f->y0 = y0;
	f->top = y0 + PT;
	f->bot = p->nlanes ? f->top + (double)p->nlanes * CDM_PLOT_LANE_H : y0 + PB;
	for (unsigned int l = 0; l < p->nlines; l++)
		for (unsigned int i = 0; i < p->lines[l].n; i++)
			if (isfinite(p->lines[l].x[i]) && isfinite(p->lines[l].y[i]) &&
			    p->lines[l].y[i] > ymax)
				ymax = p->lines[l].y[i];
	cdm_plot_x_span(p, &xmin, &xmax);
	f->ncat = p->x_categories ? categories(p, f->cat, sizeof(f->cat) / sizeof(f->cat[0])) : 0;
	if (!p->x_categories && xmin > 0 && xmin < (xmax - xmin) / 2)
		xmin = 0;       /* time axes start at 0 */
	cdm_plot_ticks(xmin, xmax, 10, &f->xt);
	cdm_plot_ticks(0, ymax * 1.05, 8, &f->yt);
}

/* one x tick at @x labelled @v; with @grid a light vertical line too */
static void x_tick(FILE *out, const struct frame *f, double x, double v, double step, int grid)
{
	char buf[64];

	if (grid)
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eeeeee\"/>\n",
			x, f->top, x, f->bot);
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#000000\"/>\n",
		x, f->bot, x, f->bot + 5);
	cdm_svg_text(out, x, f->bot + 19, "middle", 12, NULL, cdm_plot_tick_label(buf, sizeof(buf), v, step));
}

/* the title, grid, ticks, frame and axis labels of a panel */
static void draw_axes(FILE *out, const struct frame *f)
{
	const struct cdm_plot_panel *p = f->p;
	double top = f->top, bot = f->bot;
	char buf[64];

	cdm_svg_text(out, (PL + PR) / 2.0, f->y0 + 22, "middle", 15, "font-weight=\"bold\"", p->title);
	/* grid and y ticks; lanes have no y axis */
	for (unsigned int i = 0; i < f->yt.n && !p->nlanes; i++) {
		double v = f->yt.lo + i * f->yt.step, y = ypos(f, v);

		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n",
			PL, y, PR, y);
		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#000000\"/>\n",
			PL - 5, y, PL, y);
		cdm_svg_text(out, PL - 8, y + 4, "end", 12, NULL, cdm_plot_tick_label(buf, sizeof(buf), v, f->yt.step));
	}
	/* x ticks */
	if (p->x_categories) {
		for (unsigned int i = 0; i < f->ncat; i++)
			x_tick(out, f, xpos(f, f->cat[i]), f->cat[i], 1, 0);
	} else {
		for (unsigned int i = 0; i < f->xt.n; i++) {
			double v = f->xt.lo + i * f->xt.step;

			x_tick(out, f, xpos(f, v), v, f->xt.step, 1);
		}
	}
	/* axes and their labels */
	fprintf(out, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"none\" stroke=\"#000000\"/>\n",
		PL, top, PR - PL, bot - top);
	cdm_svg_text(out, (PL + PR) / 2.0, bot + 42, "middle", 13, NULL, p->xlabel);
	if (!p->ylabel)
		return;
	snprintf(buf, sizeof(buf), "transform=\"rotate(-90 18 %.1f)\"", (top + bot) / 2);
	cdm_svg_text(out, 18, (top + bot) / 2, "middle", 13, buf, p->ylabel);
}

/* the mark (knee, end of warm-up): a dashed vertical line and its label */
static void draw_mark(FILE *out, const struct frame *f)
{
	const struct cdm_plot_panel *p = f->p;
	double x;

	if (!p->has_mark || !isfinite(p->mark_x) ||
	    !(p->x_categories || (p->mark_x >= f->xt.lo && p->mark_x <= f->xt.hi)))
		return;
	x = xpos(f, p->mark_x);
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444444\" stroke-dasharray=\"6,4\"/>\n",
		x, f->top, x, f->bot);
	if (p->mark_label)
		cdm_svg_text(out, x + 4, f->top + 14, "start", 12, "fill=\"#444444\"", p->mark_label);
}

/* a <title> (a tooltip) inside the element just opened; none for NULL */
static void tooltip(FILE *out, const char *s)
{
	if (!s)
		return;
	fputs("<title>", out);
	cdm_svg_esc(out, s, 200);
	fputs("</title>", out);
}

/*
 * the bands of a time axis, under everything else: shaded in turn so that
 * neighbours differ in grey as well as in print, each with a tooltip
 */
static void draw_band_shades(FILE *out, const struct frame *f)
{
	const struct cdm_plot_panel *p = f->p;

	for (unsigned int i = 0; i < p->nbands; i++) {
		const struct cdm_plot_band *b = &p->bands[i];
		double x0 = b->x0 < f->xt.lo ? f->xt.lo : b->x0;
		double x1 = b->x1 > f->xt.hi ? f->xt.hi : b->x1;

		if (p->x_categories || !isfinite(x0) || !isfinite(x1) || x1 <= x0)
			continue;
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">",
			xpos(f, x0), f->top, xpos(f, x1) - xpos(f, x0), f->bot - f->top,
			i % 2 ? "#f6f6f6" : "#e9e9e9");
		tooltip(out, b->tip ? b->tip : b->label);
		fputs("</rect>\n", out);
	}
}

/* where each band starts, a solid line; its label inside it where it fits */
static void draw_band_marks(FILE *out, const struct frame *f)
{
	const struct cdm_plot_panel *p = f->p;

	for (unsigned int i = 0; i < p->nbands; i++) {
		const struct cdm_plot_band *b = &p->bands[i];
		double x0, x1;

		if (p->x_categories || !isfinite(b->x0) || !isfinite(b->x1) || b->x1 <= b->x0 ||
		    b->x0 < f->xt.lo || b->x0 >= f->xt.hi)
			continue;
		x0 = xpos(f, b->x0);
		x1 = xpos(f, b->x1 > f->xt.hi ? f->xt.hi : b->x1);
		if (x0 > PL + 0.5)
			fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#777777\"/>\n",
				x0, f->top, x0, f->bot);
		/* about 6.5 px a character at 11 px: a label that does not fit is left out */
		if (b->label && (x1 - x0) >= 6.5 * (double)strlen(b->label) + 6)
			cdm_svg_text(out, x0 + 3, f->top + 12, "start", 11, "fill=\"#333333\"", b->label);
	}
}

/*
 * the marker of palette index @color centred at (@x, @y): its shape
 * (circle, square, triangle, diamond, triangle down, plus, in turn) in its
 * colour; @hollow (a dashed line's) white inside
 */
static void marker(FILE *out, double x, double y, int color, int hollow)
{
	/* the polygons' corners in MARK_R, their mean at the centre */
	static const struct {
		unsigned int n;
		double v[24];
	} poly[NSHAPES] = {
		[SHAPE_UP] = { 3, { 0, -1.15, 1, 0.58, -1, 0.58 } },
		[SHAPE_DIAMOND] = { 4, { 0, -1.3, 1.3, 0, 0, 1.3, -1.3, 0 } },
		[SHAPE_DOWN] = { 3, { 0, 1.15, -1, -0.58, 1, -0.58 } },
		[SHAPE_PLUS] = { 12, { -0.4, -1.2, 0.4, -1.2, 0.4, -0.4, 1.2, -0.4, 1.2, 0.4, 0.4, 0.4,
				       0.4, 1.2, -0.4, 1.2, -0.4, 0.4, -1.2, 0.4, -1.2, -0.4, -0.4, -0.4 } },
	};
	unsigned int shape = (unsigned int)color % NSHAPES;
	const char *col = palette[(unsigned int)color % NCOLORS];

	if (shape == SHAPE_CIRCLE) {
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"", x, y, MARK_R);
	} else if (shape == SHAPE_SQUARE) {
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"",
			x - MARK_R * 0.9, y - MARK_R * 0.9, MARK_R * 1.8, MARK_R * 1.8);
	} else {
		fputs("<polygon points=\"", out);
		for (unsigned int i = 0; i < poly[shape].n; i++)
			fprintf(out, "%s%.1f,%.1f", i ? " " : "", x + poly[shape].v[2 * i] * MARK_R,
				y + poly[shape].v[2 * i + 1] * MARK_R);
		fputc('"', out);
	}
	fprintf(out, " fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
		hollow ? "#ffffff" : col, col);
}

/*
 * one line in its colour @col: its points; its markers (marker()), at
 * every point with the panel's markers, else at most MARKS_MAX spread
 * along it, a line's first a little later than the line before's, so
 * that neighbours' do not cover each other (a line of one point, which a
 * polyline does not show, is its marker); its knee
 */
static void draw_line(FILE *out, const struct frame *f, const struct cdm_plot_line *ln,
		      const char *col)
{
	unsigned int npts = 0, step, phase;

	for (unsigned int i = 0; i < ln->n; i++)
		npts += isfinite(ln->x[i]) && isfinite(ln->y[i]);
	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", col,
		ln->dashed ? " stroke-dasharray=\"5,3\"" : "");
	for (unsigned int i = 0; i < ln->n; i++)
		if (isfinite(ln->x[i]) && isfinite(ln->y[i]))
			fprintf(out, "%.1f,%.1f ", xpos(f, ln->x[i]), ypos(f, ln->y[i]));
	fputs("\"/>\n", out);
	step = f->p->markers ? 1 : (npts + MARKS_MAX - 1) / MARKS_MAX;
	phase = step > 1 ? (unsigned int)ln->color % step : 0;
	for (unsigned int i = 0, k = 0; i < ln->n; i++)
		if (isfinite(ln->x[i]) && isfinite(ln->y[i]) && k++ % step == phase)
			marker(out, xpos(f, ln->x[i]), ypos(f, ln->y[i]), ln->color, ln->dashed);
	if (ln->has_knee && ln->knee < ln->n && isfinite(ln->x[ln->knee]) &&
	    isfinite(ln->y[ln->knee])) {
		double kx = xpos(f, ln->x[ln->knee]), ky = ypos(f, ln->y[ln->knee]);

		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n",
			kx, ky, col);
		cdm_svg_text(out, kx, ky - 13, "middle", 12, "font-weight=\"bold\"", "knee");
	}
}

/*
 * legend entry number *@shown for @ln, its stroke and marker as on the
 * line; past LEGEND_MAX one "more" note
 */
static void draw_legend(FILE *out, const struct frame *f, const struct cdm_plot_line *ln,
			const char *col, unsigned int *shown)
{
	if (*shown < LEGEND_MAX) {
		double ly = f->top + 8 + (*shown)++ * 20;

		fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"%s/>\n",
			PR + 10, ly, PR + 40, ly, col,
			ln->dashed ? " stroke-dasharray=\"5,3\"" : "");
		marker(out, PR + 25, ly, ln->color, ln->dashed);
		cdm_svg_text(out, PR + 46, ly + 4, "start", 12, NULL, ln->name);
	} else if ((*shown)++ == LEGEND_MAX) {
		cdm_svg_text(out, PR + 16, f->top + 12 + LEGEND_MAX * 20, "start", 12, NULL,
		     "(more lines not listed)");
	}
}

/* the x px of @v, kept inside the plot area */
static double xclip(const struct frame *f, double v)
{
	double x = xpos(f, v);

	return x < PL ? PL : x > PR ? PR : x;
}

/*
 * row @i of a panel of lanes: its boxes (the window's dark), the window's
 * outline, the round numbers that fit; its swatch, name and note at the right
 */
static void draw_lane(FILE *out, const struct frame *f, const struct cdm_plot_lane *ln,
		      unsigned int i)
{
	double y = f->top + (double)i * CDM_PLOT_LANE_H, by = y + (CDM_PLOT_LANE_H - LANE_BOX) / 2.0;
	double wx0 = -1, wx1 = -1;

	for (unsigned int k = 0; k < ln->nboxes; k++) {
		const struct cdm_plot_band *b = &ln->boxes[k];
		int win = k >= ln->win0 && k < ln->win1;
		double x0, x1;

		if (!isfinite(b->x0) || !isfinite(b->x1) || b->x1 <= b->x0)
			continue;
		x0 = xclip(f, b->x0);
		x1 = xclip(f, b->x1);
		if (k == ln->win0)
			wx0 = x0;
		if (win)
			wx1 = x1;
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\" stroke=\"#777777\">",
			x0, by, x1 - x0, LANE_BOX, win ? "#555555" : k % 2 ? "#f6f6f6" : "#e0e0e0");
		tooltip(out, b->tip ? b->tip : b->label);
		fputs("</rect>\n", out);
		if (b->label && x1 - x0 >= cdm_svg_width(b->label, 11, 0) + 4)
			cdm_svg_text(out, (x0 + x1) / 2, by + LANE_BOX / 2.0 + 4, "middle", 11,
				     win ? "fill=\"#ffffff\"" : "fill=\"#333333\"", b->label);
	}
	if (wx0 >= 0 && wx1 > wx0) {
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"none\" stroke=\"#000000\" stroke-width=\"2\">",
			wx0, by - 1, wx1 - wx0, LANE_BOX + 2);
		tooltip(out, ln->win_tip);
		fputs("</rect>\n", out);
	}
	fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>\n",
		PR + 10, y + 10, PR + 40, y + 10, palette[(unsigned int)ln->color % NCOLORS]);
	marker(out, PR + 25, y + 10, ln->color, 0);
	cdm_svg_text_fit(out, PR + 46, y + 14, "start", 12, NULL, ln->name, W - PR - 50);
	if (ln->note)
		cdm_svg_text_fit(out, PR + 16, y + 27, "start", 11, "fill=\"#333333\"", ln->note,
				 W - PR - 20);
}

static void panel(FILE *out, const struct cdm_plot_panel *p, double y0)
{
	struct frame f;
	unsigned int shown = 0;

	frame_init(&f, p, y0);
	if (p->nlanes) {
		draw_axes(out, &f);
		for (unsigned int i = 0; i < p->nlanes; i++)
			draw_lane(out, &f, &p->lanes[i], i);
		return;
	}
	draw_band_shades(out, &f);
	draw_axes(out, &f);
	draw_band_marks(out, &f);
	draw_mark(out, &f);
	/* lines, then the legend */
	for (unsigned int l = 0; l < p->nlines; l++) {
		const struct cdm_plot_line *ln = &p->lines[l];
		const char *col = palette[(unsigned int)ln->color % NCOLORS];

		draw_line(out, &f, ln, col);
		if (!ln->no_legend)
			draw_legend(out, &f, ln, col, &shown);
	}
	/* the notes under the legend */
	if (shown > LEGEND_MAX + 1)
		shown = LEGEND_MAX + 1;
	for (unsigned int i = 0, k = 0; i < CDM_PLOT_NOTES; i++)
		if (p->note[i])
			cdm_svg_text(out, PR + 16, f.top + 16 + shown * 20 + 16 * k++, "start", 12,
			     "fill=\"#333333\"", p->note[i]);
}

/* the height of panel @p, px: a line panel's, or its lanes' and its axes' */
static unsigned int panel_h(const struct cdm_plot_panel *p)
{
	return p->nlanes ? PT + p->nlanes * CDM_PLOT_LANE_H + PANEL_H - PB : PANEL_H;
}

int cdm_plot_svg(FILE *out, const char *title, const char *subtitle,
		 const struct cdm_plot_panel *p, unsigned int np)
{
	unsigned int h = TOP + 10;
	double y = TOP;

	for (unsigned int i = 0; i < np; i++)
		h += panel_h(&p[i]);

	cdm_svg_head(out, W, (int)h);
	/* a label in them too long for the width is cut with an ellipsis, not off the page */
	cdm_svg_text_fit(out, W / 2.0, 24, "middle", 18, "font-weight=\"bold\"", title, W - 20);
	if (subtitle)
		cdm_svg_text_fit(out, W / 2.0, 44, "middle", 12, "fill=\"#444444\"", subtitle, W - 20);
	for (unsigned int i = 0; i < np; i++) {
		panel(out, &p[i], y);
		y += panel_h(&p[i]);
	}
	fputs("</svg>\n", out);
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}
