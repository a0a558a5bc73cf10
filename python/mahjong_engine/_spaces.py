"""The observation and action spaces shared by the PettingZoo and Gymnasium
environments, and the observation dict of one seat."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from . import _native


def observation_space() -> spaces.Dict:
    """``{"observation": Box(OBSERVATION_SHAPE, float32, the encoding's bounds),
    "action_mask": Box(0, 1, (NUM_ACTIONS,), int8)}``."""
    low, high = _native.observation_bounds()
    return spaces.Dict(
        {
            "observation": spaces.Box(low=low, high=high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(_native.NUM_ACTIONS,), dtype=np.int8),
        }
    )


def action_space() -> spaces.Discrete:
    """``Discrete(NUM_ACTIONS)``: the engine's action indices."""
    return spaces.Discrete(_native.NUM_ACTIONS)


def observe(game: _native.Game, seat: int) -> dict[str, np.ndarray]:
    """The observation dict of ``seat``."""
    return {
        "observation": game.observation(seat),
        "action_mask": game.legal_mask(seat).astype(np.int8),
    }
