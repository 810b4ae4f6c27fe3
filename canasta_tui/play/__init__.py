"""Playing at this terminal: the tables ``canasta`` starts and what keeps them.

``canasta``'s command line (``cli.py``) and the start menu (:class:`~.home.LocalHome`) start
tables here, from the command line's options, the settings and the saves (:mod:`.start`,
:mod:`.seats`); each table played here is a :class:`~.local.LocalTable`: the table, its
autosaver, and the recording of its result in the statistics, owned by whoever started it.
The files themselves (saves, settings, statistics) are :mod:`canasta_tui.persistence`'s;
the tables played over SSH are :mod:`canasta_tui.server`'s.
"""
