"""Teacher-forced name copying on held-out validation sequences (issue 18): for every *repeat* of a name in a
sequence (a capital-letter token in any spacing — "Z", " Z", "/Z", '"Z' — followed by lowercase pieces, whose
same spelling occurred earlier in the sequence), top-1 accuracy of the name's first token (choosing the
letter: retrieval by role) and of its later pieces given the true tokens before them (continuation: what an
induction head does). Greedy copy rates (evaluate.copy_eval) mix the two; this separates them.

It also prints the controls of train.py's induction probe: the same 24 rows of a 40-token validation span
repeated 100 tokens later, with the span (a) in order, as real text, (b) in order but with the first copy
replaced by another row's span, so no copy is possible, and (c) shuffled (train.induction_rows since 2026-12-03).
Copying shows as (a) or (c) well above (b) and above chance.

    python3 name_continuation.py ../runs/<name>/model.pt [--per-family 40] [--spelling]
"""
import argparse
import json

import torch

from data import load_split
from shipped import load_training_checkpoint
from tokens import Vocab
from train import induction_probe, induction_rows


def name_spans(seq, caps, lower):
    """(start, end) of each capital-letter token followed by lowercase pieces."""
    j = 0
    while j < len(seq):
        if seq[j] in caps and j + 1 < len(seq) and seq[j + 1] in lower:
            k = j + 1
            while k < len(seq) and seq[k] in lower:
                k += 1
            yield j, k
            j = k
        else:
            j += 1


def name_tokens(vocab):
    """Each token's text, the ids of a name's first token (a capital letter, alone or after a space, slash or
    quote) and of its later pieces (lowercase letters): what name_spans looks for."""
    text = [vocab.token_bytes(i).decode("utf-8", "replace") for i in range(len(vocab.tokens))]
    caps = {i for i, t in enumerate(text) if len(t) >= 1 and t[-1].isupper() and t[-1].isascii() and t[:-1] in ("", " ", "/", '"')}
    lower = {i for i, t in enumerate(text) if t.isascii() and t.isalpha() and t.islower()}
    return text, caps, lower


def name_repeats(seq, text, caps, lower, spelling=False):
    """(start, end, earlier start) of each name span whose word (spacing aside) already occurred in seq; with
    spelling, a 4th item: whether an earlier occurrence began with the same token (" Zel" after " Zel", not
    after '"Zel'), i.e. whether plain induction on token ids could continue it."""
    seen, firsts = {}, {}
    for j, k in name_spans(seq, caps, lower):
        word = text[seq[j]][-1] + "".join(text[t] for t in seq[j + 1:k])
        if word in seen:
            yield (j, k, seen[word], seq[j] in firsts[word]) if spelling else (j, k, seen[word])
        else:
            seen[word], firsts[word] = j, set()
        firsts[word].add(seq[j])


def name_continuation(model, vocab, per_family=40, families=("weather", "calllimit", "files"), spelling=False):
    """Per family: accuracy on a repeated name's first token and later pieces; with spelling, the later pieces
    split by whether an earlier occurrence began with the very same token (name_repeats)."""
    text, caps, lower = name_tokens(vocab)
    val = load_split("val")
    out = {}
    for fam in families:
        seqs = [s for s, f in val if f == fam][:per_family]
        first, rest, rest_after = [0, 0], [0, 0], [0, 0]
        by_spelling = {True: [0, 0], False: [0, 0]}
        for s in seqs:
            with torch.no_grad():
                pred = model(torch.tensor(s[None]))[0][0].argmax(-1).tolist()
            seq = s.tolist()
            for j, k, _, same in name_repeats(seq, text, caps, lower, spelling=True):
                ok = pred[j - 1] == seq[j]
                first[0] += ok
                first[1] += 1
                for t in range(j + 1, k):
                    rest[0] += pred[t - 1] == seq[t]
                    rest[1] += 1
                    by_spelling[same][0] += pred[t - 1] == seq[t]
                    by_spelling[same][1] += 1
                    if ok:
                        rest_after[0] += pred[t - 1] == seq[t]
                        rest_after[1] += 1
        rate = lambda x: {"right": x[0], "n": x[1], "rate": round(x[0] / max(1, x[1]), 4)}
        out[fam] = {"sequences": len(seqs), "first_token": rate(first), "later_pieces": rate(rest),
                    "later_pieces_after_right_first": rate(rest_after)}
        if spelling:
            out[fam]["later_pieces_same_spelling_earlier"] = rate(by_spelling[True])
            out[fam]["later_pieces_other_spelling_only"] = rate(by_spelling[False])
    return out


def probe_controls(model, bos):
    """Induction-probe accuracy on the shuffled rows of train.induction_rows, on the same spans in order, and in
    order with the first copy swapped for the next row's span (nothing to copy)."""
    val = load_split("val")
    ordered = induction_rows(val, bos, shuffled=False)
    replaced = ordered.clone()
    replaced[:, 1:41] = ordered[torch.roll(torch.arange(ordered.shape[0]), -1), 1:41]
    return {"real_span_in_order": induction_probe(model, ordered),
            "in_order_first_copy_replaced_no_copy_possible": induction_probe(model, replaced),
            "shuffled_span": induction_probe(model, induction_rows(val, bos))}


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("checkpoint")
    ap.add_argument("--per-family", type=int, default=40)
    ap.add_argument("--spelling", action="store_true", help="split later pieces by the earlier occurrence's spelling")
    args = ap.parse_args()
    model = load_training_checkpoint(args.checkpoint)
    vocab = Vocab.load()
    print(json.dumps({"names": name_continuation(model, vocab, args.per_family, spelling=args.spelling),
                      "induction_probe_controls": probe_controls(model, vocab.special["<|im_start|>"])}, indent=1))
