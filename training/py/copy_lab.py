"""A copy lab (issue 18): does an induction head form in this architecture, and after how many steps?

Trains a fresh Qwen3-layout model (model.py) on synthetic rows only, never on the corpus, and prints JSON lines:
loss and top-1 accuracy on the predictable tokens of repeated spans, and every --diag-every steps, per layer,
the strongest head's previous-token score (mean attention from position i to i-1) and induction score (mean
attention from a token in a second copy to the token after its twin in the first copy; 1.0 = a perfect
induction head, ~1/T = none). Nothing here is shipped; it is for choosing a recipe before a full run.

Rows (T tokens, ids drawn uniformly from [vocab_lo, vocab_hi)): copy rows, and a share --skip of skip rows
(copy_rows.py says what each holds and where the loss is).

  python3 copy_lab.py --width 256 --theta 1e6 --emb-std 0.08 --skip 0.5 --vocab 300 800 --steps 3000

--measure PATH instead reads a checkpoint written by train.py and prints each layer's per-head previous-token
score on the first 40 validation sequences (up to 400 tokens each): does ordinary training form such a head?
See training/README.md ("Copy lab") for what each setting gave."""
import argparse
import json
import math
import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from copy_rows import attention_scores, copy_rows, prev_token_scores, repeat_logits
from model import Config, Qwen3
from train import HYPER, optimizer


class TextbookLM(nn.Module):
    """A control (--textbook): the textbook induction-head model, not ours. Attention only, LayerNorm, learned
    absolute positions, an untied unembedding, 4 heads of width/4; called like model.Qwen3."""

    def __init__(self, vocab, width, layers, seq):
        super().__init__()
        self.heads = 4
        self.embed, self.pos = nn.Embedding(vocab, width), nn.Embedding(seq, width)
        self.ln = nn.ModuleList([nn.LayerNorm(width) for _ in range(layers)])
        self.qkv = nn.ModuleList([nn.Linear(width, 3 * width, bias=False) for _ in range(layers)])
        self.out = nn.ModuleList([nn.Linear(width, width, bias=False) for _ in range(layers)])
        self.ln_f, self.unembed = nn.LayerNorm(width), nn.Linear(width, vocab, bias=False)

    def forward(self, ids, need_attn=False, logits_at=None):
        B, T = ids.shape
        x = self.embed(ids) + self.pos(torch.arange(T))
        causal = torch.ones(T, T, dtype=torch.bool).triu(1)
        atts = []
        for ln, qkv, out in zip(self.ln, self.qkv, self.out):
            q, k, v = qkv(ln(x)).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
            att = (q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])).masked_fill(causal, float("-inf")).softmax(-1)
            x = x + out((att @ v).transpose(1, 2).reshape(B, T, -1))
            atts.append(att)
        return self.unembed(self.ln_f(x if logits_at is None else x[logits_at])), atts, None

    def num_parameters(self):
        return sum(p.numel() for p in self.parameters())


def measure(path, n=40, max_len=400):
    from data import load_split
    from shipped import load_training_checkpoint
    model = load_training_checkpoint(path)
    total = None
    for ids, _ in load_split("val")[:n]:
        x = torch.tensor(ids[:max_len])[None]
        with torch.no_grad():
            _, att, _ = model(x, need_attn=True)
        prev = prev_token_scores(torch.stack([layer[0] for layer in att]))  # [L, H]
        total = prev if total is None else total + prev
    print(json.dumps({"checkpoint": path, "sequences": n, "prev_token_per_layer_head": [[round(float(x), 3) for x in row] for row in total / n]}))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--width", type=int, default=128, help="hidden size")
    ap.add_argument("--head-dim", type=int, default=32)
    ap.add_argument("--heads", type=int, default=None, help="query heads (default width / 32), 2 per K/V head")
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--theta", type=float, default=10000.0, help="RoPE base (the shipped models: 10000)")
    ap.add_argument("--emb-std", type=float, default=0.02, help="embedding init std (model.py: 0.02)")
    ap.add_argument("--vocab", type=int, nargs=2, default=[300, 8800], metavar=("LO", "HI"))
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--tokens", type=int, default=1024, help="tokens per batch")
    ap.add_argument("--span-max", type=int, default=16)
    ap.add_argument("--gap-max", type=int, default=60)
    ap.add_argument("--skip", type=float, default=0.0, help="share of skip rows per batch")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--qk-gain-lr-scale", type=float, default=HYPER["qk_gain_lr_scale"],
                    help="the QK-norm gains' learning-rate multiple (train.py: %(default)s)")
    ap.add_argument("--no-qk-norm", action="store_true", help="an ablation: drop QK-norm (not Qwen3's layout)")
    ap.add_argument("--textbook", action="store_true",
                    help="a control: TextbookLM (--width, --layers, --seq) with AdamW without weight decay")
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--diag-every", type=int, default=250)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--stages", nargs="+", metavar="IDS:SEQ:SPAN:GAP:STEPS",
                    help="a curriculum instead of one setting: each stage draws IDS ids from --vocab's LO, rows of "
                         "SEQ tokens, spans up to SPAN, gaps up to GAP, for STEPS steps (--steps is then their sum)")
    ap.add_argument("--measure", metavar="PATH", help="a train.py checkpoint: print its previous-token scores")
    a = ap.parse_args()
    if a.measure:
        return measure(a.measure)
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    a.gen = torch.Generator().manual_seed(a.seed)
    rng = random.Random(a.seed)
    heads = a.heads or a.width // 32
    cfg = Config(vocab_size=8892, hidden_size=a.width, intermediate_size=3 * a.width, num_hidden_layers=a.layers,
                 num_attention_heads=heads, num_key_value_heads=max(1, heads // 2), head_dim=a.head_dim,
                 rope_theta=a.theta)
    stages = [tuple(int(x) for x in st.split(":")) for st in a.stages] if a.stages else \
        [(a.vocab[1] - a.vocab[0], a.seq, a.span_max, a.gap_max, a.steps)]
    if a.textbook:
        model = TextbookLM(cfg.vocab_size, a.width, a.layers, max(st[1] for st in stages))
        opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=0.0)
    else:
        model = Qwen3(cfg)
        if a.no_qk_norm:
            for layer in model.model.layers:
                layer.self_attn.q_norm = layer.self_attn.k_norm = torch.nn.Identity()
        torch.nn.init.normal_(model.model.embed_tokens.weight, std=a.emb_std)
        opt = optimizer(model, {**HYPER, "lr": a.lr, "qk_gain_lr_scale": a.qk_gain_lr_scale})  # train.py's, at the lab's learning rate
    a.steps = sum(st[4] for st in stages)
    lo = a.vocab[0]
    print(json.dumps({"parameters": model.num_parameters(), **{k: v for k, v in vars(a).items() if k != "gen"}}), flush=True)
    t0 = time.time()
    stage_end = 0
    for step in range(a.steps):
        if step == stage_end:
            n_ids, a.seq, a.span_max, a.gap_max, n = stages.pop(0)
            stage_end += n
            a.vocab = [lo, lo + n_ids]
            perm = {t: lo + (t * 7919 + 13) % n_ids for t in range(lo, lo + n_ids)}
            print(json.dumps({"stage_from": step, "ids": n_ids, "seq": a.seq, "span_max": a.span_max, "gap_max": a.gap_max}), flush=True)
        for g in opt.param_groups:
            g["lr"] = a.lr * min(1.0, (step + 1) / 50) * g.get("lr_scale", 1.0)
        ids, mask, copy_row = copy_rows(rng, a.gen, a.tokens // a.seq, a.seq, *a.vocab, a.span_max, a.gap_max,
                                        a.skip, perm)
        logits, tgt = repeat_logits(model, ids, mask)
        loss = F.cross_entropy(logits, tgt)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if step % 25 == 0 or step == a.steps - 1 or step == stage_end - 1:
            on_copy = copy_row[:, None].expand_as(mask)[:, 1:][mask[:, 1:]]  # of the loss positions
            with torch.no_grad():
                copy_loss = F.cross_entropy(logits[on_copy], tgt[on_copy]).item()
            hit = (logits[on_copy].argmax(-1) == tgt[on_copy]).float().mean()
            rec = {"step": step, "loss": round(loss.item(), 3), "copy_loss": round(copy_loss, 3),
                   "copy_acc": round(float(hit), 3), "seconds": round(time.time() - t0)}
            if step % a.diag_every == 0 or step == a.steps - 1 or step == stage_end - 1:
                prev, ind = attention_scores(model, ids, mask, copy_row)
                rec["prev_token"] = [round(float(x), 2) for x in prev]
                rec["induction"] = [round(float(x), 2) for x in ind]
            print(json.dumps(rec), flush=True)


if __name__ == "__main__":
    main()
