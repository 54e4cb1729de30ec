gcd := func(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
pairs := [][2]int{{48, 18}, {100, 75}, {17, 13}, {0, 5}}
for _, p := range pairs {
	fmt.Printf("gcd(%d, %d) = %d\n", p[0], p[1], gcd(p[0], p[1]))
}
