// Pebbles' greedy bot in Java: takes the most valuable pebble (the first of equals).
import java.util.Scanner;

class Player {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        int players = in.nextInt();
        in.nextInt(); // my index
        while (in.hasNextInt()) {
            for (int p = 0; p < players; p++) in.nextInt();
            int left = in.nextInt(), best = 0, bestValue = -1;
            for (int i = 0; i < left; i++) {
                int value = in.nextInt();
                if (value > bestValue) {
                    bestValue = value;
                    best = i;
                }
            }
            System.out.println(best);
        }
    }
}
