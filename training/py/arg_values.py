"""Which tokens of a training sequence are the string values of a tool call's arguments (issue 18, run 8).

In the task families those values are what the model must read from its context: the company a user named,
the city and its timezone, a file name a tool listed. Fresh names make them unpredictable except by copying,
and HYPER arg_weight weights their loss (training/README, run 8). Found from the token ids alone, the way the
Qwen3 template writes a call:
  <tool_call> {"name": "f", "arguments": {"key": "value", "n": 3}} </tool_call>
A value's tokens run from the token after `": "` (or the rest of a merged `␣"*.`) to the token holding its
closing quote, which is marked too when it carries text before the quote (`.",`) — or always, with_close: the
closing quote is what ends a copy, and a model whose loss skipped it went on copying ("Tkelkelkel", training/README
item 9)."""
import numpy as np


class ArgValues:
    def __init__(self, vocab, with_close=False):
        self.with_close = with_close
        t = vocab.tokens
        self.call, self.end = vocab.special["<tool_call>"], vocab.special["</tool_call>"]
        self.arguments = t.index("arguments")
        self.colon = t.index('":')
        self.open = t.index('\u0120"')
        # Tokens opening a value with text merged after the quote ("␣\"*.") and tokens closing one.
        self.opens_with_text = {i for i, s in enumerate(t) if s.startswith('\u0120"') and len(s) > 2 and '"' not in s[2:]}
        self.closes = {i: not s.startswith('"') for i, s in enumerate(t) if '"' in s and not s.startswith('\u0120"')}

    def mask(self, ids):
        """Bool array over ids: True where the token belongs to an argument's string value."""
        out = np.zeros(len(ids), dtype=bool)
        in_call = in_args = expect = in_value = False
        for i, tok in enumerate(ids.tolist()):
            if tok == self.call:
                in_call, in_args, expect, in_value = True, False, False, False
                continue
            if tok == self.end:
                in_call = in_args = expect = in_value = False
                continue
            if not in_call:
                continue
            if in_value:
                if tok in self.closes:
                    out[i] = self.with_close or self.closes[tok]  # text before the closing quote
                    in_value = False
                else:
                    out[i] = True
                continue
            if expect:
                expect = False
                if tok == self.open:
                    in_value = True
                elif tok in self.opens_with_text:
                    out[i] = in_value = True
                continue
            if tok == self.arguments:
                in_args = True
            elif in_args and tok == self.colon:
                expect = True
        return out
