/*
 * cmd_rules.h: the rules summaries (docs/rules, one Markdown file per
 * game), embedded into the binary at build time (cmake/embed_rules.cmake
 * writes the table), for /game help. Nothing reads the files at run time.
 */
#ifndef LAIR_CMD_RULES_H
#define LAIR_CMD_RULES_H

#include <stddef.h>

typedef struct cmd_rules_doc {
  const char *id;   /* the file's name without ".md": "supervillain" */
  const char *text; /* the whole file, NUL-terminated */
  size_t len;       /* its length in bytes */
} cmd_rules_doc;

/* Sorted by id; the entry after the last has id NULL. */
extern const cmd_rules_doc cmd_rules_docs[];
extern const size_t cmd_n_rules_docs;

#endif
