package main

import "fmt"

func fibGen(n int) <-chan int {
	ch := make(chan int)
	go func() {
		defer close(ch)
		a, b := 0, 1
		for i := 0; i < n; i++ {
			ch <- a
			a, b = b, a+b
		}
	}()
	return ch
}

func take(ch <-chan int, n int) []int {
	var out []int
	for v := range ch {
		if len(out) == n {
			break
		}
		out = append(out, v)
	}
	return out
}

func main() {
	for v := range fibGen(10) {
		fmt.Print(v, " ")
	}
	fmt.Println()
	fmt.Println(take(fibGen(20), 5))
	results := make(chan string)
	go func() {
		defer close(results)
		for _, w := range []string{"x", "y"} {
			results <- w + w
		}
	}()
	for r := range results {
		fmt.Println(r)
	}
}
