// Which pebble to take: the K-th most valuable (K = 0: the greedy choice), the first of equals.
#pragma once

#include <algorithm>
#include <functional>

#include "turn.h"

inline int choose(const Turn& turn, int k) {
    std::vector<int> sorted = turn.values;
    std::sort(sorted.begin(), sorted.end(), std::greater<int>());
    int wanted = sorted[std::min<int>(k, sorted.size() - 1)];
    return std::find(turn.values.begin(), turn.values.end(), wanted) - turn.values.begin();
}
