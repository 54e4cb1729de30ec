package main

import "fmt"

func main() {
	var a int
	var b string
	var c bool
	var d float64
	fmt.Println(a, b, c, d)
	var x, y = 1, "two"
	z := 3.5
	fmt.Println(x, y, z)
	var (
		name = "Gopher"
		age  = 13
	)
	fmt.Printf("%s is %d years old\n", name, age)
	x, w := 10, 20
	fmt.Println(x, w)
	a, b2 := 5, 6
	a, b2 = b2, a
	fmt.Println(a, b2)
}
