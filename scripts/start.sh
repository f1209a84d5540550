#!/bin/sh
# `npm start`: scripts/start.mjs (build when needed, then the server in that process), with glibc's allocator told to
# give memory back (decisions 192, 308). Node's worker threads (the V8 platform's four, libuv's four, the module
# loader's) each get a malloc arena that keeps what they freed: 10–26 MB each, almost all of it free, about 80 MB of
# the idle resident set. On glibc: at most two arenas; blocks of 32 KB and more mapped and unmapped on their own (V8's
# compiler and parser zones take 32 KB segments: carved from an arena, freed ones stayed there as holes, 40–60 MB of
# the idle resident set, decision 308); the free top of a heap handed back past 32 KB, with no padding kept above it.
# Elsewhere the variable means nothing. An operator's own GLIBC_TUNABLES wins.
GLIBC_TUNABLES="${GLIBC_TUNABLES:-glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=32768:glibc.malloc.trim_threshold=32768:glibc.malloc.top_pad=0}"
export GLIBC_TUNABLES
exec node "$(dirname "$0")/start.mjs" "$@"
