package main

import "fmt"

func weekday(n int) string {
	switch n {
	case 1, 7:
		return "weekend"
	case 2, 3, 4, 5, 6:
		return "weekday"
	}
	return "invalid"
}

func main() {
	for _, n := range []int{1, 3, 8} {
		fmt.Println(n, weekday(n))
	}
	switch s := fmt.Sprint(42); len(s) {
	case 1:
		fmt.Println("one digit")
	case 2:
		fmt.Println("two digits:", s)
	}
	x := 7
	switch {
	case x > 5 && x < 10:
		fmt.Println("between")
	case x > 0:
		fmt.Println("positive")
	}
	switch x {
	default:
		fmt.Println("default first")
	case 1:
		fmt.Println("one")
	}
}
