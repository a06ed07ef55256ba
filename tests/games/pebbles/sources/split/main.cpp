// Pebbles' bot of three files: this one, turn.h and choice.h (merged into one by `arena bundle`).
// K, from the environment, chooses the K-th most valuable pebble: 0 (the default) is greedy.
#pragma GCC optimize("O2")
#include <cstdlib>
#include <iostream>

#include "choice.h"
#include "turn.h"

int main() {
    const char* k = std::getenv("K");
    int players, me;
    if (!(std::cin >> players >> me)) return 0;
    Turn turn;
    while (read_turn(std::cin, players, turn)) std::cout << choose(turn, k ? std::atoi(k) : 0) << std::endl;
}
