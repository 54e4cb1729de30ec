n := 360
orig := n
factors := map[int]int{}
for p := 2; p*p <= n; p++ {
	for n%p == 0 {
		factors[p]++
		n /= p
	}
}
if n > 1 {
	factors[n]++
}
fmt.Println(orig, "=", factors)
parts := []string{}
primes := make([]int, 0, len(factors))
for p := range factors {
	primes = append(primes, p)
}
sort.Ints(primes)
for _, p := range primes {
	parts = append(parts, fmt.Sprintf("%d^%d", p, factors[p]))
}
fmt.Println(strings.Join(parts, " × "))
