package main

import "fmt"

func main() {
	for i := 0; i < 3; i++ {
		defer fmt.Println("deferred", i)
	}
	x := 10
	defer fmt.Println("x at defer time:", x)
	x = 20
	defer func() { fmt.Println("x in closure:", x) }()
	x = 30
	fmt.Println("main body done")
}
