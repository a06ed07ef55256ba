// Pebbles' greedy bot in TypeScript: takes the most valuable pebble (the first of equals).
readline();
while (readline() !== null) { // the scores
    readline(); // how many pebbles are left
    const values: number[] = readline()!.split(" ").map(Number);
    let best = 0;
    values.forEach((value, i) => { if (value > values[best]) best = i; });
    console.log(best);
}
