"""Who comes in and how: SSH connections and sessions, the host key, who may enter, names, and
the app one connection runs."""
