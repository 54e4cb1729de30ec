result := compute(6)
fmt.Println("result:", result)
fmt.Println(describe(result))

func compute(n int) int {
	return n * (n + 1) / 2
}

func describe(n int) string {
	if n%2 == 0 {
		return strings.ToUpper("even")
	}
	return "odd"
}
