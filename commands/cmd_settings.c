/*
 * cmd_settings.c: the moderators' /gamemod settings command: shows a
 * server's settings (cmd_conf.c declares them) or changes one, with a line
 * in the audit log.
 */
#include "cmd_int.h"

#include <stdio.h>
#include <string.h>

static void show(const cmd_setting_def *d, long v, char *buf, size_t cap) {
  if (d->words)
    snprintf(buf, cap, "%s", d->words[v]);
  else
    snprintf(buf, cap, "%ld", v);
}

void cmd_h_settings(cmd_ctx *c, const cmd_request *r) {
  const char *key = cmd_arg_get(r, "key"), *value = cmd_arg_get(r, "value");
  char scope[64], shown[32];
  cmd_guild_scope(r->guild, scope, sizeof scope);
  if (!key) {
    char text[CMD_TEXT_MAX];
    size_t o = (size_t)snprintf(text, sizeof text, "%s",
                                T(c->lang, "Settings of this server:"));
    const cmd_setting_def *d;
    for (size_t i = 0; (d = cmd_setting_at(i)) && o < sizeof text; i++) {
      bool found;
      show(d, cmd_setting_scoped(c, scope, d, &found), shown, sizeof shown);
      o += (size_t)snprintf(text + o, sizeof text - o, "\n- `%s` = %s: %s",
                            d->key, shown, cmd_tr(c->lang, d->help));
    }
    cmd_reply(c, r, NULL, "%s", text);
    return;
  }
  const cmd_setting_def *d = cmd_setting_find(key);
  if (!d && cmd_setting_retired(key)) {
    cmd_reply(c, r, NULL, "%s", cmd_tr(c->lang, cmd_setting_retired(key)));
    return;
  }
  if (!d) {
    char list[400] = "";
    size_t o = 0;
    const cmd_setting_def *e;
    for (size_t i = 0; (e = cmd_setting_at(i)) && o < sizeof list; i++)
      o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? ", " : "",
                            e->key);
    cmd_reply(c, r, NULL, "There is no setting '%.40s'. Settings: %s.", key,
              list);
    return;
  }
  long v;
  if (!value || !cmd_setting_parse(d, value, &v)) {
    if (d->words) {
      char list[200] = "";
      size_t o = 0;
      for (size_t i = 0; d->words[i] && o < sizeof list; i++)
        o += (size_t)snprintf(list + o, sizeof list - o, "%s%s",
                              i == 0            ? ""
                              : d->words[i + 1] ? ", "
                                                : T(c->lang, " or "),
                              d->words[i]);
      cmd_reply(c, r, NULL, "%s takes %s.", d->key, list);
    } else
      cmd_reply(c, r, NULL, "%s needs a value from %ld to %ld.", d->key, d->min,
                d->max);
    return;
  }
  show(d, v, shown, sizeof shown);
  sto_rc rc = sto_setting_set(c->cfg.db, scope, d->key, shown);
  cmd_lang_forget(c); /* the announcement below reads the new language */
  if (rc) {
    cmd_fail(c, "The setting could not be saved: %s", sto_strerror(rc));
    return;
  }
  cmd_audit(c, r, "settings", 0, "%s = %s", d->key, shown);
  cmd_announce(c, r, NULL, "%s set %s to %s.", r->user_name, d->key, shown);
}
