#!/usr/bin/env python3
"""llk's SentencePiece tokenizer (llama/lib/Tokenizer.cpp, through llk-gguf)
against the `sentencepiece` package on the same vocabulary (issue 26).

Runs ON THE GPU MACHINE (python3 there has sentencepiece; no network), from
the repository root or from the carry of `scripts/gpu-check.sh prepare`:

    python3 bench/llama/tokenizer_vs_sentencepiece.py [--llk-gguf PATH]
        [--lines N] [--vocab-size V] [--seed S] [--out DIR]

1. Generates N lines of varied text, deterministically from the seed: words
   and made-up words, capitals, punctuation, numbers, runs of spaces, tabs,
   leading and trailing spaces, and UTF-8 (accented Latin, Greek, Cyrillic,
   CJK, emoji, symbols).
2. Trains a BPE model on the first three quarters with Llama 2's settings
   (byte_fallback, identity normalization, no removal of extra whitespace,
   the dummy prefix, split_digits, whitespace-only pieces allowed), vocab V.
3. Writes its pieces, scores and types into a vocabulary-only GGUF file (a
   small GGUF writer here, independent of llk's), as llama.cpp's converter
   does: types from IsUnknown/IsControl/IsUnused/IsByte.
4. Tokenizes every line -- the training lines, the held-out quarter, and
   stress lines (empty, spaces only, rare characters that only byte fallback
   can encode) -- with `llk-gguf tokenize --lines` (no BOS) and with
   sp.encode, and compares the ids; decodes llk's ids with `llk-gguf
   detokenize --lines` and compares with the line and with sp.decode.

Prints mismatches (the first 20) and a summary, writes
tokenizer_vs_sentencepiece.csv (one row a line) to DIR (default $OUT, else
the working directory), and exits 1 on any mismatch.
"""

import argparse
import csv
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time

SPACE = "\u2581"  # '▁'

WORDS = """
the of and to in is was he for it with as his on be at by had are but from or
have an they which one you were her all she there would their we him been has
when who will more no if out so said what up its about into than them can only
other new some could time these two may then do first any my now such like our
over man me even most made after also did many before must through back years
where much your way well down should because each just those people how too
little state good very make world still own see men work long get here between
both life being under never day same another know while last might us great
old year off come since against go came right used take three model language
token piece merge score vocabulary sentence encoder decoder attention layer
kernel tensor matrix vector memory compute throughput latency bandwidth cache
llama alpaca camel mountain river ocean forest desert island valley village
""".split()

# Words outside ASCII, in several scripts, some frequent enough to become
# pieces, others rare enough to need byte fallback.
UNICODE_WORDS = [
    "café", "naïve", "Zürich", "façade", "jalapeño", "smörgåsbord", "Ærøskøbing",
    "Ελλάδα", "φιλοσοφία", "Москва", "язык", "東京", "日本語", "中文", "北京",
    "한국어", "서울", "עברית", "العربية", "हिन्दी", "ภาษาไทย", "🙂", "🚀", "🦙",
    "∑", "≤", "→", "€", "£", "©", "—", "…", "«", "»",
]
PUNCTUATION = [",", ".", "!", "?", ";", ":", "'", '"', "-", "(", ")", "/", "&", "%"]
SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "zen", "qua", "str",
             "ph", "th", "ing", "ed", "er", "tion", "ous", "ly", "pre", "un"]


def make_word(rng):
    r = rng.random()
    if r < 0.70:
        word = rng.choice(WORDS)
    elif r < 0.85:
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4)))
    elif r < 0.93:
        word = str(rng.choice([rng.randint(0, 9), rng.randint(10, 999),
                               rng.randint(1000, 99999)]))
        if rng.random() < 0.2:
            word += "." + str(rng.randint(0, 99))
    else:
        word = rng.choice(UNICODE_WORDS)
    if rng.random() < 0.15:
        word = word.capitalize()
    elif rng.random() < 0.03:
        word = word.upper()
    return word


def make_line(rng):
    parts = []
    for i in range(rng.randint(1, 18)):
        word = make_word(rng)
        if rng.random() < 0.15:
            word += rng.choice(PUNCTUATION)
        if rng.random() < 0.03:
            word = "(" + word + ")"
        parts.append(word)
        if i:
            sep = " "
            r = rng.random()
            if r < 0.04:
                sep = " " * rng.randint(2, 5)
            elif r < 0.06:
                sep = "\t"
            parts[-2] += sep
    line = "".join(parts)
    if rng.random() < 0.05:
        line = " " * rng.randint(1, 3) + line
    if rng.random() < 0.05:
        line += " " * rng.randint(1, 3)
    return line


def stress_lines(rng, count):
    """Edge cases, and characters no training line has (byte fallback)."""
    lines = ["", " ", "  ", "   ", "\t", "a", " a", "a ", "a  b", "1234567890",
             "hello\tworld", "....", "!!!", "😀😀😀", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "\u00a0non-breaking",
             "tab\tand  spaces   ", "ÀÁÂÃÄÅ", "ǅǈǋ", "x" * 200, "the " * 50]
    ranges = [(0x00A1, 0x024F), (0x0370, 0x03FF), (0x0400, 0x04FF), (0x0600, 0x06FF),
              (0x3040, 0x30FF), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0x1F300, 0x1F6FF),
              (0x10000, 0x1007F), (0x1D400, 0x1D7FF)]
    while len(lines) < count:
        chars = []
        for _ in range(rng.randint(1, 20)):
            if rng.random() < 0.5:
                low, high = rng.choice(ranges)
                chars.append(chr(rng.randint(low, high)))
            else:
                chars.append(rng.choice(["a", "b", "e", " ", "  ", "the", "7", "."]))
        lines.append("".join(chars))
    return lines


# A GGUF v3 file holding a vocabulary and no tensors.
GGUF_U32, GGUF_I32, GGUF_F32, GGUF_BOOL, GGUF_STRING, GGUF_ARRAY = 4, 5, 6, 7, 8, 9


def gguf_string(text):
    data = text.encode("utf-8")
    return struct.pack("<Q", len(data)) + data


def write_vocab_gguf(path, pieces, scores, types, bos, eos, unk):
    entries = []

    def entry(key, type_id, payload):
        entries.append(gguf_string(key) + struct.pack("<I", type_id) + payload)

    def array(key, element_type, items):
        entry(key, GGUF_ARRAY, struct.pack("<IQ", element_type, len(items)) + b"".join(items))

    entry("general.architecture", GGUF_STRING, gguf_string("llama"))
    entry("tokenizer.ggml.model", GGUF_STRING, gguf_string("llama"))
    array("tokenizer.ggml.tokens", GGUF_STRING, [gguf_string(p) for p in pieces])
    array("tokenizer.ggml.scores", GGUF_F32, [struct.pack("<f", s) for s in scores])
    array("tokenizer.ggml.token_type", GGUF_I32, [struct.pack("<i", t) for t in types])
    for key, value in (("bos", bos), ("eos", eos), ("unknown", unk)):
        if value >= 0:
            entry(f"tokenizer.ggml.{key}_token_id", GGUF_U32, struct.pack("<I", value))
    entry("tokenizer.ggml.add_bos_token", GGUF_BOOL, b"\x01")
    entry("tokenizer.ggml.add_eos_token", GGUF_BOOL, b"\x00")
    entry("tokenizer.ggml.add_space_prefix", GGUF_BOOL, b"\x01")
    data = b"GGUF" + struct.pack("<IQQ", 3, 0, len(entries)) + b"".join(entries)
    data += b"\x00" * (-len(data) % 32)
    with open(path, "wb") as f:
        f.write(data)


def vocab_from_sentencepiece(sp):
    """Pieces, scores and GGUF token types, as llama.cpp's converter reads them."""
    pieces, scores, types = [], [], []
    for i in range(sp.get_piece_size()):
        pieces.append(sp.id_to_piece(i))
        scores.append(sp.get_score(i))
        if sp.is_unknown(i):
            types.append(2)
        elif sp.is_control(i):
            types.append(3)
        elif sp.is_unused(i):
            types.append(5)
        elif sp.is_byte(i):
            types.append(6)
        else:
            types.append(1)
    return pieces, scores, types


def find_llk_gguf(given):
    if given:
        return given
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.path.join(here, "..", "..", "bin", "llk-gguf"),   # the carry
                  os.path.join(here, "..", "..", "build", "bin", "llk-gguf"),
                  shutil.which("llk-gguf") or ""]
    for path in candidates:
        if path and os.access(path, os.X_OK):
            return os.path.normpath(path)
    sys.exit("llk-gguf not found: pass --llk-gguf (gpu-check.sh run tokenizer unpacks it)")


def run_llk(llk_gguf, args):
    result = subprocess.run([llk_gguf] + args, capture_output=True)
    if result.returncode != 0:
        sys.exit(f"llk-gguf {' '.join(args[:2])} failed:\n" + result.stderr.decode(errors="replace"))
    return result.stdout


def train(spm, lines, vocab_size, workdir):
    prefix = os.path.join(workdir, "bpe")
    log = os.path.join(workdir, "train.log")
    # The trainer logs to stderr from C++: send that to a file.
    saved = os.dup(2)
    with open(log, "w") as f:
        os.dup2(f.fileno(), 2)
        try:
            spm.SentencePieceTrainer.train(
                sentence_iterator=iter(lines), model_prefix=prefix, model_type="bpe",
                vocab_size=vocab_size, byte_fallback=True, character_coverage=0.9995,
                normalization_rule_name="identity", remove_extra_whitespaces=False,
                add_dummy_prefix=True, split_digits=True, allow_whitespace_only_pieces=True,
                unk_id=0, bos_id=1, eos_id=2, pad_id=-1, hard_vocab_limit=False,
                num_threads=max(1, min(16, os.cpu_count() or 1)))
        except Exception:
            os.dup2(saved, 2)
            sys.stderr.write(open(log).read()[-4000:])
            raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)
    return prefix + ".model"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--llk-gguf", help="the llk-gguf binary")
    parser.add_argument("--lines", type=int, default=4000, help="generated lines")
    parser.add_argument("--vocab-size", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--out", default=os.environ.get("OUT") or ".")
    args = parser.parse_args()

    import sentencepiece as spm  # on the GPU machine only

    llk_gguf = find_llk_gguf(args.llk_gguf)
    rng = random.Random(args.seed)
    generated = [make_line(rng) for _ in range(args.lines)]
    n_train = args.lines * 3 // 4
    rows = ([("train", t) for t in generated[:n_train]] +
            [("heldout", t) for t in generated[n_train:]] +
            [("stress", t) for t in stress_lines(rng, 300)])
    assert all("\n" not in t and "\r" not in t for _, t in rows)

    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as workdir:
        start = time.perf_counter()
        model = train(spm, generated[:n_train], args.vocab_size, workdir)
        train_s = time.perf_counter() - start
        sp = spm.SentencePieceProcessor(model_file=model)
        pieces, scores, types = vocab_from_sentencepiece(sp)
        vocab = os.path.join(workdir, "vocab.gguf")
        write_vocab_gguf(vocab, pieces, scores, types, sp.bos_id(), sp.eos_id(), sp.unk_id())

        texts = [t for _, t in rows]
        lines_path = os.path.join(workdir, "lines.txt")
        with open(lines_path, "wb") as f:
            f.write("\n".join(texts).encode("utf-8") + b"\n")
        start = time.perf_counter()
        out = run_llk(llk_gguf, ["tokenize", vocab, "--lines", lines_path, "--no-special"])
        llk_s = time.perf_counter() - start
        llk_ids = [[int(x) for x in line.split()] for line in out.decode().split("\n")[:-1]]
        start = time.perf_counter()
        sp_ids = [sp.encode(t) for t in texts]
        sp_s = time.perf_counter() - start

        ids_path = os.path.join(workdir, "ids.txt")
        with open(ids_path, "w") as f:
            f.write("".join(" ".join(map(str, ids)) + "\n" for ids in llk_ids))
        decoded = run_llk(llk_gguf, ["detokenize", vocab, "--lines", ids_path])
        llk_text = decoded.decode("utf-8", errors="surrogateescape").split("\n")[:-1]
        summary = (f"vocabulary: {len(pieces)} pieces "
                      f"({sum(t == 6 for t in types)} byte, {sum(t == 3 for t in types)} control, "
                      f"{sum(t == 1 for t in types)} normal); training {train_s:.1f} s")

    if len(llk_ids) != len(texts) or len(llk_text) != len(texts):
        sys.exit(f"llk-gguf returned {len(llk_ids)} tokenizations and {len(llk_text)} texts "
                 f"for {len(texts)} lines")

    print(summary)
    mismatches = 0
    round_trip_ok = sp_decode_ok = checked_round_trips = 0
    csv_path = os.path.join(args.out, "tokenizer_vs_sentencepiece.csv")
    with open(csv_path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["line", "kind", "chars", "sp_tokens", "llk_tokens", "match",
                         "first_difference", "llk_round_trip", "llk_equals_sp_decode", "text"])
        for i, ((kind, text), ours, theirs, back) in enumerate(
                zip(rows, llk_ids, sp_ids, llk_text)):
            match = ours == theirs
            first = next((k for k, (a, b) in enumerate(zip(ours, theirs)) if a != b),
                         min(len(ours), len(theirs))) if not match else -1
            # '▁' in the text decodes as a space, in both tokenizers.
            round_trip = back == text if SPACE not in text else None
            equals_sp = back == sp.decode(theirs)
            if round_trip is not None:
                checked_round_trips += 1
                round_trip_ok += round_trip
            sp_decode_ok += equals_sp
            writer.writerow([i, kind, len(text), len(theirs), len(ours), int(match), first,
                             "" if round_trip is None else int(round_trip), int(equals_sp),
                             text])
            if not match:
                mismatches += 1
                if mismatches <= 20:
                    print(f"MISMATCH line {i} ({kind}) {json.dumps(text, ensure_ascii=False)}")
                    print(f"  sp : {[sp.id_to_piece(x) for x in theirs]}")
                    print(f"  llk: {[sp.id_to_piece(x) for x in ours]}")

    n = len(texts)
    by_kind = {}
    for (kind, _), ours, theirs in zip(rows, llk_ids, sp_ids):
        total, same = by_kind.get(kind, (0, 0))
        by_kind[kind] = (total + 1, same + (ours == theirs))
    print("lines by kind: " + ", ".join(f"{k} {s}/{t} identical" for k, (t, s) in by_kind.items()))
    tokens = sum(len(x) for x in sp_ids)
    print(f"tokens: {tokens} (sentencepiece), {sum(len(x) for x in llk_ids)} (llk); "
          f"byte-fallback tokens in sentencepiece's: "
          f"{sum(types[x] == 6 for ids in sp_ids for x in ids)}")
    print(f"time: sp.encode {sp_s * 1e3:.0f} ms, llk-gguf tokenize --lines {llk_s * 1e3:.0f} ms "
          f"(a process, file reads included)")
    print(f"decode: llk round trip {round_trip_ok}/{checked_round_trips}, "
          f"llk == sp.decode {sp_decode_ok}/{n}")
    print(f"wrote {csv_path}")
    failed = mismatches + (checked_round_trips - round_trip_ok) + (n - sp_decode_ok)
    print(f"{n - mismatches} identical, {mismatches} different tokenizations of {n} lines")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
