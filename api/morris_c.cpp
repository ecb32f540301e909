// The C interface of morris.h over the lookup library: conversions at the
// boundary, and no exception or error crossing it except as a status and a
// message.
#include <algorithm>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <string>

#include "db/database.hpp"
#include "db/ranked_turns.hpp"
#include "game/notation.hpp"
#include "morris/morris.h"

struct morris_db {
    morris_db(const char* directory, morris::Variant variant)
        : database(directory, std::move(variant)) {}
    morris::Database database;
};

namespace {

using morris::Outcome;
using morris::Value;

thread_local std::string last_error;

morris_status fail(morris_status status, std::string message) {
    last_error = std::move(message);
    return status;
}

morris_status succeed() {
    last_error.clear();
    return MORRIS_OK;
}

morris_outcome to_c(const Outcome& o) {
    const morris_value value = o.value == Value::win    ? MORRIS_WIN
                               : o.value == Value::loss ? MORRIS_LOSS
                                                        : MORRIS_DRAW;
    return {value, o.value == Value::draw ? -1 : o.plies};
}

// The position and counter a caller gave, checked; `error` says why not.
struct Checked {
    morris::Position position;
    int counter = 0;
    morris_status status = MORRIS_OK;
    std::string error;
};

Checked check(const morris_db* db, const morris_position* p) {
    if (!db || !p) return {{}, 0, MORRIS_BAD_ARGUMENT, "a NULL handle or position"};
    Checked c;
    c.position.stones[morris::white] = p->stones[MORRIS_WHITE];
    c.position.stones[morris::black] = p->stones[MORRIS_BLACK];
    c.position.in_hand[morris::white] = p->in_hand[MORRIS_WHITE];
    c.position.in_hand[morris::black] = p->in_hand[MORRIS_BLACK];
    c.counter = p->counter;
    const morris::Variant& v = db->database.variant();
    if (p->side_to_move != MORRIS_WHITE && p->side_to_move != MORRIS_BLACK)
        return {{},
                0,
                MORRIS_BAD_POSITION,
                "side to move " + std::to_string(p->side_to_move) +
                    " is neither MORRIS_WHITE (0) nor MORRIS_BLACK (1)"};
    c.position.side = p->side_to_move == MORRIS_WHITE ? morris::white : morris::black;
    std::string why = morris::invalid_reason(v, c.position);
    if (why.empty()) why = morris::counter_flaw(v.rules, c.counter);
    if (!why.empty())
        return {{}, 0, MORRIS_BAD_POSITION, "invalid position for " + v.name + ": " + why};
    return c;
}

void to_c(const morris::Variant& v, const morris::RankedTurn& t, morris_turn& out) {
    out.from = t.turn.from;
    out.to = t.turn.to;
    out.removed[0] = t.turn.removed[0];
    out.removed[1] = t.turn.removed[1];
    const std::string text = morris::to_string(v, t.turn);
    // The longest turn text, "a1-a4xg7xd1", is 11 characters.
    std::memset(out.text, 0, sizeof out.text);
    std::memcpy(out.text, text.data(), std::min(text.size(), sizeof out.text - 1));
    out.outcome = to_c(t.outcome);
    out.drawn_by_counter = t.drawn_by_rule ? 1 : 0;
}

}  // namespace

extern "C" {

morris_db* morris_open(const char* directory, const char* variant, const char* rules) {
    if (!directory || !variant) {
        fail(MORRIS_BAD_ARGUMENT, "morris_open: a NULL directory or variant");
        return nullptr;
    }
    try {
        morris::Variant v = morris::find_variant(variant);
        if (rules)
            for (std::string_view assignment : morris::split_words(rules))
                morris::apply_rule(v, assignment);
        if (!std::filesystem::is_directory(directory)) {
            fail(MORRIS_DATABASE_ERROR, std::string(directory) + ": no such database directory");
            return nullptr;
        }
        auto db = std::make_unique<morris_db>(directory, std::move(v));
        succeed();
        return db.release();  // morris_close deletes it
    } catch (const std::exception& e) {
        fail(MORRIS_BAD_ARGUMENT, e.what());
        return nullptr;
    }
}

void morris_close(morris_db* db) { delete db; }

const char* morris_error(void) { return last_error.c_str(); }

morris_status morris_probe(morris_db* db, const morris_position* position,
                           morris_outcome* outcome) {
    if (!outcome) return fail(MORRIS_BAD_ARGUMENT, "morris_probe: a NULL outcome");
    Checked c = check(db, position);
    if (c.status != MORRIS_OK) return fail(c.status, c.error);
    try {
        const morris::ProbeResult r = db->database.probe(c.position);
        if (!r.ok())
            return fail(r.needs_full_database ? MORRIS_WDL_ONLY : MORRIS_DATABASE_ERROR, r.error);
        *outcome = to_c(morris::at_counter(db->database.variant().rules, r.outcome, c.counter));
        return succeed();
    } catch (const std::exception& e) {  // e.g. out of memory
        return fail(MORRIS_DATABASE_ERROR, e.what());
    }
}

morris_status morris_probe_wdl(morris_db* db, const morris_position* position,
                               morris_value* value) {
    if (!value) return fail(MORRIS_BAD_ARGUMENT, "morris_probe_wdl: a NULL value");
    Checked c = check(db, position);
    if (c.status != MORRIS_OK) return fail(c.status, c.error);
    if (c.counter != 0)
        return fail(MORRIS_BAD_POSITION,
                    "morris_probe_wdl reads values at counter 0; use morris_probe");
    try {
        const morris::WdlResult r = db->database.probe_wdl(c.position);
        if (!r.ok()) return fail(MORRIS_DATABASE_ERROR, r.error);
        *value = to_c(morris::Outcome{r.value, 0}).value;
        return succeed();
    } catch (const std::exception& e) {
        return fail(MORRIS_DATABASE_ERROR, e.what());
    }
}

morris_status morris_turns(morris_db* db, const morris_position* position, morris_turn* turns,
                           size_t capacity, size_t* count) {
    if (!count || (capacity > 0 && !turns))
        return fail(MORRIS_BAD_ARGUMENT, "morris_turns: a NULL count or turn array");
    Checked c = check(db, position);
    if (c.status != MORRIS_OK) return fail(c.status, c.error);
    try {
        const morris::RankedTurns ranked = morris::rank_turns(db->database, c.position, c.counter);
        if (!ranked.ok())
            return fail(ranked.needs_full_database ? MORRIS_WDL_ONLY : MORRIS_DATABASE_ERROR,
                        ranked.error);
        *count = ranked.turns.size();
        if (ranked.turns.size() > capacity)
            return fail(MORRIS_BUFFER_TOO_SMALL, std::to_string(ranked.turns.size()) +
                                                     " turns do not fit in " +
                                                     std::to_string(capacity));
        for (size_t k = 0; k < ranked.turns.size(); ++k)
            to_c(db->database.variant(), ranked.turns[k], turns[k]);
        return succeed();
    } catch (const std::exception& e) {
        return fail(MORRIS_DATABASE_ERROR, e.what());
    }
}

morris_status morris_parse_position(const morris_db* db, const char* text,
                                    morris_position* position) {
    if (!db || !text || !position)
        return fail(MORRIS_BAD_ARGUMENT, "morris_parse_position: a NULL argument");
    try {
        const morris::CountedPosition at =
            morris::parse_counted_position(db->database.variant(), text);
        const morris::Position& p = at.position;
        *position = {};
        position->stones[MORRIS_WHITE] = p.stones[morris::white];
        position->stones[MORRIS_BLACK] = p.stones[morris::black];
        position->in_hand[MORRIS_WHITE] = p.in_hand[morris::white];
        position->in_hand[MORRIS_BLACK] = p.in_hand[morris::black];
        position->side_to_move = p.side == morris::white ? MORRIS_WHITE : MORRIS_BLACK;
        position->counter = static_cast<uint16_t>(at.counter);
        return succeed();
    } catch (const morris::InvalidPositionError& e) {
        return fail(MORRIS_BAD_POSITION, e.what());
    } catch (const std::exception& e) {
        return fail(MORRIS_BAD_ARGUMENT, e.what());
    }
}

int morris_points(const morris_db* db) { return db ? db->database.variant().board->points : 0; }

const char* morris_point_name(const morris_db* db, int point) {
    if (!db || point < 0 || point >= morris_points(db)) return nullptr;
    return db->database.variant().board->point_names[static_cast<size_t>(point)].c_str();
}

}  // extern "C"
