package main

import "fmt"

func main() {
	s := make([]int, 3, 5)
	fmt.Println(len(s[1:2:4]), cap(s[1:2:4]))
	max := 10
	fmt.Println(s[1:2:max])
}
