"""Every command a key can run: free functions of the client model, registered by name.

A command is ``def name(client: Client) -> None``; :func:`command` registers it under the name
the key list (:data:`.keys.KEYS`) gives it, and importing this module checks that every key has
a command and every command a key (:func:`.keys.check_commands`).  The screen
(:class:`~.controller.Controller`) runs the command a key names; the mouse runs them by name.
Every move goes through the table, hence through the engine's legal actions; a refused move
shows the engine's reason.
"""

from __future__ import annotations

from collections.abc import Callable

from ..ai.asking import Outlook
from ..engine import Phase, PlayerView, team
from ..engine import actions as A
from ..engine.cards import IS_RED_THREE, IS_WILD, RANK_OF, card_text, plural
from ..engine.moves import NO_WILD_IN_SEQUENCE, sequence_closed_text
from ..presets import rules_label
from .dialogs import NAME_MAX, ChatInput, Confirm, LoadList, Log, PileChoice, Quit, SaveName, Score, Sheet, WildTarget
from .helppages import HelpPage
from .keys import KEYS, CommandTable
from .model import Client
from .moves import WILD_RANKS, compose_meld, compose_sequence, with_wild_for_pair
from .pages import PageDialog
from .texts import ask_warning

#: A command: what a key does to the client.
Command = Callable[[Client], None]
#: The table's commands (the lobby and the start menu have theirs, of the same kind).
TABLE: CommandTable[Command] = CommandTable("the table's", KEYS)
#: Every command by its name in the key list.
COMMANDS: dict[str, Command] = TABLE.commands
command = TABLE.command


# ---------------------------------------------------------------------- play


def _cards_for_meld(client: Client) -> list[int]:
    hand = client.hand()
    if client.selected:
        return [hand[i] for i in sorted(client.selected)]
    if not hand:
        return []
    r = RANK_OF[hand[client.cursor]]
    return [c for c in hand if RANK_OF[c] == r]


def _need_turn(client: Client) -> bool:
    if not client.my_turn():
        v = client.view()
        if v.phase == Phase.HAND_OVER:
            client.message = ["The hand is over"]
        elif client.viewer is None and not client.link.seats:
            client.message = ["You are watching this table"]
        else:
            client.message = [f"It is {client.link.name(v.actor)}'s turn"]
        return False
    return True


@command("draw")
def draw(client: Client) -> None:
    if _need_turn(client):
        client.play([A.A_DRAW])


@command("pile")
def pile(client: Client) -> None:
    if not _need_turn(client):
        return
    v = client.mine()
    options = [a for a in v.legal if a.kind == A.PILE]
    if not options:
        client.play([A.A_PILE])            # refused: the table says why
        return
    if client.selected:
        hand = client.hand()
        chosen = [hand[i] for i in sorted(client.selected)]
        ranks = sorted(RANK_OF[c] for c in chosen)
        match = [a for a in options if sorted(a.ranks) == ranks]
        if match:
            # Samba, Bolivia: the pair the person selected goes with the upcard (suits matter to
            # sequences), not the first of its rank in the hand.
            client.play([A.with_cards(match[0], chosen) if v.rules.sequences else match[0]])
            return
    if len(options) == 1:
        client.play([options[0]])
        return
    client.open(PileChoice(options=options))


@command("meld")
def meld(client: Client) -> None:
    if not _need_turn(client):
        return
    cards = _cards_for_meld(client)
    if not cards:
        return
    v = client.mine()
    if not client.selected and all(IS_WILD[c] for c in cards):
        add_wild(client)
        return
    row = v.melds[team(v.turn, v.rules)]
    if client.auto_wild:
        cards = with_wild_for_pair(cards, client.hand(), v.legal)
    # Samba, Bolivia: the cards the person selected are the ones melded (suits matter there).
    plan = compose_meld(cards, row, v.rules.wild_melds_allowed, v.rules,
                        named=bool(client.selected) and v.rules.sequences, selected=bool(client.selected))
    if isinstance(plan, str):
        client.message = [plan]
        return
    client.play(plan)


@command("meld_one")
def meld_one(client: Client) -> None:
    if not _need_turn(client):
        return
    hand = client.hand()
    if not hand:
        return
    c = hand[client.cursor]
    if IS_WILD[c]:
        add_wild(client)
        return
    client.play([A.add(RANK_OF[c])])


@command("meld_three")
def meld_three(client: Client) -> None:
    if not _need_turn(client):
        return
    hand = client.hand()
    if not hand:
        return
    r = RANK_OF[hand[client.cursor]]
    n = sum(1 for c in hand if RANK_OF[c] == r)
    if r in WILD_RANKS:
        client.message = ["Meld three needs a natural rank under the cursor"]
        return
    if n >= 3:
        client.play([A.meld(r, r, r)])
        return
    wild = next((RANK_OF[c] for c in hand if IS_WILD[c]), None)
    if n == 2 and wild is not None:
        client.play([A.meld(r, r, wild)])
        return
    client.message = [f"Meld three needs three {plural(r)} (or two and a wild card); you hold {n}"]


@command("join")
def join(client: Client) -> None:
    """Samba, Bolivia: a side "may combine its melds in the same rank at any time": the further
    meld of the cursor card's rank joins the first (with one join allowed, that one)."""
    if not _need_turn(client):
        return
    v = client.mine()
    joins = [a for a in v.legal if a.kind == A.JOIN]
    hand = client.hand()
    r = RANK_OF[hand[client.cursor]] if hand else 0
    rank = 2 if r in WILD_RANKS else r
    if A.join(rank) in joins:
        client.play([A.join(rank)])
    elif len(joins) == 1:
        client.play(joins)
    elif joins:
        names = " or ".join("wild cards" if a.ranks[0] == 2 else plural(a.ranks[0]) for a in joins)
        client.message = [f"Put the cursor on a card of the rank to join: you may join your {names}"]
    else:
        client.play([A.join(rank or 13)])     # refused: the table says why


@command("add_wild")
def add_wild(client: Client) -> None:
    if not _need_turn(client):
        return
    hand = client.hand()
    cards = [hand[i] for i in sorted(client.selected)] if client.selected else hand[client.cursor:client.cursor + 1]
    wild = next((c for c in cards if IS_WILD[c]), None)
    if wild is None:
        wild = next((c for c in hand if IS_WILD[c]), None)
    if wild is None:
        client.message = ["You hold no wild card"]
        return
    client.open(WildTarget(card=wild))


@command("wilds_to_canasta")
def wilds_to_canasta(client: Client) -> None:
    """Windows 2.41: "Pressing SHIFT while clicking will add as many wildcards as necessary to
    create a canasta (if possible)"; here W, then the meld's rank."""
    if not _need_turn(client):
        return
    if not any(IS_WILD[c] for c in client.hand()):
        client.message = ["You hold no wild card"]
        return
    client.open(WildTarget(until_canasta=True))


@command("discard")
def discard(client: Client) -> None:
    if not _need_turn(client):
        return
    hand = client.hand()
    if not hand:
        return
    if len(client.selected) == 1:
        c = hand[next(iter(client.selected))]
    elif len(client.selected) > 1:
        client.message = ["Select one card to discard (or none: the cursor card is discarded)"]
        return
    else:
        c = hand[client.cursor]
    _discard(client, c)


def discard_card(client: Client, index: int) -> None:
    """The card at ``index`` of the hand as shown is discarded, whatever is selected (a right-click
    on it, with "Right-click discards" on); the cursor goes there.  Not now: the rules' reason."""
    if not _need_turn(client):
        return
    hand = client.hand()
    if not 0 <= index < len(hand):
        return
    client.cursor = index
    _discard(client, hand[index])


def _discard(client: Client, c: int) -> None:
    hand = client.hand()
    a = A.discard(c)
    v = client.mine()
    if a in v.legal and v.t.permission == 1 and len(hand) > 1:
        # DOS "Asking Permission": "The player is bound by the reply ... Should the player
        # not abide by the answer, a 100 point penalty is assessed."  Say it before it costs.
        pen = v.rules.permission_penalty
        left = len(hand) - 1
        client.open(Confirm(text="\n".join([
            f"Your partner said yes: you must go out this turn or pay {pen}.",
            f"Discarding {card_text(c, True)} keeps {left} card{'s' if left != 1 else ''} in your hand,",
            f"so your side pays {pen} points."]), answers=[("y", "discard anyway", lambda: client.play([a]))],
            enter=True, no_label="go back and meld"))
        return
    # Not legal: the table says why, and returns improper melds to the hand (DOS rule).
    client.play([a])


@command("undo")
def undo(client: Client) -> None:
    if _need_turn(client):
        client.play([A.A_UNDO])


@command("undo_all")
def undo_all(client: Client) -> None:
    if _need_turn(client):
        client.play([A.A_UNDO] * max(1, client.mine().undoable))


@command("unpile")
def unpile(client: Client) -> None:
    if not _need_turn(client):
        return
    pen = client.mine().rules.undo_pile_penalty
    def said() -> None:
        client.message = [f"The pile is back; your side pays a {pen}-point penalty. Draw from the stock."]
    client.play([A.A_UNPILE], said)


@command("end")
def end_hand(client: Client) -> None:
    if _need_turn(client):
        client.play([A.A_END])


@command("query")
def query(client: Client) -> None:
    """"May I go out, partner?"  Asking is optional ("A player may go out without asking
    permission") and binding: before a question that can only cost, the player is told so and
    may take it back (see :mod:`~canasta_tui.ai.asking`)."""
    if not _need_turn(client):
        return
    v = client.mine()
    if A.A_ASK not in v.legal:
        client.play([A.A_ASK])                 # refused: the table says why
        return
    client.coach.before_asking(v, lambda outlook: _ask(client, v, outlook))


def _ask(client: Client, asked: PlayerView, outlook: Outlook) -> None:
    """Query's look ahead is done: warn, or ask; nothing if the player has moved on meanwhile."""
    if not client.my_turn() or client.mine() != asked or client.dialog is not None:
        return
    warning = ask_warning(outlook, asked)
    if warning is None:
        client.play([A.A_ASK])
    else:
        # (the warning ends with its own answers: "Ask anyway?    y: ask    n: do not ask")
        client.open(Confirm(text=warning, answers=[("y", "ask", lambda: client.play([A.A_ASK]))], enter=True, footer=""))


@command("discard_red_three")
def discard_red_three(client: Client) -> None:
    """Windows 2.41 "Red Three options - Freeze discard pile": a laid-out red three may be
    discarded to freeze the pile (right-click on it there; here a key)."""
    if not _need_turn(client):
        return
    v = client.mine()
    threes = [a for a in v.legal if a.kind == A.DISCARD and IS_RED_THREE[a.card]]
    if threes:
        client.play([threes[0]])
    elif not v.rules.red_three_discard_freezes:
        client.message = ["These rules do not let a red three be discarded (the option 'red_three_discard_freezes')"]
    elif not v.red_threes[v.turn]:
        client.message = ["You have no red three laid out"]
    else:
        client.play([A.discard(v.red_threes[v.turn][0])])    # refused: the table says why


@command("hint")
def hint(client: Client) -> None:
    """What the Expert would play now, with its reason, on the hint line ("Thinking…" meanwhile):
    from the player's own view only, on their turn, and never at a rated table."""
    if client.coach.refusal:
        client.message = [client.coach.refusal]
        return
    if not _need_turn(client):
        return
    # The answer goes on the hint line, where a turn timer's warning may be: the player has seen
    # it, and asked for this (a warning that comes later shows over the answer again).
    client.turn_note = ""
    client.coach.ask(client.mine())


# ---------------------------------------------------------------------- the hand: cursor, selection, order


@command("left")
def left(client: Client) -> None:
    client.cursor = max(0, client.cursor - 1)


@command("right")
def right(client: Client) -> None:
    client.cursor = min(max(0, len(client.hand()) - 1), client.cursor + 1)


def _move_card(client: Client, step: int) -> None:
    """Move the cursor card one place (the mobile app lets a player arrange the hand); the
    cursor and the selection go with the cards."""
    hand = client.hand()
    here, there = client.cursor, client.cursor + step
    if client.viewer is None or not 0 <= there < len(hand):
        return
    hand[here], hand[there] = hand[there], hand[here]
    client.arranged[client.viewer] = hand
    client.selected = {there if i == here else here if i == there else i for i in client.selected}
    client.cursor = there


@command("move_left")
def move_left(client: Client) -> None:
    _move_card(client, -1)


@command("move_right")
def move_right(client: Client) -> None:
    _move_card(client, 1)


def _rank_jump(client: Client, step: int) -> None:
    hand = client.hand()
    if not hand:
        return
    r = RANK_OF[hand[client.cursor]]
    i = client.cursor
    while 0 <= i + step < len(hand):
        i += step
        if RANK_OF[hand[i]] != r:
            if step < 0:
                r2 = RANK_OF[hand[i]]
                while i > 0 and RANK_OF[hand[i - 1]] == r2:
                    i -= 1
            client.cursor = i
            return


@command("prev_rank")
def prev_rank(client: Client) -> None:
    _rank_jump(client, -1)


@command("next_rank")
def next_rank(client: Client) -> None:
    _rank_jump(client, 1)


@command("home")
def home(client: Client) -> None:
    client.cursor = 0


@command("end_of_hand")
def end_of_hand(client: Client) -> None:
    client.cursor = max(0, len(client.hand()) - 1)


@command("select")
def select(client: Client) -> None:
    if not client.hand():
        return
    client.selected ^= {client.cursor}


@command("select_rank")
def select_rank(client: Client) -> None:
    hand = client.hand()
    if not hand:
        return
    r = RANK_OF[hand[client.cursor]]
    idx = {i for i, c in enumerate(hand) if RANK_OF[c] == r}
    client.selected = client.selected - idx if idx <= client.selected else client.selected | idx


@command("clear")
def clear(client: Client) -> None:
    client.selected.clear()


# ---------------------------------------------------------------------- the game: scores, pages, files, leaving


@command("score")
def score(client: Client) -> None:
    client.open(Score())


@command("sheet")
def sheet(client: Client) -> None:
    client.open(Sheet())


@command("log")
def log(client: Client) -> None:
    client.open(Log())


@command("help")
def show_help(client: Client) -> None:
    if client.host is not None:
        client.open(PageDialog(client.host.page("help")))
        return
    client.open(PageDialog(HelpPage(client.link.rules, rules_label(client.link.rules))))


@command("options")
def options(client: Client) -> None:
    if client.host is None:
        client.message = ["Options are set at the start menu of a game at your own terminal"]
        return
    client.open(PageDialog(client.host.page("options")))


@command("statistics")
def statistics(client: Client) -> None:
    if client.host is None:
        client.message = ["Statistics are shown at the start menu of a game at your own terminal"]
        return
    client.open(PageDialog(client.host.page("statistics")))


@command("new_game")
def new_game(client: Client) -> None:
    """F2, as Canasta for Windows 2.41's Game | New: asks first; the game stays saved."""
    client.offer_new_game()


@command("redraw")
def redraw(client: Client) -> None:
    pass


@command("suspend")
def suspend(client: Client) -> None:
    if client.on_suspend is None:
        client.message = ["Ctrl-Z does nothing here"]
        return
    client.on_suspend()


@command("quit")
def quit_table(client: Client) -> None:
    client.open(Quit())


@command("chat")
def chat(client: Client) -> None:
    if not client.link.can_chat:
        client.message = ["Chat is for tables played over SSH (canasta serve): here everybody sees this screen"]
        return
    client.open(ChatInput())


@command("save")
def save(client: Client) -> None:
    if client.files is None:
        client.message = ["Saving is not available at this table"]
        return
    client.open(SaveName(text=client.files.default_name()[:NAME_MAX]))


@command("load")
def load(client: Client) -> None:
    if client.files is None:
        client.message = ["Loading is not available at this table"]
        return
    items = list(client.files.saved_games())
    if not items:
        client.message = [f"No saved games yet (F4 saves one; they go to {client.files.where()})"]
        return
    client.open(LoadList(items=items, chosen=client.load))


# ---------------------------------------------------------------------- the mouse and scripts


def add_to_meld(client: Client, side: int, slot: int) -> None:
    """A click on a side's meld (``slot``: its place in the side's row, 15 and up for a sequence
    or a further meld of a rank): the wild cards and natural cards of its rank under the cursor
    (or selected) go onto it; onto a sequence, the selected cards that continue it (not a key's
    command: the mouse's, see ``Controller.click_meld``)."""
    if not _need_turn(client):
        return
    v = client.mine()
    if team(v.turn, v.rules) != side:
        client.message = ["You may never play on an opponent's meld"]
        return
    row = v.melds[side]
    m = row[slot] if 0 <= slot < len(row) else None
    if m is None:
        return
    hand = client.hand()
    chosen = [hand[i] for i in sorted(client.selected)] if client.selected else hand[client.cursor:client.cursor + 1]
    if m.is_sequence:
        plan = compose_sequence(chosen, [*row[:15], m], v.rules)
        if not isinstance(plan, list) or any(a.kind != A.ADD for a in plan):
            run = f"{card_text(m.naturals[0], symbols=True)}-{card_text(m.naturals[-1], symbols=True)}"
            # The engine's words where they apply: a wild card, a sequence of seven.
            client.message = [NO_WILD_IN_SEQUENCE if any(IS_WILD[c] for c in chosen) else
                              sequence_closed_text(v.rules) if m.is_closed else
                              f"Select cards that continue the sequence {run} at either end"]
            return
        client.play(plan)
        return
    rank = m.rank
    wilds = [c for c in chosen if IS_WILD[c]]
    naturals = [c for c in chosen if not IS_WILD[c] and RANK_OF[c] == rank]
    if not wilds and not naturals:
        if not chosen:
            client.message = [f"Select the cards to add to the {plural(rank) if rank != 2 else 'wild cards'} first"]
        else:
            # Cards of another rank (a King onto the meld of wild cards): the engine says why not.
            client.play([A.add(RANK_OF[chosen[0]], rank)])
    else:
        client.play([*(A.add(rank) for _ in naturals), *(A.add(RANK_OF[w], rank) for w in wilds)])


def type_action(client: Client, text: str) -> bool:
    """Play an action written in the notation (``meld K K K``), as the player to act (tests, demos)."""
    from ..engine import parse_action

    return client.play([parse_action(text)])


TABLE.check()


__all__ = ["COMMANDS", "TABLE", "Command", "add_to_meld", "command", "discard_card", "type_action"]
