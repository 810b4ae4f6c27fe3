"""The club: people and their records (the store on SQLite or PostgreSQL, its writes off the
event loop), ratings and finished matches, a person's own record, admins and bans."""
