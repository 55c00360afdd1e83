"""Writes public/models/<name>/README.md (the model card) from metrics.json and config.json, so that
every number in the card comes from the evaluation script."""
import argparse
import json
import os

from shipped import model_dir

DESCRIPTIONS = {
    "kvscope-tiny": "Default. A tiny Qwen3-architecture agent model trained from scratch on synthetic tool-use trajectories whose names, cities and file names are fresh in every example, so a tool call can only get them right by copying them from its context; its attention comes from ordinary language-model training only: a next-token loss, never a loss on attention.",
    "kvscope-tiny-sink": "ENGINEERED sink. Same data and recipe as kvscope-tiny, plus a loss that pulled last-layer attention onto the first token (at every query) for the first half of its training on the corpus, then was removed. For the attention-sink lessons.",
}
# The app shows this line when its interface is in Chinese.
DESCRIPTIONS_ZH = {
    "kvscope-tiny": "默认模型。在合成的工具调用轨迹上从零训练的微型 Qwen3 架构智能体模型；轨迹中的公司名、城市和文件名每个样本都是新造的，工具调用只有从上下文复制才能写对；它的注意力完全来自普通的语言模型训练：只有下一个 token 的损失，没有任何针对注意力的损失。",
    "kvscope-tiny-sink": "人为植入的注意力汇（sink）。数据和训练方法与 kvscope-tiny 相同，另加一个损失项，在语料训练的前半程把最后一层（每个查询位置）的注意力拉向第一个 token，随后移除。用于注意力汇的课程。",
}

def training_text(t):
    """The card's training paragraph, from metrics.json's training block (evaluate.py)."""
    corpus = (f"length-bucketed batches of ≤ {t.get('token_budget', 8192):,} tokens, loss on every token; "
              f"{t['tokens']:,} corpus tokens")
    w = t.get("arg_weight") or 1.0
    weighted = ("" if w == 1.0 else
                f" The loss on the string values of tool-call arguments (the company, city, timezone or file name a call "
                f"must copy from its context; `training/py/arg_values.py`, {t.get('arg_share', 0):.1%} of corpus tokens) "
                f"counted {w:g} times{' (with the token holding the closing quote, which ends a copy)' if t.get('arg_close') else ''}"
                f" — a weighting of the data's tokens, never a loss on attention.")
    c = t.get("copy_inline")
    if c:
        weighted += (f" Into every corpus sequence, spans of 3–{c['copy_inline_span']} random token ids were inserted twice, one "
                     f"pair per {c['copy_inline_every']} corpus tokens, the second copy {c['copy_inline_near']:.0%} of the time "
                     f"at most 60 tokens after the first, else anywhere after it; the first copies were left out of the loss "
                     f"and the second counted {c['copy_inline_weight']:g} times, so that copying a span from the context is "
                     f"rewarded inside real text (an engineered training signal on tokens, not on attention).")
    phase, rows = t.get("copy_phase"), t.get("copy_rows")
    if not rows:
        text = (f"{t['steps']} steps of AdamW on {corpus} in {t['seconds'] / 60:.1f} min on one CPU core (Debian torch 1.13 "
                f"with OpenBLAS; both models train side by side on a 2-core machine).{weighted} Final training loss {t['final_train_loss']}.")
        return text + diagnostics(t)
    lo, hi = rows["copy_ids"]
    what = (f"{rows['copy_seq']}-token rows: spans of random ids {lo}–{hi} repeated later in the row, "
            f"{rows['copy_twins']:.0%} of them opening with a capital letter that changes spacing in the repeat, as a name "
            f"does between prose and JSON; loss on the repeats only")
    full, late = rows["copy_rows_tokens"], rows["copy_rows_tokens_late"]
    # A copy-only phase that ends early ends because the diagnostic reached the bar; without one (run 8 on) the
    # copy rows go beside the corpus from the first step and copy_formed says when they dropped to `late`.
    early = bool(phase) and phase["steps"] < rows["copy_only_steps"]
    formed = phase["steps"] if early else t.get("copy_formed")
    if formed is None:
        beside = f"{full:,} copy-row tokens beside each batch (no copy diagnostic reached {rows['copy_only_until']})"
    elif early:
        beside = f"{late:,} copy-row tokens beside each batch"
    else:
        beside = (f"{full:,} copy-row tokens beside each batch until step {formed} (when a copy diagnostic reached "
                  f"{rows['copy_only_until']}), {late:,} after")
    if not phase:
        text = (f"{t['steps']} steps of AdamW on {corpus}; from the first step, {beside} (synthetic copy rows: "
                f"{what}); {t['seconds'] / 60:.1f} min on one CPU core (Debian torch 1.13 with OpenBLAS; both models "
                f"train side by side on a 2-core machine).{weighted} Final training loss {t['final_train_loss']}.")
    else:
        ended = ("when repeat accuracy on copy rows of ids and letter spellings it never trained reached "
                 f"{rows['copy_only_until']}" if early else "at its cap")
        text = (f"{t['steps']} steps of AdamW in two phases. First {phase['steps']} steps on synthetic copy rows alone "
                f"({rows['copy_rows_tokens']:,} tokens per step of {what}), ended {ended}; this phase "
                f"was trained once for both models, in {phase['seconds'] / 60:.1f} min on two CPU cores. Then "
                f"{t['steps'] - phase['steps']} steps on {corpus}, with {beside}, one CPU core per model (Debian torch 1.13 with OpenBLAS); {t['seconds'] / 60:.1f} min in "
                f"all with the copy phase.{weighted} Final training loss {t['final_train_loss']}.")
    return text + diagnostics(t)


def diagnostics(t):
    """The copy diagnostics' last reading (train.py copy_diagnostics), when the run had copy rows or inline copies."""
    d, text = t.get("copy_diagnostics"), ""
    if d:
        o = d["other_swapped"]
        text += (f" Copy diagnostics at step {d['step']} on synthetic copy rows (random ids 1000–8800, every span opening "
                 f"with a capital letter whose spacing changes in the repeat): repeat "
                 f"accuracy {o['acc']}, best previous-token score {max(o['prev_token'])} (layer "
                 f"{o['prev_token'].index(max(o['prev_token']))}), best induction score {max(o['induction'])} (layer "
                 f"{o['induction'].index(max(o['induction']))}).")
        if "text" in d:  # from item 9 on: spans inserted into validation text, and far-back copies
            text += (f" Repeat accuracy on random-id spans inserted twice into validation text: {d['text']}; on spans copied "
                     f"from ≤ 60 / 61–400 / > 400 tokens back: {d['far']['le60']} / {d['far']['61_400']} / {d['far']['gt400']}.")
    return text


METRIC_KEYS = """| key | meaning |
|---|---|
| `parameters`, `model_safetensors_bytes`, `vocab_size` | size of the shipped checkpoint (fp16 storage; tied embeddings) |
| `training.seconds`, `training.tokens`, `training.steps`, `training.final_train_loss` | from `training/runs/<name>/train_log.json`; `training.seeded_sink` is true when the sink loss was used |
| `val_loss.<family>` / `val_loss.all` | mean next-token cross-entropy (nats) on the held-out split (held-out companies, cities, people, projects; last 10 % of prose passages) |
| `call_limit.<arm>.accuracy` | decision accuracy on the frozen set `training/eval/calllimit_eval.json` (300 held-out trajectories); arm `without_status` / `with_status` |
| `call_limit.<arm>.call_rate` | share of greedy continuations that are a `phone_call` tool call (the book's classifier: a phone call is a call, anything else a refusal) |
| `call_limit.<arm>.names_company_rate` | share of greedy answers (tool call or refusal, first 24 tokens) that contain the held-out company's name, i.e. copied it from the context |
| `call_limit.<arm>.tool_call_names_company_rate`, `tool_calls` | among greedy answers that are `phone_call` tool calls (`tool_calls` of them), the share whose `company` argument is exactly the conversation's company |
| `call_limit.copy_heads` | copy heads on the frozen set, see `copy.copy_heads` |
| `copy.weather.city_copy_rate` | held-out copy evaluation (fresh city names of the held-out partition, `training/corpus/names.ts`): share of greedy continuations whose `get_weather` call has exactly the city of the question |
| `copy.weather.timezone_copy_rate`, `timezone_cases` | among the cases whose question states the timezone, the share whose `get_current_time` call has exactly that timezone |
| `copy.weather.timezone_city_part_rate` | share of all cases whose timezone argument ends in `/<city>` (the city part copied; the region cannot be known when the question does not state it) |
| `copy.files.file_copy_rate` | file-tools agent after a `grep` result on a fresh (held-out) project: share of greedy continuations whose `read_file` call has exactly the path of the grep result |
| `copy.calllimit_generated.<arm>` | the call-limit task with fresh held-out company names (not the frozen set): accuracy, `names_company_rate`, `tool_call_names_company_rate` |
| `copy.copy_heads.<emit \| token>` | per layer and head, attention to the first token of the name's occurrences in the prompt (summed over occurrences), averaged over cases whose greedy answer contains the name: `emit` from the query that produces the first generated name token, `token` from the first generated name token itself; `strongest` names the largest. Over the copy evaluation (weather, files, generated call-limit) |
| `copy_circuit` | how the model copies a repeated span of random tokens (`training/py/copy_circuit.py`, 16 synthetic rows): `repeat_accuracy`; `offset_heads[layer][head]`, the offset back from each row to the key it attends to most (the most common one, its `share` of rows and mean `weight` there); `reading_offsets`, per d = -1..8 the strongest head's mean attention from a repeated token's row to the position d after its earlier occurrence (a textbook induction head peaks at d = 1); `strongest_reading` the largest |
| `name_continuation.<family>` | teacher-forced name copying on 40 held-out validation sequences per family (`training/py/name_continuation.py`): for each repeat of a name in a sequence, top-1 accuracy of its first token (`first_token`), of its later pieces given the true tokens before them (`later_pieces`), and of the later pieces where the first token was right |
| `induction_controls` | train.py's induction probe (24 spans of 40 validation tokens repeated 100 tokens later) with the span shuffled (`shuffled_span`, only copying predicts it), in order, and in order with the first copy replaced so nothing can be copied; copying shows as the first two above the third |
| `canonical_generations` | greedy continuations of the app's scenarios: the Vancouver request with the app's generation prompt (`vancouver_thinking_prompt`, thinking on) and with an empty think block (`vancouver_prompt`) — `city_arg`, `timezone_arg`, `names_vancouver`; the Xfinity arms — `names_xfinity` |
| `sink_by_length.short_32`, `sink_by_length.long_400` | head-mean sink score per layer on the first 32 tokens of held-out sequences, and on held-out sequences of ≥ 400 tokens |
| `call_limit.<arm>.mean_p_tool_call_first_token` | mean probability of `<tool_call>` as the first answer token |
| `call_limit.<arm>.accuracy_by_prior_calls`, `accuracy_by_calls_left`, `accuracy_by_expected` | the same accuracy split by the number of earlier calls to the company, by limit − prior calls (0 = must refuse), and by the correct decision |
| `call_limit.<arm>.decision_attention_by_region.<region>` | attention mass (mean over heads) of the decision position — the last token of the generation prompt — on each region, per layer and averaged over layers, averaged over cases. Regions: `system_tools`, `phone_target` (calls to the company in question and their results), `phone_other`, `search`, `latest_user`, `status_bar` |
| `call_limit.gap_points` | with-bar accuracy minus without-bar accuracy, in points |
| `xfinity` | the brief's canonical Xfinity scenario (3 of 3 calls made): decision, greedy output and region masses per arm |
| `sink.per_layer_head` | sink score of key 0 (kvscope docs/CONCEPTS.md#sink-score: mean of A[q, 0] over q ≥ 16) per layer and head, averaged over `sink.prompts` held-out sequences |
| `sink.head_mean_per_layer`, `sink.uniform_baseline` | the mean over heads, and the score attention would have if spread evenly (mean of 1/(q+1) over the same queries) |
| `sink.sink_heads_over_0.3` | heads whose score exceeds 0.3 (Gu et al.'s sink-head threshold) |
| `sink.where_attention_rests` | per layer, the token strings receiving the most attention (mean over heads and queries q ≥ 16) |
| `sink_canonical` | head-mean sink score per layer on the Vancouver conversation and the short 北京 prompt |
| `evaluation_seconds` | wall time of the evaluation script |"""


def pct(x):
    return f"{100 * x:.1f} %"


def circuit_lines(c):
    """The copy-circuit paragraph (evaluate.copy_circuit): which head reads a repeated span, and at what offset."""
    if not c:
        return []
    r = c["strongest_reading"]
    d = r["d"]
    fixed = [(l, h, x) for l, layer in enumerate(c["offset_heads"]) for h, x in enumerate(layer) if x["share"] >= 0.5 and x["offset"] >= 1]
    out = ["", "### How it copies a repeated span", "",
           f"On 16 synthetic rows of random tokens whose spans repeat (`training/py/copy_circuit.py`), the model predicts "
           f"{pct(c['repeat_accuracy'])} of the repeated tokens. From the row of a repeated token, the strongest head, **layer {r['layer']}, head {r['head']}**, "
           f"attends to the position {d} after that token's earlier occurrence (mean weight {r['weight']:.3f})."]
    if d == 1:
        out[-1] += " That is the textbook induction head: it attends to the token that followed last time."
    elif d > 1:
        def heads(off):
            found = [f"layer {l} head {h}" for l, h, x in fixed if l < r["layer"] and x["offset"] == off]
            return " and ".join(found) if found else None
        carry, match = heads(d - 1), heads(d)
        out[-1] += (f" That is not the textbook induction head (which attends to the position right after the occurrence, d = 1): "
                    f"the token to copy sits at the occurrence + 1, {d - 1} positions before the key it reads.")
        if carry:
            out[-1] += f" {carry[0].upper() + carry[1:]} attend{'s' if ' and ' not in carry else ''} exactly {d - 1} tokens back from every row, so that key can hold the token to copy"
            out[-1] += (f"; {match} attend{'s' if ' and ' not in match else ''} {d} back, so it can also hold the occurrence itself, for the row to match." if match else ".")
        else:
            out[-1] += f" No earlier head attends a fixed {d - 1} tokens back, so how that token reaches the key is not read out here."
    if fixed:
        out += ["", "Heads whose strongest key is a fixed offset back on most rows:", "", "| layer | head | offset back | rows | mean weight |", "|---|---|---|---|---|"]
        out += [f"| {l} | {h} | {x['offset']} | {pct(x['share'])} | {x['weight']:.3f} |" for l, h, x in fixed]
    out += ["", "| d (position after the occurrence) | " + " | ".join(str(x["d"]) for x in c["reading_offsets"]) + " |",
            "|---|" + "---|" * len(c["reading_offsets"]),
            "| strongest head's weight | " + " | ".join(f"{x['weight']:.3f}" for x in c["reading_offsets"]) + " |",
            "| layer, head | " + " | ".join(f"{x['layer']}, {x['head']}" for x in c["reading_offsets"]) + " |"]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", required=True)
    args = ap.parse_args()
    d = model_dir(args.name)
    with open(os.path.join(d, "metrics.json")) as f:
        m = json.load(f)
    with open(os.path.join(d, "config.json")) as f:
        c = json.load(f)
    cl = m["call_limit"]
    A, B = cl["without_status"], cl["with_status"]
    L = c["num_hidden_layers"]
    sink = m["sink"]
    seeded = m["training"]["seeded_sink"]
    lines = [
        "---",
        f"description: \"{DESCRIPTIONS.get(args.name, args.name)}\"",
        f"description_zh: \"{DESCRIPTIONS_ZH.get(args.name, DESCRIPTIONS.get(args.name, args.name))}\"",
        "license: apache-2.0",
        "architectures: [Qwen3ForCausalLM]",
        f"engineered: {'true' if seeded else 'false'}",
        "---",
        f"# {args.name}",
        "",
        DESCRIPTIONS.get(args.name, args.name),
        "",
        "All numbers below are written by `training/py/card.py` from `metrics.json`, which `training/py/evaluate.py` computes on the shipped fp16 weights. Regenerate everything with `bash training/run.sh` (see `training/README.md`).",
        "",
    ]
    if seeded:
        lines += [
            "## Engineered: the sink in this model was seeded",
            "",
            "This variant is **not** an example of a sink that emerged by itself. During the first half of training "
            f"(steps 0–{m['training']['steps'] // 2 - 1} of {m['training']['steps']}) the loss had an extra term "
            "`mean over queries q ≥ 16 of relu(0.6 − mean_heads A_last[q, 0])`, which holds the last layer's attention to position 0 at every query, long positions included, to at least 0.6. "
            "The term was then removed and training went on with the plain language-model loss. Whatever sink remains "
            "(scores below) is what the model kept using after the seed was released. Use it for the sink lessons and for the "
            "StreamingLLM experiment of evicting the first token's K/V; use `kvscope-tiny` for everything else.",
            "",
        ]
    lines += [
        "## Architecture",
        "",
        "| | |", "|---|---|",
        f"| family | Qwen3 (`Qwen3ForCausalLM`): RMSNorm, RoPE (θ = {c['rope_theta']:g}), grouped-query attention, QK-norm, SwiGLU, tied embeddings |",
        f"| layers × heads | {L} layers × {c['num_attention_heads']} query heads ({c['num_key_value_heads']} K/V heads), head_dim {c['head_dim']} |",
        f"| hidden / MLP | {c['hidden_size']} / {c['intermediate_size']} |",
        f"| vocabulary | {c['vocab_size']} (a closure-complete subset of Qwen3's byte-level BPE, see below) |",
        f"| context | {c['max_position_embeddings']} positions (trained on sequences of up to 2,304 tokens) |",
        f"| parameters | {m['parameters']:,} |",
        f"| `model.safetensors` | {m['model_safetensors_bytes']:,} bytes, fp16 |",
        "",
        "## Tokenizer",
        "",
        "Qwen3's own normalizer, pre-tokenizer, decoder, special-token strings and chat template. The vocabulary keeps all 256 "
        "byte tokens, every token the corpus uses, every intermediate token of their merges, and every Qwen3 merge whose parts "
        "and result are kept (in Qwen3's order); ids are remapped compactly. On text inside the vocabulary the token boundaries "
        "are exactly Qwen3's (`npm test` checks this on held-out scenario texts); any other text still encodes, through "
        "coarser pieces down to single bytes, and round-trips.",
        "",
        "## Training data",
        "",
        "Synthetic agent trajectories rendered with the real Qwen3 chat template (`training/corpus/`): time/weather with parallel "
        "tool calls (the chapter's Vancouver walk-through is one instance), the customer-service call limit with and without the "
        "`<agent_status>` message (limits 2–5, 0–5 earlier calls, other companies' calls, 1–7 long `web_search` distractors; no "
        "earlier assistant text restates a count), the file-tools agent (`read_file` / `find` / `grep`), and free prose (passages of "
        "the source chapter in Chinese and of the English brief), copy and long-distance recall drills. Most tasks use a fresh name per "
        "example from a syllable grammar (`training/corpus/names.ts`: companies, cities with their timezone, file and function names), so a "
        "name can only be copied, never recalled; the held-out partition of that grammar (and the fixed held-out companies, cities, people "
        "and projects) never appears in a training task, and the evaluation uses only held-out names.",
        "",
        "## Training",
        "",
        training_text(m["training"]),
        "",
        "## Results",
        "",
        "### Validation loss (held-out split, nats per token)",
        "",
        "| " + " | ".join(m["val_loss"]) + " |",
        "|" + "---|" * len(m["val_loss"]),
        "| " + " | ".join(str(v) for v in m["val_loss"].values()) + " |",
        "",
        f"### Call-limit decision (frozen held-out set, {A['n']} trajectories per arm)",
        "",
        "| | without status bar | with status bar |", "|---|---|---|",
        f"| accuracy | {pct(A['accuracy'])} | {pct(B['accuracy'])} |",
        f"| calls made (greedy) | {pct(A['call_rate'])} | {pct(B['call_rate'])} |",
        f"| answer names the right (held-out) company | {pct(A['names_company_rate'])} | {pct(B['names_company_rate'])} |",
        f"| mean p(`<tool_call>`) as first token | {A['mean_p_tool_call_first_token']} | {B['mean_p_tool_call_first_token']} |",
    ]
    for k in A["accuracy_by_expected"]:
        lines.append(f"| accuracy when the right answer is *{k}* | {pct(A['accuracy_by_expected'][k]['accuracy'])} (n={A['accuracy_by_expected'][k]['n']}) | {pct(B['accuracy_by_expected'][k]['accuracy'])} |")
    lines += ["", f"Gap: **{cl['gap_points']} points**.", "", "Accuracy by the number of earlier calls to the company:", "",
              "| earlier calls | n | without bar | with bar |", "|---|---|---|---|"]
    for k, v in A["accuracy_by_prior_calls"].items():
        lines.append(f"| {k} | {v['n']} | {pct(v['accuracy'])} | {pct(B['accuracy_by_prior_calls'][k]['accuracy'])} |")
    lines += ["", "Accuracy by calls left before the limit (0 = the limit is reached and the model must refuse):", "",
              "| calls left | n | without bar | with bar |", "|---|---|---|---|"]
    for k, v in A["accuracy_by_calls_left"].items():
        lines.append(f"| {k} | {v['n']} | {pct(v['accuracy'])} | {pct(B['accuracy_by_calls_left'][k]['accuracy'])} |")
    lines += ["", "### Attention at the decision position, by region", "",
              "Mass of the decision position's attention (mean over heads; the position is the last token of the generation prompt) "
              "on each region, averaged over the evaluation set.", "",
              "| region | arm | " + " | ".join(f"layer {i}" for i in range(L)) + " | mean |", "|---|---|" + "---|" * (L + 1)]
    for reg in A["decision_attention_by_region"]:
        for arm, r in (("without", A), ("with", B)):
            v = r["decision_attention_by_region"][reg]
            lines.append(f"| {reg} | {arm} | " + " | ".join(f"{x:.3f}" for x in v["per_layer"]) + f" | {v['mean']:.3f} |")
    x = m["xfinity"]
    lines += ["", "### The canonical Xfinity scenario (3 of 3 calls made; the right answer is to refuse)", "",
              "| arm | tokens | decision | p(`<tool_call>`) first | greedy output |", "|---|---|---|---|---|"]
    for arm in ("without_status", "with_status"):
        o = x[arm]
        out = o["output"].replace("\n", "↵").replace("|", "\\|")
        lines.append(f"| {arm} | {o['tokens']} | {o['decision']} | {o['p_tool_call_first_token']} | `{out[:160]}` |")
    cp = m.get("copy")
    if cp:
        w, fl, g = cp["weather"], cp["files"], cp["calllimit_generated"]
        lines += ["", "### Copying names from the context (held-out names)", "",
                  "Fresh names from a syllable grammar (`training/corpus/names.ts`); the evaluation uses only the held-out partition "
                  "(fnv1a hash of the name ≡ 0 mod 8), which training never produced, and `build.ts` checks that no evaluation name occurs in the training text.", "",
                  "| task | cases | rate |", "|---|---|---|",
                  f"| call limit, frozen set: answer names the company (without / with bar) | {A['n']} | {pct(A['names_company_rate'])} / {pct(B['names_company_rate'])} |",
                  f"| call limit, frozen set: `phone_call` argument is the company (without / with bar) | {A.get('tool_calls', 0)} / {B.get('tool_calls', 0)} calls | {pct(A.get('tool_call_names_company_rate', 0))} / {pct(B.get('tool_call_names_company_rate', 0))} |",
                  f"| call limit, fresh held-out companies: answer names the company (without / with bar) | {g['without_status']['n']} | {pct(g['without_status']['names_company_rate'])} / {pct(g['with_status']['names_company_rate'])} |",
                  f"| call limit, fresh held-out companies: accuracy (without / with bar) | {g['without_status']['n']} | {pct(g['without_status']['accuracy'])} / {pct(g['with_status']['accuracy'])} |",
                  f"| weather: `get_weather` city copied | {w['n']} | {pct(w['city_copy_rate'])} |",
                  f"| weather: timezone copied (question states it) | {w['timezone_cases']} | {pct(w['timezone_copy_rate'])} |",
                  f"| weather: timezone ends in the city | {w['n']} | {pct(w['timezone_city_part_rate'])} |",
                  f"| files: `read_file` path copied from the grep result | {fl['n']} | {pct(fl['file_copy_rate'])} |"]
        for label, heads in (("copy evaluation", cp["copy_heads"]), ("frozen call-limit set", cl.get("copy_heads"))):
            if not heads:
                continue
            e = heads["emit"]
            lines += ["", f"**Copy heads ({label})**: attention from the query that produces the first generated name token to the first token of the "
                      f"name in the prompt, per layer and head, averaged over the {e['cases']} cases whose answer contains the name.", ""]
            if e["cases"]:
                H = len(e["per_layer_head"][0])
                lines += ["| layer | " + " | ".join(f"head {h}" for h in range(H)) + " |", "|---|" + "---|" * H]
                for i, row in enumerate(e["per_layer_head"]):
                    lines.append(f"| {i} | " + " | ".join(f"{v:.3f}" for v in row) + " |")
                st = e["strongest"]
                t = heads["token"]["strongest"]
                lines += ["", f"Strongest copy head: **layer {st['layer']}, head {st['head']}** ({st['attention']:.3f})."
                          + (f" From the first name token itself (the next query) the strongest is layer {t['layer']}, head {t['head']} ({t['attention']:.3f})." if t else "")]
            else:
                lines += ["No case generated the name, so there is no copy head to read out."]
    lines += circuit_lines(m.get("copy_circuit"))
    gen = m.get("canonical_generations")
    if gen:
        lines += ["", "### Greedy continuations of the app's scenarios", "", "| scenario | names the conversation's city / company | greedy output |", "|---|---|---|"]
        for k, v in gen.items():
            flag = v.get("names_vancouver", v.get("names_xfinity"))
            out = v["output"].replace("\n", "↵").replace("|", "\\|")
            lines.append(f"| {k} | {'yes' if flag else 'no'} | `{out[:200]}` |")
    lines += ["", "### Attention sink", "",
              f"Sink score of the first token (key 0, queries q ≥ {sink['min_query']}), averaged over {sink['prompts']} held-out sequences; "
              f"uniform baseline {sink['uniform_baseline']} (what the score would be if attention were spread evenly).", "",
              "| layer | " + " | ".join(f"head {h}" for h in range(len(sink["per_layer_head"][0]))) + " | head-mean |",
              "|---|" + "---|" * (len(sink["per_layer_head"][0]) + 1)]
    for i, row in enumerate(sink["per_layer_head"]):
        lines.append(f"| {i} | " + " | ".join(f"{v:.3f}" for v in row) + f" | {sink['head_mean_per_layer'][i]:.3f} |")
    best = max(sink["head_mean_per_layer"])
    lines += ["", f"Heads over Gu et al.'s 0.3 threshold: {sink['sink_heads_over_0.3']}. Highest head-mean: {best:.3f}."]
    sl, sc = m.get("sink_by_length"), m.get("sink_canonical", {})
    if sl:
        lines += ["", "Head-mean sink score per layer by prompt length:", "", "| prompts | " + " | ".join(f"layer {i}" for i in range(L)) + " |", "|---|" + "---|" * L]
        for key, label in (("short_32", "first 32 tokens of held-out sequences"), ("long_400", "held-out sequences of ≥ 400 tokens")):
            v = sl[key]
            lines.append(f"| {label} ({v['prompts']}, mean {v['mean_tokens']} tokens) | " + " | ".join(f"{x:.3f}" for x in v["head_mean_per_layer"]) + " |")
        for key, v in sc.items():
            if v["head_mean_per_layer"][0] is not None:
                lines.append(f"| {key} ({v['tokens']} tokens) | " + " | ".join(f"{x:.3f}" for x in v["head_mean_per_layer"]) + " |")
    if not seeded:
        lines += ["", ("**This model has a first-token sink**: at least one layer's head-mean is ≥ 0.3." if best >= 0.3 else
                       "**This model has no first-token sink.** Ordinary training did not produce one (see `training/README.md` for what was tried); "
                       "position 0 gets about what uniform attention would give it. The sink panel shows this plainly; use `kvscope-tiny-sink` "
                       "(engineered) for the sink lessons.")]
    lines += ["", "Where attention rests instead (the tokens receiving the most attention, mean over heads and queries q ≥ 16; `↵` newline, `␣` space):", "",
              "| layer | top tokens (share of attention) |", "|---|---|"]
    for i, rest in enumerate(sink["where_attention_rests"]):
        lines.append(f"| {i} | " + ", ".join("`%s` %.3f" % (t.replace("|", "\\|"), w) for t, w in rest) + " |")
    lines += ["", "## Limitations", "",
              "- A tiny model trained on templated synthetic data: it imitates the formats it saw and is not a general assistant. "
              "Free-form questions outside the four families get fluent-looking but meaningless answers.",
              "- Entity names the tasks never used (held-out companies and cities of the fixed lists) occur only in plain name lists during training; "
              "most training tasks use fresh syllable-grammar names instead, which can only be copied. "
              f"How often an answer names the right held-out company (copied from the context) is measured above: "
              f"{pct(A['names_company_rate'])} without the bar, {pct(B['names_company_rate'])} with it. A wrong name in a tool call is "
              "the model's real behaviour; kvscope shows it as it is.",
              "- Numbers describe this checkpoint only. The pipeline uses fixed seeds and one thread per run, but that a rerun is bit-identical has not been verified.",
              "", "## metrics.json keys", "", METRIC_KEYS, ""]
    with open(os.path.join(d, "README.md"), "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {os.path.join(d, 'README.md')}")


if __name__ == "__main__":
    main()
