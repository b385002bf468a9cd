/*
 * abfair.c - fairness and latency judged A/B (analysis/abfair.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/abfair.h"
#include "analysis/compare.h"
#include "lib/numfmt.h"
#include "lib/util.h"

static const char *const abfair_names[ABFAIR_N] = {
	[ABFAIR_JAIN] = "jain",
	[ABFAIR_MAX_SHARE] = "max_share",
	[ABFAIR_P99] = "acquire_p99_ns",
};

double abfair_max_share(const struct dataset *d, size_t r)
{
	const struct ds_run *run = &d->runs[r];

	if (run->nthreads < 2 || !d->thread_ops)
		return NAN;
	return stats_max_share(d->thread_ops + run->thread0, run->nthreads);
}

double abfair_starved(const struct dataset *d, size_t r)
{
	const struct ds_run *run = &d->runs[r];
	const uint64_t *ops;
	uint64_t lo, hi;
	size_t i;

	if (run->nthreads < 2 || !d->thread_ops)
		return NAN;
	ops = d->thread_ops + run->thread0;
	lo = hi = ops[0];
	for (i = 1; i < run->nthreads; i++) {
		lo = ops[i] < lo ? ops[i] : lo;
		hi = ops[i] > hi ? ops[i] : hi;
	}
	/* locktorture: "max/2 > min" is a starved run */
	return hi / 2 > lo ? 1 : 0;
}

double abfair_mean(const double *x, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += x[i];
	return n ? s / (double)n : NAN;
}

void abfair_judge(const struct compare_groups *b, const struct compare_groups *c,
		  const struct compare_opts *o, int dir, struct abfair_one *out)
{
	struct compare_opts oo = *o;
	struct compare_stats st;
	size_t nb = 0, nc = 0, i;

	memset(out, 0, sizeof(*out));
	out->base = out->cand = out->change_pct = NAN;
	out->ci_low_pct = out->ci_high_pct = NAN;
	for (i = 0; i < b->k; i++)
		nb += b->sizes[i];
	for (i = 0; i < c->k; i++)
		nc += c->sizes[i];
	if (nb < 2 || nc < 2)
		return;
	oo.dir = (enum direction)dir;
	if (compare_model(b, c, &oo, &st) < 0)
		return;
	out->have = true;
	out->base = st.base.mean;
	out->cand = st.cand.mean;
	out->change_pct = st.change_pct;
	out->ci_low_pct = st.change_ci_low_pct;
	out->ci_high_pct = st.change_ci_high_pct;
	out->worse = dir == DIR_HIGHER ? st.change_ci_high_pct < 0
				       : st.change_ci_low_pct > 0;
	out->better = dir == DIR_HIGHER ? st.change_ci_low_pct > 0
					: st.change_ci_high_pct < 0;
}

bool abfair_traded(const struct abfair *f, bool improved)
{
	bool worse = (f->m[ABFAIR_JAIN].have && f->m[ABFAIR_JAIN].worse) ||
		     (f->m[ABFAIR_MAX_SHARE].have &&
		      f->m[ABFAIR_MAX_SHARE].worse);

	return improved && worse && f->starved_cand >= 0.5;
}

char *abfair_text(const struct abfair *f)
{
	char out[1024] = "", buf[96], b[32], c[32];
	size_t i, len = 0;

	for (i = 0; i < ABFAIR_N; i++) {
		const struct abfair_one *m = &f->m[i];

		if (m->have)
			len += (size_t)snprintf(out + len, sizeof(out) - len,
				"%s%s %s -> %s, %s%s", len ? "; " : "",
				abfair_names[i], numfmt(b, sizeof(b), m->base),
				numfmt(c, sizeof(c), m->cand),
				isnan(m->ci_low_pct) ? "no interval" :
				numfmt_pct_ci(buf, sizeof(buf), m->change_pct,
					      m->ci_low_pct, m->ci_high_pct),
				m->worse ? " (worse)" : m->better ? " (better)" : "");
	}
	if (!isnan(f->starved_base) && !isnan(f->starved_cand))
		len += (size_t)snprintf(out + len, sizeof(out) - len,
			"%sstarved runs (max/2 > min) %.0f%% -> %.0f%%",
			len ? "; " : "", 100 * f->starved_base,
			100 * f->starved_cand);
	return len ? xstrdup(out) : NULL;
}

/* Full precision (%.17g), null when not finite. */
static void num(struct json_writer *w, const char *key, double v)
{
	if (isfinite(v)) {
		json_key(w, key);
		fprintf(w->f, "%.17g", v);
	} else {
		json_null(w, key);
	}
}

void abfair_json(struct json_writer *w, const struct abfair *a)
{
	size_t i;

	for (i = 0; i < ABFAIR_N; i++) {
		const struct abfair_one *m = &a->m[i];

		if (!m->have) {
			json_null(w, abfair_names[i]);
			continue;
		}
		json_open(w, abfair_names[i], '{');
		num(w, "base", m->base);
		num(w, "cand", m->cand);
		num(w, "change_pct", m->change_pct);
		num(w, "ci_low_pct", m->ci_low_pct);
		num(w, "ci_high_pct", m->ci_high_pct);
		json_bool(w, "worse", m->worse);
		json_bool(w, "better", m->better);
		json_close(w, '}');
	}
	num(w, "starved_base", a->starved_base);
	num(w, "starved_cand", a->starved_cand);
}
