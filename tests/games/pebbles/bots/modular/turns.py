"""Reading a Pebbles turn (the first line of the game, the header, is read by main.py)."""


def read_turn(stream) -> list[int] | None:
    """The pebbles' values of the next turn, or None when the input has ended."""
    if not stream.readline():  # the scores
        return None
    stream.readline()  # how many pebbles are left: the next line says it too
    return [int(v) for v in stream.readline().split()]
