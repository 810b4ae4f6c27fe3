"""A terminal screen just big enough for the server benchmark's simulated players.

A full terminal emulator (pyte) per client costs more CPU than a 2-core machine can spare
for a hundred clients next to the server.  :class:`VtScreen` keeps only the characters
of the screen, and understands only what prompt-toolkit's VT100 output sends: text,
CR, LF, BS, cursor movement (``CSI A B C D G d H f``), erasing (``CSI J K``) and the
alternate screen; colours and other modes are skipped.  Every character counts one
column (the table draws none wider).
"""

from __future__ import annotations

import re

#: One piece of terminal output: a CSI sequence, an OSC string, another escape, text, a control.
_TOKEN = re.compile(
    r"\x1b\[([0-9;?<>=]*)[ -/]*([@-~])"      # CSI: parameters, final byte
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"     # OSC (a title)
    r"|\x1b[^\[\]]"                           # ESC and one character
    r"|([^\x00-\x1f\x7f]+)"                   # text
    r"|([\x00-\x1a\x1c-\x1f\x7f])"            # one control character (not ESC)
)

#: An unfinished escape sequence longer than this is garbage, not a sequence cut in two.
_MAX_PENDING = 64


class VtScreen:
    """The characters of a ``width`` x ``height`` terminal fed with what a server sent."""

    def __init__(self, width: int = 80, height: int = 24) -> None:
        self.width = width
        self.height = height
        self.rows: list[list[str]] = [[" "] * width for _ in range(height)]
        self.row = 0
        self.col = 0
        self._pending = ""

    def clear(self) -> None:
        for r in self.rows:
            r[:] = " " * self.width

    def feed(self, data: str) -> None:
        """Apply a piece of output (an escape sequence cut at the end waits for the next piece)."""
        if self._pending:
            data = self._pending + data
            self._pending = ""
        pos, end = 0, len(data)
        match = _TOKEN.match
        while pos < end:
            m = match(data, pos)
            if m is None:                   # an escape sequence not finished yet
                rest = data[pos:]
                self._pending = rest if len(rest) <= _MAX_PENDING else ""
                return
            pos = m.end()
            text = m.group(3)
            if text is not None:
                self._text(text)
                continue
            final = m.group(2)
            if final is not None:
                self._csi(m.group(1), final)
                continue
            ctrl = m.group(4)
            if ctrl == "\r":
                self.col = 0
            elif ctrl == "\n":
                self.row = min(self.height - 1, self.row + 1)
            elif ctrl == "\x08":
                self.col = max(0, self.col - 1)

    def _text(self, s: str) -> None:
        row, c, w = self.rows[self.row], self.col, self.width
        n = len(s)
        if c + n <= w:
            row[c:c + n] = s
            self.col = min(c + n, w - 1)
        else:
            # No automatic wrap (prompt-toolkit turns it off): the last column takes the overflow.
            keep = w - 1 - c
            if keep > 0:
                row[c:w - 1] = s[:keep]
            row[w - 1] = s[-1]
            self.col = w - 1

    def _csi(self, params: str, final: str) -> None:
        private = params.startswith("?")
        nums = [int(p) if p.isdigit() else 0 for p in params.lstrip("?<>=").split(";")] if params else []
        n = max(1, nums[0]) if nums else 1
        h, w = self.height, self.width
        if final == "m":
            return
        if private:
            if final in "hl" and 1049 in nums:
                self.clear()                # the alternate screen: a blank page either way
            return
        if final == "A":
            self.row = max(0, self.row - n)
        elif final == "B":
            self.row = min(h - 1, self.row + n)
        elif final == "C":
            self.col = min(w - 1, self.col + n)
        elif final == "D":
            self.col = max(0, self.col - n)
        elif final == "G":
            self.col = min(w - 1, n - 1)
        elif final == "d":
            self.row = min(h - 1, n - 1)
        elif final in "Hf":
            r = nums[0] if nums else 1
            c = nums[1] if len(nums) > 1 else 1
            self.row = min(h - 1, max(1, r) - 1)
            self.col = min(w - 1, max(1, c) - 1)
        elif final == "J":
            what = nums[0] if nums else 0
            if what == 0:
                self.rows[self.row][self.col:] = " " * (w - self.col)
                for line in self.rows[self.row + 1:]:
                    line[:] = " " * w
            elif what == 1:
                for line in self.rows[:self.row]:
                    line[:] = " " * w
                self.rows[self.row][:self.col + 1] = " " * (self.col + 1)
            else:
                self.clear()
        elif final == "K":
            what = nums[0] if nums else 0
            row = self.rows[self.row]
            if what == 0:
                row[self.col:] = " " * (w - self.col)
            elif what == 1:
                row[:self.col + 1] = " " * (self.col + 1)
            else:
                row[:] = " " * w

    # ------------------------------------------------------------------ reading
    def line(self, y: int) -> str:
        return "".join(self.rows[y]).rstrip()

    def lines(self) -> list[str]:
        return ["".join(r).rstrip() for r in self.rows]

    def text(self) -> str:
        return "\n".join(self.lines())


__all__ = ["VtScreen"]
