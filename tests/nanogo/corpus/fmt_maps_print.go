package main

import "fmt"

type Key struct {
	A string
	B int
}

func main() {
	m := map[string][]int{"b": {2}, "a": {1, 1}, "c": nil}
	fmt.Println(m)
	fmt.Printf("%v\n%+v\n%#v\n", m, m, map[string]int{"y": 2, "x": 1})
	mk := map[Key]bool{{"b", 1}: true, {"a", 2}: false, {"a", 1}: true}
	fmt.Println(mk)
	mi := map[int]string{-10: "neg", 3: "three", 0: "zero", 100: "hundred"}
	fmt.Println(mi)
	mb := map[bool][]string{false: {"f"}, true: {"t"}}
	fmt.Println(mb)
	mr := map[rune]int{'b': 2, 'a': 1}
	fmt.Println(mr)
	var nm map[string]int
	fmt.Println(nm, len(nm))
	fmt.Printf("%#v\n", nm)
	mif := map[interface{}]int{"b": 1, 2: 2, "a": 3, 1: 4}
	fmt.Println(mif)
}
