// Pebbles' greedy bot in C++: takes the most valuable pebble (the first of equals).
#include <iostream>
#include <vector>

int main() {
    int players, me;
    if (!(std::cin >> players >> me)) return 0;
    while (true) {
        int score, left;
        for (int p = 0; p < players; p++)
            if (!(std::cin >> score)) return 0;
        std::cin >> left;
        std::vector<int> values(left);
        for (int& value : values) std::cin >> value;
        int best = 0;
        for (int i = 1; i < left; i++)
            if (values[i] > values[best]) best = i;
        std::cout << best << std::endl;
    }
}
