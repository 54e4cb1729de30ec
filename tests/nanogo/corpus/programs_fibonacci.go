package main

import "fmt"

func fibMemo() func(int) int {
	memo := map[int]int{}
	var f func(int) int
	f = func(n int) int {
		if n < 2 {
			return n
		}
		if v, ok := memo[n]; ok {
			return v
		}
		memo[n] = f(n-1) + f(n-2)
		return memo[n]
	}
	return f
}

func main() {
	a, b := 0, 1
	for i := 0; i < 15; i++ {
		fmt.Print(a, " ")
		a, b = b, a+b
	}
	fmt.Println()
	f := fibMemo()
	fmt.Println(f(50), f(90))
	fib := make([]uint64, 94)
	fib[1] = 1
	for i := 2; i < len(fib); i++ {
		fib[i] = fib[i-1] + fib[i-2]
	}
	fmt.Println(fib[93])
	fmt.Println(fib[93] + fib[92])
}
