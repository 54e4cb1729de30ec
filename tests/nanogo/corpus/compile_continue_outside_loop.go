package main

import "fmt"

func main() {
	x := 3
	if x > 2 {
		continue
	}
	fmt.Println(x)
}
