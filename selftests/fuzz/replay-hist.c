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

#include "replay.c"
