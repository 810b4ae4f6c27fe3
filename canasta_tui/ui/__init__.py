"""The full-screen table (prompt-toolkit): view -> text, keys, dialogs, style."""
