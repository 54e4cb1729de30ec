package main

import "fmt"

var x = 100

func main() {
	fmt.Println(x)
	x := 1
	fmt.Println(x)
	{
		x := 2
		x++
		fmt.Println(x)
	}
	fmt.Println(x)
	if x := 50; x > 10 {
		fmt.Println("inner", x)
	}
	for i := 0; i < 2; i++ {
		x := i * 10
		fmt.Println(x)
	}
	fmt.Println(x)
}
