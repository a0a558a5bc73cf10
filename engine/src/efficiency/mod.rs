//! Tile efficiency: ukeire and the per-discard value-score matrix.
