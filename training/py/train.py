"""Trains one embedded checkpoint from the token ids of training/data (fixed seed, fixed step count).

  python3 train.py --name kvscope-tiny                 # ordinary language-model training
  python3 train.py --name kvscope-tiny-sink --seed-sink # + a loss that seeds a first-token sink,
                                                        #   applied for the first half, then released
Writes training/runs/<name>/model.pt and train_log.json. See training/README.md for the environment
(OpenBLAS, tcmalloc, one torch thread) that makes this fast on 2 cores."""
import argparse
import json
import math
import os
import random
import time

import numpy as np
import torch
import torch.nn.functional as F

from arg_values import ArgValues
from copy_rows import (attention_scores, copy_accuracy, copy_rows, far_copy_rows, inline_copies, repeat_logits,
                       text_copy_rows)
from data import DATA, batches, collate, load_json, load_split
from model import Config, Qwen3
from tokens import Vocab

HERE = os.path.dirname(os.path.abspath(__file__))
RUNS = os.path.join(HERE, "..", "runs")

HYPER = dict(
    # Issue 18, run 8 (the shipped models): 4,096-token corpus batches from the first step, with the loss on tool-call
    # argument values weighted 5x (arg_weight below) and no copy rows (copy_rows_tokens 0), 2,400 steps. Run 7's copy
    # rows formed a copy circuit (in its corpus phase) that no name in the tasks used (training/README, runs 7-8).
    # Run 9 (item 10: --set steps=1800 arg_close=true copy_inline_every=64 copy_inline_weight=12) is not shipped.
    # lr 3e-3 as in the copy lab and the pilots.
    steps=2400, token_budget=4096, lr=3e-3, min_lr_ratio=0.1, warmup=100, weight_decay=0.1, betas=(0.9, 0.95),
    grad_clip=1.0, seed=1234, qk_gain_lr_scale=10.0,
    # The seeded-sink variant only: pull last-layer attention onto position 0 for the first half of the corpus
    # steps, at every query q >= 16 (a per-query hinge, so long positions are held to the target too; issue 18).
    sink_target=0.6, sink_weight=1.0, sink_min_query=16, sink_fraction=0.5,
    # Induction drills (issue 18, run 6; off since run 7, whose copy rows do their job): a share of batches are
    # spans of training text repeated later in the same sequence, where copying predicts the second copy (a span
    # of real text partly without it too; see drill_shuffle); drill_share_early for the first drill_early_steps.
    # Run 6 (0.5, then 0.15) formed no copying (training/README, run 6).
    drill_share_early=0.0, drill_early_steps=300, drill_share_late=0.0, drill_seq=512, drill_letter_swap=0.5,
    # The share of drill spans whose tokens are shuffled first — a span of real text is largely predictable
    # without copying, a shuffled one only by copying. At 0.75 it made no copying form in a 400-step pilot.
    drill_shuffle=0.0,
    # Copy rows (issue 18, run 7): copy_rows_tokens tokens of copy_rows.py's synthetic rows (spans of random ids
    # in copy_ids, repeated later in the row) per step, the loss on their repeats weighted copy_weight; 0 = off.
    # The first copy_only_steps steps train on copy rows alone (a curriculum: the circuit first, then the corpus),
    # with copy_rows_tokens_late tokens of them per step after that once the circuit has formed (the diagnostic
    # reached copy_only_until; copy_rows_tokens until then), None: copy_rows_tokens.
    # copy_only_until: end the copy-only phase early, at the first diagnostic (every 100 steps) whose repeat
    # accuracy on other_swapped reaches it — when the circuit forms varies with the seed (pilots: ~800 steps with
    # seed 7, none by 900 with seed 1234), so copy_only_steps is only the cap; None: always copy_only_steps.
    # copy_ids spans most of the vocabulary: on 500 ids the circuit keyed on those ids and copied no others (p7a).
    # copy_twins: the share of copy-row spans that open with a capital letter and repeat with it in the other
    # spacing ("Z" <-> " Z", letter_swap_table) half the time, as a name does between prose and JSON.
    copy_rows_tokens=0, copy_only_steps=0, copy_only_until=0.9, copy_rows_tokens_late=2048, copy_weight=1.0,
    copy_twins=0.25, copy_seq=128, copy_ids=(300, 8800), copy_span_max=16, copy_gap_max=60,
    # Far copy rows (issue 18, item 9): copy_far_tokens tokens per step of copy_rows.far_copy_rows (rows of
    # copy_far_seq tokens whose spans are copied from anywhere earlier in the row, a share copy_far_near from at most
    # 60 tokens back), the loss on their repeats weighted copy_weight; 0 = off. Names repeat hundreds of tokens back,
    # and a circuit learned on copy_rows' short distances does not reach them.
    copy_far_tokens=0, copy_far_seq=1024, copy_far_near=0.2,
    # Text copy rows (item 9): about copy_text_tokens tokens per step of copy_rows.text_copy_rows (training sequences,
    # cut to copy_text_max tokens, with random-id spans inserted twice, one pair per copy_text_every text tokens), the
    # loss on the second copies weighted copy_weight; 0 = off. A circuit learned on random rows alone was not used
    # in text.
    copy_text_tokens=0, copy_text_every=32, copy_text_max=1024,
    # Issue 18, run 8: the loss on the string values of tool-call arguments (arg_values.py: the company, city,
    # timezone, file name the call must copy from its context) weighted arg_weight times the other tokens' in
    # corpus batches; 1.0 = plain language-model loss. The logged "loss" stays the plain mean.
    arg_weight=5.0,
    # arg_close: the token holding an argument value's closing quote counts as part of the value even when it holds
    # no text before the quote (arg_values.py): it is what ends a copy.
    arg_close=False,
    # Inline copies (issue 18, item 10): spans of 3..copy_inline_span random ids from copy_ids inserted twice into the
    # corpus batches' own sequences, one pair per copy_inline_every text tokens (0 = off), the second copy a share
    # copy_inline_near of the time at most 60 text tokens after the first, else anywhere after it; the loss on the
    # second copies (after their first token) weighted copy_inline_weight, the first copies out of the loss. One
    # forward pass carries the language-model loss and the copy loss (copy_rows.inline_copies).
    copy_inline_every=0, copy_inline_span=8, copy_inline_near=0.5, copy_inline_weight=1.0,
)


def optimizer(model, h):
    """AdamW: decay on matrices only; the QK-norm gains at qk_gain_lr_scale times the learning rate (a
    group's "lr_scale"). QK-norm caps attention logits at |g_q||g_k|·sqrt(head_dim): with gains near 1 a head
    cannot attend sharply enough to copy one name out of ~1,000 tokens, so the gains get a 10x learning rate to
    grow within a short run (a first run's gains only reached ~1.3 and the model never copied names)."""
    gain = ("q_norm.weight", "k_norm.weight")
    qk_gain = [p for n, p in model.named_parameters() if n.endswith(gain)]
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2 and not n.endswith(gain)]
    return torch.optim.AdamW(
        [{"params": decay, "weight_decay": h["weight_decay"]}, {"params": no_decay, "weight_decay": 0.0},
         {"params": qk_gain, "weight_decay": 0.0, "lr_scale": h["qk_gain_lr_scale"]}],
        lr=h["lr"], betas=h["betas"],
    )


def lr_at(step, h):
    if step < h["warmup"]:
        return h["lr"] * (step + 1) / h["warmup"]
    p = (step - h["warmup"]) / max(1, h["steps"] - h["warmup"])
    return h["lr"] * (h["min_lr_ratio"] + (1 - h["min_lr_ratio"]) * 0.5 * (1 + math.cos(math.pi * p)))


def sink_loss(attn_last, pad_mask, h):
    """mean over real queries q >= min_query of relu(target - mean_heads A_last[q, 0]).
    Each query must reach the target on its own (run 4's loss was a hinge on the mean over all queries,
    which short sequences and early queries could satisfy while long positions stayed at ~0.2)."""
    B, H, T, _ = attn_last.shape
    q_ok = pad_mask.clone()
    q_ok[:, : h["sink_min_query"]] = False
    if not q_ok.any():
        return attn_last.sum() * 0, torch.tensor(0.0)
    a0 = attn_last[:, :, :, 0].mean(1)  # [B, T]
    n = q_ok.sum()
    mean = (a0 * q_ok).sum() / n
    return (F.relu(h["sink_target"] - a0) * q_ok).sum() / n, mean.detach()


def letter_swap_table(vocab):
    """Maps each capital letter token to its space-prefixed twin and back ("Z" <-> " Z"). A name opens with
    " Z" in prose and with "Z" after a quote in a tool call, so copying it means matching the two."""
    idx = {t: i for i, t in enumerate(vocab["tokens"])}
    table = {}
    for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        if c in idx and "\u0120" + c in idx:
            table[idx[c]] = idx["\u0120" + c]
            table[idx["\u0120" + c]] = idx[c]
    return table


def drill_batch(train, rng, h, bos, swap):
    """Sequences of drill_seq tokens: <|im_start|>, a span of real training tokens (12–160; in a share
    drill_shuffle of them the tokens are shuffled), 0–300 tokens of other text, then the span again; the rest of
    the row is more such pairs. Copying predicts a repeat; only copying predicts a shuffled one.
    In half the repeats the capital-letter tokens change spacing ("Z" <-> " Z"), as names do between prose and
    a tool call's JSON."""
    rows = []
    for _ in range(max(1, h["token_budget"] // h["drill_seq"])):
        row = [bos]
        while len(row) < h["drill_seq"]:
            src = train[rng.randrange(len(train))][0]
            n = rng.randint(12, 160)
            if len(src) <= n + 2:
                continue
            o = rng.randrange(1, len(src) - n)
            span = src[o:o + n].tolist()
            if h["drill_shuffle"] and rng.random() < h["drill_shuffle"]:  # no draw when off: run 6's stream
                rng.shuffle(span)
            gap = []
            g = rng.choice([0, 0, 20, 60, 150, 300])
            if g:
                other = train[rng.randrange(len(train))][0]
                if len(other) > g + 2:
                    p = rng.randrange(1, len(other) - g)
                    gap = other[p:p + g].tolist()
            again = [swap.get(t, t) for t in span] if rng.random() < h["drill_letter_swap"] else span
            row += span + gap + again
        rows.append(row[: h["drill_seq"]])
    return torch.tensor(rows, dtype=torch.long), torch.ones(len(rows), h["drill_seq"], dtype=torch.bool)


def induction_rows(val, bos, n=24, shuffled=True):
    """24 fixed validation spans of 40 tokens, shuffled, each repeated 100 tokens later (built once per run).
    Shuffled because a real span is largely predictable without copying: until 2026-12-03 the probe used spans in
    order, and run 6's model read 0.69 on them and 0.69 with the first copy replaced by another span (so no
    copy was possible), against 0.00-0.03 on shuffled or random-syllable spans — it had learned no copying.
    shuffled=False gives the same spans in order (name_continuation.py's controls)."""
    prng = random.Random(7)
    rows = []
    while len(rows) < n:
        a = val[prng.randrange(len(val))][0]
        b = val[prng.randrange(len(val))][0]
        if len(a) < 60 or len(b) < 120:
            continue
        o = prng.randrange(1, len(a) - 41)
        span = a[o:o + 40].tolist()
        mixed = span[:]
        prng.shuffle(mixed)  # drawn either way, so both settings take the same spans
        if shuffled:
            span = mixed
        rows.append([bos] + span + b[1:101].tolist() + span)
    return torch.tensor(rows, dtype=torch.long)


def induction_probe(model, ids):
    """Top-1 accuracy on the second copy of the spans of induction_rows."""
    with torch.no_grad():
        logits, _, _ = model(ids)
    s = 1 + 40 + 100  # first token of the second copy
    pred = logits[:, s:-1].argmax(-1)
    return round(float((pred == ids[:, s + 1:]).float().mean()), 4)


def copy_diagnostics(h, twins, val):
    """For runs with copy rows: a function of the model giving, on fixed copy rows of the trained id range, of
    ids it never sees in copy rows, and of those ids with every span opening with a letter in one spacing and
    repeating with it in the other (the name case), the repeat accuracy and each layer's best previous-token
    and induction score (copy_rows.py). Whether a circuit learned on 500 ids copies other tokens is the
    question for names."""
    rng, gen = random.Random(99), torch.Generator().manual_seed(99)
    sets = {"trained_ids": (h["copy_ids"], 0.0), "other_ids": ((1000, 8800), 0.0), "other_swapped": ((1000, 8800), 1.0)}
    rows = {k: copy_rows(rng, gen, 8, h["copy_seq"], lo, hi, h["copy_span_max"], h["copy_gap_max"], twins=twins,
                         twin_share=share, swap_share=1.0)
            for k, ((lo, hi), share) in sets.items()}

    letters = torch.tensor(sorted({t for pair in twins for t in pair}))
    # Far rows (far_copy_rows, 1,024 tokens, other ids, a third of the spans swapping a letter's spacing): repeat
    # accuracy by how far back the source is — names in the corpus repeat hundreds of tokens back.
    f_ids, f_mask, _, f_dist = far_copy_rows(rng, gen, 8, 1024, 1000, 8800, h["copy_span_max"], near_share=0.2,
                                             twins=twins, twin_share=0.33, swap_share=1.0)
    far_bands = {"le60": (1, 60), "61_400": (61, 400), "gt400": (401, 10 ** 6)}
    # Text rows (text_copy_rows on validation sequences, other ids): repeat accuracy inside real text.
    t_rows = text_copy_rows(rng, gen, val, 4096, 1000, 8800, h["copy_span_max"], twins=twins, twin_share=0.33,
                            swap_share=1.0)

    def measure(model):
        out = {"far": {k: round(copy_accuracy(model, f_ids, f_mask & (f_dist >= a) & (f_dist <= b)), 3)
                       for k, (a, b) in far_bands.items()},
               "text": round(sum(copy_accuracy(model, i[None], m[None]) * int(m.sum()) for i, m in t_rows)
                             / max(1, sum(int(m.sum()) for _, m in t_rows)), 3)}
        for k, (ids, mask, copy_row) in rows.items():
            prev, ind = attention_scores(model, ids, mask, copy_row)
            out[k] = {"acc": round(copy_accuracy(model, ids, mask), 3), "prev_token": [round(float(x), 2) for x in prev],
                      "induction": [round(float(x), 2) for x in ind]}
            if k == "other_swapped":  # the token after the letter: predictable only by matching " Z" with "Z"
                after = mask.clone()
                after[:, 1:] &= torch.isin(ids[:, :-1], letters)
                after[:, 0] = False
                out[k]["acc_after_letter"] = round(copy_accuracy(model, ids, after), 3)
        return out
    return measure


def arg_weight_mask(arg_masks, idx, shape):
    """[rows, T-1] float: 1 where the target token (ids[:, 1:]) is an argument value (arg_values.py), as collate
    lays the rows out."""
    out = torch.zeros(shape)
    for r, i in enumerate(idx):
        m = torch.from_numpy(arg_masks[i][1:].astype(np.float32))
        out[r, :len(m)] = m
    return out


def inline_batch(train, idx, arg_masks, pad_id, rng, gen, h, twins):
    """A corpus batch with inline copies (HYPER copy_inline_*): ids and padding mask [rows, T], and per target
    (ids[:, 1:]) the language-model weight (1, or arg_weight on an argument value; 0 on inserted tokens and padding)
    and the repeat flag (1 on a second copy's tokens after its first)."""
    rows = []
    for i in idx:
        x, orig, rep = inline_copies(rng, gen, train[i][0], *h["copy_ids"], h["copy_inline_span"],
                                     every=h["copy_inline_every"], near_share=h["copy_inline_near"], twins=twins,
                                     twin_share=h["copy_twins"])
        w = (orig >= 0).float()
        if arg_masks is not None:
            on_arg = torch.from_numpy(arg_masks[i].astype(np.float32))[orig.clamp(min=0)] * w
            w = w + (h["arg_weight"] - 1.0) * on_arg
        rows.append((x, w, rep.float()))
    ids, mask = collate([(x.numpy(),) for x, _, _ in rows], range(len(rows)), pad_id)
    w_text, w_rep = torch.zeros((len(rows), ids.shape[1] - 1)), torch.zeros((len(rows), ids.shape[1] - 1))
    for r, (x, w, rep) in enumerate(rows):
        w_text[r, :len(x) - 1] = w[1:]
        w_rep[r, :len(x) - 1] = rep[1:]
    return ids, mask, w_text, w_rep


# HYPER entries added after runs whose logs and states are kept, with the value that reproduces those runs: a
# saved HYPER without them is read as having them so (run 8's finished runs and p9c's states stay valid).
ADDED_LATER = dict(copy_far_tokens=0, copy_far_seq=1024, copy_far_near=0.2, copy_text_tokens=0, copy_text_every=32,
                   copy_text_max=1024, arg_close=False, copy_inline_every=0, copy_inline_span=8, copy_inline_near=0.5,
                   copy_inline_weight=1.0)


def with_added(saved):
    return {**ADDED_LATER, **saved}


def finished_hyper(path):
    """The HYPER of the run whose train_log.json this is, as JSON (compare with as_json(h)); None unless the run
    ran all its steps (a --stop-at run did not)."""
    with open(path) as f:
        log = json.load(f)
    return with_added(log["hyper"]) if log.get("finished") else None


def as_json(x):
    """x as JSON gives it back: tuples become lists, as in train_log.json."""
    return json.loads(json.dumps(x))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", required=True)
    ap.add_argument("--seed-sink", action="store_true")
    ap.add_argument("--steps", type=int, default=None, help="override, for probes")
    ap.add_argument("--stop-at", type=int, default=None, help="stop early (schedule unchanged), for pilots")
    ap.add_argument("--weight-decay", type=float, default=None, help="override, for probes")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (the pipeline: 1 per run, 2 runs)")
    ap.add_argument("--set", nargs="+", default=[], metavar="KEY=JSON", help="override HYPER entries, for pilots")
    # The copy-only phase is the same for both models (the sink loss only acts on corpus steps), so the pipeline
    # trains it once, on both cores, and both models go on from its end (run.sh).
    ap.add_argument("--copy-phase-only", action="store_true", help="stop where the corpus would start; save copy_phase.pt")
    ap.add_argument("--from-copy-phase", default=None, metavar="PT", help="go on from a --copy-phase-only run's copy_phase.pt")
    ap.add_argument("--warm-start", default=None, metavar="PT", help="start from these weights (a model.pt or state.pt), fresh optimizer and schedule, for pilots")
    # A 2-core pipeline outlasts some working sessions: with --resume the run saves its whole state every 100 steps
    # (state.pt) and, started again, goes on from there; a finished run (model.pt, same HYPER) is not redone.
    ap.add_argument("--resume", action="store_true", help="save state.pt every 100 steps; go on from it if present")
    args = ap.parse_args()
    h = dict(HYPER)
    for kv in args.set:
        key, value = kv.split("=", 1)
        if key not in h:
            raise SystemExit(f"--set: no HYPER entry {key!r}")
        h[key] = json.loads(value)
    if args.steps:
        h["steps"] = args.steps
    if args.weight_decay is not None:
        h["weight_decay"] = args.weight_decay
    torch.manual_seed(h["seed"])
    random.seed(h["seed"])
    np.random.seed(h["seed"])
    torch.set_num_threads(args.threads)
    # Flush denormal floats to zero (FTZ/DAZ): once the seeded sink parks ~0.96 of the last layer's attention on
    # position 0, the other probabilities and their gradients fall into the denormal range, and x86 handles those
    # in microcode: sink steps ran 2-3x slower (training/README item 11, denormal_speed.py). Values under 1.2e-38
    # become 0; nothing the metrics or the exported fp16 weights can show.
    torch.set_flush_denormal(True)

    vocab = load_json("vocab.json")
    pad_id = vocab["special"]["<|endoftext|>"]
    cfg = Config(vocab_size=vocab["vocab_size"])
    model = Qwen3(cfg)
    train = load_split("train")
    arg_masks = None
    if h["arg_weight"] != 1.0:
        values = ArgValues(Vocab.load(), with_close=h["arg_close"])
        arg_masks = [values.mask(x) for x, _ in train]
    bos = vocab["special"]["<|im_start|>"]
    val = load_split("val")
    probe_ids = induction_rows(val, bos)
    swap = letter_swap_table(vocab)
    copy_rng, copy_gen = random.Random(h["seed"] + 2), torch.Generator().manual_seed(h["seed"] + 2)
    far_rng, far_gen = random.Random(h["seed"] + 3), torch.Generator().manual_seed(h["seed"] + 3)
    text_rng, text_gen = random.Random(h["seed"] + 4), torch.Generator().manual_seed(h["seed"] + 4)
    inline_rng, inline_gen = random.Random(h["seed"] + 5), torch.Generator().manual_seed(h["seed"] + 5)
    twins = sorted((a, b) for a, b in swap.items() if a < b)
    copy_diag = copy_diagnostics(h, twins, val) if h["copy_rows_tokens"] or h["copy_inline_every"] else None
    opt = optimizer(model, h)
    out_dir = os.path.join(RUNS, args.name)
    os.makedirs(out_dir, exist_ok=True)
    rng = random.Random(h["seed"])
    queue = []
    log = {"name": args.name, "hyper": h, "config": cfg.__dict__, "parameters": model.num_parameters(), "steps": []}
    print(f"{args.name}: {model.num_parameters()} parameters, {len(train)} sequences", flush=True)
    tokens_seen = 0
    drill_rng = random.Random(h["seed"] + 1)
    copy_end = h["copy_only_steps"]  # first step of the corpus; copy_only_until may bring it forward
    # Whether the copy diagnostics have reached copy_only_until. Until then corpus steps keep copy_rows_tokens of
    # copy rows (the phase ended at its cap without a circuit: run 7's first pipeline run, training/README).
    formed = h["copy_only_until"] is None
    start, before = 0, 0.0
    if args.copy_phase_only and not (h["copy_rows_tokens"] and h["copy_only_steps"]):
        raise SystemExit("--copy-phase-only: this recipe has no copy-only phase")
    state_path = os.path.join(out_dir, "state.pt")
    if args.resume:
        done = os.path.join(out_dir, "copy_phase.pt" if args.copy_phase_only else "train_log.json")
        if os.path.exists(done) and as_json(with_added(torch.load(done)["hyper"]) if args.copy_phase_only else finished_hyper(done)) == as_json(h):
            print(f"{args.name}: already trained ({done})", flush=True)
            return

    def snapshot(next_step):
        """Everything the loop carries, so that going on from it gives the same run (training/README)."""
        return {"model": model.state_dict(), "opt": opt.state_dict(), "step": next_step, "copy_end": copy_end, "formed": formed,
                "hyper": h, "seed_sink": args.seed_sink, "rng": rng.getstate(), "drill_rng": drill_rng.getstate(),
                "copy_rng": copy_rng.getstate(), "copy_gen": copy_gen.get_state(),
                "far_rng": far_rng.getstate(), "far_gen": far_gen.get_state(),
                "text_rng": text_rng.getstate(), "text_gen": text_gen.get_state(),
                "inline_rng": inline_rng.getstate(), "inline_gen": inline_gen.get_state(), "torch_rng": torch.get_rng_state(),
                "queue": queue, "tokens_seen": tokens_seen, "log": log, "seconds": round(before + time.time() - t0, 1)}

    def restore(path):
        snap = torch.load(path)
        if with_added(snap["hyper"]) != h:
            raise SystemExit(f"{path} was trained with other HYPER settings")
        model.load_state_dict(snap["model"])
        opt.load_state_dict(snap["opt"])
        rng.setstate(snap["rng"])
        drill_rng.setstate(snap["drill_rng"])
        copy_rng.setstate(snap["copy_rng"])
        copy_gen.set_state(snap["copy_gen"])
        if "far_rng" in snap:  # states saved before far rows existed have none (and drew none)
            far_rng.setstate(snap["far_rng"])
            far_gen.set_state(snap["far_gen"])
        if "text_rng" in snap:
            text_rng.setstate(snap["text_rng"])
            text_gen.set_state(snap["text_gen"])
        if "inline_rng" in snap:
            inline_rng.setstate(snap["inline_rng"])
            inline_gen.set_state(snap["inline_gen"])
        torch.set_rng_state(snap["torch_rng"])
        return snap

    if args.resume and os.path.exists(state_path):
        snap = restore(state_path)
        if snap["seed_sink"] != args.seed_sink:
            raise SystemExit(f"{state_path} is from a run with{'' if snap['seed_sink'] else 'out'} --seed-sink")
        start, copy_end, queue, tokens_seen = snap["step"], snap["copy_end"], snap["queue"], snap["tokens_seen"]
        formed = snap.get("formed", copy_end < h["copy_only_steps"])
        log, before = snap["log"], snap["seconds"]
        print(f"resuming at step {start} ({before:.0f} s so far)", flush=True)
    elif args.warm_start:
        w = torch.load(args.warm_start)
        model.load_state_dict(w["model"] if "model" in w else w)
        log["warm_start"] = os.path.abspath(args.warm_start)
        print(f"weights from {args.warm_start}; optimizer and schedule fresh", flush=True)
    elif args.from_copy_phase:
        snap = restore(args.from_copy_phase)
        start = copy_end = snap["copy_end"]
        formed = snap.get("formed", copy_end < h["copy_only_steps"])  # a phase that ended early had formed
        before = snap["seconds"]
        log["steps"] = snap["log"]["steps"]
        log["copy_phase"] = {"from": os.path.basename(os.path.dirname(os.path.abspath(args.from_copy_phase))),
                             "steps": copy_end, "seconds": before}
        print(f"going on from the copy phase ({copy_end} steps, {before:.0f} s)", flush=True)
    t0 = time.time()
    for step in range(start, args.stop_at or h["steps"]):
        if args.copy_phase_only and step >= copy_end:
            torch.save(snapshot(step), os.path.join(out_dir, "copy_phase.pt"))
            print(f"copy phase done: {copy_end} steps, {before + time.time() - t0:.0f} s", flush=True)
            return
        for g in opt.param_groups:
            g["lr"] = lr_at(step, h) * g.get("lr_scale", 1.0)
        lm, loss, sink_mean, drill, arg_loss, inline_loss = None, 0.0, None, False, None, None
        if step >= copy_end:
            share = h["drill_share_early"] if step < h["drill_early_steps"] else h["drill_share_late"]
            drill = drill_rng.random() < share
            if drill:
                ids, mask = drill_batch(train, drill_rng, h, bos, swap)
            else:
                if not queue:
                    queue = batches(train, h["token_budget"], rng)
                batch_idx = queue.pop()
                if h["copy_inline_every"]:
                    ids, mask, w_text, w_rep = inline_batch(train, batch_idx, arg_masks, pad_id, inline_rng,
                                                            inline_gen, h, twins)
                else:
                    ids, mask = collate(train, batch_idx, pad_id)
            # The first sink_fraction of the corpus steps (copy-only steps have no language-model loss to seed in).
            seed_sink = args.seed_sink and step < copy_end + (h["steps"] - copy_end) * h["sink_fraction"]
            # The sink loss reads only the last layer's attention to position 0 (sink_col: chunked, as fast as a
            # step without it; the full matrices took ~20 % longer per step).
            logits, attns, _ = model(ids, pad_mask=mask, sink_col=seed_sink)
            tgt = ids[:, 1:].masked_fill(~mask[:, 1:], -100)
            if h["copy_inline_every"] and not drill:
                ce = F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1),
                                     reduction="none").view(w_text.shape)
                is_text = w_text > 0
                n_tgt = is_text.sum()
                lm = (ce * is_text).sum() / n_tgt  # the language-model loss on the corpus's own tokens
                loss = (ce * (w_text + h["copy_inline_weight"] * w_rep)).sum() / n_tgt
                inline_loss = float((ce * w_rep).sum() / w_rep.sum().clamp(min=1))
                on_arg = w_text > 1.0
                if on_arg.any():
                    arg_loss = float((ce * on_arg).sum() / on_arg.sum())
            elif arg_masks is not None and not drill:
                ce = F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), tgt.reshape(-1), ignore_index=-100,
                                     reduction="none").view(tgt.shape)  # 0 at padding
                n_tgt = mask[:, 1:].sum()
                lm = ce.sum() / n_tgt
                on_arg = arg_weight_mask(arg_masks, batch_idx, tgt.shape)
                loss = (ce * (1.0 + (h["arg_weight"] - 1.0) * on_arg)).sum() / n_tgt
                if on_arg.sum():
                    arg_loss = float((ce * on_arg).sum() / on_arg.sum())
            else:
                lm = F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), tgt.reshape(-1), ignore_index=-100)
                loss = lm
            if seed_sink:
                s_loss, sink_mean = sink_loss(attns[-1], mask, h)
                loss = loss + h["sink_weight"] * s_loss
            # corpus tokens (not the inserted copies): every text token is a target but each row's first
            tokens_seen += int(mask.sum()) if inline_loss is None else int(n_tgt) + len(batch_idx)
        copy_loss = None
        n_copy = h["copy_rows_tokens"]
        if n_copy and step >= copy_end and formed and h["copy_rows_tokens_late"] is not None:
            n_copy = h["copy_rows_tokens_late"]
        if n_copy:
            c_ids, c_mask, _ = copy_rows(copy_rng, copy_gen, n_copy // h["copy_seq"], h["copy_seq"],
                                         *h["copy_ids"], h["copy_span_max"], h["copy_gap_max"], twins=twins,
                                         twin_share=h["copy_twins"])
            copy_loss = F.cross_entropy(*repeat_logits(model, c_ids, c_mask))
            loss = loss + h["copy_weight"] * copy_loss
        far_loss = None
        if h["copy_far_tokens"]:
            f_ids, f_mask, _, _ = far_copy_rows(far_rng, far_gen, max(1, h["copy_far_tokens"] // h["copy_far_seq"]),
                                                h["copy_far_seq"], *h["copy_ids"], h["copy_span_max"],
                                                near_share=h["copy_far_near"], twins=twins, twin_share=h["copy_twins"])
            far_loss = F.cross_entropy(*repeat_logits(model, f_ids, f_mask))
            loss = loss + h["copy_weight"] * far_loss
        text_loss = None
        if h["copy_text_tokens"]:
            t_sum, t_n = 0.0, 0
            for t_ids, t_mask in text_copy_rows(text_rng, text_gen, train, h["copy_text_tokens"], *h["copy_ids"],
                                                h["copy_span_max"], every=h["copy_text_every"],
                                                max_len=h["copy_text_max"], twins=twins, twin_share=h["copy_twins"]):
                t_sum = t_sum + F.cross_entropy(*repeat_logits(model, t_ids[None], t_mask[None]), reduction="sum")
                t_n += int(t_mask.sum())
            text_loss = t_sum / max(1, t_n)
            loss = loss + h["copy_weight"] * text_loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), h["grad_clip"])
        opt.step()
        if step % 10 == 0 or step == h["steps"] - 1:
            el = before + time.time() - t0
            rec = {"step": step, "drill": drill, "loss": None if lm is None else round(lm.item(), 4), "lr": round(lr_at(step, h), 6), "tokens": tokens_seen, "seconds": round(el, 1)}
            if arg_loss is not None:  # this batch's loss on argument values (arg_values.py)
                rec["arg_loss"] = round(arg_loss, 4)
            if sink_mean is not None:
                rec["sink_mean"] = round(float(sink_mean), 4)
            if copy_loss is not None:
                rec["copy_loss"] = round(copy_loss.item(), 4)
                rec["copy_tokens"] = n_copy
            if far_loss is not None:
                rec["far_loss"] = round(far_loss.item(), 4)
            if text_loss is not None:
                rec["text_loss"] = round(float(text_loss), 4)
            if inline_loss is not None:
                rec["inline_loss"] = round(inline_loss, 4)
            log["steps"].append(rec)
            print(json.dumps(rec), f"{tokens_seen / el:.0f} corpus tok/s", flush=True)
        if step % 50 == 49:
            model.eval()
            rec = {"step": step, "induction": induction_probe(model, probe_ids)}
            # Every 100 steps where copy rows need it (copy_only_until), else every 300 (~25 s each on one core).
            if copy_diag and step % (100 if h["copy_rows_tokens"] else 300) == 99:
                rec.update(copy_diag(model))
                until = h["copy_only_until"]
                if not formed and rec["other_swapped"]["acc"] >= until:
                    formed = True
                    rec["copy_formed"] = log["copy_formed"] = step + 1
                    if step + 1 < copy_end:
                        copy_end = step + 1
                        rec["copy_only_ended"] = log["copy_only_ended"] = copy_end
            model.train()
            log["steps"].append(rec)
            print(json.dumps(rec), flush=True)
        if step % 100 == 99:  # a checkpoint to inspect while training runs on
            torch.save(model.state_dict(), os.path.join(out_dir, "model.partial.pt"))
            if args.resume:  # written beside, then renamed: a run killed while saving keeps the last state
                torch.save(snapshot(step + 1), state_path + ".tmp")
                os.replace(state_path + ".tmp", state_path)
    log["train_seconds"] = round(before + time.time() - t0, 1)  # with the shared copy phase's time
    log["tokens_seen"] = tokens_seen
    log["finished"] = not args.stop_at or args.stop_at >= h["steps"]
    torch.save(model.state_dict(), os.path.join(out_dir, "model.pt"))
    with open(os.path.join(out_dir, "train_log.json"), "w") as f:
        json.dump(log, f, indent=1)
    print(f"done: {log['train_seconds']} s, {tokens_seen} tokens", flush=True)


if __name__ == "__main__":
    main()
