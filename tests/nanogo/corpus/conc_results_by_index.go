package main

import (
	"fmt"
	"sync"
)

func isPrime(n int) bool {
	if n < 2 {
		return false
	}
	for i := 2; i*i <= n; i++ {
		if n%i == 0 {
			return false
		}
	}
	return true
}

func main() {
	ranges := [][2]int{{1, 1000}, {1001, 2000}, {2001, 3000}, {3001, 4000}}
	counts := make([]int, len(ranges))
	var wg sync.WaitGroup
	for i, r := range ranges {
		wg.Add(1)
		go func(i, lo, hi int) {
			defer wg.Done()
			for n := lo; n <= hi; n++ {
				if isPrime(n) {
					counts[i]++
				}
			}
		}(i, r[0], r[1])
	}
	wg.Wait()
	total := 0
	for i, c := range counts {
		fmt.Printf("range %d: %d primes\n", i, c)
		total += c
	}
	fmt.Println("total:", total)
}
