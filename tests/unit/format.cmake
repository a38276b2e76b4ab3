# tests/unit/format.cmake: unit tests of the format module (owner: see docs/internals)
