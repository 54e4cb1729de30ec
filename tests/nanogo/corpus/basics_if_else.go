package main

import "fmt"

func classify(n int) string {
	if n < 0 {
		return "negative"
	} else if n == 0 {
		return "zero"
	} else if n < 10 {
		return "small"
	}
	return "large"
}

func main() {
	for _, n := range []int{-5, 0, 7, 42} {
		fmt.Printf("%d is %s\n", n, classify(n))
	}
	if v := classify(3); v == "small" {
		fmt.Println("ok", v)
	}
}
