"""A tiny LLaMA-architecture model in GGUF, written at test time (never downloaded).

llama.cpp loads it like any model; ``python -m llama_cpp.server`` serves it. It is a
*programmed* model, not a trained one: every layer's output projections are zero, so the
last hidden state is the current token's embedding, and each embedding is one of three
directions — what comes next depends only on the current token, a bigram table:

* after an opening quote (``"``), the word ``ok`` ranks first;
* after ``ok``, the closing quote ranks first;
* after anything else, the end of the turn (``<|im_end|>``) ranks first, then a few JSON
  tokens (``{ } [ ] : , " 1``), then every other token, white space last.

Free to answer (no schema), it ends its turn at once: an empty answer. Under a JSON schema
(grammar-constrained, greedy), where the end is not allowed it writes the best-ranked token
the grammar allows, so ``{"translations": [{"id": N, "en": "…"}]}`` comes out as
``{"translations":[{"id":1,"en":"ok"}]}`` — schema-valid, the same whatever the prompt, in
milliseconds. (With random weights it would never close a string.)

What llama.cpp needs of the vocabulary, or it aborts or misreads (measured; see
/work/shared/DESIGN.md): the 256 byte-fallback tokens ``<0x00>``…``<0xFF>`` with token
type BYTE, token types for every token, a ``▁`` token, and a ChatML
``tokenizer.chat_template`` (else the server silently formats prompts as llama-2).

    python tests/support/tiny_gguf.py out.gguf       # about 0.3 MB, a few milliseconds
"""

from __future__ import annotations

import sys
from pathlib import Path

CHATML = ("{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + "
          "message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}"
          "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}")
WORD = "ok"                              # what the model writes inside a JSON string
JSON_TOKENS = ["{", "}", "[", "]", ":", ",", '"', "1"]
N_EMBD, N_FF, N_HEAD, N_LAYER = 64, 128, 2, 2


def vocabulary() -> tuple[list[str], list[int]]:
    import gguf

    tokens = ["<unk>", "<s>", "</s>", "<|im_start|>", "<|im_end|>"]
    types = [gguf.TokenType.UNKNOWN] + [gguf.TokenType.CONTROL] * 4
    tokens += [f"<0x{b:02X}>" for b in range(256)]
    types += [gguf.TokenType.BYTE] * 256
    pieces = ["▁"] + JSON_TOKENS + [WORD] + [str(d) for d in range(2, 10)]
    tokens += pieces
    types += [gguf.TokenType.NORMAL] * len(pieces)
    return tokens, [int(t) for t in types]


def write(path: Path, context: int = 4096) -> Path:
    """Write the model to ``path``; ``context``: its trained context length (the server's
    ``--n_ctx`` may be smaller)."""
    import numpy as np
    import gguf

    tokens, types = vocabulary()
    index = {t: i for i, t in enumerate(tokens)}
    n_vocab = len(tokens)
    eos = index["<|im_end|>"]

    # the embedding says which of three cases the current token is
    QUOTE, AFTER_WORD, OTHER = 0, 1, 2
    embd = np.zeros((n_vocab, N_EMBD), dtype=np.float32)
    embd[:, OTHER] = 1.0
    for t in ('"', "<0x22>"):
        embd[index[t]] = 0.0
        embd[index[t], QUOTE] = 1.0
    embd[index[WORD]] = 0.0
    embd[index[WORD], AFTER_WORD] = 1.0

    # output row v, column c: how token v ranks after a token of case c (higher first)
    out = np.zeros((n_vocab, N_EMBD), dtype=np.float32)
    rest = -1.0                                         # every other token
    out[:, :3] = rest
    for t in ("▁", "<0x20>", "<0x0A>", "<0x09>", "<0x0D>"):
        out[index[t], :3] = -2.0                        # white space last
    ranking = ["<|im_end|>"] + JSON_TOKENS
    for rank, t in enumerate(ranking):
        out[index[t], OTHER] = 10.0 - rank * 0.5
        out[index[t], QUOTE] = 10.0 - rank * 0.5
        out[index[t], AFTER_WORD] = 10.0 - rank * 0.5
    out[index[WORD], QUOTE] = 20.0                      # "  → ok
    out[index['"'], AFTER_WORD] = 20.0                  # ok → "

    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name("zhen-tiny")
    writer.add_context_length(context)
    writer.add_embedding_length(N_EMBD)
    writer.add_block_count(N_LAYER)
    writer.add_feed_forward_length(N_FF)
    writer.add_head_count(N_HEAD)
    writer.add_head_count_kv(N_HEAD)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_rope_dimension_count(N_EMBD // N_HEAD)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    writer.add_tokenizer_model("llama")
    writer.add_token_list(tokens)
    writer.add_token_scores([0.0] * 5 + [0.0] * 256 + [-float(i) for i in range(n_vocab - 261)])
    writer.add_token_types(types)
    writer.add_bos_token_id(index["<s>"])
    writer.add_eos_token_id(eos)
    writer.add_unk_token_id(index["<unk>"])
    writer.add_add_bos_token(False)
    writer.add_chat_template(CHATML)

    zeros = lambda *shape: np.zeros(shape, dtype=np.float32)          # noqa: E731
    ones = lambda n: np.ones(n, dtype=np.float32)                     # noqa: E731
    writer.add_tensor("token_embd.weight", embd)
    for b in range(N_LAYER):
        writer.add_tensor(f"blk.{b}.attn_norm.weight", ones(N_EMBD))
        for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
            writer.add_tensor(f"blk.{b}.{name}.weight", zeros(N_EMBD, N_EMBD))
        writer.add_tensor(f"blk.{b}.ffn_norm.weight", ones(N_EMBD))
        writer.add_tensor(f"blk.{b}.ffn_gate.weight", zeros(N_FF, N_EMBD))
        writer.add_tensor(f"blk.{b}.ffn_up.weight", zeros(N_FF, N_EMBD))
        writer.add_tensor(f"blk.{b}.ffn_down.weight", zeros(N_EMBD, N_FF))
    writer.add_tensor("output_norm.weight", ones(N_EMBD))
    writer.add_tensor("output.weight", out)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


if __name__ == "__main__":
    print(write(Path(sys.argv[1] if len(sys.argv) > 1 else "tiny.gguf")))
