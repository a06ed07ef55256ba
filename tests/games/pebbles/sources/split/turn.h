// One turn of Pebbles, as the bot reads it.
#ifndef PEBBLES_TURN_H
#define PEBBLES_TURN_H

#include <iostream>
#include <vector>

struct Turn {
    std::vector<int> scores;
    std::vector<int> values;
};

// The next turn (false once the input has ended).
inline bool read_turn(std::istream& in, int players, Turn& turn) {
    int left;
    turn.scores.assign(players, 0);
    for (int& score : turn.scores)
        if (!(in >> score)) return false;
    if (!(in >> left)) return false;
    turn.values.assign(left, 0);
    for (int& value : turn.values) in >> value;
    return true;
}

#endif
