/*
 * blob.c: lookup of the data files CMake embeds into the binary.
 */
#include "blob.h"

#include <string.h>

const eng_blob *eng_blob_find(const char *name) {
  for (size_t i = 0; i < eng_n_blobs; i++)
    if (strcmp(eng_blobs[i].name, name) == 0)
      return &eng_blobs[i];
  return NULL;
}
