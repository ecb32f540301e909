// `morris serve`: a web page to look at positions and play against perfect
// play (tools/web/index.html, built into the binary), and the JSON API it
// uses. Answers until Ctrl-C (SIGINT) or SIGTERM, then returns 0.
#pragma once

#include <string>

#include "game/variant.hpp"

namespace morris {

struct ServeOptions {
    std::string directory;
    std::string address = "127.0.0.1";
    int port = 8080;  // 0: any free port (printed)
};

int run_serve(const Variant& variant, const ServeOptions& options);

}  // namespace morris
