"""Minimal safetensors reader/writer (the format is a JSON header plus raw little-endian tensors);
the `safetensors` package is not available from Debian, and the format is small enough to own."""
import json
import struct

import numpy as np
import torch

_DTYPES = {"F32": (np.float32, torch.float32), "F16": (np.float16, torch.float16), "I32": (np.int32, torch.int32), "I64": (np.int64, torch.int64)}
_NAMES = {v[1]: k for k, v in _DTYPES.items()}


def save(path, tensors, metadata=None):
    header, blobs, off = {}, [], 0
    for name, t in tensors.items():
        arr = t.detach().contiguous().cpu().numpy()
        b = arr.tobytes()
        header[name] = {"dtype": _NAMES[t.dtype], "shape": list(arr.shape), "data_offsets": [off, off + len(b)]}
        blobs.append(b)
        off += len(b)
    if metadata:
        header["__metadata__"] = {k: str(v) for k, v in metadata.items()}
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)  # keep tensor data 8-byte aligned
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + n])
    base = 8 + n
    out = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        np_t, _ = _DTYPES[info["dtype"]]
        a, b = info["data_offsets"]
        out[name] = torch.from_numpy(np.frombuffer(data[base + a:base + b], dtype=np_t).reshape(info["shape"]).copy())
    return out
