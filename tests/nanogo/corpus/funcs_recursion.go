package main

import "fmt"

func factorial(n int) int {
	if n <= 1 {
		return 1
	}
	return n * factorial(n-1)
}

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func hanoi(n int, from, to, via string, moves *int) {
	if n == 0 {
		return
	}
	hanoi(n-1, from, via, to, moves)
	*moves++
	hanoi(n-1, via, to, from, moves)
}

func gcd(a, b int) int {
	if b == 0 {
		return a
	}
	return gcd(b, a%b)
}

func isEven(n int) bool {
	if n == 0 {
		return true
	}
	return isOdd(n - 1)
}

func isOdd(n int) bool {
	if n == 0 {
		return false
	}
	return isEven(n - 1)
}

func main() {
	for i := 0; i <= 20; i += 5 {
		fmt.Printf("%d! = %d\n", i, factorial(i))
	}
	fmt.Println(factorial(25))
	fmt.Println(fib(20))
	moves := 0
	hanoi(10, "A", "C", "B", &moves)
	fmt.Println("hanoi moves:", moves)
	fmt.Println(gcd(48, 18), gcd(17, 5))
	fmt.Println(isEven(10), isOdd(7))
}
