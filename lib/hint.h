/*
 * hint.h - the commands contend prints for its user to run next (resume
 * an interrupted experiment, the verbose report): runnable as printed,
 * from any directory, whatever the database path or label holds.  The
 * database is named by its absolute path, each word is shell-quoted
 * where it must be, and the whole command is printed between backticks
 * (`contend run --resume 3 --db /home/me/lab.db`), which is how the
 * tests find and run every hint (tests/e2e_hints.sh).
 */
#ifndef CONTEND_LIB_HINT_H
#define CONTEND_LIB_HINT_H

/*
 * s as one shell word: unchanged when it holds only letters, digits and
 * _ @ % + = : , . / -, else in single quotes (a quote in s as '\'');
 * the empty string as ''.  Malloc'd.
 */
char *hint_word(const char *s);
/*
 * "--db WORD": path made absolute (realpath when the file exists, else
 * joined to the working directory), as hint_word quotes it.  Malloc'd.
 */
char *hint_db(const char *path);

#endif
