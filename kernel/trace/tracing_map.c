// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The tables of hist triggers, as the kernel's tracing_map.c: a fixed
 * number of elements and a hash table of twice as many slots, allocated
 * when the trigger is set; probes insert and look up without locks
 * (tracing_map.h draws the element):
 *
 *   - a new key claims a free slot by a cmpxchg of its hash word, takes
 *     the next free element (an atomic add), fills in the key and then
 *     publishes the element with a release store;
 *   - a thread that finds its hash in a slot whose element is not
 *     published yet waits a few rounds, then counts the hit as dropped;
 *   - a full table counts drops.
 *
 * Readers walk what is published, under the event mutex.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "trace.h"

#include "tracing_map.h"

/* Rounds a thread waits for another that is inserting the same key. */
#define TRACING_MAP_SPIN_MAX	1000

struct tracing_map *tracing_map_create(unsigned int map_bits, unsigned int key_size)
{
	struct tracing_map *map = calloc(1, sizeof(*map));

	if (!map)
		return NULL;
	map->map_bits = map_bits;
	map->max_elts = 1u << map_bits;
	map->nr_slots = 2u << map_bits;
	map->key_size = key_size;
	return map;
}

int tracing_map_add_var(struct tracing_map *map)
{
	if (map->n_vars >= TRACING_MAP_VARS_MAX)
		return -EINVAL;
	return (int)map->n_vars++;
}

int tracing_map_init(struct tracing_map *map, unsigned int n_sums, unsigned int n_strs,
		     bool comm)
{
	map->n_sums = n_sums;
	map->n_strs = n_strs;
	map->vars_off = n_sums * 8;
	map->set_off = map->vars_off + map->n_vars * 8;
	map->comm_off = map->set_off + 8;
	map->strs_off = map->comm_off + (comm ? TRACING_MAP_COMM_LEN : 0);
	map->key_off = map->strs_off + n_strs * TRACING_MAP_STR_LEN;
	map->elt_size = (map->key_off + map->key_size + 7) & ~7u;
	map->slots = calloc(map->nr_slots, sizeof(*map->slots));
	map->elts = calloc(map->max_elts, map->elt_size);
	if (!map->slots || !map->elts) {
		free(map->slots);
		free(map->elts);
		map->slots = NULL;
		map->elts = NULL;
		return -ENOMEM;
	}
	return 0;
}

void tracing_map_destroy(struct tracing_map *map)
{
	if (!map)
		return;
	free(map->slots);
	free(map->elts);
	free(map);
}

void tracing_map_clear(struct tracing_map *map)
{
	if (!map->elts)
		return;
	memset(map->slots, 0, map->nr_slots * sizeof(*map->slots));
	memset(map->elts, 0, (size_t)map->max_elts * map->elt_size);
	__atomic_store_n(&map->next_elt, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&map->hits, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&map->drops, 0, __ATOMIC_RELAXED);
}

static unsigned char *map_elt(const struct tracing_map *map, uint32_t i)
{
	return map->elts + (size_t)i * map->elt_size;
}

/*
 * A word at a time (keys are whole 64-bit words), multiplied and folded:
 * never 0, which marks a free slot.
 */
static uint32_t map_hash(const unsigned char *key, unsigned int size)
{
	uint64_t h = 0x9e3779b97f4a7c15ull, w;

	for (unsigned int i = 0; i < size; i += 8) {
		memcpy(&w, key + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	h ^= h >> 29;
	return (uint32_t)(h ^ (h >> 32)) | 1;
}

/* Take the next free element for @key into @slot; NULL when full. */
static unsigned char *map_claim(struct tracing_map *map, struct tracing_map_slot *slot,
				const unsigned char *key)
{
	uint32_t n = __atomic_fetch_add(&map->next_elt, 1, __ATOMIC_RELAXED);
	unsigned char *elt;

	if (n >= map->max_elts) {
		__atomic_store_n(&slot->hash, 0, __ATOMIC_RELEASE);
		return NULL;
	}
	elt = map_elt(map, n);
	memcpy(tracing_map_key(map, elt), key, map->key_size);
	if (map->strs_off != map->comm_off)
		trace_current_comm(tracing_map_comm(map, elt));
	/* Pairs with the acquire loads of the element index below. */
	__atomic_store_n(&slot->elt, n + 1, __ATOMIC_RELEASE);
	return elt;
}

/* Keys are whole words: compared as words, without a call. */
static bool keys_match(const unsigned char *a, const unsigned char *b, unsigned int size)
{
	uint64_t x, y;

	for (unsigned int i = 0; i < size; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return false;
	}
	return true;
}

/* The kernel's __tracing_map_insert(). */
static unsigned char *map_insert(struct tracing_map *map, const void *key, bool lookup_only)
{
	uint32_t hash = map_hash(key, map->key_size), mask = map->nr_slots - 1;
	uint32_t idx = hash & mask, probes = 0, spins = 0, zero, e;
	unsigned char *elt;

	if (!map->elts)
		return NULL;
	while (probes < map->nr_slots) {
		struct tracing_map_slot *slot = &map->slots[idx];
		uint32_t h = __atomic_load_n(&slot->hash, __ATOMIC_ACQUIRE);

		if (h == hash) {
			e = __atomic_load_n(&slot->elt, __ATOMIC_ACQUIRE);
			if (!e) {
				if (++spins > TRACING_MAP_SPIN_MAX)
					break;
				continue;
			}
			elt = map_elt(map, e - 1);
			if (keys_match(tracing_map_key(map, elt), key, map->key_size)) {
				if (!lookup_only)
					__atomic_add_fetch(&map->hits, 1, __ATOMIC_RELAXED);
				return elt;
			}
		} else if (!h) {
			if (lookup_only)
				return NULL;
			zero = 0;
			if (!__atomic_compare_exchange_n(&slot->hash, &zero, hash, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				continue;	/* taken meanwhile: look at it again */
			elt = map_claim(map, slot, key);
			if (!elt)
				break;
			__atomic_add_fetch(&map->hits, 1, __ATOMIC_RELAXED);
			return elt;
		}
		idx = (idx + 1) & mask;
		probes++;
	}
	if (!lookup_only)
		__atomic_add_fetch(&map->drops, 1, __ATOMIC_RELAXED);
	return NULL;
}

unsigned char *tracing_map_insert(struct tracing_map *map, const void *key)
{
	return map_insert(map, key, false);
}

unsigned char *tracing_map_lookup(struct tracing_map *map, const void *key)
{
	return map_insert(map, key, true);
}

unsigned int tracing_map_elements(struct tracing_map *map, unsigned char **out)
{
	unsigned int nr = 0;

	for (unsigned int i = 0; map->elts && i < map->nr_slots && nr < map->max_elts; i++) {
		uint32_t e = __atomic_load_n(&map->slots[i].elt, __ATOMIC_ACQUIRE);

		if (e && __atomic_load_n(&map->slots[i].hash, __ATOMIC_RELAXED))
			out[nr++] = map_elt(map, e - 1);
	}
	return nr;
}
