toBinary := func(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for n > 0 {
		s = strconv.Itoa(n%2) + s
		n /= 2
	}
	return s
}
for _, n := range []int{0, 5, 10, 255, 1024} {
	fmt.Printf("%4d -> %11s (check %b)\n", n, toBinary(n), n)
}
v, _ := strconv.ParseInt("11111111", 2, 64)
fmt.Println(v)
