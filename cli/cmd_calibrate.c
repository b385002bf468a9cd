/*
 * cmd_calibrate.c - `contend calibrate CONFIG.ini`: this host's own A/A
 * profile.  Runs the experiment K times (each `contend run` an
 * invocation, label calibrate), then per configuration the variance
 * between and within invocations, the A/A false alarms of compare's
 * model over every split of the invocations into halves, and the
 * smallest change B boots of R runs detect (analysis/calibrate.h),
 * printed and stored with the last experiment (SECTION#N for a sweep's
 * points), where `contend bisect`, `contend compare` and its gate
 * find and cite it.  Invocations of one boot are an approximation of
 * boots: they share the boot's layout, so the between variance they
 * show is a floor of the between-boot one.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "analysis/calibrate.h"
#include "cli/commands.h"
#include "db/store.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include "runner/session.h"

struct calibrate_args {
	const char *config, *db;
	long long k, boots, runs;
	bool quiet;
};

static int set_count(const char *opt, const char *arg, void *field,
		     int value)
{
	long long v;

	if (parse_ll(arg, &v) || v < value || v > 1000)
		return error("%s: '%s' is not a count from %d to 1000", opt,
			     escape_quote(arg), value);
	*(long long *)field = v;
	return 0;
}

#define FIELD(f) offsetof(struct calibrate_args, f)

static const struct opt calibrate_rows[] = {
	{ NULL, 0, "CONFIG.ini", "the experiment to profile", NULL,
	  FIELD(config), 0, 0 },
	DB_ROW(FIELD(db)),
	{ "invocations", 0, "K", "how many times to run it (default 6, at "
	  "least 4)", set_count, FIELD(k), 4, 0 },
	{ "boots", 0, "B", "boots of the design whose smallest detectable "
	  "change is given (default 3)", set_count, FIELD(boots), 1, 0 },
	{ "runs", 0, "R", "runs per boot of that design (default 10)",
	  set_count, FIELD(runs), 1, 0 },
	{ "quiet", 'q', NULL, "no progress on stderr", NULL, FIELD(quiet), 0,
	  0 },
};

const struct opt_cmd calibrate_cli = {
	"calibrate", "this host's A/A profile: its noise and false alarms",
	calibrate_rows, ARRAY_SIZE(calibrate_rows),
	"Runs CONFIG K times as invocations of one level (label calibrate); "
	"without a reboot between them they approximate boots from below. "
	"contend bisect, compare and its gate cite the newest profile of this host.",
};

/*
 * The meta section entry i is stored under: its section, or SECTION#N
 * for the N-th point of a sweep (a section of several configurations),
 * so that no point's profile overwrites another's.  Malloc'd.
 */
static char *meta_section(const struct runner *r, size_t i)
{
	const char *sec = r->cfg.entries[i].section;
	size_t j, n = 0, at = 0;

	for (j = 0; j < r->cfg.nentries; j++)
		if (!strcmp(r->cfg.entries[j].section, sec)) {
			n++;
			if (j <= i)
				at++;
		}
	return n > 1 ? xasprintf("%s#%zu", sec, at) : xstrdup(sec);
}

/* Profile, print and store every entry of r over the experiments ids. */
static int profile(struct runner *r, const struct calibrate_args *a,
		   const int64_t *ids, size_t n)
{
	struct dataset *ds = xcalloc(n + 1, sizeof(*ds));
	size_t i, loaded = 0;
	int ret = 0;

	for (i = 0; i < n; i++, loaded++)
		if (store_load(r->st, ids[i], &ds[i])) {
			ret = EXIT_RUNTIME;
			break;
		}
	{
		char *head = xasprintf("calibrate: %zu invocations of %s on "
				       "this host (one boot: boots differ at "
				       "least this much)", n, a->config);

		wrap_print(stdout, head, 0, 2, 78);
		free(head);
	}
	for (i = 0; i < r->cfg.nentries && !ret; i++) {
		const struct config_entry *e = &r->cfg.entries[i];
		size_t k, two;
		struct calib_profile p;
		char *line;

		line = xasprintf("[%s] %s", e->section, e->canon);
		putchar('\n');
		wrap_print(stdout, line, 0, 4, 78);
		free(line);
		if (calib_profile_of(ds, loaded, e->wl->name, e->canon,
				     config_primary_metric(e),
				     (size_t)a->boots, (size_t)a->runs, &p,
				     &k, &two)) {
			printf("  no profile: %zu of %zu invocations have two "
			       "measured runs or more (at least 4 are needed, "
			       "each with two)\n", two, k);
		} else if (!calib_valid(&p)) {
			printf("  no profile: the runs give no finite variance "
			       "or detectable change; nothing stored\n");
		} else {
			char *sec = meta_section(r, i);

			line = calib_cite(&p, NULL, ids[n - 1], 0);
			fputs("  ", stdout);
			wrap_print(stdout, line, 2, 4, 78);
			free(line);
			if (calib_store(r->st, ids[n - 1], sec, e->wl->name,
					e->canon, &p))
				ret = EXIT_RUNTIME;
			free(sec);
		}
	}
	for (i = 0; i < loaded; i++)
		dataset_release(&ds[i]);
	free(ds);
	return ret;
}

int cmd_calibrate(int argc, char **argv)
{
	struct calibrate_args a = { .k = 6, .boots = 3, .runs = 10 };
	struct runner_opts ro;
	struct runner r;
	int64_t *ids;
	long long i;
	int p, ret = 0;

	memset(&r, 0, sizeof(r));
	p = opt_parse(&calibrate_cli, argc, argv, &a);
	if (p)
		return opt_exit(p);
	ro = (struct runner_opts){ .db = a.db, .label = "calibrate",
				   .quiet = a.quiet };
	ids = xcalloc((size_t)a.k, sizeof(*ids));
	for (i = 0; i < a.k && !ret; i++) {
		ret = runner_load(&r, &ro, a.config);
		if (!ret)
			ret = runner_fresh(&r);
		ids[i] = r.exp.id;
		/* the last session's store and entries profile them all */
		if (ret || i + 1 < a.k)
			runner_release(&r);
	}
	if (!ret) {
		ret = profile(&r, &a, ids, (size_t)a.k);
		runner_release(&r);
	}
	free(ids);
	if (!ret && fflush(stdout))
		ret = EXIT_RUNTIME;
	return ret;
}
