"""Playing at this terminal: the tables ``canasta`` starts and what keeps them.

``canasta``'s command line (``cli.py``) and the start menu (:class:`~.home.LocalHome`) start
tables here, from the command line's options, the settings and the saves (:mod:`.start`,
:mod:`.seats`); each table played here is a :class:`~.local.LocalTable`: the table, its
autosaver, and the recording of its result in the statistics, owned by whoever started it.
The files themselves (saves, settings, statistics) are :mod:`canasta_tui.persistence`'s;
the tables played over SSH are :mod:`canasta_tui.server`'s.
"""

from .home import LocalHome
from .local import LocalTable, TableFiles, attach
from .seats import saved_seats, seating, seats_of_save
from .start import apply_rule_options, choose_start, open_for_play, other_unfinished, start_table

__all__ = ["LocalHome", "LocalTable", "TableFiles", "apply_rule_options", "attach", "choose_start",
           "open_for_play", "other_unfinished", "saved_seats", "seating", "seats_of_save", "start_table"]
