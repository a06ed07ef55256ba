// Pebbles' greedy bot in C#: takes the most valuable pebble (the first of equals).
using System;

class Player {
    static void Main(string[] args) {
        if (Console.ReadLine() == null) return;
        while (Console.ReadLine() != null) { // the scores
            Console.ReadLine(); // how many pebbles are left
            string[] values = Console.ReadLine().Split(' ');
            int best = 0;
            for (int i = 1; i < values.Length; i++)
                if (int.Parse(values[i]) > int.Parse(values[best])) best = i;
            Console.WriteLine(best);
        }
    }
}
