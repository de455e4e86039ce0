// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The printf of TP_printk(): C's conversions, which vsnprintf() does, and
 * the kernel's %p extensions (its Documentation/core-api/printk-formats.rst),
 * which this file does, with the kernel's texts:
 *
 *   %p       the pointer hashed ("00000000" and 8 hex digits, a keyed hash
 *            fixed for the process), as the kernel's with the hash-ptr
 *            option on; raw as %px with it off; NULL and error values raw
 *   %px      the raw value, 16 hex digits
 *   %pK      as %p (kptr_restrict 0)
 *   %ps %pS  the function holding the address, "name" or
 *   %pSR %pB "name+0xoff/0xsize" (%pB: of a return address), "0x..."
 *            without a symbol
 *   %pI4 %pi4 %pI6 %pi6 %pI6c %pIS %piS (with c, p): IPv4, IPv6 and
 *            struct sockaddr addresses
 *   %pU[bBlL] a UUID;  %pM[RF] %pm[R] a MAC address
 *   %*ph[CDN] bytes in hex;  %*pb %*pbl a bitmap of N bits, in hex or as
 *            a list of ranges
 *   %pa[pd]  a phys_addr_t or dma_addr_t, by reference;  %pe an error code
 *
 * Every other extension letter prints the pointer as plain %p does, as
 * the kernel's does for what it does not know.  Whatever a conversion
 * reads through its pointer must lie inside the record being rendered
 * (or its scratch buffer): a pointer elsewhere prints "(efault)", NULL
 * "(null)", as the kernel's check_pointer() prints them.
 */
#define __USTRACE_CORE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include <linux/trace_events.h>

#include "trace.h"
#include "trace_syms.h"

/* What the rendering in this thread may read and how it prints %p. */
struct printf_ctx {
	const unsigned char	*rec;
	unsigned int		len;
	const struct trace_seq	*scratch;
	unsigned int		flags;
	bool			active;
};

static __thread struct printf_ctx printf_ctx;

void trace_printf_begin(unsigned int flags, const void *rec, unsigned int len,
			const struct trace_seq *scratch)
{
	printf_ctx = (struct printf_ctx){ .rec = rec, .len = len, .scratch = scratch,
					  .flags = flags, .active = true };
}

void trace_printf_end(void)
{
	printf_ctx.active = false;
}

/* @len bytes at @p may be read: inside the record or the scratch text. */
static bool readable(const void *p, size_t len)
{
	const unsigned char *c = p;
	const struct printf_ctx *x = &printf_ctx;

	if (!x->active)
		return true;
	if (c >= x->rec && len <= x->len && (size_t)(c - x->rec) <= x->len - len)
		return true;
	if (x->scratch) {
		const unsigned char *b = (const unsigned char *)x->scratch->buffer;

		if (c >= b && len <= sizeof(x->scratch->buffer) &&
		    (size_t)(c - b) <= sizeof(x->scratch->buffer) - len)
			return true;
	}
	return false;
}

/* ------------------------------------------------------------------
 * The output: a bounded text, cut where it ends (the caller keeps the
 * whole or nothing, as trace_seq does)
 */

struct out {
	char	*buf;
	size_t	size;
	size_t	len;
};

static void out_mem(struct out *o, const char *s, size_t n)
{
	if (o->len < o->size) {
		size_t room = o->size - o->len;

		memcpy(o->buf + o->len, s, n < room ? n : room);
	}
	o->len += n;
}

static void out_c(struct out *o, char c)
{
	out_mem(o, &c, 1);
}

__attribute__((__format__(__printf__, 2, 3)))
static void out_printf(struct out *o, const char *fmt, ...)
{
	size_t room = o->len < o->size ? o->size - o->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

/* How a conversion was written: "%-12.3lu" */
struct spec {
	char	flags[8];
	int	width;		/* -1: none */
	int	prec;		/* -1: none */
	char	length[3];
	char	conv;
};

/* The text of one conversion, padded to its width as the kernel's string(). */
static void out_field(struct out *o, const struct spec *sp, const char *s, size_t n)
{
	bool left = strchr(sp->flags, '-') != NULL;
	size_t w = sp->width > 0 ? (size_t)sp->width : 0;

	if (sp->prec >= 0 && n > (size_t)sp->prec)
		n = (size_t)sp->prec;
	while (!left && w > n) {
		out_c(o, ' ');
		w--;
	}
	out_mem(o, s, n);
	while (left && w > n) {
		out_c(o, ' ');
		w--;
	}
}

/* ------------------------------------------------------------------
 * Plain %p: SipHash-2-4 of the address under a key drawn once, cut to 32
 * bits, as the kernel's ptr_to_id()
 */

#define ROTL(x, b)	(uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND(v0, v1, v2, v3)					\
	do {								\
		v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32); \
		v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;			\
		v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;			\
		v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32); \
	} while (0)

static uint64_t siphash_u64(uint64_t m, const uint64_t key[2])
{
	uint64_t v0 = 0x736f6d6570736575ULL ^ key[0];
	uint64_t v1 = 0x646f72616e646f6dULL ^ key[1];
	uint64_t v2 = 0x6c7967656e657261ULL ^ key[0];
	uint64_t v3 = 0x7465646279746573ULL ^ key[1];
	uint64_t b = 8ULL << 56;	/* the length, no tail */

	v3 ^= m;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	v0 ^= m;
	v3 ^= b;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

static uint64_t ptr_key[2];
static pthread_once_t ptr_key_once = PTHREAD_ONCE_INIT;

static void ptr_key_init(void)
{
	uint64_t k[2] = { 0, 0 };

	/* Without entropy the ids are still ids; they only hide less. */
	if (getrandom(k, sizeof(k), GRND_NONBLOCK) != sizeof(k)) {
		k[0] = (uint64_t)(uintptr_t)&k ^ 0x9e3779b97f4a7c15ULL;
		k[1] = (uint64_t)(uintptr_t)ptr_key_init;
	}
	ptr_key[0] = k[0];
	ptr_key[1] = k[1];
}

/* "%px": 16 hex digits, or the width given. */
static void out_raw_ptr(struct out *o, const struct spec *sp, unsigned long v)
{
	if (sp->width < 0)
		out_printf(o, "%016lx", v);
	else
		out_printf(o, strchr(sp->flags, '-') ? "%-*lx" : "%*lx", sp->width, v);
}

static bool is_err_or_null(unsigned long v)
{
	return !v || v >= (unsigned long)-4095;
}

static void out_hashed_ptr(struct out *o, const struct spec *sp, const void *ptr)
{
	unsigned long v = (unsigned long)ptr;

	if ((printf_ctx.flags & TRACE_PRINT_RAW_PTR) || is_err_or_null(v)) {
		out_raw_ptr(o, sp, v);
		return;
	}
	pthread_once(&ptr_key_once, ptr_key_init);
	out_raw_ptr(o, sp, (unsigned long)(siphash_u64(v, ptr_key) & 0xffffffff));
}

/* ------------------------------------------------------------------
 * The extensions
 */

/* NULL and out-of-record pointers, as the kernel's check_pointer(). */
static bool check_ptr(struct out *o, const struct spec *sp, const void *p, size_t len)
{
	if (!p) {
		out_field(o, sp, "(null)", 6);
		return false;
	}
	if (!readable(p, len)) {
		out_field(o, sp, "(efault)", 8);
		return false;
	}
	return true;
}

/* %ps %pS %pSR %pB */
static void out_symbol(struct out *o, const struct spec *sp, const void *ptr, const char *ext)
{
	unsigned long ip = (unsigned long)ptr;
	char name[320];
	int n;

	if (ext[0] == 'B' && ip) {
		/* A return address: the call is the byte before. */
		n = trace_sym_lookup(name, sizeof(name), ip - 1, true);
		if (!n) {
			char *plus = strrchr(name, '+');
			unsigned long off, size;

			if (plus && sscanf(plus, "+0x%lx/0x%lx", &off, &size) == 2)
				snprintf(plus, sizeof(name) - (size_t)(plus - name),
					 "+0x%lx/0x%lx", off + 1, size);
		}
	} else {
		n = trace_sym_lookup(name, sizeof(name), ip, ext[0] != 's');
	}
	if (n)
		snprintf(name, sizeof(name), "0x%lx", ip);
	out_field(o, sp, name, strlen(name));
}

static void out_ip4(struct out *o, const struct spec *sp, const unsigned char *a, bool pad)
{
	char s[16];

	snprintf(s, sizeof(s), pad ? "%03u.%03u.%03u.%03u" : "%u.%u.%u.%u",
		 a[0], a[1], a[2], a[3]);
	out_field(o, sp, s, strlen(s));
}

/*
 * As the kernel's ip6_compressed_string(): the first longest run of two or
 * more zero groups becomes "::"; a v4-mapped or ISATAP address ends in
 * dotted IPv4.
 */
static size_t ip6_compressed(char *s, size_t size, const unsigned char *a)
{
	static const unsigned char mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	bool isatap = !(a[8] & ~0x02) && a[9] == 0 && a[10] == 0x5e && a[11] == 0xfe;
	bool v4 = !memcmp(a, mapped, 12) || isatap;
	int range = v4 ? 6 : 8, longest = 0, colonpos = -1, i;
	bool needcolon = false;
	size_t n = 0;

	for (i = 0; i < range; i++) {
		int zeros = 0;

		for (int j = i; j < range && !a[2 * j] && !a[2 * j + 1]; j++)
			zeros++;
		if (zeros > longest) {
			longest = zeros;
			colonpos = i;
		}
	}
	if (longest == 1)
		colonpos = -1;
	for (i = 0; i < range; i++) {
		if (i == colonpos) {
			n += (size_t)snprintf(s + n, size - n, needcolon || !i ? "::" : ":");
			needcolon = false;
			i += longest - 1;
			continue;
		}
		n += (size_t)snprintf(s + n, size - n, needcolon ? ":%x" : "%x",
				      (unsigned int)a[2 * i] << 8 | a[2 * i + 1]);
		needcolon = true;
	}
	if (v4)
		n += (size_t)snprintf(s + n, size - n, "%s%u.%u.%u.%u", needcolon ? ":" : "",
				      a[12], a[13], a[14], a[15]);
	return n;
}

static size_t ip6_text(char *s, size_t size, const unsigned char *a, char kind, bool compress)
{
	size_t n = 0;

	if (compress)
		return ip6_compressed(s, size, a);
	for (int i = 0; i < 8; i++)
		n += (size_t)snprintf(s + n, size - n, kind == 'I' && i ? ":%02x%02x" : "%02x%02x",
				      a[2 * i], a[2 * i + 1]);
	return n;
}

/* %pIS and %piS: a struct sockaddr, by its family; 'p' adds the port. */
static void out_sockaddr(struct out *o, const struct spec *sp, const void *ptr,
			 char kind, const char *ext)
{
	bool port = strchr(ext, 'p'), compress = strchr(ext, 'c');
	sa_family_t family;
	char s[80];
	size_t n = 0;

	if (!check_ptr(o, sp, ptr, sizeof(family)))
		return;
	memcpy(&family, ptr, sizeof(family));
	if (family == AF_INET && readable(ptr, sizeof(struct sockaddr_in))) {
		struct sockaddr_in sin;
		const unsigned char *a = (const unsigned char *)&sin.sin_addr;

		memcpy(&sin, ptr, sizeof(sin));
		n = (size_t)snprintf(s, sizeof(s), kind == 'i' ? "%03u.%03u.%03u.%03u" :
				     "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
		if (port)
			n += (size_t)snprintf(s + n, sizeof(s) - n, ":%u", ntohs(sin.sin_port));
	} else if (family == AF_INET6 && readable(ptr, sizeof(struct sockaddr_in6))) {
		struct sockaddr_in6 sin6;

		memcpy(&sin6, ptr, sizeof(sin6));
		if (port)
			s[n++] = '[';
		n += ip6_text(s + n, sizeof(s) - n, sin6.sin6_addr.s6_addr, kind, compress);
		if (port)
			n += (size_t)snprintf(s + n, sizeof(s) - n, "]:%u", ntohs(sin6.sin6_port));
	} else {
		n = (size_t)snprintf(s, sizeof(s), "(einval)");
	}
	out_field(o, sp, s, n);
}

/* %pI4 %pi4 %pI6 %pi6 %pI6c %pIS %piS */
static void out_ip(struct out *o, const struct spec *sp, const void *ptr, const char *ext)
{
	char kind = ext[0], s[48];

	switch (ext[1]) {
	case '4':
		if (check_ptr(o, sp, ptr, 4))
			out_ip4(o, sp, ptr, kind == 'i');
		return;
	case '6':
		if (check_ptr(o, sp, ptr, 16))
			out_field(o, sp, s, ip6_text(s, sizeof(s), ptr, kind,
						     kind == 'I' && ext[2] == 'c'));
		return;
	case 'S':
		out_sockaddr(o, sp, ptr, kind, ext + 2);
		return;
	}
	out_hashed_ptr(o, sp, ptr);
}

/* %pU: b (default) and B big-endian, l and L little-endian; B, L upper case. */
static void out_uuid(struct out *o, const struct spec *sp, const void *ptr, char how)
{
	static const unsigned char be[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	static const unsigned char le[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	const unsigned char *idx = how == 'l' || how == 'L' ? le : be;
	const char *hex = how == 'B' || how == 'L' ? "%02X" : "%02x";
	const unsigned char *u = ptr;
	char s[40];
	size_t n = 0;

	if (!check_ptr(o, sp, ptr, 16))
		return;
	for (int i = 0; i < 16; i++) {
		n += (size_t)snprintf(s + n, sizeof(s) - n, hex, u[idx[i]]);
		if (i == 3 || i == 5 || i == 7 || i == 9)
			s[n++] = '-';
	}
	out_field(o, sp, s, n);
}

/* %pM (':'), %pMF ('-'), %pm (none); R: the bytes reversed. */
static void out_mac(struct out *o, const struct spec *sp, const void *ptr, const char *ext)
{
	const unsigned char *m = ptr;
	bool rev = ext[1] == 'R' || (ext[1] && ext[2] == 'R');
	char sep = ext[0] == 'm' ? 0 : ext[1] == 'F' ? '-' : ':';
	char s[20];
	size_t n = 0;

	if (!check_ptr(o, sp, ptr, 6))
		return;
	for (int i = 0; i < 6; i++) {
		if (i && sep)
			s[n++] = sep;
		n += (size_t)snprintf(s + n, sizeof(s) - n, "%02x", m[rev ? 5 - i : i]);
	}
	out_field(o, sp, s, n);
}

/* %*ph: up to 64 bytes, ' ' apart (C ':', D '-', N nothing). */
static void out_hex(struct out *o, const struct spec *sp, const void *ptr, const char *ext)
{
	char sep = ext[1] == 'C' ? ':' : ext[1] == 'D' ? '-' : ext[1] == 'N' ? 0 : ' ';
	int len = sp->width < 0 ? 1 : sp->width > 64 ? 64 : sp->width;
	const unsigned char *b = ptr;

	if (!len)
		return;
	if (!check_ptr(o, sp, ptr, (size_t)len))
		return;
	for (int i = 0; i < len; i++) {
		if (i && sep)
			out_c(o, sep);
		out_printf(o, "%02x", b[i]);
	}
}

/* Bit @bit of a bitmap of unsigned longs, read by bytes (little-endian). */
static bool bit_set(const unsigned char *map, int bit)
{
	return (map[bit / 8] >> (bit % 8)) & 1;
}

static uint32_t bits_at(const unsigned char *map, int bit, int n)
{
	uint32_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 1 | bit_set(map, bit + i);
	return v;
}

/*
 * %*pb: 32-bit chunks in hex, most significant first, the first as wide
 * as its bits need; %*pbl: the set bits as ranges, "0-3,5".
 */
static void out_bitmap(struct out *o, const struct spec *sp, const void *ptr, bool list)
{
	int nbits = sp->width > 0 ? sp->width : 0;
	int chunk = nbits % 32 ? nbits % 32 : 32;
	bool first = true;

	if (!check_ptr(o, sp, ptr, (size_t)(nbits + 7) / 8) || !nbits)
		return;
	if (!list) {
		for (int i = (nbits + 31) / 32 * 32 - 32; i >= 0; i -= 32) {
			out_printf(o, "%s%0*x", first ? "" : ",", (chunk + 3) / 4,
				   bits_at(ptr, i, chunk));
			first = false;
			chunk = 32;
		}
		return;
	}
	for (int i = 0; i < nbits; i++) {
		int j;

		if (!bit_set(ptr, i))
			continue;
		for (j = i; j + 1 < nbits && bit_set(ptr, j + 1); j++)
			;
		if (j > i)
			out_printf(o, "%s%d-%d", first ? "" : ",", i, j);
		else
			out_printf(o, "%s%d", first ? "" : ",", i);
		first = false;
		i = j;
	}
}

/* %pa (%pap), %pad: the value behind the pointer, "0x" and 16 digits. */
static void out_addr(struct out *o, const struct spec *sp, const void *ptr)
{
	uint64_t v;
	char s[24];

	if (!check_ptr(o, sp, ptr, sizeof(v)))
		return;
	memcpy(&v, ptr, sizeof(v));
	snprintf(s, sizeof(s), "0x%016llx", (unsigned long long)v);
	out_field(o, sp, s, strlen(s));
}

/* %pe: "-EINVAL" for an error value, else the pointer as %p. */
static void out_err(struct out *o, const struct spec *sp, const void *ptr)
{
	long v = (long)ptr;
	const char *name;
	char s[32];

	if ((unsigned long)v < (unsigned long)-4095) {
		out_hashed_ptr(o, sp, ptr);
		return;
	}
	name = strerrorname_np((int)-v);
	if (name)
		snprintf(s, sizeof(s), "-%s", name);
	else
		snprintf(s, sizeof(s), "%ld", v);
	out_field(o, sp, s, strlen(s));
}

/* %p and what follows it; returns the extension characters used up. */
static size_t out_pointer(struct out *o, const struct spec *sp, const void *ptr, const char *ext)
{
	size_t used = 0;

	while ((ext[used] >= 'a' && ext[used] <= 'z') || (ext[used] >= 'A' && ext[used] <= 'Z') ||
	       (ext[used] >= '0' && ext[used] <= '9'))
		used++;
	switch (ext[0]) {
	case 'S': case 's': case 'B':
		out_symbol(o, sp, ptr, ext);
		break;
	case 'I': case 'i':
		out_ip(o, sp, ptr, ext);
		break;
	case 'U':
		out_uuid(o, sp, ptr, ext[1]);
		break;
	case 'M': case 'm':
		out_mac(o, sp, ptr, ext);
		break;
	case 'h':
		out_hex(o, sp, ptr, ext);
		break;
	case 'b':
		out_bitmap(o, sp, ptr, ext[1] == 'l');
		break;
	case 'a':
		out_addr(o, sp, ptr);
		break;
	case 'e':
		out_err(o, sp, ptr);
		break;
	case 'x':
		out_raw_ptr(o, sp, (unsigned long)ptr);
		break;
	default:	/* plain %p, %pK and what only the kernel knows */
		out_hashed_ptr(o, sp, ptr);
	}
	return used;
}

/* ------------------------------------------------------------------
 * The format
 */

/* Reads "%-08.3lld" at @f (after the '%'); returns its length. */
static size_t parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	const char *p = f;
	size_t n = 0;

	memset(sp, 0, sizeof(*sp));
	sp->width = sp->prec = -1;
	while (strchr("-+ #0'I", *p) && *p && n < sizeof(sp->flags) - 1)
		sp->flags[n++] = *p++;
	if (*p == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) {
			sp->width = sp->width == INT_MIN ? INT_MAX : -sp->width;
			if (n < sizeof(sp->flags) - 1)
				sp->flags[n++] = '-';
		}
		p++;
	} else if (*p >= '0' && *p <= '9') {
		sp->width = 0;
		while (*p >= '0' && *p <= '9')
			sp->width = sp->width * 10 + (*p++ - '0');
	}
	if (*p == '.') {
		p++;
		sp->prec = 0;
		if (*p == '*') {
			sp->prec = va_arg(*ap, int);
			p++;
		} else {
			while (*p >= '0' && *p <= '9')
				sp->prec = sp->prec * 10 + (*p++ - '0');
		}
	}
	n = 0;
	while (strchr("hlLqjzZt", *p) && *p && n < sizeof(sp->length) - 1)
		sp->length[n++] = *p++;
	sp->conv = *p ? *p++ : 0;
	return (size_t)(p - f);
}

/* @v in base 10 or 16 (@upper: A-F), to the left of @end. */
static char *fmt_unsigned(char *end, unsigned long long v, unsigned int base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char *p = end;

	do {
		*--p = digits[v % base];
		v /= base;
	} while (v);
	return p;
}

/*
 * The plain conversions most TP_printk()s are made of, without
 * vsnprintf() (which sets up a stream for each call): %d, %i, %u, %x,
 * %X of an int, a long or a long long, %s and %c, with no flag, width or
 * precision.  The same text as printf's.  Return: false, with nothing
 * taken from @ap, for anything else.
 */
static bool out_plain(struct out *o, const struct spec *sp, va_list *ap)
{
	const char *l = sp->length, *str;
	unsigned long long v;
	char num[24], *p;
	bool neg = false;
	int size;

	if (sp->flags[0] || sp->width >= 0 || sp->prec >= 0)
		return false;
	if (!l[0])
		size = 0;		/* int */
	else if ((l[0] == 'l' && !l[1]) || ((l[0] == 'z' || l[0] == 'Z' || l[0] == 't') && !l[1]))
		size = 1;		/* long */
	else if ((l[0] == 'l' && l[1] == 'l') || l[0] == 'L' || l[0] == 'q' || l[0] == 'j')
		size = 2;		/* long long */
	else
		return false;		/* h, hh: printf converts to short or char */
	switch (sp->conv) {
	case 's':
		if (size)
			return false;
		str = va_arg(*ap, const char *);
		if (!str)
			str = "(null)";
		out_mem(o, str, strlen(str));
		return true;
	case 'c':
		if (size)
			return false;
		out_c(o, (char)va_arg(*ap, int));
		return true;
	case 'd': case 'i': {
		long long sv = size == 2 ? va_arg(*ap, long long) :
			       size == 1 ? va_arg(*ap, long) : va_arg(*ap, int);

		neg = sv < 0;
		v = neg ? -(unsigned long long)sv : (unsigned long long)sv;
		break;
	}
	case 'u': case 'x': case 'X':
		v = size == 2 ? va_arg(*ap, unsigned long long) :
		    size == 1 ? va_arg(*ap, unsigned long) : va_arg(*ap, unsigned int);
		break;
	default:
		return false;
	}
	p = fmt_unsigned(num + sizeof(num), v, sp->conv == 'x' || sp->conv == 'X' ? 16 : 10,
			 sp->conv == 'X');
	if (neg)
		*--p = '-';
	out_mem(o, p, (size_t)(num + sizeof(num) - p));
	return true;
}

/* @v in decimal at @f + @n (room for it assumed). Return: the new length. */
static size_t fmt_append_uint(char *f, size_t n, unsigned int v)
{
	char num[16], *p = fmt_unsigned(num + sizeof(num), v, 10, false);
	size_t k = (size_t)(num + sizeof(num) - p);

	memcpy(f + n, p, k);
	return n + k;
}

/* One C conversion, its argument taken with the type its length says. */
static void out_conv(struct out *o, const struct spec *sp, va_list *ap)
{
	const char *l = sp->length;
	char f[64];
	size_t n, k;

	if (out_plain(o, sp, ap))
		return;
	/* The format again, with the widths '*' took as numbers. */
	f[0] = '%';
	n = 1;
	k = strlen(sp->flags);
	memcpy(f + n, sp->flags, k);
	n += k;
	if (sp->width >= 0)
		n = fmt_append_uint(f, n, (unsigned int)sp->width);
	if (sp->prec >= 0) {
		f[n++] = '.';
		n = fmt_append_uint(f, n, (unsigned int)sp->prec);
	}
	k = strlen(l);
	memcpy(f + n, l, k);
	n += k;
	f[n++] = sp->conv;
	f[n] = '\0';

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	switch (sp->conv) {
	case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
		if (!strcmp(l, "ll") || !strcmp(l, "L") || !strcmp(l, "q") || !strcmp(l, "j"))
			out_printf(o, f, va_arg(*ap, long long));
		else if (l[0] == 'l' || l[0] == 'z' || l[0] == 'Z' || l[0] == 't')
			out_printf(o, f, va_arg(*ap, long));
		else
			out_printf(o, f, va_arg(*ap, int));
		break;
	case 'c':
		if (l[0] == 'l')
			out_printf(o, f, va_arg(*ap, wint_t));
		else
			out_printf(o, f, va_arg(*ap, int));
		break;
	case 's':
		if (l[0] == 'l')
			out_printf(o, f, va_arg(*ap, wchar_t *));
		else
			out_printf(o, f, va_arg(*ap, char *));
		break;
	case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
		if (l[0] == 'L')
			out_printf(o, f, va_arg(*ap, long double));
		else
			out_printf(o, f, va_arg(*ap, double));
		break;
	case 'n':	/* the kernel ignores %n; so does this */
		(void)va_arg(*ap, void *);
		break;
	case '%':
		out_c(o, '%');
		break;
	default:	/* not a conversion: printed as written */
		out_c(o, '%');
		if (sp->conv)
			out_c(o, sp->conv);
	}
#pragma GCC diagnostic pop
}

/**
 * __ustrace_trace_event_vprintf - the text of a TP_printk() into @s
 *	(trace_event_printf())
 * @s:    where it goes: all of it, or nothing and @s full
 * @fmt:  the TP_printk() format
 * @args: its arguments
 *
 * Context: a reader, not a probe (symbol lookups take a lock).
 */
void __ustrace_trace_event_vprintf(struct trace_seq *s, const char *fmt, va_list args)
{
	char buf[TRACE_SEQ_BUFFER_SIZE];
	struct out o = { .buf = buf, .size = sizeof(buf) };
	va_list ap;

	if (s->full)
		return;
	va_copy(ap, args);
	while (*fmt) {
		const char *pct = strchr(fmt, '%');
		struct spec sp;

		if (!pct) {
			out_mem(&o, fmt, strlen(fmt));
			break;
		}
		out_mem(&o, fmt, (size_t)(pct - fmt));
		fmt = pct + 1 + parse_spec(pct + 1, &sp, &ap);
		if (sp.conv == 'p')
			fmt += out_pointer(&o, &sp, va_arg(ap, void *), fmt);
		else
			out_conv(&o, &sp, &ap);
	}
	va_end(ap);
	if (o.len > o.size) {
		s->full = 1;
		return;
	}
	trace_seq_putmem(s, buf, (unsigned int)o.len);
}
