# tests/unit/runtime.cmake: unit tests of the runtime module (owner: see docs/internals)
