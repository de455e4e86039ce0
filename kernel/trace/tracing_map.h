/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The table of a hist trigger (tracing_map.c), as the kernel's
 * tracing_map: preallocated when the trigger is set, inserted into by
 * probes without locks.  Not installed.
 *
 * Terminology, as the kernel's tracing_map.h:
 *
 *   key      the bytes a hit is filed under (whole 64-bit words)
 *   element  what the table keeps per key: sums, variables, the thread
 *            name, string storage, the key
 *   sum      a value added to at each hit (hitcount, vals=)
 *   var      a variable: a u64 set at a hit and read by another event's
 *            hit with the same key; a bit says whether it is set
 *
 * An element:
 *
 *	+---------+---------+---------+---------+-----------------+-----+
 *	| sums    | vars    | var set | comm    | strings         | key |
 *	| u64 x S | u64 x V | u64     | char 16 | 256 B x N       |     |
 *	+---------+---------+---------+---------+-----------------+-----+
 *
 * and the hash table, twice as many slots as elements:
 *
 *	slot:  { u32 hash (0: free), u32 element index + 1 (0: not yet) }
 *
 * A variable is published with a release on its bit after the value is
 * stored; a reader acquires the bit, then reads the value.  A read-once
 * read clears the bit atomically: one reader gets the value.
 */
#ifndef _USTRACE_KERNEL_TRACE_TRACING_MAP_H
#define _USTRACE_KERNEL_TRACE_TRACING_MAP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* The kernel's limits (tracing_map.h). */
#define TRACING_MAP_BITS_DEFAULT	11
#define TRACING_MAP_BITS_MIN		7
#define TRACING_MAP_BITS_MAX		17
#define TRACING_MAP_KEYS_MAX		3
#define TRACING_MAP_VALS_MAX		3
#define TRACING_MAP_FIELDS_MAX		(TRACING_MAP_KEYS_MAX + TRACING_MAP_VALS_MAX)
#define TRACING_MAP_VARS_MAX		16
#define TRACING_MAP_SORT_KEYS_MAX	2
#define TRACING_MAP_COMM_LEN		16
#define TRACING_MAP_STR_LEN		256

struct tracing_map_slot {
	uint32_t	hash;
	uint32_t	elt;
};

/**
 * struct tracing_map - one table
 * @map_bits: log2 of the elements (size=)
 * @key_size: bytes of a key, a multiple of 8
 * @n_vars:   variables per element (tracing_map_add_var())
 * @elts:     NULL until tracing_map_init()
 */
struct tracing_map {
	unsigned int		map_bits;
	unsigned int		max_elts;
	unsigned int		nr_slots;
	unsigned int		key_size;
	unsigned int		n_sums;
	unsigned int		n_vars;
	unsigned int		n_strs;
	unsigned int		elt_size;
	unsigned int		vars_off;
	unsigned int		set_off;
	unsigned int		comm_off;
	unsigned int		strs_off;
	unsigned int		key_off;
	struct tracing_map_slot	*slots;
	unsigned char		*elts;
	unsigned int		next_elt;
	uint64_t		hits;
	uint64_t		drops;
};

/* Setting up (under the event mutex). */
struct tracing_map *tracing_map_create(unsigned int map_bits, unsigned int key_size);
/* A new variable's index, or -EINVAL (TRACING_MAP_VARS_MAX reached). */
int tracing_map_add_var(struct tracing_map *map);
/* Allocate the elements.  Return: 0 or -ENOMEM. */
int tracing_map_init(struct tracing_map *map, unsigned int n_sums, unsigned int n_strs,
		     bool comm);
void tracing_map_destroy(struct tracing_map *map);
/* Empty the table; no probe may be using it. */
void tracing_map_clear(struct tracing_map *map);

/*
 * The element of @key: inserted if new (counted as a hit, or as dropped
 * when the table is full or another thread is still inserting the same
 * key), or only looked up.  NULL when there is none.
 * Context: a probe; no lock.
 */
unsigned char *tracing_map_insert(struct tracing_map *map, const void *key);
unsigned char *tracing_map_lookup(struct tracing_map *map, const void *key);

/* The published elements, at most max_elts of them, into @out; how many. */
unsigned int tracing_map_elements(struct tracing_map *map, unsigned char **out);

static inline unsigned char *tracing_map_key(const struct tracing_map *map, unsigned char *elt)
{
	return elt + map->key_off;
}

static inline char *tracing_map_comm(const struct tracing_map *map, unsigned char *elt)
{
	return (char *)elt + map->comm_off;
}

static inline char *tracing_map_str(const struct tracing_map *map, unsigned char *elt,
				    unsigned int i)
{
	return (char *)elt + map->strs_off + i * TRACING_MAP_STR_LEN;
}

static inline uint64_t *tracing_map_sums(unsigned char *elt)
{
	return (uint64_t *)elt;
}

static inline void tracing_map_update_sum(unsigned char *elt, unsigned int i, uint64_t n)
{
	__atomic_add_fetch(&tracing_map_sums(elt)[i], n, __ATOMIC_RELAXED);
}

static inline uint64_t tracing_map_read_sum(unsigned char *elt, unsigned int i)
{
	return __atomic_load_n(&tracing_map_sums(elt)[i], __ATOMIC_RELAXED);
}

static inline uint64_t *tracing_map_vars(const struct tracing_map *map, unsigned char *elt)
{
	return (uint64_t *)(elt + map->vars_off);
}

static inline uint64_t *tracing_map_set_bits(const struct tracing_map *map, unsigned char *elt)
{
	return (uint64_t *)(elt + map->set_off);
}

static inline void tracing_map_set_var(const struct tracing_map *map, unsigned char *elt,
				       unsigned int i, uint64_t n)
{
	__atomic_store_n(&tracing_map_vars(map, elt)[i], n, __ATOMIC_RELAXED);
	/* Pairs with the acquire of tracing_map_var_set() and _read_var_once(). */
	__atomic_or_fetch(tracing_map_set_bits(map, elt), 1ull << i, __ATOMIC_RELEASE);
}

static inline bool tracing_map_var_set(const struct tracing_map *map, unsigned char *elt,
				       unsigned int i)
{
	return __atomic_load_n(tracing_map_set_bits(map, elt), __ATOMIC_ACQUIRE) & (1ull << i);
}

static inline uint64_t tracing_map_read_var(const struct tracing_map *map, unsigned char *elt,
					    unsigned int i)
{
	return __atomic_load_n(&tracing_map_vars(map, elt)[i], __ATOMIC_RELAXED);
}

/*
 * Read a set variable and unset it: false when it was not set (another
 * reader took it first).
 */
static inline bool tracing_map_read_var_once(const struct tracing_map *map, unsigned char *elt,
					     unsigned int i, uint64_t *val)
{
	uint64_t bit = 1ull << i;

	if (!(__atomic_fetch_and(tracing_map_set_bits(map, elt), ~bit, __ATOMIC_ACQ_REL) & bit))
		return false;
	*val = tracing_map_read_var(map, elt, i);
	return true;
}

#endif /* _USTRACE_KERNEL_TRACE_TRACING_MAP_H */
