"""One room over several processes (issue 32): the bus, the remote link, table ownership."""
