"""The tables: a server's table and who sits where (turn timer, forfeits, rematch), and every table
autosaved and brought back."""
