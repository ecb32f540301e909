/*
 * morris.h: probe solved Morris databases from C, Rust, Dart or any language
 * with a C foreign-function interface.
 *
 *   morris_db* db = morris_open("db-nine", "nine", NULL);
 *   if (!db) { fprintf(stderr, "%s\n", morris_error()); return 1; }
 *   morris_position p;
 *   morris_parse_position(db, "W.......B............... w 8 8", &p);
 *   morris_outcome o;
 *   if (morris_probe(db, &p, &o) == MORRIS_OK) printf("%d in %d\n", o.value, o.plies);
 *   morris_close(db);
 *
 * Every function is thread-safe: one handle may be probed from many threads.
 * A function that fails returns an error status (or NULL) and leaves a
 * message for the calling thread in morris_error(); none aborts or reads out
 * of bounds on bad input. Rules, notation and values: docs/rules.md.
 */
#ifndef MORRIS_H
#define MORRIS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The functions the shared library exports (it hides everything else). */
#if defined(__GNUC__)
#define MORRIS_API __attribute__((visibility("default")))
#else
#define MORRIS_API
#endif

/* A position's value for its side to move. */
typedef enum morris_value {
    MORRIS_LOSS = -1, /* the side to move loses against best play */
    MORRIS_DRAW = 0,  /* neither side can force a win (or the N-move rule ends the game first) */
    MORRIS_WIN = 1    /* the side to move wins */
} morris_value;

/* What a function returns. */
typedef enum morris_status {
    MORRIS_OK = 0,               /* done */
    MORRIS_BAD_ARGUMENT = 1,     /* a NULL pointer, or a text that does not parse */
    MORRIS_BAD_POSITION = 2,     /* not a valid position of the variant (docs/rules.md §6),
                                    or a counter out of range (§8) */
    MORRIS_DATABASE_ERROR = 3,   /* a file is missing, truncated, corrupt, or written for
                                    another variant or rule set */
    MORRIS_BUFFER_TOO_SMALL = 4, /* more turns than the array holds; *count says how many */
    MORRIS_WDL_ONLY = 5          /* the files hold win, draw or loss only (morris compact):
                                    distances and ranked turns need the full database;
                                    morris_probe_wdl answers */
} morris_status;

/* Colours, as indices of morris_position's arrays. */
enum { MORRIS_WHITE = 0, MORRIS_BLACK = 1 };

/* In a turn, "no point": a placement's origin, an absent removal. */
#define MORRIS_NO_POINT (-1)

/* A position. Bit i of a stone set is the board's point i in canonical
 * order (docs/rules.md §1: a1 a4 a7 b2 ... on the 24-point board);
 * morris_point_name() names them. */
typedef struct morris_position {
    uint32_t stones[2];   /* by colour */
    uint8_t in_hand[2];   /* by colour */
    uint8_t side_to_move; /* MORRIS_WHITE or MORRIS_BLACK */
    uint16_t counter;     /* under the N-move rule, plies since the last placement or
                             removal (below N); otherwise 0 */
} morris_position;

/* A value with its distance. */
typedef struct morris_outcome {
    morris_value value;
    /* Plies to the end of the game under best play (docs/rules.md §5); under
     * the N-move rule, plies to the next placement or removal (§8). -1 for a
     * draw. */
    int plies;
} morris_outcome;

/* A legal turn and what it leads to. */
typedef struct morris_turn {
    int8_t from;       /* MORRIS_NO_POINT for a placement */
    int8_t to;         /* where the stone is placed or moved */
    int8_t removed[2]; /* the opponent's stones removed, MORRIS_NO_POINT where none */
    char text[16];     /* "d2", "a1-a4", "d2xg7", "a1-a4xg7xd1": NUL-terminated */
    /* For the side that plays the turn, plies counted from before it: a turn
     * into the opponent's loss in 4 is a win in 5. */
    morris_outcome outcome;
    /* 1 when the turn draws only because the N-move counter leaves no room
     * for the win or loss it leads to; otherwise 0. */
    int drawn_by_counter;
} morris_turn;

typedef struct morris_db morris_db; /* an open database directory */

/* Opens the database in `directory` for a variant ("nine", "six", ...) under
 * its own rules changed by `rules`: NULL or "", or options separated by
 * spaces, e.g. "n_move=100" (docs/rules.md §3). Files are opened when first
 * needed, so a missing or damaged file shows at the probe that needs it.
 * Returns NULL on failure (unknown variant or option, no such directory). */
MORRIS_API morris_db* morris_open(const char* directory, const char* variant, const char* rules);

/* Closes a handle from morris_open; NULL is ignored. */
MORRIS_API void morris_close(morris_db* db);

/* The calling thread's message for its last failed call, "" if none failed. */
MORRIS_API const char* morris_error(void);

/* Stores the value of `position` at its counter, with its distance; on
 * WDL-only files, MORRIS_WDL_ONLY. */
MORRIS_API morris_status morris_probe(morris_db* db, const morris_position* position,
                                      morris_outcome* outcome);

/* Stores the value of `position` (at counter 0) from full or WDL-only files:
 * the probe to use at every node of a search. */
MORRIS_API morris_status morris_probe_wdl(morris_db* db, const morris_position* position,
                                          morris_value* value);

/* Stores every legal turn of `position`, best first for its side to move
 * (wins fastest first, then draws, then losses longest first; ties in a fixed
 * order), into turns[0 .. *count - 1]. When more than `capacity` turns exist,
 * returns MORRIS_BUFFER_TOO_SMALL with the number in *count and stores none:
 * call with capacity 0 to learn the number. */
MORRIS_API morris_status morris_turns(morris_db* db, const morris_position* position,
                                      morris_turn* turns, size_t capacity, size_t* count);

/* Reads a position as the morris command line does: "<board> <side>
 * <white-in-hand> <black-in-hand> [counter]" (docs/rules.md §6), a list of
 * turns from the start ("d2 g7 a1"), or Sanmill's FEN (docs/fen.md). */
MORRIS_API morris_status morris_parse_position(const morris_db* db, const char* text,
                                               morris_position* position);

/* The board's number of points, and the name of point i ("a1"), or NULL
 * when i is not a point. */
MORRIS_API int morris_points(const morris_db* db);
MORRIS_API const char* morris_point_name(const morris_db* db, int point);

#ifdef __cplusplus
}
#endif

#endif /* MORRIS_H */
