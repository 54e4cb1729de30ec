package main

import "fmt"

func counter() func() int {
	c := 0
	return func() int {
		c++
		return c
	}
}

func adder(base int) func(int) int {
	return func(x int) int { return base + x }
}

func compose(f, g func(int) int) func(int) int {
	return func(x int) int { return f(g(x)) }
}

func main() {
	next := counter()
	fmt.Println(next(), next(), next())
	other := counter()
	fmt.Println(other(), next())
	add5 := adder(5)
	double := func(x int) int { return x * 2 }
	fmt.Println(add5(10), compose(add5, double)(3), compose(double, add5)(3))
	x := 1
	inc := func() { x++ }
	inc()
	inc()
	fmt.Println(x)
	fib := func() func() int {
		a, b := 0, 1
		return func() int {
			r := a
			a, b = b, a+b
			return r
		}
	}()
	for i := 0; i < 10; i++ {
		fmt.Print(fib(), " ")
	}
	fmt.Println()
}
