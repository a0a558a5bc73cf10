/*
 * C test of the mahjong ABI (driven by ffi/tests/c_program.rs, also under valgrind).
 *
 * 1. Plays complete games (sanma and four-player) with a random bot and an efficiency
 *    bot through the ABI, checking after every action: tile accounting of every seat's
 *    observation (own hand + melds + unclaimed discards + pending added-kan tile +
 *    unseen == 4 per tile type of the set), conservation of points, legal list vs mask,
 *    the efficiency advisor against the efficiency bot, mpsz format/parse round trips,
 *    and record serialisation + replay (mid-hand and at every hand end).
 * 2. Provokes every result code that bad input can produce (NULL pointers, short
 *    buffers, invalid and illegal actions, bad hand strings, corrupt records, missing,
 *    corrupt and mismatched models) and checks that failed calls leave outputs
 *    untouched and set the last-error message.
 * 3. With a model directory: the learned-policy advisor (mj_advisor_*): loading errors,
 *    model info, and one sanma hand in which seat 0 follows the advisor's suggestion,
 *    checking every advice (legal, ranked by probability, probabilities sum to 1).
 * 4. The rollout search (mj_search_advise) with small budgets (a turn and a claim
 *    window; legal, ranked by estimated points per hand) and its bad inputs (NULL
 *    pointers, no such seat, no decision, budget 0 and above MJ_SEARCH_MAX_BUDGET_MS).
 *
 * Usage: test_ffi [games_per_rules [model_dir]]  (default 2, no model directory: the
 * advisor part is skipped). model_dir holds the files that ffi/tests/c_program.rs
 * writes: policy.onnx (sanma) and four.onnx (four-player), small random models with
 * their .json sidecars; corrupt.onnx and truncated.onnx (broken models next to valid
 * sidecars); encoding.onnx (a sidecar with another encoding version). Prints
 * "test_ffi: ok ..." and exits 0 when every check passed.
 */
#include "mahjong.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
static unsigned codes_seen = 0; /* bit c set: code c was returned where expected */

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                                \
        }                                                                              \
    } while (0)

static void print_last_error(void) {
    char msg[512];
    size_t n = 0;
    if (mj_last_error_message(msg, sizeof msg, &n) == MJ_OK) {
        fprintf(stderr, "    last error: %s\n", msg);
    }
}

/* Calls `call`, which must return `code`; records the code as exercised. */
#define EXPECT(call, code)                                                            \
    do {                                                                              \
        mj_result r_ = (call);                                                        \
        if (r_ != (code)) {                                                           \
            fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__,         \
                    __LINE__, #call, mj_result_name((uint32_t)r_),                    \
                    mj_result_name((uint32_t)(code)));                                \
            print_last_error();                                                       \
            failures++;                                                               \
        } else {                                                                      \
            codes_seen |= 1u << (unsigned)(code);                                     \
        }                                                                             \
    } while (0)

#define OK(call) EXPECT(call, MJ_OK)

/* The last error message must contain `needle`. */
static void expect_message(const char *needle, int line) {
    char msg[512];
    size_t n = 0;
    if (mj_last_error_message(msg, sizeof msg, &n) != MJ_OK || strstr(msg, needle) == NULL ||
        strlen(msg) != n) {
        fprintf(stderr, "test_ffi.c:%d: last error lacks \"%s\"\n", line, needle);
        print_last_error();
        failures++;
    }
}
#define EXPECT_MESSAGE(needle) expect_message((needle), __LINE__)

static int in_set(uint8_t tile_set, int t) {
    return tile_set == MJ_TILE_SET_FOUR_PLAYER || t == 0 || t >= 8;
}

/* Tile accounting of one observation. */
static void check_observation(const mj_observation *o) {
    int seen[MJ_NUM_TILE_TYPES];
    for (int t = 0; t < MJ_NUM_TILE_TYPES; t++) {
        seen[t] = o->hand[t];
    }
    for (int s = 0; s < o->players; s++) {
        CHECK(o->meld_counts[s] <= MJ_MAX_MELDS);
        for (int m = 0; m < o->meld_counts[s] && m < MJ_MAX_MELDS; m++) {
            const mj_meld *meld = &o->melds[s][m];
            CHECK(meld->tile < MJ_NUM_TILE_TYPES);
            if (meld->tile >= MJ_NUM_TILE_TYPES) {
                continue;
            }
            switch (meld->kind) {
            case MJ_MELD_CHI:
                CHECK(meld->tile + 2 < MJ_NUM_TILE_TYPES);
                for (int k = 0; k < 3 && meld->tile + k < MJ_NUM_TILE_TYPES; k++) {
                    seen[meld->tile + k]++;
                }
                break;
            case MJ_MELD_PON:
                seen[meld->tile] += 3;
                break;
            default:
                seen[meld->tile] += 4;
                break;
            }
        }
        CHECK(o->discard_counts[s] <= MJ_DISCARD_CAP);
        for (int d = 0; d < o->discard_counts[s] && d < MJ_DISCARD_CAP; d++) {
            CHECK(o->discards[s][d] < MJ_NUM_TILE_TYPES);
            if (!o->discard_claimed[s][d] && o->discards[s][d] < MJ_NUM_TILE_TYPES) {
                seen[o->discards[s][d]]++;
            }
        }
    }
    if (o->has_pending && o->pending_added_kan && o->pending_tile < MJ_NUM_TILE_TYPES) {
        seen[o->pending_tile]++;
    }
    for (int t = 0; t < MJ_NUM_TILE_TYPES; t++) {
        int expected = in_set(o->tile_set, t) ? 4 : 0;
        if (seen[t] + o->unseen[t] != expected) {
            fprintf(stderr, "tile accounting: seat %d tile %d: seen %d + unseen %d != %d\n",
                    o->seat, t, seen[t], o->unseen[t], expected);
            failures++;
        }
    }
}

/* Serialises the current hand record, replays it and checks that the replayed game
 * serialises to the same bytes and shows the same state. */
static void check_record_round_trip(const mj_game *g) {
    uint8_t buf[MJ_RECORD_MAX_BYTES];
    uint8_t again[MJ_RECORD_MAX_BYTES];
    size_t n = 0, m = 0;
    OK(mj_game_hand_record(g, buf, sizeof buf, &n));
    CHECK(n > 0 && n <= sizeof buf);
    mj_game *r = NULL;
    OK(mj_game_replay(buf, n, &r));
    if (r == NULL) {
        return;
    }
    OK(mj_game_hand_record(r, again, sizeof again, &m));
    CHECK(m == n && memcmp(buf, again, n) == 0);
    mj_status a, b;
    OK(mj_game_status(g, &a));
    OK(mj_game_status(r, &b));
    CHECK(a.phase == b.phase && a.turn == b.turn && a.live_wall == b.live_wall &&
          a.hand_number == b.hand_number && a.dealer == b.dealer);
    for (int s = 0; s < MJ_MAX_PLAYERS; s++) {
        CHECK(a.scores[s] == b.scores[s]);
    }
    for (uint8_t s = 0; s < a.players; s++) {
        mj_observation x, y;
        OK(mj_game_observation(g, s, &x));
        OK(mj_game_observation(r, s, &y));
        CHECK(memcmp(x.hand, y.hand, sizeof x.hand) == 0);
        CHECK(memcmp(x.unseen, y.unseen, sizeof x.unseen) == 0);
    }
    mj_game_free(r);
}

/* mpsz format + parse round trip of a count array. */
static void check_format_round_trip(const uint8_t *counts, uint8_t tile_set) {
    char text[160];
    size_t n = 0;
    OK(mj_counts_format(counts, text, sizeof text, &n));
    CHECK(strlen(text) == n);
    uint8_t back[MJ_NUM_TILE_TYPES];
    OK(mj_counts_parse(text, tile_set, back));
    CHECK(memcmp(back, counts, MJ_NUM_TILE_TYPES) == 0);
}

typedef struct {
    int games, hands, actions, wins, draws;
} stats;

/* The efficiency advisor must agree with the efficiency bot and rank well. */
static void check_advice(const mj_game *g, uint8_t seat, uint16_t bot_action) {
    mj_advice adv;
    OK(mj_efficiency_advise(g, seat, &adv));
    CHECK(adv.action == bot_action);
    CHECK(adv.num_ranked <= MJ_MAX_LEGAL_ACTIONS);
    for (int i = 1; i < adv.num_ranked; i++) {
        CHECK(adv.ranked[i - 1].score >= adv.ranked[i].score);
    }
    if (adv.num_ranked > 0) {
        CHECK(adv.ranked[0].score > 0.999f && adv.ranked[0].score <= 1.0f);
    }
    CHECK(adv.shanten >= -1 && adv.shanten <= 13);
}

static void play_game(uint32_t rules, uint64_t seed, stats *st) {
    mj_game *g = NULL;
    if (rules == MJ_RULES_SANMA) {
        OK(mj_game_new(rules, seed, &g));
    } else {
        OK(mj_game_new_preset("four-player", seed, &g));
    }
    if (g == NULL) {
        return;
    }
    mj_bot *random_bot = NULL, *efficiency_bot = NULL;
    OK(mj_bot_new_random(seed ^ 0x5eed, &random_bot));
    OK(mj_bot_new_efficiency(&efficiency_bot));

    mj_status status;
    OK(mj_game_status(g, &status));
    int32_t total = 0;
    for (int s = 0; s < MJ_MAX_PLAYERS; s++) {
        total += status.scores[s];
    }
    int hand_actions = 0;
    for (int step = 0; step < 100000; step++) {
        OK(mj_game_status(g, &status));
        int32_t sum = 0;
        for (int s = 0; s < MJ_MAX_PLAYERS; s++) {
            sum += status.scores[s];
        }
        CHECK(sum == total);
        for (uint8_t s = 0; s < status.players; s++) {
            mj_observation o;
            OK(mj_game_observation(g, s, &o));
            CHECK(o.seat == s && o.players == status.players && o.phase == status.phase);
            check_observation(&o);
        }
        if (status.phase == MJ_PHASE_HAND_OVER || status.phase == MJ_PHASE_GAME_OVER) {
            mj_hand_result hr;
            OK(mj_game_hand_result(g, &hr));
            int32_t delta = 0;
            for (int s = 0; s < MJ_MAX_PLAYERS; s++) {
                delta += hr.deltas[s];
            }
            CHECK(delta == 0);
            if (hr.kind == MJ_HAND_END_WIN) {
                st->wins++;
            } else {
                CHECK(hr.kind == MJ_HAND_END_DRAW);
                st->draws++;
            }
            st->hands++;
            check_record_round_trip(g);
            /* Nobody may act between hands. */
            size_t n = 99;
            uint8_t seats[MJ_MAX_PLAYERS];
            OK(mj_game_seats_to_act(g, seats, MJ_MAX_PLAYERS, &n));
            CHECK(n == 0);
            uint16_t a = 0;
            if (status.phase == MJ_PHASE_GAME_OVER) {
                bool over = false;
                OK(mj_game_is_over(g, &over));
                CHECK(over);
                EXPECT(mj_game_apply(g, 0, 140), MJ_GAME_OVER);
                EXPECT(mj_bot_choose(efficiency_bot, g, 0, &a), MJ_GAME_OVER);
                EXPECT(mj_game_start_next_hand(g), MJ_GAME_OVER);
                break;
            }
            EXPECT(mj_game_apply(g, 0, 140), MJ_HAND_OVER);
            EXPECT(mj_bot_choose(random_bot, g, 0, &a), MJ_HAND_OVER);
            OK(mj_game_start_next_hand(g));
            hand_actions = 0;
            continue;
        }
        uint8_t seats[MJ_MAX_PLAYERS];
        size_t n_seats = 0;
        OK(mj_game_seats_to_act(g, seats, MJ_MAX_PLAYERS, &n_seats));
        CHECK(n_seats >= 1 && n_seats <= status.players);
        if (n_seats == 0) {
            break;
        }
        uint8_t seat = seats[0];
        uint16_t legal[MJ_MAX_LEGAL_ACTIONS];
        size_t n_legal = 0;
        OK(mj_game_legal_actions(g, seat, legal, MJ_MAX_LEGAL_ACTIONS, &n_legal));
        CHECK(n_legal >= 1);
        uint8_t mask[MJ_NUM_ACTIONS];
        size_t n_mask = 0;
        OK(mj_game_legal_mask(g, seat, mask, sizeof mask, &n_mask));
        CHECK(n_mask == MJ_NUM_ACTIONS);
        size_t in_mask = 0;
        for (size_t i = 0; i < MJ_NUM_ACTIONS; i++) {
            in_mask += mask[i];
        }
        CHECK(in_mask == n_legal);
        for (size_t i = 0; i < n_legal; i++) {
            CHECK(legal[i] < MJ_NUM_ACTIONS && mask[legal[i]] == 1);
        }
        /* Even seats play random, odd seats efficiency. */
        int efficient = seat % 2 == 1;
        uint16_t action = 0;
        OK(mj_bot_choose(efficient ? efficiency_bot : random_bot, g, seat, &action));
        CHECK(action < MJ_NUM_ACTIONS && mask[action] == 1);
        if (efficient) {
            check_advice(g, seat, action);
        }
        if (status.phase == MJ_PHASE_TURN) {
            mj_observation o;
            OK(mj_game_observation(g, seat, &o));
            check_format_round_trip(o.hand, o.tile_set);
        }
        if (hand_actions == 20) {
            check_record_round_trip(g); /* mid-hand */
        }
        OK(mj_game_apply(g, seat, action));
        st->actions++;
        hand_actions++;
    }
    bool over = false;
    OK(mj_game_is_over(g, &over));
    CHECK(over);
    st->games++;
    mj_bot_free(random_bot);
    mj_bot_free(efficiency_bot);
    mj_game_free(g);
}

/* Every error code that bad input can produce. */
static void error_paths(void) {
    mj_game *g = NULL;
    mj_game *sentinel = (mj_game *)&failures; /* any non-NULL pointer; never used */
    mj_game *out = sentinel;
    mj_status st;
    mj_shanten_info sh;
    uint16_t acts[MJ_MAX_LEGAL_ACTIONS];
    size_t n = 12345;

    /* MJ_NULL_POINTER */
    EXPECT(mj_game_new(MJ_RULES_SANMA, 1, NULL), MJ_NULL_POINTER);
    EXPECT_MESSAGE("NULL");
    EXPECT(mj_game_new_preset(NULL, 1, &out), MJ_NULL_POINTER);
    CHECK(out == sentinel);
    EXPECT(mj_game_status(NULL, &st), MJ_NULL_POINTER);
    EXPECT(mj_game_is_over(NULL, NULL), MJ_NULL_POINTER);
    EXPECT(mj_shanten(NULL, MJ_TILE_SET_SANMA, &sh), MJ_NULL_POINTER);
    EXPECT(mj_shanten("19m19p19s1234567z", MJ_TILE_SET_SANMA, NULL), MJ_NULL_POINTER);
    EXPECT(mj_shanten_counts(NULL, 0, MJ_TILE_SET_SANMA, &sh), MJ_NULL_POINTER);
    EXPECT(mj_bot_choose(NULL, NULL, 0, NULL), MJ_NULL_POINTER);
    EXPECT(mj_game_replay(NULL, 10, &out), MJ_NULL_POINTER);
    EXPECT(mj_last_error_message(NULL, 0, NULL), MJ_NULL_POINTER);
    EXPECT(mj_bot_new_random(1, NULL), MJ_NULL_POINTER);
    EXPECT(mj_bot_new_efficiency(NULL), MJ_NULL_POINTER);
    EXPECT(mj_bot_new_defend(NULL), MJ_NULL_POINTER);
    EXPECT(mj_efficiency_advise(NULL, 0, NULL), MJ_NULL_POINTER);
    EXPECT(mj_counts_format(NULL, NULL, 0, &n), MJ_NULL_POINTER);
    CHECK(n == 12345);
    mj_game_free(NULL); /* NULL is ignored */
    mj_bot_free(NULL);

    /* MJ_INVALID_ARGUMENT */
    EXPECT(mj_game_new(99, 1, &out), MJ_INVALID_ARGUMENT);
    CHECK(out == sentinel);
    EXPECT_MESSAGE("rules preset 99");
    EXPECT(mj_game_new_preset("riichi", 1, &out), MJ_INVALID_ARGUMENT);
    CHECK(out == sentinel);
    EXPECT_MESSAGE("riichi");
    EXPECT(mj_game_new_preset("\xff\xfe", 1, &out), MJ_INVALID_ARGUMENT);
    EXPECT_MESSAGE("UTF-8");
    OK(mj_game_new_preset("sanma", 7, &g));
    EXPECT(mj_game_apply(g, 0, MJ_NUM_ACTIONS), MJ_INVALID_ARGUMENT);
    EXPECT_MESSAGE("action index 177");
    EXPECT(mj_game_apply(g, 3, 140), MJ_INVALID_ARGUMENT); /* sanma has seats 0..2 */
    EXPECT_MESSAGE("seat 3");
    EXPECT(mj_game_legal_actions(g, 9, acts, MJ_MAX_LEGAL_ACTIONS, &n), MJ_INVALID_ARGUMENT);
    mj_observation obs;
    EXPECT(mj_game_observation(g, 200, &obs), MJ_INVALID_ARGUMENT);
    EXPECT(mj_shanten("123p", 5, &sh), MJ_INVALID_ARGUMENT);
    EXPECT_MESSAGE("tile set 5");
    EXPECT(mj_shanten("123p", MJ_TILE_SET_SANMA, &sh), MJ_INVALID_ARGUMENT); /* 3 tiles */
    EXPECT_MESSAGE("not a hand");
    uint8_t counts[MJ_NUM_TILE_TYPES] = {0};
    counts[0] = 5;
    EXPECT(mj_shanten_counts(counts, 0, MJ_TILE_SET_FOUR_PLAYER, &sh), MJ_INVALID_ARGUMENT);
    char text[64];
    EXPECT(mj_counts_format(counts, text, sizeof text, &n), MJ_INVALID_ARGUMENT);
    counts[0] = 0;
    counts[4] = 3; /* 5m does not exist in sanma */
    EXPECT(mj_shanten_counts(counts, 4, MJ_TILE_SET_SANMA, &sh), MJ_INVALID_ARGUMENT);
    EXPECT(mj_ukeire("123456789p12345s", MJ_TILE_SET_SANMA, NULL), MJ_NULL_POINTER);
    mj_ukeire_info uk;
    EXPECT(mj_ukeire("123456789p12345s", MJ_TILE_SET_SANMA, &uk), MJ_INVALID_ARGUMENT); /* 14 */
    mj_value_scores_info vs;
    EXPECT(mj_value_scores("123456789p1234s", MJ_TILE_SET_SANMA, &vs), MJ_INVALID_ARGUMENT); /* 13 */
    EXPECT(mj_action_format(MJ_NUM_ACTIONS, text, sizeof text, &n), MJ_INVALID_ARGUMENT);

    /* MJ_BUFFER_TOO_SMALL: outputs untouched, needed length reported */
    n = 0;
    EXPECT(mj_game_legal_actions(g, 0, NULL, 0, &n), MJ_BUFFER_TOO_SMALL);
    CHECK(n >= 1 && n <= MJ_MAX_LEGAL_ACTIONS);
    size_t needed = n;
    for (size_t i = 0; i < MJ_MAX_LEGAL_ACTIONS; i++) {
        acts[i] = 0xABCD;
    }
    EXPECT(mj_game_legal_actions(g, 0, acts, needed - 1, &n), MJ_BUFFER_TOO_SMALL);
    CHECK(n == needed && acts[0] == 0xABCD);
    EXPECT_MESSAGE("needed");
    OK(mj_game_legal_actions(g, 0, acts, needed, &n));
    CHECK(n == needed && acts[0] != 0xABCD);
    uint8_t mask[MJ_NUM_ACTIONS];
    memset(mask, 0xAB, sizeof mask);
    EXPECT(mj_game_legal_mask(g, 0, mask, MJ_NUM_ACTIONS - 1, &n), MJ_BUFFER_TOO_SMALL);
    CHECK(n == MJ_NUM_ACTIONS && mask[0] == 0xAB);
    uint8_t small[8];
    memset(small, 0xAB, sizeof small);
    EXPECT(mj_game_hand_record(g, small, sizeof small, &n), MJ_BUFFER_TOO_SMALL);
    CHECK(n > sizeof small && n <= MJ_RECORD_MAX_BYTES && small[0] == 0xAB);
    uint8_t seats[MJ_MAX_PLAYERS];
    EXPECT(mj_game_seats_to_act(g, seats, 0, &n), MJ_BUFFER_TOO_SMALL);
    CHECK(n == 1);
    OK(mj_counts_parse("123p", MJ_TILE_SET_SANMA, counts));
    memset(text, 'x', sizeof text);
    EXPECT(mj_counts_format(counts, text, 4, &n), MJ_BUFFER_TOO_SMALL); /* "123p" + NUL */
    CHECK(n == 4 && text[0] == 'x');
    OK(mj_counts_format(counts, text, 5, &n));
    CHECK(n == 4 && strcmp(text, "123p") == 0);
    /* The last error survives a failed mj_last_error_message call. */
    EXPECT(mj_game_new_preset("nope", 1, &out), MJ_INVALID_ARGUMENT);
    size_t msg_len = 0;
    EXPECT(mj_last_error_message(NULL, 0, &msg_len), MJ_BUFFER_TOO_SMALL);
    char tiny[4] = {'x', 'x', 'x', 'x'};
    EXPECT(mj_last_error_message(tiny, sizeof tiny, &n), MJ_BUFFER_TOO_SMALL);
    CHECK(n == msg_len && tiny[0] == 'x');
    char msg[256];
    OK(mj_last_error_message(msg, msg_len + 1, &n));
    CHECK(n == msg_len && strlen(msg) == msg_len && strstr(msg, "nope") != NULL);
    CHECK(strstr(msg, "mj_game_new_preset") != NULL);

    /* MJ_PARSE_ERROR */
    EXPECT(mj_shanten("123x", MJ_TILE_SET_FOUR_PLAYER, &sh), MJ_PARSE_ERROR);
    EXPECT_MESSAGE("unexpected character");
    EXPECT(mj_shanten("5m", MJ_TILE_SET_SANMA, &sh), MJ_PARSE_ERROR);
    EXPECT_MESSAGE("does not exist");
    EXPECT(mj_counts_parse("11111p", MJ_TILE_SET_SANMA, counts), MJ_PARSE_ERROR);
    EXPECT(mj_ukeire("123", MJ_TILE_SET_FOUR_PLAYER, &uk), MJ_PARSE_ERROR);
    EXPECT(mj_value_scores("0m", MJ_TILE_SET_FOUR_PLAYER, &vs), MJ_PARSE_ERROR);

    /* MJ_ILLEGAL_ACTION and MJ_NOT_YOUR_TURN on a fresh sanma game: seat 0 deals. */
    mj_observation o0;
    OK(mj_game_observation(g, 0, &o0));
    int missing = -1;
    for (int t = 0; t < MJ_NUM_TILE_TYPES; t++) {
        if (o0.hand[t] == 0) {
            missing = t;
            break;
        }
    }
    CHECK(missing >= 0);
    EXPECT(mj_game_apply(g, 0, (uint16_t)missing), MJ_ILLEGAL_ACTION);
    EXPECT_MESSAGE("illegal action");
    EXPECT(mj_game_apply(g, 0, 137 /* ron on own turn */), MJ_ILLEGAL_ACTION);
    EXPECT(mj_game_apply(g, 1, 140), MJ_NOT_YOUR_TURN);
    mj_bot *bot = NULL;
    OK(mj_bot_new_efficiency(&bot));
    uint16_t a = 0xFFFF;
    EXPECT(mj_bot_choose(bot, g, 2, &a), MJ_NOT_YOUR_TURN);
    CHECK(a == 0xFFFF);
    mj_advice adv;
    EXPECT(mj_efficiency_advise(g, 1, &adv), MJ_NOT_YOUR_TURN);
    mj_status before, after;
    OK(mj_game_status(g, &before));
    OK(mj_game_observation(g, 0, &obs));
    CHECK(memcmp(obs.hand, o0.hand, sizeof obs.hand) == 0); /* refused = untouched */
    OK(mj_game_status(g, &after));
    CHECK(before.phase == after.phase && before.live_wall == after.live_wall);

    /* MJ_HAND_IN_PROGRESS */
    EXPECT(mj_game_start_next_hand(g), MJ_HAND_IN_PROGRESS);
    mj_hand_result hr;
    EXPECT(mj_game_hand_result(g, &hr), MJ_HAND_IN_PROGRESS);

    /* MJ_CORRUPT_RECORD */
    uint8_t garbage[16];
    memset(garbage, 0xFF, sizeof garbage);
    out = sentinel;
    EXPECT(mj_game_replay(garbage, sizeof garbage, &out), MJ_CORRUPT_RECORD);
    CHECK(out == sentinel);
    EXPECT_MESSAGE("record");
    uint8_t rec[MJ_RECORD_MAX_BYTES];
    OK(mj_game_hand_record(g, rec, sizeof rec, &n));
    EXPECT(mj_game_replay(rec, n / 2, &out), MJ_CORRUPT_RECORD); /* truncated */
    EXPECT(mj_game_replay(rec, 0, &out), MJ_CORRUPT_RECORD);     /* empty */
    CHECK(out == sentinel);
    OK(mj_game_replay(rec, n, &out)); /* the intact record replays */
    CHECK(out != sentinel && out != NULL);
    mj_game_free(out);

    /* MJ_HAND_OVER / MJ_GAME_OVER are provoked while playing (play_game). */
    mj_bot_free(bot);
    mj_game_free(g);
}

/* Efficiency queries with known answers. */
static void efficiency_queries(void) {
    mj_shanten_info sh;
    OK(mj_shanten("19m19p19s1234567z", MJ_TILE_SET_SANMA, &sh));
    CHECK(sh.thirteen_orphans == 0 && sh.min == 0);
    OK(mj_shanten("123456789p12355s", MJ_TILE_SET_SANMA, &sh)); /* 14 tiles, complete */
    CHECK(sh.regular == -1 && sh.min == -1);
    OK(mj_shanten("123p456s789s11z", MJ_TILE_SET_FOUR_PLAYER, &sh)); /* 11 tiles: 1 meld */
    CHECK(sh.seven_pairs == MJ_SHANTEN_NOT_APPLICABLE && sh.regular == -1);
    uint8_t counts[MJ_NUM_TILE_TYPES];
    OK(mj_counts_parse("123456789p1235s", MJ_TILE_SET_SANMA, counts));
    mj_shanten_info sc;
    OK(mj_shanten_counts(counts, 0, MJ_TILE_SET_SANMA, &sc));
    CHECK(sc.regular == 0);
    mj_ukeire_info uk;
    OK(mj_ukeire("123456789p1235s", MJ_TILE_SET_SANMA, &uk));
    /* Tenpai: 123p 456p 789p 123s and a single 5s waiting for its pair. */
    CHECK(uk.shanten == 0);
    CHECK(uk.types == (1ull << (18 + 4))); /* 5s only */
    CHECK(uk.num_types == 1 && uk.tiles == 3);
    mj_ukeire_info uk2;
    OK(mj_ukeire_counts(counts, 0, MJ_TILE_SET_SANMA, NULL, &uk2));
    CHECK(uk2.tiles == uk.tiles && uk2.types == uk.types);
    uint8_t unseen[MJ_NUM_TILE_TYPES] = {0}; /* nothing left anywhere */
    OK(mj_ukeire_counts(counts, 0, MJ_TILE_SET_SANMA, unseen, &uk2));
    CHECK(uk2.tiles == 0 && uk2.types == uk.types);
    unseen[0] = 5;
    EXPECT(mj_ukeire_counts(counts, 0, MJ_TILE_SET_SANMA, unseen, &uk2), MJ_INVALID_ARGUMENT);
    mj_value_scores_info vs;
    OK(mj_value_scores("123456789p1235s7z", MJ_TILE_SET_SANMA, &vs));
    CHECK(vs.best_discard == 33); /* the lone red dragon */
    CHECK(vs.score[33] > 0.999f && vs.shanten_after[33] == 0);
    CHECK(vs.shanten_after[0] == MJ_SHANTEN_NOT_APPLICABLE && vs.score[0] == 0.0f);
    OK(mj_counts_parse("123456789p1235s7z", MJ_TILE_SET_SANMA, counts));
    mj_value_scores_info vc;
    OK(mj_value_scores_counts(counts, 0, MJ_TILE_SET_SANMA, NULL, &vc));
    CHECK(vc.best_discard == vs.best_discard && vc.held == vs.held);
    char text[160];
    size_t n = 0;
    OK(mj_counts_format(counts, text, sizeof text, &n));
    CHECK(strcmp(text, "123456789p1235s7z") == 0 && n == 17);
    OK(mj_action_format(22, text, sizeof text, &n));
    CHECK(strcmp(text, "discard 5s") == 0);
    OK(mj_action_format(102 + 9, text, sizeof text, &n));
    CHECK(strcmp(text, "chi 123p") == 0);
    OK(mj_action_format(140, text, sizeof text, &n));
    CHECK(strcmp(text, "pass") == 0);
    CHECK(strcmp(mj_result_name(MJ_CORRUPT_RECORD), "MJ_CORRUPT_RECORD") == 0);
    CHECK(strcmp(mj_result_name(1000), "MJ_UNKNOWN") == 0);
    CHECK(strlen(mj_version()) > 0);
}

/* dir + "/" + name into path. */
static const char *model_path(char *path, size_t len, const char *dir, const char *name) {
    int n = snprintf(path, len, "%s/%s", dir, name);
    CHECK(n > 0 && (size_t)n < len);
    return path;
}

/* One advice of the learned policy, checked against the seat's legal actions. */
static void check_policy_advice(const mj_advice *adv, const uint16_t *legal, size_t n_legal) {
    CHECK(adv->source == MJ_ADVICE_POLICY);
    CHECK(adv->has_value && isfinite(adv->value));
    CHECK(adv->num_ranked == n_legal);
    CHECK(adv->num_ranked >= 1 && adv->ranked[0].action == adv->action);
    CHECK(adv->shanten >= -1 && adv->shanten <= 13);
    float sum = 0.0f;
    for (int i = 0; i < adv->num_ranked && i < MJ_MAX_LEGAL_ACTIONS; i++) {
        const mj_ranked_action *r = &adv->ranked[i];
        int legal_here = 0;
        for (size_t k = 0; k < n_legal; k++) {
            legal_here |= legal[k] == r->action;
        }
        CHECK(legal_here);
        CHECK(r->score >= 0.0f && r->score <= 1.0f);
        if (i > 0) {
            CHECK(adv->ranked[i - 1].score >= r->score);
        }
        sum += r->score;
    }
    CHECK(fabsf(sum - 1.0f) < 1e-4f);
}

typedef struct {
    int calls, followed, hands;
} advisor_stats;

/* The learned-policy advisor: errors, info, and one sanma hand with seat 0 following
 * its suggestion (the other seats play the efficiency bot). */
static void advisor_checks(const char *dir, advisor_stats *as) {
    char path[1024];
    mj_advisor *sentinel = (mj_advisor *)&failures; /* any non-NULL pointer; never used */
    mj_advisor *a = sentinel;

    /* Loading errors: *out stays untouched. */
    EXPECT(mj_advisor_new(NULL, &a), MJ_NULL_POINTER);
    EXPECT(mj_advisor_new(model_path(path, sizeof path, dir, "policy.onnx"), NULL),
           MJ_NULL_POINTER);
    EXPECT(mj_advisor_new(model_path(path, sizeof path, dir, "missing.onnx"), &a),
           MJ_MODEL_ERROR);
    EXPECT_MESSAGE("missing.onnx");
    EXPECT(mj_advisor_new(model_path(path, sizeof path, dir, "corrupt.onnx"), &a),
           MJ_MODEL_ERROR);
    EXPECT_MESSAGE("corrupt.onnx");
    EXPECT(mj_advisor_new(model_path(path, sizeof path, dir, "truncated.onnx"), &a),
           MJ_MODEL_ERROR);
    EXPECT(mj_advisor_new(model_path(path, sizeof path, dir, "encoding.onnx"), &a),
           MJ_MODEL_MISMATCH);
    EXPECT_MESSAGE("encoding version");
    CHECK(a == sentinel);
    mj_advisor_free(NULL); /* NULL is ignored */

    mj_advisor *policy = NULL, *four = NULL;
    OK(mj_advisor_new(model_path(path, sizeof path, dir, "policy.onnx"), &policy));
    OK(mj_advisor_new(model_path(path, sizeof path, dir, "four.onnx"), &four));
    mj_game *g = NULL;
    mj_bot *bot = NULL;
    OK(mj_game_new_preset("sanma", 4242, &g));
    OK(mj_bot_new_efficiency(&bot));
    if (policy == NULL || four == NULL || g == NULL || bot == NULL) {
        failures++;
        goto done;
    }

    mj_model_info info;
    OK(mj_advisor_info(policy, &info));
    CHECK(info.rules == MJ_RULES_SANMA && info.encoding_version >= 1 && info.layers >= 1);
    OK(mj_advisor_info(four, &info));
    CHECK(info.rules == MJ_RULES_FOUR_PLAYER);
    size_t n = 0;
    EXPECT(mj_advisor_run_id(policy, NULL, 0, &n), MJ_BUFFER_TOO_SMALL);
    char run_id[128];
    if (n < sizeof run_id) {
        OK(mj_advisor_run_id(policy, run_id, sizeof run_id, &n));
        CHECK(strlen(run_id) == n);
    }

    /* Errors of mj_advisor_advise leave the advice untouched. */
    mj_advice adv;
    adv.action = 0xFFFF;
    EXPECT(mj_advisor_advise(four, g, 0, &adv), MJ_MODEL_MISMATCH); /* sanma game */
    EXPECT_MESSAGE("four-player");
    EXPECT(mj_advisor_advise(policy, g, 1, &adv), MJ_NOT_YOUR_TURN);
    EXPECT(mj_advisor_advise(policy, g, 3, &adv), MJ_INVALID_ARGUMENT);
    EXPECT(mj_advisor_advise(NULL, g, 0, &adv), MJ_NULL_POINTER);
    EXPECT(mj_advisor_advise(policy, g, 0, NULL), MJ_NULL_POINTER);
    CHECK(adv.action == 0xFFFF);

    /* One hand: seat 0 follows the advisor. */
    for (int step = 0; step < 1000; step++) {
        mj_status st;
        OK(mj_game_status(g, &st));
        if (st.phase == MJ_PHASE_HAND_OVER || st.phase == MJ_PHASE_GAME_OVER) {
            EXPECT(mj_advisor_advise(policy, g, 0, &adv),
                   st.phase == MJ_PHASE_HAND_OVER ? MJ_HAND_OVER : MJ_GAME_OVER);
            as->hands++;
            break;
        }
        uint8_t seats[MJ_MAX_PLAYERS];
        size_t n_seats = 0;
        OK(mj_game_seats_to_act(g, seats, MJ_MAX_PLAYERS, &n_seats));
        if (n_seats == 0) {
            failures++;
            break;
        }
        uint8_t seat = seats[0];
        uint16_t action = 0;
        if (seat == 0) {
            uint16_t legal[MJ_MAX_LEGAL_ACTIONS];
            size_t n_legal = 0;
            OK(mj_game_legal_actions(g, seat, legal, MJ_MAX_LEGAL_ACTIONS, &n_legal));
            OK(mj_advisor_advise(policy, g, seat, &adv));
            as->calls++;
            check_policy_advice(&adv, legal, n_legal);
            action = adv.action;
            as->followed++;
        } else {
            OK(mj_bot_choose(bot, g, seat, &action));
        }
        OK(mj_game_apply(g, seat, action));
    }
    CHECK(as->hands == 1 && as->followed >= 5);

done:
    mj_bot_free(bot);
    mj_game_free(g);
    mj_advisor_free(four);
    mj_advisor_free(policy);
}

/* One advice of the rollout search, checked against the seat's legal actions. */
static void check_search_advice(const mj_advice *adv, const uint16_t *legal, size_t n_legal,
                                int claim_window) {
    CHECK(adv->source == MJ_ADVICE_SEARCH);
    CHECK(adv->num_ranked >= 1 && adv->num_ranked <= n_legal);
    if (claim_window) {
        CHECK(adv->num_ranked == n_legal); /* every legal answer is searched */
    }
    int action_legal = 0, chosen = -1;
    for (size_t k = 0; k < n_legal; k++) {
        action_legal |= legal[k] == adv->action;
    }
    CHECK(action_legal);
    for (int i = 0; i < adv->num_ranked && i < MJ_MAX_LEGAL_ACTIONS; i++) {
        const mj_ranked_action *r = &adv->ranked[i];
        int legal_here = 0;
        for (size_t k = 0; k < n_legal; k++) {
            legal_here |= legal[k] == r->action;
        }
        CHECK(legal_here);
        CHECK(isfinite(r->score));
        if (i > 0) {
            CHECK(adv->ranked[i - 1].score >= r->score);
        }
        if (r->action == adv->action) {
            chosen = i;
        }
    }
    CHECK(chosen >= 0); /* the suggestion is among the ranked candidates */
    CHECK(adv->has_value && isfinite(adv->value));
    if (chosen >= 0) {
        CHECK(adv->value == adv->ranked[chosen].score); /* its points per hand */
    }
    CHECK(adv->shanten >= -1 && adv->shanten <= 13);
}

/* The rollout search: bad inputs, then one turn and one claim window of a sanma game
 * (the other seats play the efficiency bot). Small budgets: the first call also
 * measures the opponent model's prior once, and under valgrind everything is slower. */
static void search_checks(int *searches) {
    mj_game *g = NULL;
    mj_bot *bot = NULL;
    OK(mj_game_new_preset("sanma", 77, &g));
    OK(mj_bot_new_efficiency(&bot));
    if (g == NULL || bot == NULL) {
        failures++;
        goto done;
    }
    mj_advice adv;
    adv.action = 0xFFFF;
    adv.num_ranked = 0xEE;
    uint8_t seats[MJ_MAX_PLAYERS];
    size_t n = 0;
    OK(mj_game_seats_to_act(g, seats, MJ_MAX_PLAYERS, &n));
    uint8_t seat = seats[0];
    uint8_t other = (uint8_t)((seat + 1) % 3);

    /* Bad inputs: the advice stays untouched. */
    EXPECT(mj_search_advise(NULL, seat, 20, &adv), MJ_NULL_POINTER);
    EXPECT_MESSAGE("`game` is NULL");
    EXPECT(mj_search_advise(g, seat, 20, NULL), MJ_NULL_POINTER);
    EXPECT(mj_search_advise(g, seat, 0, &adv), MJ_INVALID_ARGUMENT);
    EXPECT_MESSAGE("budget is zero");
    EXPECT(mj_search_advise(g, seat, MJ_SEARCH_MAX_BUDGET_MS + 1, &adv), MJ_INVALID_ARGUMENT);
    EXPECT_MESSAGE("MJ_SEARCH_MAX_BUDGET_MS");
    EXPECT(mj_search_advise(g, 3, 20, &adv), MJ_INVALID_ARGUMENT); /* sanma: seats 0..2 */
    EXPECT(mj_search_advise(g, other, 20, &adv), MJ_NOT_YOUR_TURN);
    CHECK(adv.action == 0xFFFF && adv.num_ranked == 0xEE);

    /* The dealer's first turn. */
    uint16_t legal[MJ_MAX_LEGAL_ACTIONS];
    size_t n_legal = 0;
    OK(mj_game_legal_actions(g, seat, legal, MJ_MAX_LEGAL_ACTIONS, &n_legal));
    OK(mj_search_advise(g, seat, 20, &adv));
    check_search_advice(&adv, legal, n_legal, 0);
    (*searches)++;
    OK(mj_game_apply(g, seat, adv.action));

    /* The first claim window: the first claimant asks the search. */
    for (int step = 0; step < 1000; step++) {
        mj_status st;
        OK(mj_game_status(g, &st));
        if (st.phase == MJ_PHASE_HAND_OVER) {
            OK(mj_game_start_next_hand(g));
            continue;
        }
        if (st.phase == MJ_PHASE_GAME_OVER) {
            break;
        }
        OK(mj_game_seats_to_act(g, seats, MJ_MAX_PLAYERS, &n));
        if (n == 0) {
            failures++;
            break;
        }
        if (st.phase == MJ_PHASE_CLAIM) {
            OK(mj_game_legal_actions(g, seats[0], legal, MJ_MAX_LEGAL_ACTIONS, &n_legal));
            OK(mj_search_advise(g, seats[0], 10, &adv));
            check_search_advice(&adv, legal, n_legal, 1);
            (*searches)++;
            break;
        }
        uint16_t action = 0;
        OK(mj_bot_choose(bot, g, seats[0], &action));
        OK(mj_game_apply(g, seats[0], action));
    }
    CHECK(*searches == 2);

done:
    mj_bot_free(bot);
    mj_game_free(g);
}

int main(int argc, char **argv) {
    int games = 2;
    if (argc > 1) {
        games = atoi(argv[1]);
    }
    const char *model_dir = argc > 2 ? argv[2] : NULL;
    error_paths();
    efficiency_queries();
    stats st = {0, 0, 0, 0, 0};
    for (int i = 0; i < games; i++) {
        play_game(MJ_RULES_SANMA, 1000 + (uint64_t)i, &st);
        play_game(MJ_RULES_FOUR_PLAYER, 2000 + (uint64_t)i, &st);
    }
    CHECK(st.games == 2 * games);
    int searches = 0;
    search_checks(&searches);
    advisor_stats as = {0, 0, 0};
    if (model_dir != NULL) {
        advisor_checks(model_dir, &as);
    }
    /* Every code that input can provoke was returned where expected. MJ_PANIC and
     * MJ_INTERNAL cannot be provoked through the API (the Rust tests cover the panic
     * boundary); the model codes need the model directory. */
    const mj_result provoked[] = {
        MJ_OK,           MJ_NULL_POINTER,   MJ_INVALID_ARGUMENT, MJ_BUFFER_TOO_SMALL,
        MJ_PARSE_ERROR,  MJ_ILLEGAL_ACTION, MJ_NOT_YOUR_TURN,    MJ_HAND_OVER,
        MJ_GAME_OVER,    MJ_CORRUPT_RECORD, MJ_HAND_IN_PROGRESS, MJ_MODEL_ERROR,
        MJ_MODEL_MISMATCH,
    };
    size_t n_provoked = sizeof provoked / sizeof provoked[0] - (model_dir != NULL ? 0 : 2);
    for (size_t i = 0; i < n_provoked; i++) {
        if (!(codes_seen & (1u << (unsigned)provoked[i]))) {
            fprintf(stderr, "code %s was never exercised\n", mj_result_name((uint32_t)provoked[i]));
            failures++;
        }
    }
    if (failures > 0) {
        fprintf(stderr, "test_ffi: %d failures\n", failures);
        return 1;
    }
    printf("test_ffi: ok: %d games, %d hands (%d wins, %d draws), %d actions, %d codes exercised\n",
           st.games, st.hands, st.wins, st.draws, st.actions, (int)n_provoked);
    printf("test_ffi: search: ok: %d searches\n", searches);
    if (model_dir != NULL) {
        printf("test_ffi: advisor: ok: %d calls, %d hand(s), seat 0 followed %d suggestions\n",
               as.calls, as.hands, as.followed);
    } else {
        printf("test_ffi: advisor: skipped (no model directory)\n");
    }
    return 0;
}
