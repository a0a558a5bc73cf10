/*
 * A minimal "game server" over the mahjong C ABI: it runs one sanma game, and on every
 * decision asks an advisor for a suggestion: the learned policy when a model is given
 * (argv[1], an ONNX file with its JSON sidecar next to it, e.g. models/default.onnx),
 * otherwise the efficiency advisor. Seat 0 stands for a remote client (played here by
 * the random bot, which sometimes ignores the advice); the other seats follow the
 * advice.
 *
 * Build: cc -std=c11 -I ffi/include ffi/examples/server.c \
 *           target/release/libmahjong_ffi.a -lpthread -ldl -lm -Wl,-z,noexecstack -o server
 * Run:   ./server [model.onnx]
 */
#include "mahjong.h"

#include <stdio.h>

/* Prints the failed call and the library's last error message, then bails out. */
#define TRY(call)                                                                   \
    do {                                                                            \
        mj_result r_ = (call);                                                      \
        if (r_ != MJ_OK) {                                                          \
            char msg_[256];                                                         \
            size_t n_ = 0;                                                          \
            mj_last_error_message(msg_, sizeof msg_, &n_);                          \
            fprintf(stderr, "%s: %s (%s)\n", #call, mj_result_name((uint32_t)r_), msg_); \
            goto done;                                                              \
        }                                                                           \
    } while (0)

int main(int argc, char **argv) {
    int status = 1;
    mj_game *game = NULL;
    mj_bot *client = NULL;
    mj_advisor *advisor = NULL; /* the learned policy; NULL: the efficiency advisor */
    if (argc > 1) {
        /* Load once; one advisor may serve every table and thread of the server. */
        TRY(mj_advisor_new(argv[1], &advisor));
        mj_model_info info;
        TRY(mj_advisor_info(advisor, &info));
        printf("advisor: learned policy %s (encoding v%u, parameters v%llu)\n", argv[1],
               (unsigned)info.encoding_version, (unsigned long long)info.parameter_version);
    } else {
        printf("advisor: efficiency (no model given)\n");
    }
    TRY(mj_game_new_preset("sanma", 42, &game));
    TRY(mj_bot_new_random(7, &client));

    int followed = 0, decisions = 0;
    for (;;) {
        mj_status st;
        TRY(mj_game_status(game, &st));
        if (st.phase == MJ_PHASE_HAND_OVER || st.phase == MJ_PHASE_GAME_OVER) {
            mj_hand_result hr;
            TRY(mj_game_hand_result(game, &hr));
            printf("hand %d: %s, scores", (int)st.hand_number,
                   hr.kind == MJ_HAND_END_WIN ? "win" : "exhaustive draw");
            for (int s = 0; s < st.players; s++) {
                printf(" %d", st.scores[s]);
            }
            printf("\n");
            if (st.phase == MJ_PHASE_GAME_OVER) {
                break;
            }
            TRY(mj_game_start_next_hand(game));
            continue;
        }

        /* Everyone who must decide now (one seat on turn, or every claimant). */
        uint8_t seats[MJ_MAX_PLAYERS];
        size_t n_seats = 0;
        TRY(mj_game_seats_to_act(game, seats, MJ_MAX_PLAYERS, &n_seats));
        uint8_t seat = seats[0];

        /* Ask the advisor; both fill the same mj_advice. */
        mj_advice advice;
        if (advisor != NULL) {
            TRY(mj_advisor_advise(advisor, game, seat, &advice));
        } else {
            TRY(mj_efficiency_advise(game, seat, &advice));
        }

        uint16_t action = advice.action;
        if (seat == 0) {
            /* The "client" answers; a real server would send `advice` to it. */
            TRY(mj_bot_choose(client, game, seat, &action));
            char text[32], hint[32];
            size_t n = 0;
            TRY(mj_action_format(action, text, sizeof text, &n));
            TRY(mj_action_format(advice.action, hint, sizeof hint, &n));
            if (decisions < 5) {
                printf("seat 0 (shanten %d): advised \"%s\" (score %.3f", advice.shanten,
                       hint, advice.num_ranked > 0 ? (double)advice.ranked[0].score : 0.0);
                if (advice.has_value) {
                    printf(", value %.3f", (double)advice.value);
                }
                printf("), played \"%s\"\n", text);
            }
            followed += action == advice.action;
            decisions++;
        }
        /* The server validates whatever the client sent. */
        mj_result r = mj_game_apply(game, seat, action);
        if (r == MJ_ILLEGAL_ACTION || r == MJ_NOT_YOUR_TURN) {
            fprintf(stderr, "rejected client action %d\n", (int)action);
            goto done;
        }
        TRY(r);
    }
    printf("seat 0 followed the advice %d of %d times\n", followed, decisions);
    printf("game over\n");
    status = 0;
done:
    mj_bot_free(client);
    mj_game_free(game);
    mj_advisor_free(advisor);
    return status;
}
