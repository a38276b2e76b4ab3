# tests/unit/symbol.cmake: unit tests of the symbol module (owner: see docs/internals)
