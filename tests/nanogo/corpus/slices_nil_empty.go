package main

import "fmt"

func main() {
	var a []int
	b := []int{}
	c := make([]int, 0)
	fmt.Println(a == nil, b == nil, c == nil)
	fmt.Println(len(a), cap(a), a, b)
	fmt.Printf("%v %v %d\n", a, b, len(c))
	for range a {
		fmt.Println("never")
	}
	a = append(a, 1)
	fmt.Println(a)
	var m map[string][]int
	fmt.Println(m["x"], len(m["x"]), m == nil)
	fmt.Printf("%#v %#v\n", []int(nil), []string{})
}
