func mustParse(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

fmt.Println(mustParse("12"))
fmt.Println(mustParse("1x2"))
