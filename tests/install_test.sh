#!/usr/bin/env bash
# An engine's build finds the installed library: `cmake --install` into a
# fresh prefix, then a tiny outside project built once with
# find_package(morris) and once with pkg-config probes a database that the
# installed `morris` solved; so does the installed Python module when PYTHON
# names the interpreter it was built for.
#
#   [PYTHON=python3] [SANITIZE=address,undefined] tests/install_test.sh BUILD_DIR
#
# SANITIZE: the build's sanitizers, which a program using its library needs too.
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
"$prefix/bin/morris" solve --variant five --db "$work/db" --no-progress >/dev/null

mkdir "$work/engine"
cat >"$work/engine/engine.c" <<'C'
#include <morris/morris.h>
#include <stdio.h>
int main(int argc, char** argv) {
    morris_db* db = morris_open(argv[1], "five", NULL);
    morris_position start;
    morris_outcome o;
    if (!db || morris_parse_position(db, "", &start) || morris_probe(db, &start, &o)) {
        fprintf(stderr, "engine: %s\n", morris_error());
        return 1;
    }
    printf("%s\n", o.value == MORRIS_WIN ? "win" : o.value == MORRIS_LOSS ? "loss" : "draw");
    morris_close(db);
    return 0;
}
C
cat >"$work/engine/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.22)
project(engine LANGUAGES C)
find_package(morris 0.1 REQUIRED)
add_executable(engine engine.c)
target_link_libraries(engine PRIVATE morris::morris)
CMAKE
flags=${SANITIZE:+-fsanitize=$SANITIZE}
cmake -S "$work/engine" -B "$work/engine-build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
cmake --build "$work/engine-build" >/dev/null

pc_dir=$(dirname "$(find "$prefix" -name morris.pc)")
# shellcheck disable=SC2046
cc $flags -o "$work/engine-pc" "$work/engine/engine.c" \
    $(PKG_CONFIG_PATH=$pc_dir pkg-config --cflags --libs morris)
libdir=$(PKG_CONFIG_PATH=$pc_dir pkg-config --variable=libdir morris)

expected=$("$prefix/bin/morris" query --variant five --db "$work/db" --moves "" --json |
    sed 's/.*"value": "\([a-z]*\)".*/\1/')
found=$("$work/engine-build/engine" "$work/db")
pkg=$(LD_LIBRARY_PATH=$libdir "$work/engine-pc" "$work/db")
if [[ $found != "$expected" || $pkg != "$expected" ]]; then
    echo "FAIL: five's start is $expected; find_package build says $found, pkg-config build $pkg" >&2
    exit 1
fi
if [[ -n ${PYTHON:-} ]]; then
    python=$(PYTHONPATH=$prefix/lib/python3/dist-packages "$PYTHON" -c \
        "import morris; print(morris.open('$work/db', 'five').probe('').value)")
    if [[ $python != "$expected" ]]; then
        echo "FAIL: five's start is $expected; the installed Python module says $python" >&2
        exit 1
    fi
fi
echo "installed library found by find_package and pkg-config${PYTHON:+ and the Python module};" \
    "all say five's start is a $found"
