package main

import "fmt"

type P struct{ A, B int }

func main() {
	fmt.Printf("[%5v]\n", []int{1, 22, 333})
	fmt.Printf("[%-4v]\n", P{1, 2})
	fmt.Printf("[%6.2f]\n", []float64{1, 2.345})
	fmt.Printf("[%3v]\n", map[string]int{"a": 1})
	fmt.Printf("[%x]\n", []int{10, 255})
	fmt.Printf("[%q]\n", []interface{}{"a", 1, 'b'})
	fmt.Printf("[%05.1f] [%-+6d] [% 05d]\n", 3.14159, 42, 42)
	fmt.Printf("[%#v] [%#v]\n", [2]bool{true}, struct{ X []string }{nil})
	fmt.Printf("[%v] [%+v]\n", struct {
		A *int
		B []P
	}{nil, []P{{1, 2}}}, struct{ M map[int]P }{map[int]P{1: {3, 4}}})
}
