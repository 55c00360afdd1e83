"""Synthetic copy rows and the two attention scores that say whether an induction circuit formed (issue 18).

Shared by copy_lab.py (a model trained on these rows only) and train.py (these rows beside the corpus).

copy rows  random ids from [lo, hi) in which spans of 3..span_max tokens reappear 0..gap_max tokens after they
           end, so the offset varies and only matching content finds the twin. The mask marks the repeats'
           tokens after their first: the only tokens that can be predicted, and the only ones with a loss.
           With twins (pairs of ids, such as "Z" and " Z"), a share twin_share of spans open with one of a pair,
           and the repeat opens with the other (swap_share of them) or the same: names change their first
           token between prose and a tool call's JSON, so copying one means matching the pair.
skip rows  each token fixes the token two places later (a fixed permutation `perm`, 10 % noise): only a head
           that reads the previous token predicts them.

Scores (training/README.md, "Copy lab"): a head's previous-token score is its mean attention from position i to
i-1; its induction score is its mean attention from a token in a second copy to the token after its twin in the
first copy (1.0 = a perfect induction head, ~1/T = none)."""
import torch


def twin_opening(rng, twins, swap_share):
    """A twin pair's ids for a span's first token and its repeat's: one of the pair, then the other (swap_share
    of the time) or the same."""
    pair = twins[rng.randrange(len(twins))]
    first = rng.randrange(2)
    return pair[first], pair[1 - first] if rng.random() < swap_share else pair[first]


def copy_rows(rng, gen, n, seq, lo, hi, span_max, gap_max, skip=0.0, perm=None, twins=(), twin_share=0.0,
              swap_share=0.5):
    """n rows of seq tokens: the first int(n * skip) are skip rows (perm required), the rest copy rows.
    Returns ids [n, seq], the loss mask [n, seq] and which rows are copy rows [n]."""
    ids = torch.randint(lo, hi, (n, seq), generator=gen)
    mask = torch.zeros(n, seq, dtype=torch.bool)
    copy_row = torch.ones(n, dtype=torch.bool)
    n_skip = int(n * skip)
    for b in range(n):
        if b < n_skip:
            x = [rng.randrange(lo, hi) for _ in range(2)]
            for i in range(2, seq):
                x.append(perm[x[i - 2]] if rng.random() > 0.1 else rng.randrange(lo, hi))
            ids[b] = torch.tensor(x)
            mask[b, 2:] = True
            copy_row[b] = False
            continue
        p = 1
        while True:
            span, gap = rng.randint(3, span_max), rng.randint(0, gap_max)
            if p + 2 * span + gap >= seq:
                break
            second = p + span + gap
            ids[b, second:second + span] = ids[b, p:p + span]
            if twin_share and twins and rng.random() < twin_share:
                ids[b, p], ids[b, second] = twin_opening(rng, twins, swap_share)
            mask[b, second + 1:second + span] = True
            p = second + span + rng.randint(0, 10)
    return ids, mask, copy_row


def prev_token_scores(att):
    """[..., H, T, T] attention -> [..., H]: mean attention from each position i to i-1."""
    t = torch.arange(1, att.shape[-1])
    return att[..., t, t - 1].mean(-1)


def attention_scores(model, ids, mask, copy_row):
    """Per layer, the strongest head's previous-token and induction scores on copy rows (module docstring)."""
    with torch.no_grad():
        _, att, _ = model(ids, need_attn=True)
    a = torch.stack(att, 1)  # [B, L, H, T, T]
    prev = prev_token_scores(a).mean(0)
    ind, n = torch.zeros(a.shape[1], a.shape[2]), 0
    for b in torch.nonzero(copy_row).flatten().tolist():
        for q in torch.nonzero(mask[b]).flatten().tolist():
            twin = torch.nonzero(ids[b, :q - 1] == ids[b, q - 1]).flatten()
            if len(twin):
                ind += a[b, :, :, q - 1, twin[-1] + 1]
                n += 1
    return prev.max(1).values, (ind / max(1, n)).max(1).values


def repeat_logits(model, ids, mask):
    """Logits at the positions that predict the masked tokens of rows ids [B, T], and those tokens: logits only
    where a loss is taken (the same loss at a fraction of the unembedding's cost)."""
    at = torch.zeros_like(mask)
    at[:, :-1] = mask[:, 1:]
    logits, _, _ = model(ids, logits_at=at)
    return logits, ids[:, 1:][mask[:, 1:]]


def copy_accuracy(model, ids, mask):
    """Top-1 accuracy on the masked (predictable) tokens of copy rows (pass a narrower mask for a subset)."""
    with torch.no_grad():
        logits, tgt = repeat_logits(model, ids, mask)
    return float((logits.argmax(-1) == tgt).float().mean())


def far_copy_rows(rng, gen, n, seq, lo, hi, span_max, near_share=0.3, near_max=60, twins=(), twin_share=0.0,
                  swap_share=0.5):
    """n rows of seq random ids in which, after a first stretch of random ids, spans of 3..span_max tokens are
    copied from anywhere earlier in the row: a share near_share from at most near_max tokens before, the rest from
    any distance back to the row's start. In the corpus a name repeats hundreds of tokens after it first appears,
    and a circuit trained on copy_rows' short distances copies at short distances only (p9c after 1,000 steps:
    repeat accuracy 0.96 with gaps <= 60, 0.30 with gaps <= 400; training/README item 9). Twins as in copy_rows,
    applied only where the source span's first token is neither a copy nor read by an earlier copy (changing it
    would break that copy). Returns ids [n, seq], the loss mask
    (a copy's tokens after its first), which rows are copy rows (all) and, per masked target, how far back its
    source is [n, seq] (0 elsewhere)."""
    ids = torch.randint(lo, hi, (n, seq), generator=gen)
    mask = torch.zeros(n, seq, dtype=torch.bool)
    dist = torch.zeros(n, seq, dtype=torch.long)
    for b in range(n):
        copied = torch.zeros(seq, dtype=torch.bool)
        read = torch.zeros(seq, dtype=torch.bool)
        p = rng.randint(span_max, 4 * span_max)
        while True:
            span = rng.randint(3, span_max)
            if p + span > seq:
                break
            lo_src = max(0, p - span - near_max) if rng.random() < near_share else 0
            src = rng.randint(lo_src, p - span)
            ids[b, p:p + span] = ids[b, src:src + span].clone()
            if twin_share and twins and not copied[src] and not read[src] and rng.random() < twin_share:
                ids[b, src], ids[b, p] = twin_opening(rng, twins, swap_share)
            mask[b, p + 1:p + span] = True
            dist[b, p + 1:p + span] = p - src
            copied[p:p + span] = True
            read[src:src + span] = True
            p += span + rng.randint(0, 10)
    return ids, mask, torch.ones(n, dtype=torch.bool), dist


def text_copy_rows(rng, gen, texts, n_tokens, lo, hi, span_max, every=32, max_len=1024, twins=(), twin_share=0.0,
                   swap_share=0.5):
    """Rows of real training text (each a sequence's first max_len tokens, so it opens with the template's
    <|im_start|>) with spans of 3..span_max random ids from [lo, hi) inserted twice each, once per `every` text
    tokens, the second copy anywhere after the first, until the rows hold about n_tokens tokens. A circuit learned
    on rows of random ids alone was not used in text: p9d's layer-0 previous-token head (0.96 on copy rows)
    attended to the previous token ~0.00-0.2 inside a repeated city name (training/README item 9). Twins as in
    copy_rows. Returns a list of (ids [T], loss mask [T]: a second copy's tokens after its first)."""
    rows, total = [], 0
    while total < n_tokens:
        text = texts[rng.randrange(len(texts))][0][:max_len]
        ids, _, repeat = inline_copies(rng, gen, text, lo, hi, span_max, every=every, near_share=0.0, twins=twins,
                                       twin_share=twin_share, swap_share=swap_share)
        rows.append((ids, repeat))
        total += len(ids)
    return rows


def inline_copies(rng, gen, text, lo, hi, span_max, every=64, near_share=0.5, near_max=60, twins=(), twin_share=0.0,
                  swap_share=0.5):
    """One corpus sequence (1-D int array) with spans of 3..span_max random ids from [lo, hi) inserted twice, one
    pair per `every` text tokens, the second copy near_share of the time at most near_max text tokens after the
    first, else anywhere after it. The recipe's corpus batches themselves carry the copies (training/README item
    10): text copy rows beside each batch taught names to copy (item 9) but cost a second forward pass per step.
    Twins as in copy_rows. Returns (ids [T'] long, orig [T'] long: the text token's index in `text`, -1 for an
    inserted one, repeat [T'] bool: a second copy's tokens after its first — the only predictable inserted ones)."""
    n = len(text)
    inserts = {}  # text position -> spans inserted before it, in order
    for _ in range(max(1, n // every) if n > 2 else 0):
        span = torch.randint(lo, hi, (rng.randint(3, span_max),), generator=gen).tolist()
        again = list(span)
        if twin_share and twins and rng.random() < twin_share:
            span[0], again[0] = twin_opening(rng, twins, swap_share)
        a = rng.randint(1, n - 1)
        # (no draw for near_share 0: text_copy_rows' rows stay as they were before inline copies existed)
        b = min(n, a + rng.randint(0, near_max)) if near_share and rng.random() < near_share else rng.randint(a, n)
        inserts.setdefault(a, []).append((span, False))
        inserts.setdefault(b, []).append((again, True))
    ids, orig, repeat = [], [], []
    for i in range(n + 1):
        for piece, is_repeat in inserts.get(i, []):
            ids += piece
            orig += [-1] * len(piece)
            repeat += [False] + [is_repeat] * (len(piece) - 1)
        if i < n:
            ids.append(int(text[i]))
            orig.append(i)
            repeat.append(False)
    return torch.tensor(ids), torch.tensor(orig), torch.tensor(repeat)
