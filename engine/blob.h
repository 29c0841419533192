/*
 * blob.h: data files built into the binary.
 *
 * CMake turns every engine/games/GAME/data/FILE.json into an entry of
 * eng_blobs (generated source), so the binary needs no data directory at
 * run time. Rulesets look their files up by "GAME/FILE.json".
 */
#ifndef LAIR_BLOB_H
#define LAIR_BLOB_H

#include <stddef.h>

typedef struct eng_blob {
  const char *name; /* "supervillain/minion.json" */
  const char *text; /* NUL-terminated file contents */
  size_t len;       /* bytes, without the NUL */
} eng_blob;

extern const eng_blob eng_blobs[];
extern const size_t eng_n_blobs;

/* Returns the blob called name, or NULL. */
const eng_blob *eng_blob_find(const char *name);

#endif
