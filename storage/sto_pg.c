/*
 * sto_pg.c: the PostgreSQL engine of storage/sto.h (not yet written: a
 * URL is refused).
 */
#include "sto_int.h"

sto_rc sto_pg_open(const char *url, sto **out, char *err, size_t cap) {
  (void)url;
  *out = NULL;
  sto_set_err(err, cap, "PostgreSQL is not supported yet");
  return STO_INVALID;
}

sto_rc sto_pg_check(const char *url,
                    void (*report)(void *ctx, const char *problem), void *ctx,
                    long *problems, char *err, size_t cap) {
  (void)url;
  (void)report;
  (void)ctx;
  (void)problems;
  sto_set_err(err, cap, "PostgreSQL is not supported yet");
  return STO_INVALID;
}
