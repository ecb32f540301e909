// The Python module `morris` (pybind11) over the lookup library, modelled on
// python-chess's chess.syzygy:
//
//   import morris
//   with morris.open("db-six", "six") as db:
//       db.probe("d2 b4 a1")        # Outcome(value='draw', plies=None)
//       db.turns("d2 b4 a1")[0]     # Turn(text='a4', value='draw', plies=None)
//       db.probe_wdl("d2 b4 a1")    # 'draw', also from WDL-only files
//
// Positions are text in any form the morris tool reads: "<board> <side>
// <white-in-hand> <black-in-hand> [counter]", a list of turns from the
// start, or Sanmill's FEN. A malformed position raises ValueError; a
// missing, damaged or foreign file raises morris.DatabaseError naming it.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "db/database.hpp"
#include "db/ranked_turns.hpp"
#include "game/fen.hpp"
#include "game/notation.hpp"

namespace py = pybind11;

namespace {

struct DatabaseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A value with its distance in plies (None for a draw), for the side to move.
struct PyOutcome {
    std::string value;
    std::optional<int> plies;
    bool operator==(const PyOutcome&) const = default;
};

PyOutcome to_python(const morris::Outcome& o) {
    return {morris::to_string(o.value),
            o.value == morris::Value::draw ? std::nullopt : std::optional(o.plies)};
}

// A legal turn and what it gives the side that plays it.
struct PyTurn {
    std::string text;  // "d2xg7"
    std::optional<std::string> origin;
    std::string destination;
    std::vector<std::string> removed;
    PyOutcome outcome;
    bool drawn_by_counter = false;
};

std::string repr(const PyOutcome& o) {
    return "Outcome(value='" + o.value +
           "', plies=" + (o.plies ? std::to_string(*o.plies) : "None") + ")";
}

class PyDatabase {
  public:
    PyDatabase(const std::string& directory, const std::string& variant_name,
               const std::string& rules) {
        morris::Variant v = morris::find_variant(variant_name);  // std::invalid_argument
        for (std::string_view assignment : morris::split_words(rules))
            morris::apply_rule(v, assignment);
        if (!std::filesystem::is_directory(directory))
            throw DatabaseError(directory + ": no such database directory");
        database_ = std::make_shared<const morris::Database>(directory, std::move(v));
    }

    PyOutcome probe(const std::string& text) const {
        const auto db = open_database();  // kept while the GIL is released
        const morris::CountedPosition at = parse(*db, text);
        morris::ProbeResult r;
        {
            py::gil_scoped_release unlocked;  // other Python threads may probe meanwhile
            r = db->probe(at.position);
        }
        if (!r.ok()) throw DatabaseError(r.error);
        return to_python(morris::at_counter(db->variant().rules, r.outcome, at.counter));
    }

    std::string probe_wdl(const std::string& text) const {
        const auto db = open_database();
        const morris::CountedPosition at = parse(*db, text);
        if (at.counter != 0)
            throw std::invalid_argument("probe_wdl reads values at counter 0; use probe");
        morris::WdlResult r;
        {
            py::gil_scoped_release unlocked;
            r = db->probe_wdl(at.position);
        }
        if (!r.ok()) throw DatabaseError(r.error);
        return morris::to_string(r.value);
    }

    std::vector<PyTurn> turns(const std::string& text) const {
        const auto db = open_database();
        const morris::CountedPosition at = parse(*db, text);
        morris::RankedTurns ranked;
        {
            py::gil_scoped_release unlocked;
            ranked = morris::rank_turns(*db, at.position, at.counter);
        }
        if (!ranked.ok()) throw DatabaseError(ranked.error);
        const morris::Variant& v = db->variant();
        const auto& names = v.board->point_names;
        std::vector<PyTurn> result;
        for (const morris::RankedTurn& t : ranked.turns) {
            PyTurn turn{morris::to_string(v, t.turn), std::nullopt,   names[t.turn.to], {},
                        to_python(t.outcome),         t.drawn_by_rule};
            if (!t.turn.is_placement()) turn.origin = names[t.turn.from];
            for (int8_t r : t.turn.removed)
                if (r >= 0) turn.removed.push_back(names[r]);
            result.push_back(std::move(turn));
        }
        return result;
    }

    std::string position(const std::string& text) const {
        const auto db = open_database();
        return morris::to_string(db->variant(), parse(*db, text).position);
    }

    std::string fen(const std::string& text) const {
        const auto db = open_database();
        const morris::CountedPosition at = parse(*db, text);
        return morris::to_fen(db->variant(), at.position, at.counter);
    }

    std::string variant() const { return open_database()->variant().name; }
    std::string rules() const { return open_database()->variant().rule_text(); }
    std::string directory() const { return open_database()->directory().string(); }
    // Probes running in other threads keep the database until they end.
    void close() { database_.reset(); }

  private:
    std::shared_ptr<const morris::Database> open_database() const {
        if (!database_) throw DatabaseError("the database is closed");
        return database_;
    }
    static morris::CountedPosition parse(const morris::Database& db, const std::string& text) {
        return morris::parse_counted_position(db.variant(), text);  // NotationError
    }

    std::shared_ptr<const morris::Database> database_;
};

}  // namespace

PYBIND11_MODULE(morris, m) {
    m.doc() = "Probe solved Morris (mill) databases: values, distances, ranked turns.";
    py::register_exception<DatabaseError>(m, "DatabaseError", PyExc_RuntimeError);
    // NotationError and unknown variants or rules are std::invalid_argument:
    // pybind11 raises ValueError for them.

    py::class_<PyOutcome>(m, "Outcome", "A value for the side to move with its distance")
        .def_readonly("value", &PyOutcome::value, "'win', 'draw' or 'loss'")
        .def_readonly("plies", &PyOutcome::plies,
                      "plies to the end under best play (under the N-move rule to the next "
                      "placement or removal); None for a draw")
        .def("__eq__", &PyOutcome::operator==)
        .def("__repr__", &repr);

    py::class_<PyTurn>(m, "Turn", "A legal turn and what it gives the side that plays it")
        .def_readonly("text", &PyTurn::text, "the turn in the project's notation, e.g. 'd2xg7'")
        .def_readonly("origin", &PyTurn::origin, "the point moved from; None for a placement")
        .def_readonly("destination", &PyTurn::destination, "the point placed on or moved to")
        .def_readonly("removed", &PyTurn::removed, "the opponent's points emptied")
        .def_readonly("outcome", &PyTurn::outcome, "for the mover, plies counted from before")
        .def_property_readonly("value", [](const PyTurn& t) { return t.outcome.value; })
        .def_property_readonly("plies", [](const PyTurn& t) { return t.outcome.plies; })
        .def_readonly("drawn_by_counter", &PyTurn::drawn_by_counter,
                      "a draw only because the N-move counter leaves no room for its result")
        .def("__repr__", [](const PyTurn& t) {
            return "Turn(text='" + t.text + "', value='" + t.outcome.value +
                   "', plies=" + (t.outcome.plies ? std::to_string(*t.outcome.plies) : "None") +
                   ")";
        });

    py::class_<PyDatabase>(m, "Database", "An open database directory")
        .def("probe", &PyDatabase::probe, py::arg("position"),
             "The position's Outcome at its counter")
        .def("probe_wdl", &PyDatabase::probe_wdl, py::arg("position"),
             "The position's value, 'win', 'draw' or 'loss', from full or WDL-only files "
             "(morris compact)")
        .def("turns", &PyDatabase::turns, py::arg("position"),
             "Every legal Turn, best first for the side to move")
        .def("position", &PyDatabase::position, py::arg("position"),
             "The position in the project's notation")
        .def("fen", &PyDatabase::fen, py::arg("position"),
             "The position as Sanmill's FEN (24-point boards)")
        .def_property_readonly("variant", &PyDatabase::variant)
        .def_property_readonly("rules", &PyDatabase::rules)
        .def_property_readonly("directory", &PyDatabase::directory)
        .def("close", &PyDatabase::close)
        .def("__enter__", [](PyDatabase& db) -> PyDatabase& { return db; })
        .def("__exit__", [](PyDatabase& db, py::args) { db.close(); });

    m.def(
        "open",
        [](const std::string& directory, const std::string& variant, const std::string& rules) {
            return PyDatabase(directory, variant, rules);
        },
        py::arg("directory"), py::arg("variant"), py::arg("rules") = "",
        "Opens a solved database directory for a variant ('nine', 'six', ...) under its rules "
        "changed by `rules` ('n_move=100 removal=strict')");
    m.def(
        "variants",
        [] {
            std::vector<std::string> names;
            for (auto name : morris::variant_names()) names.emplace_back(name);
            return names;
        },
        "The names of the variants");
}
