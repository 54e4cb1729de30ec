package main

import "fmt"

type Named interface{ Name() string }
type Dog struct{}

func (Dog) Name() string { return "dog" }

func main() {
	var i interface{} = "hello"
	s, ok := i.(string)
	fmt.Println(s, ok)
	n, ok := i.(int)
	fmt.Println(n, ok)
	s2 := i.(string)
	fmt.Println(len(s2))
	var x interface{} = Dog{}
	if nm, ok := x.(Named); ok {
		fmt.Println("named:", nm.Name())
	}
	_, isStr := x.(fmt.Stringer)
	fmt.Println(isStr)
	var f interface{} = 3.0
	switch f.(type) {
	case int:
		fmt.Println("int")
	case float64:
		fmt.Println("float64")
	}
}
