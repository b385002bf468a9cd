# contend — build, test, and set-up.  GNU make.
#
# Sources are found by wildcard so that adding a module or a workload
# never needs a Makefile edit; tests are tests/test_<module>.c, each its
# own cmocka binary linked against every library object.

PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
CC      ?= cc

VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
PKGS    := gsl sqlite3 inih zlib

WARN    := -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes \
	   -Wstrict-prototypes -Wvla -Wwrite-strings -Wfloat-equal
CFLAGS  ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(SAN) -I. -I$(BUILD) \
	   $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LIBS    = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpthread -lm
TLIBS   = $(shell pkg-config --libs cmocka 2>/dev/null)
# The runner starts the binary afresh for every run (`contend exec`), so
# the binary takes GSL, SQLite, inih and zlib in statically when their archives
# are installed (Debian's -dev packages ship them): each run then maps and
# relocates three libraries fewer, 0.5 ms of CPU a run
# (docs/PERFORMANCE.md).  STATIC_LIBS=no links them as the tests do.
SLIBS   := $(filter-out -lm,$(shell pkg-config --libs $(PKGS) 2>/dev/null))
STATIC_LIBS ?= $(if $(filter-out /%,$(foreach l,$(SLIBS:-l%=%),\
	   $(shell $(CC) -print-file-name=lib$(l).a))),no,yes)
SLINK   = -Wl,-Bstatic $(SLIBS) -Wl,-Bdynamic -lpthread -lm
BIN_LIBS = $(if $(filter yes,$(STATIC_LIBS)),$(SLINK),$(LIBS))

# The kernel lock wait of every run (runner/kinstr/bpf.c, docs/KLOCK.md): a BPF
# program compiled with clang, turned into a skeleton header with bpftool
# and linked with libbpf (Debian: clang, bpftool, libbpf-dev), against a
# vmlinux.h dumped from this kernel's BTF into $(BUILD)/runner/kinstr/bpf.  Where any is
# missing (or KBPF=no), contend builds without it and counts kernel locks
# with perf events (runner/kinstr/count.c) alone.
comma   := ,
BPFTOOL ?= $(shell command -v bpftool 2>/dev/null || \
	   { [ -x /usr/sbin/bpftool ] && echo /usr/sbin/bpftool; })
BPF_CC  ?= clang
KBPF    ?= $(if $(and $(BPFTOOL),$(shell command -v $(BPF_CC) 2>/dev/null),\
	   $(shell pkg-config --exists libbpf && echo y),\
	   $(wildcard /sys/kernel/btf/vmlinux)),yes,no)
ifeq ($(KBPF),yes)
ALL_CFLAGS += -DCONTEND_BPF
BPF_LIBS := $(shell pkg-config --libs libbpf) \
	   $(shell pkg-config --static --libs libelf)
LIBS    += $(BPF_LIBS)
# statically, as GSL and SQLite, where every archive is installed
BPF_STATIC := $(if $(filter-out /%,$(foreach l,$(BPF_LIBS:-l%=%),\
	   $(shell $(CC) -print-file-name=lib$(l).a))),no,yes)
SLINK   += $(if $(filter yes,$(BPF_STATIC)),-Wl$(comma)-Bstatic $(BPF_LIBS) \
	   -Wl$(comma)-Bdynamic,$(BPF_LIBS))
endif

SRC     := $(wildcard lib/*.c db/*.c runner/*.c runner/kinstr/*.c runner/workloads/*.c analysis/*.c plots/*.c cli/*.c)
LIBSRC  := $(filter-out cli/main.c,$(SRC))
LIBOBJ  := $(LIBSRC:%.c=$(BUILD)/%.o) $(BUILD)/db/schema.o
TESTS   := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
# Each fuzz target also builds, without libFuzzer, into a test that replays
# its committed inputs (tests/fuzz/replay.c).
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
TESTS   += $(FUZZ_TARGETS:%=$(BUILD)/tests/test_fuzz_%)

.PHONY: all deps run check check-loaded check-unit check-e2e asan tsan check-faults fuzz fuzz-build fuzz-merge bench sim install \
	clean lint lint-layers lint-cycles lint-cppcheck lint-tidy lint-scan format

all: contend

contend: $(BUILD)/contend
	cp $< $@

$(BUILD)/contend: $(BUILD)/cli/main.o $(BUILD)/libcontend.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(BIN_LIBS)

$(BUILD)/libcontend.a: $(LIBOBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# The version and compiler live in a generated header rewritten only when
# they change, so a new commit rebuilds what prints them and nothing else.
$(BUILD)/version.h: FORCE
	@mkdir -p $(dir $@)
	@printf '#define CONTEND_VERSION "%s"\n#define CONTEND_CC "%s"\n' \
	  '$(VERSION)' '$(shell $(CC) --version 2>/dev/null | head -n1)' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(BUILD)/cli/main.o $(BUILD)/runner/host.o $(BUILD)/runner/start_checks.o: $(BUILD)/version.h

ifeq ($(KBPF),yes)
$(BUILD)/runner/kinstr/bpf.o: $(BUILD)/runner/kinstr/bpf/klock.skel.h

$(BUILD)/runner/kinstr/bpf/vmlinux.h:
	@mkdir -p $(dir $@)
	$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@.tmp
	mv $@.tmp $@

$(BUILD)/runner/kinstr/bpf/klock.bpf.o: runner/kinstr/bpf/klock.bpf.c runner/kinstr/bpf/kbpf_shared.h \
		$(BUILD)/runner/kinstr/bpf/vmlinux.h
	$(BPF_CC) -g -O2 -target bpf -I$(BUILD)/runner/kinstr/bpf -Irunner/kinstr/bpf \
	  -c -o $@ $<

$(BUILD)/runner/kinstr/bpf/klock.skel.h: $(BUILD)/runner/kinstr/bpf/klock.bpf.o
	$(BPFTOOL) gen skeleton $< name klock_bpf > $@.tmp
	mv $@.tmp $@
endif

FORCE:

# The schema is compiled in, so a binary never depends on finding a file.
$(BUILD)/db/schema.c: db/schema.sql
	@mkdir -p $(dir $@)
	{ echo 'const char store_schema_sql[] ='; \
	  sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' $<; echo ';'; } > $@

$(BUILD)/db/schema.o: $(BUILD)/db/schema.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(BUILD)/libcontend.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libcontend.a $(LIBS) $(TLIBS)

$(BUILD)/tests/test_fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(BUILD)/libcontend.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/fuzz/replay.c $(BUILD)/libcontend.a $(LIBS)

deps:
	sh scripts/deps.sh

run: deps
	$(MAKE) -j$$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2) all
	./contend run configs/quick.ini --label quick --db db/contend.db
	./contend report --db db/contend.db
	./contend plot --db db/contend.db

check: $(BUILD)/contend $(TESTS)
	sh tests/run-all.sh $(BUILD) $(abspath $(BUILD)/contend)

# make check-faults: the slow fault-injection tests of tests/faults/ (a
# runner SIGKILLed or interrupted at random moments, disk full, concurrent
# runners, orphans, floods) against this build's binary.
# The same tests with both CPUs kept busy: none may need a quiet machine.
check-loaded: $(BUILD)/contend $(TESTS)
	sh scripts/with-load.sh sh tests/run-all.sh $(BUILD) $(abspath $(BUILD)/contend)

check-faults: $(BUILD)/contend
	sh tests/faults/run.sh $(abspath $(BUILD)/contend)

asan:
	$(MAKE) -j2 BUILD=build-asan CC=clang \
	  SAN='-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer' \
	  CFLAGS='-O1 -g' check

# make tsan: the workload tests (threads, locks, forks) under
# ThreadSanitizer.  No suppression file: the futex mutex needs none (its
# lock word is only touched by C11 atomics with acquire/release order, and
# TSan derives happens-before from those; the futex syscalls only sleep
# and wake), and every report is a failure (halt_on_error).
TSAN_TESTS := locks chat creat command scratch
tsan:
	$(MAKE) -j2 BUILD=build-tsan CC=clang SAN='-fsanitize=thread' \
	  CFLAGS='-O1 -g' $(TSAN_TESTS:%=build-tsan/tests/test_%)
	pass=0; fail=0; for t in $(TSAN_TESTS); do \
	  if TSAN_OPTIONS='halt_on_error=1 second_deadlock_stack=1' \
	     build-tsan/tests/test_$$t; then pass=$$((pass + 1)); \
	  else fail=$$((fail + 1)); echo "FAILED: test_$$t (tsan)"; fi; \
	done; echo "tsan: $$pass passed, $$fail failed"; [ $$fail -eq 0 ]

# make fuzz: every tests/fuzz/fuzz_NAME.c is a libFuzzer target, run for
# FUZZ_TIME seconds on its committed seed corpus tests/fuzz/corpus/NAME
# (read only) plus build-fuzz/corpus/NAME, where new inputs go.  UBSan
# findings abort like ASan's; stderr (the parsers' messages about rejected
# input) is closed, libFuzzer still prints its own report of a crash,
# which it saves as build-fuzz/NAME-crash-*; tests/fuzz/NAME.dict, when
# present, is its dictionary.  `make fuzz-merge` folds the new inputs that
# add coverage into the committed corpora.
FUZZ_BINS := $(FUZZ_TARGETS:%=build-fuzz/fuzz_%)
FUZZ_TIME ?= 30
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_RUN = -max_total_time=$(FUZZ_TIME) -max_len=65536 -timeout=30 \
	   -close_fd_mask=2 -artifact_prefix=build-fuzz/$$t- \
	   $$( [ -f tests/fuzz/$$t.dict ] && echo -dict=tests/fuzz/$$t.dict )
fuzz: fuzz-build
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p build-fuzz/corpus/$$t tests/fuzz/corpus/$$t; \
	  build-fuzz/fuzz_$$t $(FUZZ_RUN) build-fuzz/corpus/$$t \
	    tests/fuzz/corpus/$$t > build-fuzz/fuzz_$$t.log 2>&1 || \
	    { tail -n 60 build-fuzz/fuzz_$$t.log; echo "fuzz: $$t FAILED"; exit 1; }; \
	  echo "fuzz: $$t $(FUZZ_TIME) s: $$(grep -E '^#[0-9]+' build-fuzz/fuzz_$$t.log | tail -n 1)"; \
	done

# The library with coverage instrumentation, then the targets against it
# (a second make, so that the targets see the library's new timestamp).
fuzz-build:
	$(MAKE) -j2 BUILD=build-fuzz CC=clang CFLAGS='-O1 -g' \
	  SAN='-fsanitize=fuzzer-no-link $(FUZZ_SAN)' build-fuzz/libcontend.a
	$(MAKE) $(FUZZ_BINS)

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c build-fuzz/libcontend.a
	clang -std=c11 -D_GNU_SOURCE -g -O1 -I. -fsanitize=fuzzer $(FUZZ_SAN) \
	  $(shell pkg-config --cflags $(PKGS) 2>/dev/null) -o $@ $< \
	  build-fuzz/libcontend.a $(LIBS)

fuzz-merge: fuzz-build
	for t in $(FUZZ_TARGETS); do \
	  build-fuzz/fuzz_$$t -merge=1 -max_len=65536 -close_fd_mask=2 \
	    tests/fuzz/corpus/$$t build-fuzz/corpus/$$t || exit 1; \
	done

bench: all
	sh scripts/bench-deps.sh
	sh bench/run.sh

# make sim: compare's simulation checks (tests/test_compare_sim.c) with
# 20000 trials per design instead of make check's 2000; the figures of
# docs/STATISTICS.md "Validation by simulation"; the regimes test's false
# alarms and detection at 20000 samples a cell, the other statistics
# tried and the bound on any test at n = 30 ("Regimes"); history's
# table of steps, transients, staircases and drifts at K = 10, 20, 50 at
# 400 series a cell and the bound on a search for the staircase's second
# step at K = 10 and 20 ("History"); bisect's operating characteristics over
# one boot, three and the whole sequence of five ("Bisect").
SIM_TRIALS ?= 20000
sim: $(BUILD)/tests/test_compare_sim $(BUILD)/tests/test_history $(BUILD)/tests/test_history_bound $(BUILD)/tests/test_seqtest $(BUILD)/tests/test_regimes_sim $(BUILD)/tests/test_regimes_bound $(BUILD)/tests/test_bisect_sim
	CONTEND_SIM_TRIALS=$(SIM_TRIALS) $(BUILD)/tests/test_compare_sim
	CONTEND_SIM_TRIALS=400 $(BUILD)/tests/test_history
	$(BUILD)/tests/test_history_bound --bound 10
	$(BUILD)/tests/test_history_bound --bound 20
	CONTEND_SIM_TRIALS=10000 $(BUILD)/tests/test_seqtest
	CONTEND_SIM_TRIALS=10000 $(BUILD)/tests/test_bisect_sim --figures
	CONTEND_SIM_TRIALS=20000 $(BUILD)/tests/test_regimes_sim --figures
	CONTEND_SIM_TRIALS=4000 $(BUILD)/tests/test_regimes_sim --methods 30
	CONTEND_SIM_TRIALS=1000 $(BUILD)/tests/test_regimes_bound --bound
	CONTEND_SIM_TRIALS=1000 $(BUILD)/tests/test_regimes_bound --bound 9002
	CONTEND_SIM_TRIALS=10000 $(BUILD)/tests/test_regimes_bound --bound-mix 9101
	CONTEND_SIM_TRIALS=10000 $(BUILD)/tests/test_regimes_bound --bound-mix 9102

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 contend $(DESTDIR)$(PREFIX)/bin/contend
	install -m 644 docs/contend.1 $(DESTDIR)$(PREFIX)/share/man/man1/contend.1

# make lint: the layer order of the includes (scripts/check-layers.sh),
# no call cycle between the files of a folder (scripts/check-cycles.sh,
# over the objects' symbols, so after a build), then three static
# checkers, each with zero findings.
#  cppcheck   the classes warning, performance, portability (and its
#             always-on error class) over the sources and the tests; the
#             style class is left out: its variableScope advice contradicts
#             docs/STYLE.md's declarations at the top of a block.
#  clang-tidy the check list in .clang-tidy, with the reason for every
#             check left out; any finding is an error.
#  scan-build the clang static analyzer's default checkers over a fresh
#             build of the binary (a fresh one: an up-to-date object would
#             not be analysed at all).
LINT_FLAGS = -std=c11 -D_GNU_SOURCE -I. -I$(BUILD) \
	   $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
lint: lint-layers lint-cycles lint-symbols lint-size lint-cppcheck lint-tidy lint-scan

lint-layers:
	sh scripts/check-layers.sh

lint-cycles: $(LIBOBJ) $(BUILD)/cli/main.o
	BUILD=$(BUILD) sh scripts/check-cycles.sh

# Every external symbol used by another product file (or a tested seam).
lint-symbols: $(LIBOBJ) $(BUILD)/cli/main.o
	BUILD=$(BUILD) sh scripts/check-symbols.sh

# No product source file over 700 lines.
lint-size:
	sh scripts/check-size.sh

lint-cppcheck:
	cppcheck -j2 --quiet --error-exitcode=1 --std=c11 \
	  --enable=warning,performance,portability \
	  --inline-suppr --suppress=missingIncludeSystem -D_GNU_SOURCE -I. \
	  -i runner/kinstr/bpf \
	  lib db runner analysis plots cli tests

lint-tidy: $(BUILD)/version.h
	printf '%s\n' $(SRC) | xargs -P2 -n4 sh -c \
	  'clang-tidy --quiet "$$@" -- $(LINT_FLAGS)' clang-tidy

# KBPF=no: bpftool's generated skeleton header (a malloc'd struct handed
# to libbpf, which frees it) reads as a leak to the analyzer.  The BPF
# half of runner/kinstr/bpf.c is then checked by its tests under ASan alone, as
# lint-tidy (without CONTEND_BPF) does not read it either.
lint-scan:
	rm -rf build-scan
	scan-build --status-bugs --use-cc=clang -o build-scan/report \
	  $(MAKE) -j2 BUILD=build-scan KBPF=no build-scan/contend

format:
	clang-format -i $(SRC) lib/*.h db/*.h runner/*.h runner/workloads/*.h analysis/*.h plots/*.h cli/*.h

clean:
	rm -rf build build-asan build-tsan build-fuzz build-scan contend

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
