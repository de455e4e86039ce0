// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * trigger-replay: the trigger target's replay (replay.c,
 * selftests/trigger/trigger_fuzz.c), with its seeds: one command of each
 * kind the trigger files take, on each event, with and without the event
 * enabled, followed by a few event values.
 */
#include <string.h>

#include "fuzz.h"

#define FUZZ_TARGET	"trigger"

static const char *const commands[] = {
	"traceon", "traceoff:3", "traceoff if v == 5", "!traceoff",
	"snapshot", "snapshot:1 if v > 2", "stacktrace:2",
	"enable_event:trg_test:trg_other", "disable_event:trg_test:trg_ev:1 if v < 3",
	"enable_hist:trg_test:trg_other", "disable_hist:trg_test:trg_other",
	"hist:keys=v", "hist:keys=v.hex:vals=hitcount:sort=hitcount.descending",
	"hist:keys=name:size=16", "hist:keys=v.log2:pause", "hist:keys=v.buckets=10:cont",
	"hist:name=shared:keys=v:clear", "hist:keys=common_pid.execname",
	"hist:keys=stacktrace", "hist:keys=v:vals=v.percent",
	"!hist:keys=v", "bogus", "hist:keys=nosuch", "traceon:0x",
	"hist:keys=v:x=v*2+big/3-(v):vals=x", "hist:keys=v:ts0=common_timestamp.usecs",
	"hist:keys=v:m=big:onmax($m).save(name,who)",
	"hist:keys=v:c=v:onchange($c).save(big):onchange($c).snapshot()",
	"hist:keys=v:l=common_timestamp-$ts0:onmatch(trg_test.trg_other).nosuch($l)",
	"hist:keys=name:w=who,x=common_pid.execname", "",
};

#define NR_COMMANDS	(sizeof(commands) / sizeof(commands[0]))

const unsigned int fuzz_nr_seeds = 4 * NR_COMMANDS;

/* Input = event/enable byte, command, NUL, event values (4 bytes each). */
static size_t make_input(uint8_t sel, const char *cmd, uint8_t *buf, size_t size)
{
	size_t len = strlen(cmd);

	if (len + 14 > size)
		return 0;
	buf[0] = sel;
	memcpy(buf + 1, cmd, len + 1);
	memcpy(buf + len + 2, "\x05\x00\x00\x00\x02\x00\x00\x00\x07\x00\x00\x00", 12);
	return len + 14;
}

size_t fuzz_seed(unsigned int i, uint8_t *buf, size_t size)
{
	return make_input((uint8_t)(i % 4), commands[i / 4], buf, size);
}

/* "trg_ev" or "trg_other" (bit 0), "+enabled" enables trg_test first (bit 1). */
size_t fuzz_corpus_input(const char *event, const char *text, uint8_t *buf, size_t size)
{
	size_t len = strcspn(event, "+");
	uint8_t sel;

	if (len == 6 && !strncmp(event, "trg_ev", 6))
		sel = 0;
	else if (len == 9 && !strncmp(event, "trg_other", 9))
		sel = 1;
	else
		return 0;
	if (!strcmp(event + len, "+enabled"))
		sel |= 2;
	else if (event[len])
		return 0;
	return make_input(sel, text, buf, size);
}

#include "replay.c"
