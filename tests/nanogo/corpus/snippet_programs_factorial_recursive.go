func factorial(n int) int {
	if n == 0 {
		return 1
	}
	return n * factorial(n-1)
}

for i := 0; i <= 10; i++ {
	fmt.Printf("%2d! = %d\n", i, factorial(i))
}
