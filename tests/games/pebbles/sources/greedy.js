// Pebbles' greedy bot in JavaScript: takes the most valuable pebble (the first of equals).
readline();
while (readline() !== null) { // the scores
    readline(); // how many pebbles are left
    const values = readline().split(" ").map(Number);
    let best = 0;
    values.forEach((value, i) => { if (value > values[best]) best = i; });
    console.log(best);
}
