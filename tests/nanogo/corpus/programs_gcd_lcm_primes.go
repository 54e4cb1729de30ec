package main

import "fmt"

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int) int { return a / gcd(a, b) * b }

func primeFactors(n int) []int {
	var f []int
	for p := 2; p*p <= n; p++ {
		for n%p == 0 {
			f = append(f, p)
			n /= p
		}
	}
	if n > 1 {
		f = append(f, n)
	}
	return f
}

func isPerfect(n int) bool {
	sum := 1
	for i := 2; i*i <= n; i++ {
		if n%i == 0 {
			sum += i
			if i != n/i {
				sum += n / i
			}
		}
	}
	return n > 1 && sum == n
}

func main() {
	fmt.Println(gcd(84, 36), lcm(4, 6), lcm(21, 6))
	for _, n := range []int{12, 97, 360, 1001, 65536} {
		fmt.Println(n, primeFactors(n))
	}
	var perfect []int
	for i := 1; i < 10000; i++ {
		if isPerfect(i) {
			perfect = append(perfect, i)
		}
	}
	fmt.Println(perfect)
}
