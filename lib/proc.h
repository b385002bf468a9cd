/*
 * proc.h - a program started from an argv: the one argv splitter (the
 * command workload's argv and env, the prepare and cleanup hooks), the
 * PATH lookup execvp does, and the generic spawner: run this argv,
 * capture its stdout (its stderr to a descriptor, or with it), wait for
 * it under a timeout and an output cap.  `contend exec`'s command
 * workload and `plot`'s gnuplot run through proc_run; a run itself and a
 * hook go through runner/spawn.c, which adds what only the runner needs
 * (clone(CLONE_VFORK), clone3 into a cgroup, a process group killed
 * whole, a cancel pipe, the stderr tail; docs/DESIGN-CHANGES.md).
 *
 * Call sequence:
 *
 *     struct proc p = { .argv = argv, .err = PROC_ERR_OUT };
 *     if (proc_run(&p))           -> not started: errno, p.exec_err
 *         ...
 *     use p.wstatus, p.out, p.outlen, p.overflow, p.timed_out
 *     proc_release(&p);
 */
#ifndef CONTEND_LIB_PROC_H
#define CONTEND_LIB_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* ---- argv ---- */

/*
 * Splits s into words: blanks separate, "double quotes" group (a quoted
 * part joins the unquoted ones around it), \" and \\ escape anywhere,
 * any other backslash is literal; no shell.  Returns 0 with a
 * NULL-terminated malloc'd *argv of *n words (free with proc_argv_free),
 * or -1 with err filled on an unterminated quote.
 */
int proc_split(const char *s, char ***argv, size_t *n, char *err,
	       size_t errlen);
/* Frees a NULL-terminated argv and its words; NULL is nothing. */
void proc_argv_free(char **argv);
/*
 * The executable cmd names as execvp finds it (a name with a '/' as it
 * is, else the first regular executable file of that name on PATH,
 * "/bin:/usr/bin" when PATH is unset or empty), malloc'd; NULL when there
 * is none.
 */
char *proc_path_find(const char *cmd);
/* Why the program at path cmd cannot be run ("does not exist", "is a
 * directory, not a program", ...), or NULL when it can. */
const char *proc_unrunnable(const char *cmd);

/* ---- the spawner ---- */

/* Where the child's stderr goes. */
enum proc_err {
	PROC_ERR_KEEP,          /* ours */
	PROC_ERR_OUT,           /* into out with stdout, as 2>&1 */
	PROC_ERR_FD,            /* err_fd */
};

struct proc {
	/* inputs */
	char *const *argv;      /* argv[0] found as execvp finds it */
	char *const *envp;      /* NULL: this process's environment */
	const char *dir;        /* the child's working directory; NULL: ours */
	enum proc_err err;      /* its stderr; with PROC_ERR_FD, err_fd */
	int err_fd;
	size_t out_max;         /* 0: no cap; past it the child is killed */
	double timeout_s;       /* 0: none; past it the child is killed */
	bool die_with_parent;   /* SIGKILL when the thread that started it
				 * ends (PR_SET_PDEATHSIG) */

	/* outputs */
	pid_t pid;
	char *out;              /* stdout, NUL-ended (NULs inside kept) */
	size_t outlen;
	int wstatus;            /* as from waitpid */
	int exec_err;           /* errno of a failed start in the child
				 * (chdir, dup2, exec): proc_run -1 */
	int read_err;           /* errno of a failed read of its stdout */
	bool overflow;          /* killed: more than out_max bytes */
	bool timed_out;         /* killed: ran past timeout_s */
};

/*
 * Starts p->argv with stdin from /dev/null, stdout on a pipe read into
 * p->out, stderr as p->err says, no signal blocked and SIGPIPE at its
 * default (what this process ignores otherwise stays ignored); reads until end of file, the cap or the timeout (then SIGKILL
 * for the child), and reaps it.  0 once reaped, whatever it did; -1 with
 * errno when it could not be started (pipe or fork failed; or the child
 * failed before its program ran: p->exec_err, and it has been reaped).
 * Nothing is printed.
 */
int proc_run(struct proc *p);
/* Frees p->out. */
void proc_release(struct proc *p);

#endif
