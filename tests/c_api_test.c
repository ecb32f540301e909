/*
 * A C program (compiled by a C compiler) using morris.h as an engine would.
 *
 *   c_api_test DIR VARIANT RULES POSITION...
 *
 * First checks that every kind of bad input gets its status and a message,
 * and that probes from several threads agree; then prints, for each
 * POSITION, its value at its counter and each legal turn with its value for
 * the mover, best first, one per line, for tests/lookup_test.sh to compare
 * with morris query. RULES are option=value words ("" for none). With
 * MORRIS_WDL_DIR naming DIR's WDL-only copy (morris compact), also checks
 * that morris_probe_wdl there gives each POSITION's value from DIR, and that
 * distance probes there say they need the full database.
 */
#include <morris/morris.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void expect(int condition, const char* what) {
    if (!condition) {
        fprintf(stderr, "FAIL: %s (morris_error: \"%s\")\n", what, morris_error());
        ++failures;
    }
}

/* A failed call leaves a message for its thread. */
static void expect_status(morris_status got, morris_status wanted, const char* what) {
    expect(got == wanted, what);
    if (wanted != MORRIS_OK) expect(strlen(morris_error()) > 0, what);
}

static void outcome_text(morris_outcome o, char* text, size_t size) {
    if (o.value == MORRIS_DRAW)
        snprintf(text, size, "draw");
    else
        snprintf(text, size, "%s %d", o.value == MORRIS_WIN ? "win" : "loss", o.plies);
}

static void check_bad_input(const char* directory, const char* variant, const char* rules) {
    expect(morris_open(directory, "no-such-variant", NULL) == NULL, "unknown variant refused");
    expect(strstr(morris_error(), "no-such-variant") != NULL, "the message names the variant");
    expect(morris_open(directory, variant, "n_move=0") == NULL, "n_move=0 refused");
    expect(morris_open(directory, variant, "colour=green") == NULL, "unknown option refused");
    expect(morris_open("/no/such/directory", variant, NULL) == NULL, "missing directory refused");
    expect(morris_open(NULL, variant, NULL) == NULL, "NULL directory refused");

    morris_db* db = morris_open(directory, variant, rules);
    expect(db != NULL, "the database opens");
    if (!db) return;
    morris_position p;
    morris_outcome o;
    size_t count = 0;
    expect_status(morris_parse_position(db, "not a position", &p), MORRIS_BAD_ARGUMENT,
                  "malformed text refused");
    expect_status(morris_parse_position(db, NULL, &p), MORRIS_BAD_ARGUMENT, "NULL text refused");
    {
        /* Text that reads as a position, but an invalid one: every point white. */
        char all_white[64];
        int points = morris_points(db);
        memset(all_white, 'W', (size_t)points);
        snprintf(all_white + points, sizeof all_white - (size_t)points, " w 0 0");
        expect_status(morris_parse_position(db, all_white, &p), MORRIS_BAD_POSITION,
                      "an invalid position is a bad position");
    }
    expect_status(morris_probe(db, NULL, &o), MORRIS_BAD_ARGUMENT, "NULL position refused");
    expect_status(morris_probe(NULL, &p, &o), MORRIS_BAD_ARGUMENT, "NULL handle refused");

    expect_status(morris_parse_position(db, "", &p), MORRIS_OK, "the start parses");
    expect_status(morris_probe(db, &p, NULL), MORRIS_BAD_ARGUMENT, "NULL outcome refused");
    expect_status(morris_turns(db, &p, NULL, 0, &count), MORRIS_BUFFER_TOO_SMALL,
                  "capacity 0 asks for the count");
    expect(count == (size_t)morris_points(db), "the start has one placement per point");
    expect_status(morris_turns(db, &p, NULL, 5, &count), MORRIS_BAD_ARGUMENT,
                  "a NULL array with a capacity refused");

    morris_position bad = p;
    bad.stones[MORRIS_WHITE] = bad.stones[MORRIS_BLACK] = 1; /* one point, two stones */
    expect_status(morris_probe(db, &bad, &o), MORRIS_BAD_POSITION, "shared point refused");
    bad = p;
    bad.stones[MORRIS_WHITE] = 0x80000000u; /* beyond every board */
    expect_status(morris_probe(db, &bad, &o), MORRIS_BAD_POSITION, "off-board stone refused");
    bad = p;
    bad.side_to_move = 7;
    expect_status(morris_probe(db, &bad, &o), MORRIS_BAD_POSITION, "side 7 refused");
    bad = p;
    bad.in_hand[MORRIS_WHITE] = 200;
    expect_status(morris_turns(db, &bad, NULL, 0, &count), MORRIS_BAD_POSITION,
                  "too many stones refused");
    bad = p;
    bad.counter = 30000; /* above every N the tests use, and a counter without the rule */
    expect_status(morris_probe(db, &bad, &o), MORRIS_BAD_POSITION, "counter 30000 refused");
    expect(strstr(morris_error(), "n_move") != NULL, "the message names the rule");

    expect(morris_point_name(db, -1) == NULL && morris_point_name(db, morris_points(db)) == NULL,
           "no name for a point off the board");
    expect(strcmp(morris_point_name(db, 0), "a1") == 0, "point 0 is a1");
    expect_status(morris_probe(db, &p, &o), MORRIS_OK, "the start probes");
    expect(morris_error()[0] == '\0', "success clears the message");
    morris_close(db);
    morris_close(NULL);
}

/* Each thread probes every position after each turn of the start and
 * counts the wins it sees; all must see the same. */
struct sweep {
    morris_db* db;
    long wins;
};

static void* sweep_turns(void* arg) {
    struct sweep* s = arg;
    morris_position start;
    morris_turn turns[64];
    size_t count = 0;
    morris_parse_position(s->db, "", &start);
    for (int round = 0; round < 20; ++round) {
        if (morris_turns(s->db, &start, turns, 64, &count) != MORRIS_OK) return NULL;
        for (size_t k = 0; k < count; ++k) s->wins += turns[k].outcome.value == MORRIS_WIN;
    }
    return NULL;
}

static void check_threads(const char* directory, const char* variant, const char* rules) {
    enum { kThreads = 4 };
    morris_db* db = morris_open(directory, variant, rules);
    pthread_t threads[kThreads];
    struct sweep sweeps[kThreads];
    for (int t = 0; t < kThreads; ++t) {
        sweeps[t].db = db;
        sweeps[t].wins = -1000000;
        pthread_create(&threads[t], NULL, sweep_turns, &sweeps[t]);
    }
    for (int t = 0; t < kThreads; ++t) pthread_join(threads[t], NULL);
    for (int t = 1; t < kThreads; ++t)
        expect(sweeps[t].wins == sweeps[0].wins, "threads probing one handle agree");
    morris_close(db);
}

static int print_ranked(morris_db* db, const char* text) {
    morris_position p;
    morris_outcome o;
    char line[32];
    size_t count = 0;
    if (morris_parse_position(db, text, &p) != MORRIS_OK || morris_probe(db, &p, &o) != MORRIS_OK)
        return fprintf(stderr, "c_api_test: %s\n", morris_error()), 1;
    morris_turns(db, &p, NULL, 0, &count);
    morris_turn* turns = calloc(count + 1, sizeof *turns);
    if (morris_turns(db, &p, turns, count, &count) != MORRIS_OK) {
        fprintf(stderr, "c_api_test: %s\n", morris_error());
        free(turns);
        return 1;
    }
    outcome_text(o, line, sizeof line);
    printf("%s\n", line);
    for (size_t k = 0; k < count; ++k) {
        outcome_text(turns[k].outcome, line, sizeof line);
        printf("%s %s\n", turns[k].text, line);
    }
    free(turns);
    return 0;
}

static void check_wdl(morris_db* full, const char* wdl_directory, const char* variant,
                      const char* position) {
    morris_db* wdl = morris_open(wdl_directory, variant, NULL);
    morris_position p;
    morris_outcome o;
    morris_value value = MORRIS_DRAW, full_value = MORRIS_DRAW;
    size_t count = 0;
    expect(wdl != NULL, "the WDL copy opens");
    if (!wdl) return;
    expect_status(morris_parse_position(wdl, position, &p), MORRIS_OK, "a position parses");
    expect_status(morris_probe_wdl(wdl, &p, &value), MORRIS_OK, "a WDL probe answers");
    expect_status(morris_probe_wdl(full, &p, &full_value), MORRIS_OK, "full files answer WDL");
    expect_status(morris_probe(full, &p, &o), MORRIS_OK, "full files answer");
    expect(value == o.value && full_value == o.value, "the WDL copy gives the full value");
    expect_status(morris_probe(wdl, &p, &o), MORRIS_WDL_ONLY, "no distances from WDL files");
    expect(strstr(morris_error(), "full database") != NULL, "the message says what is needed");
    expect_status(morris_turns(wdl, &p, NULL, 0, &count), MORRIS_WDL_ONLY,
                  "no ranked turns from WDL files");
    expect_status(morris_probe_wdl(wdl, &p, NULL), MORRIS_BAD_ARGUMENT, "NULL value refused");
    morris_close(wdl);
}

int main(int argc, char** argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: c_api_test DIR VARIANT RULES POSITION...\n");
        return 2;
    }
    check_bad_input(argv[1], argv[2], argv[3]);
    check_threads(argv[1], argv[2], argv[3]);
    if (failures) return 1;
    morris_db* db = morris_open(argv[1], argv[2], argv[3]);
    const char* wdl_directory = getenv("MORRIS_WDL_DIR");
    for (int i = 4; i < argc; ++i) {
        if (wdl_directory) check_wdl(db, wdl_directory, argv[2], argv[i]);
        failures += print_ranked(db, argv[i]);
    }
    morris_close(db);
    return failures ? 1 : 0;
}
