package main

import "fmt"

func main() {
	const n = 1000000
	composite := make([]bool, n+1)
	count, sum := 0, 0
	for i := 2; i <= n; i++ {
		if composite[i] {
			continue
		}
		count++
		sum += i
		for j := i * i; j <= n; j += i {
			composite[j] = true
		}
	}
	fmt.Println(count, sum)
}
