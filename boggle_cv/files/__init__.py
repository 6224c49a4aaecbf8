"""What the process reads and writes: text files read with bounded memory, pipes,
outputs written whole, the shipped resources and the cache, settings from the
environment."""
