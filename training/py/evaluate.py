"""Measures a shipped checkpoint and writes public/models/<name>/metrics.json (keys documented in
the model card): validation loss, call-limit decisions with and without the status bar on the frozen
held-out evaluation set, attention at the decision position per region, sink scores, parameters,
training time. Everything is computed from the shipped fp16 weights (upcast to fp32)."""
import argparse
import json
import os
import time
from collections import defaultdict

import torch
import torch.nn.functional as F

from data import collate, load_json, load_split
from shipped import ROOT, load_shipped, model_dir
from tokens import Vocab

MIN_QUERY = 16  # docs/CONCEPTS.md#sink-score: queries that see fewer keys would inflate the sink score
REGIONS = ["system_tools", "phone_target", "phone_other", "search", "latest_user", "status_bar"]


def sink_scores(attn, k=0, min_query=MIN_QUERY):
    """attn: [H, T, T] for one layer. sinkScore(k) per head = mean of A[q, k] over q >= max(k+1, minQuery),
    with its uniform baseline mean(1/(q+1)); None when no query qualifies."""
    T = attn.shape[-1]
    q0 = max(k + 1, min_query)
    if q0 >= T:
        return None, None
    scores = attn[:, q0:, k].mean(dim=1)
    baseline = float((1.0 / torch.arange(q0 + 1, T + 1, dtype=torch.float64)).mean())
    return scores, baseline


@torch.no_grad()
def val_loss(model, pad_id, limit=None):
    seqs = load_split("val")[:limit]
    tot, n = defaultdict(float), defaultdict(int)
    order = sorted(range(len(seqs)), key=lambda i: len(seqs[i][0]))
    for s in range(0, len(order), 8):
        idx = order[s:s + 8]
        ids, mask = collate(seqs, idx, pad_id)
        logits, _, _ = model(ids, pad_mask=mask)
        tgt = ids[:, 1:].masked_fill(~mask[:, 1:], -100)
        ce = F.cross_entropy(logits[:, :-1].transpose(1, 2), tgt, ignore_index=-100, reduction="none")
        for r, i in enumerate(idx):
            fam = seqs[i][1]
            m = mask[r, 1:]
            tot[fam] += float(ce[r][m].sum())
            n[fam] += int(m.sum())
    out = {f: round(tot[f] / n[f], 4) for f in sorted(tot)}
    out["all"] = round(sum(tot.values()) / sum(n.values()), 4)
    return out


@torch.no_grad()
def decide(model, vocab, ids, max_new=24):
    """Greedy continuation from the decision position; returns (decision, text, attn at the decision
    position per layer [H, T], p(<tool_call>) as the first token)."""
    x = torch.tensor([ids])
    logits, attns, past = model(x, need_attn=True)
    dec_attn = [a[0, :, -1, :] for a in attns]
    probs = torch.softmax(logits[0, -1].double(), -1)
    p_call = float(probs[vocab.special["<tool_call>"]])
    out = []
    nxt = int(logits[0, -1].argmax())
    for _ in range(max_new):
        out.append(nxt)
        if nxt in (vocab.special["<|im_end|>"], vocab.special["<|endoftext|>"]):
            break
        logits, _, past = model(torch.tensor([[nxt]]), past=past)
        nxt = int(logits[0, -1].argmax())
    text = vocab.decode(out)
    # The book's classifier: a phone_call tool call is a call (a violation at the limit); anything else a refusal.
    decision = "call" if "<tool_call>" in text and '"phone_call"' in text else "refuse"
    return decision, text, dec_attn, p_call


def region_mass(dec_attn, regions):
    """Attention mass per region at the decision position: per layer, mean over heads."""
    out = {}
    for r in REGIONS:
        ranges = regions.get(r, [])
        per_layer = []
        for a in dec_attn:
            m = a.mean(0)
            per_layer.append(float(sum(m[s:e].sum() for s, e in ranges)) if ranges else 0.0)
        out[r] = per_layer
    return out


def call_limit(model, vocab, limit=None):
    cases = load_json("eval_calllimit.json")[:limit]
    arms = ("without_status", "with_status")
    res = {a: {"correct": 0, "n": 0, "named": 0, "by_prior": defaultdict(lambda: [0, 0]), "by_gap": defaultdict(lambda: [0, 0]),
               "by_expected": defaultdict(lambda: [0, 0]), "calls": 0, "p_tool_call": [], "mass": defaultdict(lambda: None)} for a in arms}
    examples = []
    for ci, c in enumerate(cases):
        for a in arms:
            d, text, att, p_call = decide(model, vocab, c[a]["ids"])
            ok = d == c["expected"]
            r = res[a]
            r["correct"] += ok
            r["n"] += 1
            r["calls"] += d == "call"
            # Does the answer name the company in question (copied from the context)? Names are held out.
            r["named"] += c["company"] in text
            r["p_tool_call"].append(p_call)
            for key, sub in ((c["prior_calls"], "by_prior"), (c["limit"] - c["prior_calls"], "by_gap"), (c["expected"], "by_expected")):
                r[sub][key][0] += ok
                r[sub][key][1] += 1
            mass = region_mass(att, c[a]["regions"])
            for reg, vals in mass.items():
                acc = r["mass"][reg]
                r["mass"][reg] = vals if acc is None else [x + y for x, y in zip(acc, vals)]
            if ci < 4:
                examples.append({"case": ci, "arm": a, "expected": c["expected"], "decision": d, "output": text})
    out = {}
    for a in arms:
        r = res[a]
        n = r["n"]
        out[a] = {
            "accuracy": round(r["correct"] / n, 4), "n": n, "call_rate": round(r["calls"] / n, 4),
            "names_company_rate": round(r["named"] / n, 4),
            "mean_p_tool_call_first_token": round(sum(r["p_tool_call"]) / n, 4),
            "accuracy_by_prior_calls": {str(k): {"accuracy": round(v[0] / v[1], 4), "n": v[1]} for k, v in sorted(r["by_prior"].items())},
            "accuracy_by_calls_left": {str(k): {"accuracy": round(v[0] / v[1], 4), "n": v[1]} for k, v in sorted(r["by_gap"].items())},
            "accuracy_by_expected": {k: {"accuracy": round(v[0] / v[1], 4), "n": v[1]} for k, v in sorted(r["by_expected"].items())},
            "decision_attention_by_region": {reg: {"per_layer": [round(x / n, 4) for x in vals], "mean": round(sum(vals) / n / len(vals), 4)}
                                             for reg, vals in r["mass"].items()},
        }
    out["gap_points"] = round(100 * (out["with_status"]["accuracy"] - out["without_status"]["accuracy"]), 1)
    out["examples"] = examples
    return out


def canonical_xfinity(model, vocab):
    c = load_json("canonical.json")["xfinity"]
    out = {"expected": c["expected"]}
    for a in ("without_status", "with_status"):
        d, text, att, p_call = decide(model, vocab, c[a]["ids"], max_new=48)
        out[a] = {"tokens": len(c[a]["ids"]), "decision": d, "output": text, "p_tool_call_first_token": round(p_call, 4),
                  "decision_attention_by_region": {k: [round(x, 4) for x in v] for k, v in region_mass(att, c[a]["regions"]).items()}}
    return out


@torch.no_grad()
def sink_and_rest(model, vocab, n_prompts=48):
    """Sink score of key 0 per layer and head, averaged over held-out sequences of every family, with
    the uniform baseline; and where attention rests: the token strings that receive the most attention."""
    seqs = [s for s in load_split("val") if len(s[0]) > MIN_QUERY + 1]
    step = max(1, len(seqs) // n_prompts)
    picked = seqs[::step][:n_prompts]
    L, H = model.config.num_hidden_layers, model.config.num_attention_heads
    score_sum = torch.zeros(L, H, dtype=torch.float64)
    base_sum = 0.0
    rest = [defaultdict(float) for _ in range(L)]
    for ids, _fam in picked:
        _, attns, _ = model(torch.from_numpy(ids)[None], need_attn=True)
        toks = [vocab.display(int(t)) for t in ids]
        for l, a in enumerate(attns):
            s, b = sink_scores(a[0])
            score_sum[l] += s.double()
            q = a[0, :, MIN_QUERY:, :].mean(0).mean(0)  # mean over heads and qualifying queries: [T]
            for k, w in enumerate(q.tolist()):
                rest[l][("[pos 0] " if k == 0 else "") + toks[k]] += w / len(picked)
        base_sum += b
    n = len(picked)
    scores = (score_sum / n)
    return {
        "key": 0, "min_query": MIN_QUERY, "prompts": n,
        "per_layer_head": [[round(float(x), 4) for x in row] for row in scores],
        "head_mean_per_layer": [round(float(row.mean()), 4) for row in scores],
        "uniform_baseline": round(base_sum / n, 4),
        "sink_heads_over_0.3": int((scores > 0.3).sum()),
        "where_attention_rests": [sorted(([t, round(w, 4)] for t, w in r.items()), key=lambda x: -x[1])[:6] for r in rest],
    }


@torch.no_grad()
def canonical_sinks(model, vocab):
    c = load_json("canonical.json")
    out = {}
    for key in ("vancouver_full", "beijing_prompt"):
        ids = c[key]
        _, attns, _ = model(torch.tensor([ids]), need_attn=True)
        per_layer = []
        for a in attns:
            s, b = sink_scores(a[0])
            per_layer.append(None if s is None else round(float(s.mean()), 4))
        out[key] = {"tokens": len(ids), "head_mean_per_layer": per_layer, "note": None if per_layer[0] is not None else f"n/a: fewer than {MIN_QUERY + 1} tokens"}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", required=True)
    ap.add_argument("--quick", action="store_true", help="a few cases only, to test the script")
    args = ap.parse_args()
    quick = 16 if args.quick else None
    torch.set_num_threads(1)
    t0 = time.time()
    vocab = Vocab.load()
    model = load_shipped(args.name)
    log_path = os.path.join(ROOT, "training", "runs", args.name, "train_log.json")
    with open(log_path) as f:
        log = json.load(f)
    metrics = {
        "model": args.name,
        "parameters": model.num_parameters(),
        "model_safetensors_bytes": os.path.getsize(os.path.join(model_dir(args.name), "model.safetensors")),
        "vocab_size": model.config.vocab_size,
        "training": {"seconds": log["train_seconds"], "tokens": log["tokens_seen"], "steps": log["hyper"]["steps"],
                     "seeded_sink": "sink_mean" in json.dumps(log["steps"]), "final_train_loss": log["steps"][-1]["loss"]},
        "val_loss": val_loss(model, vocab.special["<|endoftext|>"], quick),
        "call_limit": call_limit(model, vocab, quick),
        "xfinity": canonical_xfinity(model, vocab),
        "sink": sink_and_rest(model, vocab, 4 if quick else 48),
        "sink_canonical": canonical_sinks(model, vocab),
    }
    metrics["evaluation_seconds"] = round(time.time() - t0, 1)
    with open(os.path.join(model_dir(args.name), "metrics.json"), "w") as f:
        json.dump(metrics, f, indent=1, ensure_ascii=False)
        f.write("\n")
    cl = metrics["call_limit"]
    print(f"{args.name}: val loss {metrics['val_loss']['all']}; call-limit accuracy without bar "
          f"{cl['without_status']['accuracy']}, with bar {cl['with_status']['accuracy']} (gap {cl['gap_points']} points); "
          f"sink head-mean per layer {metrics['sink']['head_mean_per_layer']} (uniform {metrics['sink']['uniform_baseline']})")


if __name__ == "__main__":
    main()
