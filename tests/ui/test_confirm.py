"""The one question box (``dialogs.Confirm``) the table, the lobby and the pages all open: each
answer is a key; Enter is the first answer only where the question says so (a plain yes/no, as
the table's "Before you do" and the lobby's "Are you sure?"), and any other key is no."""

from __future__ import annotations

from canasta_tui.ui.canvas import DEFAULT_OPTIONS, Canvas
from canasta_tui.ui.dialogs import Confirm
from canasta_tui.ui.pages import Page


class Host:
    def __init__(self) -> None:
        self.closed = 0

    def close(self) -> None:
        self.closed += 1


def asked(enter: bool) -> tuple[Confirm, list[str]]:
    said: list[str] = []
    box = Confirm("Reset", "Reset the statistics?", [("p", "only ann", lambda: said.append("p")),
                                                   ("a", "every player", lambda: said.append("a"))],
                  no=lambda: said.append("no"), enter=enter)
    return box, said


def test_each_answer_is_its_key_and_any_other_key_is_no() -> None:
    for name, meant in (("p", "p"), ("a", "a"), ("n", "no"), ("escape", "no"), ("q", "no"), ("enter", "no")):
        box, said = asked(enter=False)
        host = Host()
        box.key(host, name)
        assert (host.closed, said) == (1, [meant]), name


def test_enter_is_the_first_answer_where_the_question_says_so() -> None:
    box, said = asked(enter=True)
    box.key(Host(), "enter")
    assert said == ["p"]


def test_the_box_says_its_answers_and_its_no() -> None:
    box, _ = asked(enter=False)
    cv = Canvas(80, 24)
    box.draw(cv, None, DEFAULT_OPTIONS)
    assert "p: only ann    a: every player    any other key: no" in cv.text()
    named = Confirm("Are you sure?", "ban bob 24 spam?", [("y", "do it", lambda: None)], no_label="cancel")
    cv = Canvas(80, 24)
    named.draw(cv, None, DEFAULT_OPTIONS)
    assert "y: do it    n: cancel" in cv.text() and "ban bob 24 spam?" in cv.text()


def test_a_page_hosts_it_as_the_table_does_and_ctrl_c_still_quits() -> None:
    page = Page()
    box, said = asked(enter=False)
    page.open(box)
    page.key("a")
    assert page.child is None and said == ["a"] and not page.done
    page.open(asked(enter=False)[0])
    page.key("c-c")                        # Ctrl-C over a question leaves, as everywhere
    assert page.quit and page.done
