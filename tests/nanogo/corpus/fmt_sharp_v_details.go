package main

import "fmt"

type Inner struct {
	N  int
	On bool
}

type T struct {
	A  []int
	M  map[string]int
	P  *Inner
	I  interface{}
	S  string
	In Inner
	F  float64
	U  uint8
	R  rune
}

type Named []string
type ID uint

func main() {
	fmt.Printf("%#v\n", T{})
	fmt.Printf("%#v\n", T{A: []int{1}, M: map[string]int{"b": 2, "a": 1}, I: 3, S: "q\"x", F: 1e6, U: 5, R: 'a'})
	fmt.Printf("%#v\n", []interface{}{1, "a", nil, 2.5, true})
	fmt.Printf("%#v %#v %#v\n", Named{"x"}, ID(7), uint16(300))
	fmt.Printf("%#v %#v %#v\n", &Inner{}, []*Inner(nil), map[int]bool{2: true, 1: false})
	fmt.Printf("%#v %#v %#v %#v\n", 1.0, 0.5, -2.0, 1e21)
	fmt.Printf("%#v %#v\n", [2]string{"a"}, struct{ X, Y int }{1, 2})
	var e error
	fmt.Printf("%#v %#v\n", e, interface{}(nil))
}
