# Tests: every tests/test_*.c is one cmocka executable; tests/toy_ruleset.c
# (a test-only game), tests/prompt_util.c (answering any game's prompts
# by option id, the form of told lines) and tests/position_util.c (strict
# position files) are linked into all of them. Script tests check the
# source for banned calls, the engine library for network/database
# symbols, and the command line's contract.
enable_testing()
pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)
find_program(LAIR_BASH bash REQUIRED)

add_library(lair_toy STATIC ${PROJECT_SOURCE_DIR}/tests/toy_ruleset.c
                            ${PROJECT_SOURCE_DIR}/tests/prompt_util.c
                            ${PROJECT_SOURCE_DIR}/tests/position_util.c)
target_link_libraries(lair_toy PUBLIC lair_engine PkgConfig::CMOCKA)

# Sanitizer reports must fail the test, and a stack trace helps.
set(LAIR_TEST_ENV "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1"
                  "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0")

file(GLOB LAIR_TEST_SOURCES CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/tests/test_*.c)
foreach(src IN LISTS LAIR_TEST_SOURCES)
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  target_link_libraries(${name} PRIVATE lair_toy lair_engine
                                        PkgConfig::CMOCKA m)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${LAIR_TEST_ENV}"
                                          TIMEOUT 120)
endforeach()
# The state fuzzer damages states of every registered ruleset; one ctest
# case per ruleset (its argument), so that they run side by side. The
# plain test_fuzz_state case is the toy game's and checks that every
# registered ruleset has a case of its own.
set(LAIR_FUZZ_RULESETS supervillain villainous marvel-villainous disorder
                       galactic)
string(JOIN " " LAIR_FUZZ_RULESET_WORDS ${LAIR_FUZZ_RULESETS})
set_tests_properties(test_fuzz_state PROPERTIES ENVIRONMENT
  "${LAIR_TEST_ENV};LAIR_FUZZ_RULESETS=${LAIR_FUZZ_RULESET_WORDS}")
foreach(rs IN LISTS LAIR_FUZZ_RULESETS)
  add_test(NAME test_fuzz_state_${rs} COMMAND test_fuzz_state ${rs})
  set_tests_properties(test_fuzz_state_${rs} PROPERTIES
                       ENVIRONMENT "${LAIR_TEST_ENV}" TIMEOUT 240)
endforeach()

# The Supervillain rule and event tests build their states from position
# files read at run time (tests/data/supervillain/*.json) with the
# test-only loader tests/sv_position.c, and check what every answer tells
# with tests/sv_told.c.
foreach(t IN ITEMS test_sv_rules test_sv_events)
  if(TARGET ${t})
    target_sources(${t} PRIVATE ${PROJECT_SOURCE_DIR}/tests/sv_position.c
                                ${PROJECT_SOURCE_DIR}/tests/sv_told.c)
    target_compile_definitions(${t} PRIVATE
      "SV_TEST_DATA=\"${PROJECT_SOURCE_DIR}/tests/data/supervillain\"")
  endif()
endforeach()

# The Villainous rule tests build their states from position files
# (tests/data/villainous/*.json, and for the Marvel rulebook
# tests/data/marvel-villainous/*.json) with tests/vl_position.c, which
# also checks what every answer tells, and play on tests/vl_table.c.
if(TARGET test_vl_rules)
  target_sources(test_vl_rules PRIVATE ${PROJECT_SOURCE_DIR}/tests/vl_position.c
                                      ${PROJECT_SOURCE_DIR}/tests/vl_table.c)
  target_compile_definitions(test_vl_rules PRIVATE
    "VL_TEST_DATA=\"${PROJECT_SOURCE_DIR}/tests/data/villainous\"")
endif()
if(TARGET test_mv_rules)
  target_sources(test_mv_rules PRIVATE ${PROJECT_SOURCE_DIR}/tests/vl_position.c
                                      ${PROJECT_SOURCE_DIR}/tests/vl_table.c)
  target_compile_definitions(test_mv_rules PRIVATE
    "MV_TEST_DATA=\"${PROJECT_SOURCE_DIR}/tests/data/marvel-villainous\"")
endif()
# test_vl_ai builds its small positions with the same loader.
if(TARGET test_vl_ai)
  target_sources(test_vl_ai PRIVATE ${PROJECT_SOURCE_DIR}/tests/vl_position.c)
endif()

# The Disorder rule tests build their small positions in C with
# tests/dis_position.c.
if(TARGET test_dis_rules)
  target_sources(test_dis_rules PRIVATE ${PROJECT_SOURCE_DIR}/tests/dis_position.c)
endif()
# test_dis_ai builds its small positions with the same builder.
if(TARGET test_dis_ai)
  target_sources(test_dis_ai PRIVATE ${PROJECT_SOURCE_DIR}/tests/dis_position.c)
endif()

# The Galactic Domination rule tests build their small positions in C with
# tests/gal_position.c.
if(TARGET test_gal_rules)
  target_sources(test_gal_rules PRIVATE ${PROJECT_SOURCE_DIR}/tests/gal_position.c)
endif()

# test_ai and test_sv_render build their small Supervillain positions
# with the same loader, from JSON written in the test itself.
foreach(t IN ITEMS test_ai test_sv_render)
  if(TARGET ${t})
    target_sources(${t} PRIVATE ${PROJECT_SOURCE_DIR}/tests/sv_position.c)
  endif()
endforeach()

# test_pic draws table pictures (engine/pic/, lair_pic) and compares them
# with the golden PNGs in tests/data/pictures/ (LAIR_UPDATE_GOLDEN=1
# rewrites them; see the test's header), and reads its PNGs back with
# cairo. Its privacy case builds two Supervillain positions with
# tests/sv_position.c.
if(TARGET test_pic)
  target_sources(test_pic PRIVATE ${PROJECT_SOURCE_DIR}/tests/sv_position.c)
  target_link_libraries(test_pic PRIVATE lair_pic Threads::Threads
                                         PkgConfig::PANGOCAIRO)
  target_compile_definitions(test_pic PRIVATE
    "PIC_TEST_DATA=\"${PROJECT_SOURCE_DIR}/tests/data/pictures\"")
endif()

# test_learn compares the rules summaries embedded in lair_commands with
# docs/rules, read at test time, and checks the AI's hints.
if(TARGET test_learn)
  target_link_libraries(test_learn PRIVATE lair_commands)
  target_compile_definitions(test_learn PRIVATE
    "LAIR_RULES_DIR=\"${PROJECT_SOURCE_DIR}/docs/rules\"")
endif()

# test_lang checks the message catalogues embedded in lair_commands and
# the German form of every slash command description; lang_check (below,
# with Python) finds the texts of the source that lack their German form.
if(TARGET test_lang)
  target_link_libraries(test_lang PRIVATE lair_commands)
endif()

# test_cmd_fields checks how a table's fields are cut to Discord's embed
# limits, inside the command layer.
if(TARGET test_cmd_fields)
  target_link_libraries(test_cmd_fields PRIVATE lair_commands)
endif()
# test_glicko checks the rating functions of the command layer.
if(TARGET test_glicko)
  target_link_libraries(test_glicko PRIVATE lair_commands)
endif()

# test_storage also builds damaged and foreign database files by hand, and
# (with LAIR_TEST_PG, a server tools/pg.sh started) makes a PostgreSQL
# database per test through libpq; threads stand for a second process.
if(TARGET test_storage)
  target_link_libraries(test_storage PRIVATE lair_storage PkgConfig::SQLITE3
                                             PkgConfig::PQ Threads::Threads)
endif()

# With LAIR_TEST_PG_REQUIRED=1 (tools/test.sh) the PostgreSQL storage
# tests must not be skipped for want of LAIR_TEST_PG.
add_test(NAME storage_pg_required
         COMMAND ${LAIR_BASH} ${PROJECT_SOURCE_DIR}/tests/pg_required.sh)

add_test(NAME check_banned
         COMMAND ${LAIR_BASH} ${PROJECT_SOURCE_DIR}/tools/check_banned.sh
                 ${PROJECT_SOURCE_DIR})

add_test(NAME nm_engine
         COMMAND ${LAIR_BASH} ${PROJECT_SOURCE_DIR}/tests/nm_engine.sh
                 ${CMAKE_NM} $<TARGET_FILE:lair_engine>)

# Calls in commands/ flow one way: entry -> handlers -> helpers.
add_test(NAME layers
         COMMAND ${LAIR_BASH} ${PROJECT_SOURCE_DIR}/tests/layers.sh
                 ${CMAKE_NM} $<TARGET_FILE:lair_commands>)

# The card lists in docs/rules/GAME.md must equal `lair cards GAME
# --markdown`; on a difference it prints the diff and how to regenerate
# (tools/gen_docs.sh).
add_test(NAME docs_cards
         COMMAND ${LAIR_BASH} ${PROJECT_SOURCE_DIR}/tools/gen_docs.sh --check
                 $<TARGET_FILE:lair>)
set_tests_properties(docs_cards PROPERTIES ENVIRONMENT "${LAIR_TEST_ENV}")

# One ctest entry per command-line case, so a failure names the case.
set(LAIR_CLI_CASES
    unknown_game version help no_command unknown_command
    plain_no_token plain_with_token bad_config
    bad_games bad_players_text bad_seed missing_game extra_argument
    cards_unknown cards_markdown cards_markdown_errors simulate_registered
    simulate_ai bad_ai replay_usage health check bad_database simulate_golden
    simulate_marvel simulate_checked simulate_disorder simulate_galactic)
foreach(case IN LISTS LAIR_CLI_CASES)
  add_test(NAME cli_${case}
           COMMAND ${LAIR_BASH} ${PROJECT_SOURCE_DIR}/tests/cli.sh
                   $<TARGET_FILE:lair> ${case})
  set_tests_properties(cli_${case} PROPERTIES ENVIRONMENT "${LAIR_TEST_ENV}")
endforeach()

# The console-table tests (tests/local/*.py, Python 3 standard library):
# whole games through `lair local --json` with restarts, SIGKILLs, privacy
# checks, Condition windows, bad input, the quick start and the pictures
# written with --images. Each prints a one-line summary.
find_program(LAIR_PYTHON3 python3 REQUIRED)
add_test(NAME lang_check
         COMMAND ${LAIR_PYTHON3} -B ${PROJECT_SOURCE_DIR}/tests/lang_check.py
                 ${PROJECT_SOURCE_DIR})
foreach(case IN ITEMS replay_restart kill privacy bad_input quickstart async
                     limits damaged recover text
                     history states commands deadline rematch windows
                     pictures pg_tables learn ratings catchup german)
  add_test(NAME local_${case}
           COMMAND ${LAIR_PYTHON3} -B
                   ${PROJECT_SOURCE_DIR}/tests/local/test_${case}.py
                   $<TARGET_FILE:lair>)
  # The longest (replay_restart, privacy, kill: each with a Marvel game
  # or two) take 55-90 s alone in the sanitizer build and up to 230 s
  # under `ctest -j8` on a two-core machine; the limit leaves room for a
  # parallel `ctest -j` on a busy machine.
  set_tests_properties(local_${case} PROPERTIES
                       ENVIRONMENT "${LAIR_TEST_ENV}" TIMEOUT 360)
endforeach()

# The crash test needs the fault hook (LAIR_FAULTS, on in tools/test.sh):
# it kills `lair local` after each write of thirteen kinds of command.
if(LAIR_FAULTS)
  add_test(NAME local_crash
           COMMAND ${LAIR_PYTHON3} -B ${PROJECT_SOURCE_DIR}/tests/local/test_crash.py
                   $<TARGET_FILE:lair>)
  set_tests_properties(local_crash PROPERTIES
                       ENVIRONMENT "${LAIR_TEST_ENV}" TIMEOUT 300)
endif()

# test_rest drives bot/rest.c against a scripted HTTP server on loopback
# (tests/rest_server.py, run with Debian's /usr/bin/python3).
if(TARGET test_rest)
  target_link_libraries(test_rest PRIVATE lair_discord PkgConfig::CURL
                                          PkgConfig::JANSSON)
  target_compile_definitions(test_rest PRIVATE
    "REST_SERVER_PY=\"${PROJECT_SOURCE_DIR}/tests/rest_server.py\""
    "REST_PYTHON=\"/usr/bin/python3\"")
  set_tests_properties(test_rest PROPERTIES TIMEOUT 60)
endif()

# test_http: the HTTP interactions endpoint's configuration and its
# Ed25519 check (bot/discord_http.c), with key pairs libsodium makes.
if(TARGET test_http)
  target_link_libraries(test_http PRIVATE lair_discord PkgConfig::JANSSON
                                          PkgConfig::SODIUM)
endif()

# test_gateway drives bot/gateway.c against a scripted gateway on loopback
# (tests/gw_server.py, Debian's /usr/bin/python3 with python3-websockets).
if(TARGET test_gateway)
  target_link_libraries(test_gateway PRIVATE lair_discord PkgConfig::JANSSON
                                             PkgConfig::OPENSSL Threads::Threads)
  target_compile_definitions(test_gateway PRIVATE
    "LAIR_GW_SERVER=\"${PROJECT_SOURCE_DIR}/tests/gw_server.py\""
    "LAIR_GW_TLS_DIR=\"${PROJECT_SOURCE_DIR}/tests/data/gateway\""
    "LAIR_GW_PYTHON=\"/usr/bin/python3\"")
  set_tests_properties(test_gateway PROPERTIES TIMEOUT 90)
endif()

# test_shards checks sharding without sockets: LAIR_SHARDS and
# LAIR_SHARD_IDS as the Discord transport reads them, the Identify plan
# of the max_concurrency buckets, and the shard lists the gateway refuses.
if(TARGET test_shards)
  target_link_libraries(test_shards PRIVATE lair_discord PkgConfig::JANSSON)
endif()

# The fake Discord's self-test (tests/fake_discord/, Debian's /usr/bin/python3
# with python3-websockets and python3-jsonschema): it checks every request
# against Discord's openapi.json, committed in tests/discord/spec/ with its
# licence. A missing file fails the test with a message; it never skips.
set(LAIR_DEBIAN_PYTHON /usr/bin/python3)
set(LAIR_OPENAPI ${PROJECT_SOURCE_DIR}/tests/discord/spec/openapi.json)
add_test(NAME fake_discord_selftest
         COMMAND ${LAIR_DEBIAN_PYTHON} -B
                 ${PROJECT_SOURCE_DIR}/tests/fake_discord/test_fake.py
                 --openapi ${LAIR_OPENAPI})
set_tests_properties(fake_discord_selftest PROPERTIES TIMEOUT 60)

# The Discord transport against the fake Discord (tests/discord/, Debian's
# /usr/bin/python3 with python3-websockets): a whole game through slash
# commands, autocomplete and clicks with a SIGKILL and a dropped gateway,
# one check per fault the fake injects, asynchronous play (threads,
# reminders and deadlines fired by the bot's own timers, an exported
# record as a file, DM channels kept across a restart: about 35 s of real
# time, as the bot's timers tick every 5 s), a whole Villainous game with
# Condition windows answered out of turn (about 50 s in the ASan build),
# and the same test once more on a whole Marvel Villainous game (its third
# argument names the ruleset; about 60 s), a whole Disorder of the
# Villains game with interrupt windows answered out of turn (about 40 s),
# and the table's pictures as multipart uploads (a few turns; about 5 s).
# Those with whole games take up to four times as long under `ctest -j8`
# on a two-core machine (213 s for discord_game, 45 s alone): the limit
# leaves room for that and a failing run's waits. Like the self-test they
# check every request against the committed openapi.json and fail
# without it.
foreach(case IN ITEMS game faults async villainous pictures learn german)
  add_test(NAME discord_${case}
           COMMAND ${LAIR_DEBIAN_PYTHON} -B
                   ${PROJECT_SOURCE_DIR}/tests/discord/test_${case}.py
                   ${LAIR_OPENAPI} $<TARGET_FILE:lair>)
endforeach()
add_test(NAME discord_marvel
         COMMAND ${LAIR_DEBIAN_PYTHON} -B
                 ${PROJECT_SOURCE_DIR}/tests/discord/test_villainous.py
                 ${LAIR_OPENAPI} $<TARGET_FILE:lair> marvel-villainous)
add_test(NAME discord_disorder
         COMMAND ${LAIR_DEBIAN_PYTHON} -B
                 ${PROJECT_SOURCE_DIR}/tests/discord/test_disorder.py
                 ${LAIR_OPENAPI} $<TARGET_FILE:lair>)
set_tests_properties(discord_game discord_faults discord_async
                     discord_villainous discord_marvel discord_disorder
                     discord_pictures discord_learn discord_german
                     PROPERTIES
                     ENVIRONMENT "${LAIR_TEST_ENV}" TIMEOUT 300)
# discord_game's second game is a Supervillain game from a seed of the
# bot's own, so its length varies: 256 moves in 50 s in one CI run, 647
# moves in 296 s in another (three-minute tests beside it): more room.
set_tests_properties(discord_game PROPERTIES TIMEOUT 480)

# Interactions over HTTP (bot/discord_http.c): the fake Discord POSTs them
# to the bot's endpoint, signed with its own Ed25519 key (python3-nacl):
# every kind of bad request refused and changing nothing, a game's
# commands and clicks answered in the HTTP response, slow ones deferred
# by the endpoint within 3 s, a picture through the callback and 202
# (about 20 s).
add_test(NAME discord_http
         COMMAND ${LAIR_DEBIAN_PYTHON} -B
                 ${PROJECT_SOURCE_DIR}/tests/discord/test_http.py
                 ${LAIR_OPENAPI} $<TARGET_FILE:lair>)
set_tests_properties(discord_http PROPERTIES
                     ENVIRONMENT "${LAIR_TEST_ENV}" TIMEOUT 180)

# Two processes on one PostgreSQL database behind a load balancer (the
# fake POSTs each interaction to either endpoint), one of them SIGKILLed
# and restarted at random: no acknowledged move lost, none stored twice,
# every timer fired exactly once (issue 17; skipped without LAIR_TEST_PG,
# which tools/test.sh sets).
add_test(NAME discord_multi
         COMMAND ${LAIR_DEBIAN_PYTHON} -B
                 ${PROJECT_SOURCE_DIR}/tests/discord/test_multi.py
                 ${LAIR_OPENAPI} $<TARGET_FILE:lair>)
set_tests_properties(discord_multi PROPERTIES
                     ENVIRONMENT "${LAIR_TEST_ENV}" TIMEOUT 360)

# A whole Galactic Domination game through the fake Discord, a member
# against the AI seat, with the pictures of its board on the turns'
# messages and on /game status and /game board (about 50 s in the ASan
# build; the same limit as the other whole games').
add_test(NAME discord_galactic
         COMMAND ${LAIR_DEBIAN_PYTHON} -B
                 ${PROJECT_SOURCE_DIR}/tests/discord/test_galactic.py
                 ${LAIR_OPENAPI} $<TARGET_FILE:lair>)
set_tests_properties(discord_galactic PROPERTIES
                     ENVIRONMENT "${LAIR_TEST_ENV}" TIMEOUT 300)

# Gateway sharding through the fake (about 15 s; tests/discord/
# test_shards.py): one process running four shards with two Identify
# buckets, a shard's dropped connection resumed alone, two processes on
# one database each serving its own shard, LAIR_SHARDS=auto and a used-up
# session_start_limit.
add_test(NAME discord_shards
         COMMAND ${LAIR_DEBIAN_PYTHON} -B
                 ${PROJECT_SOURCE_DIR}/tests/discord/test_shards.py
                 ${LAIR_OPENAPI} $<TARGET_FILE:lair>)
set_tests_properties(discord_shards PROPERTIES
                     ENVIRONMENT "${LAIR_TEST_ENV}" TIMEOUT 180)

# The longest first: a clean clone has no timings of an earlier run, and
# ctest starts tests in the order of their COST (their seconds in a
# loaded CI run), so that none of these starts last and holds the suite
# up alone.
foreach(pair IN ITEMS local_privacy:255 local_replay_restart:255
                      local_kill:230 test_fuzz_state_marvel-villainous:120
                      local_crash:120 discord_game:100 discord_marvel:90
                      local_catchup:90 discord_villainous:80)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 name)
  list(GET pair 1 cost)
  if(TEST ${name})
    set_tests_properties(${name} PROPERTIES COST ${cost})
  endif()
endforeach()
