"""The FAQ page of the help (the questions a first-time Canasta player asks) and "Report a problem"
in About, the README and the manual page."""

from __future__ import annotations

from pathlib import Path

from canasta_tui.engine import CLASSIC
from canasta_tui.presets import load_rules
from canasta_tui.ui.helppages import PAGES, HelpPage, about_lines, faq_lines

ROOT = Path(__file__).parent.parent.parent


def text(lines: list) -> str:  # type: ignore[type-arg]
    return " ".join(" ".join(ln.text.split()) for ln in lines)


def test_the_faq_answers_what_a_first_game_asks() -> None:
    lines = faq_lines(CLASSIC, 76)
    questions = [ln.text for ln in lines if ln.style == "heading"]
    for q in ("Why can't I take the pile?", "What is a frozen pile?", "Why was my meld refused?",
              "What does asking (y, Query) do?", "What do red and black threes do?", "How is a hand scored?"):
        assert q in questions
    page = text(lines)
    # the figures are the rules' in play, and the words Canasta's own
    assert "initial meld requirement (50 points" in page and "pays 100 points" in page
    assert "500 for each natural canasta" in page and "upcard" in page and "stop card" in page
    assert all(len(ln.text) <= 76 for ln in lines)


def test_the_faq_follows_the_rules_in_play() -> None:
    windows = text(faq_lines(load_rules("windows"), 76))
    assert "take that card alone onto it" in windows
    online = text(faq_lines(load_rules("online"), 76))
    assert "never more wild cards than natural ones" in online
    rich = text(faq_lines(CLASSIC.replace(permission_penalty=250, target_score=3000), 76))
    assert "pays 250 points" in rich and "first side to 3000" in rich


def test_the_faq_is_a_page_of_the_help() -> None:
    page = HelpPage(CLASSIC, "classic", page=PAGES.index("FAQ"))
    assert "Why can't I take the pile?" in text(page.lines(76))


def test_report_a_problem_in_about_readme_and_manual() -> None:
    about = text(about_lines("classic", [], 76))
    assert "Report a problem" in about and "issue tracker" in about and "canasta rules" in about
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "\n## Report a problem\n" in readme
    section = readme.split("\n## Report a problem\n", 1)[1].split("\n## ", 1)[0]
    assert "issue tracker" in section and "canasta --version" in section and "canasta rules" in section
    man = (ROOT / "man" / "canasta.6").read_text(encoding="utf-8")
    bugs = man.split(".SH REPORTING BUGS\n", 1)[1].split("\n.SH ", 1)[0]
    assert "issue tracker" in bugs and "canasta rules" in bugs
