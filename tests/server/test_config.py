"""The server's limits are checked when it starts: a bound that cannot work is refused with the
reason (``ServerConfig.checked``; ``canasta serve`` shows it as a usage error)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from canasta_tui.server import ConfigError

from .helpers import config


@pytest.mark.parametrize(("changes", "says"), [
    ({"max_columns": 79}, "the largest terminal painted must be from 80x24 to 1000x500 (columns x rows), not 79x200"),
    ({"max_rows": 501}, "not 500x501"),
    ({"input_flood": 100}, "input-flood (100 bytes) must be at least input-burst (8192)"),
    ({"input_flood_window": 0}, "in a window of more than 0 s"),
    ({"max_logins": 0}, "max-logins must be at least 1"),
])
def test_the_servers_bounds_are_checked_with_the_reason(changes: dict[str, Any], says: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(says)):
        config(**changes).checked()
