package main

import "fmt"

type Speaker interface{ Speak() string }

type Cat struct{}

func (c *Cat) Speak() string {
	if c == nil {
		return "nil cat"
	}
	return "meow"
}

func main() {
	var s Speaker
	fmt.Println(s == nil)
	var c *Cat
	s = c
	fmt.Println(s == nil, s.Speak())
	s = &Cat{}
	fmt.Println(s.Speak())
	var any interface{} = 42
	fmt.Println(any)
	any = "str"
	fmt.Println(any)
	vals := []interface{}{1, "a", 2.5, nil, true, []int{1}}
	fmt.Println(vals...)
	fmt.Println(vals)
	var e interface{}
	fmt.Println(e, e == nil)
	fmt.Printf("%v %T\n", e, e)
}
