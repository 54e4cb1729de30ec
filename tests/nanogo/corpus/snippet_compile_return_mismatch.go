func half(n int) int {
	return n / 2.5
}

fmt.Println(half(5))
