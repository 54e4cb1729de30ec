package main

import (
	"fmt"
	"strings"
)

type Customer struct {
	ID      int
	Arrival int
	Service int
}

func main() {
	customers := []Customer{{1, 0, 3}, {2, 1, 2}, {3, 2, 4}, {4, 8, 1}, {5, 9, 2}}
	clock, totalWait := 0, 0
	for _, c := range customers {
		if clock < c.Arrival {
			clock = c.Arrival
		}
		wait := clock - c.Arrival
		totalWait += wait
		fmt.Printf("customer %d: arrives %2d, starts %2d, waits %d %s\n", c.ID, c.Arrival, clock, wait, strings.Repeat(".", wait))
		clock += c.Service
	}
	fmt.Printf("average wait: %.2f\n", float64(totalWait)/float64(len(customers)))
}
