// SPDX-License-Identifier: LGPL-2.1-or-later
/* rec-app linked with libustrace.a: -M and -t reach into the library. */
#define REC_APP_STATIC
#include "rec-app.c"
