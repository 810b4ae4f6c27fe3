"""A person's text round-trips through PersonId exactly, in every form a store or a save writes,
and anything else is refused (it may come from a damaged file, or over the bus)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canasta_tui.ai import ALL_LEVELS
from canasta_tui.server.door.auth import Identity, guest_digest, guest_identity
from canasta_tui.server.door.names import skeleton
from canasta_tui.server.person import (
    MAX_PERSON,
    BadPerson,
    PersonId,
    PersonKind,
    Refusal,
    RefusalKind,
    person_text,
    reason,
)

from .helpers import fingerprint_of

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_.-"
fingerprints = st.text(B64, min_size=1, max_size=64).map(lambda s: "SHA256:" + s)
digests = st.text("0123456789abcdefABCDEFXYZ", min_size=1, max_size=64)
names = st.text(st.characters(codec="utf-8"), min_size=1, max_size=20).filter(lambda n: skeleton(n) != "")

stored = st.one_of(
    fingerprints.map(lambda f: f"key:{f}"),
    digests.map(lambda d: f"guest:{d}"),
    st.sampled_from(ALL_LEVELS).map(lambda lv: f"computer:{lv}"),
    names.map(lambda n: f"legacy:{skeleton(n)}"),
)


@given(stored)
def test_every_stored_form_round_trips(text: str) -> None:
    person = PersonId.parse(text)
    assert str(person) == text
    assert PersonId.parse(str(person)) == person
    assert hash(PersonId.parse(text)) == hash(person)
    assert person.is_key == text.startswith("key:")
    assert person.fingerprint == (text.removeprefix("key:") if text.startswith("key:") else "")


def test_what_the_server_makes_round_trips() -> None:
    # a real key's fingerprint, a real guest's digest, the levels, a name's look
    for text in (f"key:{fingerprint_of('alice')}", "key:SHA256:ann", f"guest:{guest_digest('K7PX-M2QA')}",
                 "computer:expert", "computer:beginner", f"legacy:{skeleton('Alice')}"):
        assert str(PersonId.parse(text)) == text
    alice = Identity("alice", fingerprint_of("alice"))
    assert alice.person == PersonId(PersonKind.KEY, fingerprint_of("alice"))
    assert str(guest_identity("gus", "k7pxm2qa").person) == f"guest:{guest_digest('K7PX-M2QA')}"


MALFORMED = [
    "", ":", "key", "key:", "key:abc", "key:SHA256:", "key:SHA256:ab cd", "key:SHA256:ab\ncd", "KEY:SHA256:ab",
    " key:SHA256:ab", "key:SHA256:ab ", "key:md5:ab", "guest:", "guest:ab-cd", "guest:ab cd", "guest:\x00",
    "computer:", "computer:grandmaster", "computer:Expert", "legacy:", "legacy:a b", "legacy:\x1b[2J",
    "address:10.0.0.1", "alice", "alice SHA256:abc", "key:SHA256:" + "A" * 65, "guest:" + "a" * 65,
    "legacy:" + "a" * 81, "key:SHA256:" + "A" * MAX_PERSON,
]


@pytest.mark.parametrize("text", MALFORMED)
def test_malformed_is_refused(text: str) -> None:
    with pytest.raises(BadPerson):
        PersonId.parse(text)
    assert PersonId.read(text) is None


@pytest.mark.parametrize("thing", [None, 3, b"key:SHA256:ab", ["key:SHA256:ab"], {"key": "SHA256:ab"}])
def test_only_text_is_a_person(thing: object) -> None:
    with pytest.raises(BadPerson):
        PersonId.parse(thing)


@given(st.text(max_size=120))
def test_any_text_is_a_person_written_exactly_or_refused(text: str) -> None:
    # (never a person whose text differs from what was read: no normalising of a malformed one)
    person = PersonId.read(text)
    assert person is None or str(person) == text


@given(st.sampled_from(list(PersonKind)), st.text(max_size=80))
def test_made_by_kind_is_checked_as_parsed(kind: PersonKind, value: str) -> None:
    try:
        person = PersonId(kind, value)
    except BadPerson:
        assert PersonId.read(f"{kind}:{value}") is None
    else:
        assert PersonId.parse(str(person)) == person


def test_a_person_is_not_its_text() -> None:
    # (a dict of people looked up by a stored string finds nobody: mypy --strict-equality says so first)
    person = PersonId.parse("key:SHA256:ann")
    assert person != "key:SHA256:ann"
    assert person_text(person) == "key:SHA256:ann" and person_text(None) == ""
    with pytest.raises(BadPerson):
        PersonId("key", "SHA256:ann")  # type: ignore[arg-type]


def test_a_refusal_is_its_words() -> None:
    no = Refusal("That table is gone", RefusalKind.GONE)
    assert str(no) == "That table is gone" and reason(no) == "That table is gone" and reason(None) is None
    assert Refusal("No").kind == RefusalKind.NO
