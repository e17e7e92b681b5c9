#!/usr/bin/env python3
"""Write one seed file per golden value (and a few edits of it) for record_parser_fuzzer.

usage: make_seed_corpus.py <store-record-golden.json> <output-dir>
"""
import json
import os
import sys


def main() -> int:
    fixture_path, out_dir = sys.argv[1], sys.argv[2]
    with open(fixture_path, encoding="utf-8") as f:
        fixture = json.load(f)
    os.makedirs(out_dir, exist_ok=True)
    count = 0
    for index, vector in enumerate(fixture["vectors"]):
        if "valueBytesHex" not in vector:
            continue
        value = bytes.fromhex(vector["valueBytesHex"])
        seeds = {
            "golden": value,
            "version2": value.replace(b'"recordVersion":1', b'"recordVersion":2'),
            "pretty": json.dumps(vector["value"], indent=1).encode("utf-8"),
        }
        for name, seed in seeds.items():
            path = os.path.join(out_dir, f"{index:02d}-{vector['record']}-{name}")
            with open(path, "wb") as out:
                out.write(seed)
            count += 1
    print(f"wrote {count} seeds to {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
