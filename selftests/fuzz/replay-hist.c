// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * hist-replay: the hist target's replay (replay.c, selftests/hist/
 * hist_fuzz.c), with its seeds: synthetic event definitions of each form
 * and inter-event hist commands of each kind, followed by a few values.
 */
#include <string.h>

#include "fuzz.h"

#define FUZZ_TARGET	"hist"

static const char *const defs[] = {
	"lat_e u64 lat; int id",
	"lat_e u64 lat; int id; char path[]",
	"s:synthetic/lat_e u64 lat; int id",
	"lat_e u64 lat int id char comm[16]\n!lat_e\nlat_e u64 lat; int id",
	"lat_e unsigned long lat; s32 id; char p[32]; long[] st",
	"x u8 a; bool b; gfp_t g\n-:x",
	"bad chr a", "; u64 x", "s:junk/x u64 a", "!nosuch", "",
};

static const char *const cmds[] = {
	"hist:keys=id:lat=common_timestamp-$ts0:onmatch(hist_test.req_start).lat_e($lat,id)",
	"hist:keys=id:lat=common_timestamp-$ts0:onmatch(hist_test.req_start)."
	"trace(lat_e,$lat,id,$p)",
	"hist:keys=id:lat=common_timestamp.usecs-$ts0:onmax($lat).save(status,bytes)",
	"hist:keys=id:b=bytes:onchange($b).save(status):onchange($b).snapshot()",
	"hist:keys=id:x=bytes*3/2-(status+1),y=-(bytes):vals=x",
	"hist:keys=id:lat=common_timestamp-hist_test.req_start.$ts0:onmax($lat).lat_e($lat,id)",
	"hist:keys=id:b=bytes:onmatch(hist_test.req_start).lat_e($b,hist_test.req_start.id)",
	"hist:keys=status:v=bytes:onmax($v).snapshot()",
	"hist:keys=id:x=1+2+3+4+5", "hist:keys=id:x=3/0", "!hist:keys=id", "",
};

#define NR_DEFS	(sizeof(defs) / sizeof(defs[0]))
#define NR_CMDS	(sizeof(cmds) / sizeof(cmds[0]))

const unsigned int fuzz_nr_seeds = NR_DEFS * NR_CMDS;

/* Input = flags, definitions, NUL, command, NUL, values (4 bytes each). */
size_t fuzz_seed(unsigned int i, uint8_t *buf, size_t size)
{
	const char *def = defs[i % NR_DEFS], *cmd = cmds[i / NR_DEFS];
	size_t dl = strlen(def), cl = strlen(cmd);

	if (dl + cl + 15 > size)
		return 0;
	buf[0] = (uint8_t)(4 | (i & 3));
	memcpy(buf + 1, def, dl + 1);
	memcpy(buf + dl + 2, cmd, cl + 1);
	memcpy(buf + dl + cl + 3, "\x05\x00\x00\x00\x02\x00\x00\x00\x07\x00\x00\x00", 12);
	return dl + cl + 15;
}

/*
 * A corpus line: "synthetic_events" or "dynamic_events" and a definition
 * (no command), or "req_end" and a hist command for hist_test:req_end
 * after lat_e and its req_start variables (ts0, p) are defined, with
 * "+enabled" for the synthetic events enabled first.
 */
size_t fuzz_corpus_input(const char *event, const char *text, uint8_t *buf, size_t size)
{
	static const char vals[] = "\x05\x00\x00\x00\x02\x00\x00\x00\x07\x00\x00\x00";
	const char *def = "", *cmd = "";
	size_t len = strcspn(event, "+"), dl, cl;
	uint8_t flags;

	if (len == 16 && !strncmp(event, "synthetic_events", len)) {
		flags = 0;
		def = text;
	} else if (len == 14 && !strncmp(event, "dynamic_events", len)) {
		flags = 1;
		def = text;
	} else if (len == 7 && !strncmp(event, "req_end", len)) {
		flags = 4;
		def = "lat_e u64 lat; int id\nwakeup_latency u64 lat; pid_t pid; int prio";
		cmd = text;
	} else {
		return 0;
	}
	if (!strcmp(event + len, "+enabled"))
		flags |= 2;
	else if (event[len])
		return 0;
	dl = strlen(def);
	cl = strlen(cmd);
	if (dl + cl + 15 > size)
		return 0;
	buf[0] = flags;
	memcpy(buf + 1, def, dl + 1);
	memcpy(buf + dl + 2, cmd, cl + 1);
	memcpy(buf + dl + cl + 3, vals, 12);
	return dl + cl + 15;
}

#include "replay.c"
