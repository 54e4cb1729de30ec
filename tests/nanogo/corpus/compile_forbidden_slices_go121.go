package main

import (
	"fmt"
	"slices"
)

func main() {
	s := []int{3, 1, 2}
	slices.Sort(s)
	fmt.Println(s)
}
