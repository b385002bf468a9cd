/*
 * report_mail.c - `contend report --format mail`: one experiment as a
 * reviewer reads it on a mailing list, at most MAIL_COLS columns (mail.h):
 * the kernel, the machine, the design, one row per configuration with
 * its primary metric's mean and interval, its flags by name, and the line
 * that reproduces it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mail.h"
#include "db/contract.h"
#include "analysis/report.h"
#include "lib/numfmt.h"
#include "lib/util.h"

static void flag_list(char *buf, size_t len, const struct config_analysis *ca)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ca->nflags && at + 1 < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "",
				       ca->flags[i].name);
}

int report_mail(FILE *f, const struct analysis *a)
{
	const struct dataset *d = a->d;
	const char *v = experiment_meta(&d->exp, MK_TOOL_VERSION);
	const char *path = d->exp.config_path && *d->exp.config_path
		? d->exp.config_path : NULL;
	const char *base = path && strrchr(path, '/') ? strrchr(path, '/') + 1
						      : path;
	char n[32], o[16], lab[32], ci[NUMFMT_CI_LEN], fl[80], p[32], l[32];
	const struct ds_config **all = xcalloc(d->nconfigs + 1, sizeof(*all));
	size_t i, runs = 0;

	for (i = 0; i < d->nconfigs; i++)
		all[i] = &d->configs[i];
	mail_line(f, "contend %s report: %s, %g%% intervals",
		  mail_shown(l, 20, v), mail_shown(n, 28, d->exp.name),
		  100 * a->opts.confidence);
	mail_kernel(f, "kernel", d);
	mail_machine(f, d);
	for (i = 0; i < a->nconfigs; i++)
		runs += a->configs[i].measured;
	mail_line(f, "design: one invocation, %zu configurations, %zu "
		  "measured runs", a->nconfigs, runs);
	mail_line(f, "        order %s, seed %llu",
		  mail_shown(o, 12, d->exp.order ? d->exp.order : "?"),
		  (unsigned long long)d->exp.seed);
	mail_line(f, "%s", "");
	mail_line(f, "%-30s %4s  %s", "configuration", "runs",
		  mail_shown(n, 24, a->nconfigs && a->configs[0].primary_name
				    ? a->configs[0].primary_name : "mean"));
	for (i = 0; i < a->nconfigs; i++) {
		const struct config_analysis *ca = &a->configs[i];
		const struct ds_config *c = &d->configs[ca->config];
		const struct metric_summary *m = NULL;

		for (size_t k = 0; ca->primary >= 0 && k < ca->nmetrics; k++)
			if (ca->metrics[k].metric == ca->primary)
				m = &ca->metrics[k];
		mail_row_label(f, lab, 30, c->section && *c->section
						? c->section : c->workload,
			       c, all, d->nconfigs);
		flag_list(fl, sizeof(fl), ca);
		mail_line(f, "%-30s %4zu  %s", lab, ca->measured,
			  m ? numfmt_ci(ci, sizeof(ci), m->s.mean, m->s.ci_low,
					m->s.ci_high) : "-");
		if (*fl)
			mail_line(f, "    flags: %s", fl);
	}
	mail_line(f, "%s", "");
	if (base) {
		mail_line(f, "reproduce: config %s (FNV-1a %016llx)",
			  mail_shown(p, 28, base),
			  (unsigned long long)mail_hash(d->exp.config_text));
		mail_line(f, "  contend run %s%s%s", p,
			  d->exp.label && *d->exp.label ? " --label " : "",
			  mail_shown(l, 24, d->exp.label ? d->exp.label : ""));
	}
	mail_line(f, "  contend report %lld --format mail",
		  (long long)d->exp.id);
	free(all);
	return ferror(f) ? -1 : 0;
}
