"""Measures a shipped checkpoint and writes public/models/<name>/metrics.json (keys documented in
the model card): validation loss, call-limit decisions with and without the status bar on the frozen
held-out evaluation set, attention at the decision position per region, sink scores, parameters,
training time. Everything is computed from the shipped fp16 weights (upcast to fp32)."""
import argparse
import json
import os
import re
import time
from collections import defaultdict

import torch
import torch.nn.functional as F

from arg_values import ArgValues
from copy_circuit import copy_circuit
from data import collate, load_json, load_split
from name_continuation import name_continuation, probe_controls
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
def greedy(model, vocab, ids, max_new, rows=False):
    """Greedy continuation. Returns (generated ids, attention of the last prompt position per layer [H, T],
    p(<tool_call>) as the first token, and with rows=True the attention rows of every generated position:
    rows[j][l] is [H, P + j + 1], the query at generated token j)."""
    logits, attns, past = model(torch.tensor([ids]), need_attn=True)
    dec_attn = [a[0, :, -1, :] for a in attns]
    probs = torch.softmax(logits[0, -1].double(), -1)
    p_call = float(probs[vocab.special["<tool_call>"]])
    out, att_rows = [], []
    nxt = int(logits[0, -1].argmax())
    for _ in range(max_new):
        out.append(nxt)
        if nxt in (vocab.special["<|im_end|>"], vocab.special["<|endoftext|>"]):
            break
        logits, a, past = model(torch.tensor([[nxt]]), past=past, need_attn=rows)
        if rows:
            att_rows.append([x[0, :, 0, :] for x in a])
        nxt = int(logits[0, -1].argmax())
    return out, dec_attn, p_call, att_rows


@torch.no_grad()
def decide(model, vocab, ids, max_new=24, heads=None, name=None):
    """Greedy continuation from the decision position; returns (decision, text, attn at the decision
    position per layer [H, T], p(<tool_call>) as the first token). With `heads` (a CopyHeads) and `name`,
    also records the copy-head read-out of this case."""
    out, dec_attn, p_call, rows = greedy(model, vocab, ids, max_new, rows=heads is not None)
    if heads is not None:
        heads.add(vocab, ids, out, dec_attn, rows, name)
    text = vocab.decode(out)
    # The book's classifier: a phone_call tool call is a call (a violation at the limit); anything else a refusal.
    decision = "call" if "<tool_call>" in text and '"phone_call"' in text else "refuse"
    return decision, text, dec_attn, p_call


def byte_starts(vocab, ids):
    starts = [0]
    for i in ids:
        starts.append(starts[-1] + len(vocab.token_bytes(int(i))))
    return starts


def token_at(starts, b):
    """Index of the token whose bytes contain byte offset b."""
    lo, hi = 0, len(starts) - 2
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= b:
            lo = mid
        else:
            hi = mid - 1
    return lo


class CopyHeads:
    """Copy heads (issue 18). For a greedy answer that contains the expected name, let g be its first
    generated token of the name and S the prompt tokens holding the first character of each occurrence of
    the name in the prompt. Per layer and head it accumulates
      emit:  attention from the position that *produces* g (the query just before g) to S, summed over S;
      token: attention from g itself (as the next query) to S, summed over S (the issue's literal wording).
    Averaged over the cases where the name was generated and occurs in the prompt."""

    def __init__(self, L, H):
        self.sum = {"emit": torch.zeros(L, H, dtype=torch.float64), "token": torch.zeros(L, H, dtype=torch.float64)}
        self.n = {"emit": 0, "token": 0}
        self.L, self.H = L, H

    def add(self, vocab, ids, out, dec_attn, rows, name):
        if not name:
            return
        nb = name.encode()
        prompt_bytes = b"".join(vocab.token_bytes(int(i)) for i in ids)
        gen_bytes = b"".join(vocab.token_bytes(int(i)) for i in out)
        at = gen_bytes.find(nb)
        src_off = [i for i in range(len(prompt_bytes)) if prompt_bytes.startswith(nb, i)]
        if at < 0 or not src_off:
            return
        ps, gs = byte_starts(vocab, ids), byte_starts(vocab, out)
        src = sorted({token_at(ps, b) for b in src_off})
        g = token_at(gs, at)
        emit = dec_attn if g == 0 else (rows[g - 1] if g - 1 < len(rows) else None)
        tok = rows[g] if g < len(rows) else None
        for key, att in (("emit", emit), ("token", tok)):
            if att is None:
                continue
            for l in range(self.L):
                self.sum[key][l] += att[l][:, src].double().sum(-1)
            self.n[key] += 1

    def result(self):
        out = {}
        for key in self.sum:
            n = self.n[key]
            m = self.sum[key] / max(n, 1)
            flat = int(m.argmax())
            out[key] = {"cases": n, "per_layer_head": [[round(float(x), 4) for x in row] for row in m],
                        "strongest": {"layer": flat // self.H, "head": flat % self.H, "attention": round(float(m.max()), 4)} if n else None}
        return out


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
    L, H = model.config.num_hidden_layers, model.config.num_attention_heads
    heads = CopyHeads(L, H)
    for ci, c in enumerate(cases):
        for a in arms:
            d, text, att, p_call = decide(model, vocab, c[a]["ids"], heads=heads, name=c["company"])
            ok = d == c["expected"]
            r = res[a]
            r["correct"] += ok
            r["n"] += 1
            r["calls"] += d == "call"
            # Does the answer name the company in question (copied from the context)? Names are held out.
            r["named"] += c["company"] in text
            if d == "call":
                r["tool_calls"] = r.get("tool_calls", 0) + 1
                r["tool_named"] = r.get("tool_named", 0) + (f'"company": "{c["company"]}"' in text)
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
            "tool_call_names_company_rate": round(r.get("tool_named", 0) / max(1, r.get("tool_calls", 0)), 4),
            "tool_calls": r.get("tool_calls", 0),
            "mean_p_tool_call_first_token": round(sum(r["p_tool_call"]) / n, 4),
            "accuracy_by_prior_calls": {str(k): {"accuracy": round(v[0] / v[1], 4), "n": v[1]} for k, v in sorted(r["by_prior"].items())},
            "accuracy_by_calls_left": {str(k): {"accuracy": round(v[0] / v[1], 4), "n": v[1]} for k, v in sorted(r["by_gap"].items())},
            "accuracy_by_expected": {k: {"accuracy": round(v[0] / v[1], 4), "n": v[1]} for k, v in sorted(r["by_expected"].items())},
            "decision_attention_by_region": {reg: {"per_layer": [round(x / n, 4) for x in vals], "mean": round(sum(vals) / n / len(vals), 4)}
                                             for reg, vals in r["mass"].items()},
        }
    out["gap_points"] = round(100 * (out["with_status"]["accuracy"] - out["without_status"]["accuracy"]), 1)
    out["examples"] = examples
    out["copy_heads"] = heads.result()
    return out


TOOL_ARG = {k: re.compile('"%s": "([^"]*)"' % k) for k in ("city", "timezone", "file_path", "company")}


def arg(text, key):
    m = TOOL_ARG[key].search(text.split("<tool_call>", 1)[1]) if "<tool_call>" in text else None
    return m.group(1) if m else None


def copy_eval(model, vocab, limit=None):
    """Held-out copy evaluation (issue 18): fresh names of the held-out partition (training/corpus/names.ts),
    greedy continuations. Weather: the get_weather call's city and the get_current_time call's timezone;
    files: the read_file call's path after a grep result; call-limit: the generated companies' decisions."""
    c = load_json("eval_copy.json")
    L, H = model.config.num_hidden_layers, model.config.num_attention_heads
    out = {"partition": c["partition"], "dropped_for_occurring_in_training_text": c["dropped_for_occurring_in_training_text"]}
    heads = CopyHeads(L, H)
    w = c["weather"][:limit]
    city_ok = tz_ok = tz_part = tz_n = 0
    ex = []
    for i, case in enumerate(w):
        ids, dec, _, rows = greedy(model, vocab, case["ids"], 200, rows=True)
        text = vocab.decode(ids)
        heads.add(vocab, case["ids"], ids, dec, rows, case["city"])
        city, tz = arg(text, "city"), arg(text, "timezone")
        city_ok += city == case["city"]
        tz_part += tz is not None and tz.endswith("/" + case["city"])
        if case["tz_given"]:
            tz_n += 1
            tz_ok += tz == case["timezone"]
        if i < 4:
            ex.append({"city": case["city"], "timezone": case["timezone"], "tz_given": case["tz_given"], "output": text[:600]})
    out["weather"] = {"n": len(w), "city_copy_rate": round(city_ok / max(1, len(w)), 4),
                      "timezone_copy_rate": round(tz_ok / max(1, tz_n), 4), "timezone_cases": tz_n,
                      "timezone_city_part_rate": round(tz_part / max(1, len(w)), 4), "examples": ex}
    f = c["files"][:limit]
    ok = 0
    ex = []
    for i, case in enumerate(f):
        ids, dec, _, rows = greedy(model, vocab, case["ids"], 60, rows=True)
        text = vocab.decode(ids)
        heads.add(vocab, case["ids"], ids, dec, rows, case["path"])
        ok += arg(text, "file_path") == case["path"]
        if i < 4:
            ex.append({"path": case["path"], "output": text[:300]})
    out["files"] = {"n": len(f), "file_copy_rate": round(ok / max(1, len(f)), 4), "examples": ex}
    cl = c["calllimit"][:limit]
    res = {}
    for a in ("without_status", "with_status"):
        acc = named = tool_n = tool_ok = 0
        for case in cl:
            d, text, _, _ = decide(model, vocab, case[a]["ids"], heads=heads, name=case["company"])
            acc += d == case["expected"]
            named += case["company"] in text
            if d == "call":
                tool_n += 1
                tool_ok += f'"company": "{case["company"]}"' in text
        res[a] = {"n": len(cl), "accuracy": round(acc / max(1, len(cl)), 4), "names_company_rate": round(named / max(1, len(cl)), 4),
                  "tool_call_names_company_rate": round(tool_ok / max(1, tool_n), 4), "tool_calls": tool_n}
    out["calllimit_generated"] = res
    out["copy_heads"] = heads.result()
    return out


def canonical_generations(model, vocab):
    """Greedy continuations of the app's scenarios: does the Vancouver tool call name Vancouver (and its
    timezone)? Does the Xfinity answer name Xfinity?"""
    c = load_json("canonical.json")
    out = {}
    for key, max_new in (("vancouver_thinking_prompt", 200), ("vancouver_prompt", 80)):
        ids, _, _, _ = greedy(model, vocab, c[key], max_new)
        text = vocab.decode(ids)
        out[key] = {"tokens": len(c[key]), "output": text, "city_arg": arg(text, "city"), "timezone_arg": arg(text, "timezone"),
                    "names_vancouver": arg(text, "city") == "Vancouver" or arg(text, "timezone") == "America/Vancouver"}
    for a in ("without_status", "with_status"):
        ids, _, _, _ = greedy(model, vocab, c["xfinity"][a]["ids"], 48)
        text = vocab.decode(ids)
        out["xfinity_" + a] = {"output": text, "names_xfinity": "Xfinity" in text}
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
def sink_by_length(model, n=24):
    """Head-mean sink score per layer at short prompts (the first 32 tokens of held-out sequences; causal,
    so the same as 32-token prompts) and at long ones (held-out sequences of >= 400 tokens)."""
    seqs = load_split("val")
    longs = [s for s, _ in seqs if len(s) >= 400]
    longs = longs[:: max(1, len(longs) // n)][:n]
    shorts = [s[:32] for s, _ in seqs if len(s) >= 32]
    shorts = shorts[:: max(1, len(shorts) // n)][:n]
    out = {}
    for key, group in (("short_32", shorts), ("long_400", longs)):
        acc = None
        for ids in group:
            _, attns, _ = model(torch.from_numpy(ids)[None], need_attn=True)
            v = torch.tensor([float(sink_scores(a[0])[0].mean()) for a in attns])
            acc = v if acc is None else acc + v
        out[key] = {"prompts": len(group), "mean_tokens": round(sum(len(g) for g in group) / max(1, len(group)), 1),
                    "head_mean_per_layer": [round(float(x) / len(group), 4) for x in acc]}
    return out


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


def arg_share(with_close=False):
    """The share of training-corpus tokens that are tool-call argument values (arg_values.py), to 4 digits."""
    values = ArgValues(Vocab.load(), with_close=with_close)
    seqs = load_split("train")
    return round(sum(int(values.mask(x).sum()) for x, _ in seqs) / sum(len(x) for x, _ in seqs), 4)


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
                     "token_budget": log["hyper"].get("token_budget", 8192),
                     "seeded_sink": "sink_mean" in json.dumps(log["steps"]), "final_train_loss": [s for s in log["steps"] if "loss" in s][-1]["loss"],
                     # the induction probe of train.py (top-1 on a repeated span's second copy), last reading;
                     # shuffled spans since 2026-12-03 (run 6's real-text spans measured language-model accuracy)
                     "induction_probe": ([s["induction"] for s in log["steps"] if "induction" in s] or [None])[-1],
                     # run 7 on: the shared copy-only phase ({from, steps, seconds}), the copy-row settings and the
                     # last copy diagnostics (train.copy_diagnostics: repeat accuracy, best previous-token and
                     # induction score per layer on trained ids, other ids, other ids with letters swapped)
                     "copy_phase": log.get("copy_phase"),
                     "copy_formed": log.get("copy_formed"),  # the step after the diagnostic reached copy_only_until
                     "copy_rows": {k: log["hyper"][k] for k in ("copy_rows_tokens", "copy_rows_tokens_late", "copy_only_steps",
                                                                "copy_only_until", "copy_ids", "copy_twins", "copy_seq")}
                     if log["hyper"].get("copy_rows_tokens") else None,
                     "copy_diagnostics": ([s for s in log["steps"] if "other_swapped" in s] or [None])[-1],
                     # run 8 on: the loss weight on tool-call argument values (train.py HYPER arg_weight; arg_values.py)
                     # and the share of corpus tokens it applies to
                     "arg_weight": log["hyper"].get("arg_weight", 1.0),
                     "arg_share": arg_share(log["hyper"].get("arg_close", False)) if log["hyper"].get("arg_weight", 1.0) != 1.0 else None,
                     "arg_close": log["hyper"].get("arg_close", False),
                     # item 10 on: random-id spans inserted twice into the corpus batches (train.py HYPER copy_inline_*)
                     "copy_inline": {k: log["hyper"][k] for k in ("copy_inline_every", "copy_inline_span",
                                                                  "copy_inline_near", "copy_inline_weight")}
                     if log["hyper"].get("copy_inline_every") else None},
        "val_loss": val_loss(model, vocab.special["<|endoftext|>"], quick),
        "call_limit": call_limit(model, vocab, quick),
        "xfinity": canonical_xfinity(model, vocab),
        "sink": sink_and_rest(model, vocab, 4 if quick else 48),
        "sink_canonical": canonical_sinks(model, vocab),
        "sink_by_length": sink_by_length(model, 4 if quick else 24),
        "copy": copy_eval(model, vocab, 4 if quick else None),
        "copy_circuit": copy_circuit(model),
        "name_continuation": name_continuation(model, vocab, 4 if quick else 40),
        "induction_controls": probe_controls(model, vocab.special["<|im_start|>"]),
        "canonical_generations": canonical_generations(model, vocab),
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
