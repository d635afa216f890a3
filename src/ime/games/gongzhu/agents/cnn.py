"""The supervised CNN baseline: imitate the rule bots' decisions (the seed's convolutional
opponent, which fits human game records; we have no human Gongzhu logs, so the rule bots of
``bots/rulebots.py`` stand in for them).

1. :func:`generate` plays seeded deals with a random style from ``RULE_STYLES`` in each seat
   (all styles mixed, the ``random`` style included unless ``--styles`` says otherwise) and
   records every decision: the deciding seat's planes
   (:func:`~ime.games.gongzhu.agents.features.cnn_planes`), the legal-action mask over the 68
   actions, the action taken, and which game, seat and style it came from.
2. :func:`fit` trains :class:`~ime.games.gongzhu.agents.models.CNNPolicy` with a masked
   cross-entropy on a split by *game* (seeded), so no position of a validation game is seen in
   training, and reports train/validation accuracy (overall and per style).
3. :class:`CNNAgent` plays greedily (argmax of the masked logits) or samples from them.

Command::

    python -m ime.games.gongzhu.agents.cnn train --games 2000 --seed 0 \\
        --out src/ime/games/gongzhu/agents/checkpoints/gz_cnn.pt
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from ime.core.seeding import derive_seed
from ime.games.gongzhu import rules as R
from ime.games.gongzhu.agents.features import cnn_planes, seat_view
from ime.games.gongzhu.agents.models import N_ACTIONS, CNNPolicy
from ime.games.gongzhu.bots.rulebots import RULE_STYLES, rule_action

# ---- data ---------------------------------------------------------------------------------------


def seat_styles(seed: int, game: int, styles: tuple[str, ...]) -> list[str]:
    """The four seats' styles of generated game ``game`` (uniform over ``styles``, seeded)."""
    rng = np.random.default_rng(derive_seed(seed, "cnn-styles", game))
    return [styles[int(i)] for i in rng.integers(len(styles), size=4)]


def generate(games: int, seed: int, styles: tuple[str, ...] = RULE_STYLES) -> dict[str, np.ndarray]:
    """Decisions of ``games`` seeded rule-bot deals (see the module doc)."""
    planes, masks, actions, game_ids, seats, style_ids = [], [], [], [], [], []
    for g in range(games):
        state = R.deal(derive_seed(seed, "cnn-deal", g))
        who = seat_styles(seed, g, styles)
        ply = 0
        while not R.is_terminal(state):
            seat = state.to_move
            legal = R.legal_actions(state)
            rng = np.random.default_rng(derive_seed(seed, "cnn-game", g, ply, seat))
            a = rule_action(who[seat], state, seat, rng)
            planes.append(cnn_planes(seat_view(state, seat), legal))
            m = np.zeros(N_ACTIONS, dtype=bool)
            m[legal] = True
            masks.append(m)
            actions.append(a)
            game_ids.append(g)
            seats.append(seat)
            style_ids.append(RULE_STYLES.index(who[seat]))
            R.apply(state, a)
            ply += 1
    return {
        "planes": np.stack(planes), "mask": np.stack(masks),
        "action": np.array(actions, dtype=np.int64), "game": np.array(game_ids, dtype=np.int32),
        "seat": np.array(seats, dtype=np.int8), "style": np.array(style_ids, dtype=np.int8),
    }


def split_games(n_games: int, val_frac: float, seed: int) -> np.ndarray:
    """Boolean per game: True = validation (a seeded random ``val_frac`` of the games)."""
    rng = np.random.default_rng(derive_seed(seed, "cnn-split"))
    val = np.zeros(n_games, dtype=bool)
    val[rng.permutation(n_games)[: max(1, round(val_frac * n_games))]] = True
    return val


# ---- training -----------------------------------------------------------------------------------


@dataclass
class CNNTrainConfig:
    games: int = 2000
    seed: int = 0
    styles: tuple[str, ...] = RULE_STYLES
    val_frac: float = 0.1
    epochs: int = 8
    batch: int = 256
    lr: float = 1e-3
    channels: int = 32
    hidden: int = 256


def _accuracy(net: CNNPolicy, data: dict[str, np.ndarray], rows: np.ndarray,
              batch: int = 2048) -> np.ndarray:
    """Per-row 0/1: does the greedy masked policy pick the logged action."""
    net.eval()
    hits = np.zeros(len(rows), dtype=bool)
    with torch.inference_mode():
        for i in range(0, len(rows), batch):
            r = rows[i : i + batch]
            logits = net(torch.from_numpy(data["planes"][r]), torch.from_numpy(data["mask"][r]))
            hits[i : i + batch] = logits.argmax(1).numpy() == data["action"][r]
    return hits


def fit(data: dict[str, np.ndarray], cfg: CNNTrainConfig, log=print) -> tuple[CNNPolicy, dict]:
    """Train the CNN on the train games; returns the net and its metrics."""
    torch.manual_seed(derive_seed(cfg.seed, "cnn-init") % (2**31))
    val_games = split_games(int(data["game"].max()) + 1, cfg.val_frac, cfg.seed)
    is_val = val_games[data["game"]]
    tr, va = np.flatnonzero(~is_val), np.flatnonzero(is_val)
    net = CNNPolicy(cfg.channels, cfg.hidden)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    rng = np.random.default_rng(derive_seed(cfg.seed, "cnn-batches"))
    history = []
    for epoch in range(cfg.epochs):
        net.train()
        order = tr[rng.permutation(len(tr))]
        total, n = 0.0, 0
        for i in range(0, len(order), cfg.batch):
            r = np.sort(order[i : i + cfg.batch])
            logits = net(torch.from_numpy(data["planes"][r]), torch.from_numpy(data["mask"][r]))
            loss = F.cross_entropy(logits, torch.from_numpy(data["action"][r]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(r)
            n += len(r)
        va_acc = float(_accuracy(net, data, va).mean())
        history.append({"epoch": epoch + 1, "train_loss": total / n, "val_acc": va_acc})
        log(f"epoch {epoch + 1}: train loss {total / n:.4f}  val acc {va_acc:.4f}")
    tr_hits, va_hits = _accuracy(net, data, tr), _accuracy(net, data, va)
    per_style = {}
    for k, style in enumerate(RULE_STYLES):
        sel = data["style"][va] == k
        if sel.any():
            per_style[style] = round(float(va_hits[sel].mean()), 4)
    legal_counts = data["mask"][va].sum(1)
    metrics = {
        "train_samples": len(tr), "val_samples": len(va),
        "train_games": int((~val_games).sum()), "val_games": int(val_games.sum()),
        "train_acc": round(float(tr_hits.mean()), 4), "val_acc": round(float(va_hits.mean()), 4),
        "val_acc_per_style": per_style,
        "val_acc_nonforced": round(float(va_hits[legal_counts > 1].mean()), 4),
        "val_uniform_baseline": round(float((1.0 / legal_counts).mean()), 4),
        "history": history,
    }
    return net, metrics


# ---- the agent ----------------------------------------------------------------------------------


class CNNAgent:
    """Plays the CNN's masked policy: greedy argmax (ties: lowest action) or a sample."""

    def __init__(self, net: CNNPolicy):
        self.net = net.eval()

    def logits(self, state: R.GongzhuState, seat: int, legal: list[int]) -> np.ndarray:
        """The 68 masked logits of ``seat`` (the seat to move); illegal actions are ``-inf``."""
        planes = cnn_planes(seat_view(state, seat), legal)
        mask = np.zeros(N_ACTIONS, dtype=bool)
        mask[legal] = True
        with torch.inference_mode():
            out = self.net(torch.from_numpy(planes)[None], torch.from_numpy(mask)[None])
        return out[0].numpy()

    def act(self, state: R.GongzhuState, seat: int, rng: np.random.Generator | None = None,
            temperature: float = 0.0) -> int:
        legal = R.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        z = self.logits(state, seat, legal)
        if temperature <= 0 or rng is None:
            return int(np.argmax(z))
        p = np.exp((z[legal] - z[legal].max()) / temperature)
        return legal[int(rng.choice(len(legal), p=p / p.sum()))]

    @classmethod
    def load(cls, path: str | Path) -> CNNAgent:
        ck = torch.load(path, map_location="cpu", weights_only=False)
        if ck.get("kind") != "gongzhu-cnn":
            raise ValueError(f"{path}: not a Gongzhu CNN checkpoint (kind={ck.get('kind')!r})")
        net = CNNPolicy(**ck["config"])
        net.load_state_dict(ck["state_dict"])
        return cls(net)


def rules_source_hash() -> str:
    """Hash of the rules and rule-bot sources the data came from (stored in the checkpoint, so a
    stale baseline -- trained before a rule style changed -- can be recognised)."""
    from ime.games.gongzhu.bots import rulebots

    h = hashlib.sha256()
    for mod in (R, rulebots):
        h.update(Path(mod.__file__).read_bytes())
    return h.hexdigest()[:16]


# ---- CLI ----------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m ime.games.gongzhu.agents.cnn",
                                description="supervised CNN baseline on rule-bot games")
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train", help="generate rule-bot games, train, write a checkpoint")
    d = CNNTrainConfig()
    t.add_argument("--games", type=int, default=d.games)
    t.add_argument("--seed", type=int, default=d.seed)
    t.add_argument("--styles", default=",".join(d.styles),
                   help=f"comma-separated rule styles to mix (default: all of {RULE_STYLES})")
    t.add_argument("--val-frac", type=float, default=d.val_frac)
    t.add_argument("--epochs", type=int, default=d.epochs)
    t.add_argument("--batch", type=int, default=d.batch)
    t.add_argument("--lr", type=float, default=d.lr)
    t.add_argument("--channels", type=int, default=d.channels)
    t.add_argument("--hidden", type=int, default=d.hidden)
    t.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    t.add_argument("--out", required=True, help="checkpoint path (.pt)")
    a = p.parse_args(argv)
    torch.set_num_threads(a.threads)
    styles = tuple(s for s in a.styles.split(",") if s)
    for s in styles:
        if s not in RULE_STYLES:
            raise SystemExit(f"unknown style {s!r}; known: {RULE_STYLES}")
    cfg = CNNTrainConfig(games=a.games, seed=a.seed, styles=styles, val_frac=a.val_frac,
                         epochs=a.epochs, batch=a.batch, lr=a.lr, channels=a.channels,
                         hidden=a.hidden)
    t0 = time.perf_counter()
    data = generate(cfg.games, cfg.seed, cfg.styles)
    t_gen = time.perf_counter() - t0
    print(f"generated {len(data['action'])} decisions from {cfg.games} games in {t_gen:.1f} s")
    net, metrics = fit(data, cfg)
    metrics["generate_s"] = round(t_gen, 1)
    metrics["rules_source_hash"] = rules_source_hash()
    metrics["train_s"] = round(time.perf_counter() - t0 - t_gen, 1)
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"kind": "gongzhu-cnn", "config": net.config, "state_dict": net.state_dict(),
                "train_config": asdict(cfg), "metrics": metrics}, out)
    print(json.dumps({k: v for k, v in metrics.items() if k != "history"}, indent=1))
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
