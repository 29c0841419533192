#!/usr/bin/env python3
"""local_windows: a Condition window looks and waits the same for a holder.

A Villainous Condition window opens because of what the deck lists hold
(public), never because of a hand (docs/rules/villainous.md,
"Conditions"). This test proves it at the console table. alice plays the
Gilded Baron, bob the Hive Queen, whose deck holds Angry Swarm ("Play
when an opponent performs a Fate action against you"). A seeded
2-player game is played until alice, at her first turn, is about to
perform a Fate action against bob; bob's hand then holds no Angry Swarm
(the first seed from 1 where alice goes first, bob holds none and
alice's Fate needs no answer from bob's hand is taken). Its database is
copied. In copy B only, the latest snapshot is rewritten in SQLite (as
tests/discord/test_game.py's give_big_hand does, with no process
running): an Angry Swarm of bob's villain deck trades places with a card
of his hand that is no Condition, so his hand and deck keep their sizes
and in B he holds a fitting Condition. Then both copies, each in its own
`lair local --json` process, get the same lines:

1. alice's Fate action, then bob's pass: every channel message and every
   message to alice is the same in A and B (text, fields, everything);
   bob is asked in both by DM (A offers only `pass`, B also the
   Condition `cond.cI`), with the same question and account of the
   turn; the channel says the game waits for bob in
   both; after the pass both states are equal but for the two cards
   traded, and both databases hold the same moves.
2. From fresh copies, bob first sets /prefs set conditions:auto-pass:
   nobody is asked, the channel and alice hear the same in A and B, the
   pass is stored with a request id ending ":autopass", and the state is
   the one the asked pass left.
3. From fresh copies, bob sets conditions:auto-pass while the window
   waits for him: it is passed at once, the same way in A and B.
"""

import json
import os
import shutil
import sys

import lairlocal as ll

VILLAINS = ["gilded_baron", "hive_queen"]
CONDITION = "Angry Swarm"  # the Hive Queen's: opp_fate
SEEDS = range(1, 41)
PASS = "bob> /game move choice:pass"
AUTO_PASS = "bob> /prefs set conditions:auto-pass"


def hand_of(model, st, seat):
    """The instances in seat's hand in state st, and st's card names."""
    names = model.instances(st)
    return [i for i, p in enumerate(model.places(st))
            if p[0] == ll.VL_HAND and p[1] == seat], names


def fate_lines(lair):
    """Alice's Fate action against bob from her prompt after her move:
    the lines sent, and the prompt they left (user, options). Her
    choices in it (which revealed card, where): a Hero if one was
    revealed, else the first option."""
    line = "alice> /game move choice:fate.2"
    lines = [line]
    prompt = ll.next_prompt(lair.send(line))
    while prompt and prompt[0] == "alice" and all(
            o["id"].split(".")[0] in ("pick", "loc") for o in prompt[1]):
        opts = prompt[1]
        heroes = [o for o in opts if "(Hero" in o["label"]]
        line = "alice> /game move choice:%s" % (heroes or opts)[0]["id"]
        lines.append(line)
        prompt = ll.next_prompt(lair.send(line))
    return lines, prompt


def probe(lair, model):
    """Whether the game fits (see the docstring): then alice's move to a
    location with Fate and her Fate lines, else None. (Whether bob is
    asked is left to the test.)"""
    user, options = ll.open_game(lair, 2, "villainous", VILLAINS)
    hand, names = hand_of(model, json.loads(lair.dump()), 1)
    if user != "alice" or CONDITION in (names[i] for i in hand):
        return None
    fate = [o for o in options if "Fate" in o["label"]]
    if not fate:
        return None
    move = "alice> /game move choice:%s" % fate[0]["id"]
    user, options = ll.one_prompt(lair.send(move), move)
    if not any(o["id"] == "fate.2" for o in options):
        return None
    lines, prompt = fate_lines(lair)
    if not prompt or prompt[0] == "bob" and any(
            o["id"] != "pass" and not o["id"].startswith("cond.")
            for o in prompt[1]):
        return None  # over, or bob answers for his hand
    return move, lines


def find_seed(binary, tmp, model):
    """The first seed that fits, alice's move and her Fate lines."""
    for seed in SEEDS:
        lair = ll.Lair(binary, os.path.join(tmp, "probe%d.db" % seed), seed)
        found = probe(lair, model)
        lair.close()
        if found:
            return (seed,) + found
    raise ll.Fail("no seed in %r fits" % (SEEDS,))


def copy_db(src, dst):
    for ext in ("", "-wal", "-shm"):
        if os.path.exists(src + ext):
            shutil.copyfile(src + ext, dst + ext)


def give_condition(binary, db, seed, model):
    """Rewrites game 1's latest snapshot in db (no process running) so
    that a CONDITION of bob's villain deck and the first card of his hand
    that is no Condition trade places. Returns (condition, card)."""
    lair = ll.Lair(binary, db, seed)
    st = json.loads(lair.dump())
    lair.close()
    hand, names = hand_of(model, st, 1)
    card = next(i for i in hand if model.kinds[names[i]] != "condition")
    cond = next(i for i in st["piles"]["villain_deck"][1]
                if names[i] == CONDITION)
    ll.write_snapshot(db, trade(st, cond, card))
    return cond, card


def trade(st, cond, card):
    """st (a parsed state) with cond, in bob's villain deck, and card, in
    his hand, trading places."""
    st["where"][cond], st["where"][card] = st["where"][card], \
        st["where"][cond]
    deck = st["piles"]["villain_deck"][1]
    deck[deck.index(cond)] = card
    return st


def traded(state, cond, card):
    """state (JSON text) with cond and card trading places, as
    give_condition traded them."""
    return trade(json.loads(state), cond, card)


def lockstep(a, b, line):
    """Sends line to A and B; what the channel and alice hear must be
    the same. Returns both answers."""
    out_a, out_b = ll.send_both(a, b, line)
    public_a = [m for m in out_a if m.get("user") != "bob"]
    public_b = [m for m in out_b if m.get("user") != "bob"]
    for k in range(max(len(public_a), len(public_b))):
        x, y = public_a[k:k + 1], public_b[k:k + 1]
        ll.check(x == y, "after %r the channel or alice heard different "
                 "things when bob held %s:\n  without: %.2000r\n  with:    "
                 "%.2000r" % (line, CONDITION, x, y))
    ll.check(any(m["to"] == "channel" for m in out_a),
             "%r told the channel nothing: %r" % (line, out_a))
    return out_a, out_b


def waits_for(out, who):
    """Whether the channel says in out that the game waits for who."""
    return any(m["to"] == "channel" and
               "Waiting for %s." % who in m.get("text", "") for m in out)


def bob_asked(out):
    """The prompts (user, options) in out that ask bob."""
    return [p for p in ll.prompts(out) if p[0] == "bob"]


def question(out):
    """Bob's prompt DM in out without his hand (up to the first empty
    line after it) and the option lines: the turn so far and the
    question."""
    dms = [m["text"] for m in out if m["to"] == "dm" and m["user"] == "bob"
           and m.get("options")]
    ll.check(len(dms) == 1, "bob got %d prompts: %r" % (len(dms), out))
    rows = dms[0].split("\n")
    # past the game's header and the "since your last turn" lines
    hand = [i for i, x in enumerate(rows) if x.startswith("**Your hand**")]
    ll.check(hand, "bob's prompt shows no hand: %r" % dms[0])
    return [x for x in rows[rows.index("", hand[0]):]
            if not x.startswith("- `")]


def check_moves(a, b, autopass):
    """A's and B's moves tables hold the same answers; the last is bob's
    pass, stored as an auto-pass if autopass."""
    ma, mb = ll.moves_in_db(a.db), ll.moves_in_db(b.db)
    ll.check([r[::2] for r in ma] == [r[::2] for r in mb],
             "the stored moves differ:\n%r\n%r" % (ma, mb))
    for rows in (ma, mb):
        last = rows[-1]
        ll.check(last[2:] == (1, "pass") and
                 last[1].endswith(":autopass") == autopass,
                 "the last stored move is %r, not bob's pass%s" %
                 (last, " by auto-pass" if autopass else ""))


def start_pair(binary, tmp, name, base, modified, seed):
    a_db, b_db = ("%s/%s_%s.db" % (tmp, name, x) for x in "ab")
    copy_db(base, a_db)
    copy_db(modified, b_db)
    return ll.Lair(binary, a_db, seed), ll.Lair(binary, b_db, seed)


def run(binary, tmp):
    model = ll.card_model(binary, "villainous")
    seed, move, fate = find_seed(binary, tmp, model)
    # The base game: up to alice's Fate action; B: bob holds the Condition.
    base = os.path.join(tmp, "base.db")
    lair = ll.Lair(binary, base, seed)
    ll.open_game(lair, 2, "villainous", VILLAINS)
    ll.one_prompt(lair.send(move), move)
    lair.close()
    modified = os.path.join(tmp, "modified.db")
    copy_db(base, modified)
    cond, card = give_condition(binary, modified, seed, model)
    check = ll.Lair(binary, modified, seed)
    hand, names = hand_of(model, json.loads(check.dump()), 1)
    check.close()
    ll.check(cond in hand and card not in hand,
             "the rewritten snapshot did not give bob %s: his hand is %r" %
             (CONDITION, [names[i] for i in hand]))

    # 1. Asked: alice's Fate, then bob's pass.
    a, b = start_pair(binary, tmp, "asked", base, modified, seed)
    for line in fate:
        out_a, out_b = lockstep(a, b, line)
    asked_a, asked_b = bob_asked(out_a), bob_asked(out_b)
    ll.check(len(asked_a) == 1 and [o["id"] for o in asked_a[0][1]] ==
             ["pass"],
             "without %s bob was not asked with pass alone: %r" %
             (CONDITION, asked_a))
    ll.check(len(asked_b) == 1 and sorted(o["id"] for o in asked_b[0][1]) ==
             ["cond.c%d" % cond, "pass"],
             "holding %s bob was not offered it and pass: %r" %
             (CONDITION, asked_b))
    ll.check(question(out_a) == question(out_b),
             "bob's question differs when he holds %s:\n%s\n%s" %
             (CONDITION, "\n".join(question(out_a)),
              "\n".join(question(out_b))))
    ll.check(waits_for(out_a, "bob") and waits_for(out_b, "bob"),
             "the channel does not say it waits for bob: %r" % out_a)
    out_a, out_b = lockstep(a, b, PASS)
    ll.check(waits_for(out_a, "alice") and
             any("bob played no Condition." in m.get("text", "")
                 for m in out_a if m["to"] == "channel"),
             "bob's pass was not told: %r" % out_a)
    asked_state = a.dump()
    ll.check(traded(asked_state, cond, card) == json.loads(b.dump()),
             "after the pass the states differ in more than the two cards "
             "traded:\nwithout %s\nwith    %s" % (asked_state, b.dump()))
    a.close()
    b.close()
    check_moves(a, b, False)

    # 2. bob passes every window at once: nobody is asked.
    a, b = start_pair(binary, tmp, "auto", base, modified, seed)
    for lair in (a, b):
        out = lair.send(AUTO_PASS)
        ll.check([m["to"] for m in out] == ["ephemeral"] and
                 "auto-pass" in out[0]["text"],
                 "%r said %r" % (AUTO_PASS, out))
    for line in fate:
        out_a, out_b = lockstep(a, b, line)
        ll.check(not bob_asked(out_a) and not bob_asked(out_b),
                 "bob was asked although he passes every window: %r" %
                 (bob_asked(out_a) or bob_asked(out_b)))
    ll.check(waits_for(out_a, "alice") and not waits_for(out_a, "bob") and
             any("bob played no Condition." in m.get("text", "")
                 for m in out_a if m["to"] == "channel"),
             "the auto-pass was not told, or the game waits: %r" % out_a)
    ll.check(a.dump() == asked_state and
             traded(asked_state, cond, card) == json.loads(b.dump()),
             "the auto-pass left another state than the asked pass")
    a.close()
    b.close()
    check_moves(a, b, True)

    # 3. The preference set while the window waits for bob passes it.
    a, b = start_pair(binary, tmp, "waiting", base, modified, seed)
    for line in fate:
        out_a, out_b = lockstep(a, b, line)
    ll.check(bob_asked(out_a) and bob_asked(out_b) and
             waits_for(out_a, "bob"), "the window does not wait for bob")
    out_a, out_b = lockstep(a, b, AUTO_PASS)
    ll.check(waits_for(out_a, "alice") and
             any("bob played no Condition." in m.get("text", "")
                 for m in out_a if m["to"] == "channel"),
             "setting auto-pass did not pass the waiting window: %r" % out_a)
    ll.check(a.dump() == asked_state and
             traded(asked_state, cond, card) == json.loads(b.dump()),
             "the auto-pass of a waiting window left another state")
    a.close()
    b.close()
    check_moves(a, b, True)
    return ("seed %d: alice's Fate against bob (%d lines) opens the same "
            "window whether or not bob holds %s: the same channel "
            "messages, bob asked in both (pass; pass or the Condition), "
            "the same state after his pass but for the two cards traded; "
            "with conditions:auto-pass, set before or while it waits, "
            "nobody is asked and the pass is stored as :autopass" %
            (seed, len(fate), CONDITION))


if __name__ == "__main__":
    sys.exit(ll.main("local_windows", run))
