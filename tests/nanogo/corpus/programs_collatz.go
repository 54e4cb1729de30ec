package main

import "fmt"

func collatz(n int) int {
	steps := 0
	for n != 1 {
		if n%2 == 0 {
			n /= 2
		} else {
			n = 3*n + 1
		}
		steps++
	}
	return steps
}

func main() {
	best, bestN := 0, 0
	for i := 1; i < 10000; i++ {
		if s := collatz(i); s > best {
			best, bestN = s, i
		}
	}
	fmt.Printf("longest chain under 10000: %d (%d steps)\n", bestN, best)
	fmt.Println(collatz(27))
}
