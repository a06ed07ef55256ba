// Pebbles' greedy bot in Go: takes the most valuable pebble (the first of equals).
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	if !in.Scan() {
		return
	}
	for {
		if !in.Scan() || !in.Scan() || !in.Scan() { // the scores, how many are left, their values
			return
		}
		best, bestValue := 0, -1
		for i, field := range strings.Fields(in.Text()) {
			value, _ := strconv.Atoi(field)
			if value > bestValue {
				best, bestValue = i, value
			}
		}
		fmt.Println(best)
	}
}
