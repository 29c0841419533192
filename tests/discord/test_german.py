#!/usr/bin/python3
"""discord_german: Lair in German through the fake Discord.

- the registered slash commands carry a German description (locale
  "de") for every command, subcommand and option, within Discord's 100
  characters, and pass the fake's openapi.json checks (the body of the
  PUT is checked against ApplicationCommandCreateRequest there);
- an interaction whose locale is "de" is answered in German, one whose
  locale is "en-US" in English (the message catalogue,
  commands/locale/de/*.json, is the reference: an entry's fixed pieces
  of 20 characters or more);
- the channel speaks the server's language (guild_locale "de"), also
  for the English player's commands; each player's DMs speak their own
  language, also when another player's command causes them;
- the lobby's buttons are labelled in the channel's language, the DMs'
  link to the table post in each reader's, and a stale button is
  refused in the clicker's;
- every interaction is answered within 3 s; no violations.
"""

import re

import discordlib as dl
from discordlib import check

GERMAN_CH = "1187000000000000240"


def languages(cat, text):
    """(English pieces, German pieces) of the catalogue found in text."""
    en, de = [], []
    for en_p, de_p in cat:
        for p in en_p:
            if p in text and p not in "\n".join(de_p):
                en.append(p)
        for p in de_p:
            if p in text and p not in "\n".join(en_p):
                de.append(p)
    return en, de


def german(cat, text, what):
    en, de = languages(cat, text)
    check(de and not en, "%s: not German (English %r, German %r): %r" %
          (what, en[:3], de[:3], text[:300]))


def english(cat, text, what):
    en, de = languages(cat, text)
    check(en and not de, "%s: not English (English %r, German %r): %r" %
          (what, en[:3], de[:3], text[:300]))


def check_commands(fake):
    """Every description has its German form, within 100 characters."""
    cmds = fake.get("/commands")["commands"]
    n = 0

    def walk(o, where):
        nonlocal n
        loc = o.get("description_localizations") or {}
        check("de" in loc and 1 <= len(loc["de"]) <= 100 and
              loc["de"] != o["description"],
              "%s: description_localizations %r" % (where, loc))
        n += 1
        for sub in o.get("options") or []:
            walk(sub, where + " " + sub["name"])

    for scope, lst in cmds.items():
        for c in lst:
            walk(c, "/" + c["name"])
    check(n > 40, "only %d descriptions registered" % n)
    return n


def run(binary, openapi, tmp):
    cat = [(en, de) for en, de, _ in dl.ll.catalogue()]
    with dl.processes(binary, openapi, tmp) as (fake, bot, db, local):
        n_desc = check_commands(fake)
        de = {"locale": "de", "guild_locale": "de", "channel": GERMAN_CH}
        en = {"locale": "en-US", "guild_locale": "de", "channel": GERMAN_CH}
        # A refusal, in each one's language.
        info = dl.slash(fake, "alice", "start", **de)
        german(cat, dl.answer_text(info), "alice's /game start without a "
               "game")
        info = dl.slash(fake, "bob", "start", **en)
        english(cat, dl.answer_text(info), "bob's /game start without a "
                "game")
        # The lobby: public posts in the server's language.
        info = dl.slash(fake, "alice", "new", dl.options(kind="supervillain"),
                        **de)
        check(dl.acted(info), "new: %r" % dl.answer_text(info))
        german(cat, dl.answer_text(info), "the lobby (alice's /game new)")
        data = (info["callback"] or {}).get("data") or info.get(
            "original") or {}
        labels = [b.get("label") for row in data.get("components") or []
                  for b in row.get("components") or []]
        check(labels == ["Beitreten", "Verlassen", "Starten",
                         "KI hinzufügen"],
              "the lobby's buttons: %r" % labels)
        info = dl.slash(fake, "bob", "join", **en)
        german(cat, dl.answer_text(info), "bob's join, in the channel")
        before = {u: len(fake.dms(u)) for u in ("alice", "bob")}
        info = dl.slash(fake, "bob", "start", **en)
        check(dl.is_ephemeral(info), "bob started alice's game")
        english(cat, dl.answer_text(info), "bob's /game start of alice's "
                "game")
        info = dl.slash(fake, "alice", "start", **de)
        check(dl.acted(info), "start: %r" % dl.answer_text(info))
        # The DMs of the start: each in its reader's language (their
        # header names the game; the hand itself is the game's text,
        # English).
        for user, head, server in (
                ("alice", "_Spiel #1 (", "_ auf Lair Test Server"),
                ("bob", "_Game #1 (", "_ on Lair Test Server")):
            dms = dl.wait_until(
                lambda: fake.dms(user)[before[user]:] or None, 15,
                "%s's DMs after the start" % user)
            for m in dms:
                text = dl.message_text(m)
                check(text.startswith(head) and
                      server in text.split("\n")[0],
                      "%s's DM after the start: %r" % (user, text[:200]))
        info = dl.slash(fake, "bob", "status", **en)
        check(dl.answer_text(info).startswith("Game #1: "),
              "bob's /game status: %r" % dl.answer_text(info)[:200])
        info = dl.slash(fake, "alice", "status", **de)
        check(dl.answer_text(info).startswith("Spiel #1: "),
              "alice's /game status: %r" % dl.answer_text(info)[:200])
        # A bad option: a specific error, in the asker's language.
        info = dl.slash(fake, "alice", "move", dl.options(choice="nonesuch"),
                        **de)
        check(dl.is_ephemeral(info), "a bad move was public")
        german(cat, dl.answer_text(info), "alice's bad move")
        info = dl.slash(fake, "bob", "move", dl.options(choice="nonesuch"),
                        **en)
        english(cat, dl.answer_text(info), "bob's bad move")
        # The DMs' link to the table, in each reader's words: a few
        # answers by whoever decides (the turn's end where offered).
        for _ in range(12):
            links = {u: [dl.message_text(m) for m in fake.dms(u)]
                     for u in ("alice", "bob")}
            if any(" - der Tisch: https://discord.com/channels/" in t
                   for t in links["alice"]) and \
                    any(" - the table: https://discord.com/channels/" in t
                        for t in links["bob"]):
                break
            st = dl.answer_text(dl.slash(fake, "bob", "status", **en))
            who = re.search(r"Waiting for (\w+)\.", st)
            check(who, "bob's /game status: %r" % st[:200])
            kw = de if who.group(1) == "alice" else en
            ch = dl.autocomplete(fake, who.group(1), "move", "choice", "end",
                                 **kw) or dl.autocomplete(
                fake, who.group(1), "move", "choice", "", **kw)
            dl.slash(fake, who.group(1), "move",
                     dl.options(choice=ch[0]["value"]), **kw)
        else:
            raise dl.Fail("no DM linked the table in its reader's words: "
                          "%r" % {u: t[-1][:200] for u, t in links.items()})
        check(not any(" - the table: " in t for t in links["alice"]) and
              not any(" - der Tisch: " in t for t in links["bob"]),
              "a DM's link in the other language")
        # A stale button, in the clicker's language.
        for loc, want in (("de", "Dieses Spiel gibt es nicht mehr."),
                          ("en-US", "That game no longer exists.")):
            r = fake.interaction({"type": 3, "locale": loc,
                                  "data": {"custom_id": "m:99:1:end"},
                                  "user": {"id": dl.USERS["alice"],
                                           "username": "alice"},
                                  "force": True})
            info = fake.wait(r["id"])
            check(dl.answer_text(info) == want, "a stale click (%s): %r" %
                  (loc, dl.answer_text(info)))
        # /prefs set language: overrides the client's locale.
        info = dl.slash(fake, "bob", "prefs", dl.options(language="de"),
                        **en)
        german(cat, dl.answer_text(info), "bob's /prefs set language:de")
        info = dl.slash(fake, "bob", "status", **en)
        check(dl.answer_text(info).startswith("Spiel #1: "),
              "bob's status after language:de: %r" %
              dl.answer_text(info)[:200])
        n = dl.check_interactions(fake)
        fake.no_violations()
        bot.stop()
    return "%d descriptions in German; %d interactions, each answered in " \
        "its reader's language" % (n_desc, n)


if __name__ == "__main__":
    raise SystemExit(dl.main("discord_german", run))
