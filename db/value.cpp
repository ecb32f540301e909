#include "db/value.hpp"

namespace morris {

const char* to_string(Value value) {
    switch (value) {
        case Value::loss: return "loss";
        case Value::draw: return "draw";
        case Value::win: return "win";
    }
    return "?";
}

std::string to_string(const Outcome& o) {
    return o.value == Value::draw ? "draw"
                                  : std::string(to_string(o.value)) + " " + std::to_string(o.plies);
}

}  // namespace morris
