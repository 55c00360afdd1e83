"""Id ↔ text for the embedded tokenizer (ids only come from the Node side; this just decodes)."""
from data import load_json


def _byte_decoder():
    bs = list(range(0x21, 0x7F)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {chr(c): b for b, c in zip(bs, cs)}


class Vocab:
    def __init__(self, tokens, special):
        self.tokens = tokens
        self.special = special
        self._special_ids = set(special.values())
        self._dec = _byte_decoder()

    @classmethod
    def load(cls):
        v = load_json("vocab.json")
        return cls(v["tokens"], v["special"])

    def token_bytes(self, i):
        t = self.tokens[i]
        return t.encode() if i in self._special_ids else bytes(self._dec[ch] for ch in t)

    def decode(self, ids):
        return b"".join(self.token_bytes(i) for i in ids).decode("utf-8", "replace")

    def display(self, i):
        """Token text with visible whitespace, for reports."""
        return self.token_bytes(i).decode("utf-8", "replace").replace("\n", "↵").replace(" ", "␣")
