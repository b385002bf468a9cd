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
PKGS    := gsl sqlite3 inih

WARN    := -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes \
	   -Wstrict-prototypes -Wvla -Wwrite-strings -Wfloat-equal
CFLAGS  ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(SAN) -I. -I$(BUILD) \
	   -DCONTEND_VERSION='"$(VERSION)"' \
	   -DCONTEND_CC='"$(shell $(CC) --version 2>/dev/null | head -n1)"' \
	   $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LIBS    = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpthread -lm
TLIBS   = $(shell pkg-config --libs cmocka 2>/dev/null)

SRC     := $(wildcard runner/*.c runner/workloads/*.c analysis/*.c db/*.c plots/*.c)
LIBSRC  := $(filter-out runner/main.c,$(SRC))
LIBOBJ  := $(LIBSRC:%.c=$(BUILD)/%.o) $(BUILD)/db/schema.o
TESTS   := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))

.PHONY: all deps run check check-unit check-e2e asan fuzz bench install clean lint format

all: contend

contend: $(BUILD)/contend
	cp $< $@

$(BUILD)/contend: $(BUILD)/runner/main.o $(BUILD)/libcontend.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/libcontend.a: $(LIBOBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

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

deps:
	sh scripts/deps.sh

run: deps
	$(MAKE) all
	./contend run configs/quick.ini --label quick
	./contend report
	./contend plot

check: $(BUILD)/contend $(TESTS)
	sh tests/run-all.sh $(BUILD) $(abspath $(BUILD)/contend)

asan:
	$(MAKE) BUILD=build-asan CC=clang \
	  SAN='-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer' \
	  CFLAGS='-O1 -g' check

# Each tests/fuzz/fuzz_NAME.c runs FUZZ_TIME seconds, seeded by the
# committed tests/fuzz/corpus/NAME/; what it discovers goes to
# build-fuzz/corpus/NAME/ and crashes to build-fuzz/NAME-crash-*;
# tests/fuzz/NAME.dict, when present, is its dictionary.
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_TIME ?= 30
FUZZ_SAN := address,undefined -fno-sanitize-recover=all
fuzz:
	$(MAKE) BUILD=build-fuzz CC=clang CFLAGS='-O1 -g' \
	  SAN='-fsanitize=fuzzer-no-link,$(FUZZ_SAN)' build-fuzz/libcontend.a
	for t in $(FUZZ_TARGETS); do \
	  clang -std=c11 -D_GNU_SOURCE -g -O1 -I. -fsanitize=fuzzer,$(FUZZ_SAN) \
	    $$(pkg-config --cflags $(PKGS)) -o build-fuzz/fuzz_$$t tests/fuzz/fuzz_$$t.c \
	    build-fuzz/libcontend.a $(LIBS) || exit 1; \
	  mkdir -p tests/fuzz/corpus/$$t build-fuzz/corpus/$$t; \
	  build-fuzz/fuzz_$$t -max_total_time=$(FUZZ_TIME) -max_len=65536 \
	    -artifact_prefix=build-fuzz/$$t- \
	    $$( [ -f tests/fuzz/$$t.dict ] && echo -dict=tests/fuzz/$$t.dict ) \
	    build-fuzz/corpus/$$t tests/fuzz/corpus/$$t || exit 1; \
	done

bench: all
	sh bench/run.sh

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 contend $(DESTDIR)$(PREFIX)/bin/contend
	install -m 644 docs/contend.1 $(DESTDIR)$(PREFIX)/share/man/man1/contend.1

lint:
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
	  --inline-suppr --suppress=missingIncludeSystem -D_GNU_SOURCE -I. \
	  runner analysis db plots

format:
	clang-format -i $(SRC) runner/*.h runner/workloads/*.h analysis/*.h db/*.h plots/*.h

clean:
	rm -rf build build-asan build-fuzz contend

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
