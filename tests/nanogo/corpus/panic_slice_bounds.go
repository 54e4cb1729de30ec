package main

import "fmt"

func main() {
	s := []int{1, 2, 3, 4}
	lo, hi := 2, 10
	fmt.Println(s[lo:hi])
}
