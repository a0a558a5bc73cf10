//! Shanten: how far a hand is from ready, for the regular form, seven pairs and thirteen orphans.
