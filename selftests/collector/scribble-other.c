// SPDX-License-Identifier: LGPL-2.1-or-later
/* coll-other: coll-scribble with another format of scribble_tick (scribble.c). */
#define SCRIBBLE_OTHER 1
#include "scribble.c"
