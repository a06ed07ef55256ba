"""A referee in CodinGame's SDK protocol (arena/games/sdk.py) that plays no game: each player in turn
is asked one line once, then the game ends with the SCORES that MODE gives. usage:
sdk_scripted.py MODE [PLAYERS]

MODE:
  fair          scores `i 10*i` (the last player wins); a player that timed out scores -1
  huge-score    player 0 scores a number of 400 digits
  huge-limit    asks each player for its answer within 999999999999 ms
  omit-player   scores player 0 alone
  duplicate     scores every player, then player 0 again with another score
  bare          scores without their players' indices (`0`, `10`)
Its input (the arena's frames) is read line by line; what it asks is answered with whatever comes."""

import sys

mode = sys.argv[1]
players = int(sys.argv[2]) if len(sys.argv) > 2 else 2


def read() -> str:
    line = sys.stdin.readline()
    if not line:
        sys.exit("the runner closed our input")
    return line.rstrip("\n")


def frames(*pairs) -> None:
    out = []
    for command, lines in pairs:
        out.append(f"[[{command}] {len(lines)}]")
        out.extend(lines)
    print("\n".join(out), flush=True)


def skip_frame() -> str:
    """One frame from the arena (INIT, GET_GAME_INFO, SET_PLAYER_OUTPUT or _TIMEOUT), its lines read;
    its header."""
    header = read()
    count = int(header.rsplit(" ", 1)[1].rstrip("]"))
    for _ in range(count):
        read()
    return header


skip_frame()  # INIT
timed_out: list[bool] = []
limit = "999999999999" if mode == "huge-limit" else "1000"
for player in range(players):
    skip_frame()  # GET_GAME_INFO
    frames(
        ("VIEW", ["view"]),
        ("INFOS", []),
        ("NEXT_PLAYER_INPUT", [f"you are {player}"]),
        ("NEXT_PLAYER_INFO", [str(player), "1", limit]),
    )
    timed_out.append("TIMEOUT" in skip_frame())  # its answer
skip_frame()  # GET_GAME_INFO
scores = [f"{i} {-1 if timed_out[i] else 10 * i}" for i in range(players)]  # a player that timed out lost
if mode == "huge-score":
    scores[0] = "0 " + "9" * 400
elif mode == "omit-player":
    scores = scores[:1]
elif mode == "duplicate":
    scores.append("0 99")
elif mode == "bare":
    scores = [score.split()[1] for score in scores]
frames(("VIEW", ["view"]), ("INFOS", []), ("SCORES", scores))
