"""A Pebbles bot in several modules, as a user writes one for `arena bundle PATH/main.py`: a helper
module beside it (turns.py) and a package (strategy/, whose modules import each other relatively).
It takes one of the two most valuable pebbles, drawn with its seed for the game (CALDERA_BOT_SEED,
0 without): so its moves show whether it was given the same seed."""

import sys

from strategy import choose
from turns import read_turn


def main() -> None:
    header = sys.stdin.readline()
    if not header:
        return
    while (values := read_turn(sys.stdin)) is not None:
        print(choose(values), flush=True)


if __name__ == "__main__":
    main()
