// Pebbles' greedy bot in Rust: takes the most valuable pebble (the first of equals).
use std::io::{self, BufRead};

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines().map(|line| line.unwrap());
    if lines.next().is_none() {
        return;
    }
    loop {
        if lines.next().is_none() {
            return; // the scores: the game is over
        }
        lines.next(); // how many pebbles are left
        let values: Vec<i32> = match lines.next() {
            Some(line) => line.split_whitespace().map(|v| v.parse().unwrap()).collect(),
            None => return,
        };
        let mut best = 0;
        for i in 1..values.len() {
            if values[i] > values[best] {
                best = i;
            }
        }
        println!("{}", best);
    }
}
