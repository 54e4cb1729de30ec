package main

import "fmt"

var trace []string

func val(name string, v int) int {
	trace = append(trace, name)
	return v
}

func pair() (int, int) { return val("p1", 1), val("p2", 2) }

func main() {
	sum := val("a", 1) + val("b", 2)*val("c", 3)
	fmt.Println(sum, trace)
	trace = nil
	arr := []int{val("x", 1), val("y", 2)}
	fmt.Println(arr, trace)
	trace = nil
	m := map[string]int{"k": val("m", 5)}
	fmt.Println(m, trace)
	i := 0
	s := []int{10, 20, 30}
	i, s[i] = 1, 99
	fmt.Println(i, s)
	a, b := pair()
	fmt.Println(a, b, trace)
	x := 1
	f := func() int { x *= 10; return x }
	y := f() + f()
	fmt.Println(y, x)
	if val("cond1", 0) == 1 && val("cond2", 1) == 1 {
		fmt.Println("never")
	}
	fmt.Println(trace[len(trace)-1])
}
