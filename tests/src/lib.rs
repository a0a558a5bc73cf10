//! Integration tests live in `tests/`; reference data in `data/`.
