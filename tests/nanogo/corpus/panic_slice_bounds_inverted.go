package main

import "fmt"

func main() {
	s := "hello"
	lo, hi := 3, 1
	fmt.Println(s[lo:hi])
}
