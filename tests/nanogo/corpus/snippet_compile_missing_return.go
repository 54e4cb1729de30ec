func check(n int) bool {
	if n > 0 {
		return true
	}
}

fmt.Println(check(1))
