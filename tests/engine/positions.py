"""Building exact positions for scenario tests, from readable strings.

Two ways, as the engine allows:

* :func:`stacked_deck` orders a 108-card deck so that ``deal`` gives each seat the
  hand we want, turns the upcards we want and leaves the stock we want on top;
* :func:`position` builds a DRAW- or MELD-phase ``GameState`` directly, with the
  per-turn scratch (``Turn``) consistent with what ``_begin_turn`` would set.

Cards are written as in the notation: ``"Kh Kd 2c 7s JK"``; a meld as its cards
(``"Kh Kd Kc 2s"``), the rank being that of its natural cards (wild-only: the wild
meld, black threes: rank 3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from canasta_tui.engine import CLASSIC, GameState, Meld, Phase, Rules, Turn, apply, parse_action
from canasta_tui.engine.cards import DEUCE, IS_WILD, RANK_OF, SUIT_OF, full_deck, parse_cards
from canasta_tui.engine.moves import EMPTY_ROW
from canasta_tui.engine.state import team


def cards(text: str) -> tuple[int, ...]:
    return tuple(int(c) for c in parse_cards(text))


def make_meld(text: str) -> Meld:
    """A meld of one rank; or a sequence, written ``"seq 7h 8h 9h"`` (Samba, Bolivia)."""
    if text.startswith("seq "):
        cs = cards(text[4:])
        return Meld(RANK_OF[cs[0]], cs, (), SUIT_OF[cs[0]])
    cs = cards(text)
    naturals = tuple(c for c in cs if not IS_WILD[c])
    wilds = tuple(c for c in cs if IS_WILD[c])
    rank = RANK_OF[naturals[0]] if naturals else DEUCE
    return Meld(rank, naturals, wilds)


def _rest_of_deck(used: Iterable[int], packs: int = 2) -> list[int]:
    """The 108-card deck (162 with three packs) minus ``used`` (raises if a card is used more
    often than it exists)."""
    pool = Counter(int(c) for c in full_deck(packs))
    for c in used:
        if pool[c] <= 0:
            raise ValueError(f"card {c} used more often than the deck holds it")
        pool[c] -= 1
    return [c for c in sorted(pool) for _ in range(pool[c])]


def stacked_deck(hands: Sequence[str], upcards: str = "7c", stock: str = "", dealer: int = 0,
                 players: int = 4, hand_size: int = 11) -> list[int]:
    """A deck that deals ``hands[seat]`` to each seat (one card at a time from the dealer's
    left), then turns ``upcards`` (first turned first) and leaves ``stock`` on top of the
    stock; every other card follows.  Hands shorter than ``hand_size`` are filled up with
    the lowest remaining cards that are not threes or wild."""
    want = [list(cards(h)) for h in hands] + [[] for _ in range(players - len(hands))]
    up = cards(upcards)
    top = cards(stock)
    used = [c for h in want for c in h] + list(up) + list(top)
    rest = _rest_of_deck(used)
    plain = [c for c in rest if RANK_OF[c] not in (2, 3, 14)]
    for h in want:
        while len(h) < hand_size:
            c = plain.pop(0)
            rest.remove(c)
            h.append(c)
    deck: list[int] = []
    for i in range(hand_size * players):
        seat = (dealer + 1 + i) % players
        deck.append(want[seat][i // players])
    return deck + list(up) + list(top) + rest


def position(hands: Mapping[int, str] | Sequence[str], *, rules: Rules = CLASSIC, turn: int = 0,
             phase: Phase = Phase.MELD, melds: Mapping[int, Sequence[str]] | None = None,
             pile: str = "7c", stock: str | None = None, frozen: bool | None = None,
             red_threes: Mapping[int, str] | None = None, requirements: Sequence[int] | None = None,
             has_melded: Sequence[bool] | None = None, drew: str = "stock", dealer: int | None = None,
             stock_turned: bool = False, penalties: Sequence[int] | None = None) -> GameState:
    """A position at the start of ``turn``'s turn (DRAW) or right after drawing from the
    stock (MELD, ``drew="stock"``).

    ``stock`` is the stock, top first (default: every card not placed elsewhere);
    cards neither placed nor in the stock are out of play (before ``stock_pos``).
    ``frozen`` defaults to "the pile holds a wild card or red three".  ``has_melded``
    defaults to True for the seats of a side that has melds.
    """
    n = rules.players
    hand_map = dict(enumerate(hands)) if isinstance(hands, Sequence) else dict(hands)
    hand_t = [tuple(sorted(cards(hand_map.get(p, "")))) for p in range(n)]
    row_list = [list(EMPTY_ROW) for _ in range(rules.teams)]
    for tm, ms in (melds or {}).items():
        for text in ms:
            m = make_meld(text)
            if m.is_sequence or row_list[tm][m.rank] is not None:
                # a sequence, or a further meld of a rank (Samba, Bolivia): the next slot past 14
                assert m.is_sequence or rules.several_groups, f"two melds of rank {m.rank} for side {tm}"
                row_list[tm].append(m)
            else:
                row_list[tm][m.rank] = m
    meld_rows = tuple(tuple(r) for r in row_list)
    rt = [cards((red_threes or {}).get(p, "")) for p in range(n)]
    pile_t = cards(pile)
    placed = [c for h in hand_t for c in h] + [c for r in rt for c in r] + list(pile_t)
    for row in meld_rows:
        for m in row:
            if m is not None:
                placed.extend(m.naturals + m.wilds)
    rest = _rest_of_deck(placed, rules.packs)
    if stock is None:
        stock_t = tuple(rest)
        out = []
    else:
        stock_t = cards(stock)
        out = list(rest)
        for c in stock_t:
            out.remove(c)
    deck = tuple(placed + out) + stock_t
    if frozen is None:
        frozen = any(IS_WILD[c] or (RANK_OF[c] == 3 and c % 4 in (1, 2)) for c in pile_t)
    if has_melded is None:
        has_melded = tuple(any(m is not None for m in meld_rows[team(p, rules)]) for p in range(n))
    keys = 0
    for r, m in enumerate(meld_rows[team(turn, rules)]):
        if m is not None:
            keys |= 1 << r
    t = Turn(opened_at_start=keys != 0, melded_before=has_melded[turn], start_keys=keys)
    if phase == Phase.MELD:
        t = t._replace(drew=drew)
    if requirements is None:
        requirements = (rules.requirement(0),) * rules.teams
    return GameState(
        rules=rules, dealer=(turn - 1) % n if dealer is None else dealer,
        requirements=tuple(requirements), deck=deck, stock_pos=len(deck) - len(stock_t),
        hands=tuple(hand_t), melds=meld_rows, red_threes=tuple(rt), pile=pile_t, frozen=frozen,
        phase=phase, turn=turn, actor=turn, turn_number=1, has_melded=tuple(has_melded),
        threes_laid=(True,) * n, known=((),) * n, penalties=tuple(penalties or (0,) * rules.teams),
        t=t, stock_turned=stock_turned,
    )


def run(s: GameState, *actions: str) -> GameState:
    """Apply actions written in the notation, one after the other."""
    for text in actions:
        s = apply(s, parse_action(text))
    return s


def legal(s: GameState) -> list[str]:
    from canasta_tui.engine import legal_actions
    return [str(a) for a in legal_actions(s)]


def why(s: GameState, text: str) -> str | None:
    from canasta_tui.engine import explain
    return explain(s, parse_action(text))


def hand_text(s: GameState, seat: int) -> str:
    from canasta_tui.engine import cards_text
    return cards_text(s.hands[seat])
