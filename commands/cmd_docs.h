/*
 * cmd_docs.h: text files embedded into the binary at build time
 * (cmake/embed.cmake writes the tables); nothing reads them at run
 * time.
 */
#ifndef LAIR_CMD_DOCS_H
#define LAIR_CMD_DOCS_H

#include <stddef.h>

typedef struct cmd_doc {
  const char *id;   /* the file's name without its extension ("supervillain"),
                       for a catalogue its language first ("de/cmd_core") */
  const char *text; /* the whole file, NUL-terminated */
  size_t len;       /* its length in bytes */
} cmd_doc;

/* The rules summaries docs/rules/NAME.md, for /game help. Sorted by id; the
 * entry after the last has id NULL. */
extern const cmd_doc cmd_rules_docs[];
extern const size_t cmd_rules_docs_n;

/* The message catalogues commands/locale/LANG/NAME.json (cmd_lang.c), sorted
 * by id, ending like cmd_rules_docs. */
extern const cmd_doc cmd_locale_docs[];
extern const size_t cmd_locale_docs_n;

#endif
