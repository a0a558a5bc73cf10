"""A PettingZoo AEC environment over the Rust engine: ``env(rules="sanma")``.

Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers; the dealer of the first hand
is ``player_0``). One agent acts at a time, in the engine's order: the seat on turn, or,
during a claim window, each seat that may claim the discard (the first one in
``Game.seats_to_act()``). Observations are dicts::

    {"observation": float32 array OBSERVATION_SHAPE (the engine's encoding, version
                    ENCODING_VERSION),
     "action_mask": int8 array (NUM_ACTIONS,), 1 = legal}

The action space is ``Discrete(NUM_ACTIONS)`` (``mahjong_engine.action_name`` names
them). Rewards are each seat's score change caused by the step (every seat gets one,
the sum is zero). An episode is a whole game (``episode="game"``, the default) or one
hand (``episode="hand"``); at its end every agent is terminated. Illegal actions raise
``IllegalActionError`` and change nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import _native, _spaces

__all__ = ["MahjongEnv", "env", "raw_env"]


class MahjongEnv(AECEnv):
    """The AEC environment (see the module docstring)."""

    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "mahjong_engine_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str = "sanma",
        episode: str = "game",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if episode not in ("game", "hand"):
            raise _native.RulesError(f"episode {episode!r} is neither 'game' nor 'hand'")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.rules = rules
        self.episode = episode
        self.render_mode = render_mode
        probe = _native.Game(rules, 0)
        self.possible_agents = [f"player_{i}" for i in range(probe.players)]
        obs_space = _spaces.observation_space()
        act_space = _spaces.action_space()
        # The same objects on every call (api_test checks identity).
        self._observation_spaces = {a: obs_space for a in self.possible_agents}
        self._action_spaces = {a: act_space for a in self.possible_agents}
        self.game: _native.Game | None = None
        self._next_seed: int | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # -- episode -----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None:
            if self._next_seed is None:
                self._next_seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
            seed = self._next_seed
        self._next_seed = (int(seed) + 1) % (1 << 64)
        self.game = _native.Game(self.rules, int(seed) % (1 << 64))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._hand_at_start = self.game.hand_number
        self.agent_selection = self._selected()

    def _selected(self) -> str:
        seats = self.game.seats_to_act()
        return self.possible_agents[seats[0]] if seats else self.possible_agents[self.game.turn]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return _spaces.observe(self.game, self.possible_agents.index(agent))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        before = self.game.scores
        self.game.apply(seat, int(action))
        after = self.game.scores
        self._cumulative_rewards[agent] = 0.0
        for i, a in enumerate(self.agents):
            self.rewards[a] = float(after[i] - before[i])
        ended = self._advance()
        if ended:
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a] = {"final_scores": list(self.game.scores)}
        self._accumulate_rewards()
        if not ended:
            self.agent_selection = self._selected()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> bool:
        """Deals the next hand where the episode goes on; True when it ended."""
        if self.game.is_over:
            return True
        if self.game.phase == "hand_over":
            if self.episode == "hand":
                return True
            self.game.start_next_hand()
        return False

    # -- display -----------------------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        g = self.game
        lines = [f"hand {g.hand_number} dealer {g.dealer} phase {g.phase} wall {g.live_wall} scores {g.scores}"]
        for seat in range(g.players):
            view = g.view(seat)
            rivers = " ".join(d["tile"] for d in view["discards"][seat])
            lines.append(f"  player_{seat}: {g.hand(seat):<20} river {rivers}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None


def raw_env(**kwargs: Any) -> MahjongEnv:
    """The environment without wrappers."""
    return MahjongEnv(**kwargs)


def env(**kwargs: Any) -> MahjongEnv:
    """The environment (``rules``, ``episode``, ``render_mode``)."""
    return MahjongEnv(**kwargs)
