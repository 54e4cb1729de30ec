package main

import "fmt"

func main() {
	x := 2
	switch x {
	case 1:
		fmt.Println("one")
	case 2, 1:
		fmt.Println("two")
	}
}
