func isPrime(n int) bool {
	if n < 2 {
		return false
	}
	for i := 2; i*i <= n; i++ {
		if n%i == 0 {
			return false
		}
	}
	return true
}

var primes []int
for i := 0; len(primes) < 20; i++ {
	if isPrime(i) {
		primes = append(primes, i)
	}
}
fmt.Println("First 20 primes:", primes)
