var fib func(n int) int
memo := map[int]int{}
fib = func(n int) int {
	if n <= 1 {
		return n
	}
	if v, ok := memo[n]; ok {
		return v
	}
	memo[n] = fib(n-1) + fib(n-2)
	return memo[n]
}
fmt.Println(fib(80))
fmt.Println(len(memo))
