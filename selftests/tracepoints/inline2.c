// SPDX-License-Identifier: LGPL-2.1-or-later
/* The header's inline function, compiled into a second file. */
#include "inline_tp.h"

void inl_fire_other_file(int i)
{
	inl_fire_inline(KIND_OTHER_FILE, i);
}
