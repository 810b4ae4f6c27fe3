"""The lobby: every table, the connected people, the lobby's chat, invitations, the tables not
started yet, and what one person may ask of them."""
