/* Pebbles' greedy bot in C: takes the most valuable pebble (the first of equals). */
#include <stdio.h>

int main(void) {
    int players, me;
    if (scanf("%d %d", &players, &me) != 2) return 0;
    for (;;) {
        int score, left, value, best = 0, best_value = -1;
        for (int p = 0; p < players; p++)
            if (scanf("%d", &score) != 1) return 0;
        if (scanf("%d", &left) != 1) return 0;
        for (int i = 0; i < left; i++) {
            if (scanf("%d", &value) != 1) return 0;
            if (value > best_value) {
                best_value = value;
                best = i;
            }
        }
        printf("%d\n", best);
        fflush(stdout);
    }
}
