"""Quick copy read-out of a training checkpoint (training/runs/<name>/model[.partial].pt), for recipe
probes: the held-out copy evaluation of evaluate.copy_eval on the first --cases cases of each family, and
the first --frozen cases of the frozen call-limit set (names_company_rate, accuracy)."""
import argparse
import json

from evaluate import call_limit, copy_eval, canonical_generations
from shipped import load_training_checkpoint
from tokens import Vocab

ap = argparse.ArgumentParser()
ap.add_argument("checkpoint")
ap.add_argument("--cases", type=int, default=12)
ap.add_argument("--frozen", type=int, default=12)
args = ap.parse_args()
model = load_training_checkpoint(args.checkpoint)
vocab = Vocab.load()
c = copy_eval(model, vocab, args.cases)
for k in ("weather", "files"):
    print(k, json.dumps({x: y for x, y in c[k].items() if x != "examples"}))
    for e in c[k]["examples"][:2]:
        print("  ", json.dumps(e, ensure_ascii=False)[:400])
print("calllimit_generated", json.dumps(c["calllimit_generated"]))
print("copy_heads", json.dumps({k: (v["cases"], v["strongest"]) for k, v in c["copy_heads"].items()}))
cl = call_limit(model, vocab, args.frozen)
print("frozen", json.dumps({a: {k: cl[a][k] for k in ("accuracy", "names_company_rate", "tool_call_names_company_rate", "tool_calls")} for a in ("without_status", "with_status")}))
for e in cl["examples"][:4]:
    print("  ", json.dumps(e, ensure_ascii=False)[:300])
g = canonical_generations(model, vocab)
for k, v in g.items():
    print(k, json.dumps(v, ensure_ascii=False)[:500])
