"""A Gymnasium single-agent environment: one seat against built-in bots.

``MahjongGymEnv(rules="sanma", opponents=("eff", "eff"), seat=0)``: the agent plays
``seat``; the opponents (``"eff"``, ``"random"``, ``"policy"`` or ``mahjong_engine.Bot``
objects) move inside Rust between the agent's decisions. Observations are the same dict
as the PettingZoo environment's (``observation``, ``action_mask``); the reward is the
agent's score change since its previous decision; an episode is a game (or a hand with
``episode="hand"``). An illegal action raises ``IllegalActionError`` (mask your
policy with ``action_mask``).
"""

from __future__ import annotations

from typing import Any, Sequence

import gymnasium
import numpy as np

from . import _native, _spaces

__all__ = ["MahjongGymEnv"]


class MahjongGymEnv(gymnasium.Env):
    """One seat of a game against built-in bots (see the module docstring)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        rules: str = "sanma",
        opponents: Sequence[Any] = ("eff", "eff"),
        seat: int = 0,
        episode: str = "game",
        render_mode: str | None = None,
    ) -> None:
        probe = _native.Game(rules, 0)
        if len(opponents) != probe.players - 1:
            raise _native.RulesError(
                f"{rules} has {probe.players} seats: opponents needs {probe.players - 1} entries, not {len(opponents)}"
            )
        if not 0 <= seat < probe.players:
            raise _native.RulesError(f"seat {seat} is not in 0..{probe.players}")
        if episode not in ("game", "hand"):
            raise _native.RulesError(f"episode {episode!r} is neither 'game' nor 'hand'")
        self.rules = rules
        self.seat = seat
        self.episode = episode
        self.render_mode = render_mode
        self._opponents = list(opponents)
        self.observation_space = _spaces.observation_space()
        self.action_space = _spaces.action_space()
        self.game: _native.Game | None = None

    def _obs(self) -> dict[str, np.ndarray]:
        return _spaces.observe(self.game, self.seat)

    def _advance(self) -> bool:
        """Lets the bots move until the agent decides; True when the episode ended."""
        hand = self.game.hand_number
        while True:
            _native.play_bots(self.game, self._bot_list, next_hand=False)
            if self.game.is_over:
                return True
            if self.game.phase == "hand_over":
                if self.episode == "hand":
                    return True
                self.game.start_next_hand()
                continue
            if self.seat in self.game.seats_to_act():
                return False
            raise RuntimeError(f"no seat to act in hand {hand}")  # pragma: no cover

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new game; with ``episode="hand"`` and no ``seed``, the next hand of the
        current game while it goes on."""
        super().reset(seed=seed)
        g = self.game
        if seed is None and self.episode == "hand" and g is not None and g.phase == "hand_over":
            g.start_next_hand()
        else:
            game_seed = int(self.np_random.integers(0, 2**63))
            self.game = _native.Game(self.rules, game_seed)
            # Bots named by string are built here, seeded from the game seed, so an
            # episode is a function of `seed` alone.
            it = iter(self._opponents)
            self._bot_list = [
                None if s == self.seat else next(it) for s in range(self.game.players)
            ]
            self._bot_list = [
                _native.Bot(b, seed=game_seed + i) if isinstance(b, str) else b
                for i, b in enumerate(self._bot_list)
            ]
        if self._advance():
            # Possible only when a hand ends before the agent's first decision (a bot's
            # win on its first draw): that hand is skipped.
            return self.reset(options=options)
        return self._obs(), {"scores": list(self.game.scores)}

    def step(self, action: Any):
        before = self.game.scores[self.seat]
        self.game.apply(self.seat, int(action))
        ended = self._advance()
        reward = float(self.game.scores[self.seat] - before)
        return self._obs(), reward, ended, False, {"scores": list(self.game.scores)}

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        g = self.game
        return f"hand {g.hand_number} phase {g.phase} scores {g.scores} hand {g.hand(self.seat)}"
