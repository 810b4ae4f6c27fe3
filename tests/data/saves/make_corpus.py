"""Regenerate the broken-save corpus from real games: ``python tests/data/saves/make_corpus.py``.

Each file is a real save (a seeded computer-vs-computer game) broken in one way.
The expected message for each is the table in ``tests/persistence/test_corpus.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from canasta_tui.engine import record
from canasta_tui.persistence.selfplay import reference
from canasta_tui.presets import load_rules

HERE = Path(__file__).parent
META = {"seats": ["human", "computer", "computer", "computer"], "names": ["Ann"], "level": "beginner", "seed": 5}


def base(rules: str = "classic", actions: int = 40) -> dict[str, Any]:
    return record.to_dict(reference(5, actions, rules), META)


def text(data: Any) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def write(name: str, content: str | bytes) -> None:
    p = HERE / name
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        p.write_text(content, encoding="utf-8")


def changed(**top: Any) -> str:
    d = base()
    d.update(top)
    return text(d)


def main() -> None:
    good = text(base())
    write("empty.json", "")
    write("blank.json", "\n   \n")
    write("truncated.json", good[: len(good) // 2])
    write("truncated-at-end.json", good.rstrip()[:-1])
    write("corrupt-json.json", good.replace('"first_dealer":', '"first_dealer";', 1))
    write("binary.json", bytes(range(128, 256)) * 4)
    write("nul-bytes.json", b"\0" * 512)
    write("top-level-list.json", "[1, 2, 3]\n")
    write("wrong-format.json", changed(format="chess-pgn"))
    write("newer-version.json", changed(version=99))
    write("no-version.json", changed(version=None))
    write("version-zero.json", changed(version=0))
    d = base()
    d["rules"]["jokers_wild_on_tuesdays"] = True
    write("rules-unknown-option.json", text(d))
    d = base()
    d["rules"]["hand_size"] = "eleven"
    write("rules-bad-type.json", text(d))
    d = base()
    d["rules"]["players"] = 5
    write("rules-five-players.json", text(d))
    write("rules-not-a-table.json", changed(rules="classic"))
    d = record.to_dict(reference(1, 45, "classic"), META)
    d["rules"] = load_rules("windows").to_dict()
    write("wrong-rules.json", text(d))
    d = base()
    d["rules"]["hand_size"] = 13
    write("wrong-hand-size.json", text(d))
    write("bad-first-dealer.json", changed(first_dealer=7))
    write("no-hands.json", changed(hands=[]))
    write("hands-not-a-list.json", changed(hands="all of them"))
    d = base()
    d["hands"][0]["deck"] = d["hands"][0]["deck"].replace(d["hands"][0]["deck"].split()[3], "ZZ", 1)
    write("bad-card-in-deck.json", text(d))
    d = base()
    d["hands"][0]["deck"] = " ".join(d["hands"][0]["deck"].split()[:30])
    write("short-deck.json", text(d))
    d = base()
    d["hands"][0]["actions"][4] = "dance a jig"
    write("unreadable-action.json", text(d))
    d = base()
    d["hands"][0]["actions"][4] = 42
    write("action-not-text.json", text(d))
    d = base()
    acts = d["hands"][0]["actions"]
    i = next(i for i, a in enumerate(acts) if a == "draw")
    acts.insert(i + 1, "draw")
    write("illegal-action.json", text(d))
    d = base()
    d["hands"][0]["actions"].append("meld A A A A A A A A A")
    write("illegal-last-action.json", text(d))
    d = base()
    d["snapshot"]["scores"] = [4000, 10]
    write("snapshot-scores.json", text(d))
    d = base()
    d["snapshot"]["hands"] = d["snapshot"]["hands"][::-1]
    write("snapshot-hands.json", text(d))
    write("snapshot-not-object.json", changed(snapshot=5))
    write("deep-nesting.json", "[" * 5000 + "]" * 5000)
    write("huge-number.json", '{"format": "canasta-tui-save", "version": 1' + "0" * 5000 + "}\n")
    write("nan-version.json", good.replace('"version": 1,', '"version": NaN,', 1))


if __name__ == "__main__":
    main()
