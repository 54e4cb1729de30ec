func fibonacci(n int) []int {
	seq := make([]int, n)
	for i := range seq {
		if i < 2 {
			seq[i] = i
		} else {
			seq[i] = seq[i-1] + seq[i-2]
		}
	}
	return seq
}

fmt.Println(fibonacci(20))
fmt.Println("fib(90) =", fibonacci(91)[90])
